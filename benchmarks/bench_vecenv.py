"""Batched stepping speed: decisions per second of ``kierki_dsl.vecenv`` (many deals stepped at
once in C) against OpenSpiel's C++ Hearts stepped from Python, side by side in one process,
as a ratio.

    python benchmarks/bench_vecenv.py [--envs 256] [--rounds 5]

OpenSpiel: ``--deals`` hands dealt outside the clock (the chance nodes), then every decision
timed as a ``legal_actions()`` and an ``apply_action()`` of a uniformly random legal action
(as benchmarks/bench_step.py times it). Ours, for Hearts (rulesets/games/hearts.yaml, deal 1:
passing left) and Kierki's "bez lew" (rulesets/kierki_standard.yaml, deal 1): ``--envs`` deals
stepped ``--steps`` times, each step a random legal action per deal (``random_actions``, drawn
in C) and ``step`` — dealing again included (auto-reset) — measured twice: with every
observation tensor and legal mask written (what a learner gets), and with the legal masks
only (``step(actions, tensors=False)``). Time is CPU time of this process (``time.process_time``), so
that other work on a shared machine counts against neither side; the engines take turns
within each round; medians of the rounds' rates and of their ratios to OpenSpiel are shown.
Before the rounds each batch steps ``--warmup`` times untimed: the C memos of what a deal asks
once (a trick's programs, the first lead, seat scoring such as Hearts' moon) fill as a long
training run fills them (Hearts' seat scoring has about 680 keys).
Needs ``pip install 'kierki-dsl[openspiel,rl]'`` and the compiled step core.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_step import _dealt  # noqa: E402  (OpenSpiel's chance nodes played out, as bench_step deals)

from kierki_dsl.vecenv import VecDeals  # noqa: E402

GAMES = {
    "Hearts (hearts.yaml, deal 1)": (ROOT / "rulesets" / "games" / "hearts.yaml", 1),
    "Kierki bez lew (kierki_standard.yaml, deal 1)": (ROOT / "rulesets" / "kierki_standard.yaml", 1),
}


def openspiel_rate(game, deals: int, seed: int) -> float:
    """OpenSpiel Hearts decisions per CPU second, chance nodes dealt outside the clock."""
    rng = random.Random(seed)
    states = _dealt(game, deals, rng)
    grb, steps = rng.getrandbits, 0
    t0 = time.process_time()
    for st in states:
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[(grb(32) * len(acts)) >> 32])
            steps += 1
    return steps / (time.process_time() - t0)


def batch_rate(deals: VecDeals, steps: int, seed: int, tensors: bool) -> float:
    """Batched decisions per CPU second: ``steps`` steps of every deal, random legal actions;
    with ``tensors`` the observation tensors and masks written at every step (else masks)."""
    deals.reset(seed)
    t0 = time.process_time()
    for _ in range(steps):
        deals.step(deals.random_actions(), tensors)
    return steps * deals.num_envs / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256, help="deals stepped at once")
    ap.add_argument("--steps", type=int, default=400, help="steps of the batch per round")
    ap.add_argument("--deals", type=int, default=300, help="OpenSpiel hands per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=2000, help="untimed steps of each batch first")
    args = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        sys.exit("bench_vecenv needs OpenSpiel: pip install 'kierki-dsl[openspiel]'")
    game = pyspiel.load_game("hearts")
    batches = {name: VecDeals(path, args.envs, deal) for name, (path, deal) in GAMES.items()}
    for deals in batches.values():
        batch_rate(deals, args.warmup, 1, True)
    theirs: list = []
    rates: dict = {(name, t): [] for name in batches for t in (True, False)}
    ratios: dict = {key: [] for key in rates}
    for r in range(args.rounds):
        base = openspiel_rate(game, args.deals, 100 + r)
        theirs.append(base)
        for name, deals in batches.items():
            for tensors in (True, False):
                rate = batch_rate(deals, args.steps, 200 + r, tensors)
                rates[(name, tensors)].append(rate)
                ratios[(name, tensors)].append(rate / base)
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
        f"{sys.version.split()[0]}; one core; {args.rounds} rounds; {args.envs} deals at once; CPU time"
    )
    print(f"{'engine':<66}{'decisions/s':>14}{'ratio':>8}")
    print(
        f"{'OpenSpiel hearts (C++), legal_actions + apply_action from Python':<66}{statistics.median(theirs):>14.0f}{1.0:>8.2f}"
    )
    for (name, tensors), got in rates.items():
        what = "tensors + masks" if tensors else "masks only"
        label = f"vecenv {name}, {what}"
        print(f"{label:<66}{statistics.median(got):>14.0f}{statistics.median(ratios[(name, tensors)]):>8.2f}")


if __name__ == "__main__":
    main()
