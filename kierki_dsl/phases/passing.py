"""Passing (Hearts): each seat passes cards of its hand to another before play."""

from __future__ import annotations

from ..interpreter.phases import EXPECTED, Phase
from .base import cards_text, contract_of, row, seat
from .cardpick import CardPhase


class Passing(CardPhase):
    name = "pass"
    fields = ("passed", "passed_to", "received")
    expected = EXPECTED[Phase.PASS]
    task = "pass a card"
    prompt_word = "a card to pass"

    def advice(self, view, rules=None) -> list:
        """'Pass 3 cards to W: card 2 of 3' — where the cards go and how many are chosen."""
        contract = contract_of(rules, view.contract)
        if contract is None or contract.passing is None:
            return []
        passing = contract.passing
        n = view.players
        to = (view.seat + view.direction * passing.offset(view.deal_number, n)) % n
        chosen = view.hand_sizes[view.seat] - view.hand.bit_count() if view.hand_sizes else 0
        return [f"Pass {passing.count} cards to {seat(view, to)}: card {chosen + 1} of {passing.count}"]

    def panel(self, view, rules=None) -> list:
        """What this seat gave (how many cards, to whom) and what it received (from whom), once every pass is made."""
        if not view.received:
            return []
        giver = (2 * view.seat - view.passed_to) % view.players  # passing is a rotation: the seat passing to us
        return [
            row(
                "",
                f"You passed {_count(view.passed)} to {seat(view, view.passed_to)}: {cards_text(view.passed)}; "
                f"you received {_count(view.received)} from {seat(view, giver)}: {cards_text(view.received)}.",
            )
        ]


def _count(cards) -> str:
    """``3 cards``, ``1 card``."""
    return f"{len(cards)} card{'' if len(cards) == 1 else 's'}"


UNIT = Passing()
