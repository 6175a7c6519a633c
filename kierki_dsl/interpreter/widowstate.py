"""A trick deal with a widow (see ``widow.py`` for the rules)."""
from __future__ import annotations

from typing import Optional

import attrs

from ..cards import bits, card_str
from .actions import IllegalAction
from .phases import Phase
from .stock import stock_order, unseen_rest
from .trickstate import TrickDeal
from .widow import mask

EXCHANGE = Phase.EXCHANGE


class WidowDeal(TrickDeal):
    """A trick deal whose last cards dealt lie aside until the auction's winner takes them."""

    def __init__(self, contract, players: int, deck: int, dealer: int, dealt: list, direction: int = 1,
                 number: int = 1, memory=None, widow: Optional[list] = None):
        rule = contract.widow
        if widow is None:
            dealt, widow = rule.split(dealt, dealer, players, direction)
        self.widow = list(widow)
        self.taker = -1
        self.exchanged: list = []  # (card, the seat it went to, -1 when laid aside), in order
        super().__init__(contract, players, deck, dealer, dealt, direction, number, memory)

    # -- the exchange --------------------------------------------------------------------------
    def _after_auction(self) -> None:
        """The widow is taken (once), then the taker puts as many cards out; then the call or play."""
        if self.taker >= 0:
            super()._after_auction()
            return
        rule = self.contract.widow
        self.taker = rule.taken_by.seat(self._seat_env(), self.players)
        self.hands[self.taker] |= mask(self.widow)
        self._lhand = -1
        self.phase, self.to_move = EXCHANGE, self.taker

    def _exchange_done(self) -> bool:
        return len(self.exchanged) >= self.contract.widow.out_count(self.players)

    def legal_actions(self) -> list[int]:
        if self.phase == EXCHANGE:
            return list(bits(self.hands[self.taker]))
        return super().legal_actions()

    def why_illegal(self, action: int) -> Optional[str]:
        if self.phase != EXCHANGE:
            return super().why_illegal(action)
        if 0 <= action < 52 and self.hands[self.taker] >> action & 1:
            return None
        if 0 <= action < 52:
            return f"{card_str(action)} is not in your hand"
        return self._exchange_expected()

    def _exchange_expected(self) -> str:
        to = self.contract.widow.recipient(self.taker, len(self.exchanged), self.players, self.direction)
        return "a card of your hand to lay aside is expected" if to < 0 else \
            f"a card of your hand to give to seat {to} is expected"

    def apply_action(self, action: int) -> None:
        if self.phase != EXCHANGE:
            super().apply_action(action)
            return
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason)
        to = self.contract.widow.recipient(self.taker, len(self.exchanged), self.players, self.direction)
        self.hands[self.taker] &= ~(1 << action)
        if to >= 0:
            self.hands[to] |= 1 << action
        self.exchanged.append((action, to))
        self.actions.append(action)
        self._lhand = -1
        if self._exchange_done():
            self.tricks_total = self.hands[self.taker].bit_count()
            super()._after_auction()

    # -- records and views ---------------------------------------------------------------------
    def record_plays(self) -> list[str]:
        cards = super().record_plays()
        return cards[len(self.exchanged):]  # the exchange comes before any card played

    def record_exchange(self) -> list:
        """The taker's cards, in the order he put them out ("QS", ...)."""
        return [card_str(c) for c, _ in self.exchanged]

    def view(self, seat: int):
        """The trick deal's view with the widow once shown (or face up), the exchange as far as
        this seat may know it, and how many cards lie aside unseen by it."""
        v = super().view(seat)
        rule = self.contract.widow
        shown = tuple(self.widow) if rule.face_up or self.taker >= 0 else ()
        mine = tuple((c, to) for c, to in self.exchanged if seat == self.taker or to == seat)
        unseen_widow = 0 if shown else len(self.widow)
        laid = sum(1 for _, to in self.exchanged if to < 0)
        aside = unseen_widow + (0 if seat == self.taker else laid)
        return attrs.evolve(v, widow=shown, exchanged=mine, aside=aside, taker=self.taker)

    def clone(self) -> "WidowDeal":
        other = super().clone()
        other.widow = list(self.widow)
        other.exchanged = list(self.exchanged)
        return other

    @classmethod
    def from_view(cls, contract, view, hands: list) -> "WidowDeal":
        """A state rebuilt from a view and assumed hands: in the exchange or in play, the widow
        taken; in the auction, the cards in no assumed hand are the widow (the face-up one as shown)."""
        st = super().from_view(contract, view, hands)
        if view.phase != Phase.AUCTION:
            st.widow, st.taker, st.exchanged = list(view.widow), view.taker, list(view.exchanged)
            unseen = list(bits(unseen_rest(view, hands)))  # the cards laid aside unseen by this seat are among these
            for _ in range(view.aside - st.view(view.seat).aside):
                st.exchanged.append((unseen.pop() if unseen else -1, -1))
        if view.phase == EXCHANGE:  # the taker's turn to put cards out, not yet play
            st.phase, st.to_move = EXCHANGE, view.taker
        return st

    @classmethod
    def _new_in_auction(cls, contract, view, hands: list) -> "WidowDeal":
        widow = list(view.widow) if view.widow else stock_order(unseen_rest(view, hands), view.ply)
        return cls(contract, view.players, view.deck, view.dealer, [list(bits(h)) for h in hands], view.direction,
                   view.deal_number, widow=widow)


__all__ = ["WidowDeal", "EXCHANGE"]
