"""Where a random match's instructions go in ``kierki simulate``, counted by valgrind's callgrind
(deterministic, unlike time on a shared machine), against the reference engine's whole match.

    python benchmarks/sim_instructions.py [--games 200] [--ref ../shared/bench/kierki_ref.py]

Each figure is instructions per match, counted only inside ``operator.call`` (callgrind's
``--toggle-collect``) after a warm-up outside the count:

- ``command``: ``kierki simulate RULESET --players random`` run in this process, marginal per
  match (a run of ``games`` minus a run of ``games // 4``: start-up, loading, compiling and
  the report cancel out);
- ``play``: the matches alone (``FastMatch.play``: dealing, the whole-deal kernels, the rows);
- ``observe``: the measures of those matches in batches of 50 (made in the worker), after a
  thousand other matches (a long simulation's remembered facts of a deal's scores);
- ``summary``: the summary of those matches from what the workers handed over;
- ``handover``: pickling a batch's results in a worker and unpickling them in the command
  (what ``--workers 2`` adds to a match);
- ``reference``: ``kierki_ref.py``'s ``run_deals("fullgame")``.

Needs ``valgrind``; takes a few minutes.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import operator
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RULESET = str(ROOT / "rulesets" / "kierki_standard.yaml")
NAMES = ["random"] * 4
PHASES = ("command", "play", "observe", "summary", "handover", "reference")


def _command(games: int) -> None:
    from kierki_dsl import simulate
    from kierki_dsl.cli import main as kierki

    def run(n: int) -> None:
        simulate._COMPILED.clear()
        with contextlib.redirect_stdout(io.StringIO()):
            kierki(["simulate", RULESET, "--players", "random", "--seed", "3", "--format", "json", "--games", str(n)])

    run(5)
    operator.call(run, games)


def _batch(games: int, observe: bool) -> tuple:
    from kierki_dsl import simulate

    c = simulate.compiled(RULESET)
    refs = ((RULESET, None),)
    simulate.play_batch(refs, NAMES, 3, list(range(5)), False, observe)
    return c, refs


def _phase(phase: str, games: int, ref_path: str) -> None:
    """Run one phase, its warm-up outside the count and the counted part under ``operator.call``."""
    if phase == "command":
        return _command(games)
    if phase == "reference":
        import importlib.util

        spec = importlib.util.spec_from_file_location("kierki_ref", ref_path)
        ref = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ref)
        ref.run_deals("fullgame", 5, 1)
        operator.call(ref.run_deals, "fullgame", games, 3)
        return None
    from kierki_dsl import simulate

    c, refs = _batch(games, phase != "play")
    indices = list(range(games))
    if phase == "play":
        operator.call(simulate.play_batch, refs, NAMES, 3, indices, False, False)
        return None
    if phase == "observe":
        from kierki_dsl.analysis.measures import observe_games

        warm = [g for (g,) in simulate.play_batch(refs, NAMES, 4, list(range(1000)), False, False).games]
        observe_games(warm, c.parts)  # the per-scores facts remembered, as in a long simulation
        games = [g for (g,) in simulate.play_batch(refs, NAMES, 3, indices, False, False).games]
        operator.call(lambda: [observe_games(games[i:i + 50], c.parts) for i in range(0, len(games), 50)])
        return None
    batch = simulate.play_batch(refs, NAMES, 3, indices, False, True)
    if phase == "handover":
        operator.call(lambda: pickle.loads(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL)))
        return None
    from kierki_dsl.analysis.summary import summarize

    games_a = [g for (g,) in batch.games]
    summarize(c.rs, NAMES, games_a[:5])
    operator.call(summarize, c.rs, NAMES, games_a, batch.measured[0])
    return None


def _count(phase: str, games: int, ref_path: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=_operator_call", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, __file__, "--phase", phase, "--games", str(games), "--ref", ref_path],
            capture_output=True, text=True, check=True, cwd=ROOT).stderr
    return int(re.search(r"refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--ref", default=str(ROOT.parent / "shared" / "bench" / "kierki_ref.py"))
    ap.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)
    ap.add_argument("--only", nargs="*", choices=PHASES, default=list(PHASES), help="count these phases only")
    args = ap.parse_args()
    if args.phase:
        _phase(args.phase, args.games, args.ref)
        return
    if shutil.which("valgrind") is None:
        sys.exit("sim_instructions needs valgrind")
    n = args.games
    print(f"instructions per random match of rulesets/kierki_standard.yaml ({n} matches):")
    got = {}
    for phase in args.only:
        if phase == "reference" and not os.path.isfile(args.ref):
            print(f"  reference: not found at {args.ref}")
            continue
        if phase == "command":
            got[phase] = (_count(phase, n, args.ref) - _count(phase, n // 4, args.ref)) / (n - n // 4)
        else:
            got[phase] = _count(phase, n, args.ref) / n
        print(f"  {phase:<10}{got[phase]:>12,.0f}", flush=True)
    if "reference" in got and "command" in got:
        print(f"  reference / command: {got['reference'] / got['command']:.3f}")


if __name__ == "__main__":
    main()
