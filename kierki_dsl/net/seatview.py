"""A seat's view rebuilt from SIK messages alone (the client has no game state).

``SeatKnowledge`` keeps what the messages told this seat — its cards, the deal's type and
first leader, every finished trick — and builds the same ``SeatView`` the server's state
would hand this seat, so every kierki-dsl player (and the human interface) plays at a SIK
table unchanged. The legal cards come from the ruleset's own rules, applied to this hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..cards import FULL_DECK
from ..interpreter.view import SeatView

if TYPE_CHECKING:
    from ..interpreter.protocol import CompiledContract


class SeatKnowledge:
    """What one seat knows of the current deal, from ``DEAL``, ``TRICK`` and ``TAKEN``."""

    def __init__(self, ruleset, seat: int, types: Optional[dict] = None):
        from .deals import deal_types

        self.ruleset = ruleset
        self.types = types if types is not None else deal_types(ruleset)
        self.seat = seat
        self.deal_number = 0
        self.contract: Optional[CompiledContract] = None  # the current deal's (once a DEAL came)
        self.open = False  # a deal is under way (DEAL seen, SCORE not yet)
        self.original: frozenset = frozenset()

    def deal(self, msg) -> Optional[str]:
        """A ``DEAL``: a new deal (or the same one again after a reconnect). A problem, or None."""
        contract = self.types.get(msg.type)
        if contract is None:
            return f"deal type {msg.type} names no contract of {self.ruleset.name!r}"
        if not (self.open and frozenset(msg.cards) == self.original):
            self.deal_number += 1
        self.contract = contract
        self.open = True
        self.original = frozenset(msg.cards)
        self.hand = sum(1 << c for c in msg.cards)
        self.leader = msg.leader
        self.next_leader = msg.leader
        self.dealer = (msg.leader - self.ruleset.direction) % 4
        self.completed: list = []
        self.played = 0
        self.scores = [0] * 4
        self.counts = [0] * 4  # cards played by each seat
        return None

    @property
    def trick_number(self) -> int:
        return len(self.completed) + 1 if self.contract is not None else 1

    def taken(self, msg) -> None:
        """A ``TAKEN``: the trick's four cards, in playing order, and who took it."""
        if self.contract is None:
            return
        lead = self.next_leader
        plays = tuple(((lead + i) % 4, c) for i, c in enumerate(msg.cards))
        points = self._scorer((), 0).trick_value(plays, msg.number)[1]
        for s, c in plays:
            self.hand &= ~(1 << c)
            self.played |= 1 << c
            self.counts[s] += 1
        self.scores[msg.winner] += points
        self.completed.append((lead, plays, msg.winner))
        self.next_leader = msg.winner

    def finish(self) -> None:
        """A ``SCORE``: the deal is over."""
        self.open = False

    def view(self, on_table) -> SeatView:
        """This seat's view when asked to play with ``on_table`` (cards in playing order)."""
        n = len(on_table)
        trick = tuple(((self.seat - n + i) % 4, c) for i, c in enumerate(on_table))
        led = on_table[0] // 13 if on_table else -1
        state = self._scorer(trick, led)
        return self._view(trick, led, tuple(state.legal_actions()))

    def _view(self, trick, led: int, legal: tuple) -> SeatView:
        assert self.contract is not None  # asked only during a deal
        sizes = [13 - k for k in self.counts]
        for s, _ in trick:
            sizes[s] -= 1
        played_now = sum(1 << c for _, c in trick)
        return SeatView(
            seat=self.seat,
            contract=self.contract.name,
            phase="play",
            hand=self.hand & ~played_now,
            legal=legal,
            trick=trick,
            led_suit=led,
            trump=-1,
            caller=-1,
            dealer=self.dealer,
            trick_number=self.trick_number,
            tricks_total=self.ruleset.hand_size,
            played=self.played,
            scores=tuple(self.scores),
            completed=tuple(self.completed),
            players=4,
            hand_sizes=tuple(sizes),
            deck=self.ruleset.deck & FULL_DECK,
            direction=self.ruleset.direction,
            deal_number=self.deal_number,
            ply=4 * len(self.completed) + len(trick),
        )

    def _scorer(self, trick, led: int):
        """A play state of this seat's knowledge (only its own hand), for rules and points."""
        hands = [0] * 4
        hands[self.seat] = self.hand
        assert self.contract is not None  # asked only during a deal
        return self.contract.from_view(self._view(trick, led, ()), hands)
