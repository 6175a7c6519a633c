"""The solver on whole deals: time and positions to solve a deal from its first lead
(docs/performance.md, "The solver and pimc").

    python benchmarks/bench_solver_deals.py [--deals 10] [--cards 13] [--limit 300000000]
        [--games hearts,bez_lew,bez_kierow,atu,barbu_no_tricks] [--table-bits 22] [--journal FILE]
    python benchmarks/bench_solver_deals.py --summary FILE

Seeded deals (seed 0, 1, ...) of Hearts, Kierki's "no tricks" (``bez_lew``), "no hearts"
(``bez_kierow``) and trump deal (``atu``) and Barbu's "no tricks", dealt and played at random
(passes and trump calls too) to the first lead with ``--cards`` cards per hand (13: the whole
deal), then solved with every hand known: the exact value of each legal card of the seat on
turn (``solver.solve``). A solve that needs more than ``--limit`` positions stops there (a node
budget: the same deals stop on an idle or a loaded machine). Per game: how many deals solved,
the median and the most positions and CPU seconds of the solved ones. CPU time is the solving
process's, but it falls with the machine's load (shared caches), so the load average is printed
and the positions are the figure to compare. Each deal is appended to ``--journal`` as a JSON
line when it ends; ``--summary`` prints a journal's table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_solver import GAMES, endgame  # noqa: E402

from kierki_dsl.interpreter import solver  # noqa: E402

GAMES.setdefault("barbu_no_tricks", ("rulesets/games/barbu.yaml", "no_tricks"))
DEFAULT_GAMES = "hearts,bez_lew,bez_kierow,atu,barbu_no_tricks"


def solve_deal(game: str, seed: int, cards: int, limit: int) -> dict:
    """One deal's solve: positions searched, CPU seconds, solved or stopped by the limit."""
    contract, deal = endgame(game, seed, cards)
    view = deal.view(deal.current_player())
    start = time.process_time()
    got, nodes = solver.solve(contract, view, list(deal.hands), limit=limit)
    took = time.process_time() - start
    return {
        "game": game,
        "seed": seed,
        "cards": cards,
        "limit": limit,
        "solved": bool(got),
        "nodes": nodes,
        "seconds": round(took, 3),
        "load": round(os.getloadavg()[0], 1),
    }


def table(rows: list) -> str:
    """Per game and cards: solved / deals, median and most positions and seconds of the solved."""
    lines = [
        f"{'game':16} {'cards':>5} {'solved':>7} {'median s':>9} {'max s':>8} {'median nodes':>13} {'max nodes':>13}"
        f" {'load':>9}"
    ]
    keys = sorted({(r["game"], r["cards"]) for r in rows}, key=lambda k: (k[1], k[0]))
    for game, cards in keys:
        mine = [r for r in rows if r["game"] == game and r["cards"] == cards]
        done = [r for r in mine if r["solved"]]
        secs, nodes = [r["seconds"] for r in done], [r["nodes"] for r in done]
        loads = [r["load"] for r in mine]
        cols = (
            f"{statistics.median(secs):9.2f} {max(secs):8.2f} {statistics.median(nodes):13,.0f} {max(nodes):13,}"
            if done
            else f"{'-':>9} {'-':>8} {'-':>13} {'-':>13}"
        )
        lines.append(
            f"{game:16} {cards:5} {len(done):>3}/{len(mine):<3} {cols} {min(loads):4.1f}-{max(loads):<4.1f}"
            + ("" if len(done) == len(mine) else f"  (others stopped at {mine[0]['limit']:,} nodes)")
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--first", type=int, default=0, help="the first deal's seed")
    ap.add_argument("--cards", default="13", help="cards per hand at the solved lead (comma-separated)")
    ap.add_argument("--limit", type=int, default=300_000_000, help="positions searched before a solve stops")
    ap.add_argument("--games", default=DEFAULT_GAMES)
    ap.add_argument("--table-bits", type=int, default=0, help="transposition table of 2^bits 128-byte buckets")
    ap.add_argument("--journal", help="append each deal's result here (JSON lines)")
    ap.add_argument("--summary", help="print the table of a journal and stop")
    args = ap.parse_args()
    if args.summary:
        print(table([json.loads(line) for line in Path(args.summary).read_text().splitlines() if line.strip()]))
        return
    if args.table_bits and solver.compiled():
        solver._solve.table_bits(args.table_bits)
    print(f"load average {os.getloadavg()[0]:.1f}; compiled solver: {solver.compiled()}; limit {args.limit:,} nodes")
    rows = []
    for cards in (int(c) for c in args.cards.split(",")):
        for game in args.games.split(","):
            for seed in range(args.first, args.first + args.deals):
                row = solve_deal(game, seed, cards, args.limit)
                rows.append(row)
                print(json.dumps(row), flush=True)
                if args.journal:
                    with open(args.journal, "a") as f:
                        f.write(json.dumps(row) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main()
