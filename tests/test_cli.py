"""The real ``kierki`` command, end to end: run, replay, lint, schema, exit codes."""

from __future__ import annotations

import json
import re

import pytest

from conftest import RULESETS, STANDARD, run_cli


def test_run_seed_7_is_reproducible_and_zero_sum():
    a = run_cli("run", str(STANDARD), "--seed", "7")
    b = run_cli("run", str(STANDARD), "--seed", "7")
    assert a[0] == 0 and a[2] == ""
    assert a[1] == b[1], "same seed, same output, byte for byte"
    deal_rows = [l for l in a[1].splitlines() if re.match(r"^\s+\d+\s", l)]
    assert len(deal_rows) == 12
    assert "sum of scores: 0" in a[1]
    for name in ("Bez lew — No tricks", "Rozbójnik", "Loteryjka"):
        assert name in a[1]


def test_run_without_seed_prints_the_seed_that_reproduces_it():
    code, out, err, _ = run_cli("run", str(STANDARD))
    assert code == 0
    seed = re.search(r"seed (\d+)", out.splitlines()[0]).group(1)
    again = run_cli("run", str(STANDARD), "--seed", seed)
    assert again[1] == out


def test_run_json_matches_text():
    code, out, err, _ = run_cli("run", str(STANDARD), "--seed", "7", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["seed"] == 7 and len(data["deals"]) == 12
    assert sum(data["totals"]) == 0
    assert [d["contract"] for d in data["deals"]][:7] == [
        "bez_lew",
        "bez_kierow",
        "bez_dam",
        "bez_panow",
        "bez_krola_kier",
        "bez_siodmej_i_ostatniej",
        "rozbojnik",
    ]
    assert [sum(d["scores"]) for d in data["deals"]] == [
        -260,
        -260,
        -240,
        -240,
        -150,
        -150,
        -1300,
        325,
        325,
        325,
        325,
        1300,
    ]
    text = run_cli("run", str(STANDARD), "--seed", "7")[1]
    for place in data["standings"]:
        assert f"seat {place['seat']}) {place['total']:+d}" in text


def test_record_then_replay(tmp_path):
    rec = tmp_path / "m.json"
    code, out, err, _ = run_cli("run", str(STANDARD), "--seed", "21", "--record", str(rec), "--format", "json")
    assert code == 0
    played = json.loads(out)
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD), "--format", "json")
    assert code == 0, err
    replayed = json.loads(out)
    assert [d["scores"] for d in replayed["deals"]] == [d["scores"] for d in played["deals"]]
    assert replayed["totals"] == played["totals"]
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD))
    assert code == 0 and "totals" in out and err == ""
    # play-test 5: the replayed table named each deal by its key ("bez_siodmej_i_ostatniej"), not as run does
    assert "   6  Bez siódmej i ostatniej lewy — No 7th and last trick " in out and "bez_" not in out, out


def test_replay_warns_when_the_record_names_another_ruleset(tmp_path, cli):
    rec = tmp_path / "m.json"
    assert cli("run", str(STANDARD), "--seed", "21", "--record", str(rec), "--players", "random")[0] == 0
    data = json.loads(rec.read_text("utf-8"))
    data["ruleset"]["fingerprint"] = "0123456789abcdef"
    rec.write_text(json.dumps(data), "utf-8")
    code, out, err = cli("replay", str(rec), "--ruleset", str(STANDARD))
    assert code == 0, err
    assert err.startswith(f"{rec}: warning: the record was played under ruleset 0123456789abcdef")


def _revoke(record: dict) -> tuple[int, int, int]:
    """Make a revoke in deal 1; return (deal, trick, seat) of it."""
    from kierki_dsl.cards import parse_card

    d = record["deals"][0]
    hands = [set(parse_card(c) for c in h) for h in d["hands"]]
    plays = d["plays"]
    leader = (d["dealer"] + 1) % 4
    for t in range(13):
        trick = [parse_card(p) for p in plays[4 * t : 4 * t + 4]]
        seats = [(leader + i) % 4 for i in range(4)]
        led = trick[0] // 13
        for i in range(1, 4):
            s = seats[i]
            other = sorted(c for c in hands[s] if c // 13 != led)
            if trick[i] // 13 == led and other:
                j = next(k for k, p in enumerate(plays) if parse_card(p) == other[0])
                plays[4 * t + i], plays[j] = plays[j], plays[4 * t + i]
                return 1, t + 1, s
        for s, c in zip(seats, trick):
            hands[s].discard(c)
        leader = max((c, s) for s, c in zip(seats, trick) if c // 13 == led)[1]
    raise AssertionError("no revoke possible")


def test_replay_refuses_a_revoke_with_deal_trick_seat(tmp_path):
    rec = tmp_path / "m.json"
    assert run_cli("run", str(STANDARD), "--seed", "3", "--record", str(rec))[0] == 0
    data = json.loads(rec.read_text("utf-8"))
    deal, trick, seat = _revoke(data)
    rec.write_text(json.dumps(data), "utf-8")
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD))
    assert code == 1
    assert f"deal {deal}, trick {trick}, seat {seat}: " in err
    assert "you must follow" in err and "Traceback" not in err


def test_replay_refuses_a_wrong_score(tmp_path):
    rec = tmp_path / "m.json"
    run_cli("run", str(STANDARD), "--seed", "3", "--record", str(rec))
    data = json.loads(rec.read_text("utf-8"))
    data["deals"][6]["scores"] = [0, 0, 0, -1300]
    rec.write_text(json.dumps(data), "utf-8")
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD))
    assert code == 1 and "deal 7: recorded scores [0, 0, 0, -1300] disagree" in err


def test_replay_refuses_a_record_naming_another_contract_or_player_count(tmp_path):
    rec = tmp_path / "m.json"
    run_cli("run", str(STANDARD), "--seed", "3", "--record", str(rec))
    data = json.loads(rec.read_text("utf-8"))
    data["deals"][1]["contract"] = "bez_lew"
    rec.write_text(json.dumps(data), "utf-8")
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD))
    assert (
        code == 1
        and "deal 2: the record names contract 'bez_lew', but deal 2 of this ruleset plays 'bez_kierow'" in err
    )
    data["deals"][1]["contract"] = "bez_kierow"
    data["players"] = 3
    rec.write_text(json.dumps(data), "utf-8")
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD))
    assert code == 1 and "the record is of a match of 3 players; the ruleset seats 4" in err


def test_replay_accepts_a_partial_record(tmp_path):
    rec = tmp_path / "m.json"
    run_cli("run", str(STANDARD), "--seed", "4", "--record", str(rec))
    data = json.loads(rec.read_text("utf-8"))
    data["deals"] = data["deals"][:3]
    for d in data["deals"]:  # only the required fields, with a '10' and lower case
        for k in ("contract", "caller", "scores"):
            d.pop(k)
        d["hands"][0] = [c.lower().replace("t", "10") for c in d["hands"][0]]
    data = {"format": data["format"], "deals": data["deals"]}
    rec.write_text(json.dumps(data), "utf-8")
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD), "--format", "json")
    assert code == 0, err
    assert len(json.loads(out)["deals"]) == 3


@pytest.mark.parametrize(
    "content,fragment",
    [
        ("{not json", ":1:2: error: record is not valid JSON"),
        ('{"format": "other/1", "deals": []}', "unknown record format"),
        ("[1, 2]", "a record is a JSON object"),
    ],
)
def test_replay_refuses_a_corrupt_file(tmp_path, content, fragment):
    rec = tmp_path / "bad.json"
    rec.write_text(content, "utf-8")
    code, out, err, _ = run_cli("replay", str(rec), "--ruleset", str(STANDARD))
    assert code == 1 and fragment in err and "Traceback" not in err


def test_usage_errors_exit_2():
    assert run_cli("run", "no/such/file.yaml")[0] == 2
    assert run_cli("run", str(STANDARD), "--bogus")[0] == 2
    assert run_cli("lint", "no/such/dir")[0] == 2
    code, out, err, _ = run_cli("run", str(STANDARD), "--players", "random,nobody,random,random")
    assert code == 2 and "unknown player 'nobody'" in err


def test_a_reader_that_goes_away_is_not_taken_for_success(tmp_path):
    """``kierki lint bad.yaml 2>&1 | head -1`` under ``set -o pipefail``: the findings cut off
    are not a success (exit 141, as a program SIGPIPE ends), and nothing is said of the pipe."""
    import subprocess

    from conftest import spawn, stop

    bad = tmp_path / "many.yaml"
    bad.write_text("kierki: 1\n" + "".join(f"bad{i}: 1\n" for i in range(2000)), "utf-8")
    proc = spawn(["lint", str(bad)], stderr=subprocess.STDOUT)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # the reader goes away with ~300 KB of findings unread
        assert proc.wait(timeout=60) == 141
    finally:
        stop(proc)
    assert b"error: S203" in first


def test_a_reader_that_goes_away_from_any_command_is_141():
    """Play-test 7: `kierki run RULESET | head -1` exited 1 (typer's own answer to a broken pipe),
    not the 141 docs/limits.md gives; only `kierki lint`, which typer does not run, said 141.
    `kierki schema` (126 KB, more than a pipe holds) meets the closed pipe whatever the timing."""
    import subprocess

    from conftest import spawn, stop

    proc = spawn(["schema"], stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline()
        proc.stdout.close()  # the reader goes away with most of the output unread
        assert proc.wait(timeout=120) == 141
        assert proc.stderr is not None and proc.stderr.read() == b""
    finally:
        stop(proc)


def test_help_lists_the_commands():
    code, out, err, _ = run_cli("--help")
    assert code == 0
    for cmd in ("run", "replay", "lint", "schema"):
        assert cmd in out


def test_shipped_rulesets_lint_clean_strict():
    code, out, err, _ = run_cli("lint", "--strict", str(RULESETS))
    assert code == 0, err
    files = len(list(RULESETS.rglob("*.yaml")))
    assert err == f"kierki lint: {files} files checked, 0 errors, 0 warnings\n", "a clean run says so in one line"
    assert run_cli("lint", "--quiet", "--strict", str(RULESETS))[:3] == (0, "", "")


def test_lint_summary_counts_errors_and_warnings(cli, tmp_path):
    from kierki_dsl.codes import CODES

    bad = tmp_path / "bad.yaml"
    bad.write_text(CODES["M601"].bad, "utf-8")
    warn = tmp_path / "warn.yaml"
    warn.write_text(CODES["M608"].bad, "utf-8")
    code, out, err = cli("lint", str(bad), str(warn))
    assert code == 1 and err.endswith("kierki lint: 2 files checked, 1 error, 1 warning\n")
    code, out, err = cli("lint", "--format", "json", str(bad))
    assert "kierki lint:" not in out + err, "machine formats carry no summary"


def test_version():
    from importlib.metadata import version

    code, out, err, _ = run_cli("--version")
    assert code == 0 and out == f"kierki {version('kierki-dsl')}\n"


def test_schema_is_json_with_descriptions():
    code, out, err, _ = run_cli("schema")
    schema = json.loads(out)
    strict = schema["else"]
    assert strict["type"] == "object" and "contracts" in strict["properties"]
    assert strict["properties"]["match"]["description"]
    assert "required" not in schema["then"], "a variant (with extends) holds only what it changes"


def test_committed_schema_is_current():
    from conftest import ROOT

    code, out, err, _ = run_cli("schema")
    assert (ROOT / "schema" / "kierki-ruleset.schema.json").read_text("utf-8") == out


def test_think_sets_the_search_strength():
    code, out, err, _ = run_cli("run", str(STANDARD), "--players", "search", "--think", "lots", "--seed", "1")
    assert code == 2 and "search: expected a sample count" in err


def test_player_settings_are_written_one_way_everywhere():
    """`--pairs` takes players as `--players` does: `search:64:heuristic` (and the old `@`)."""
    import typer

    from kierki_dsl.cli import _pair

    assert _pair("search:64:heuristic") == ("search:64", "heuristic")
    assert _pair("heuristic:search:0.2s") == ("heuristic", "search:0.2s")
    assert _pair("search:heuristic") == ("search", "heuristic")
    assert _pair("search@8:random") == ("search:8", "random")
    with pytest.raises(typer.Exit):
        _pair("search:64")
    code, out, err, _ = run_cli("ladder", str(STANDARD), "--pairs", "search:64:nobody", "--seeds", "1")
    assert code == 2 and "search:64:nobody" in err
    code, out, err, _ = run_cli("ladder", str(STANDARD), "--pairs", "serach:heuristic", "--seeds", "1")
    assert code == 2 and "unknown player 'serach' in 'serach:heuristic' (known: " in err, err  # a typo, named


def test_a_match_that_stops_at_max_deals_says_so(tmp_path, cli):
    f = tmp_path / "long.yaml"
    f.write_text(
        "kierki: 1\nname: x\nmatch: {schedule: [bez_lew], until: lowest_total < -1000000, max_deals: 3}\n"
        "contracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
        "utf-8",
    )
    code, out, err = cli("run", str(f), "--seed", "1", "--players", "random")
    said = "warning: the match stopped at max_deals (3 deals) before its until condition held"
    assert code == 0 and said in err and "warning" not in out, "stdout is the match alone"
    code, out, err = cli("run", str(f), "--seed", "1", "--players", "random", "--format", "json")
    assert any("max_deals" in w for w in json.loads(out)["warnings"])
    hearts = RULESETS / "games" / "hearts.yaml"
    code, out, err = cli("run", str(hearts), "--seed", "1", "--players", "random")
    assert code == 0 and "max_deals" not in out, "a match that ends by its condition says nothing"


def test_lint_warns_about_a_match_of_millions_of_deals(tmp_path, cli):
    f = tmp_path / "huge.yaml"
    schedule = ", ".join(["{contract: bez_lew, repeat: 256}"] * 256)
    f.write_text(
        f"kierki: 1\nname: x\nmatch: {{schedule: [{schedule}], series: 64}}\n"
        "contracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
        "utf-8",
    )
    code, out, err = cli("lint", str(f))
    assert code == 0 and "M619 the match lasts 4194304 deals (65536 scheduled × 64 series)" in err


def test_replay_of_a_choice_deal_without_its_contract_is_a_finding(tmp_path, cli):
    import json

    rec = tmp_path / "b.json"
    assert cli("run", "rulesets/games/barbu.yaml", "--seed", "4", "--record", str(rec))[0] == 0
    doc = json.loads(rec.read_text())
    del doc["deals"][0]["contract"]
    rec.write_text(json.dumps(doc))
    code, out, err = cli("replay", str(rec), "--ruleset", "rulesets/games/barbu.yaml")
    assert code == 1 and "(unknown)" in out
    assert "deal 1: a declarer's-choice deal needs 'contract'" in err and "internal error" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "rulesets/kierki_standard.yaml", "--games", "2", "--players", "human,random,random,random"],
        ["ladder", "rulesets/kierki_standard.yaml", "--pairs", "human:random", "--seeds", "1"],
        ["compare", "rulesets/kierki_standard.yaml", "rulesets/variants/jacks_only.yaml", "--players", "human"],
    ],
)
def test_a_person_cannot_sit_at_a_simulation(cli, args):
    code, out, err = cli(*args)
    assert code == 2 and "a person cannot sit at a simulation" in err


def test_a_player_of_ones_own_module_plays_from_the_command(tmp_path):
    (tmp_path / "lowest_player.py").write_text(
        "from kierki_dsl.players.base import Player, register_player\n\n\n"
        "@register_player\nclass Lowest(Player):\n    name = 'lowest'\n\n"
        "    def act(self, view):\n        return min(view.legal)\n"
    )
    import os
    import subprocess
    import sys

    env = dict(os.environ, KIERKI_PLAYERS="lowest_player", PYTHONPATH=str(tmp_path))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kierki_dsl",
            "run",
            "rulesets/kierki_standard.yaml",
            "--seed",
            "1",
            "--players",
            "lowest,heuristic,heuristic,heuristic",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "lowest" in proc.stdout and "Final standings" in proc.stdout


def test_a_count_of_zero_is_told_the_counts_allowed():
    """Play-test 5: `--players search:0` said "expected a sample count ..., got '0'": 0 is a count."""
    code, out, err, _ = run_cli("run", str(STANDARD), "--players", "search:0", "--seed", "1")
    assert code == 2 and "search: expected a sample count from 1 to 100_000 (e.g. search:64)" in err, err


# Review: `kierki run` of a ruleset with lint warnings did not show them (only `kierki lint` did), and
# its own warnings after the match went to stdout, among the match's output.
def test_run_shows_the_rulesets_lint_warnings_on_stderr_once_and_keeps_stdout_the_match(tmp_path, cli):
    from kierki_dsl.codes import CODES

    path = tmp_path / "w.yaml"
    path.write_text(CODES["M608"].bad, "utf-8")  # a contract defined but never scheduled
    code, _, linted = cli("lint", "--quiet", str(path))
    assert code == 0 and ": warning: M608 " in linted
    code, out, err = cli("run", str(path), "--seed", "1", "--players", "random")
    assert code == 0 and err == linted, "the warnings, before the match, as kierki lint shows them"
    assert err.count("M608") == 1 and "warning" not in out and "M608" not in out
    code, out, err = cli("run", str(path), "--seed", "1", "--players", "random", "--format", "json")
    assert code == 0 and err == linted and json.loads(out)["seed"] == 1
