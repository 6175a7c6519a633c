"""Declarer's choice (Kierki's *wybór*): the declarer names the contract of the deal."""

from __future__ import annotations

from typing import Optional

from ..i18n import N_, tr
from ..interpreter.actions import CHOOSE_BASE, is_choice
from ..interpreter.phases import EXPECTED, Phase
from .base import PhaseUnit, contract_name, contract_of


class DeclarersChoice(PhaseUnit):
    name = "choose"
    fields = ("options",)
    expected = EXPECTED[Phase.CHOOSE]
    task = N_("choose the contract")
    prompt_word = N_("contract")
    contract_known = False
    hint = N_("Type the contract's number or name.")

    def owns(self, action: int) -> bool:
        return is_choice(action)

    def _option(self, view, action: int) -> Optional[str]:
        i = action - CHOOSE_BASE
        return view.options[i] if 0 <= i < len(view.options) else None

    def label(self, view, action: int, rules=None) -> str:
        name = self._option(view, action)
        if name is None:
            return super().label(view, action, rules)
        c = contract_of(rules, name)
        return contract_name(c) if c is not None else name

    def word(self, view, text: str, rules=None) -> Optional[int]:
        """A contract on offer by its key or its title (one already played is read too: it is refused with the rule)."""
        for i, name in enumerate(view.options):
            if text in (name, self.label(view, CHOOSE_BASE + i, rules).lower()):
                return CHOOSE_BASE + i
        return None

    def advice(self, view, rules=None) -> list:
        return [tr("You choose the contract.")]

    def menu(self, view, rules=None) -> list:
        return [
            tr("Choices: ") + ", ".join(f"{i}) {self.label(view, a, rules)}" for i, a in enumerate(view.legal, start=1))
        ]


UNIT = DeclarersChoice()
