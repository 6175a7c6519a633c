"""A rank order given by the data (``deck.order``): which rank beats which in a trick.

Cards keep their ids and names (``suit * 13 + rank``, ranks ``2 .. A``): records, the SIK
codec and every display are unchanged. Only the comparisons that decide a trick (and rank
comparisons in expressions) read a contract's ``order``: a tuple giving each rank id 0..12
its strength, higher beating lower, or ``None`` for the usual order (2 low, A high), in which
case the kernels compare bits as they always did.
"""

from __future__ import annotations

from typing import Optional, Sequence

from .cards import SUIT_MASK, bits

#: The usual order: a rank's strength is its id.
NATURAL = tuple(range(13))


def strength_of(order_high_first: Sequence[int]) -> Optional[tuple]:
    """The strength tuple of an order written strongest first (rank ids), or None when it is
    the usual order. Ranks left out (not in the deck) rank below every listed one."""
    listed = list(order_high_first)
    strength = [0] * 13
    unlisted = [r for r in range(13) if r not in listed]
    for place, r in enumerate(unlisted + listed[::-1]):
        strength[r] = place
    got = tuple(strength)
    return None if _same_as_natural(listed) else got


def _same_as_natural(listed: list) -> bool:
    """Whether the listed ranks are in the usual order (then nothing needs remapping)."""
    return listed == sorted(listed, reverse=True)


def highest(mask: int, order: Optional[tuple]) -> int:
    """The strongest card of a non-empty mask of one suit."""
    if order is None:
        return mask.bit_length() - 1
    return max(bits(mask), key=lambda c: order[c % 13])


def highest_of_suit(mask: int, suit: int, order: Optional[tuple]) -> int:
    """The strongest card of ``suit`` in ``mask`` (which must hold one)."""
    return highest(mask & SUIT_MASK[suit], order)


_NATURAL_KEY = tuple(c % 13 for c in range(52)).__getitem__


def rank_key(order: Optional[tuple]):
    """``key(card) -> strength`` for sorting cards of one suit weakest first (a table lookup)."""
    if order is None:
        return _NATURAL_KEY
    return tuple(order[c % 13] for c in range(52)).__getitem__
