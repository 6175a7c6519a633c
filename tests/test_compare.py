"""kierki compare, and the measures, CSV and HTML that simulate shares with it."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import struct
import subprocess
import time

import pytest

from kierki_dsl.analysis.csvio import read_csv
from kierki_dsl.analysis.measures import observe, observe_games, parts_of
from kierki_dsl.analysis.rows import DealRow, GameResult
from kierki_dsl.analysis.summary import measure_estimates
from kierki_dsl.interpreter.match import MatchRunner, deal_masks, deal_out, shuffled
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.simulate import FastMatch, play_games, run_batches

from conftest import DATA, RULESETS, STANDARD, run_cli

JACKS = RULESETS / "variants" / "jacks_only.yaml"


def _json(*args, timeout: float = 300):
    rc, out, err, _ = run_cli(*args, "--format", "json", timeout=timeout)
    assert rc == 0, err
    return json.loads(out)


def test_compare_finds_what_jacks_only_changes():
    """Deal 4 penalises the jacks only: 120 points less to lose per deal, and robber too;
    deals the variant does not touch show no difference at all (the same deals, the same play)."""
    res = _json("compare", str(STANDARD), str(JACKS), "--games", "12", "--seed", "3")
    diff = res["difference"]
    assert diff["points:bez_panow"]["mean"] == 120 and diff["points:bez_panow"]["significant"]
    assert diff["points:rozbojnik"]["mean"] == 120 and diff["points:rozbojnik"]["significant"]
    assert diff["points:part negative"]["mean"] == 240 and diff["points:part negative"]["significant"]
    assert diff["spread:bez_panow"]["mean"] < 0 and diff["spread:bez_panow"]["significant"]
    for name in ("bez_lew", "bez_kierow", "bez_dam", "bez_krola_kier"):
        assert diff[f"spread:{name}"] == {"mean": 0.0, "ci95": 0.0, "n": 12, "significant": False, "p": 1.0,
                                          "flagged": False}
    assert res["same_deals"] and res["a"]["games"] == res["b"]["games"] == 12
    assert set(res["a"]["players"]) == {"heuristic"}, "compare's players are the heuristic ones by default"


def test_compare_finds_nothing_between_a_ruleset_and_its_copy(tmp_path):
    copy = tmp_path / "copy.yaml"
    shutil.copy(STANDARD, copy)
    res = _json("compare", str(STANDARD), str(copy), "--games", "10", "--players", "heuristic,random,random,random")
    assert res["difference"], "every measure is compared"
    for key, d in res["difference"].items():
        assert d["mean"] == 0 and not d["significant"], key
    rc, out, err, _ = run_cli("compare", str(STANDARD), str(copy), "--games", "4")
    assert rc == 0 and "B - A" in out and "*" not in out.split("B - A", 1)[1], out


def test_compare_needs_the_same_number_of_players():
    rc, out, err, _ = run_cli("compare", str(STANDARD), str(RULESETS / "variants" / "three_players.yaml"))
    assert rc == 2 and "same number of players" in err and "Traceback" not in err


def test_simulate_reports_the_measures():
    res = _json("simulate", str(RULESETS / "variants" / "early_stop.yaml"), "--games", "20", "--seed", "2")
    m = res["measures"]
    sections = {k.partition(":")[0] for k in m}
    assert sections == {"points", "spread", "decisive", "early", "blocked", "final", "advantage", "lead"}
    assert 0 < m["early:bez_dam"]["mean"] < 1, "random play often takes every queen before the last trick"
    assert m["early:bez_lew"]["mean"] == 0, "every trick costs: the deal is always played out"
    assert m["early:atu"]["mean"] == 0
    assert {"advantage:dealer", "advantage:trump caller", "advantage:first turn", "advantage:seat 3"} <= set(m)
    assert list(res["final_quantiles"]) == ["5%", "25%", "50%", "75%", "95%"]


def test_a_blocked_layout_is_counted():
    """Lint rejects a deck whose layout rows cannot grow (M617), so a layout blocks only when
    the cards dealt leave a gap: without the eights no row grows past its seven. The general
    interpreter and the compiled path both report it; a full deal does not block."""
    rs = Ruleset.load(str(STANDARD))
    lot = rs.contracts["loteryjka"]
    eights = sum(1 << (13 * s + 6) for s in range(4))
    for seed in range(3):
        dealt = deal_out(shuffled(random.Random(seed), rs.deck & ~eights), 0, 4)
        state = lot.new_deal(4, rs.deck, 0, dealt)
        while not state.is_terminal():
            state.apply_action(min(state.legal_actions()))
        assert state.blocked
        facts: dict = {}
        masks = [sum(1 << c for c in hand) for hand in dealt]
        assert lot.play_fast(4, rs.deck, 0, masks, 1, 12, random.Random(seed), facts=facts) is not None
        assert facts["blocked"] and not facts["early"] and facts["first"] == 1
        full = deal_masks(random.Random(seed), list(range(52)), 0, 4)
        lot.play_fast(4, rs.deck, 0, full, 1, 12, random.Random(seed), facts=facts)
        assert not facts["blocked"]


def _game(deals, totals=None, first_dealer=0):
    rows = tuple(DealRow(c, d, f, k, -1, s) for c, d, f, k, s in deals)
    if totals is None:
        totals = tuple(map(sum, zip(*[r.scores for r in rows])))
    return GameResult(0, ("a", "b", "c"), rows, totals, None, 0, first_dealer)


def test_measures_of_one_match():
    g = _game([("x", 0, 1, -1, (10, 0, 0)), ("y", 1, 2, 2, (0, 30, 0)), ("x", 2, 0, -1, (0, 0, 5))])
    obs = observe(g, {"x": "negative", "y": "positive"})
    assert obs["points:x"] == 7.5 and obs["points:y"] == 30
    assert obs["decisive:y"] == 1.0 and obs["decisive:x"] == 0.0, "without y, seat 0 wins; without an x, seat 1 still"
    assert obs["lead:changes"] == 1 and obs["lead:settled after deal"] == 2
    assert obs["advantage:first dealer"] == 10 - 15 and obs["advantage:seat 1"] == 30 - 15
    assert obs["advantage:trump caller"] == -10 and obs["advantage:dealer"] == pytest.approx((20 / 3 + 20 + 10 / 3) / 3)
    assert obs["advantage:first turn"] == pytest.approx((-10 / 3 - 10 - 5 / 3) / 3)
    assert obs["points:part negative"] == 15 and obs["final:margin"] == 20


def _alone(game, parts) -> list:
    """(key, float bits) of one match's measures worked out alone, in their order."""
    return [(k, struct.pack("d", v)) for k, v in observe(game, parts).items()]


@pytest.mark.parametrize("path", ["kierki_standard.yaml", "games/hearts.yaml", "variants/fantan_pass_pool.yaml",
                                  "variants/declarer_chooses_negatives.yaml"])
def test_measures_of_many_matches_at_once_are_each_match_alone(path):
    """``observe_games`` works out the matches of a schedule together, column by column: the
    same measures in the same order, the same floats bit for bit, as each match alone."""
    rs = Ruleset.load(str(RULESETS / path))
    parts = parts_of(rs)
    games = play_games(str(RULESETS / path), ["random"] * rs.players, 11, list(range(30)))
    _check_blocks(games, parts)


def test_measures_at_once_when_only_some_matches_name_a_trump_caller():
    """A measure some matches of a block leave out (no deal named a trump caller) is left out
    of those matches alone, and the summary's measure order is the order first seen."""
    a = _game([("x", 0, 1, -1, (10, 0, 0)), ("y", 1, 2, 2, (0, 30, 0)), ("x", 2, 0, -1, (0, 0, 5))])
    b = _game([("x", 1, 2, -1, (0, 4, 0)), ("y", 2, 0, -1, (9, 0, 0)), ("x", 0, 1, -1, (0, 0, 6))], first_dealer=1)
    games = [b._replace(index=0), a._replace(index=1), b._replace(index=2)]
    blocks = _check_blocks(games, {"x": "negative", "y": "positive"})
    assert len(blocks) == 1 and len(blocks[0].variants) == 2
    order = list(measure_estimates(blocks))
    assert order == list(dict.fromkeys([k for g in games for k in observe(g, {"x": "negative", "y": "positive"})]))
    assert measure_estimates(blocks)["advantage:trump caller"].n == 1


def _check_blocks(games, parts) -> list:
    blocks = observe_games(games, parts)
    seen = set()
    for block in blocks:
        for pos, index in enumerate(block.indices):
            got = [(k, struct.pack("d", col[pos])) for k, col in zip(block.keys, block.columns) if col[pos] == col[pos]]
            assert got == _alone(games[index], parts), index
            seen.add(index)
    assert seen == {g.index for g in games}
    return blocks


def test_fast_path_deals_the_cards_of_the_match_runner():
    """The compiled path (random players) draws the deals from the seed's stream as
    MatchRunner does: the same seed gives the same first dealer and the same hands."""
    rs = Ruleset.load(str(STANDARD))
    cards = [c for c in range(52) if rs.deck >> c & 1]
    for seed in range(5):
        a, b = random.Random(seed), random.Random(seed)
        for dealer in range(4):
            masks = deal_masks(a, cards, dealer, 4)
            assert masks == [sum(1 << c for c in h) for h in deal_out(shuffled(b, rs.deck), dealer, 4)]
        first, rows, _ = FastMatch(rs).play(seed)
        runner = MatchRunner(rs, [make_player("heuristic") for _ in range(4)], seed)
        assert first == runner.first_dealer
        assert [r.dealer for r in rows] == [d.dealer for d in runner.deals()]


def _count_loads(monkeypatch) -> list:
    """The paths ``Ruleset.load`` is called with from now on (the compiled-ruleset cache emptied)."""
    from kierki_dsl import simulate

    loads = []
    real = Ruleset.load.__func__

    def counting(cls, path, warnings=None):
        loads.append(path)
        return real(cls, path, warnings)

    simulate._COMPILED.clear()
    monkeypatch.setattr(Ruleset, "load", classmethod(counting))
    return loads


def test_a_worker_compiles_each_ruleset_once(monkeypatch):
    loads = _count_loads(monkeypatch)
    run_batches(((str(STANDARD), None), (str(JACKS), None)), ["random"] * 4, 1, 12, chunk=2)
    assert loads == [str(STANDARD), str(JACKS)], "six batches, each ruleset loaded once"


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_csv_round_trips(tmp_path, command):
    rulesets = [str(STANDARD)] + ([str(JACKS)] if command == "compare" else [])
    rc, out, err, _ = run_cli(command, *rulesets, "--games", "6", "--seed", "9", "--players", "random",
                              "--csv", str(tmp_path))
    assert rc == 0, err
    back = read_csv(str(tmp_path))
    assert sorted(back) == (["A", "B"] if command == "compare" else ["A"])
    for label, path in zip("AB", rulesets):
        assert back[label] == play_games(path, ["random"] * 4, 9, list(range(6)))
    assert back["A"][0].deals[7].trump >= 0 and back["A"][0].deals[7].caller >= 0


@pytest.mark.slow  # a dask cluster of its own; the default run's dask case: test_simulate.py::test_dask_backend_on_a_local_cluster
def test_compare_on_a_dask_cluster_matches_local_processes():
    distributed = pytest.importorskip("distributed")
    args = ["compare", str(STANDARD), str(JACKS), "--games", "8", "--seed", "5", "--players", "random"]
    local = _json(*args, "--workers", "2")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = _json(*args, "--backend", "dask", "--address", cluster.scheduler_address)
    assert remote == local


def test_ladder_with_one_seed_prints_no_infinity():
    rc, out, err, _ = run_cli("ladder", str(STANDARD), "--pairs", "heuristic:random", "--seeds", "1")
    assert rc == 0, err
    assert "inf" not in out and "n/a" in out


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


PROBE = """<script>
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 100 && i.naturalHeight > 100; });
  document.title = 'IMAGES ' + imgs.length + ' LOADED ' + ok.length;
});
</script></body>"""


@pytest.mark.slow
def test_html_report_opens_in_a_headless_browser(tmp_path):
    """The report alone (no server, no network) shows its four plots in Chromium."""
    pytest.importorskip("matplotlib")
    chromium = _chromium()
    if chromium is None:
        pytest.skip("no chromium found (CI installs the Debian chromium package in .ci/run)")
    report = tmp_path / "report.html"
    rc, out, err, _ = run_cli("compare", str(STANDARD), str(JACKS), "--games", "4", "--html", str(report))
    assert rc == 0, err
    text = report.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text and "<script" not in text, "self-contained"
    probed = tmp_path / "probed.html"
    probed.write_text(text.replace("</body>", PROBE), encoding="utf-8")
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
           "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        dom, _ = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert b"<title>IMAGES 4 LOADED 4</title>" in dom, dom[:300]


def _children(pid: int) -> list:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs /proc to see the worker processes")
def test_ctrl_c_stops_the_workers_of_compare():
    """Ctrl-C at the terminal (SIGINT to the whole process group): the command reports what
    finished, exits 130 without a traceback, and no worker process is left behind."""
    from conftest import kierki_command

    p = subprocess.Popen(kierki_command() + ["compare", str(STANDARD), str(JACKS), "--games", "100000", "--workers", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(600):  # poll until both workers run
            if len(_children(p.pid)) >= 2 or p.poll() is not None:
                break
            time.sleep(0.05)
        workers = _children(p.pid)
        assert len(workers) >= 2
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130 and "Traceback" not in err.decode(), err.decode()
    assert "interrupted" in err.decode()
    for w in workers:
        assert not os.path.exists(f"/proc/{w}") or "Z" in open(f"/proc/{w}/stat").read().split()[2]


def test_output_options_are_checked_before_any_match(tmp_path, monkeypatch):
    """A file where --csv needs a folder, a missing folder for --html, no matplotlib: usage
    errors (exit 2) with a message, before any match is played."""
    import sys

    from kierki_dsl.cli import main

    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    rc, out, err, _ = run_cli("simulate", str(STANDARD), "--csv", str(a_file))
    assert rc == 2 and "--csv needs a folder" in err
    rc, out, err, _ = run_cli("compare", str(STANDARD), str(JACKS), "--html", str(tmp_path / "no" / "r.html"))
    assert rc == 2 and "no such folder" in err
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the plots extra were not installed
    assert main(["simulate", str(STANDARD), "--games", "1", "--html", str(tmp_path / "r.html")]) == 2
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_rule_failing_in_play_is_a_located_error(workers):
    """A division by zero met while playing: the located message and exit 1, from the
    command's own process or from a worker's."""
    bad = DATA / "bad_inputs" / "42_expr_division_by_zero.yaml"
    rc, out, err, _ = run_cli("compare", str(STANDARD), str(bad), "--games", "4", "--players", "random",
                              "--workers", workers)
    assert rc == 1 and "X701 division by zero" in err and ":9:19:" in err, err
    assert "Traceback" not in err and "internal error" not in err


def test_a_deal_that_does_not_add_up_is_reported_with_its_game_and_deal():
    from kierki_dsl.analysis.summary import summarize

    rs = Ruleset.load(str(STANDARD))
    games = play_games(str(STANDARD), ["random"] * 4, 3, list(range(4)))
    assert summarize(rs, ["random"] * 4, games)["declared_totals_hold"]
    g = games[2]
    row = g.deals[5]
    wrong = row._replace(scores=(row.scores[0] + 1,) + row.scores[1:])
    games[2] = g._replace(deals=g.deals[:5] + (wrong,) + g.deals[6:])
    got = summarize(rs, ["random"] * 4, games)
    assert not got["declared_totals_hold"]
    assert got["mismatches"] == [{"game": g.index, "deal": 6, "contract": row.contract, "sum": sum(row.scores) + 1}]


def test_the_command_loads_each_ruleset_once(monkeypatch, capsys):
    from kierki_dsl.cli import main

    loads = _count_loads(monkeypatch)
    assert main(["compare", str(STANDARD), str(JACKS), "--games", "3", "--players", "random", "--format", "json"]) == 0
    assert sorted(loads) == sorted([str(STANDARD), str(JACKS)]), "loaded by the command, kept for its worker"
    assert json.loads(capsys.readouterr().out)["games"] == 3


def test_random_fast_path_names_the_first_dealer_from_the_first_hands(tmp_path):
    """A fixed schedule of whole deals with ``first_dealer: holder(7H)``: the fast path
    names the same first dealer, and deals the same hands, as the match runner."""
    variant = tmp_path / "holder.yaml"
    variant.write_text(f"kierki: 1\nextends: {STANDARD}\nname: holder of 7H deals first\n"
                       "match:\n  first_dealer: holder(7H)\n", encoding="utf-8")
    rs = Ruleset.load(str(variant))
    fast = FastMatch(rs)
    for seed in range(6):
        first, rows, _ = fast.play(seed)
        runner = MatchRunner(rs, [make_player("heuristic") for _ in range(4)], seed)
        dealers = [d.dealer for d in runner.deals()]
        assert first == runner.first_dealer and [r.dealer for r in rows] == dealers


def test_win_rates_count_a_shared_win_as_a_share():
    """A win shared by k seats counts 1/k to each (added match by match in game order when a
    share is not exact, e.g. three winners)."""
    from kierki_dsl.analysis.summary import summarize

    rs = Ruleset.load(str(STANDARD))
    rows = (DealRow("bez_lew", 0, 1, -1, -1, (0, 0, 0, -260)),)
    three = [GameResult(i, ("a", "b", "c", "d"), rows, (0, 0, 0, -260)) for i in range(3)]
    players = summarize(rs, ["a", "b", "c", "d"], three)["players"]
    assert players["a"]["win_rate"] == (1 / 3 + 1 / 3 + 1 / 3) / 3 and players["d"]["win_rate"] == 0
    two = [GameResult(i, ("a", "b", "c", "d"), rows, (0, -260, 0, -260) if i else (0, 0, -260, -260)) for i in range(2)]
    players = summarize(rs, ["a", "b", "c", "d"], two)["players"]
    assert [players[p]["win_rate"] for p in "abcd"] == [0.5, 0.25, 0.25, 0.0]
