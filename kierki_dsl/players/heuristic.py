"""``heuristic``: a rule-aware player that reads the compiled ruleset, not a contract list.

It values cards and tricks with the contract's own scoring tables (what a card or a trick
is worth in *this* deal): where tricks and cards cost points it ducks under the winning
card, leads low in short suits and throws its most expensive card when void; where tricks
earn points it wins as cheaply as it can and leads its winners. It calls trumps from the
cards it has seen (longest, then strongest suit), passes its most expensive and highest
cards, chooses the contract its hand suits best, and in layout deals plays the card that
frees its own cards while holding back those that would open rows for the others. It doubles
(and redoubles) only with a hand clearly better than an average one for the contract: many
low cards where tricks cost, many high ones where they pay; never in layout deals. In an
auction it bids the lowest bid allowed while its hand is strong enough (high cards and a long
suit), one step further for each point of strength, and passes otherwise; as an auction's
seller it declines a deal its hand is too weak for (when it may), accepts an offer worth at
least as many steps as its hand's edge, and otherwise refuses and plays itself; having taken
a widow it gives away or lays aside its lowest cards.

Trick play is this module's (``trick_card``, and its whole-deal forms for the fast paths); every
other decision is the deciding phase's ``bot_action`` (``kierki_dsl.phases``: the auction's bids
in ``interpreter/bidding.py``, the trump call in ``interpreter/calling.py``, layout play in
``interpreter/layout.py``, ...), so a new phase brings its own rule of thumb and no player names it.
"""

from __future__ import annotations

import functools

from ..cards import SUIT_MASK, card_list, popcount
from ..interpreter.calling import call_by_length
from ..interpreter.layout import layout_card
from ..interpreter.passing import pass_order
from ..interpreter.trickkernel import card_beats, card_values, is_positive, winning_play
from ..phases import phase_of
from ..rankorder import rank_key
from .base import Player, register_player

FULL13 = 8191


@functools.lru_cache(maxsize=256)
def trick_values(contract, tricks_total: int, trump: int, players: int) -> tuple:
    """Per trick number n (0 .. tricks_total + 1): (points for winning the trick, the points
    each card carries, whether taking tricks is good), as the heuristic reads them."""
    positive = is_positive(contract, tricks_total, trump, players)
    return tuple(card_values(contract, tricks_total, trump, players, n) + (positive,) for n in range(tricks_total + 2))


def trick_card(
    legal, hand: int, win: int, led: int, trump: int, last: bool, at_stake: int, value, positive: bool, order=None
) -> int:
    """The heuristic's card in trick play: ``legal`` the cards it may play (any order),
    ``win`` the card winning the trick so far (-1 when it leads), ``led`` the suit led,
    ``last`` whether it plays last to the trick, ``at_stake`` the points the trick carries
    so far, ``value`` the points of each card, ``positive`` whether tricks are good here.
    Where tricks and cards cost points it ducks under the winning card, leads low in short
    suits and throws its most expensive card when void; where they pay it wins as cheaply
    as it can and leads its winners. ``order``: the contract's rank order (``rankorder``)."""
    rank = rank_key(order)
    if win < 0:
        if positive:
            return max(legal, key=lambda x: (rank(x), -popcount(hand & SUIT_MASK[x // 13]), -x))
        # lead low from the shortest suit, never a card that costs points if avoidable
        return min(legal, key=lambda x: (-value[x], rank(x) + popcount(hand & SUIT_MASK[x // 13]), x))

    def beats(x: int) -> bool:
        return card_beats(x, win, trump, order)

    following = any(x // 13 == led for x in legal)
    if positive:
        winners = [x for x in legal if beats(x)]
        if winners and (last or at_stake >= 0):
            return min(winners, key=lambda x: (rank(x) + (13 if trump >= 0 and x // 13 == trump else 0), x))
        return min(legal, key=lambda x: (value[x] > 0, rank(x), x))
    if following:
        losers = [x for x in legal if not beats(x)]
        if losers:
            return max(losers, key=lambda x: (-value[x] if not last else 0, rank(x), -x))
        if last and at_stake == 0:
            return max(legal, key=lambda x: (rank(x), -x))
        return max(legal, key=lambda x: (rank(x), -value[x], -x))
    return min(legal, key=lambda x: (value[x], -(rank(x)), x))


def trick_chooser(contract, tricks_total: int, trump: int, players: int):
    """The heuristic as a whole-deal kernel's ``choose(legal, hand, n, trick, win, led, last)``
    (masks; ``trickgen``): the same card as ``HeuristicPlayer`` in the same position.

    Following suit among cards that all carry the same points (the common case), the card
    comes from the masks at once, as ``trick_card`` would pick it: the highest card that
    ducks under the winner (else the highest) where tricks cost, the lowest that wins (else
    the lowest) where they pay; every other position asks ``trick_card``."""
    table = trick_values(contract, tricks_total, trump, players)
    priced = [sum(1 << x for x in range(52) if value[x]) for _, value, _ in table]  # cards worth points
    even = [
        sum(FULL13 << 13 * s for s in range(4) if len(set(value[13 * s : 13 * s + 13])) == 1) for _, value, _ in table
    ]  # suits whose cards all carry the same points

    def choose(legal: int, hand: int, n: int, trick: int, win: int, led: int, last: bool) -> int:
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        trick_pts, value, positive = table[n]
        if win < 0:
            if positive:  # the highest card of each suit, then as trick_card compares them
                return max(((x % 13, -popcount(hand & SUIT_MASK[x // 13]), -x), x) for x in _tops(legal))[1]
            if legal & ~even[n]:
                return trick_card(card_list(legal), hand, win, led, trump, False, 0, value, positive)
            return min(((-value[x], x % 13 + popcount(hand & SUIT_MASK[x // 13]), x), x) for x in _lows(legal))[1]
        at_stake = trick_pts
        t = trick & priced[n]
        while t:
            low = t & -t
            at_stake += value[low.bit_length() - 1]
            t ^= low
        suit = SUIT_MASK[led]
        if legal & ~even[n]:
            return trick_card(card_list(legal), hand, win, led, trump, last, at_stake, value, positive)
        if legal & ~suit:
            if positive or legal & suit:
                return trick_card(card_list(legal), hand, win, led, trump, last, at_stake, value, positive)
            # void where tricks cost: the most expensive card, the highest of its suit
            return min(((value[x], -(x % 13), x), x) for x in _tops(legal))[1]
        above = suit & -(2 << win) if win // 13 == led else 0  # the cards that beat the winner
        if positive:
            winners = legal & above
            if winners and (last or at_stake >= 0):
                return (winners & -winners).bit_length() - 1
            return (legal & -legal).bit_length() - 1
        losers = legal & ~above
        return (losers or legal).bit_length() - 1

    return choose


def pass_chooser(contract, tricks_total: int, trump: int, players: int):
    """The heuristic's exchange for a whole-deal path: ``passes(hand, count)`` -> the mask of
    the cards it passes (one at a time it passes the first left in ``pass_order``)."""
    key = pass_order(contract, tricks_total, trump, players)

    def passes(hand: int, count: int) -> int:
        return sum(1 << x for x in sorted(card_list(hand), key=key)[:count])

    return passes


def _tops(mask: int) -> list:
    """The highest card of each suit present in ``mask``."""
    return [(mask & m).bit_length() - 1 for m in SUIT_MASK if mask & m]


def _lows(mask: int) -> list:
    """The lowest card of each suit present in ``mask``."""
    return [((mask & m) & -(mask & m)).bit_length() - 1 for m in SUIT_MASK if mask & m]


def layout_chooser(contract):
    """The heuristic as a whole-deal layout closure's ``choose(legal, hand) -> bit``
    (``fastplay.compile_layout``, rows opened by the contract's start rank)."""
    opening = contract.start_rank

    def choose(legal: int, hand: int) -> int:
        if not legal & (legal - 1):
            return legal
        return 1 << layout_card(contract, card_list(legal), hand, opening)

    return choose


class FastHeuristic:
    """The heuristic player's decisions where a whole-deal fast path plays for it (all seats
    heuristic): the trump call, the exchange, trick play and layout play, the same as ``HeuristicPlayer``
    in the same position (held to it by tests/test_fast_heuristic.py)."""

    name = "heuristic"  # the player that plays the deals no fast path covers

    @staticmethod
    def call(seen, choices) -> int:
        """The trump called from the cards seen (``choices`` the suits allowed)."""
        if len(choices) == 1:
            return choices[0]
        suit = call_by_length(seen)
        return suit if suit in choices else choices[0]

    tricks = staticmethod(trick_chooser)
    passes = staticmethod(pass_chooser)
    layout = staticmethod(layout_chooser)


@register_player
class HeuristicPlayer(Player):
    """Every decision before card play, and layout play, as the deciding phase's ``bot_action``
    says (``phases``); trick play by ``trick_card``."""

    name = "heuristic"

    def act(self, view) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        action = phase_of(view).bot_action(view, self.rules)
        return self._trick(view, legal) if action is None else action

    def _trick(self, view, legal) -> int:
        contract = self.contract_of(view)
        trick_pts, value, positive = trick_values(contract, view.tricks_total, view.trump, view.players)[
            view.trick_number
        ]
        order = contract.order
        if not view.trick:
            return trick_card(legal, view.hand, -1, -1, view.trump, False, 0, value, positive, order)
        at_stake = trick_pts + sum(value[x] for _, x in view.trick)
        return trick_card(
            legal,
            view.hand,
            winning_play(view.trick, view.trump, order),
            view.led_suit,
            view.trump,
            len(view.trick) == view.players - 1,
            at_stake,
            value,
            positive,
            order,
        )


@register_player
class SimplePlayer(HeuristicPlayer):
    """The name of the first rule-aware player; the same as ``heuristic``."""

    name = "simple"
