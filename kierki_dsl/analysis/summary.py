"""Many matches summed up: per player and seat, per contract, every measure with its 95%
interval; and two rulesets played on the same deals compared measure by measure.

A difference between rulesets is estimated from the per-match differences of game i under
A and game i under B (the same deals, the same seats): a paired estimate, much tighter than
comparing two means, and "significant" when its interval excludes zero.
"""

from __future__ import annotations

from itertools import chain, repeat
from math import fsum
from operator import eq, itemgetter, sub, truediv

from ..stats import estimate, mean_sd, quantiles
from .measures import observe_games, parts_of
from .paired import flag, p_value, rank_agreement, rules_changed, titles, winner_changes

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


_CONTRACT = itemgetter(0)  # DealRow.contract
_SCORES = itemgetter(5)  # DealRow.scores
_DEALS, _TOTALS = itemgetter(2), itemgetter(3)  # GameResult's


def _alike(games: list) -> dict:
    """(contracts played in order, names per seat) -> the matches that played them, in game
    order: in a fixed schedule a few rotations of the players, so that their totals, and the
    deals at one place of those matches, can be read as columns."""
    alike: dict = {}
    for g in games:
        key = (tuple(map(_CONTRACT, g.deals)), g.names)
        got = alike.get(key)
        if got is None:
            got = alike[key] = []
        got.append(g)
    return alike


def _order(alike: dict) -> list:
    """Contract names in the order the matches first play them."""
    return list(dict.fromkeys(name for played, _ in alike for name in played))


_DYADIC = frozenset({1, 2, 4, 8, 16})  # numbers of winners whose shares 1/k add up exactly in any order


def _players(games: list, alike: dict, n: int) -> dict:
    """Per player the mean points per match with the interval, the win rate (a win shared by
    k seats counts 1/k) and the seats played, read as columns of alike matches."""
    by_player: dict = {}
    shares: dict = {}
    exact = True
    for (_, names), group in alike.items():
        totals = list(zip(*map(_TOTALS, group)))  # per seat, match by match
        best = list(map(max, *totals)) if n > 1 else list(totals[0])
        won = [list(map(eq, col, best)) for col in totals]
        count = list(map(sum, zip(*won)))
        exact = exact and _DYADIC.issuperset(count)
        for p, col, w in zip(names, totals, won):
            by_player.setdefault(p, []).extend(col)
            shares.setdefault(p, []).extend(map(truediv, w, count))
    wins = {p: fsum(x) for p, x in shares.items()} if exact else _wins(games, n)
    out = {}
    for p, v in sorted(by_player.items()):
        e = estimate(v)
        out[p] = {"mean": e.mean, "ci95": e.half_width, "win_rate": wins.get(p, 0.0) / len(v), "seats": len(v)}
    return out


def _wins(games: list, n: int) -> dict:
    """Per player the wins added up match by match in game order (the shares of a win shared
    by three seats do not add up exactly, so the order counts)."""
    wins: dict = {}
    for g in games:
        best = max(g.totals)
        winners = [s for s in range(n) if g.totals[s] == best]
        for s in range(n):
            p = g.names[s]
            wins[p] = wins.get(p, 0.0) + (1.0 / len(winners) if s in winners else 0.0)
    return wins


def _contracts_by_player(alike: dict) -> dict:
    """Per contract and player the mean and spread of a deal's points, read as columns: the
    deals at one place of alike matches (``_alike``), each seat's points."""
    contracts: dict = {name: {} for name in _order(alike)}
    for (played, names), group in alike.items():
        for contract, rows in zip(played, zip(*map(_DEALS, group))):
            per = contracts[contract]
            for p, column in zip(names, zip(*map(_SCORES, rows))):
                got = per.get(p)
                if got is None:
                    per[p] = list(column)
                else:
                    got.extend(column)
    return {c: {p: mean_sd(v) for p, v in sorted(per.items())} for c, per in contracts.items()}


def _mismatches(rs, games: list, alike: dict) -> list:
    """The deals whose points do not add up to their contract's declared total (checked as
    columns first: a simulation has none unless a rule is wrong)."""
    declared = {name: c.total for name, c in rs.contracts.items()}
    if _sums_hold(declared, alike):
        return []
    out = []
    for g in games:
        for k, row in enumerate(g.deals):
            if declared.get(row.contract) is not None and sum(row.scores) != declared[row.contract]:
                out.append({"game": g.index, "deal": k + 1, "contract": row.contract, "sum": sum(row.scores)})
    return out


def _sums_hold(declared: dict, alike: dict) -> bool:
    for (played, _), group in alike.items():
        for contract, rows in zip(played, zip(*map(_DEALS, group))):
            want = declared.get(contract)
            if want is not None and not all(map(eq, repeat(want), map(sum, map(_SCORES, rows)))):
                return False
    return True


def measure_estimates(blocks: list) -> dict:
    """Measure name -> Estimate over the matches that observed it, from ``measures.Measured``
    blocks (names in the order the matches, in game order, first observe them)."""
    firsts = sorted((b.indices[pos], keys) for b in blocks for pos, keys in b.variants)
    order = dict.fromkeys(k for _, keys in firsts for k in keys)
    columns: dict = {k: [] for k in order}
    for b in blocks:
        gaps = len(b.variants) > 1  # some matches left a measure out (NaN)
        for key, col in zip(b.keys, b.columns):
            columns[key].extend(filter(_present, col) if gaps else col)
    return {key: estimate(xs) for key, xs in columns.items() if xs}


def _present(x: float) -> bool:
    return x == x  # not NaN


def _by_match(blocks: list) -> dict:
    """Measure name -> {match index: value} over ``measures.Measured`` blocks (NaN left in)."""
    out: dict = {}
    for b in blocks:
        for key, col in zip(b.keys, b.columns):
            got = out.get(key)
            if got is None:
                got = out[key] = {}
            got.update(zip(b.indices, col))
    return out


def summarize(rs, names: list, games: list, measured=None) -> dict:
    """Per player and per seat: mean points with a 95% interval, win rates, per-contract mean
    and spread by player; every measure (``measures.py``) with its interval; the quantiles of
    the final scores; and the check of every deal's sum against the declared totals.
    ``measured``: the games' measure blocks, when the workers made them."""
    n = rs.players
    if measured is None:
        measured = observe_games(games, parts_of(rs))
    alike = _alike(games)
    mismatches = _mismatches(rs, games, alike)
    by_seat = dict(enumerate(map(estimate, map(list, zip(*map(_TOTALS, games))) if games else [[]] * n)))
    finals = list(chain.from_iterable(map(_TOTALS, games)))
    return {
        "ruleset": rs.name,
        "path": rs.path,
        "games": len(games),
        "names": list(names),
        "players": _players(games, alike, n),
        "seats": {str(s): {"mean": e.mean, "ci95": e.half_width} for s, e in by_seat.items()},
        "contracts": _contracts_by_player(alike),
        "measures": {k: e.to_json() for k, e in measure_estimates(measured).items()},
        "final_quantiles": dict(zip(_quantile_names(), quantiles(finals, QUANTILES))),
        "declared_totals_hold": not mismatches,
        "mismatches": mismatches[:20],
    }


def _quantile_names() -> list:
    return [f"{round(q * 100)}%" for q in QUANTILES]


def compare(rs_a, rs_b, names: list, pairs: list, measured=None) -> dict:
    """Both rulesets summed up; every measure's difference B − A over the same deals, its
    p-value and whether it stands out from noise with every measure compared (``flagged``);
    how often the winner changes and how the seats' orders agree (``paired``); the contracts'
    titles and which contracts' rules changed (``measured``: per ruleset the games' measure
    blocks, when the workers made them)."""
    games_a = [a for a, _ in pairs]
    games_b = [b for _, b in pairs]
    if measured is None:
        measured = (observe_games(games_a, parts_of(rs_a)), observe_games(games_b, parts_of(rs_b)))
    a = summarize(rs_a, names, games_a, measured[0])
    b = summarize(rs_b, names, games_b, measured[1])
    by_a, by_b = _by_match(measured[0]), _by_match(measured[1])
    keys = list(dict.fromkeys(list(a["measures"]) + list(b["measures"])))
    difference = {}
    for key in keys:
        xa, xb = by_a.get(key), by_b.get(key)
        if xa is None or xb is None:
            continue
        both = xa.keys() & xb.keys()
        diffs = list(filter(_present, map(sub, map(xb.__getitem__, both), map(xa.__getitem__, both))))
        if diffs:
            e = estimate(diffs)
            difference[key] = dict(e.to_json(), significant=e.significant, p=p_value(key, diffs, e))
    flag(difference)
    return {
        "a": a,
        "b": b,
        "games": len(pairs),
        "names": list(names),
        "same_deals": _same_deals(rs_a, rs_b, pairs),
        "difference": difference,
        "winner_changes": winner_changes(pairs),
        "rank_agreement": rank_agreement(pairs),
        "titles": titles(rs_a, rs_b),
        "rules_changed": rules_changed(rs_a, rs_b),
    }


def _same_deals(rs_a, rs_b, pairs: list) -> bool:
    """Whether game i got the same cards under both rulesets: the same deck, the first dealer
    drawn (or fixed) alike, the same first dealer and seats in every pair of matches."""
    if rs_a.deck != rs_b.deck or (rs_a.first_dealer is None) != (rs_b.first_dealer is None):
        return False
    return all(ga.first_dealer == gb.first_dealer and ga.names == gb.names for ga, gb in pairs)


__all__ = ["compare", "measure_estimates", "summarize"]
