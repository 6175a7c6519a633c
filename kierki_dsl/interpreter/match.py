"""A whole match: the schedule, dealer rotation, shuffling, dealing, and players' turns.

Randomness comes only from ``random.Random(seed)`` through ``getrandbits``, whose output is
fixed across platforms and Python versions, so a seed gives the same match everywhere.
"""

from __future__ import annotations

import random
from itertools import repeat, starmap
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Sequence

import attrs

from ..cards import bits
from ..values import frozen
from . import matchvalues
from .actions import IllegalAction, action_str
from .draws import draw  # the protocol's draw, where matches have always taken it
from .fairplay import exact_action, seat_player
from .phases import Phase

if TYPE_CHECKING:
    from .protocol import CompiledContract, DealState


def shuffled(rng: random.Random, deck: int) -> list[int]:
    """The deck's cards in a random order: sorted by one random float each.

    ``random()`` gives the same 53-bit floats from the same seed on every platform, and the
    sort is stable, so the order is reproducible everywhere (and faster than swapping).
    """
    cards = list(bits(deck))
    keys = [rng.random() for _ in cards]
    return [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]


def deal_masks(rng: random.Random, cards: list, dealer: int, players: int, direction: int = 1) -> list[int]:
    """``deal_out(shuffled(...))`` as 52-bit hand masks, for simulation (same cards, same seats):
    the j-th card of every round of dealing goes to seat dealer + direction * (1 + j)."""
    keys = list(starmap(rng.random, repeat((), len(cards))))
    order = sorted(range(len(cards)), key=keys.__getitem__)
    bit = [1 << c for c in cards].__getitem__ if len(cards) != 52 else _BIT52.__getitem__
    hands = [0] * players
    for j in range(players):
        hands[(dealer + direction * (1 + j)) % players] = sum(map(bit, order[j::players]))
    return hands


_BIT52 = tuple(1 << c for c in range(52))


def deal_out(order: Sequence[int], dealer: int, players: int, direction: int = 1) -> list[list[int]]:
    """One card at a time, starting left of the dealer: card i goes to seat dealer + 1 + i."""
    dealt: list[list[int]] = [[] for _ in range(players)]
    for i, c in enumerate(order):
        dealt[(dealer + direction * (1 + i)) % players].append(c)
    return dealt


def dealer_of(first_dealer: int, k: int, players: int, direction: int = 1) -> int:
    """The dealer of the k-th turn of dealing (0-based): the deal passes on to the next seat."""
    return (first_dealer + direction * k) % players


def first_to_play(state, first: int) -> int:
    """The seat that plays a deal's first card (or passes first in a layout), ``first`` once it is
    known (-1 before): the seat on turn when the deal's play has begun."""
    return state.current_player() if first < 0 and state.phase == Phase.PLAY else first


class MatchError(Exception):
    """A match that cannot go on (e.g. a chooser with nothing left to choose)."""


@frozen
class DealResult:
    """The outcome of one deal, everything a record needs."""

    number: int  # 1-based
    contract: object
    dealer: int
    dealt: tuple  # cards per seat, in the order dealt
    trump: int  # -1 none
    caller: int  # -1 none
    plays: tuple  # record notation, "pass" in layout deals
    scores: tuple
    totals: tuple  # running totals after this deal
    ended_early: bool = False
    passes: Optional[tuple] = None  # cards each seat passed, when the contract passes cards
    bets: tuple = ()  # the doubling round's actions in order ("double:1", "done", ...)
    wagers: tuple = ()  # the bets made: (doubler, target, 2 if redoubled else 1)
    auction: tuple = ()  # the auction's bids and passes in order ("bid:120", "pass", ...)
    bid: int = 0  # the winning bid (0 without an auction)
    bidder: int = -1  # who won the auction
    exchange: tuple = ()  # the cards a widow's taker gave or laid aside, in order ("QS", ...)
    first: int = -1  # the seat that played the deal's first card (or passed first in a layout)
    blocked: bool = False  # a layout deal that ended because nobody could play
    added: tuple = ()  # the actions of phases added by a module, in their notation ("face_down:KH", ...)


@frozen
class FixedDeal:
    """A deal whose cards are given (a match file, a duplicate tournament): the contract, the
    dealer and each seat's cards in the order dealt. ``label`` names the deal in its source
    (e.g. the SIK deal type digit)."""

    contract: CompiledContract
    dealer: int
    dealt: tuple
    label: str = ""


class Match:
    """A whole match as a state machine: whose turn it is, what each seat may see, and one
    action at a time. ``MatchRunner`` and the table server (``kierki_dsl.table``) both drive it.

    ``deals``: fixed deals to play instead of the ruleset's schedule with shuffled cards.
    """

    def __init__(self, ruleset, seed: int, deals: Optional[Sequence[FixedDeal]] = None):
        self.ruleset = ruleset
        self.seed = seed
        self.fixed = list(deals) if deals is not None else None
        self.rng = random.Random(seed)
        n = ruleset.players
        fd = ruleset.first_dealer
        if self.fixed:
            self.first_dealer = self.fixed[0].dealer
        else:
            self.first_dealer = fd if fd is not None else draw(self.rng, n)
        self.totals = [0] * n
        self.chosen: dict = {}  # (choice slot, chooser) -> contract names already chosen
        self.deal_index = -1
        self.state: Optional[DealState] = None  # the deal in progress (or a pending declarer's choice)
        self.dealer = -1
        self.dealt: list = []
        self.first = -1
        self.failed: Optional[Exception] = None  # why the first deal could not start (raised by ``over``)
        try:
            self._next_deal()
        except Exception as e:  # a rule error in the first deal: reported where the match is driven
            self.failed = e

    # -- queries -------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the last deal has been played; raises the error that stopped the first deal
        from starting (a located rule error), so a driver reports it like any other."""
        if self.failed is not None:
            raise self.failed
        return self.state is None

    def to_move(self) -> int:
        """The seat that acts next (-1 when the match is over)."""
        return -1 if self.state is None else self.state.current_player()

    def view(self, seat: int):
        """What ``seat`` may see now; its ``ply`` counts every action of the deal, the declarer's
        choice made before the chosen contract's deal began included."""
        state = self.state
        assert state is not None  # asked while the match is on
        view = state.view(seat)
        return attrs.evolve(view, ply=view.ply + self.chosen_plies) if self.chosen_plies else view

    @property
    def label(self) -> str:
        """The current deal's label in its source (fixed deals), else ''."""
        return self.fixed[self.deal_index].label if self.fixed else ""

    # -- acting --------------------------------------------------------------------------------
    def apply(self, action: int) -> Optional[DealResult]:
        """Apply the next action (``IllegalAction`` if the rules forbid it, nothing changed);
        returns the deal's result when this action finished a deal. Only an exact ``int`` is an
        action (``fairplay.exact_action``): every driver's actions pass here."""
        state = self.state
        if state is None:
            raise IllegalAction("the match is over")
        action = exact_action(action)
        first = first_to_play(state, self.first)
        state.apply_action(action)
        self.first = first
        chosen = state.current_deal()  # a declarer's choice hands on to the chosen deal
        if chosen is not state:
            self.chosen_plies += 1
        state = self.state = chosen
        if not state.is_terminal():
            return None
        state.remember(self.chosen)  # what later deals must know (a duty to double)
        result = self._result(state)
        try:
            self._next_deal()
        except Exception as e:  # the next deal cannot start (a chooser with nothing left, a rule error)
            # the deal that did finish is kept: callers report it first (reading it with getattr)
            e.finished_deal = result  # type: ignore[attr-defined]  # an attribute added to any exception
            raise
        return result

    # -- deals ---------------------------------------------------------------------------------
    def _finished(self) -> bool:
        k = self.deal_index + 1
        if self.fixed is not None:
            return k >= len(self.fixed)
        return self.ruleset.match_over(k, self.totals)

    def _next_deal(self) -> None:
        if self._finished():
            self.state = None
            return
        self.deal_index += 1
        self.first = -1  # the seat that plays the deal's first card, once it has
        k = self.deal_index
        rs = self.ruleset
        if self.fixed is not None:
            fixed = self.fixed[k]
            contract, self.dealer, self.dealt = fixed.contract, fixed.dealer, [list(d) for d in fixed.dealt]
        else:
            contract = rs.contract_at(k)
            self.dealer = rs.dealer_of(self.first_dealer, k)
            self.dealt = deal_out(shuffled(self.rng, rs.deck), self.dealer, rs.players, rs.direction)
            if k == 0 and rs.first_dealer_expr is not None:  # e.g. the holder of 7H owns the first deal
                self.first_dealer = self.dealer = rs.first_dealer_from(
                    [sum(1 << c for c in d) for d in self.dealt], self.dealer
                )
        self.chosen_plies = 0
        matchvalues.note(self.chosen, self.totals, k)
        self.state = contract.new_deal(
            rs.players, rs.deck, self.dealer, self.dealt, rs.direction, self.deal_index + 1, memory=self.chosen
        )

    def _result(self, state) -> DealResult:
        scores = state.returns()
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        return DealResult(
            number=self.deal_index + 1,
            contract=state.contract,
            dealer=self.dealer,
            dealt=tuple(tuple(d) for d in self.dealt),
            trump=state.record_trump(),
            caller=state.caller,
            plays=tuple(state.record_plays()),
            scores=tuple(scores),
            totals=tuple(self.totals),
            ended_early=state.ended_early,
            passes=_passes(state),
            bets=tuple(state.record_bets()),
            wagers=state.betting.public() if state.betting is not None else (),
            auction=tuple(state.record_auction()),
            exchange=tuple(state.record_exchange()),
            bid=state.bid,
            bidder=state.bidder,
            first=self.first,
            blocked=state.blocked,
            added=tuple(state.record_added()),
        )


class MatchRunner:
    """Plays a match with the given players (one per seat): a loop over ``Match``."""

    def __init__(
        self,
        ruleset,
        players: Sequence,
        seed: int,
        script: Optional[Sequence] = None,
        on_action: Optional[Callable] = None,
        deals: Optional[Sequence[FixedDeal]] = None,
    ):
        """``script``: actions to replay before players are asked (resuming a saved match);
        ``on_action(deal_index, seat, action)`` is called after every new action (saving);
        ``deals``: fixed deals instead of the schedule's shuffled ones."""
        self.ruleset = ruleset
        self.script = list(script or [])
        self.on_action = on_action
        self.replayed = 0
        self.players = list(players)
        self.seed = seed
        self.match = Match(ruleset, seed, deals)
        self.first_dealer = self.match.first_dealer
        for i, p in enumerate(self.players):
            seat_player(p, seed, i, ruleset)

    @property
    def totals(self) -> list:
        return self.match.totals

    @property
    def resuming(self) -> bool:
        """True while actions of the script are still being replayed."""
        return self.replayed < len(self.script)

    def _decide(self, seat: int) -> int:
        if self.resuming:
            action = self.script[self.replayed]
            self.replayed += 1
            return action
        return self.players[seat].act(self.match.view(seat))

    def deals(self) -> Iterator[DealResult]:
        m = self.match
        while not m.over:
            seat = m.to_move()
            scripted = self.resuming  # decided before the counter moves (issue 15)
            action = self._decide(seat)
            k = m.deal_index
            try:
                result = m.apply(action)
            except IllegalAction as e:
                if scripted:
                    raise MatchError(
                        f"deal {k + 1}: saved action {action_str(action)} of seat {seat} is illegal: {e.reason}"
                    ) from None
                raise
            except Exception as e:
                finished = getattr(e, "finished_deal", None)
                if finished is None:
                    raise
                if self.on_action is not None and not scripted:
                    self.on_action(k, seat, action)
                yield finished  # the deal this action finished, before the error that stops the match
                raise
            if self.on_action is not None and not scripted:
                self.on_action(k, seat, action)
            if result is not None:
                yield result


def _passes(state) -> Optional[tuple]:
    got = state.record_passes()
    return tuple(tuple(p) for p in got) if got else None
