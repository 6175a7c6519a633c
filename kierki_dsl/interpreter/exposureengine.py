"""The round of exposures (Trix), as a trick deal steps it (``phaseengine``): each seat in turn
may show cards of the contract's kind (``exposure.ExposureRound``); at the deal's end each
exposed card's taker pays its extra cost to the seat that exposed it."""

from __future__ import annotations

from typing import Optional

from .exposure import ExposurePart, ExposureRound, why_not_exposed
from .phaseengine import RoundEngine
from .phases import Phase
from .view import shown_part


class ExposureEngine(RoundEngine):
    """The exposures of ``contract.exposure`` (``exposure.Exposure``); its state is ``deal.exposures``."""

    phase = Phase.EXPOSE
    field = "exposures"

    def start(self, deal) -> int:
        deal.exposures = ExposureRound(self.rule, deal.players, deal.dealer, deal.direction, deal.hands)
        return deal.exposures.seat

    def copy(self, deal, other) -> None:
        if deal.exposures is not None:
            other.exposures = deal.exposures.copy(other.hands)

    def from_view(self, deal, view) -> None:
        deal.exposures = ExposureRound.settled(shown_part(view, ExposurePart).exposed, self.rule, view.players)

    def settle_after(self, deal) -> None:
        if deal.exposures is not None:
            deal.exposures.settle(deal.scores, deal.completed, deal._tables)

    def view_reason(self, view, action: int) -> Optional[str]:
        return why_not_exposed(self.rule, view, action)


__all__ = ["ExposureEngine"]
