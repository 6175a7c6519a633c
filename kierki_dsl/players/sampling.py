"""Dealing the unseen cards at random to the seats that may hold them.

One kernel for every sampler (the search player's worlds, the adapters' resampling from an
information state): each card goes to a seat with room left that may hold it, the most
constrained cards first, a seat chosen with weight equal to its room left. ``below(k)`` draws
uniformly from ``range(k)``; ``draws(rng)`` makes one from a ``random.Random`` with a fixed
number of bits per draw, so a seed gives the same worlds on every machine and Python version.
With ``draws(rng)`` and the compiled step core built, the kernel runs in C
(``_cstep.deal_out``: the same draws, the same hands, held to this module's Python kernel by
tests/test_cstep.py).
"""

from __future__ import annotations

from typing import Callable, Optional

from ..interpreter import stepper

#: Most places (seats and a stock) the compiled kernel deals to; more go through Python.
MOST_PLACES = 16


class _Draws:
    """``below(k)``: an int in ``range(k)`` from 32 random bits of ``getrandbits``."""

    __slots__ = ("getrandbits",)

    def __init__(self, getrandbits) -> None:
        self.getrandbits = getrandbits

    def __call__(self, k: int) -> int:
        return (self.getrandbits(32) * k) >> 32


def draws(rng) -> Callable[[int], int]:
    """``below(k)``: an int in ``range(k)`` from 32 random bits of ``rng``."""
    return _Draws(rng.getrandbits)


def deal_out(
    cards: list, room: list, able: Callable[[int, bool], list], below: Callable[[int], int], tries: int = 24
) -> Optional[list]:
    """Hand masks (one per entry of ``room``) holding every card of ``cards``, or None.

    ``able(card, relax)`` lists the places that may hold the card (the same answer every time
    it is asked); the last try passes ``relax=True`` so the caller may drop soft constraints
    (such as inferred voids)."""
    kernel = stepper.compiled_deal_out()
    if kernel is None or not isinstance(below, _Draws) or len(room) > MOST_PLACES or len(cards) > 52:
        return deal_out_python(cards, room, able, below, tries)
    grb = below.getrandbits
    if tries > 1:
        got = kernel(cards, room, [able(c, False) for c in cards], grb, tries - 1)
        if got is not None:
            return got
    return kernel(cards, room, [able(c, True) for c in cards], grb, 1) if tries > 0 else None


def deal_out_python(
    cards: list, room: list, able: Callable[[int, bool], list], below: Callable[[int], int], tries: int = 24
) -> Optional[list]:
    """``deal_out`` in Python (any ``below``; the reference of the compiled kernel)."""
    asked: dict = {}  # relax -> each card's places (``able`` is asked once per card and relax)
    for attempt in range(tries):
        relax = attempt == tries - 1
        places = asked.get(relax)
        if places is None:
            places = asked[relax] = {c: able(c, relax) for c in cards}
        order = list(cards)
        for i in range(len(order) - 1, 0, -1):  # shuffle
            j = below(i + 1)
            order[i], order[j] = order[j], order[i]
        order.sort(key=lambda c: len(places[c]))
        left = list(room)
        hands = [0] * len(room)
        for c in order:
            options = [s for s in places[c] if left[s] > 0]
            if not options:
                break
            r = below(sum(left[s] for s in options))
            for s in options:
                r -= left[s]
                if r < 0:
                    break
            hands[s] |= 1 << c
            left[s] -= 1
        else:
            return hands
    return None
