"""Naming a layout's opening rank (Fan Tan's ``start_rank: named``): its action numbers and their notation."""

from __future__ import annotations

from typing import Optional

from ..cards import card_str, parse_rank
from .numbering import Block, read_tagged

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


def notation(action: int) -> str:
    """A named rank in the record notation: ``rank:7``."""
    return "rank:" + card_str(named_rank(action))[:-1]


def read_notation(text: str) -> Optional[int]:
    """The named rank ``notation`` wrote, or None."""
    return read_tagged(text, "rank", 8, lambda rank: name_rank(parse_rank(rank)))
