"""Naming a layout's opening rank (Barbu's domino, ``start_rank: named``), as a layout deal
steps it (``phaseengine``): before anything else the first player names the rank that opens
every row, one he need not hold; nothing can be laid until then."""

from __future__ import annotations

from typing import Optional

from ..i18n import R_
from .naming import name_rank, named_rank
from .phaseengine import PhaseEngine
from .phases import Phase


class NameEngine(PhaseEngine):
    """The naming of the opening rank of a layout contract with ``named`` (``rule``: the contract);
    its state is the deal's rows (``layout.LayoutDeal.open_named``)."""

    phase = Phase.NAME

    def at_deal(self, deal) -> None:
        deal.frontier = 0  # no card fits before the rank is named

    def start(self, deal) -> int:
        return deal.to_move  # the first player names it

    def legal(self, deal) -> list:
        """Every rank of the deck, held or not."""
        return [name_rank(r) for r in range(13) if any(deal.deck >> (s * 13 + r) & 1 for s in range(4))]

    def reason(self, deal, action: int) -> Optional[str]:
        return None if action in self.legal(deal) else R_("a rank of the deck is to be named to open the rows")

    def apply(self, deal, action: int) -> int:
        deal.open_named(named_rank(action))
        return -1

    def resume(self, deal, view) -> bool:
        """A layout rebuilt while its rank is being named goes on naming it."""
        return True


__all__ = ["NameEngine"]
