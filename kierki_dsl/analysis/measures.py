"""One match as observations: a number per measure, so that many matches give means with
intervals and two rulesets on the same deals give paired differences.

Every measure is named ``"section:item"``; a match that has nothing to say about a measure
(no trump call, a contract it never played) leaves it out. The sections:

``points``/``spread``
    per contract (``points:atu``) and per part (``points:part negative``): the points a deal
    gives out in all (every seat together), and how far apart it leaves the seats (the
    standard deviation of the seats' points) — averaged over the contract's deals in the
    match; for a part, the whole part of the match.
``final``
    ``spread`` of the final scores (standard deviation over the seats) and the winner's
    ``margin`` over the runner-up.
``decisive``
    per contract: the share of its deals without which another seat would have won.
``advantage``
    a seat's points minus the table's mean: per ``seat N`` over the match, the ``first
    dealer`` over the match, and per deal the ``dealer``, the ``trump caller`` and the seat
    that played ``first``.
``lead``
    ``changes`` of the leader (the seats with the highest running total) from deal to deal,
    and the deal after which the final leader stayed in front (``settled after deal``).
``early``/``blocked``
    per contract: the share of its deals that stopped early / of layout deals that blocked.
"""
from __future__ import annotations

from ..stats import spread
from .rows import GameResult

SECTIONS = ("points", "spread", "final", "decisive", "advantage", "lead", "early", "blocked")


def leaders(totals) -> frozenset:
    """The seats with the highest total."""
    best = max(totals)
    return frozenset(s for s, t in enumerate(totals) if t == best)


def _mean(xs: list) -> float:
    return sum(xs) / len(xs)


def _gap(scores, seat: int) -> float:
    """A seat's points minus the table's mean."""
    return scores[seat] - sum(scores) / len(scores)


def _per_contract(game: GameResult, obs: dict) -> None:
    groups: dict = {}
    for row in game.deals:
        groups.setdefault(row.contract, []).append(row)
    final = leaders(game.totals)
    for name, rows in groups.items():
        obs[f"points:{name}"] = _mean([sum(r.scores) for r in rows])
        obs[f"spread:{name}"] = _mean([spread(r.scores) for r in rows])
        obs[f"decisive:{name}"] = _mean([leaders([t - s for t, s in zip(game.totals, r.scores)]) != final
                                         for r in rows])
        obs[f"early:{name}"] = _mean([r.early for r in rows])
        obs[f"blocked:{name}"] = _mean([r.blocked for r in rows])


def _per_part(game: GameResult, parts: dict, obs: dict) -> None:
    n = len(game.totals)
    sums: dict = {}
    for row in game.deals:
        per = sums.setdefault(parts.get(row.contract, "positive"), [0] * n)
        for s in range(n):
            per[s] += row.scores[s]
    for part, per in sums.items():
        obs[f"points:part {part}"] = float(sum(per))
        obs[f"spread:part {part}"] = spread(per)


def _advantages(game: GameResult, obs: dict) -> None:
    totals = game.totals
    for s in range(len(totals)):
        obs[f"advantage:seat {s}"] = _gap(totals, s)
    obs["advantage:first dealer"] = _gap(totals, game.first_dealer)
    obs["advantage:dealer"] = _mean([_gap(r.scores, r.dealer) for r in game.deals])
    called = [_gap(r.scores, r.caller) for r in game.deals if r.caller >= 0]
    if called:
        obs["advantage:trump caller"] = _mean(called)
    firsts = [_gap(r.scores, r.first) for r in game.deals if r.first >= 0]
    if firsts:
        obs["advantage:first turn"] = _mean(firsts)


def _lead(game: GameResult, obs: dict) -> None:
    running = [0] * len(game.totals)
    seen = []
    for row in game.deals:
        running = [t + s for t, s in zip(running, row.scores)]
        seen.append(leaders(running))
    obs["lead:changes"] = float(sum(1 for a, b in zip(seen, seen[1:]) if a != b))
    settled = len(seen)
    while settled > 1 and seen[settled - 2] == seen[-1]:
        settled -= 1
    obs["lead:settled after deal"] = float(settled)


def observe(game: GameResult, parts: dict) -> dict:
    """Every measure of one match (``parts``: contract name -> 'negative' or 'positive')."""
    obs: dict = {}
    totals = game.totals
    if not game.deals:
        return obs
    _per_contract(game, obs)
    _per_part(game, parts, obs)
    ordered = sorted(totals, reverse=True)
    obs["final:spread"] = spread(totals)
    obs["final:margin"] = float(ordered[0] - ordered[1]) if len(ordered) > 1 else 0.0
    _advantages(game, obs)
    _lead(game, obs)
    return obs


def parts_of(rs) -> dict:
    """Contract name -> its part ('negative' or 'positive'), as ``kierki ladder`` splits a match."""
    from ..ladder import part_of

    return {name: part_of(rs, c) for name, c in rs.contracts.items()}


__all__ = ["SECTIONS", "leaders", "observe", "parts_of"]
