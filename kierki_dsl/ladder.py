"""``kierki ladder``: is player A stronger than player B? Duplicate matches, 95% intervals.

For every seed the same deals are played four times (the shuffle depends only on the seed,
never on the players), with A in each seat in turn and B in the other three. One
observation per seed is A's points minus the mean of the three B's, averaged over the four
rotations: luck of the cards cancels out, what is left is skill. Reported per match, and
for the negative and the positive part separately: the deals whose contract (the one played,
also when a declarer chose it) loses points, and the others.
"""

from __future__ import annotations

from .interpreter.match import MatchRunner
from .players.base import make_player
from .ruleset.semantics import contract_total
from .stats import Estimate, estimate


def part_of(rs, contract) -> str:
    """'negative' for a contract whose deals lose points in all, else 'positive'."""
    t = contract_total(contract, rs.hand_size, rs.players, rs.deck)
    return "negative" if (t is not None and t < 0) else "positive"


def duel(rs, a: str, b: str, seeds: range, progress=None) -> dict:
    """Estimates of A minus the B's: per match, negative part, positive part."""
    parts: dict = {}
    obs = {"match": [], "negative": [], "positive": []}
    for seed in seeds:
        sums = {"match": 0.0, "negative": 0.0, "positive": 0.0}
        for seat_a in range(rs.players):
            names = [a if s == seat_a else b for s in range(rs.players)]
            runner = MatchRunner(rs, [make_player(x) for x in names], seed)
            per = {"negative": [0] * rs.players, "positive": [0] * rs.players}
            totals = [0] * rs.players
            for r in runner.deals():
                if r.contract.name not in parts:
                    parts[r.contract.name] = part_of(rs, r.contract)
                part = parts[r.contract.name]
                for s in range(rs.players):
                    per[part][s] += r.scores[s]
                totals = list(r.totals)
            for key, values in (("match", totals), ("negative", per["negative"]), ("positive", per["positive"])):
                others = [values[s] for s in range(rs.players) if s != seat_a]
                sums[key] += values[seat_a] - sum(others) / len(others)
        for key in obs:
            obs[key].append(sums[key] / rs.players)
        if progress:
            progress(seed)
    return {key: estimate(xs) for key, xs in obs.items()}


def report(rs, pairs: list, seeds: range, out=None) -> str:
    lines = [
        f"{rs.name}: {len(seeds)} seeds × {rs.players} seat rotations (duplicate deals)",
        f"{'A vs B':<24}{'per match':>18}{'negative part':>18}{'positive part':>18}",
    ]
    for a, b in pairs:
        res = duel(rs, a, b, seeds)
        lines.append(f"{a + ' vs ' + b:<24}{str(res['match']):>18}{str(res['negative']):>18}{str(res['positive']):>18}")
        if out:
            out(lines[-1])
    return "\n".join(lines)


__all__ = ["duel", "estimate", "report", "Estimate"]
