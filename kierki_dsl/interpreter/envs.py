"""One constructor per expression scope: the only places evaluation environments are built.

Every kind of ruleset expression declares the names it may read (``scopes.py``); the function
here that builds its environment takes exactly those values and nothing else, so what lint
type-checked is what run time provides. ``ENVIRONMENTS`` pairs each scope with its constructor;
a test builds every environment and compares its keys with the scope's declaration.

Hidden inputs of built-in functions (``$holders``, ``$hands``, ...) are keys without the ``$``.

Where an expression is evaluated many times in a deal, the environment is not rebuilt each
time: seat scoring passes its constructor's arguments to the expression as positional
arguments (``add_seat_end_points``, ``Compiled.positional``: no dict at all), and a deal's
trick environment has only its trick's names replaced (``next_trick_env``).
"""

from __future__ import annotations

from typing import Optional

from . import scopes
from .matchvalues import NAMES, MatchValues

NOBODY = -1  # holder() of a card nobody holds


def seat_env(dealer: int, players: int, caller: int, hands, deck: int, bidder: int = NOBODY, bid: int = 0) -> dict:
    """A seat expression (first lead, first turn, trump caller, chooser): ``hands`` are masks
    (``holder()`` reads them as ``holders``: a card in none is held by ``NOBODY``);
    ``bidder`` and ``bid`` are the auction's outcome, when the deal has one."""
    return {
        "dealer": dealer,
        "players": players,
        "caller": caller,
        "holders": hands,
        "hands": hands,
        "deck": deck,
        "bidder": bidder,
        "bid": bid,
    }


def play_env(
    led_suit: int,
    trump: int,
    winning: int,
    number: int,
    tricks: int,
    hearts_broken: bool,
    hand: int,
    deck: int,
    played: int = 0,
) -> dict:
    """A play restriction or its condition, for the seat on turn holding ``hand``; ``played``
    is the mask of the cards of the finished tricks."""
    return {
        "led_suit": led_suit,
        "trump": trump,
        "winning": winning,
        "trick.number": number,
        "trick.is_first": number == 1,
        "trick.is_last": number == tricks,
        "hearts_broken": hearts_broken,
        "hand": hand,
        "deck": deck,
        "played": played,
    }


def trick_env(
    number: int,
    tricks: int,
    leader: int,
    winner: int,
    cards: int,
    players: int,
    trump: int,
    dealer: int,
    caller: int,
    deck: int,
    bidder: int = NOBODY,
    bid: int = 0,
) -> dict:
    """Trick scoring (``per_trick``, ``points``, ``when``) of a finished trick of ``cards``."""
    env = {
        "tricks": tricks,
        "players": players,
        "trump": trump,
        "dealer": dealer,
        "caller": caller,
        "deck": deck,
        "bidder": bidder,
        "bid": bid,
    }
    return next_trick_env(env, number, tricks, leader, winner, cards)


def next_trick_env(env: dict, number: int, tricks: int, leader: int, winner: int, cards: int) -> dict:
    """``env``, a ``trick_env`` of this deal, made the environment of another trick: its
    trick's names replaced in place (the others are the same all deal, so a deal builds one
    dict, not one per trick; an expression never keeps its environment)."""
    env["trick.number"] = number
    env["trick.is_first"] = number == 1
    env["trick.is_last"] = number == tricks
    env["trick.leader"] = leader
    env["trick.winner"] = winner
    env["trick.cards"] = cards
    return env


def card_scoring_env(number: int, tricks: int, trump: int, deck: int) -> dict:
    """A scored-card predicate (``per_card``) in trick ``number``."""
    return {
        "trump": trump,
        "trick.number": number,
        "trick.is_first": number == 1,
        "trick.is_last": number == tricks,
        "tricks": tricks,
        "deck": deck,
    }


def seat_end_env(
    seat: int,
    dealer: int,
    players: int,
    caller: int,
    trump: int,
    tricks_taken: int,
    tricks: int,
    taken: int,
    taken_all,
    deck: int,
    bidder: int = NOBODY,
    bid: int = 0,
    declared: int = 0,
    match_total: int = 0,
    match_highest_total: int = 0,
    match_lowest_total: int = 0,
    match_deals_played: int = 0,
) -> dict:
    """Seat scoring (``per_seat``) when the deal ends; ``declared``: the seat's declaration points;
    ``match_*``: the match-scope values before this deal (``matchvalues``)."""
    return {
        "seat": seat,
        "dealer": dealer,
        "players": players,
        "caller": caller,
        "trump": trump,
        "tricks_taken": tricks_taken,
        "tricks": tricks,
        "taken": taken,
        "taken_all": taken_all,
        "deck": deck,
        "bidder": bidder,
        "bid": bid,
        "declared": declared,
        "match.total": match_total,
        "match.highest_total": match_highest_total,
        "match.lowest_total": match_lowest_total,
        "match.deals_played": match_deals_played,
    }


def declare_env(
    lead: int,
    seat: int,
    hand: int,
    trump: int,
    number: int,
    tricks: int,
    dealer: int,
    players: int,
    deck: int,
    bidder: int = NOBODY,
    bid: int = 0,
    declared: int = 0,
) -> dict:
    """A declaration's rule (``declarations``): ``seat`` leads ``lead`` from ``hand`` (its hand
    before leading, which ``held`` reads)."""
    return {
        "lead": lead,
        "seat": seat,
        "hand": hand,
        "trump": trump,
        "trick.number": number,
        "trick.is_first": number == 1,
        "trick.is_last": number == tricks,
        "dealer": dealer,
        "players": players,
        "deck": deck,
        "bidder": bidder,
        "bid": bid,
        "declared": declared,
    }


#: The keys of seat scoring's environment, in the order of ``seat_end_env``'s parameters (each
#: parameter is the key it sets, a dot written ``_``): the positional arguments of its
#: expressions on the hot path.
SEAT_END_ARGS = (
    "seat",
    "dealer",
    "players",
    "caller",
    "trump",
    "tricks_taken",
    "tricks",
    "taken",
    "taken_all",
    "deck",
    "bidder",
    "bid",
    "declared",
) + NAMES


def add_seat_end_points(
    scores: list,
    exprs,
    dealer: int,
    players: int,
    caller: int,
    trump: int,
    tricks_won,
    tricks: int,
    taken_all,
    deck: int,
    bidder: int = NOBODY,
    bid: int = 0,
    declared=None,
    match: Optional[MatchValues] = None,
) -> None:
    """Add to each seat's score the value of every seat scoring expression (``Compiled``) in
    that seat's ``seat_end_env``, passed as the constructor's arguments (no dict per seat);
    ``declared``: per seat, the points of its declarations (None: none made); ``match``: the
    match-scope values before this deal (None: the start of a match)."""
    calls = [e.positional(SEAT_END_ARGS) for e in exprs]
    if match is None:
        match = MatchValues((0,) * players)
    for seat in range(players):
        points = declared[seat] if declared else 0
        won, taken = tricks_won[seat], taken_all[seat]
        values = match.of_seat(seat)
        for call in calls:
            scores[seat] += call(
                seat, dealer, players, caller, trump, won, tricks, taken, taken_all, deck, bidder, bid, points, *values
            )


def end_when_env(tricks_played: int, tricks: int, points_left: bool, deck: int, players_holding: int = 0) -> dict:
    """A deal's end condition (``end_when``), checked after every trick."""
    return {
        "tricks_played": tricks_played,
        "tricks": tricks,
        "points_left": points_left,
        "deck": deck,
        "players_holding": players_holding,
    }


def bid_env(value: int, seat: int, dealer: int, players: int, hand: int, deck: int) -> dict:
    """An auction's bid rule (``allow``): may ``seat``, holding ``hand``, bid ``value``?"""
    return {"value": value, "seat": seat, "dealer": dealer, "players": players, "hand": hand, "deck": deck}


def match_end_env(totals, deals_played: int, players: int) -> dict:
    """A match's end condition (``match.until``), from the running totals."""
    return {"lowest_total": min(totals), "highest_total": max(totals), "deals_played": deals_played, "players": players}


def double_env(doubler: int, target: int, dealer: int, players: int) -> dict:
    """A doubling rule (``may_double``)."""
    return {"doubler": doubler, "target": target, "dealer": dealer, "players": players}


#: (scope, the constructor of its environments), for every scope of ruleset expressions.
ENVIRONMENTS = (
    (scopes.SEAT_EXPR, seat_env),
    (scopes.PLAY_WHEN, play_env),
    (scopes.PLAY_PREDICATE, play_env),
    (scopes.TRICK_POINTS, trick_env),
    (scopes.CARD_SCORING, card_scoring_env),
    (scopes.SEAT_END, seat_end_env),
    (scopes.END_WHEN, end_when_env),
    (scopes.MATCH_END, match_end_env),
    (scopes.DOUBLE_EXPR, double_env),
    (scopes.DECLARE, declare_env),
    (scopes.AUCTION_BID, bid_env),
)


def declared_keys(scope) -> set:
    """The environment keys a scope declares: namespaces flattened (``trick.number``), ``$`` dropped."""
    out = set()
    for name, var in scope.vars.items():
        if isinstance(var, dict):
            out |= {f"{name}.{attr}" for attr in var}
        else:
            out.add(name)
    return {k.lstrip("$") for k in out}


_DEAL_CONSTANT_KEYS = frozenset({"dealer", "players", "caller", "deck"})


#: The keys of a seat expression's environment as positional arguments: ``seat_env``'s, the
#: hands twice (``holder()`` reads them as ``holders``).
SEAT_ARGS = ("dealer", "players", "caller", "holders", "hands", "deck", "bidder", "bid")


def seat_function(expr, players: int, deck: int):
    """``seat(dealer, caller, hands)``: the seat a seat expression names (first lead, first
    turn, trump caller) for a whole-deal fast path; remembered per (dealer, caller) when the
    expression reads nothing else (e.g. "left of the dealer"), worked out each time otherwise
    (from positional arguments: no environment dict per deal)."""
    if expr.free - _DEAL_CONSTANT_KEYS:
        fn, as_seat = expr.positional(SEAT_ARGS), expr.as_seat
        return lambda dealer, caller, hands: as_seat(
            fn(dealer, players, caller, hands, hands, deck, NOBODY, 0), players
        )
    known: dict = {}

    def seat(dealer: int, caller: int, hands) -> int:
        got = known.get((dealer, caller))
        if got is None:
            got = known[(dealer, caller)] = expr.seat(seat_env(dealer, players, caller, hands, deck), players)
        return got

    return seat
