"""Rule semantics computed from the ruleset itself: totals, dead rules, impossible settings."""
from __future__ import annotations

from typing import Optional

from ..cards import card_str, popcount
from ..diagnostics import Diagnostics


def contract_total(c, hand_size: int, players: int, deck: int) -> Optional[int]:
    """The sum of all seats' points in one deal of ``c``, if the rules fix it; else None."""
    if c is None:
        return None
    if c.type == "layout":
        return sum(c.prizes[:players])
    if any(s.kind == "seat" for s in c.scorers):
        return None
    trumps = c.call.choices if c.call is not None else (c.trump,)
    totals = set()
    for t in trumps:
        trick_points, card_tables, dynamic = c.tables(hand_size, t, players)
        if dynamic:
            return None
        total = sum(trick_points[1 : hand_size + 1])
        for mask, pts in card_tables:
            per_trick = set(pts[1 : hand_size + 1])
            if len(per_trick) != 1:
                return None  # the points depend on when the card is taken
            total += popcount(mask & deck) * per_trick.pop()
        totals.add(total)
    return totals.pop() if len(totals) == 1 else None


def range_total(schedule: list, computed: dict, players: int, first: int, last: int) -> Optional[int]:
    """The fixed sum of deals first..last (0-based, inclusive), if the rules fix it.

    A block of declarer's-choice deals in which every chooser names every contract once adds
    up to players × the sum of the options' totals, whatever the order.
    """
    total, i = 0, first
    while i <= last:
        c = schedule[i]
        if c is None:
            return None
        if c.type != "choice":
            t = computed.get(c.name)
            if t is None:
                return None
            total += t
            i += 1
            continue
        j = i
        while j < len(schedule) and schedule[j] is c:
            j += 1
        opts = [computed.get(o.name) for o in c.options]
        once = 1 if c.once_in_match else players  # how many times each option is played
        if j - 1 > last or not (c.once_each or c.once_in_match) or None in opts or (j - i) != once * len(opts):
            return None
        total += once * sum(opts)
        i = j
    return total


def check_ruleset(spec: dict, compiled: dict, schedule: list, bctx, hand_size: int, diags: Diagnostics) -> None:
    """Semantic checks that need the compiled contracts; findings go to ``diags``."""
    players, deck = bctx.players, bctx.deck
    contracts_spec = bctx.specs
    computed = {}
    for name, c in compiled.items():
        if c is None:
            continue
        w = ("contracts", name)
        total = contract_total(c, hand_size, players, deck)
        computed[name] = total
        declared = contracts_spec[name].get("total")
        if isinstance(declared, int) and total is not None and total != declared:
            bctx.error(w + ("total",), "M601",
                       f"contract {name!r} declares total {declared} but its scoring gives {total}",
                       "correct the points or the declared total")
        _check_contract(name, c, w, bctx, hand_size, players, deck)
    # the match total
    match = spec.get("match") if isinstance(spec.get("match"), dict) else {}
    declared = match.get("total")
    series = match.get("series", 1) if isinstance(match.get("series"), int) else 1
    if isinstance(declared, int) and schedule and all(c is not None for c in schedule):
        got = range_total(schedule, computed, players, 0, len(schedule) - 1)
        got = None if got is None else got * series
        if got is not None and got != declared:
            per = [computed.get(c.name) for c in schedule]
            bctx.error(("match", "total"), "M609",
                       f"the match declares total {declared} but its deals add up to {got}"
                       + (f" ({series} series)" if series > 1 else ""),
                       "per deal: " + ", ".join(f"{c.name} {t}" for c, t in zip(schedule, per)))
    # declared totals of parts
    for i, part in enumerate(match.get("parts") or []):
        if not isinstance(part, dict) or not all(isinstance(part.get(k), int) for k in ("first", "last")):
            continue
        pw = ("match", "parts", i)
        first, last = part["first"], part["last"]
        if not 1 <= first <= last <= len(schedule):
            bctx.error(pw, "S204", f"part {part.get('name')!r} covers deals {first}-{last} but the schedule has {len(schedule)}")
            continue
        got = range_total(schedule, computed, players, first - 1, last - 1)
        if isinstance(part.get("total"), int) and got is not None and got != part["total"]:
            bctx.error(pw + ("total",), "M611",
                       f"part {part.get('name')!r} declares total {part['total']} but its deals add up to {got}")
    # contracts never played
    scheduled = set()
    for entry in match.get("schedule") or []:
        scheduled.add(entry if isinstance(entry, str) else entry.get("contract") if isinstance(entry, dict) else None)
        if isinstance(entry, dict) and isinstance(entry.get("choose"), dict):
            scheduled.update(entry["choose"].get("from") or [])
    _check_choices(schedule * series, players, bctx)
    included = set()
    for name, s in contracts_spec.items():
        score = s.get("score") if isinstance(s, dict) else None
        for item in score if isinstance(score, list) else []:
            inc = item.get("include") if isinstance(item, dict) else None
            included.update([inc] if isinstance(inc, str) else (inc or []))
    for name in contracts_spec:
        if name not in scheduled and name not in included:
            bctx.warning(("contracts", name, "$key"), "M608", f"contract {name!r} is defined but never scheduled or included")


def _check_choices(schedule: list, players: int, bctx) -> None:
    seen = set()
    for c in schedule:
        if c is None or c.type != "choice" or id(c) in seen:
            continue
        seen.add(id(c))
        count = sum(1 for x in schedule if x is c)
        if c.once_in_match and count > len(c.options):
            bctx.error(("match", "schedule"), "M613",
                       f"{count} declarer's-choice deals but {len(c.options)} contracts, each once in the match")
        elif c.once_each and not c.once_in_match and count > players * len(c.options):
            bctx.error(("match", "schedule"), "M613",
                       f"{count} declarer's-choice deals but {players} choosers × {len(c.options)} contracts, each once, "
                       f"allow only {players * len(c.options)}")


def _check_contract(name, c, w, bctx, hand_size, players, deck) -> None:
    spec = bctx.specs.get(name) or {}
    may = c.doubling.may_double if getattr(c, "doubling", None) is not None else None
    if may is not None and may.is_const and not may.const:
        bctx.warning(w + ("doubling", "may_double"), "M616", "may_double is always false: nobody can ever double",
                     "remove doubling, or say who may double whom")
    if c.type == "layout":
        if c.free_passes and not c.must_play:
            bctx.warning(w + ("free_passes",), "M614", "free_passes has no effect: with must_play false a player "
                         "may pass at will anyway")
        if c.pass_fine and c.must_play and not c.free_passes:
            bctx.warning(w + ("pass_fine",), "M614", "pass_fine never applies: a player who can play must play",
                         "allow passing (must_play: false, or free_passes)")
        if spec.get("again_after") is not None and not c.again:
            bctx.warning(w + ("again_after",), "M615", "again_after matches no card of the deck: nobody ever "
                         "plays again")
        if len(c.prizes) > players:
            bctx.error(w + ("prizes",), "M607", f"{len(c.prizes)} prizes for {players} players")
        opening = deck if c.start_rank is None else sum(1 << (s * 13 + c.start_rank) for s in range(4))
        if not opening & deck:
            bctx.error(w + ("start_rank",), "M606", f"the opening rank {card_str(c.start_rank)[0]} is not in the deck")
        return
    if c.call is not None and c.call.after > hand_size:
        bctx.error(w + ("trump", "after"), "M605",
                   f"trumps are called after {c.call.after} cards but each player gets only {hand_size}")
    for s in c.scorers:
        if s.cards is not None and s.origin == name and s.cards.const is not None and not s.cards.const & deck:
            bctx.warning(s.where or w + ("score",), "M602", f"a per_card predicate of {name!r} matches no card in the deck (dead penalty)")
    for r in c.restrictions:
        if r.fallback:
            continue
        where = r.where or w
        m = r.cards.const
        if m is not None and ((r.require and not m & deck) or (not r.require and (m & deck) == deck)):
            what = "requires cards that do not exist" if r.require else "forbids every card"
            bctx.error(where, "M603", f"a restriction of {name!r} {what} with no fallback: no card could be played")
        elif m is None or (r.require and (m & deck) != deck) or (not r.require and m & deck):
            bctx.warning(where, "M603",
                         f"a restriction of {name!r} has no fallback: a player whose cards are all excluded would have no legal card",
                         "drop 'fallback: false' so the rule yields when nothing else is possible")
    if c.end_when is not None and c.end_when.is_const:
        bctx.warning(w + ("end_when",), "M604", f"end_when of {name!r} is always {str(c.end_when.const).lower()}")


__all__ = ["contract_total", "range_total", "check_ruleset"]
