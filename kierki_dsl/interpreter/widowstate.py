"""A trick deal with a widow (see ``widow.py`` for the rules): the widow dealt aside, shown in
views and records. Its exchange is a phase of the deal's list (``widow.WidowEngine``)."""

from __future__ import annotations

from typing import Optional

import attrs

from ..cards import card_str
from .actions import action_str
from .trickstate import TrickDeal
from .widow import WidowPart


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


__all__ = ["WidowDeal"]
