"""What one seat may see of a deal: the information state handed to players."""
from __future__ import annotations

from typing import Any, Optional

import attrs

from ..values import frozen


@frozen
class SeatView:
    """A seat's view of the deal: its own hand, public plays and scores; never other hands.

    ``hand`` is a 52-bit mask (during a trump call, only the cards the caller has seen);
    ``legal`` the legal actions when it is this seat's turn. ``trick`` holds ``(seat, card)``
    of the trick in progress, ``completed`` every finished trick as ``(leader, plays, winner)``.
    In a layout deal ``layout`` is a tuple of rows, one per suit: ``None`` (not open) or
    ``(low, high)`` card ids at the ends, and ``opening_rank`` the rank that opens every row
    (-1 before the first card of a free start, and in trick deals).
    """

    seat: int
    contract: Any
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
    why: Any = attrs.field(default=None, eq=False, repr=False)  # action -> reason it is illegal, or None
