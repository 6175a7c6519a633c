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

from itertools import accumulate, compress, repeat
from operator import eq, getitem, itemgetter, le, ne, sub

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
_DEALER, _FIRST, _CALLER = itemgetter(1), itemgetter(2), itemgetter(3)  # DealRow's seats
_MEAN = itemgetter(1)  # of a deal's facts


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


def _leaders(columns: list) -> list:
    """Per place of the columns (one per seat), which seats hold the highest value there, as
    a tuple of flags (``_top`` of every row at once, in ``map``)."""
    best = list(map(max, *columns)) if len(columns) > 1 else list(columns[0])
    return list(zip(*[map(eq, col, best) for col in columns]))


def _gap(scores: list, seats: list, means: list):
    """The mean over the deals that name a seat (``seats``: -1 none) of that seat's points
    minus the deal's mean; None when no deal names one."""
    named = list(map(le, repeat(0), seats))
    count = sum(named)
    if not count:
        return None
    return sum(map(sub, map(getitem, compress(scores, named), compress(seats, named)), compress(means, named))) / count


def observe(game: GameResult, parts: dict) -> dict:
    """Every measure of one match (``parts``: contract name -> 'negative' or 'positive').

    A simulation calls this once per match, so it is kept lean: the deals' points are read
    as one column per seat and the running totals, leaders and gaps worked out in ``map``
    and ``accumulate``; what depends on a deal's scores alone is remembered per scores, and
    each contract's deals are found by a plan made once per schedule."""
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
    columns = list(zip(*scores))  # per seat, its points deal by deal
    seen = _leaders([list(accumulate(col)) for col in columns])  # the leaders after each deal
    without = [list(map(sub, repeat(total), col)) for total, col in zip(totals, columns)]
    decisive = list(map(ne, _leaders(without), repeat(final)))  # another winner without the deal
    means = list(map(_MEAN, facts))
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
    for key, seats in (("advantage:dealer", _DEALER), ("advantage:trump caller", _CALLER),
                       ("advantage:first turn", _FIRST)):
        gap = _gap(scores, list(map(seats, deals)), means)
        if gap is not None:
            obs[key] = gap
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
