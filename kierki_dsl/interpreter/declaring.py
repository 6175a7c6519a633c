"""The deal states of contracts with declarations: the plain trick, stock and widow deals, plus the
declarations each lead makes (``declarations.on_lead``). Contracts without declarations play
the plain states, whose play loop never looks for them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .declarations import on_lead
from .stockstate import StockDeal
from .trickstate import TrickDeal
from .widowstate import WidowDeal

if TYPE_CHECKING:  # the mixin is read as a trick deal, the states it comes before
    _DealState = TrickDeal
else:
    _DealState = object


class Declaring(_DealState):
    """A mixin before a deal state: after a card is led, the declarations it makes."""

    def play_legal(self, action: int) -> None:
        lead, seat = not self.trick, self.to_move
        super().play_legal(action)
        if lead:
            on_lead(self, seat, action)


class DeclaringTrickDeal(Declaring, TrickDeal):
    """A trick deal with declarations."""


class DeclaringStockDeal(Declaring, StockDeal):
    """A deal with a stock to draw from and declarations."""


class DeclaringWidowDeal(Declaring, WidowDeal):
    """A deal with a widow (Tysiąc's musik) and declarations."""


#: The declaring state of each plain one.
DECLARING = {TrickDeal: DeclaringTrickDeal, StockDeal: DeclaringStockDeal, WidowDeal: DeclaringWidowDeal}
