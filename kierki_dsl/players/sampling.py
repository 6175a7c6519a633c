"""Dealing the unseen cards at random to the seats that may hold them.

One kernel for every sampler (the search player's worlds, the adapters' resampling from an
information state): each card goes to a seat with room left that may hold it, the most
constrained cards first, a seat chosen with weight equal to its room left. ``below(k)`` draws
uniformly from ``range(k)``; ``draws(rng)`` makes one from a ``random.Random`` with a fixed
number of bits per draw, so a seed gives the same worlds on every machine and Python version.
"""
from __future__ import annotations

from typing import Callable, Optional


def draws(rng) -> Callable[[int], int]:
    """``below(k)``: an int in ``range(k)`` from 32 random bits of ``rng``."""
    getrandbits = rng.getrandbits
    return lambda k: (getrandbits(32) * k) >> 32


def deal_out(cards: list, room: list, able: Callable[[int, bool], list], below: Callable[[int], int],
             tries: int = 24) -> Optional[list]:
    """Hand masks (one per entry of ``room``) holding every card of ``cards``, or None.

    ``able(card, relax)`` lists the places that may hold the card (the same answer every time
    it is asked); the last try passes ``relax=True`` so the caller may drop soft constraints
    (such as inferred voids)."""
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
