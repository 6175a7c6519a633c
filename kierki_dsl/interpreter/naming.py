"""Naming a layout's opening rank (Fan Tan's ``start_rank: named``): its action numbers."""

from __future__ import annotations

from .numbering import Block

NAMES = Block("name", 80, 13, "name the rank (base + 0 = 2 .. 12 = A) that opens a layout's rows")
#: The naming's blocks of action numbers (``actions`` assembles every phase's).
NUMBERS = (NAMES,)
NAME_BASE = NAMES.base


def name_rank(rank: int) -> int:
    """The action naming ``rank`` (0 = 2 .. 12 = A) the opening rank of a layout's rows."""
    return NAME_BASE + rank


def named_rank(action: int) -> int:
    """The rank an action names."""
    return action - NAME_BASE


def is_rank_name(action: int) -> bool:
    """A rank named to open a layout's rows."""
    return NAMES.holds(action)
