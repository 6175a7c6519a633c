"""The trump call's action numbers: a caller names a suit trumps, or no trumps."""

from __future__ import annotations

from .numbering import Block

CALLS = Block("call", 53, 5, "name a suit trumps (base + suit 0..3), or no trumps (the last)")
#: The call's blocks of action numbers (``actions`` assembles every phase's).
NUMBERS = (CALLS,)
CALL_BASE = CALLS.base  # CALL_BASE + suit (0..3) names that suit trumps
NO_TRUMP = CALLS.end - 1  # the caller chose to play without trumps


def call(suit: int) -> int:
    """The action calling ``suit`` trumps (-1: no trumps)."""
    return NO_TRUMP if suit < 0 else CALL_BASE + suit


def called_suit(action: int) -> int:
    """The suit an action calls (-1 for no trumps)."""
    return -1 if action == NO_TRUMP else action - CALL_BASE


def is_call(action: int) -> bool:
    """A trump call (a suit or no trumps)."""
    return CALLS.holds(action)
