"""The record sections several phases share (see the record hooks of ``base.PhaseUnit``).

- ``plays``: the cards played, in order (trick play; layout play writes ``pass`` where a seat
  passes), located by trick or turn;
- ``bets``: the side declarations before play, in the order they were made: the doubling
  round's doubles and redoubles, exposures, a layout's named opening rank, and ``done``.
"""

from __future__ import annotations

from typing import Optional

from ...cards import CardError
from ...diagnostics import quoted
from .base import PhaseUnit


class PlaysSection(PhaseUnit):
    """A phase whose actions a record keeps under ``plays`` (written with the deal's head)."""

    record_key = "plays"
    record_by_trick = True
    record_example = '["QS", "2C"]'
    record_error = ""
    record_short_text = "the record ends before the deal is over"
    record_extra_text = "the deal is over after {taken} plays but the record has {count}"
    record_absent_text = record_extra_text

    def record_section(self, result) -> Optional[list]:
        return None  # the head of every deal's record holds ``plays``

    def record_lanes(self, section, players: int) -> tuple:
        if not isinstance(section, list):
            return None, "'plays' must be a list of cards"
        return {None: section}, None

    def record_action(self, entry) -> int:
        try:
            from ..actions import parse_action  # (the action table is assembled from the phases' modules)

            return parse_action(str(entry))
        except CardError as e:
            raise ValueError(str(e)) from None


class BetsSection(PhaseUnit):
    """A phase whose actions a record keeps under ``bets``, one list shared with the other
    side declarations, in the order they were made."""

    record_key = "bets"
    record_rank = 20
    record_example = '["double:1", "done"]'
    record_shown_text = "bet {entry}"
    record_short_text = "the record's bets end before the side declarations are over"
    record_extra_text = "the side declarations are over but the record's bets have more: {entry}"
    record_absent_text = "the record has 'bets' but deal {deal} ({contract}) has no doubling, exposures or named rank"

    def record_section(self, result) -> Optional[list]:
        return list(result.bets)

    def record_action(self, entry) -> int:
        from ..actions import parse_bet  # (the action table is assembled from the phases' modules)

        action = parse_bet(str(entry))
        if action is None:
            raise ValueError(
                f"bets: {quoted(entry)} is not a bet (double:SEAT, redouble:SEAT, expose:CARD, rank:RANK or done)"
            )
        return action
