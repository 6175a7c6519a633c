"""What one seat may see of a deal: the observation handed to players, clients and browsers.

Modelled on OpenSpiel's observer: a ``SeatView`` is *copied out* of the deal state and never
points back into it. It holds only ints, strings, ``None`` and tuples of them — no state, no
compiled rule, no callable and no card of another seat's hand — so it can be handed to a bot,
written to a socket or sent to a browser as it is. ``to_json`` gives the plain document a
network client receives; ``SeatView.from_json`` reads it back to an equal value.

Players that need the rules look the contract up by name in the ruleset they were given
(``Player.contract_of``); the reason an action is illegal comes from ``reasons.illegal_reason``,
a function of the view and the rules.
"""

from __future__ import annotations

from typing import Any, Optional

import attrs

from ..cards import CardSet
from ..values import frozen

VIEW_FORMAT = "kierki-view/1"


@frozen
class SeatView:
    """A seat's view of the deal: its own hand, public plays and scores; never other hands.

    ``contract`` is the name of the contract being played (in a declarer's-choice phase, the
    name of the schedule slot, and ``options`` the names of the contracts on offer, action
    ``CHOOSE_BASE + i`` naming ``options[i]``). ``hand`` is a 52-bit mask (during a trump
    call, only the cards the caller has seen); ``legal`` the legal actions when it is this
    seat's turn. ``trick`` holds ``(seat, card)`` of the trick in progress, ``completed``
    every finished trick as ``(leader, plays, winner)``. In a layout deal ``layout`` is a
    tuple of rows, one per suit: ``None`` (not open) or ``(low, high)`` card ids at the ends,
    and ``opening_rank`` the rank that opens every row (-1 before the first card of a free
    start, and in trick deals).
    """

    seat: int
    contract: str
    phase: str
    hand: int
    legal: tuple
    trick: tuple
    led_suit: int
    trump: int
    caller: int
    dealer: int
    trick_number: int
    tricks_total: int
    played: int
    scores: tuple
    completed: tuple
    players: int
    layout: Optional[tuple]
    hand_sizes: tuple = ()
    finished: tuple = ()
    deck: int = 0
    direction: int = 1
    deal_number: int = 0
    opening_rank: int = -1
    bets: tuple = ()  # (doubler, target, 2 if redoubled else 1) of every bet made so far
    pool: int = 0  # layout deals: points paid for passes, not yet taken
    free_passes_left: tuple = ()  # layout deals: per seat, the passes it may still make when able to play
    ply: int = 0  # actions taken in this deal so far (with deal_number, names the decision)
    options: tuple = ()  # declarer's choice: the names of the contracts on offer
    passed: tuple = ()  # the cards this seat passed (once every seat has passed), and
    passed_to: int = -1  # the seat that got them (-1 when no cards were passed)
    received: tuple = ()  # the cards this seat got in the exchange
    auction: tuple = ()  # (seat, value) of every bid so far, value 0 for a pass
    bid: int = 0  # the bid standing (the winning bid once the auction is over)
    bidder: int = -1  # the seat that made it (-1: none yet)
    seller: int = -1  # an auction's seller, who accepts or refuses the best bid (-1: none)
    widow: tuple = ()  # a widow's cards once shown (or lying face up): public
    taker: int = -1  # the seat that took the widow (-1: not yet, or none)
    exchanged: tuple = ()  # (card, seat it went to or -1) of the taker's cards this seat may know
    aside: int = 0  # cards out of play this seat cannot see (a face-down widow, another's discards)
    exposed: tuple = ()  # (seat, card) of every card shown before play (exposure doubling): public
    stock: int = 0  # with a stock to draw from: how many cards it holds (never which)
    drawn: tuple = ()  # with a stock: per seat, how many cards it has drawn in this deal
    drew: tuple = ()  # with a stock: the cards this seat drew, in order
    moves: tuple = ()  # layout deals: (seat, card or PASS) of every play and pass so far: public
    declarations: tuple = ()  # (seat, name, points, suit or -1) of every declaration made so far: public
    parts: tuple = ()  # (phase name, part) of each phase added by a module: what its unit shows this seat

    @property
    def hand_cards(self) -> CardSet:
        """The seat's own cards as a set (``for c in view.hand_cards``, ``"QS" in ...`` via ids)."""
        return CardSet(self.hand)

    @property
    def played_cards(self) -> CardSet:
        """The cards of the finished tricks (or laid out, in a layout deal)."""
        return CardSet(self.played)

    def to_json(self) -> dict:
        """The view as a JSON-ready document (tuples become lists)."""
        doc: dict[str, Any] = {"format": VIEW_FORMAT}
        for f in attrs.fields(SeatView):
            doc[f.name] = _plain(getattr(self, f.name))
        if not self.parts:  # no phase added by a module: the document as before they could be
            del doc["parts"]
        return doc

    @classmethod
    def from_json(cls, doc: dict) -> "SeatView":
        """Read back what ``to_json`` wrote (lists become tuples again)."""
        if not isinstance(doc, dict) or doc.get("format") != VIEW_FORMAT:
            raise ValueError(f"not a {VIEW_FORMAT} document")
        names = {f.name for f in attrs.fields(SeatView)}
        unknown = set(doc) - names - {"format"}
        if unknown:
            raise ValueError(f"unknown view fields: {', '.join(sorted(unknown))}")
        return cls(**{k: _frozen(v) for k, v in doc.items() if k in names})


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value
