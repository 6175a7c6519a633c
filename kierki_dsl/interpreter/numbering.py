"""How a phase declares its action numbers: blocks of consecutive numbers, one phase's each.

Every shipped phase declares its blocks beside its engine (``bidding.NUMBERS``,
``doubling.NUMBERS`` ...); ``actions`` assembles them into one table and refuses two blocks
that overlap. A phase added by a module gets its block from ``reserve``, within ``ADDED``. A number several phases take (a card, the auction's ``pass`` a layout's player
says too, the doubling round's ``done`` that ends exposures, a bid that Tysiąc's raise names)
is declared once, by the phase that numbers it, and the others import it.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..values import frozen


@frozen
class Block:
    """``size`` action numbers from ``base``, numbered by phase ``phase`` (a ``phases`` unit's
    name); ``what`` says what they stand for."""

    phase: str
    base: int
    size: int
    what: str = ""

    @property
    def end(self) -> int:
        """One past the block's last number."""
        return self.base + self.size

    def holds(self, action: int) -> bool:
        """Whether ``action`` is a number of this block."""
        return self.base <= action < self.end


def assemble(*blocks: Block) -> tuple:
    """The blocks by their first number; ``ValueError`` naming both when two overlap."""
    ordered = tuple(sorted(blocks, key=lambda b: b.base))
    for low, high in zip(ordered, ordered[1:]):
        if high.base < low.end:
            raise ValueError(
                f"action numbers {high.base}..{low.end - 1} are claimed by {low.phase} ({low.what}) "
                f"and by {high.phase} ({high.what})"
            )
    return ordered


#: The numbers handed out to phases added by a module (``reserve``), a block each.
ADDED = Block("added", 500, 400, "the blocks of phases added by a module")
ADDED_BASE, ADDED_END = ADDED.base, ADDED.end
#: The blocks of action numbers handed out to added phases: owner name -> (base, width, owner).
#: An owner has ``notation(action)`` (its record notation, ``name:...``) and ``read_notation(text)``.
BLOCKS: dict = {}


def reserve(owner) -> int:
    """The first action number of ``owner``'s block of ``owner.action_width`` numbers: handed out
    once per owner name, within ``ADDED`` (so below every shipped phase's bids), the same block again when
    the owner is registered again. ``ValueError`` when no room is left."""
    got = BLOCKS.get(owner.name)
    if got is not None and got[1] == owner.action_width:
        BLOCKS[owner.name] = (got[0], got[1], owner)
        return got[0]
    start = max((b + w for b, w, _ in BLOCKS.values()), default=ADDED_BASE)
    if start + owner.action_width > ADDED_END:
        raise ValueError(f"no room for {owner.action_width} more action numbers of phase {owner.name!r}")
    BLOCKS[owner.name] = (start, owner.action_width, owner)
    return start


def read_tagged(text: str, tag: str, longest: int, read: Callable[[str], int]) -> Optional[int]:
    """``read(rest)`` of a notation ``tag:rest`` (read in lower case, at most ``longest``
    characters), or None: another text, or one ``read`` refuses (``ValueError``)."""
    t = text.strip().lower()
    if not t.startswith(tag + ":") or len(t) > longest:
        return None
    try:
        return read(t[len(tag) + 1 :])
    except ValueError:
        return None


def block_owner(action: int):
    """The added phase whose block holds ``action``, or None."""
    if ADDED_BASE <= action < ADDED_END:
        for base, width, owner in BLOCKS.values():
            if base <= action < base + width:
                return owner
    return None


class IllegalAction(Exception):
    """An action that the rules do not allow now; ``reason`` says which rule."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
