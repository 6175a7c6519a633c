"""A trick deal with a widow (see ``widow.py`` for the rules)."""

from __future__ import annotations

from typing import Optional

import attrs

from ..cards import bits, card_str
from ..i18n import R_
from .actions import IllegalAction, action_str, bid, bid_value, is_bid
from .phases import Phase
from .stock import stock_order, unseen_rest
from .trickstate import TrickDeal
from .widow import WidowPart, mask

EXCHANGE = Phase.EXCHANGE


class WidowDeal(TrickDeal):
    """A trick deal whose last cards dealt lie aside until the auction's winner takes them."""

    def __init__(
        self,
        contract,
        players: int,
        deck: int,
        dealer: int,
        dealt: list,
        direction: int = 1,
        number: int = 1,
        memory=None,
        widow: Optional[list] = None,
    ):
        rule = contract.widow
        if widow is None:
            dealt, widow = rule.split(dealt, dealer, players, direction)
        self.widow = list(widow)
        self.taker = -1
        self.exchanged: list = []  # (card, the seat it went to, -1 when laid aside), in order
        self.raising = False  # the taker, his cards out, names his contract (``raise_bid``)
        self.raised: list = []  # the contract he named (a bid action), once named
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
            return self._raises() if self.raising else list(bits(self.hands[self.taker]))
        return super().legal_actions()

    def _raises(self) -> list[int]:
        """The contracts the taker may name: his bid, or a higher level his hand may bid."""
        rule = self.contract.auction
        return [
            bid(v)
            for v in rule.levels()
            if v == self.bid
            or v > self.bid
            and rule.allows(v, self.taker, self.dealer, self.players, self.hands[self.taker], self.deck)
        ]

    def why_illegal(self, action: int) -> Optional[str]:
        if self.phase != EXCHANGE:
            return super().why_illegal(action)
        if self.raising:
            if action in self._raises():
                return None
            if is_bid(action) and bid_value(action) < self.bid:
                return R_("your contract is at least your bid, {bid}").format(bid=self.bid)
            if is_bid(action) and bid_value(action) in self.contract.auction.levels():
                return self.contract.auction.allow_reason or R_("this contract may not be named")
            return R_("your contract is expected: a bid from {bid} up").format(bid=self.bid)
        if 0 <= action < 52 and self.hands[self.taker] >> action & 1:
            return None
        if 0 <= action < 52:
            return R_("{card} is not in your hand").format(card=card_str(action))
        return self._exchange_expected()

    def _exchange_expected(self) -> str:
        to = self.contract.widow.recipient(self.taker, len(self.exchanged), self.players, self.direction)
        return (
            "a card of your hand to lay aside is expected"
            if to < 0
            else f"a card of your hand to give to seat {to} is expected"
        )

    def apply_action(self, action: int) -> None:
        if self.phase != EXCHANGE:
            super().apply_action(action)
            return
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason)
        if self.raising:  # the contract named: play begins
            self.bid, self.raising = bid_value(action), False
            self.raised.append(action)
            self.actions.append(action)
            super()._after_auction()
            return
        to = self.contract.widow.recipient(self.taker, len(self.exchanged), self.players, self.direction)
        self.hands[self.taker] &= ~(1 << action)
        if to >= 0:
            self.hands[to] |= 1 << action
        self.exchanged.append((action, to))
        self.actions.append(action)
        self._lhand = -1
        if self._exchange_done():
            self.tricks_total = self.hands[self.taker].bit_count()
            if self.contract.widow.raise_bid and self.taker == self.bidder:
                self.raising = True
                return
            super()._after_auction()

    # -- records and views ---------------------------------------------------------------------
    def record_plays(self) -> list[str]:
        cards = super().record_plays()
        return cards[len(self.exchanged) :]  # the exchange comes before any card played

    def record_exchange(self) -> list:
        """The taker's cards, in the order he put them out ("QS", ...), then the contract he
        named if he may raise his bid ("bid:130")."""
        return [card_str(c) for c, _ in self.exchanged] + [action_str(a) for a in self.raised]

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
        v = v.with_part("exchange", WidowPart(shown, self.taker, mine, aside))
        auction = v.part("auction")
        if self.raised and auction is not None:  # the contract the taker named is the bid standing: public
            v = v.with_part("auction", attrs.evolve(auction, bid=self.bid))
        return v

    def clone(self) -> "WidowDeal":
        other = super().clone()
        assert isinstance(other, WidowDeal)  # a clone has the type of its original
        other.widow = list(self.widow)
        other.exchanged = list(self.exchanged)
        other.raised = list(self.raised)
        return other

    @classmethod
    def from_view(cls, contract, view, hands: list) -> "WidowDeal":
        """A state rebuilt from a view and assumed hands: in the exchange or in play, the widow
        taken; in the auction, the cards in no assumed hand are the widow (the face-up one as shown)."""
        st = super().from_view(contract, view, hands)
        assert isinstance(st, WidowDeal)  # built as an instance of ``cls``
        st.raising, st.raised = False, []  # a contract named shows as the view's bid
        if view.phase != Phase.AUCTION:
            st.widow, st.taker, st.exchanged = list(view.widow), view.taker, list(view.exchanged)
            unseen = list(bits(unseen_rest(view, hands)))  # the cards laid aside unseen by this seat are among these
            for _ in range(view.aside - st.view(view.seat).aside):
                st.exchanged.append((unseen.pop() if unseen else -1, -1))
        if view.phase == EXCHANGE:  # the taker's turn to put cards out (or name his contract), not yet play
            st.phase, st.to_move = EXCHANGE, view.taker
            st.raising = bool(view.legal) and all(is_bid(a) for a in view.legal)
        return st

    @classmethod
    def _new_in_auction(cls, contract, view, hands: list) -> "WidowDeal":
        widow = list(view.widow) if view.widow else stock_order(unseen_rest(view, hands), view.ply)
        return cls(
            contract,
            view.players,
            view.deck,
            view.dealer,
            [list(bits(h)) for h in hands],
            view.direction,
            view.deal_number,
            widow=widow,
        )


__all__ = ["WidowDeal", "EXCHANGE"]
