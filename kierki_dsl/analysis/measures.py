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

from operator import add, sub

from ..stats import spread
from .rows import GameResult

SECTIONS = ("points", "spread", "final", "decisive", "advantage", "lead", "early", "blocked")


def leaders(totals) -> list:
    """The seats with the highest total."""
    best = max(totals)
    return [s for s, t in enumerate(totals) if t == best]


_DEAL_SPREAD: dict = {}  # a deal's scores -> their spread (deals repeat the same few scores)


def _deal_spread(sc: tuple) -> float:
    got = _DEAL_SPREAD.get(sc)
    if got is None:
        if len(_DEAL_SPREAD) > 100_000:
            _DEAL_SPREAD.clear()
        got = _DEAL_SPREAD[sc] = spread(sc)
    return got


_KEYS: dict = {}
_SEAT_KEYS = tuple(f"advantage:seat {s}" for s in range(16))


def _keys(name: str) -> tuple:
    """The measure names of one contract (made once: a simulation observes it per match)."""
    got = _KEYS.get(name)
    if got is None:
        got = _KEYS[name] = tuple(f"{section}:{name}" for section in ("points", "spread", "decisive", "early",
                                                                      "blocked"))
    return got


def _top(xs) -> tuple:
    """Which seats hold the highest of ``xs``, as a tuple of flags (a set of leaders)."""
    return tuple(map(max(xs).__eq__, xs))


def observe(game: GameResult, parts: dict) -> dict:
    """Every measure of one match (``parts``: contract name -> 'negative' or 'positive').

    One pass over the deals (a simulation calls this once per match, so it is kept lean:
    the per-seat sums run in ``map``)."""
    totals = game.totals
    n = len(totals)
    if not game.deals:
        return {}
    final = _top(totals)
    groups: dict = {}  # contract -> [deals, points, spread, decisive, early, blocked, part sums]
    part_sums: dict = {}
    dealer_gaps, caller_gaps, first_gaps = [], [], []
    running = [0] * n
    seen = []
    for row in game.deals:
        sc = row.scores
        total = sum(sc)
        mean = total / n
        g = groups.get(row.contract)
        if g is None:
            part = parts.get(row.contract, "positive")
            if part not in part_sums:
                part_sums[part] = [0] * n
            g = groups[row.contract] = [0, 0.0, 0.0, 0, 0, 0, part]
        g[0] += 1
        g[1] += total
        g[2] += _deal_spread(sc)
        g[3] += _top(list(map(sub, totals, sc))) != final
        g[4] += row.early
        g[5] += row.blocked
        part_sums[g[6]] = list(map(add, part_sums[g[6]], sc))
        running = list(map(add, running, sc))
        seen.append(_top(running))
        dealer_gaps.append(sc[row.dealer] - mean)
        if row.caller >= 0:
            caller_gaps.append(sc[row.caller] - mean)
        if row.first >= 0:
            first_gaps.append(sc[row.first] - mean)
    gaps = {"dealer": dealer_gaps, "trump caller": caller_gaps, "first turn": first_gaps}
    obs: dict = {}
    for name, (k, points, spreads, decisive, early, blocked, _) in groups.items():
        kp, ks, kd, ke, kb = _keys(name)
        obs[kp] = points / k
        obs[ks] = spreads / k
        obs[kd] = decisive / k
        obs[ke] = early / k
        obs[kb] = blocked / k
    for part, per in part_sums.items():
        kp, ks = _keys("part " + part)[:2]
        obs[kp] = float(sum(per))
        obs[ks] = spread(per)
    mean_total = sum(totals) / n
    ordered = sorted(totals, reverse=True)
    obs["final:spread"] = spread(totals)
    obs["final:margin"] = float(ordered[0] - ordered[1]) if n > 1 else 0.0
    for s in range(n):
        obs[_SEAT_KEYS[s] if s < len(_SEAT_KEYS) else f"advantage:seat {s}"] = totals[s] - mean_total
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
