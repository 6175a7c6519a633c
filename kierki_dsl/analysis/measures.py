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

from operator import add, itemgetter, ne, sub

from ..stats import spread
from .rows import GameResult

SECTIONS = ("points", "spread", "final", "decisive", "advantage", "lead", "early", "blocked")


def leaders(totals) -> list:
    """The seats with the highest total."""
    best = max(totals)
    return [s for s, t in enumerate(totals) if t == best]


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


_DEAL: dict = {}  # a deal's scores -> (points in all, mean, spread): deals repeat the same few scores
_PLANS: dict = {}  # contracts played in order -> per contract its measure names and deals' places
_CONTRACT = itemgetter(0)  # DealRow.contract
_SCORES = itemgetter(5)  # DealRow.scores


def _deal_facts(sc: tuple) -> tuple:
    if len(_DEAL) > 100_000:
        _DEAL.clear()
    total = sum(sc)
    got = _DEAL[sc] = (total, total / len(sc), spread(sc))
    return got


def _plan(played: tuple) -> tuple:
    """Per contract of a match that played ``played`` (in first-played order): its name,
    measure names and the places of its deals (made once per schedule)."""
    got = _PLANS.get(played)
    if got is None:
        places: dict = {}
        for i, name in enumerate(played):
            places.setdefault(name, []).append(i)
        if len(_PLANS) > 10_000:
            _PLANS.clear()
        got = _PLANS[played] = tuple((name, _keys(name), tuple(at)) for name, at in places.items())
    return got


def observe(game: GameResult, parts: dict) -> dict:
    """Every measure of one match (``parts``: contract name -> 'negative' or 'positive').

    A simulation calls this once per match, so it is kept lean: one pass over the deals for
    what needs the running totals, what depends on a deal's scores alone remembered per
    scores, the per-seat work in ``map``, and each contract's deals found by a plan made
    once per schedule."""
    totals = game.totals
    deals = game.deals
    if not deals:
        return {}
    n = len(totals)
    final = _top(totals)
    scores = list(map(_SCORES, deals))
    facts = list(map(_DEAL.get, scores))
    if None in facts:
        facts = [f or _deal_facts(sc) for f, sc in zip(facts, scores)]
    decisive = []
    dealer_sum = caller_sum = first_sum = 0.0
    callers = firsts = 0
    running = (0,) * n
    seen = []
    for (_, dealer, first, caller, _, sc, _, _), (_, mean, _) in zip(deals, facts):
        without = tuple(map(sub, totals, sc))
        best = max(without)
        decisive.append(tuple(map(best.__eq__, without)) != final)
        running = tuple(map(add, running, sc))
        best = max(running)
        seen.append(tuple(map(best.__eq__, running)))
        dealer_sum += sc[dealer] - mean
        if caller >= 0:
            caller_sum += sc[caller] - mean
            callers += 1
        if first >= 0:
            first_sum += sc[first] - mean
            firsts += 1
    obs: dict = {}
    by_part: dict = {}
    for name, (kp, ks, kd, ke, kb), at in _plan(tuple(map(_CONTRACT, deals))):
        if len(at) == 1:
            i = at[0]
            row = deals[i]
            obs[kp] = float(facts[i][0])
            obs[ks] = facts[i][2]
            obs[kd] = decisive[i] / 1
            obs[ke] = row.early / 1
            obs[kb] = row.blocked / 1
        else:
            _average(obs, (kp, ks, kd, ke, kb), at, facts, decisive, deals)
        by_part.setdefault(parts.get(name, "positive"), []).extend(at)
    for part, at in by_part.items():
        per = list(map(sum, zip(*map(scores.__getitem__, at))))
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
    obs["advantage:dealer"] = dealer_sum / len(seen)
    if callers:
        obs["advantage:trump caller"] = caller_sum / callers
    if firsts:
        obs["advantage:first turn"] = first_sum / firsts
    obs["lead:changes"] = float(sum(map(ne, seen, seen[1:])))
    settled = len(seen)
    while settled > 1 and seen[settled - 2] == seen[-1]:
        settled -= 1
    obs["lead:settled after deal"] = float(settled)
    return obs


def _average(obs: dict, keys: tuple, at: tuple, facts: list, decisive: list, deals: tuple) -> None:
    """The per-deal means of a contract played more than once in the match (deals ``at``)."""
    points = spreads = 0.0
    hits = early = blocked = 0
    for i in at:
        points += facts[i][0]
        spreads += facts[i][2]
        hits += decisive[i]
        early += deals[i].early
        blocked += deals[i].blocked
    k = len(at)
    kp, ks, kd, ke, kb = keys
    obs[kp] = points / k
    obs[ks] = spreads / k
    obs[kd] = hits / k
    obs[ke] = early / k
    obs[kb] = blocked / k


def parts_of(rs) -> dict:
    """Contract name -> its part ('negative' or 'positive'), as ``kierki ladder`` splits a match."""
    from ..ladder import part_of

    return {name: part_of(rs, c) for name, c in rs.contracts.items()}


__all__ = ["SECTIONS", "leaders", "observe", "parts_of"]
