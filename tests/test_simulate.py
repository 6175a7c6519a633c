"""kierki simulate: reproducible whatever the worker count or backend, interruptible."""
from __future__ import annotations

import json
import os
import signal

import pytest

from kierki_dsl.interpreter.fastplay import compile_fast
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.simulate import FastMatch, play_games, run_local

from conftest import RULESETS, STANDARD, fast_path_sweep, poll_until, run_cli


def _sim(*args):
    rc, out, err, _ = run_cli("simulate", str(STANDARD), "--format", "json", *args, timeout=300)
    assert rc == 0, err
    return json.loads(out)


def test_same_results_for_any_worker_count():
    one = _sim("--games", "60", "--seed", "4", "--workers", "1")
    two = _sim("--games", "60", "--seed", "4", "--workers", "2")
    one.pop("seed"), two.pop("seed")
    assert one == two
    assert one["declared_totals_hold"] and one["games"] == 60


def test_mixed_players_are_rotated_through_the_seats():
    res = _sim("--games", "8", "--players", "heuristic,random,random,random", "--seed", "2")
    assert res["players"]["heuristic"]["seats"] == 8 and res["players"]["random"]["seats"] == 24
    assert res["players"]["heuristic"]["mean"] > res["players"]["random"]["mean"]
    assert set(res["contracts"]) >= {"bez_lew", "rozbojnik", "atu", "loteryjka"}


def test_fast_path_keeps_the_rules():
    """The whole-deal closures agree with the declared totals of every contract they compile."""
    for path in [STANDARD] + sorted((RULESETS / "variants").glob("*.yaml")):
        rs = Ruleset.load(str(path))
        fm = FastMatch(rs)
        for seed in range(3):
            _, deals, totals = fm.play(seed)
            for row in deals:
                if rs.contracts[row.contract].total is not None:
                    assert sum(row.scores) == rs.contracts[row.contract].total, (path.stem, row.contract)
    rs = Ruleset.load(str(RULESETS / "variants" / "must_ruff.yaml"))
    assert compile_fast(rs.contracts["atu"], 4, 13, rs.deck) is None, "state-reading rules use the interpreter"


SHIPPED = sorted(str(p.relative_to(RULESETS)) for p in RULESETS.rglob("*.yaml"))


@pytest.mark.parametrize("path", fast_path_sweep(SHIPPED))
def test_random_records_come_from_the_fast_path(path):
    """With records wanted, random players play the same matches (the same seeds, the same
    plays and scores) as without: the fast path's, recorded; every record replays cleanly
    to the totals of its match."""
    from kierki_dsl.record import replay

    rs = Ruleset.load(str(RULESETS / path))
    names = ["random"] * rs.players
    plain = play_games(str(RULESETS / path), names, 8, list(range(4)))
    recorded = play_games(str(RULESETS / path), names, 8, list(range(4)), True)
    assert [g._replace(record=None) for g in recorded] == plain
    for g in recorded:
        report = replay(rs, g.record)
        assert not report.violations, (g.index, report.violations[:3])
        assert report.totals == list(g.totals) == g.record["totals"]
        assert [d["scores"] for d in report.deals] == [list(r.scores) for r in g.deals]


# the command's flags, CSV and replay on the standard ruleset by default; that records change no
# match of hearts or of a layout is test_random_records_come_from_the_fast_path's (in-process)
@pytest.mark.parametrize("path", ["kierki_standard.yaml", pytest.param("games/hearts.yaml", marks=pytest.mark.slow),
                                  pytest.param("variants/fantan_pass_pool.yaml", marks=pytest.mark.slow)])
def test_simulate_with_records_reports_what_it_reports_without(path, tmp_path):
    """``--records`` changes nothing in the report (random players: the fast path's matches),
    and ``kierki replay`` accepts every record with its match's totals (``--csv``)."""
    args = ["simulate", str(RULESETS / path), "--games", "5", "--seed", "6", "--format", "json"]
    rc, without, err, _ = run_cli(*args)
    assert rc == 0, err
    rc, out, err, _ = run_cli(*args, "--records", str(tmp_path / "recs"), "--csv", str(tmp_path / "csv"))
    assert rc == 0, err
    assert out == without
    totals = {}
    with open(tmp_path / "csv" / "matches.csv", encoding="utf-8") as f:
        for line in f.read().splitlines()[1:]:
            cells = line.split(",")
            totals[int(cells[1])] = [int(x) for x in cells[-4:]]
    files = sorted(os.listdir(tmp_path / "recs"))
    assert len(files) == 5
    for name in files:
        rc, out, err, _ = run_cli("replay", str(tmp_path / "recs" / name), "--ruleset", str(RULESETS / path),
                                  "--format", "json")
        assert rc == 0, err
        assert json.loads(out)["totals"] == totals[int(name[6:12])], name


def test_records_folder(tmp_path):
    rc, out, err, _ = run_cli("simulate", str(STANDARD), "--games", "3", "--records", str(tmp_path / "recs"))
    assert rc == 0
    files = sorted(os.listdir(tmp_path / "recs"))
    assert files == ["match-000000.json", "match-000001.json", "match-000002.json"]
    rc, out, err, _ = run_cli("replay", str(tmp_path / "recs" / files[1]), "--ruleset", str(STANDARD))
    assert rc == 0, err


def test_records_that_cannot_be_written_are_an_output_error(tmp_path, monkeypatch):
    """The --records folder passed its check, then could not be made or written (a full disk; as
    root, a folder under /proc): an OutputError naming the option (the command's exit 1), never
    the OSError itself (an internal error, exit 70)."""
    import errno
    import types

    from kierki_dsl import paths
    from kierki_dsl.paths import OutputError
    from kierki_dsl.simrun import _keep_records

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    keep = _keep_records(str(tmp_path / "records"))
    with monkeypatch.context() as m:
        m.setattr(os, "makedirs", full)
        with pytest.raises(OutputError, match="--records .*records: No space left on device"):
            keep([])
    with monkeypatch.context() as m:
        m.setattr(paths.tempfile, "mkstemp", full)
        with pytest.raises(OutputError, match="--records .*match-000007.json: No space left on device"):
            keep([(types.SimpleNamespace(record={}, index=7),)])


def test_interrupt_prints_the_results_so_far(tmp_path, processes):
    """Ctrl-C once a match is known to have finished (its record is written): no sleeping,
    and the simulation is killed whatever happens (the fixture)."""
    recs = tmp_path / "recs"
    p = processes(["simulate", str(STANDARD), "--games", "1000000", "--players", "heuristic", "--records", str(recs)])
    poll_until(lambda: recs.is_dir() and any(recs.iterdir()), timeout=120, proc=p, what="the first match")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert "points per match" in out.decode()
    assert "interrupted after" in err.decode() and "Traceback" not in err.decode()


def test_dask_backend_on_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    local = run_local(str(STANDARD), ["random"] * 4, 5, 30, 1, False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        rc, out, err, _ = run_cli("simulate", str(STANDARD), "--games", "30", "--seed", "5", "--format", "json",
                                  "--backend", "dask", "--address", cluster.scheduler_address, timeout=300)
    assert rc == 0, err
    res = json.loads(out)
    mine = run_cli("simulate", str(STANDARD), "--games", "30", "--seed", "5", "--format", "json")[1]
    assert res["players"] == json.loads(mine)["players"]
    assert [g.totals for g in local] == [g.totals for g in play_games(str(STANDARD), ["random"] * 4, 5, list(range(30)))]


def test_an_optional_extra_card_is_played_by_the_general_interpreter():
    rs = Ruleset.load(str(RULESETS / "variants" / "fantan_extra_turn.yaml"))
    assert compile_fast(rs.contracts["loteryjka"], 4, 13, rs.deck) is None, "random players may decline it"


def test_hearts_has_a_whole_deal_path_too():
    rs = Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))
    assert compile_fast(rs.contracts["hand"], 4, 13, rs.deck) is not None
    fm = FastMatch(rs)
    sums = set()
    for seed in range(30):
        _, deals, totals = fm.play(seed)
        sums |= {sum(row.scores) for row in deals}
        assert min(totals) <= -100
    assert sums <= {-26, -78} and -26 in sums, "every heart and the queen are taken; a moon costs the others"


@pytest.mark.parametrize("name", ["kierki_standard", "variants/fantan_ace_high", "variants/fantan_start_eight",
                                  "variants/fantan_extra_turn", "variants/walc_scale"])
def test_layout_fast_path_plays_as_the_interpreter(name, tmp_path):
    """With every choice the lowest legal card, the compiled layout closure and the general
    interpreter play the same deal to the same scores (extra turns, passes, places)."""
    import random

    from kierki_dsl.interpreter.actions import PASS
    from kierki_dsl.interpreter.match import deal_out, shuffled

    path = RULESETS / f"{name}.yaml"
    if name == "variants/fantan_extra_turn":  # the compiled path plays compulsory extra cards only
        path = tmp_path / "forced.yaml"
        path.write_text(f"kierki: 1\nextends: {RULESETS / f'{name}.yaml'}\nname: forced\n"
                        "contracts:\n  loteryjka:\n    again_optional: false\n", "utf-8")
    rs = Ruleset.load(str(path))
    lot = next(c for c in rs.contracts.values() if c.type == "layout")
    fast = compile_fast(lot, 4, 13, rs.deck)
    assert fast is not None
    for seed in range(25):
        dealer = seed % 4
        dealt = deal_out(shuffled(random.Random(seed), rs.deck), dealer, 4)
        st = lot.new_deal(4, rs.deck, dealer, dealt)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply_action(min(a for a in legal if a != PASS) if legal != [PASS] else PASS)
        masks = [sum(1 << c for c in hand) for hand in dealt]
        assert fast(masks, (dealer + 1) % 4, -1, lambda bits: 0) == st.returns(), seed


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_command_a_test_starts_is_killed_with_its_workers_whatever_happens():
    """``run_cli`` kills a command that times out, and with it the worker processes it started."""
    import subprocess

    from conftest import spawn, stop

    with pytest.raises(subprocess.TimeoutExpired):
        run_cli("simulate", str(STANDARD), "--games", "1000000", "--players", "heuristic", "--workers", "2", timeout=3)
    p = spawn(["simulate", str(STANDARD), "--games", "1000000", "--players", "heuristic", "--workers", "2"])
    try:
        poll_until(lambda: _children(p.pid), timeout=60, proc=p, what="the workers")
    finally:
        stop(p)
        p.stdout.close()
        p.stderr.close()
    poll_until(lambda: not _group_alive(p.pid), timeout=30, what="the workers to end")


def _children(pid: int) -> list:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(name))
    return out


def _group(pgid: int) -> list:
    """The live processes of process group ``pgid`` (Linux /proc), zombies left out."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the command's processes in /proc")
@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_sigterm_stops_the_workers_and_keeps_what_finished(tmp_path, processes, command):
    """SIGTERM to the command alone (not to its process group), with two workers: it ends its
    workers, and no process of its group survives it; simulate, signalled once a match is
    known to have finished (its record is written), prints the results so far."""
    recs = tmp_path / "recs"
    if command == "simulate":
        args = ["simulate", str(STANDARD), "--records", str(recs)]
    else:
        args = ["compare", str(STANDARD), str(RULESETS / "variants" / "jacks_only.yaml")]
    p = processes(args + ["--games", "1000000", "--players", "heuristic", "--workers", "2", "--seed", "3"])
    poll_until(lambda: len(_group(p.pid)) == 3, timeout=60, proc=p, what="two workers")
    if command == "simulate":
        poll_until(lambda: recs.is_dir() and any(recs.iterdir()), timeout=120, proc=p, what="the first match")
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err.decode()
    assert "interrupted" in err.decode() and "Traceback" not in err.decode()
    assert not _group(p.pid), "a worker outlived the command"
    if command == "simulate":
        assert "points per match" in out.decode()


#: A rule that cannot be evaluated in the last trick (division by zero), in a deal that always
#: stops early after trick 2: the interpreter never evaluates it there, nor may the fast path.
UNREACHED_ERROR = """kierki: 1
name: unreached error
players: 4
match:
  schedule: [hand]
contracts:
  hand:
    first_lead: dealer
    early_stop: true
    restrictions:
    - phase: lead
      forbid: card.suit == hearts
      when: 10 / (trick.number - 13) > 1
    score:
    - per_trick: -1
      when: trick.number < 3
"""


@pytest.mark.parametrize("players", ["random", "heuristic"])
def test_simulate_plays_what_run_plays_when_a_rule_fails_only_in_an_unplayed_trick(tmp_path, players):
    path = tmp_path / "unreached.yaml"
    path.write_text(UNREACHED_ERROR)
    rc, _, err, _ = run_cli("run", str(path), "--seed", "3", "--players", players)
    assert rc == 0, err
    rc, out, err, _ = run_cli("simulate", str(path), "--games", "4", "--players", players, "--format", "json")
    assert rc == 0, err
    assert json.loads(out)["games"] == 4
