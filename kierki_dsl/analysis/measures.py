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
    dealer`` over the match, and per deal the ``dealer``, the ``trump caller``, the seat
    that played ``first`` and the ``declarer`` (the auction's winner).
``lead``
    ``changes`` of the leader (the seats with the highest running total) from deal to deal,
    and the deal after which the final leader stayed in front (``settled after deal``).
``early``/``blocked``
    per contract: the share of its deals that stopped early / of layout deals that blocked.
"""

from __future__ import annotations

from array import array
from itertools import compress, repeat
from math import sqrt
from operator import add, eq, getitem, itemgetter, le, mul, ne, sub, truediv
from typing import NamedTuple, Sequence

from ..ruleset.semantics import part_of
from .rows import GameResult

SECTIONS = ("points", "spread", "final", "decisive", "advantage", "lead", "early", "blocked")
SHARES = ("decisive", "early", "blocked")  # sections whose observations are 0/1 shares


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
        got = _KEYS[name] = tuple(
            f"{section}:{name}" for section in ("points", "spread", "decisive", "early", "blocked")
        )
    return got


_DEAL: dict = {}  # a deal's scores -> (points in all, mean, spread)
_PLANS: dict = {}  # contracts played in order -> per contract its measure names and deals' places
_CONTRACT = itemgetter(0)  # DealRow.contract
_SCORES = itemgetter(5)  # DealRow.scores
_TOTALS, _DEALS, _FIRST_DEALER = itemgetter(3), itemgetter(2), itemgetter(6)  # GameResult's
_EARLY, _BLOCKED = itemgetter(6), itemgetter(7)  # DealRow's
_LAST, _SECOND = itemgetter(-1), itemgetter(-2)
_F0, _MEAN, _F2 = itemgetter(0), itemgetter(1), itemgetter(2)


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


def _spreads(columns: list) -> list:
    """``stats.spread`` of every row of the columns (one per seat) at once: the same sums in
    the same order (``sum`` of each row), so the same floats."""
    n = len(columns)
    means = list(map(truediv, map(sum, zip(*columns)), repeat(n)))
    gaps = [list(map(sub, col, means)) for col in columns]
    return list(map(sqrt, map(truediv, map(sum, zip(*[map(mul, g, g) for g in gaps])), repeat(n))))


def _gap(scores: Sequence, seats: Sequence, means: list) -> float | None:
    """The mean over the deals that name a seat (``seats``: -1 none) of that seat's points
    minus the deal's mean; None when no deal names one."""
    named = list(map(le, repeat(0), seats))
    count = sum(named)
    if not count:
        return None
    return sum(map(sub, map(getitem, compress(scores, named), compress(seats, named)), compress(means, named))) / count


class Measured(NamedTuple):
    """The measures of matches that played the same contracts in the same order, as columns:
    ``columns[j][m]`` is measure ``keys[j]`` of the match ``indices[m]`` (NaN: that match has
    nothing to say about it). ``variants``: (position of the first match, the measures it
    observed, in order) for every set of measures observed, in match order — one in a fixed
    schedule. Arrays of doubles: a worker hands them over as a few bytes objects."""

    indices: tuple
    keys: tuple
    columns: tuple  # array('d') per key
    variants: tuple


_NAN = float("nan")


def observe_games(games: list, parts: dict) -> list:
    """``Measured`` blocks of ``games`` (one ruleset's GameResults, in match order): one block
    per sequence of contracts played, the matches of a block worked out together, measure by
    measure over whole columns (``map``), with the same arithmetic in the same order as
    ``observe`` of each match (the same floats)."""
    groups: dict = {}
    for g in games:
        key = tuple(map(_CONTRACT, g.deals))
        got = groups.get(key)
        if got is None:
            got = groups[key] = []
        got.append(g)
    return [_block(group, played, parts) for played, group in groups.items()]


def observe(game: GameResult, parts: dict) -> dict:
    """Every measure of one match (``parts``: contract name -> 'negative' or 'positive')."""
    block = observe_games([game], parts)[0]
    return {key: col[0] for key, col in zip(block.keys, block.columns) if col[0] == col[0]}


def _block(games: list, played: tuple, parts: dict) -> Measured:
    indices = tuple(g.index for g in games)
    if not played:
        return Measured(indices, (), (), ((0, ()),))
    totals = list(zip(*map(_TOTALS, games)))  # per seat, its final total match by match
    places = list(zip(*map(_DEALS, games)))  # per deal of the schedule, its row match by match
    scores = [list(map(_SCORES, col)) for col in places]
    seat_points = [list(zip(*sc)) for sc in scores]  # per deal, per seat, match by match
    facts = list(map(_facts, scores))
    obs: dict = {}
    _contracts(obs, played, places, facts, _decisive(totals, seat_points), parts, seat_points)
    _finals(obs, totals, list(map(_FIRST_DEALER, games)))
    optional = _advantages(obs, places, scores, facts)
    _lead(obs, seat_points)
    keys = tuple(obs)
    return Measured(indices, keys, tuple(array("d", obs[k]) for k in keys), _variants(obs, optional))


def _facts(scores: list) -> tuple:
    """(points in all, mean, spread) of one deal, match by match, from its ``scores``: remembered
    per scores (deals repeat the same few), the new ones worked out together."""
    got: list = list(map(_DEAL.get, scores))  # facts per deal, None where not remembered yet
    if None in got:
        new = list(dict.fromkeys(sc for sc, f in zip(scores, got) if f is None))
        totals = list(map(sum, new))
        if len(_DEAL) > 100_000:
            _DEAL.clear()
        _DEAL.update(zip(new, zip(totals, map(truediv, totals, repeat(len(new[0]))), _spreads(list(zip(*new))))))
        got = list(map(_DEAL.__getitem__, scores))
    return list(map(_F0, got)), list(map(_MEAN, got)), list(map(_F2, got))


def _decisive(totals: list, seat_points: list) -> list:
    """Per deal, match by match: whether another seat would have won without it."""
    final = _leaders(totals)
    return [list(map(ne, _leaders([list(map(sub, t, p)) for t, p in zip(totals, per)]), final)) for per in seat_points]


def _contracts(
    obs: dict, played: tuple, places: list, facts: list, decisive: list, parts: dict, seat_points: list
) -> None:
    """Per contract the per-deal means over its deals in the match, per part its totals."""
    by_part: dict = {}
    for name, (kp, ks, kd, ke, kb), at in _plan(played):
        k = len(at)
        obs[kp] = _mean(at, [facts[i][0] for i in at])
        obs[ks] = _mean(at, [facts[i][2] for i in at])
        obs[kd] = _share(at, [decisive[i] for i in at], k)
        obs[ke] = _share(at, [list(map(_EARLY, places[i])) for i in at], k)
        obs[kb] = _share(at, [list(map(_BLOCKED, places[i])) for i in at], k)
        by_part.setdefault(parts.get(name, "positive"), []).extend(at)
    for part, at in by_part.items():
        per = [list(map(sum, zip(*cols))) for cols in zip(*[seat_points[i] for i in at])]  # per seat, the part's points
        kp, ks = _keys("part " + part)[:2]
        obs[kp] = list(map(sum, zip(*per)))
        obs[ks] = _spreads(per)


def _mean(at: tuple, columns: list) -> list:
    """The running ``0.0 + x + y ...`` over a contract's deals divided by their count; one
    deal: the value itself (ints and flags become the same floats in the block's arrays)."""
    if len(at) == 1:
        return columns[0]
    acc = list(map(add, repeat(0.0), columns[0]))
    for col in columns[1:]:
        acc = list(map(add, acc, col))
    return list(map(truediv, acc, repeat(len(at))))


def _share(at: tuple, columns: list, k: int) -> list:
    """The count of the flags (deal by deal, an int) over a contract's deals, divided by their
    number; one deal: its flags (``x / 1`` is the float the array makes of them)."""
    if k == 1:
        return columns[0]
    acc = columns[0]
    for col in columns[1:]:
        acc = list(map(add, acc, col))
    return list(map(truediv, acc, repeat(k)))


def _finals(obs: dict, totals: list, first_dealers: list) -> None:
    n = len(totals)
    rows = list(zip(*totals))
    mean = list(map(truediv, map(sum, rows), repeat(n)))
    obs["final:spread"] = _spreads(totals)
    if n > 1:
        ordered = list(map(sorted, rows))
        obs["final:margin"] = list(map(sub, map(_LAST, ordered), map(_SECOND, ordered)))
    else:
        obs["final:margin"] = [0.0] * len(rows)
    for s in range(n):
        obs[_SEAT_KEYS[s] if s < len(_SEAT_KEYS) else f"advantage:seat {s}"] = list(map(sub, totals[s], mean))
    obs["advantage:first dealer"] = list(map(sub, map(getitem, rows, first_dealers), mean))


_GAPS = (
    ("advantage:dealer", itemgetter(1)),
    ("advantage:trump caller", itemgetter(3)),
    ("advantage:first turn", itemgetter(2)),
    ("advantage:declarer", itemgetter(8)),
)


def _advantages(obs: dict, places: list, scores: list, facts: list) -> set:
    """The dealer's, trump caller's, first player's and declarer's advantage per deal that names one,
    averaged over the match; the keys some matches of the block leave out (returned)."""
    optional = set()
    for key, seat_of in _GAPS:
        seats = [list(map(seat_of, col)) for col in places]
        named = [(min(col) >= 0, max(col) >= 0) for col in seats]
        if all(lo == hi for lo, hi in named):  # every deal names a seat in all matches or in none
            at = [i for i, (lo, _) in enumerate(named) if lo]
            if at:
                gaps = [list(map(sub, map(getitem, scores[i], seats[i]), facts[i][1])) for i in at]
                obs[key] = list(map(truediv, map(sum, zip(*gaps)), repeat(len(at))))
            continue
        means = [fa[1] for fa in facts]
        got = [_gap(sc, st, list(me)) for sc, st, me in zip(zip(*scores), zip(*seats), zip(*means))]  # match by match
        obs[key] = [_NAN if x is None else x for x in got]
        if None in got:
            optional.add(key)
    return optional


def _lead(obs: dict, seat_points: list) -> None:
    running = [list(col) for col in seat_points[0]]
    seen = [_leaders(running)]  # the leaders after each deal, match by match
    for per in seat_points[1:]:
        running = [list(map(add, r, p)) for r, p in zip(running, per)]
        seen.append(_leaders(running))
    if len(seen) == 1:
        obs["lead:changes"], obs["lead:settled after deal"] = [0] * len(seen[0]), [1] * len(seen[0])
        return
    obs["lead:changes"] = list(map(sum, zip(*[map(ne, before, after) for before, after in zip(seen, seen[1:])])))
    last = seen[-1]
    # per match, from the deal before the last backwards, whether the final leaders led then
    # too, and a False at the end: the index of the first False is how many deals they held
    back = zip(*[map(eq, before, last) for before in reversed(seen[:-1])], repeat(False))
    obs["lead:settled after deal"] = list(map(sub, repeat(len(seen)), map(tuple.index, back, repeat(False))))


def _variants(obs: dict, optional: set) -> tuple:
    """The sets of measures a block's matches observed, in order of their first match (see
    ``Measured``); ``optional``: the keys some matches leave out (NaN)."""
    keys = tuple(obs)
    if not optional:
        return ((0, keys),)
    maybe = [k for k in keys if k in optional]
    firsts: dict = {}
    for pos, present in enumerate(zip(*[map(eq, obs[k], obs[k]) for k in maybe])):  # NaN != NaN
        firsts.setdefault(present, pos)
    return tuple(
        (pos, tuple(k for k in keys if k not in optional or present[maybe.index(k)])) for present, pos in firsts.items()
    )


def parts_of(rs) -> dict:
    """Contract name -> its part ('negative' or 'positive'), as ``kierki ladder`` splits a match."""
    return {name: part_of(rs, c) for name, c in rs.contracts.items()}


__all__ = ["SECTIONS", "SHARES", "Measured", "leaders", "observe", "observe_games", "parts_of"]
