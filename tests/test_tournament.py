"""``kierki tournament`` (issue 23, point 3): duplicate form, a journal that survives SIGKILL,
ratings, SPRT, and a variance lower than plain matches on the same number of deals."""
from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.tournament import Journal, JournalError, play, schedule, seating, sprt_llr, summary

ROOT = Path(__file__).resolve().parent.parent
SHORT = ROOT / "tests" / "data" / "bots_two_deals.yaml"
KIERKI = [sys.executable, "-m", "kierki_dsl", "tournament", str(SHORT), "--players", "heuristic,random", "--seeds", "6",
          "--format", "json"]


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_a_tournament_killed_and_resumed_gives_the_table_of_one_run(tmp_path):
    killed = tmp_path / "killed.jsonl"
    proc = subprocess.Popen([*KIERKI, "--workers", "2", "--journal", str(killed)], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        while _lines(killed) < 6 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # polling the journal for progress
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    total = len(schedule(2, 4, range(1, 7)))
    at_kill = _lines(killed) - 1
    assert 0 < at_kill < total, "the kill must come mid-tournament"
    resumed = subprocess.run([*KIERKI, "--journal", str(killed)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"tournament: {at_kill + 1}/{total}" in resumed.stderr  # only the missing matches were played
    page = tmp_path / "t.html"
    once = subprocess.run([*KIERKI, "--journal", str(tmp_path / "once.jsonl"), "--html", str(page)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert once.returncode == 0, once.stderr
    assert json.loads(resumed.stdout) == json.loads(once.stdout)
    table = json.loads(once.stdout)
    assert table["matches"] == total and table["pairs"][0]["deal_sets"] == 6
    assert [r["player"] for r in table["ratings"]] == ["heuristic", "random"]
    assert page.read_text().count("<img") == 2 and "heuristic" in page.read_text()


def test_a_journal_of_another_tournament_is_refused(tmp_path):
    journal = tmp_path / "j.jsonl"
    journal.write_text(json.dumps({"tournament": {"ruleset": "x", "players": ["a", "b"]}}) + "\n")
    proc = subprocess.run([*KIERKI, "--seeds", "1", "--journal", str(journal)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 1, "a file kierki refuses to append to is a bad input file (docs/limits.md)"
    assert proc.stderr.strip() == f"{journal}:1: error: the journal of another tournament (other rules or players)"


def test_a_journal_kierki_cannot_keep_is_refused_before_any_match(tmp_path):
    """A --journal in a folder that does not exist, or a device (/dev/null cannot be synced), is a
    usage error before any match (exit 2), not an internal error once the first match ended; so
    is an --html page in a folder that does not exist (it was found only once every match was played)."""
    cases = [("--journal", tmp_path / "gone" / "j.jsonl", "no such folder"),
             ("--journal", "/dev/null", "is a character device"),
             ("--html", tmp_path / "gone" / "t.html", "no such folder")]  # not found after the whole tournament
    for option, path, said in cases:
        proc = subprocess.run([*KIERKI, "--seeds", "1", option, str(path)], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 2 and said in proc.stderr and option in proc.stderr, proc.stderr
        assert "internal error" not in proc.stderr and "tournament: 1/" not in proc.stderr


def test_a_journal_that_cannot_be_written_is_a_journal_error(tmp_path):
    book = Journal(str(tmp_path / "gone" / "j.jsonl"), {"ruleset": "x", "players": ["a", "b"]})
    with pytest.raises(JournalError, match=r"j\.jsonl: error: cannot write the journal: No such file"):
        book.start()


# Review: a journal of 60,000 `[` was refused by the parser's RecursionError, caught, with exit 2
# (a usage error); it is now read through jsonshape as records and save files are: located, exit 1.
def test_a_journal_nested_too_deep_is_a_located_bad_input_file(tmp_path):
    journal = tmp_path / "j.jsonl"
    journal.write_text("[" * 60000 + "\n")
    proc = subprocess.run([*KIERKI, "--seeds", "1", "--journal", str(journal)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    said = f"{journal}:1: error: not a tournament journal (its first line is JSON nests deeper than 64 levels)"
    assert proc.returncode == 1 and proc.stderr.strip() == said, proc.stderr


def test_duplicate_seating_puts_each_side_alone_at_every_seat():
    seats = [seating((0, 1, 5, r), 4) for r in range(8)]
    assert all(row.count(0) == 1 for row in seats[:4]) and all(row.count(1) == 1 for row in seats[4:])
    assert {row.index(0) for row in seats[:4]} == {0, 1, 2, 3}


def test_sprt_stops_once_a_player_is_shown_stronger():
    done = {}
    for seed in range(1, 41):
        for r in range(8):
            done[(0, 1, seed, r)] = {"key": [0, 1, seed, r], "a": 10.0, "b": 0.0, "failed": []}
    table = summary(["strong", "weak"], done, 4, range(1, 41), (0.0, 50.0, 0.05, 0.05))
    assert table["sprt"]["result"] == "H1" and table["sprt"]["deal_sets"] < 40
    assert sprt_llr([-1.0] * 30, 0.0, 50.0) < 0


@pytest.mark.parametrize("sprt", ["nan,10", "-inf,0", "0,inf", "0,1e300", "0,10,nan,0.05", "0,10,0.05"])
def test_an_sprt_setting_that_is_no_test_is_refused(sprt):
    """--sprt nan,10 ran with an LLR of nan; -inf,0 decided H1 after one deal set (LLR 375);
    three values are neither form: each is a usage error before any match."""
    proc = subprocess.run(
        [*KIERKI, "--seeds", "1", "--sprt", sprt], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2 and "--sprt expects ELO0,ELO1" in proc.stderr, proc.stderr
    assert "tournament: 1/" not in proc.stderr


@pytest.mark.slow  # a long property or cluster run (README: the quick suite stays within 8 minutes)
def test_duplicate_form_has_a_lower_variance_than_plain_matches_on_as_many_deals():
    """Per observation the same number of deals: 8 matches of one seed, seats rotated
    (duplicate), against 8 matches of 8 different seeds, A alone at seat 0 (plain). Two players
    whose decisions vary little from match to match (heuristic, search): the duplicate form
    cancels the cards' luck, not the noise of a random player's choices (docs/bots.md)."""
    rs = Ruleset.load(str(SHORT))
    names = ["heuristic", "search:3"]
    duplicate, plain = [], []
    for seed in range(1, 17):
        duplicate.append(statistics.fmean(_diff(rs, names, (0, 1, seed, r)) for r in range(8)))
        plain.append(statistics.fmean(_diff(rs, names, (0, 1, 5000 + 8 * seed + r, 0)) for r in range(8)))
    ratio = statistics.variance(duplicate) / statistics.variance(plain)
    print(f"variance duplicate/plain: {ratio:.2f}")
    assert ratio < 0.75


def _diff(rs, names, key) -> float:
    row = play(rs, names, key)
    return row["a"] - row["b"]


def test_a_crashing_exec_bot_does_not_stop_a_tournament_match(tmp_path):
    bot = tmp_path / "crash.py"
    bot.write_text("import sys\nsys.stdin.readline()\nprint('{\"type\": \"ready\"}', flush=True)\n"
                   "sys.stdin.readline()\nsys.exit(5)\n")
    rs = Ruleset.load(str(SHORT))
    names = ["heuristic", f"exec:{sys.executable} {bot}"]
    for failure in ("random", "forfeit"):
        row = play(rs, names, (0, 1, 3, 0), failure)
        assert row["failed"] == [names[1]] and isinstance(row["b"], float)


def test_the_ladder_is_a_two_player_tournament():
    """``kierki ladder`` reports the tournament's pairwise difference (issue 23: the ladder is a
    special case of the tournament, not a second way of playing duplicate matches)."""
    from kierki_dsl.ladder import duel
    from kierki_dsl.tournament import run

    rs = Ruleset.load(str(SHORT))
    seeds = range(3, 6)
    ladder = duel(rs, "heuristic", "random", seeds)
    table = run(rs, ["heuristic", "random"], seeds)
    [pair] = table["pairs"]
    assert ladder["match"].n == pair["deal_sets"] == len(seeds)
    assert abs(ladder["match"].mean - pair["diff"]) < 1e-9
    assert abs(ladder["match"].half_width - pair["ci95"]) < 1e-9


def test_a_match_row_splits_its_points_into_the_negative_and_positive_deals():
    rs = Ruleset.load(str(ROOT / "rulesets" / "kierki_standard.yaml"))
    row = play(rs, ["heuristic", "random"], (0, 1, 2, 5))
    neg, pos = row["parts"]["negative"], row["parts"]["positive"]
    assert abs(neg[0] + pos[0] - row["a"]) < 1e-9 and abs(neg[1] + pos[1] - row["b"]) < 1e-9
    assert neg[0] < 0 and pos[0] > 0  # Kierki has both kinds of deal, and heuristic takes some of each


def test_kierki_ladder_runs_as_a_tournament_with_workers():
    out = subprocess.run([sys.executable, "-m", "kierki_dsl", "ladder", str(SHORT), "--pairs", "heuristic:random",
                          "--seeds", "2", "--workers", "2"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "2 seeds × 8 seatings" in out.stdout and "heuristic vs random" in out.stdout


def test_the_ladder_splits_its_table_into_parts_only_where_a_ruleset_has_both(tmp_path):
    """Play-test 5: `kierki ladder` of Hearts showed a 'negative part' of +0.0 ± 0.0 and all the
    (negative) points under 'positive part': a ruleset whose deals are of one kind gets one column."""
    one = tmp_path / "one.yaml"
    one.write_text("kierki: 1\nname: one kind\nplayers: 4\nmatch: {schedule: [a]}\n"
                   "contracts:\n  a: {total: -13, score: [{per_trick: -1}]}\n")
    out = subprocess.run([sys.executable, "-m", "kierki_dsl", "ladder", str(one), "--pairs", "heuristic:random",
                          "--seeds", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "per match" in out.stdout and "part" not in out.stdout, out.stdout


def test_a_failing_bot_forfeits_by_default_so_it_does_not_rank_as_a_stand_in(tmp_path):
    """A bot that crashes at once is ranked by what its seat then plays: by default its first
    legal action every turn (forfeit), which loses to the heuristic; the heuristic standing in
    for it would have tied the heuristic."""
    from kierki_dsl.tournament import ON_FAILURE

    bot = tmp_path / "crash.py"
    bot.write_text("import sys\nsys.stdin.readline()\nprint('{\"type\": \"ready\"}', flush=True)\n"
                   "sys.stdin.readline()\nsys.exit(5)\n")
    rs = Ruleset.load(str(SHORT))
    names = ["heuristic", f"exec:{sys.executable} {bot}"]
    assert ON_FAILURE == "forfeit"
    forfeits = [_diff_failed(rs, names, (0, 1, seed, r)) for seed in range(2) for r in range(8)]
    stand_in = [_diff_failed(rs, names, (0, 1, seed, r), "heuristic") for seed in range(2) for r in range(8)]
    assert sum(forfeits) > 0, "the heuristic beats a crashed bot's forfeit"
    assert sum(forfeits) > sum(stand_in)


def _diff_failed(rs, names, key, *on_failure) -> float:
    row = play(rs, names, key, *on_failure)
    assert row["failed"] == [names[1]]
    return row["a"] - row["b"]


def test_the_ladder_counts_one_seed_in_the_singular():
    from kierki_dsl.ladder import report

    rs = Ruleset.load(str(SHORT))
    assert "1 seed × 8 seatings" in report(rs, [("heuristic", "random")], range(1, 2)).splitlines()[0]


# Play-test 7: `kierki ladder` with a bot that failed printed its figures as if the bot had played
# them (its seat forfeited from the failure on); `kierki tournament` names such bots, the ladder now too.
def test_the_ladder_names_the_bots_that_failed(tmp_path):
    from kierki_dsl.ladder import report

    bot = tmp_path / "crash.py"
    bot.write_text("import sys\nsys.stdin.readline()\nsys.exit(5)\n")
    rs = Ruleset.load(str(SHORT))
    crashing = f"exec:{sys.executable} {bot}"
    said = report(rs, [(crashing, "random"), ("heuristic", "random")], range(1, 2))
    assert said.splitlines()[-1] == f"Bots that failed in some match: {crashing}"
    assert "failed" not in report(rs, [("heuristic", "random")], range(1, 2))


# Play-test 7: a journal whose first line was 100,000 `[` was refused with "maximum recursion depth
# exceeded while decoding a JSON array" (the parser's RecursionError, caught as any RuntimeError).
@pytest.mark.parametrize("first, why", [
    (b"[" * 100000, "its first line is JSON nests deeper than 64 levels"),
    (b"not json", "its first line is not valid JSON: Expecting value"),
    (b"\xff\xfe", "its first line is not UTF-8"),
    (b"{}", "its first line names no tournament"),
    (json.dumps({"tournament": None}).encode(), "its first line names no tournament"),
])
def test_a_file_that_is_no_journal_is_refused_saying_so(tmp_path, first, why):
    journal = tmp_path / "j.jsonl"
    journal.write_bytes(first + b"\n")
    with pytest.raises(JournalError) as e:
        Journal(str(journal), {"ruleset": "x", "players": ["a", "b"]}).load()
    assert str(e.value).startswith(f"{journal}:1:") and f": error: not a tournament journal ({why}" in str(e.value)


def test_a_journal_line_nested_too_deep_is_skipped_as_a_cut_one_is(tmp_path):
    header = {"ruleset": "x", "players": ["a", "b"]}
    journal = tmp_path / "j.jsonl"
    row = {"key": [0, 1, 1, 0], "a": 1.0, "b": 0.0, "failed": [], "parts": {"negative": [0, 0], "positive": [1.0, 0]}}
    journal.write_text("\n".join([json.dumps({"tournament": header}), "[" * 60000, json.dumps(row), '{"key": [0, 1'])
                       + "\n")
    assert Journal(str(journal), header).load() == {(0, 1, 1, 0): row}


# Session 8: a journal line changed by hand into JSON of another shape ("a" a string, no "a", a
# "failed" that is a number, a key of lists, an infinite total) ended `kierki tournament` with an
# internal error (exit 70) or a table of infinities; such a line is now played again, as a cut one is.
GOOD = {"key": [0, 1, 1, 0], "a": -15.0, "b": 5.0, "failed": [], "parts": {"negative": [-6.0, -6.5], "positive": [6, 6.5]}}


@pytest.mark.parametrize("bad", [
    {**GOOD, "a": "x"},
    {k: v for k, v in GOOD.items() if k != "a"},
    {**GOOD, "failed": 3},
    {**GOOD, "failed": ["a bot no player is"]},
    {**GOOD, "key": [[1], 2, 3, 4]},
    {**GOOD, "key": [0, 1, 1]},
    {**GOOD, "key": [0, 1, True, 0]},
    {**GOOD, "a": 1e308, "b": -1e308},
    {**GOOD, "parts": {"negative": [1]}},
    {**GOOD, "parts": {"negative": [1, 2]}},
    {**GOOD, "parts": []},
    [GOOD],
])
def test_a_journal_line_of_another_shape_is_played_again(tmp_path, bad):
    header = {"ruleset": "x", "players": ["a", "b"]}
    journal = tmp_path / "j.jsonl"
    other = {**GOOD, "key": [0, 1, 1, 1]}
    journal.write_text("\n".join(json.dumps(x) for x in ({"tournament": header}, bad, other)) + "\n")
    assert Journal(str(journal), header).load() == {(0, 1, 1, 1): other}


def test_a_journal_with_a_line_changed_by_hand_gives_the_table_of_one_run(tmp_path):
    clean = tmp_path / "clean.jsonl"
    once = subprocess.run([*KIERKI, "--seeds", "1", "--journal", str(clean)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert once.returncode == 0, once.stderr
    lines = clean.read_text().splitlines()
    changed = tmp_path / "changed.jsonl"
    row = json.loads(lines[2])
    row["a"] = "x"
    changed.write_text("\n".join([*lines[:2], json.dumps(row), *lines[3:]]) + "\n")
    again = subprocess.run([*KIERKI, "--seeds", "1", "--journal", str(changed)], cwd=ROOT, capture_output=True,
                           text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(once.stdout)
    assert f"tournament: {len(lines) - 1}/{len(lines) - 1}" in again.stderr  # one match played again


def test_a_match_after_a_cut_line_is_journalled_on_a_line_of_its_own(tmp_path):
    header = {"ruleset": "x", "players": ["a", "b"]}
    journal = tmp_path / "j.jsonl"
    journal.write_text(json.dumps({"tournament": header}) + "\n" + json.dumps(GOOD) + "\n" + '{"key": [0, 1')
    book = Journal(str(journal), header)
    assert book.load() == {(0, 1, 1, 0): GOOD}
    book.start()
    other = {**GOOD, "key": [0, 1, 1, 1]}
    book.append(other)
    assert book.load() == {(0, 1, 1, 0): GOOD, (0, 1, 1, 1): other}
    book.start()  # a journal that ends its last line is left as it is
    assert journal.read_text().endswith(json.dumps(other) + "\n") and journal.read_text().count("\n") == 4


# Play-test 10: a journal that could be read but not written (read-only, as a user not root) met
# `start()`'s reopening for its cut line as an OSError: an internal error, exit 70.
def test_a_journal_that_cannot_be_written_is_a_located_error_when_its_cut_line_is_ended(tmp_path, monkeypatch):
    import builtins

    header = {"ruleset": "x", "players": ["a", "b"]}
    journal = tmp_path / "j.jsonl"
    journal.write_text(json.dumps({"tournament": header}) + "\n" + '{"key": [0, 1')
    real = builtins.open

    def read_only(path, mode="r", *args, **kwargs):
        if str(path) == str(journal) and mode != "rb":
            raise PermissionError(13, "Permission denied")
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", read_only)
    book = Journal(str(journal), header)
    assert book.load() == {}
    with pytest.raises(JournalError, match=r"j\.jsonl: error: cannot write the journal: Permission denied$"):
        book.start()
