"""What names each kind of ruleset expression may read (one scope per context).

Names starting with ``$`` are hidden inputs of built-in functions (``holder``, ``taken``,
``in_trick``, ``held``); the grammar cannot spell them, so users reach them only through
those functions. ``trump`` is -1 and ``caller`` is -1 in a deal without trumps or caller.
"""

from __future__ import annotations

from ..expr.types import ANY, BOOL, CARD, INT, SEAT, SUIT, Scope, Var, register_scope
from ..i18n import L_

_COMMON = {
    "dealer": Var(SEAT, "dealer", "the dealer's seat"),
    "players": Var(INT, "players", "the number of players"),
    "$deck": Var(ANY, "deck"),
}

#: The outcome of a deal's auction (``auction``): -1 and 0 before it ends, or without one.
_AUCTION = {
    "bidder": Var(SEAT, "bidder", "the seat that won the auction (-1 if none)"),
    "bid": Var(INT, "bid", "the winning bid (0 if none)"),
}

SEAT_EXPR = Scope(
    L_("a seat expression"),
    {
        **_COMMON,
        "caller": Var(SEAT, "caller", "the seat that called trumps (-1 if none)"),
        **_AUCTION,
        "$holders": Var(ANY, "holders"),
        "$hands": Var(ANY, "hands"),
    },
)

_TRICK = {
    "number": Var(INT, "trick.number", "1 for the first trick of the deal"),
    "is_first": Var(BOOL, "trick.is_first", "true for the first trick"),
    "is_last": Var(BOOL, "trick.is_last", "true for the last trick of the deal"),
    "leader": Var(SEAT, "trick.leader", "the seat that led"),
    "winner": Var(SEAT, "trick.winner", "the seat that won the trick"),
}

TRICK_POINTS = Scope(
    L_("trick scoring"),
    {
        **_COMMON,
        "trick": _TRICK,
        "tricks": Var(INT, "tricks", "the number of tricks in a full deal"),
        "trump": Var(SUIT, "trump", "the trump suit (matches no card when there is none)"),
        "caller": Var(SEAT, "caller", "the seat that called trumps (-1 if none)"),
        **_AUCTION,
        "$trick.cards": Var(ANY, "trick.cards"),
    },
)

CARD_SCORING = Scope(
    L_("a scored-card predicate"),
    {
        "trump": Var(SUIT, "trump", "the trump suit"),
        "trick": {"number": _TRICK["number"], "is_last": _TRICK["is_last"], "is_first": _TRICK["is_first"]},
        "tricks": Var(INT, "tricks", "the number of tricks in a full deal"),
        "$deck": Var(ANY, "deck"),
    },
)

_PLAY = {
    "led_suit": Var(SUIT, "led_suit", "the suit led to this trick (-1 when leading)"),
    "trump": Var(SUIT, "trump", "the trump suit (-1 when there is none)"),
    "winning": Var(CARD, "winning", "the card winning the trick so far (-1 when leading)"),
    "trick": {"number": _TRICK["number"], "is_first": _TRICK["is_first"], "is_last": _TRICK["is_last"]},
    "hearts_broken": Var(BOOL, "hearts_broken", "a heart has been played in an earlier trick"),
    "$played": Var(ANY, "played"),
    "$hand": Var(ANY, "hand"),
    "$deck": Var(ANY, "deck"),
}

PLAY_WHEN = Scope(L_("a play-restriction condition"), dict(_PLAY))
PLAY_PREDICATE = Scope(L_("a play restriction"), dict(_PLAY))

SEAT_END = Scope(
    L_("seat scoring"),
    {
        **_COMMON,
        "seat": Var(SEAT, "seat", "the seat being scored"),
        "caller": Var(SEAT, "caller", "the seat that called trumps (-1 if none)"),
        "trump": Var(SUIT, "trump", "the trump suit"),
        "tricks_taken": Var(INT, "tricks_taken", "tricks this seat won"),
        **_AUCTION,
        "tricks": Var(INT, "tricks", "the number of tricks in a full deal"),
        "declared": Var(INT, "declared", "points this seat's declarations credited it in this deal (0 without)"),
        "match": {
            "total": Var(INT, "match.total", "this seat's running total before this deal"),
            "highest_total": Var(INT, "match.highest_total", "the highest running total before this deal"),
            "lowest_total": Var(INT, "match.lowest_total", "the lowest running total before this deal"),
            "deals_played": Var(INT, "match.deals_played", "deals finished before this one"),
        },
        "$taken": Var(ANY, "taken"),
        "$taken_all": Var(ANY, "taken_all"),
    },
)

MATCH_END = Scope(
    L_("a match end condition"),
    {
        "lowest_total": Var(INT, "lowest_total", "the lowest running total"),
        "highest_total": Var(INT, "highest_total", "the highest running total"),
        "deals_played": Var(INT, "deals_played", "deals finished so far"),
        "players": Var(INT, "players", "the number of players"),
    },
)

END_WHEN = Scope(
    L_("an end condition"),
    {
        "tricks_played": Var(INT, "tricks_played", "tricks completed so far"),
        "tricks": Var(INT, "tricks", "the number of tricks in a full deal"),
        "points_left": Var(BOOL, "points_left", "some card or trick still to be played can score"),
        "players_holding": Var(
            INT,
            "players_holding",
            "how many players still hold cards (with a stock, players drop out as their hands empty)",
        ),
        "$deck": Var(ANY, "deck"),
    },
)

DECLARE = Scope(
    L_("a declaration"),
    {
        **_COMMON,
        "lead": Var(CARD, "lead", "the card being led"),
        "seat": Var(SEAT, "seat", "the seat leading it"),
        "trump": Var(SUIT, "trump", "the trump suit until now (-1 when there is none)"),
        "trick": {"number": _TRICK["number"], "is_first": _TRICK["is_first"], "is_last": _TRICK["is_last"]},
        **_AUCTION,
        "declared": Var(INT, "declared", "points the leader's declarations credited it so far in this deal"),
        "$hand": Var(ANY, "hand"),
    },
)

DOUBLE_EXPR = Scope(
    L_("a doubling rule"),
    {
        "dealer": _COMMON["dealer"],
        "players": _COMMON["players"],
        "doubler": Var(SEAT, "doubler", "the seat that would double"),
        "target": Var(SEAT, "target", "the seat it would double"),
    },
)

AUCTION_BID = Scope(
    L_("an auction's bid rule"),
    {
        "dealer": _COMMON["dealer"],
        "players": _COMMON["players"],
        "value": Var(INT, "value", "the bid being considered"),
        "seat": Var(SEAT, "seat", "the seat that would bid"),
        "$hand": Var(ANY, "hand"),
        "$deck": Var(ANY, "deck"),
    },
)


for _scope in (
    SEAT_EXPR,
    TRICK_POINTS,
    CARD_SCORING,
    PLAY_PREDICATE,
    SEAT_END,
    END_WHEN,
    MATCH_END,
    DOUBLE_EXPR,
    AUCTION_BID,
    DECLARE,
):
    register_scope(_scope)
register_scope(Scope(L_("card predicates (per_card, lead_ban, forbid, require)"), {"card": Var(CARD, "card")}))
