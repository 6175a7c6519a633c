"""Passing (Hearts): each seat passes cards of its hand to another before play."""

from __future__ import annotations

from ..i18n import N_, tr
from ..interpreter.phases import EXPECTED, Phase
from .base import cards_text, contract_of, row, seat
from .cardpick import CardPhase


class Passing(CardPhase):
    name = "pass"
    fields = ("passed", "passed_to", "received")
    expected = EXPECTED[Phase.PASS]
    task = N_("pass a card")
    prompt_word = N_("a card to pass")

    def advice(self, view, rules=None) -> list:
        """'Pass 3 cards to W: card 2 of 3' — where the cards go and how many are chosen."""
        contract = contract_of(rules, view.contract)
        if contract is None or contract.passing is None:
            return []
        passing = contract.passing
        n = view.players
        to = (view.seat + view.direction * passing.offset(view.deal_number, n)) % n
        chosen = view.hand_sizes[view.seat] - view.hand.bit_count() if view.hand_sizes else 0
        return [
            tr("Pass {count} cards to {seat}: card {number} of {count}").format(
                count=passing.count, seat=seat(view, to), number=chosen + 1
            )
        ]

    def panel(self, view, rules=None) -> list:
        if not view.received:
            return []
        return [
            row(
                "",
                tr("You passed {cards} to {seat}; you received {received}.").format(
                    cards=cards_text(view.passed), seat=seat(view, view.passed_to), received=cards_text(view.received)
                ),
            )
        ]


UNIT = Passing()
