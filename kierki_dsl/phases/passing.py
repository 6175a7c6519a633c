"""Passing (Hearts): each seat passes cards of its hand to another before play."""

from __future__ import annotations

from typing import Optional

from ..cards import card_str
from ..interpreter.phases import EXPECTED, Phase
from .base import cards_text, contract_of, row, seat
from .cardpick import CardPhase


class Passing(CardPhase):
    name = "pass"
    fields = ("passed", "passed_to", "received")
    expected = EXPECTED[Phase.PASS]
    task = "pass a card"
    prompt_word = "a card to pass"

    # adapter hooks: a card passed is its seat's secret; its receiver learns it when the passing ends
    drawn_in_worlds = True

    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        out = [(seat, f"p{seat} passes {card_str(action)}"), (None, f"p{seat} passes a card")]
        if deal.phase != self.name:  # the passing is over: each seat learns the cards it was given (not their order)
            n = len(dealt)
            for giver in range(n):
                to = (giver + deal.direction * deal.pass_offset) % n
                got = " ".join(card_str(c) for c in sorted(deal.passes[giver]))
                out.append((to, f"p{to} receives {got}"))
        return out

    def unseen_draw(self, contract, mine: list) -> Optional[tuple]:
        return list(mine), None

    def own_cards(self, deal, log: list, seat: int) -> tuple:
        if deal is None or not deal.pass_offset:
            return 0, 0
        count, n = deal.contract.passing.count, deal.players
        passed = sum(1 << a for a in [a for s, a in log if s == seat and a < 52][:count])
        received = 0
        if deal.phase != self.name:
            giver = (seat - deal.direction * deal.pass_offset) % n
            for s, a in log:
                if s == giver and a < 52:
                    received |= 1 << a
                    if received.bit_count() == count:
                        break
        return passed, received

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
        if not view.received:
            return []
        return [
            row(
                "",
                f"You passed {cards_text(view.passed)} to {seat(view, view.passed_to)}; "
                f"you received {cards_text(view.received)}.",
            )
        ]


UNIT = Passing()
