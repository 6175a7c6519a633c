"""``pimc`` against ``search`` and against IS-MCTS given ten times its think time, over duplicate
deals (docs/bots.md, "pimc against search and IS-MCTS").

    python benchmarks/duel_pimc.py [--games kierki_negative,kierki_trumps,hearts,barbu] [--seeds 3]
                                   [--pimc pimc:8:13:100000] [--search search:8] [--factor 10]
                                   [--against search,ismcts] [--journal FILE] [--first-seed 1]

Each seed is one match of a benchmark ruleset (Kierki's seven negative deals, its four trump
deals, Hearts cut to four deals, Barbu's five negative contracts), played twice with the same
cards: A (``pimc``) in seats 0 and 2 and B in seats 1 and 3, then the seats rotated (B in 0 and
2). Per deal, the difference is A's mean score over the four seats it played minus B's: every
seat of every deal is played once by each player, against the other, with the same cards.
Reported: the mean difference per deal with a 95% interval (Student's t over the deals), and
per decision of each player its think time (CPU seconds of the process while it decided).

IS-MCTS gets ``--factor`` times ``pimc``'s think time as a simulation count, load-independent:
``pimc``'s mean CPU seconds per card decision (measured in the ``search`` duel of the same game,
or by a short run first) times the factor, over IS-MCTS's CPU seconds per simulation (measured
on the first deal of the game). ``pimc``'s budget is in worlds and positions per world, so its
decisions do not depend on the machine's load either. ``--journal`` appends each seed's deals'
results as a JSON line (a stopped run keeps what it finished); ``--summary FILE`` prints the
intervals of a journal; ``--first-seed N`` starts at seed N (a journal's run continued with
its next seeds).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl import load_ruleset  # noqa: E402
from kierki_dsl.interpreter.match import MatchRunner  # noqa: E402
from kierki_dsl.players.base import make_player  # noqa: E402

GAMES = {
    "kierki_negative": "benchmarks/kierki_negative.yaml",
    "kierki_trumps": "benchmarks/kierki_trumps.yaml",
    "hearts": "benchmarks/hearts_short.yaml",
    "barbu": "benchmarks/barbu_negative.yaml",
    "kierki_positional": "benchmarks/kierki_positional.yaml",
}
#: Student's t at 97.5% by degrees of freedom (beyond 30: the normal's 1.96).
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
        12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04}  # fmt: skip


class Timed:
    """A player whose decisions with a choice are counted and timed (CPU seconds)."""

    def __init__(self, player) -> None:
        self.player, self.decisions, self.cpu = player, 0, 0.0

    def reset(self, seed, seat, rules=None) -> None:
        self.player.reset(seed, seat, rules)

    def act(self, view) -> int:
        if len(view.legal) < 2:
            return view.legal[0]
        start = time.process_time()
        action = self.player.act(view)
        self.cpu += time.process_time() - start
        self.decisions += 1
        return action

    def __getattr__(self, name):
        return getattr(self.player, name)


def match_scores(rules, lineup: list, seed: int) -> list:
    """Every deal's scores (a tuple per deal) of one seeded match with these players."""
    return [tuple(d.scores) for d in MatchRunner(rules, lineup, seed).deals()]


def duel(rules, a: str, b: str, seed: int, timers: dict, solved: dict) -> list:
    """Per deal of the seed's match: A's mean score over its four seats minus B's (``timers``:
    (decisions, CPU seconds) per player; ``solved``: pimc's card decisions solved and given up)."""
    ta, tb = timers.setdefault(a, []), timers.setdefault(b, [])
    plays = []
    for first in (a, b):
        players = [Timed(make_player(first if s % 2 == 0 else (b if first == a else a))) for s in range(4)]
        plays.append(match_scores(rules, players, seed))
        for s, p in enumerate(players):
            (ta if (s % 2 == 0) == (first == a) else tb).append((p.decisions, p.cpu))
            for key in ("solved", "given_up"):
                solved[key] = solved.get(key, 0) + p.stats.get(key, 0)
    out = []
    for one, two in zip(*plays):
        a_score = (one[0] + one[2] + two[1] + two[3]) / 4
        b_score = (one[1] + one[3] + two[0] + two[2]) / 4
        out.append(a_score - b_score)
    return out


def interval(diffs: list) -> str:
    """Mean ± the 95% half-width (Student's t) of the differences."""
    n = len(diffs)
    if n < 2:
        return f"{diffs[0] if diffs else float('nan'):+.1f} (one deal)"
    df = n - 1
    t = T975[max(k for k in T975 if k <= df)] if df <= 30 else 1.96
    half = t * statistics.stdev(diffs) / math.sqrt(n)
    mean = statistics.mean(diffs)
    clear = "clear of zero" if abs(mean) > half else "spans zero"
    return f"{mean:+.2f} ± {half:.2f} over {n} deals ({clear})"


def per_decision(records: list) -> float:
    """CPU seconds per decision over (decisions, cpu) records."""
    d = sum(r[0] for r in records)
    return sum(r[1] for r in records) / d if d else 0.0


def ismcts_rate(rules, seed: int) -> float:
    """IS-MCTS's CPU seconds per simulation (``ismcts:100`` in seat 0, the first deal)."""
    p = make_player("ismcts:100")
    players = [p] + [make_player("heuristic") for _ in range(3)]
    start = time.process_time()
    for _ in MatchRunner(rules, players, seed).deals():
        break
    return (time.process_time() - start) / max(1, p.stats["simulations"])


def summary(path: str) -> None:
    """The interval of every (game, A, B) of a journal, from its deals."""
    runs: dict = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            runs.setdefault((row["game"], row["a"], row["b"]), []).extend(row["diffs"])
    for (game, a, b), diffs in runs.items():
        print(f"{game:16} {a} vs {b}: {interval(diffs)}")


def _check(ap: argparse.ArgumentParser, args) -> None:
    """Every argument before any duel (exit 2 naming it): an unknown game or opponent was read as
    ``search`` or failed with a traceback after the first duels."""
    unknown = [g for g in args.games.split(",") if g not in GAMES]
    if unknown:
        ap.error(f"--games: unknown {', '.join(unknown)} (known: {', '.join(GAMES)})")
    wrong = [a for a in args.against.split(",") if a not in ("search", "ismcts")]
    if wrong:
        ap.error(f"--against: unknown {', '.join(wrong)} (search, ismcts or both)")
    if args.seeds < 1 or args.first_seed < 0 or not 0 < args.factor < 1e6:
        ap.error("--seeds must be 1 or more, --first-seed 0 or more, --factor above 0")
    for option, name in (("--pimc", args.pimc), ("--search", args.search)):
        if not name.startswith(option[2:]):
            ap.error(f"{option} names a {option[2:]} player ({option[2:]}:SETTINGS), got {name!r}")
        try:
            make_player(name)
        except KeyError as e:
            ap.error(f"{option}: {e.args[0]}")
    if args.journal:
        folder = Path(args.journal).resolve().parent
        if not folder.is_dir():
            ap.error(f"--journal {args.journal}: no such folder {folder}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seeds", type=int, default=3, help="matches (duplicate deal sets) per game")
    ap.add_argument("--first-seed", type=int, default=1, help="the first seed (to extend a journal: its next seed)")
    ap.add_argument("--pimc", default="pimc:8:13:100000")
    ap.add_argument("--search", default="search:8")
    ap.add_argument("--factor", type=float, default=10.0, help="IS-MCTS's think time over pimc's")
    ap.add_argument("--against", default="search,ismcts")
    ap.add_argument("--journal", default="")
    ap.add_argument("--summary", default="", help="only print the intervals of a journal's deals")
    args = ap.parse_args()
    if args.summary:
        try:
            summary(args.summary)
        except (OSError, ValueError, KeyError, TypeError) as e:  # no such file, not a journal
            ap.error(f"--summary {args.summary}: not a journal this script wrote ({type(e).__name__}: {e})")
        return
    _check(ap, args)
    for game in args.games.split(","):
        rules = load_ruleset(str(ROOT / GAMES[game]))
        timers: dict = {}
        for against in args.against.split(","):
            b = args.search
            if against == "ismcts":
                if not timers.get(args.pimc):  # pimc's think time: a short duel against search first
                    duel(rules, args.pimc, args.search, 10_000, timers, {})
                sims = max(2, round(args.factor * per_decision(timers[args.pimc]) / ismcts_rate(rules, 1)))
                b = f"ismcts:{sims}"
            diffs: list = []
            solved: dict = {}
            start = time.perf_counter()
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                got = duel(rules, args.pimc, b, seed, timers, solved)
                diffs += got
                if args.journal:
                    with open(args.journal, "a", encoding="utf-8") as f:
                        f.write(json.dumps({"game": game, "a": args.pimc, "b": b, "seed": seed, "diffs": got}) + "\n")
            print(
                f"{game:16} {args.pimc} vs {b}: {interval(diffs)}; CPU s/decision: A {per_decision(timers[args.pimc]):.3f}"
                f", B {per_decision(timers[b]):.3f}; pimc's cards solved {solved.get('solved', 0)}"
                f", given up {solved.get('given_up', 0)}; {time.perf_counter() - start:.0f} s wall",
                flush=True,
            )


if __name__ == "__main__":
    main()
