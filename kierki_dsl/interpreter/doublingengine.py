"""The doubling round (Barbu), as a trick or layout deal steps it (``phaseengine``): the bets of
``doubling.BettingRound``; with ``if_undoubled: split`` and no bet made, the deal ends unplayed
and its total is split. The bets are paid on the scores at the deal's end."""

from __future__ import annotations

from .doubling import BettingRound, split_total
from .phaseengine import RoundEngine
from .phases import Phase


class DoublingEngine(RoundEngine):
    """The doubling round of ``contract.doubling`` (``doubling.Doubling``); its state is ``deal.betting``."""

    phase = Phase.DOUBLE
    field = "betting"

    def start(self, deal) -> int:
        deal.betting = BettingRound(self.rule, deal.players, deal.dealer, deal.direction, deal.memory, deal.number)
        return deal.betting.seat

    def ends_unplayed(self, deal) -> bool:
        """With ``if_undoubled: split`` and no bet made, the deal ends unplayed, its total split."""
        if self.rule.if_undoubled != "split" or (deal.betting and deal.betting.bets):
            return False
        deal.scores = split_total(deal.contract.total, deal.dealer, deal.players)
        return True

    def copy(self, deal, other) -> None:
        if deal.betting is not None:
            other.betting = deal.betting.copy()

    def from_view(self, deal, view) -> None:
        deal.betting = BettingRound.from_view(view)

    def settle_after(self, deal) -> None:
        if deal.betting is not None:
            deal.scores = deal.betting.settle(deal.scores)

    def remember(self, deal, memory) -> None:
        if deal.betting is not None:
            deal.betting.remember(memory)


__all__ = ["DoublingEngine"]
