"""Stepping cost in machine instructions (deterministic, unlike time on a shared machine):
``legal_actions`` + ``apply_action`` per decision on our Hearts (through the compiled step
core where it is built, and on the interpreter) and on OpenSpiel's C++ Hearts stepped from
Python, each counted by valgrind's callgrind around the stepping loop only.

    python benchmarks/step_instructions.py [--deals 200]

Needs ``valgrind`` and ``pip install 'kierki-dsl[openspiel]'``; takes about a minute. The
loop is the one ``bench_step.py`` times; the ratio is instructions, not seconds (CPython's
eval loop and pybind11's C++ differ in instructions per cycle), so it complements the timed
benchmark rather than replacing it.
"""
from __future__ import annotations

import argparse
import functools
import operator
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_step import RULESET, _dealt, _decisions_per_second  # noqa: E402

DECISIONS_PER_DEAL = 64  # 12 cards passed, 52 played


def _step(engine: str, deals: int) -> None:
    """Deal outside the count, warm up, then step under ``operator.call`` (what callgrind counts)."""
    from kierki_dsl.interpreter.match import deal_out, shuffled
    from kierki_dsl.ruleset.model import Ruleset

    rng = random.Random(5)
    if engine in ("ours", "core"):
        from kierki_dsl.interpreter import stepper

        rs = Ruleset.load(str(RULESET))
        c = rs.contracts["hand"]
        new = c.new_deal if engine == "ours" else functools.partial(stepper.new_deal, c)

        def make(n):
            return [new(4, rs.deck, 3, deal_out(shuffled(rng, rs.deck), 3, 4), 1, 1) for _ in range(n)]
    else:
        import pyspiel

        game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})

        def make(n):
            return _dealt(game, n, rng, first=(1,))
    _decisions_per_second(make(20), rng)
    states = make(deals)
    operator.call(_decisions_per_second, states, random.Random(9))


def _count(engine: str, deals: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=_operator_call", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, __file__, "--engine", engine, "--deals", str(deals)],
            capture_output=True, text=True, check=True).stderr
    return int(re.search(r"refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--engine", choices=("ours", "core", "theirs"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.engine:
        _step(args.engine, args.deals)
        return
    if shutil.which("valgrind") is None:
        sys.exit("step_instructions needs valgrind")
    decisions = args.deals * DECISIONS_PER_DEAL
    theirs = _count("theirs", args.deals) / decisions
    ours = _count("ours", args.deals) / decisions
    from kierki_dsl.interpreter import stepper

    print(f"instructions per decision (legal_actions + apply_action, loop included), {args.deals} hands:")
    print(f"  OpenSpiel hearts (C++), stepped from Python  {theirs:8.0f}")
    if stepper.available():
        core = _count("core", args.deals) / decisions
        print(f"  kierki-dsl step core (C), hearts_openspiel.yaml {core:6.0f}   ratio {theirs / core:.2f}")
    else:
        print("  kierki-dsl step core: not built here (no C compiler at install)")
    print(f"  kierki-dsl interpreter, hearts_openspiel.yaml {ours:8.0f}   ratio {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
