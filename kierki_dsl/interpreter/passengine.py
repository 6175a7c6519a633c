"""Passing cards before play (Hearts), as a trick deal steps it (``phaseengine``): each seat in
turn picks ``count`` cards of its own hand; once every seat has, each gives its cards at once to
the seat ``offset`` places on (the deal number picks the offset from the rotation)."""

from __future__ import annotations

from typing import Optional

from ..cards import BIT
from ..i18n import R_
from .fastplay import exchange
from .phaseengine import PhaseEngine
from .phases import Phase


class PassEngine(PhaseEngine):
    """The passing of ``contract.passing`` (``passing.PassCards``); its state is the deal's
    ``pass_offset``, ``passes`` (the cards each seat passes) and ``_passable`` (those it may still pass)."""

    phase = Phase.PASS
    hides_passes = True  # nobody has received a card before every seat has passed

    def start(self, deal) -> int:
        deal.pass_offset = self.rule.offset(deal.number, deal.players)
        return (deal.dealer + deal.direction) % deal.players if deal.pass_offset else -1

    def legal(self, deal) -> list:
        return list(deal._passable[deal.to_move])

    def reason(self, deal, action: int) -> Optional[str]:
        if action in deal._passable[deal.to_move]:
            return None
        return R_("pass {count} cards of your own hand, each once").format(count=self.rule.count)

    def apply(self, deal, action: int) -> int:
        seat = deal.to_move
        deal._passable[seat].remove(action)
        passes = deal.passes[seat]
        passes.append(action)
        count = self.rule.count
        if len(passes) < count:
            return seat
        if len(deal.actions) < count * deal.players:  # passing comes first: the actions are all passes
            return deal._next[seat]
        _exchange(deal)
        return -1

    def copy(self, deal, other) -> None:
        other.passes = [list(p) for p in deal.passes]
        other._passable = [list(p) for p in deal._passable]

    def hand_seen(self, deal, seat: int) -> int:
        """The hand without the cards the seat has picked to pass so far."""
        hand = deal.hands[seat]
        for c in deal.passes[seat]:
            hand &= ~(1 << c)
        return hand


def _exchange(deal) -> None:
    """Every seat gives its chosen cards to the seat ``pass_offset`` places on, at once."""
    given = []
    for p in deal.passes:
        g = 0
        for c in p:
            g |= BIT[c]
        given.append(g)
    deal.hands[:] = exchange(deal.hands, given, deal.direction * deal.pass_offset, deal.players)


__all__ = ["PassEngine"]
