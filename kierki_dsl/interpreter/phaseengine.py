"""What a phase before play does to a deal: one protocol for the shipped phases and the
phases added by a module.

A deal is a list of phases (a trick deal's ``phaselist.phase_list``; a layout's, a declarer's
choice's: ``phasesteps``): the phases before play, in the order play reaches them, then the deal
type's play itself. Each phase before play is a ``PhaseEngine``; the deal steps the list
(``phasesteps.PhaseSteps``) without knowing which phase is which:

- ``at_deal(deal)``: what the phase sets in a new deal before any phase starts;
- ``start(deal)``: the phase begins (its state set up in the deal); the seat on turn, or -1 when
  it has nothing to decide in this deal;
- ``legal(deal)``, ``reason(deal, action)`` (None: legal), ``apply(deal, action)`` (the action,
  legal, recorded in ``deal.actions`` already): the seat on turn next, or -1 when it is over;
- ``ends_unplayed(deal)``: once it is over, whether the deal ends without play (its scores set);
- ``copy(deal, other)``: its state copied into a clone; ``from_view(deal, view)``: its state as a
  seat's view tells it (search rebuilds deals from views); ``resume(deal, view)``: True when a
  deal rebuilt from a view in this phase goes on deciding it (else the rebuilt deal plays);
- ``settle_before(deal)`` / ``settle_after(deal)``: what it changes in the scores at the deal's
  end, before or after the seats' scoring; ``remember(deal, memory)``: what later deals must know;
- ``view_reason(view, action)``: why an action is illegal, from a seat's view alone;
  ``view_name(view, action)``: how such a reason names a legal action (None: its notation);
- ``hand_seen(deal, seat)``, ``hides_passes``: what a seat's view shows while the phase decides
  (its own hand as it sees it; whether the cards passed before play are still unknown).

A shipped phase keeps its state in the deal's own fields (``deal.auction``, ``deal.betting``,
``deal.exposures``, ``deal.passes``...), which views and records read; a phase added by a module
keeps its unit's state in ``deal.added`` and answers through the unit's engine hooks
(``phasekit/base.PhaseUnit.engine_*``): ``AddedEngine`` below.
"""

from __future__ import annotations

from typing import Any, Optional

from ..i18n import R_
from .phases import EXPECTED

#: The words of a phase that expects something no message names.
ANOTHER = R_("another action is expected")


class PhaseEngine:
    """A phase before play, as a deal steps it. Subclasses override what differs."""

    #: The deal's phase while this one decides (a ``Phase``, or an added phase's ``Added`` name).
    phase: Any = None

    def __init__(self, rule) -> None:
        self.rule = rule  # the contract's rule for the phase (``contract.passing``, ``contract.auction``...)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.phase}>"

    @property
    def expected(self) -> str:
        """What the phase expects, in words (a message about an action out of place)."""
        return EXPECTED.get(self.phase, ANOTHER)

    # -- stepping ------------------------------------------------------------------------------
    def at_deal(self, deal) -> None:
        """What the phase sets in a new deal, before any phase starts."""

    def start(self, deal) -> int:
        """Begin the phase in ``deal``: the seat on turn, or -1 (nothing to decide)."""
        return -1

    def legal(self, deal) -> list:
        """The legal actions of the seat on turn, in ascending order."""
        return []

    def reason(self, deal, action: int) -> Optional[str]:
        """None if ``action`` is legal now, else the rule it breaks, in words."""
        return None if action in self.legal(deal) else self.expected

    def apply(self, deal, action: int) -> int:
        """Apply a legal action: the seat on turn next, or -1 (the phase is over)."""
        return -1

    def ends_unplayed(self, deal) -> bool:
        """With the phase over: whether the deal ends here without play (its scores set)."""
        return False

    # -- copies and rebuilt deals ---------------------------------------------------------------
    def copy(self, deal, other) -> None:
        """Copy the phase's state of ``deal`` into ``other``, a clone sharing its fields so far."""

    def from_view(self, deal, view) -> None:
        """Set the phase's state in ``deal``, rebuilt from ``view`` (its hands assumed)."""

    def resume(self, deal, view) -> bool:
        """Whether ``deal``, rebuilt from ``view`` in this phase, goes on deciding it (then its
        state is set to go on: ``deal.to_move`` the view's seat on turn); False: it plays."""
        return False

    # -- the deal's end -------------------------------------------------------------------------
    def settle_before(self, deal) -> None:
        """At the deal's end, before the seats' scoring: what the phase changes."""

    def settle_after(self, deal) -> None:
        """At the deal's end, after the seats' scoring: what the phase changes in ``deal.scores``
        (the phases settle last first: an exposure's cost is paid before the bets on the scores)."""

    def remember(self, deal, memory) -> None:
        """Once the deal is over: what later deals must know, counted into the match's memory."""

    # -- reasons from a view --------------------------------------------------------------------
    def view_reason(self, view, action: int) -> Optional[str]:
        """Why ``action`` is illegal, from a seat's view in this phase (None: list the legal actions)."""
        return None

    def view_name(self, view, action: int) -> Optional[str]:
        """How a reason listing the legal actions names ``action`` of a seat's view in this phase
        (None: its record notation)."""
        return None

    # -- the seat view while the phase decides -----------------------------------------------
    #: Whether the cards passed before play stay unknown while this phase decides (passing's own
    #: round: no seat has received any yet), so the view's passing part shows none.
    hides_passes = False

    def hand_seen(self, deal, seat: int) -> int:
        """What ``seat``'s view shows of its own hand while this phase decides (a mask; by default
        the hand as it stands)."""
        return deal.hands[seat]


class RoundEngine(PhaseEngine):
    """A phase that is a round of turns kept in one field of the deal (``field``: the auction's
    ``AuctionRound``, the doubling's ``BettingRound``, the exposures' ``ExposureRound``), which says
    whose turn it is (``seat``, -1 once over), what is legal and why not, and applies an action."""

    field = ""

    def legal(self, deal) -> list:
        return getattr(deal, self.field).legal()

    def reason(self, deal, action: int) -> Optional[str]:
        return getattr(deal, self.field).why_illegal(action)

    def apply(self, deal, action: int) -> int:
        rnd = getattr(deal, self.field)
        rnd.apply(action)
        return rnd.seat


class AddedEngine(PhaseEngine):
    """A phase added by a module (``extensions``), stepped through its unit's engine hooks; its
    state is ``deal.added[index][1]`` (``deal.added`` holds [unit, state] of every added phase of
    the contract, in order: the seat view's parts read it)."""

    def __init__(self, unit, rule, index: int) -> None:
        super().__init__(rule)
        self.unit = unit
        self.index = index
        self.phase = unit.phase

    @property
    def expected(self) -> str:
        return self.unit.expected or ANOTHER

    def _entry(self, deal) -> list:
        if deal.added is None:
            deal.added = [[unit, None] for unit, _ in deal.contract.added]
        return deal.added[self.index]

    def _state(self, deal):
        return deal.added[self.index][1] if deal.added is not None else None

    def start(self, deal) -> int:
        entry = self._entry(deal)
        entry[1] = self.unit.engine_start(self.rule, deal)
        return -1 if entry[1] is None else self.unit.engine_seat(entry[1])

    def legal(self, deal) -> list:
        return self.unit.engine_legal(self._state(deal), deal)

    def reason(self, deal, action: int) -> Optional[str]:
        return self.unit.engine_reason(self._state(deal), deal, action)

    def apply(self, deal, action: int) -> int:
        state = self._state(deal)
        self.unit.engine_apply(state, deal, action)
        return self.unit.engine_seat(state)

    def copy(self, deal, other) -> None:
        state = self._state(deal)
        if state is not None:
            other.added[self.index] = [self.unit, self.unit.engine_copy(state)]

    def from_view(self, deal, view) -> None:
        self._entry(deal)[1] = self.unit.engine_from_view(self.rule, view)

    def settle_before(self, deal) -> None:
        state = self._state(deal)
        if state is not None:
            self.unit.engine_settle(state, deal)

    def view_reason(self, view, action: int) -> Optional[str]:
        return self.unit.view_reason(view, action, self.rule)


__all__ = ["ANOTHER", "AddedEngine", "PhaseEngine", "RoundEngine"]
