"""How a deal steps its list of phases: one stepper for every deal type.

A deal type is a list of phases before play (a ``PhaseList``, each a ``phaseengine.PhaseEngine``;
``phaselist.phase_list`` makes a trick contract's) and its own play: a trick deal (``trickstate.TrickDeal``, and the
stock-drawing deal built on it) plays tricks, a layout deal (``layout.LayoutDeal``) lays rows, a
declarer's choice (``choice.ChoiceDeal``) hands on to the chosen contract's deal. ``PhaseSteps``
steps the list the same way for all of them, without asking which phase is which; the deal
type says what its play is (``_start_play``) and keeps the list in ``steps``, the place of the
phase deciding now in ``_at`` (-1: none), the phase in ``phase`` and the seat on turn in ``to_move``.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .numbering import IllegalAction
from .phaseengine import PhaseEngine
from .phases import Phase

DONE = Phase.DONE


class PhaseList(tuple):
    """The engines of a contract's phases before play, in order (a tuple), and what the deal
    asks of them all at once. (Here, not in ``phaselist``, which imports the engines: a deal
    type whose engine those import, the declarer's choice, makes its list with it too.)"""

    def named(self, phase) -> int:
        """The place in the list of the phase called ``phase`` (-1: none; card play is not listed)."""
        for i, engine in enumerate(self):
            if engine.phase == phase:
                return i
        return -1

    def engine(self, phase) -> Optional[PhaseEngine]:
        """The engine of the phase called ``phase``, or None."""
        i = self.named(phase)
        return self[i] if i >= 0 else None


class PhaseSteps:
    """The stepping of a deal's phases before play (a base of every deal type's state; it has an
    instance dict, so a subclass with slots keeps its other fields there)."""

    # what the deal type's state holds (its own fields: ``TrickDeal`` keeps them in slots)
    steps: Any  # the list of its phases before play (a ``PhaseList``)
    _at: int  # the place in ``steps`` of the phase deciding now (-1: none, the deal type's play)
    phase: Any  # the phase deciding now (a ``Phase``, or an added phase's ``Added`` name)
    to_move: int  # the seat on turn (-1: nobody, the deal is over)
    actions: list  # every action applied, in order
    ended_early: bool

    #: Whether a deal that a phase ends unplayed (an undoubled deal that is split) records that it
    #: ended early: a trick deal does, a layout deal never did.
    UNPLAYED_ENDS_EARLY = True

    def _begin_steps(self, steps) -> None:
        """A new deal's phases before play: ``steps`` (its contract's list), what each sets in the
        deal, then the first with a seat on turn decides (or the deal type's play starts)."""
        self.steps, self._at = steps, -1
        for engine in steps:
            engine.at_deal(self)
        self._enter(0)

    def _copy_steps(self, other) -> None:
        """Each phase's state copied into ``other``, a clone sharing this deal's fields so far."""
        for engine in self.steps:
            engine.copy(self, other)

    def _enter(self, i: int) -> None:
        """The phases before play from the ``i``-th on: the first with a seat on turn decides;
        one with nothing to decide is over at once (and may end the deal unplayed); after the
        last, the deal type's play starts."""
        steps = self.steps
        while i < len(steps):
            engine = steps[i]
            seat = engine.start(self)
            if seat >= 0:
                self.phase, self.to_move, self._at = engine.phase, seat, i
                return
            if engine.ends_unplayed(self):
                self._end_unplayed()
                return
            i += 1
        self._start_play()

    def _start_play(self) -> None:  # pragma: no cover  (every deal type has its own play)
        """The deal type's own play begins (the list is over)."""
        raise NotImplementedError

    def _end_unplayed(self) -> None:
        """The deal ends without play (its scores set by the phase that ended it)."""
        self.phase, self.to_move = DONE, -1
        if self.UNPLAYED_ENDS_EARLY:
            self.ended_early = True

    def _log(self, action: int) -> None:
        """Note an action of a phase before play in the deal's actions."""
        self.actions.append(action)

    def _decide(self, action: int) -> None:
        """An action of the phase deciding: checked by its engine, applied, then the next seat
        of the phase, or the next phase."""
        engine = self.steps[self._at]
        reason = engine.reason(self, action)
        if reason is not None:
            raise IllegalAction(reason)
        self._log(action)
        seat = engine.apply(self, action)
        if seat >= 0:
            self.to_move = seat
        elif engine.ends_unplayed(self):
            self._end_unplayed()
        else:
            self._enter(self._at + 1)

    def _resume_steps(self, view) -> None:
        """A deal rebuilt from a seat's view: each phase's state set as the view tells it; in the
        phase the view is in when that phase goes on deciding (``PhaseEngine.resume``), else in play."""
        steps = self.steps
        for engine in steps:
            engine.from_view(self, view)
        at = steps.named(view.phase)
        if at >= 0 and steps[at].resume(self, view):
            self.phase, self._at = steps[at].phase, at

    def _settle_steps(self, score: Optional[Callable[[], None]] = None) -> None:
        """At the deal's end: each phase's changes before the seats' scoring, ``score()`` (the
        deal type's scoring, if any), then each phase's changes after it, the last phase first (an exposure's
        cost is paid before the bets on the scores)."""
        steps = self.steps
        for engine in steps:
            engine.settle_before(self)
        if score is not None:
            score()
        for engine in reversed(steps):
            engine.settle_after(self)

    def remember(self, memory) -> None:
        """Once the deal is over: count what later deals must know into the match's memory
        (the doubles of the dealer, for a duty to double)."""
        for engine in self.steps:
            engine.remember(self, memory)

    def play_from_start(self) -> None:
        """Start play (a state rebuilt from a betting view, its bets set): a deal that a phase
        ends unplayed (an undoubled deal that is split) ends here."""
        for engine in self.steps:
            if engine.ends_unplayed(self):
                self._end_unplayed()
                return
        self._start_play()


__all__ = ["PhaseList", "PhaseSteps"]
