"""Naming the opening rank (Barbu's domino, ``start_rank: named``): before play the declarer
names the rank that opens every row of the layout — one he need not hold."""

from __future__ import annotations

from typing import Optional

from ..cards import RANK_NAMES
from ..i18n import N_, tr
from ..interpreter import naming
from ..interpreter.actions import is_rank_name, name_rank, named_rank
from ..interpreter.phasekit.records import BetsSection
from ..interpreter.phases import EXPECTED, Phase


def named_opening(hand: int, legal) -> int:
    """The rank a layout's first player names to open the rows (``legal``: the rank names): the
    one of which he holds most cards (he opens those rows), then the one nearest the middle."""

    def score(a: int) -> tuple:
        r = named_rank(a)
        return sum(1 for s in range(4) if hand >> (s * 13 + r) & 1), -abs(r - 5)

    return max(legal, key=score)


#: Rank words a person may type besides the rank's name (``T`` for ``10``).
_RANK_WORDS = {"T": "10"}


class Naming(BetsSection):
    name = "name"
    engine_half = naming
    fields: tuple = ()  # the named rank is shown by the layout's panel (``opening_rank``)
    expected = EXPECTED[Phase.NAME]
    task = N_("name the rank that opens every row")
    prompt_word = N_("rank")
    numbered = False  # "7" typed is the rank 7, not the seventh choice
    hint = N_("Type a rank from the list, such as 7 or K.")

    def owns(self, action: int) -> bool:
        return is_rank_name(action)

    def label(self, view, action: int, rules=None) -> str:
        return RANK_NAMES[named_rank(action)]

    def word(self, view, text: str, rules=None) -> Optional[int]:
        t = text.upper()
        t = _RANK_WORDS.get(t, t)
        return name_rank(RANK_NAMES.index(t)) if t in RANK_NAMES else None

    def menu(self, view, rules=None) -> list:
        """The ranks, unnumbered: a number typed is a rank (``7``), not a place on a list."""
        return [tr("Ranks: ") + " ".join(self.label(view, a, rules) for a in view.legal)]

    def advice(self, view, rules=None) -> list:
        return [tr("Name the rank that opens every row (you need not hold it).")]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The rank of which the seat holds most cards (``named_opening``)."""
        return named_opening(view.hand, view.legal)


UNIT = Naming()
