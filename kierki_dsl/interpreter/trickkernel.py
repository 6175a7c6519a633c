"""The trick rules written once: who wins a trick, end-of-deal seat scoring, what a contract's
static scoring says about cards and tricks, and the quick playout search rollouts use.

The step-by-step deal state (``trickstate``) and the bots (``players/heuristic``,
``players/search``) call these, and the whole-deal fast path (``fastplay``) scores seats with
``add_seat_scores``. Which cards may be played is the legality kernel's (``legality.py``),
shared the same way. The fast path keeps its trick winner inlined on per-suit masks for
speed; a differential test (tests/test_fast_vs_step.py) holds it to identical plays and
per-seat scores, deal by deal, for every shipped ruleset.
"""

from __future__ import annotations

import functools

from ..cards import FULL_DECK, SUIT_MASK, bits, card_list, popcount
from ..expr import RuleRuntimeError
from ..rankorder import highest, rank_key
from .envs import add_seat_end_points, seat_end_env


def winning_card(trick_mask: int, led: int, trump: int, order=None) -> int:
    """The card that wins a trick holding the cards of ``trick_mask``, ``led`` the suit led:
    the highest trump if any was played, else the highest card of the suit led (highest by
    the contract's rank ``order``, ``rankorder``; None: by bit)."""
    if order is not None:
        suit = trump if trump >= 0 and trick_mask & SUIT_MASK[trump] else led
        return highest(trick_mask & SUIT_MASK[suit], order)
    if trump >= 0 and trick_mask & SUIT_MASK[trump]:
        return (trick_mask & SUIT_MASK[trump]).bit_length() - 1
    return (trick_mask & SUIT_MASK[led]).bit_length() - 1


def card_beats(card: int, win: int, trump: int, order=None) -> bool:
    """Whether ``card`` played now would beat ``win``, the card winning the trick so far."""
    if trump >= 0 and card // 13 == trump and win // 13 != trump:
        return True
    if order is not None:
        return card // 13 == win // 13 and order[card % 13] > order[win % 13]
    return card // 13 == win // 13 and card % 13 > win % 13


@functools.lru_cache(maxsize=16)
def beats_table(trump: int, order=None) -> tuple:
    """Per card winning a trick so far, the set of the cards that would beat it (``card_beats``)."""
    return tuple(frozenset(c for c in range(52) if card_beats(c, win, trump, order)) for win in range(52))


def winning_play(plays, trump: int, order=None) -> int:
    """The winning card of ``plays`` = ((seat, card), ...), the first card leading."""
    tm = 0
    for _, c in plays:
        tm |= 1 << c
    return winning_card(tm, plays[0][1] // 13, trump, order)


def add_seat_scores(
    scores: list,
    seat_scorers,
    dealer: int,
    players: int,
    caller: int,
    trump: int,
    tricks_won,
    tricks: int,
    taken,
    deck: int,
    bidder: int = -1,
    bid: int = 0,
    declared=None,
    match=None,
) -> None:
    """Add every seat's end-of-deal points (``per_seat`` components) to ``scores``; ``declared``:
    per seat, the points of its declarations (None: none made); ``match``: the match-scope
    values before the deal (``matchvalues``; None: the start of a match)."""
    if not seat_scorers:
        return
    add_seat_end_points(
        scores,
        [s.points for s in seat_scorers],
        dealer,
        players,
        caller,
        trump,
        tricks_won,
        tricks,
        taken,
        deck,
        bidder,
        bid,
        declared,
        match,
    )


def card_values(contract, tricks_total: int, trump: int, players: int, trick_number: int):
    """(points for winning the trick itself, points each card carries) in this trick."""
    trick_points, card_tables, _ = contract.tables(tricks_total, trump, players)
    n = min(max(trick_number, 1), tricks_total + 1)
    value = [0] * 52
    for m, pts in card_tables:
        p = pts[n]
        if p:
            for card in bits(m):
                value[card] += p
    return trick_points[n], value


def is_positive(contract, tricks_total: int, trump: int, players: int) -> bool:
    """Whether taking tricks is good in this contract (by the sign of its static scoring; when
    that is nothing, by its seat scoring: Tysiąc scores only at the end)."""
    trick_points, card_tables, _ = contract.tables(tricks_total, trump, players)
    total = sum(trick_points) + sum(popcount(m) * sum(p) for m, p in card_tables)
    if total == 0:
        total = seat_gain(contract, tricks_total, trump, players)
    return total > 0


@functools.lru_cache(maxsize=256)
def seat_gain(contract, tricks_total: int, trump: int, players: int) -> int:
    """What the seat scoring (``per_seat``) gives a seat that takes every card and trick over
    one that takes none, nobody having bid or declared (0 without seat scoring, or when an
    expression fails on those made-up outcomes)."""
    scorers = [s for s in contract.scorers if s.kind == "seat"]
    if not scorers or players < 2:
        return 0
    everything = [FULL_DECK] + [0] * (players - 1)
    nothing = [0] + [FULL_DECK] + [0] * (players - 2)
    got = []
    for taken, won in ((everything, tricks_total), (nothing, 0)):
        env = seat_end_env(0, 1, players, -1, trump, won, tricks_total, taken[0], taken, FULL_DECK)
        try:
            got.append(sum(s.points(env) for s in scorers))
        except RuleRuntimeError:
            return 0
    return got[0] - got[1]


def playout(st, rng) -> None:
    """Play a trick deal out with a quick rule of thumb read from the contract's scoring (duck
    under the winner where tricks cost, win cheaply where they pay, throw the most expensive
    card when void), one move in four at random."""
    grb = rng.getrandbits
    values = values_by_trick(st.contract, st.tricks_total, st.trump, st.players)
    play = st.play_legal  # the cards below come from legal_mask: no need to check them again
    order = st.contract.order
    rank = rank_key(order)
    while not st.is_terminal():
        mask = st.legal_mask()
        if mask & (mask - 1) == 0:  # one legal card
            play(mask.bit_length() - 1)
            continue
        if not st.trick or grb(2) == 0:  # the k-th legal card, lowest first
            k = (grb(32) * mask.bit_count()) >> 32
            while k:
                mask &= mask - 1
                k -= 1
            play((mask & -mask).bit_length() - 1)
            continue
        value, positive = values[st.trick_no]
        play(_thumb(st, card_list(mask), value, positive, order, rank))


@functools.lru_cache(maxsize=256)
def values_by_trick(contract, tricks_total: int, trump: int, players: int) -> tuple:
    """Per trick number: (points each card carries, whether winning the trick is good)."""
    positive = is_positive(contract, tricks_total, trump, players)
    return (
        (None,)
        + tuple(
            (card_values(contract, tricks_total, trump, players, n)[1], positive) for n in range(1, tricks_total + 1)
        )
        + (None,)
    )


def _thumb(st, acts, value, positive, order, rank) -> int:
    trump = st.trump
    win = st.win
    led = st.led

    def beats(x: int) -> bool:
        return card_beats(x, win, trump, order)

    following = acts[0] // 13 == led
    if positive:
        winners = [x for x in acts if beats(x)]
        return min(winners or acts, key=lambda x: (rank(x), x))
    if following:
        losers = [x for x in acts if not beats(x)]
        return max(losers, key=rank) if losers else max(acts, key=rank)
    return min(acts, key=lambda x: (value[x], -rank(x)))
