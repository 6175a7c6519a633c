"""The trump call: a seat names trumps (or no trumps) for the deal."""

from __future__ import annotations

from typing import Optional

from ..cards import SUIT_NAMES, SUIT_SYMBOLS, CardError, card_str
from ..interpreter.actions import NO_TRUMP, call, called_suit, is_call
from ..interpreter.phases import EXPECTED, Phase
from .base import PhaseUnit, row, seat
from .typed import read_suit


class TrumpCall(PhaseUnit):
    name = "call"
    fields = ("trump", "caller")
    expected = EXPECTED[Phase.CALL]
    task = "call trumps"
    prompt_word = "trumps"
    hint = "Type a suit (S, H, D, C, ♠, hearts, kiery...) or its number."

    # adapter hooks: the caller has seen only the first cards of his dealing when he calls
    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        seen = " ".join(card_str(c) for c in sorted(dealt[seat][: deal.contract.call.after]))
        return [(seat, f"p{seat} saw {seen}"), *super().reveal(deal, seat, action, dealt)]

    def dealt_seen(self, hand: int, dealt) -> list:
        return [c for c in dealt if hand >> c & 1]

    def unseen_draw(self, contract, mine: list) -> Optional[tuple]:
        return mine[: contract.call.after], len(mine)

    def owns(self, action: int) -> bool:
        return is_call(action)

    def label(self, view, action: int, rules=None) -> str:
        suit = called_suit(action)
        return "no trumps" if suit < 0 else f"trumps: {SUIT_NAMES[suit]}"

    def word(self, view, text: str, rules=None) -> Optional[int]:
        if text in ("none", "no trumps", "nt"):
            return NO_TRUMP
        try:
            return call(read_suit(text.removeprefix("trumps:").strip()))
        except CardError:
            return None

    def menu(self, view, rules=None) -> list:
        names = ["no trumps" if called_suit(a) < 0 else SUIT_NAMES[called_suit(a)] for a in view.legal]
        return ["You name trumps. Choices: " + ", ".join(f"{i}) {x}" for i, x in enumerate(names, start=1))]

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        return f"{text} may not be called here: {reason or 'not allowed now'}"

    def panel(self, view, rules=None) -> list:
        """The trumps: called, fixed, none, or still to be called."""
        if self.matches(view):
            who = view.caller if view.caller >= 0 else view.seat
            return [row("Trumps", f"not called yet: {seat(view, who)} calls")]
        text = "none" if view.trump < 0 else f"{SUIT_SYMBOLS[view.trump]} {SUIT_NAMES[view.trump]}"
        if view.caller >= 0:
            text += f" (called by {seat(view, view.caller)})"
        return [row("Trumps", text)]


UNIT = TrumpCall()
