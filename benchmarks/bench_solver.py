"""The perfect-information solver's speed (docs/performance.md, "The solver and pimc").

    python benchmarks/bench_solver.py [--positions 20] [--cards 4,6,8,9] [--python-to 6] [--full 120]

Random endgames of Kierki's "no hearts" deal (``bez_kierow``) and "no tricks" (``bez_lew``):
a deal dealt at random and played at random until each hand holds ``--cards`` cards, then
solved with every hand known (``solver.solve``: the value of each legal card of the seat on
turn). Per size: the median CPU time of a solve and the positions searched per CPU second
(nodes of the search over its process time: a loaded machine slows wall time, not this),
compiled and in Python (the Python search only up to ``--python-to`` cards: it is the same
search, tens of times slower). ``--full S``: the time to solve a whole 13-card deal at its
first lead, in a child process stopped after S seconds of wall time ("more than S s").
The machine's load average is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl import load_ruleset  # noqa: E402
from kierki_dsl.cards import FULL_DECK  # noqa: E402
from kierki_dsl.interpreter import solver  # noqa: E402
from kierki_dsl.interpreter.phases import Phase  # noqa: E402

RULES = load_ruleset(str(ROOT / "rulesets" / "kierki_standard.yaml"))
CONTRACTS = ("bez_kierow", "bez_lew")


def endgame(name: str, seed: int, cards: int):
    """(contract, deal) played at random to the first lead with ``cards`` cards per hand."""
    rng = random.Random(seed)
    contract = RULES.contracts[name]
    deck = list(range(52))
    rng.shuffle(deck)
    dealt = [sorted(deck[13 * i : 13 * i + 13]) for i in range(4)]
    deal = contract.new_deal(4, FULL_DECK, seed % 4, dealt, 1, 1)
    while deal.phase is not Phase.PLAY or deal.trick or deal.hands[0].bit_count() > cards:
        deal.apply_action(rng.choice(deal.legal_actions()))
    return contract, deal


def measure(name: str, cards: int, positions: int, python: bool) -> tuple:
    """(median CPU seconds per solve, nodes per CPU second) over ``positions`` endgames."""
    times, nodes = [], 0
    for seed in range(positions):
        contract, deal = endgame(name, seed, cards)
        view = deal.view(deal.current_player())
        start = time.process_time()
        _, n = solver.solve(contract, view, list(deal.hands), python=python)
        times.append(time.process_time() - start)
        nodes += n
    return statistics.median(times), nodes / sum(times)


def full_deal(seconds: float) -> str:
    """The time of a whole 13-card deal's solve, in a child process given ``seconds``."""
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[1]); sys.argv = sys.argv[:1];"
        "import benchmarks.bench_solver as b;"
        "c, d = b.endgame('bez_kierow', 1, 13); v = d.view(d.current_player()); t = time.process_time();"
        "_, n = b.solver.solve(c, v, list(d.hands)); print(f'{time.process_time() - t:.1f} s, {n} nodes')"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, timeout=seconds, cwd=ROOT
        )
    except subprocess.TimeoutExpired:
        return f"more than {seconds:.0f} s (stopped)"
    return out.stdout.strip() or out.stderr.strip()[-200:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--cards", default="4,6,8,9")
    ap.add_argument("--python-to", type=int, default=6, help="most cards per hand solved in Python too")
    ap.add_argument("--full", type=float, default=0.0, help="seconds for a whole 13-card deal (0: skip)")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; compiled solver: {solver.compiled()}")
    print(f"{'contract':12} {'cards':>5} {'C ms/solve':>11} {'C nodes/s':>11} {'Py ms/solve':>12} {'Py nodes/s':>11}")
    for name in CONTRACTS:
        for cards in (int(c) for c in args.cards.split(",")):
            c_time, c_rate = measure(name, cards, args.positions, False) if solver.compiled() else (0.0, 0.0)
            if cards <= args.python_to:
                p_time, p_rate = measure(name, cards, args.positions, True)
                py = f"{1000 * p_time:12.2f} {p_rate:11.0f}"
            else:
                py = f"{'-':>12} {'-':>11}"
            print(f"{name:12} {cards:5} {1000 * c_time:11.2f} {c_rate:11.0f} {py}", flush=True)
    if args.full:
        print(f"a whole 13-card deal (bez_kierow, seed 1): {full_deal(args.full)}")


if __name__ == "__main__":
    main()
