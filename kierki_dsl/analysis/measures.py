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


def leaders(totals) -> list:
    """The seats with the highest total."""
    best = max(totals)
    return [s for s, t in enumerate(totals) if t == best]


def observe(game: GameResult, parts: dict) -> dict:
    """Every measure of one match (``parts``: contract name -> 'negative' or 'positive').

    One pass over the deals (a simulation calls this once per match, so it is kept lean)."""
    totals = game.totals
    n = len(totals)
    if not game.deals:
        return {}
    final = leaders(totals)
    groups: dict = {}  # contract -> [deals, points, spread, decisive, early, blocked]
    part_sums: dict = {}
    gaps = {"dealer": [], "trump caller": [], "first turn": []}
    running = [0] * n
    seen = []
    for row in game.deals:
        sc = row.scores
        mean = sum(sc) / n
        g = groups.get(row.contract)
        if g is None:
            g = groups[row.contract] = [0, 0.0, 0.0, 0, 0, 0]
        g[0] += 1
        g[1] += sum(sc)
        g[2] += spread(sc)
        g[3] += leaders([t - s for t, s in zip(totals, sc)]) != final
        g[4] += row.early
        g[5] += row.blocked
        per = part_sums.get(parts.get(row.contract, "positive"))
        if per is None:
            per = part_sums[parts.get(row.contract, "positive")] = [0] * n
        for s in range(n):
            per[s] += sc[s]
            running[s] += sc[s]
        seen.append(leaders(running))
        gaps["dealer"].append(sc[row.dealer] - mean)
        if row.caller >= 0:
            gaps["trump caller"].append(sc[row.caller] - mean)
        if row.first >= 0:
            gaps["first turn"].append(sc[row.first] - mean)
    obs: dict = {}
    for name, (k, points, spreads, decisive, early, blocked) in groups.items():
        obs[f"points:{name}"] = points / k
        obs[f"spread:{name}"] = spreads / k
        obs[f"decisive:{name}"] = decisive / k
        obs[f"early:{name}"] = early / k
        obs[f"blocked:{name}"] = blocked / k
    for part, per in part_sums.items():
        obs[f"points:part {part}"] = float(sum(per))
        obs[f"spread:part {part}"] = spread(per)
    mean_total = sum(totals) / n
    ordered = sorted(totals, reverse=True)
    obs["final:spread"] = spread(totals)
    obs["final:margin"] = float(ordered[0] - ordered[1]) if n > 1 else 0.0
    for s in range(n):
        obs[f"advantage:seat {s}"] = totals[s] - mean_total
    obs["advantage:first dealer"] = totals[game.first_dealer] - mean_total
    for name, xs in gaps.items():
        if xs:
            obs[f"advantage:{name}"] = sum(xs) / len(xs)
    obs["lead:changes"] = float(sum(1 for a, b in zip(seen, seen[1:]) if a != b))
    settled = len(seen)
    while settled > 1 and seen[settled - 2] == seen[-1]:
        settled -= 1
    obs["lead:settled after deal"] = float(settled)
    return obs


def parts_of(rs) -> dict:
    """Contract name -> its part ('negative' or 'positive'), as ``kierki ladder`` splits a match."""
    from ..ladder import part_of

    return {name: part_of(rs, c) for name, c in rs.contracts.items()}


__all__ = ["SECTIONS", "leaders", "observe", "parts_of"]
