"""What lint works out about a trick contract from its compiled rules: the fixed total of a
deal (M601) and rules that can never work (M602–M605)."""

from __future__ import annotations

from typing import Optional

from ..cards import popcount
from ..expr import RuleRuntimeError
from ..i18n import L_
from .scorebound import check_contract


def _check_static_scoring(c, name: str, bctx, hand_size: int, players: int) -> None:
    """M623: scoring that depends only on the trick number, yet fails for some trick."""
    from .tricks import is_static, static_points

    trumps = c.call.choices if c.call is not None else (c.trump,)
    for s in c.scorers:
        if s.kind == "seat" or s.origin != name or not is_static(s):
            continue
        for t in trumps:
            try:
                static_points(s, hand_size, t, players)
            except RuleRuntimeError as e:
                bctx.error(
                    s.where,
                    "M623",
                    L_(
                        "a score component of {name!r} cannot be worked out for every trick: {message}",
                        name=name,
                        message=e.diagnostic.message,
                    ),
                    L_("guard the division (max(1, ...)) or change the expression"),
                )
                break


def fixed_total(c, hand_size: int, players: int, deck: int) -> Optional[int]:
    """The sum of all seats' points in one deal of ``c``, if the rules fix it; else None."""
    if any(s.kind == "seat" for s in c.scorers):
        return None
    if c.widow is not None:
        hand_size = c.widow.tricks(hand_size, players)
    added = 0
    for unit, rule in c.added:  # a phase added by a module: fewer tricks, and its own points
        hand_size -= unit.cards_laid(rule)
        change = unit.total_change(c, rule, players)
        if change is None:
            return None
        added += change
    if c.stock is not None:  # the number of tricks varies; the cards all count if the last player takes the rest
        if c.stock.leftover != "last_in":
            return None
        hand_size = c.stock.most_tricks(deck)
    trumps = c.call.choices if c.call is not None else (c.trump,)
    totals = set()
    for t in trumps:
        trick_points, card_tables, dynamic = c.tables(hand_size, t, players)
        if dynamic or (c.stock is not None and any(trick_points)):
            return None
        total = sum(trick_points[1 : hand_size + 1])
        for mask, pts in card_tables:
            per_trick = set(pts[1 : hand_size + 1])
            if len(per_trick) != 1:
                return None  # the points depend on when the card is taken
            total += popcount(mask & deck) * per_trick.pop()
        totals.add(total + added)
    return totals.pop() if len(totals) == 1 else None


def check(c, name: str, w: tuple, bctx, hand_size: int, deck: int, players: int = 4) -> None:
    """Findings about a trick contract's own rules, reported through ``bctx``."""
    _check_static_scoring(c, name, bctx, hand_size, players)
    check_contract(c, name, bctx, deck, players)
    if c.call is not None and c.call.after > hand_size:
        bctx.error(
            w + ("trump", "after"),
            "M605",
            L_(
                "trumps are called after {after} cards but each player gets only {hand_size}",
                after=c.call.after,
                hand_size=hand_size,
            ),
        )
    for s in c.scorers:
        if s.cards is not None and s.origin == name and s.cards.const is not None and not s.cards.const & deck:
            bctx.warning(
                s.where or w + ("score",),
                "M602",
                L_("a per_card predicate of {name!r} matches no card in the deck (dead penalty)", name=name),
            )
    for r in c.restrictions:
        if r.fallback:
            continue
        where = r.where or w
        m = r.cards.const
        if m is not None and ((r.require and not m & deck) or (not r.require and (m & deck) == deck)):
            what = L_("requires cards that do not exist") if r.require else L_("forbids every card")
            bctx.error(
                where,
                "M603",
                L_("a restriction of {name!r} {what} with no fallback: no card could be played", name=name, what=what),
            )
        elif m is None or (r.require and (m & deck) != deck) or (not r.require and m & deck):
            bctx.warning(
                where,
                "M603",
                L_(
                    "a restriction of {name!r} has no fallback: a player whose cards are all excluded would have no legal card",
                    name=name,
                ),
                L_("drop 'fallback: false' so the rule yields when nothing else is possible"),
            )
    if c.end_when is not None and c.end_when.is_const:
        bctx.warning(
            w + ("end_when",),
            "M604",
            L_("end_when of {name!r} is always {lower}", name=name, lower=str(c.end_when.const).lower()),
        )
