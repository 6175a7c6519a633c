"""``kierki ladder``: is player A stronger than player B? A two-player tournament per pair.

The ladder is a view of ``kierki tournament`` (``tournament.matches`` with the two players of a
pair): every seed's deals are played ``2 × seats`` times, A alone at each seat with B in the
others, then B alone with A in the others (the shuffle depends on the seed only, never on the
players). One observation per seed is A's points minus B's, averaged over those matches: the
luck of the cards cancels, what is left is skill. Reported per match, and for the negative and
the positive part separately: the deals whose contract (the one played, also when a declarer
chose it) loses points, and the others.
"""

from __future__ import annotations

from .stats import Estimate, estimate
from .tournament import MEASURES, matches, observations


def duel(rs, a: str, b: str, seeds: range, workers: int = 1) -> dict:
    """Estimates of A minus B per measure (``match``, ``negative``, ``positive``)."""
    done = matches(rs, [a, b], seeds, workers)
    return {m: estimate(observations(done, (0, 1), rs.players, seeds, m)) for m in MEASURES}


def report(rs, pairs: list, seeds: range, out=None, workers: int = 1) -> str:
    """The ladder's table: one line per pair."""
    lines = [
        f"{rs.name}: {len(seeds)} seeds × {2 * rs.players} seatings (duplicate deals, each side alone at each seat)",
        f"{'A vs B':<24}{'per match':>18}{'negative part':>18}{'positive part':>18}",
    ]
    for a, b in pairs:
        res = duel(rs, a, b, seeds, workers)
        lines.append(f"{a + ' vs ' + b:<24}{str(res['match']):>18}{str(res['negative']):>18}{str(res['positive']):>18}")
        if out:
            out(lines[-1])
    return "\n".join(lines)


__all__ = ["duel", "estimate", "report", "Estimate"]
