"""Match-scope values a deal's rules may read: ``match.total`` (the scored seat's running
total before this deal), ``match.highest_total``, ``match.lowest_total`` and
``match.deals_played``, in seat scoring (``per_seat``).

They live in the match's memory of earlier deals (the ``memory`` dict every match driver
hands to ``new_deal``, which also keeps a declarer's choices and the doubles owed): each driver
notes the running totals there before it starts a deal (``note``), and a deal reads them back
when it scores (``of``). A deal started without a match (a search from a seat's view, a lone
deal) reads every total as 0 and no deal played. A contract whose rules read them is played by
the interpreter only: the fast paths and the compiled core decline it (``reads_match``).
"""

from __future__ import annotations

from typing import Optional

from ..values import frozen

#: The key of the match-scope values in a match's memory of earlier deals.
KEY = "match"
#: The seat-scoring names that read the match, as environment keys.
NAMES = ("match.total", "match.highest_total", "match.lowest_total", "match.deals_played")


@frozen
class MatchValues:
    """The running totals before the deal and how many deals were finished."""

    totals: tuple
    deals_played: int = 0

    def of_seat(self, seat: int) -> tuple:
        """(match.total, match.highest_total, match.lowest_total, match.deals_played) for ``seat``."""
        t = self.totals
        return t[seat], max(t), min(t), self.deals_played


def note(memory: Optional[dict], totals, deals_played: int) -> None:
    """Keep the running ``totals`` before the next deal in the match's ``memory`` (if any): a
    set of one value, as every entry of that memory is a set (a match copies it with ``set``)."""
    if memory is not None:
        memory[KEY] = {MatchValues(tuple(totals), deals_played)}


def of(memory: Optional[dict], players: int) -> MatchValues:
    """The match-scope values a deal reads: those noted in ``memory``, else the start of a match."""
    got = memory.get(KEY) if memory else None
    return next(iter(got)) if got else MatchValues((0,) * players, 0)


def reads_match(compiled) -> bool:
    """Whether a compiled expression reads a match-scope value."""
    return any(k in compiled.free for k in NAMES)


__all__ = ["KEY", "NAMES", "MatchValues", "note", "of", "reads_match"]
