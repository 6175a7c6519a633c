"""Whole deals of random play on the compiled step core (``_cstep.c``), for simulation.

``fastplay``'s kernels play a trick deal at random in Python; where the step core is built
and carries the contract (``stepper.carried``), a simulation's random deal is played by the
core instead — the same random protocol (``Core.random_playout``: passes drawn seat by seat, a lead
or a discard drawn among its legal cards, a follow only when there is a choice), so the same
seeds give the same plays and scores (tests/test_corefast.py holds the two to each other on
every carried shipped contract). The deal is set up from the hands as masks, with no dealing
order and no environment dicts: the first lead and seat scoring are read positionally.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..cards import bits
from . import stepper
from .actions import call
from .envs import seat_function
from .phases import Phase


def core_player(contract, players: int, tricks: int, deck: int) -> Optional[Callable]:
    """``play(dealer, hands, number, trump, caller, direction, grb) -> (scores, first leader,
    ended early)`` on the core for deals of ``contract`` (hands as masks, before any passing),
    or None when the core is not built or does not carry the contract."""
    if not stepper.available() or not stepper.carried(contract, players, tricks, deck):
        return None
    passing = contract.passing
    lead = seat_function(contract.first_lead, players, deck)
    Stepper = stepper.Stepper

    def play(dealer: int, hands: list, number: int, trump: int, caller: int, direction: int, grb, actions=None):
        compiled = stepper._compiled(contract, players, tricks, trump, deck)
        ctx = _MaskDeal(
            compiled, contract, players, deck, dealer, hands, direction, number, trump, caller, lead, tricks
        )
        offset = passing.offset(number, players) if passing else 0
        passes = passing.count * players if offset else 0
        core = Stepper(compiled.plan, ctx, hands, dealer, direction, passing.count if offset else 0, direction * offset)
        scores = core.random_playout(grb)
        if actions is not None:  # the passes, the trump called (set up before the core), then play
            taken = core.actions
            actions += taken[:passes] + ([call(trump)] if called else []) + taken[passes:]
        return scores, core.leader, core.ended_early

    called = contract.call is not None
    return play


def recorded_player(contract, players: int, tricks: int, deck: int) -> Callable:
    """``core_player``'s ``play`` with ``actions``, a list that receives every action of the deal
    in the order the interpreter takes them (for the deal's record, replayed on a ``Match``):
    on the core where it is built and carries the contract, else on the interpreter's own
    random play-out (``stepper.play_out``: the same draws, the trump called as drawn before)."""
    core = core_player(contract, players, tricks, deck)
    if core is not None:
        return core

    def play(dealer: int, hands: list, number: int, trump: int, caller: int, direction: int, grb, actions=None):
        deal = contract.new_deal(players, deck, dealer, [list(bits(h)) for h in hands], direction, number)
        scores = stepper.play_out(deal, grb, trump)
        if actions is not None:
            actions += deal.actions
        return scores, deal.leader, deal.ended_early

    return play


class _MaskDeal(stepper._Deal):
    """The Python side of a simulated deal: the hands kept as masks (turned into a dealing
    only if the interpreter must word an error), the first lead read positionally."""

    __slots__ = ("lead",)

    def __init__(
        self, compiled, contract, players, deck, dealer, hands, direction, number, trump, caller, lead, tricks
    ) -> None:
        # ``dealt`` holds the hands as masks; ``interpreter`` makes a dealing of them
        super().__init__(
            compiled, contract, players, deck, dealer, tuple(hands), direction, number, trump, caller, True, tricks
        )
        self.lead = lead

    def _begin(self, core) -> tuple:
        """Play starts (trumps are known): the first leader, after any passing."""
        return stepper.PLAY, self.lead(self.dealer, self.caller, core.hands), 0

    def interpreter(self, core):
        """The interpreter's deal in the core's position (to word a rule error): the hands
        dealt in card order, the actions replayed."""

        deal = self.contract.new_deal(
            self.players, self.deck, self.dealer, [list(bits(h)) for h in self.dealt], self.direction, self.number
        )
        for a in list(core.actions) + [None]:
            if deal.phase == Phase.CALL:  # the trump this deal was set up with (after any passing)
                deal.apply_action(call(self.trump))
            if a is not None:
                deal.apply_action(a)
        return deal


__all__ = ["core_player", "recorded_player"]
