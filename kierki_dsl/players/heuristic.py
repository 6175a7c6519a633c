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
"""

from __future__ import annotations

import functools

from ..cards import SUIT_MASK, bits, card_list, popcount
from ..interpreter.actions import DONE, PASS, bid_value, call, double, is_bet, is_call
from ..interpreter.trickkernel import card_beats, card_values, is_positive, winning_play
from ..rankorder import rank_key
from .base import Player, register_player


def hand_strength(hand: int) -> int:
    """High cards (Q, K, A) and the longest suit against an average hand (about 0 for one)."""
    cards = list(bits(hand))
    if not cards:
        return 0
    high = sum(1 for c in cards if c % 13 >= 10)
    longest = max(sum(1 for c in cards if c // 13 == s) for s in range(4))
    return high + longest - len(cards) // 4 - 3


def seller_choice(hand: int, legal, offer: int, rule) -> int:
    """An auction seller's decision: decline (when allowed) with a hand no better than
    average, accept an offer of at least as many steps (above the lowest bid) as the hand's
    edge, else refuse and play."""
    from ..interpreter.actions import ACCEPT, DECLINE, REFUSE

    strength = hand_strength(hand)
    if DECLINE in legal and strength <= 0:
        return DECLINE
    steps = (offer - rule.low) // rule.step + 1 if offer else 0
    if ACCEPT in legal and steps >= strength:
        return ACCEPT
    return REFUSE if REFUSE in legal else legal[0]


def lowest_card(cards) -> int:
    """A widow's taker's card to give or lay aside: the lowest rank (then the lowest suit)."""
    return min(cards, key=lambda c: (c % 13, c // 13))


def call_by_length(cards) -> int:
    """Trump-call policy: the suit with most of the cards seen, then the highest ones."""
    best, best_key = 0, None
    for s in range(4):
        ranks = [c % 13 for c in cards if c // 13 == s]
        key = (len(ranks), sum(ranks), -s)
        if best_key is None or key > best_key:
            best, best_key = s, key
    return best


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


def pass_order(contract, tricks_total: int, trump: int, players: int):
    """The heuristic passes its cards in this order (a sort key): where tricks pay its lowest
    cards, where they cost its most expensive ones, then its highest."""
    _, value = card_values(contract, tricks_total, trump, players, 1)
    if is_positive(contract, tricks_total, trump, players):
        return lambda x: (x % 13, x)
    return lambda x: (value[x], -(x % 13), x)


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


def named_opening(hand: int, legal) -> int:
    """The rank a layout's first player names to open the rows (``legal``: the rank names): the
    one of which he holds most cards (he opens those rows), then the one nearest the middle."""
    from ..interpreter.actions import named_rank

    def score(a: int) -> tuple:
        r = named_rank(a)
        return sum(1 for s in range(4) if hand >> (s * 13 + r) & 1), -abs(r - 5)

    return max(legal, key=score)


def layout_card(c, cards, hand: int, opening_rank: int) -> int:
    """The heuristic's card in a layout deal (``cards`` the playable ones): the card that
    frees its own cards while holding back those that would open rows for the others."""
    free = opening_rank < 0  # a free start: the card played now sets the opening rank

    def score(x: int) -> tuple:
        # cards of ours this one leads to, minus the gap it opens for the others
        suit, pos = x // 13, c.position(x)
        start = pos if free else c.position(opening_rank)
        step = -1 if pos < start else 1
        ours = 0
        p = pos + step
        while 0 <= p <= 12 and hand >> c.card_at(suit, p) & 1:
            ours += 1
            p += step
        if pos == start:
            ours = max(ours, sum(1 for q in range(13) if hand >> c.card_at(suit, q) & 1))
        if free:  # holding the other rows' openers keeps them under our control
            ours += sum(1 for s in range(4) if s != suit and hand >> (s * 13 + x % 13) & 1)
        opens = 0 if (0 <= pos + step <= 12 and hand >> c.card_at(suit, pos + step) & 1) else 1
        far = abs(pos - start)
        return (ours - 2 * opens, far, -x)

    return max(cards, key=score)


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
    name = "heuristic"

    def act(self, view) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == "choose":
            return self._choose(view, legal)
        if is_call(legal[0]):
            suit = call_by_length(list(bits(view.hand)))
            return call(suit) if call(suit) in legal else legal[0]
        if view.phase == "pass":
            return self._pass(view, legal)
        if view.phase == "auction":
            return self._bid(view, legal)
        if view.phase == "expose":
            return self._expose(view, legal)
        if view.phase == "exchange":  # his cards out, a widow's taker keeps his bid as his contract
            return lowest_card(legal) if legal[0] < 52 else legal[0]
        if view.phase == "name":
            return named_opening(view.hand, legal)
        if is_bet(legal[-1]):
            return self._bet(view, legal)
        if view.layout is not None:
            return self._layout(view, legal)
        return self._trick(view, legal)

    # -- auction -------------------------------------------------------------------------
    def _bid(self, view, legal) -> int:
        """The lowest bid allowed while the hand is strong enough, else pass: strength is the
        high cards (Q, K, A) and the longest suit against an average hand, less one for every
        bid the others have made; never a bid more steps above the lowest than the strength.
        A seller decides by ``seller_choice``."""
        rule = self.contract_of(view).auction
        if PASS not in legal:
            return seller_choice(view.hand, legal, view.bid, rule)
        strength = hand_strength(view.hand)
        raised = sum(1 for s, v in view.auction if v > 0 and s != view.seat)
        bids = [a for a in legal if a != PASS]
        if not bids or strength - raised < 1 or (bid_value(bids[0]) - rule.low) // rule.step + 1 > strength:
            return PASS
        return bids[0]

    # -- exposures -----------------------------------------------------------------------
    @staticmethod
    def _expose(view, legal) -> int:
        """Expose a card that three lower cards of its suit protect (it can be kept out of
        tricks it would lose), else done."""
        from ..interpreter.actions import exposed_card, is_expose

        for a in legal:
            if is_expose(a):
                card = exposed_card(a)
                lower = sum(1 for c in bits(view.hand) if c // 13 == card // 13 and c % 13 < card % 13)
                if lower >= 3:
                    return a
        return DONE

    # -- doubling ------------------------------------------------------------------------
    def _bet(self, view, legal) -> int:
        """Double (or redouble) every seat it may while its hand is clearly above average; a
        duty to double the dealer (no 'done' allowed) is met at once."""
        if DONE not in legal:
            return double(view.dealer) if double(view.dealer) in legal else legal[0]
        if view.layout is not None:
            return DONE
        ranks = [c % 13 for c in bits(view.hand)]
        high = sum(1 for r in ranks if r >= 9)  # J, Q, K, A
        low = sum(1 for r in ranks if r <= 4)  # 2..6
        positive = is_positive(self.contract_of(view), view.tricks_total, view.trump, view.players)
        edge = high - low + 1 if positive else low - high - 1  # about 0 for an average hand
        bets = [a for a in legal if a != DONE]
        return bets[0] if bets and edge >= 3 else DONE

    # -- trick play ----------------------------------------------------------------------
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

    # -- other decisions -------------------------------------------------------------------
    def _pass(self, view, legal) -> int:
        return min(legal, key=pass_order(self.contract_of(view), view.tricks_total, view.trump, view.players))

    def _choose(self, view, legal) -> int:
        from ..interpreter.actions import CHOOSE_BASE

        hand = view.hand
        high = sum(1 for x in bits(hand) if x % 13 >= 9)

        def fit(action: int) -> tuple:
            c = self.contract_of(view, view.options[action - CHOOSE_BASE])
            positive = c.wants_tricks(view.tricks_total, view.players)
            if positive is None:
                return (0, -action)
            return ((high - 5) if positive else (5 - high), -action)

        return max(legal, key=fit)

    def _layout(self, view, legal) -> int:
        cards = [a for a in legal if a != PASS]
        if not cards:
            return PASS
        return layout_card(self.contract_of(view), cards, view.hand, view.opening_rank)


@register_player
class SimplePlayer(HeuristicPlayer):
    """The name of the first rule-aware player; the same as ``heuristic``."""

    name = "simple"
