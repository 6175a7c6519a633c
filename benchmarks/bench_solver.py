"""The perfect-information solver's speed (docs/performance.md, "The solver and pimc").

    python benchmarks/bench_solver.py [--positions 6] [--cards 7,8,9,10,13] [--limit 20000000]
                                      [--games bez_lew,bez_kierow,bez_dam,atu,hearts,barbu] [--python-to 6]

Random positions of Kierki's negative deals ("no tricks" ``bez_lew``, "no hearts"
``bez_kierow``, "no queens" ``bez_dam``), its trump deal (``atu``), Hearts and Barbu's "no
queens": a deal dealt at random and played at random (passes and trump calls too) to the
first lead with ``--cards`` cards per hand, then solved with every hand known
(``solver.solve``: the value of each legal card of the seat on turn). 13 cards is a whole deal
at its first lead. Per size: how many positions were solved within ``--limit`` positions
searched (a node budget: the answer does not depend on the machine's load), the median CPU
time and positions searched of the solved ones, and positions searched per CPU second. The
Python search (the same search, tens of times slower) is measured up to ``--python-to`` cards.
The machine's load average is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl import load_ruleset  # noqa: E402
from kierki_dsl.cards import FULL_DECK  # noqa: E402
from kierki_dsl.interpreter import solver  # noqa: E402
from kierki_dsl.interpreter.phases import Phase  # noqa: E402

KIERKI = "rulesets/kierki_standard.yaml"
#: name -> (ruleset, contract)
GAMES = {
    "bez_lew": (KIERKI, "bez_lew"),
    "bez_kierow": (KIERKI, "bez_kierow"),
    "bez_dam": (KIERKI, "bez_dam"),
    "atu": (KIERKI, "atu"),
    "hearts": ("rulesets/games/hearts.yaml", "hand"),
    "barbu": ("rulesets/games/barbu.yaml", "no_queens"),
}


def endgame(game: str, seed: int, cards: int):
    """(contract, deal) played at random to the first lead with ``cards`` cards per hand."""
    path, name = GAMES[game]
    contract = load_ruleset(str(ROOT / path)).contracts[name]
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    dealt = [sorted(deck[13 * i : 13 * i + 13]) for i in range(4)]
    deal = contract.new_deal(4, FULL_DECK, seed % 4, dealt, 1, 1)
    while deal.phase is not Phase.PLAY or deal.trick or deal.hands[0].bit_count() > cards:
        deal.apply_action(rng.choice(deal.legal_actions()))
    return contract, deal


def measure(game: str, cards: int, positions: int, limit: int, python: bool = False) -> dict:
    """Solved count, median CPU seconds and nodes of the solved, nodes per CPU second."""
    times, counts, spent, nodes = [], [], 0.0, 0
    for seed in range(positions):
        contract, deal = endgame(game, seed, cards)
        view = deal.view(deal.current_player())
        start = time.process_time()
        got, n = solver.solve(contract, view, list(deal.hands), python=python, limit=limit)
        took = time.process_time() - start
        spent, nodes = spent + took, nodes + n
        if got:
            times.append(took)
            counts.append(n)
    return {
        "solved": len(times),
        "ms": 1000 * statistics.median(times) if times else float("nan"),
        "nodes": statistics.median(counts) if counts else float("nan"),
        "rate": nodes / spent if spent else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--cards", default="7,8,9,10,13")
    ap.add_argument("--limit", type=int, default=20_000_000, help="positions searched before a solve gives up")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--python-to", type=int, default=0, help="most cards per hand solved in Python too")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; compiled solver: {solver.compiled()}; limit {args.limit:,} nodes")
    print(f"{'game':11} {'cards':>5} {'solved':>7} {'ms/solve':>9} {'nodes/solve':>12} {'nodes/s':>10}  (Python)")
    for game in args.games.split(","):
        for cards in (int(c) for c in args.cards.split(",")):
            m = measure(game, cards, args.positions, args.limit)
            line = (
                f"{game:11} {cards:5} {m['solved']:>3}/{args.positions:<3} {m['ms']:9.1f} {m['nodes']:12,.0f}"
                f" {m['rate']:10,.0f}"
            )
            if cards <= args.python_to:
                p = measure(game, cards, args.positions, args.limit, python=True)
                line += f"  Py {p['ms']:.1f} ms, {p['rate']:,.0f} nodes/s"
            print(line, flush=True)


if __name__ == "__main__":
    main()
