"""Batched stepping cost in machine instructions per decision (deterministic, unlike time on a
shared machine): ``kierki_dsl.vecenv`` (random_actions + step, with tensors and masks, or masks
only) and OpenSpiel's C++ Hearts stepped from Python (legal_actions + apply_action of a random
legal action), each counted by valgrind's callgrind around the stepping loop only.

    python benchmarks/bench_vecenv_instructions.py [--envs 256] [--only NAME ...]

Each count is the difference between a long and a short run of the same loop (``--steps``
and a third of it for the batch, after ``--warmup`` untimed steps that fill its memos;
``--deals`` and a third of it for OpenSpiel, dealt outside the count), divided by the
decisions between them: what one more decision costs, Python's share included, the start of
a run left out. The games and loops are those of ``bench_vecenv.py``. Needs ``valgrind`` and
``pip install 'kierki-dsl[openspiel,rl]'``; takes a few minutes. ``--only`` counts the named
engines alone (``openspiel`` or a name of ``ENGINES``; repeated for several): counts do not
depend on the load, so each may run as its own process at once; ratios are shown when
OpenSpiel is counted in the same run.
"""

from __future__ import annotations

import argparse
import operator
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vecenv import GAMES  # noqa: E402

ENGINES = {
    "Hearts, tensors and masks": (0, True),
    "Hearts, masks only": (0, False),
    "Kierki bez lew, tensors and masks": (1, True),
    "Kierki bez lew, masks only": (1, False),
}


def _batch_loop(deals, steps: int, tensors: bool) -> int:
    for _ in range(steps):
        deals.step(deals.random_actions(), tensors)
    return steps * deals.num_envs


def _openspiel_loop(states) -> int:
    grb, decisions = random.Random(9).getrandbits, 0
    for st in states:
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[(grb(32) * len(acts)) >> 32])
            decisions += 1
    return decisions


def _run(engine: str, size: int, envs: int, warmup: int) -> None:
    """Set up outside the count, then step under ``operator.call`` (what callgrind counts)."""
    if engine == "openspiel":
        import pyspiel
        from bench_step import _dealt

        states = _dealt(pyspiel.load_game("hearts"), size, random.Random(5))
        print(operator.call(_openspiel_loop, states))
        return
    from kierki_dsl.vecenv import VecDeals

    game, tensors = ENGINES[engine]
    path, deal = list(GAMES.values())[game]
    deals = VecDeals(path, envs, deal)
    deals.reset(1)
    _batch_loop(deals, warmup, True)
    print(operator.call(_batch_loop, deals, size, tensors))


def _count(engine: str, size: int, envs: int, warmup: int) -> tuple:
    """(instructions, decisions) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--toggle-collect=_operator_call",
                f"--callgrind-out-file={tmp}/cg.out",
                sys.executable,
                __file__,
                "--engine",
                engine,
                "--size",
                str(size),
                "--envs",
                str(envs),
                "--warmup",
                str(warmup),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    refs = int(re.search(r"refs:\s+([\d,]+)", done.stderr).group(1).replace(",", ""))
    return refs, int(done.stdout.split()[-1])


def _per_decision(engine: str, long: int, envs: int, warmup: int) -> float:
    short = max(1, long // 3)
    (i1, d1), (i2, d2) = (_count(engine, n, envs, warmup) for n in (short, long))
    return (i2 - i1) / (d2 - d1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256, help="deals stepped at once")
    ap.add_argument("--steps", type=int, default=300, help="steps of the batch in the long run")
    ap.add_argument("--deals", type=int, default=300, help="OpenSpiel hands in the long run")
    ap.add_argument("--warmup", type=int, default=3000, help="untimed steps of each batch first")
    ap.add_argument(
        "--only", action="append", choices=["openspiel", *ENGINES], help="count only these engines (repeatable)"
    )
    ap.add_argument("--engine", help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.engine:
        _run(args.engine, args.size, args.envs, args.warmup)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench_vecenv_instructions needs valgrind")
    only = args.only or ["openspiel", *ENGINES]
    theirs = _per_decision("openspiel", args.deals, args.envs, args.warmup) if "openspiel" in only else None
    print(f"instructions per decision (callgrind), {args.envs} deals at once:")
    if theirs is not None:
        print(
            f"{'OpenSpiel hearts (C++), legal_actions + apply_action from Python':<66}{theirs:>8.1f}{1.0:>8.2f}",
            flush=True,
        )
    for engine in (e for e in ENGINES if e in only):
        ours = _per_decision(engine, args.steps, args.envs, args.warmup)
        ratio = f"{theirs / ours:>8.2f}" if theirs is not None else ""
        print(f"{'vecenv ' + engine:<66}{ours:>8.1f}{ratio}", flush=True)


if __name__ == "__main__":
    main()
