"""The trump call, as a trick deal steps it (``phaseengine``): the seat the contract names
(``called_by``, having seen its first ``after`` cards) names trumps, or no trumps, among the
contract's choices."""

from __future__ import annotations

from typing import Optional

from ..cards import SUIT_NAMES
from ..i18n import R_
from .actions import call, called_suit
from .phaseengine import PhaseEngine
from .phases import Phase


class CallEngine(PhaseEngine):
    """The trump call of ``contract.call`` (``calling.TrumpCall``); its state is the deal's
    ``caller`` and, once called, ``trump``."""

    phase = Phase.CALL

    def at_deal(self, deal) -> None:
        """No trump is known until it is called."""
        deal.trump = -1

    def start(self, deal) -> int:
        deal.caller = self.rule.called_by.seat(deal._seat_env(), deal.players)
        return deal.caller

    def legal(self, deal) -> list:
        return [call(s) for s in self.rule.choices]

    def reason(self, deal, action: int) -> Optional[str]:
        if action in self.legal(deal):
            return None
        return R_("a trump call is expected ({choices})").format(
            choices=", ".join(R_("no trumps") if s < 0 else SUIT_NAMES[s] for s in self.rule.choices)
        )

    def apply(self, deal, action: int) -> int:
        deal.trump = called_suit(action)
        return -1

    def hand_seen(self, deal, seat: int) -> int:
        """Before any auction, every seat has been dealt only its first ``after`` cards so far."""
        if deal.auction is not None:
            return deal.hands[seat]
        return sum(1 << c for c in deal.dealt[seat][: self.rule.after])

    def resume(self, deal, view) -> bool:
        """A deal rebuilt from a view in the call (the auction, and a widow's exchange, done)
        goes on with the call."""
        deal.to_move = view.caller
        return True


__all__ = ["CallEngine"]
