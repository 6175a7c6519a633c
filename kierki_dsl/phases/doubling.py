"""The doubling round (Barbu): side bets before play — double a seat, redouble, or done."""

from __future__ import annotations

from typing import Optional

from ..interpreter.actions import DONE, DOUBLE_BASE, REDOUBLE_BASE
from ..interpreter.phases import EXPECTED, Phase
from .base import PhaseUnit, contract_of, row, seat


class Doubling(PhaseUnit):
    name = "double"
    fields = ("bets",)
    expected = EXPECTED[Phase.DOUBLE]
    task = "double or not"
    prompt_word = "bet"
    hint = "Type a number from the list, 'double E', 'redouble N' or 'done'."

    # adapter hooks
    def observation_lines(self, view) -> list:
        """The bets standing, ``bets p0>p1x2 ...`` (none: no line)."""
        return ["bets " + " ".join(f"p{a}>p{b}x{f}" for a, b, f in view.bets)] if view.bets else []

    def owns(self, action: int) -> bool:
        return DOUBLE_BASE <= action <= DONE

    def label(self, view, action: int, rules=None) -> str:
        if action == DONE:
            return "done"
        if action >= REDOUBLE_BASE:
            return f"redouble {seat(view, action - REDOUBLE_BASE)}"
        return f"double {seat(view, action - DOUBLE_BASE)}"

    def word(self, view, text: str, rules=None) -> Optional[int]:
        if text == "done":
            return DONE
        kind, _, who = text.partition(" ")
        base = {"double": DOUBLE_BASE, "d": DOUBLE_BASE, "redouble": REDOUBLE_BASE, "r": REDOUBLE_BASE}.get(kind)
        for s in range(view.players):
            if base is not None and who == seat(view, s).lower():
                return base + s
        return None

    def advice(self, view, rules=None) -> list:
        lines = [
            "A double is a side bet that you outscore that player in this deal: the difference of "
            "your two scores is paid, twice if redoubled."
        ]
        if DONE in view.legal:
            return lines
        contract = contract_of(rules, view.contract)
        if contract is not None and contract.doubling is not None and contract.doubling.duty_every:
            lines.append(
                "You owe a player doubles under the duty to double every player, and the deals he deals "
                "are running out: you may not say done yet."
            )
        else:
            lines.append(
                f"You owe the dealer ({seat(view, view.dealer)}) a double: you must double him in one "
                "of his deals left, and this is the last chance to keep that duty."
            )
        return lines

    def menu(self, view, rules=None) -> list:
        return ["Bets: " + "  ".join(f"{i}) {self.label(view, a)}" for i, a in enumerate(view.legal, start=1))]

    def panel(self, view, rules=None) -> list:
        if not view.bets:
            return []
        return [
            row(
                "Bets so far",
                ", ".join(
                    f"{seat(view, a)} {'redoubled' if f == 2 else 'doubled'} {seat(view, b)}" for a, b, f in view.bets
                ),
            )
        ]


UNIT = Doubling()
