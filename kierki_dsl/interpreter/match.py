"""A whole match: the schedule, dealer rotation, shuffling, dealing, and players' turns.

Randomness comes only from ``random.Random(seed)`` through ``getrandbits``, whose output is
fixed across platforms and Python versions, so a seed gives the same match everywhere.
"""
from __future__ import annotations

import random
from itertools import repeat, starmap
from typing import Callable, Iterator, Optional, Sequence

from ..cards import bits
from ..values import frozen
from .actions import IllegalAction, action_str
from .phases import Phase


def draw(rng: random.Random, n: int) -> int:
    """A number in ``range(n)`` from 32 random bits (platform-independent)."""
    return (rng.getrandbits(32) * n) >> 32


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
    first: int = -1  # the seat that played the deal's first card (or passed first in a layout)
    blocked: bool = False  # a layout deal that ended because nobody could play


class MatchRunner:
    """Plays a ruleset's schedule with the given players (one per seat)."""

    def __init__(self, ruleset, players: Sequence, seed: int, script: Optional[Sequence] = None,
                 on_action: Optional[Callable] = None):
        """``script``: actions to replay before players are asked (resuming a saved match);
        ``on_action(deal_index, seat, action)`` is called after every action (saving)."""
        self.ruleset = ruleset
        self.script = list(script or [])
        self.on_action = on_action
        self.replayed = 0
        self.players = list(players)
        self.seed = seed
        self.rng = random.Random(seed)
        n = ruleset.players
        fd = ruleset.first_dealer
        self.first_dealer = fd if fd is not None else draw(self.rng, n)
        for i, p in enumerate(self.players):
            p.reset(seed * 16 + i + 1 if seed >= 0 else i + 1, i, ruleset)
        self.totals = [0] * n
        self.chosen: dict = {}  # (choice slot, chooser) -> contract names already chosen

    def _pick(self, slot, dealer: int, dealt):
        """The chooser's decision in a declarer's-choice deal, as ``Choice.resolve`` asks it."""
        from .actions import CHOOSE_BASE

        def pick(chooser: int, allowed: list) -> int:
            hand = sum(1 << c for c in dealt[chooser])
            view = slot.view(chooser, hand, dealer, self.ruleset.players, allowed, self.totals)
            action = self._decide(chooser, view)
            self._done(chooser, action)
            return action - CHOOSE_BASE

        return pick

    def _decide(self, seat: int, view) -> int:
        if self.replayed < len(self.script):
            action = self.script[self.replayed]
            self.replayed += 1
            return action
        return self.players[seat].act(view)

    def _done(self, seat: int, action: int) -> None:
        if self.on_action is not None and self.replayed >= len(self.script):
            self.on_action(self.deal_index, seat, action)

    @property
    def resuming(self) -> bool:
        """True while actions of the script are still being replayed."""
        return self.replayed < len(self.script)

    def deals(self) -> Iterator[DealResult]:
        rs = self.ruleset
        n = rs.players
        k = -1
        while not rs.match_over(k + 1, self.totals):
            k += 1
            self.deal_index = k
            slot = rs.contract_at(k)
            dealer = rs.dealer_of(self.first_dealer, k)
            order = shuffled(self.rng, rs.deck)
            dealt = deal_out(order, dealer, n, rs.direction)
            masks = [sum(1 << c for c in d) for d in dealt]
            contract = slot.resolve(dealer, n, masks, rs.deck, self.chosen, self._pick(slot, dealer, dealt))
            state = contract.new_deal(n, rs.deck, dealer, dealt, rs.direction, k + 1)
            first = -1
            while not state.is_terminal():
                seat = state.current_player()
                scripted = self.resuming
                view = state.view(seat)
                if first < 0 and view.phase == Phase.PLAY:
                    first = seat
                action = self._decide(seat, view)
                try:
                    state.apply_action(action)
                except IllegalAction as e:
                    if scripted:
                        raise MatchError(f"deal {k + 1}: saved action {action_str(action)} of seat {seat} is illegal: {e.reason}") from None
                    raise
                self._done(seat, action)
            scores = state.returns()
            self.totals = [t + s for t, s in zip(self.totals, scores)]
            yield DealResult(
                number=k + 1,
                contract=contract,
                dealer=dealer,
                dealt=tuple(tuple(d) for d in dealt),
                trump=state.trump,
                caller=state.caller,
                plays=tuple(state.record_plays()),
                scores=tuple(scores),
                totals=tuple(self.totals),
                ended_early=getattr(state, "ended_early", False),
                passes=_passes(state),
                bets=tuple(state.record_bets()) if hasattr(state, "record_bets") else (),
                wagers=state.betting.public() if getattr(state, "betting", None) is not None else (),
                first=first,
                blocked=getattr(state, "blocked", False),
            )


def _passes(state) -> Optional[tuple]:
    record = getattr(state, "record_passes", None)
    got = record() if record else None
    return tuple(tuple(p) for p in got) if got else None
