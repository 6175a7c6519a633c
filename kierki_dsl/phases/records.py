"""The record sections several phases share (see the record hooks of ``base.PhaseUnit``).

- ``plays``: the cards played, in order (trick play; layout play writes ``pass`` where a seat
  passes), located by trick or turn;
- ``bets``: the side declarations before play, in the order they were made: the doubling
  round's doubles and redoubles, exposures, a layout's named opening rank, and ``done``.
"""

from __future__ import annotations

from typing import Optional

from ..cards import CardError
from ..diagnostics import quoted
from ..interpreter.actions import parse_action, parse_bet
from .base import PhaseUnit


class PlaysSection(PhaseUnit):
    """A phase whose actions a record keeps under ``plays`` (written with the deal's head)."""

    record_key = "plays"
    record_by_trick = True
    record_example = '["QS", "2C"]'

    def record_section(self, result) -> Optional[list]:
        return None  # the head of every deal's record holds ``plays``

    def record_lanes(self, section, players: int) -> tuple:
        if not isinstance(section, list):
            return None, "'plays' must be a list of cards"
        return {None: section}, None

    def record_action(self, entry) -> int:
        try:
            return parse_action(str(entry))
        except CardError as e:
            raise ValueError(str(e)) from None

    def record_short(self, deal, seat: int, entries: list) -> str:
        return "the record ends before the deal is over"

    def record_extra(self, entries: list, taken: int) -> str:
        return f"the deal is over after {taken} plays but the record has {len(entries)}"

    def record_absent(self, section, contract: str, number: int) -> Optional[str]:
        return self.record_extra(section, 0) if section else None


class BetsSection(PhaseUnit):
    """A phase whose actions a record keeps under ``bets``, one list shared with the other
    side declarations, in the order they were made."""

    record_key = "bets"
    record_rank = 20
    record_example = '["double:1", "done"]'

    def record_section(self, result) -> Optional[list]:
        return list(result.bets)

    def record_action(self, entry) -> int:
        action = parse_bet(str(entry))
        if action is None:
            raise ValueError(
                f"bets: {quoted(entry)} is not a bet (double:SEAT, redouble:SEAT, expose:CARD, rank:RANK or done)"
            )
        return action

    def record_shown(self, entry) -> str:
        return f"bet {entry}"

    def record_short(self, deal, seat: int, entries: list) -> str:
        return "the record's bets end before the side declarations are over"

    def record_extra(self, entries: list, taken: int) -> str:
        return f"the side declarations are over but the record's bets have more: {quoted(entries[taken])}"

    def record_absent(self, section, contract: str, number: int) -> Optional[str]:
        if not section:
            return None
        return f"the record has 'bets' but deal {number} ({contract}) has no doubling, exposures or named rank"
