"""The random-draw protocol: how every engine turns random bits into a choice (one place).

A draw among ``n`` things takes 32 random bits of ``getrandbits`` and keeps
``(bits * n) >> 32`` — the same on every platform, and the same whatever engine plays the
deal, so that a seed plays the same match on the interpreter, the compiled core
(``_cstep.c``'s ``draw``), the generated kernels (``fastplay``/``trickgen``: their code is
written from ``BELOW``) and through ``simulate --records`` (the same deals: their actions
replayed by ``fastrecord``). What is drawn:

- a card among a mask's cards: the k-th lowest card id (``kth``), k = ``below(n)``;
- a random deal's play: a lead or a discard draws among its legal cards; a follow of the suit
  led draws only when there is a choice (``draws_for_play``); search's rule-of-thumb rollout
  (``trickkernel.playout``) draws ``getrandbits(2)`` first in a trick;
- passes: every seat's still-to-choose cards, drawn seat by seat from seat 0, card by card
  from what the seat has left (``pass_choices``); then made in turn order;
- any other decision (a trump call, a contract, an auction's bid): the k-th of its choices in
  the rules' order (``pick``);
- hands sampled for search: ``players/sampling.deal_out`` (a shuffle by ``below(i + 1)``,
  then places drawn with weights);
- the batched environment's deals (``vecenv``): the first dealer drawn among the seats when
  chance names it, then the deck shuffled (``shuffled``) and dealt round the table
  (``flatdeals.dealt``; in C, ``_vecdeal.h``).

Hot loops write the expression out rather than call ``below`` (``INLINED`` lists them;
tests/test_plan.py holds that nothing else draws its own way).
"""

from __future__ import annotations

#: Random bits per draw.
BITS = 32
#: A draw as generated code writes it: ``BELOW.format(n=...)`` (``grb``: getrandbits).
BELOW = "(grb(32) * {n}) >> 32"
#: Where the draw is written out in a hot loop (module: what), as ``BELOW`` says.
INLINED = {
    "interpreter/fastplay.py": "a card of four suit masks, a layout deal's card",
    "interpreter/trickgen.py": "generated kernels (from BELOW)",
    "interpreter/trickkernel.py": "search's rule-of-thumb rollout",
    "interpreter/layout.py": "a layout deal's random playout",
    "players/sampling.py": "sampled hands (the compiled kernel: _cstep.deal_out)",
}


def below(grb, n: int) -> int:
    """A number in ``range(n)`` from 32 random bits of ``grb`` (getrandbits)."""
    return (grb(BITS) * n) >> BITS


def draw(rng, n: int) -> int:
    """A number in ``range(n)`` from 32 random bits of ``rng``."""
    return (rng.getrandbits(BITS) * n) >> BITS


def pick(rng, options):
    """One of ``options`` (``draw``; one option is taken without a draw)."""
    return options[(rng.getrandbits(BITS) * len(options)) >> BITS] if len(options) > 1 else options[0]


def kth(mask: int, k: int) -> int:
    """The k-th lowest card of ``mask``."""
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def shuffled(items, grb) -> list:
    """``items`` shuffled: from the last place down, place ``i`` swaps with place ``below(i + 1)``."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = below(grb, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def draws_for_play(count: int, follows: bool) -> bool:
    """Whether a random play among ``count`` legal cards draws: a lead or a discard always, a
    follow of the suit led only when there is a choice."""
    return count > 1 or not follows


def pass_choices(left: list, counts: list, grb) -> list:
    """The cards each seat passes still, drawn seat by seat from seat 0: ``left[s]`` the cards
    seat ``s`` may still choose (a mask), ``counts[s]`` how many; lists of cards in draw order."""
    chosen = []
    for s, mask in enumerate(left):
        picks = []
        for _ in range(counts[s]):
            card = kth(mask, below(grb, mask.bit_count()))
            mask &= ~(1 << card)
            picks.append(card)
        chosen.append(picks)
    return chosen


__all__ = ["BITS", "BELOW", "INLINED", "below", "draw", "pick", "kth", "shuffled", "draws_for_play", "pass_choices"]
