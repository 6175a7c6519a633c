"""Naming a layout's opening rank (Barbu's domino, Fan Tan's ``start_rank: named``): before play
the declarer names the rank that opens every row of the layout — one he need not hold; nothing can
be laid until then.

The phase is this one module: its action numbers and their notation, its engine (``NameEngine``:
the naming as a layout deal steps it, ``phaseengine``) and its unit (``UNIT``: labels, typed
words, menu and bot hook).
"""

from __future__ import annotations

from typing import Optional

from ..cards import RANK_NAMES, CardError, card_str, parse_rank
from ..i18n import N_, R_, tr
from .numbering import Block, read_tagged
from .phaseengine import PhaseEngine
from .phasekit.records import BetsSection
from .phases import EXPECTED, Phase

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


# -- its engine: the naming as a layout deal steps it -------------------------------------------
class NameEngine(PhaseEngine):
    """The naming of the opening rank of a layout contract with ``named`` (``rule``: the contract);
    its state is the deal's rows (``layout.LayoutDeal.open_named``)."""

    phase = Phase.NAME

    def at_deal(self, deal) -> None:
        deal.frontier = 0  # no card fits before the rank is named

    def start(self, deal) -> int:
        return deal.to_move  # the first player names it

    def legal(self, deal) -> list:
        """Every rank of the deck, held or not."""
        return [name_rank(r) for r in range(13) if any(deal.deck >> (s * 13 + r) & 1 for s in range(4))]

    def reason(self, deal, action: int) -> Optional[str]:
        return None if action in self.legal(deal) else R_("a rank of the deck is to be named to open the rows")

    def apply(self, deal, action: int) -> int:
        deal.open_named(named_rank(action))
        return -1

    def resume(self, deal, view) -> bool:
        """A layout rebuilt while its rank is being named goes on naming it."""
        return True


# -- its unit: what a person and a bot see of it ------------------------------------------------
def named_opening(hand: int, legal) -> int:
    """The rank a layout's first player names to open the rows (``legal``: the rank names): the
    one of which he holds most cards (he opens those rows), then the one nearest the middle."""

    def score(a: int) -> tuple:
        r = named_rank(a)
        return sum(1 for s in range(4) if hand >> (s * 13 + r) & 1), -abs(r - 5)

    return max(legal, key=score)


class Naming(BetsSection):
    """The naming of the opening rank as a person and a bot see it: labels, typed words, menu and bot hook."""

    name = "name"
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
        """A rank as typed (``7``, ``10`` or ``t``, ``k``), read as its notation reads it."""
        try:
            return name_rank(parse_rank(text))
        except CardError:
            return None

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
