"""The trump call: a seat names trumps during the deal. Its part of the format (the mapping form
of a trick contract's ``trump``), its rule and its action numbers: a caller names a suit
trumps, or no trumps."""

from __future__ import annotations

from typing import Optional

from ..cards import SUIT_NAMES, SUITS
from ..spec.schema import Enum, Expr, Field, Int, List, Obj
from ..values import frozen
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


def notation(action: int) -> str:
    """A call in the record notation: ``call:H``, ``call:none``."""
    return "call:none" if action == NO_TRUMP else "call:" + SUITS[called_suit(action)]


def read_notation(text: str) -> Optional[int]:
    """The call ``notation`` wrote, or None."""
    t = text.strip()
    if t.lower() == "call:none":
        return NO_TRUMP
    if t.lower().startswith("call:") and len(t) == 6 and t[5].upper() in SUITS:
        return call(SUITS.index(t[5].upper()))
    return None


#: What a trump call may name: no trumps, or a suit.
SUIT_CHOICES = ("none",) + SUIT_NAMES

#: Its part of the format: the mapping form of a trick contract's ``trump``.
TRUMP_CALL = Obj(
    {
        "called_by": Field(Expr("seat"), "who names trumps, e.g. dealer or left(dealer)", required=True),
        "after": Field(
            Int(0, 52), "how many of his cards the caller sees first (the rest are dealt after the call)", default=5
        ),
        "choices": Field(
            List(Enum(SUIT_CHOICES), min_items=1, unique=True), "what may be called", default=list(SUIT_NAMES)
        ),
    },
    title="trump call",
    doc="Trumps named by a seat during the deal.",
)


@frozen(eq=False)
class TrumpCall:
    """The compiled trump call of a contract."""

    called_by: object  # Compiled seat expression
    after: int
    choices: tuple  # suits, -1 = no trumps
