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

from .ruleset.semantics import part_of
from .stats import Estimate, estimate
from .tournament import MEASURES, matches, observations


def duel(rs, a: str, b: str, seeds: range, workers: int = 1) -> dict:
    """Estimates of A minus B per measure (``match``, ``negative``, ``positive``)."""
    return _duel(rs, a, b, seeds, workers)[0]


def _duel(rs, a: str, b: str, seeds: range, workers: int) -> tuple[dict, set]:
    """``duel``'s estimates, and the names of the ``exec:`` bots that failed in some match."""
    done = matches(rs, [a, b], seeds, workers)
    failed = {name for row in done.values() for name in row["failed"]}
    return {m: estimate(observations(done, (0, 1), rs.players, seeds, m)) for m in MEASURES}, failed


def report(rs, pairs: list, seeds: range, out=None, workers: int = 1) -> str:
    """The ladder's table: one line per pair; the negative and the positive part apart only for a
    ruleset that has deals of both kinds (Hearts' are all of one, and would read as 'positive')."""
    measures = MEASURES if len({part_of(rs, c) for c in rs.contracts.values()}) > 1 else MEASURES[:1]
    heads = {"match": "per match", "negative": "negative part", "positive": "positive part"}
    lines = [
        f"{rs.name}: {len(seeds)} seed{'' if len(seeds) == 1 else 's'} × {2 * rs.players} seatings"
        " (duplicate deals, each side alone at each seat)",
        f"{'A vs B':<24}" + "".join(f"{heads[m]:>18}" for m in measures),
    ]
    failures: set = set()
    for a, b in pairs:
        res, failed = _duel(rs, a, b, seeds, workers)
        failures |= failed
        lines.append(f"{a + ' vs ' + b:<24}" + "".join(f"{str(res[m]):>18}" for m in measures))
        if out:
            out(lines[-1])
    if failures:  # their seats forfeited from the failure on: the figures are not the bots' play
        lines += ["", "Bots that failed in some match: " + ", ".join(sorted(failures))]
    return "\n".join(lines)


__all__ = ["duel", "estimate", "report", "Estimate"]
