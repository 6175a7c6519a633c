"""Declarer's choice (Kierki's *wybór*): the declarer names the contract of the deal."""

from __future__ import annotations

from typing import Optional

from ..i18n import N_, tr
from ..interpreter import choice
from ..interpreter.actions import CHOOSE_BASE, is_choice
from ..interpreter.choice import ChoicePart
from ..interpreter.phasekit.base import PhaseUnit, contract_name, contract_of
from ..interpreter.phasekit.botplay import bot_contract, high_cards
from ..interpreter.phases import EXPECTED, Phase


class DeclarersChoice(PhaseUnit):
    name = "choose"
    engine_half = choice
    part_type = ChoicePart
    expected = EXPECTED[Phase.CHOOSE]
    task = N_("choose the contract")
    prompt_word = N_("contract")
    contract_known = False
    hint = N_("Type the contract's number or name.")
    lint_codes = choice.LINT_CODES  # its codes, declared beside its checks (interpreter/choice.py)

    def owns(self, action: int) -> bool:
        return is_choice(action)

    def _option(self, view, action: int) -> Optional[str]:
        i = action - CHOOSE_BASE
        options = _options(view)
        return options[i] if 0 <= i < len(options) else None

    def label(self, view, action: int, rules=None) -> str:
        name = self._option(view, action)
        if name is None:
            return super().label(view, action, rules)
        c = contract_of(rules, name)
        return contract_name(c) if c is not None else name

    def word(self, view, text: str, rules=None) -> Optional[int]:
        """A contract on offer by its key or its title (one already played is read too: it is refused with the rule)."""
        for i, name in enumerate(_options(view)):
            if text in (name, self.label(view, CHOOSE_BASE + i, rules).lower()):
                return CHOOSE_BASE + i
        return None

    def advice(self, view, rules=None) -> list:
        return [tr("You choose the contract.")]

    def menu(self, view, rules=None) -> list:
        return [
            tr("Choices: ") + ", ".join(f"{i}) {self.label(view, a, rules)}" for i, a in enumerate(view.legal, start=1))
        ]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The contract the hand suits best: with many high cards (J, Q, K, A) one where tricks
        pay, with few one where they cost (then the first on offer)."""
        high = high_cards(view.hand)

        def fit(action: int) -> tuple:
            c = bot_contract(rules, _options(view)[action - CHOOSE_BASE])
            positive = c.wants_tricks(view.tricks_total, view.players)
            if positive is None:
                return (0, -action)
            return ((high - 5) if positive else (5 - high), -action)

        return max(view.legal, key=fit)

    def bot_stream(self, key: int) -> int:
        """A stream of its own: the chosen deal's first decision has the same deal and ply."""
        return key * 7 + 3


def _options(view) -> tuple:
    """The names of the contracts on offer (none: no declarer's choice in the view)."""
    part = view.part("choose")
    return part.options if part is not None else ()


UNIT = DeclarersChoice()
