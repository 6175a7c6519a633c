"""Action numbers shared by every deal type: cards are 0..51, then pass and trump calls."""
from __future__ import annotations

from ..cards import SUITS, card_str

PASS = 52
CALL_BASE = 53  # CALL_BASE + suit (0..3) names that suit trumps
NO_TRUMP = 57  # the caller chose to play without trumps


def call(suit: int) -> int:
    return NO_TRUMP if suit < 0 else CALL_BASE + suit


def called_suit(action: int) -> int:
    """The suit an action calls (-1 for no trumps)."""
    return -1 if action == NO_TRUMP else action - CALL_BASE


def is_call(action: int) -> bool:
    return CALL_BASE <= action <= NO_TRUMP


def action_str(action: int) -> str:
    if action < 52:
        return card_str(action)
    if action == PASS:
        return "pass"
    if action == NO_TRUMP:
        return "call:none"
    return "call:" + SUITS[action - CALL_BASE]


class IllegalAction(Exception):
    """An action that the rules do not allow now; ``reason`` says which rule."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
