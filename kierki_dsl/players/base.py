"""The player interface, and the players shipped for now: ``random`` and ``simple``.

A player sees only a ``SeatView`` (its own hand, public plays, the trump and who called it,
the scores) and returns one of ``view.legal``. Writing one::

    class AlwaysLowest(Player):
        name = "lowest"

        def act(self, view):
            return min(view.legal)

Players are built by name through ``make_player`` (``--players random,simple,...``).
"""
from __future__ import annotations

import random

from ..cards import SUIT_MASK, bits, popcount
from ..interpreter.actions import PASS, call, is_call


class Player:
    """Base class: ``reset`` once per match with a seed, then ``act`` on every turn."""

    name = "player"

    def reset(self, seed: int, seat: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def choose_index(self, n: int) -> int:
        return (self.rng.getrandbits(32) * n) >> 32

    def act(self, view) -> int:  # pragma: no cover
        raise NotImplementedError


def call_by_length(cards) -> int:
    """Trump-call policy: the suit with most of the cards seen, then the highest ones."""
    best, best_key = 0, None
    for s in range(4):
        ranks = [c % 13 for c in cards if c // 13 == s]
        key = (len(ranks), sum(ranks), -s)
        if best_key is None or key > best_key:
            best, best_key = s, key
    return best


class RandomPlayer(Player):
    """Any legal action, uniformly at random (its own seeded stream)."""

    name = "random"

    def act(self, view) -> int:
        legal = view.legal
        return legal[self.choose_index(len(legal))] if len(legal) > 1 else legal[0]


class SimplePlayer(Player):
    """A rule-aware player: reads the contract's own scoring to duck penalties and win points.

    It values a trick by the ruleset's static scoring tables: in a deal where tricks and
    cards cost points it ducks under the winning card and throws its most expensive card
    when void; where tricks earn points it wins as cheaply as it can. It calls trumps by
    length. In layout deals it plays the card that frees most of its own cards.
    """

    name = "simple"

    def act(self, view) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == "choose":
            return legal[0]
        if is_call(legal[0]):
            suit = call_by_length(list(bits(view.hand)))
            return call(suit) if call(suit) in legal else legal[0]
        if view.layout is not None:
            return self._layout(view, legal)
        return self._trick(view, legal)

    def _values(self, view):
        c = view.contract
        trick_points, card_tables, _ = c.tables(view.tricks_total, view.trump, view.players)
        n = view.trick_number
        value = [0] * 52
        for m, pts in card_tables:
            p = pts[n]
            if p:
                for card in bits(m):
                    value[card] += p
        return trick_points[n], value

    def _trick(self, view, legal) -> int:
        trick_pts, value = self._values(view)
        positive = trick_pts > 0 or (trick_pts == 0 and all(v >= 0 for v in value) and any(value))
        if not view.trick:
            if positive:
                return max(legal, key=lambda c: (c % 13, -c))
            return min(legal, key=lambda c: (-value[c], c % 13, c))
        led = view.led_suit
        trump = view.trump
        win = _winning(view.trick, led, trump)

        def beats(c: int) -> bool:
            if trump >= 0 and c // 13 == trump and win // 13 != trump:
                return True
            return c // 13 == win // 13 and c % 13 > win % 13

        following = any(c // 13 == led for c in legal)
        if positive:
            winners = [c for c in legal if beats(c)]
            if winners:
                return min(winners, key=lambda c: (c % 13, c))
            return min(legal, key=lambda c: (c % 13, c))
        if following:
            losers = [c for c in legal if not beats(c)]
            if losers:
                return max(losers, key=lambda c: (c % 13, -value[c]))
            return max(legal, key=lambda c: (c % 13, -value[c]))
        # void: throw the most expensive card, then the highest
        return min(legal, key=lambda c: (value[c], -(c % 13), c))

    def _layout(self, view, legal) -> int:
        cards = [a for a in legal if a != PASS]
        if not cards:
            return PASS
        hand = view.hand

        def own_next(c: int) -> int:
            suit_cards = hand & SUIT_MASK[c // 13]
            return popcount(suit_cards)

        return max(cards, key=lambda c: (own_next(c), -c))


def _winning(trick, led: int, trump: int) -> int:
    best = None
    for _, c in trick:
        if best is None:
            best = c
            continue
        if trump >= 0 and c // 13 == trump and best // 13 != trump:
            best = c
        elif c // 13 == best // 13 and c > best:
            best = c
    return best


PLAYERS = {"random": RandomPlayer, "simple": SimplePlayer}


def make_player(name: str) -> Player:
    """A player by name; raises KeyError listing the known names."""
    try:
        return PLAYERS[name]()
    except KeyError:
        raise KeyError(f"unknown player {name!r} (known: {', '.join(PLAYERS)})") from None
