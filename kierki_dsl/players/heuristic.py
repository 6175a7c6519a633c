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
suit), one step further for each point of strength, and passes otherwise.
"""
from __future__ import annotations

from ..cards import SUIT_MASK, bits, popcount
from ..interpreter.actions import DONE, PASS, call, double, is_bet, is_call
from ..interpreter.trickkernel import card_beats, card_values, is_positive, winning_play
from .base import Player, register_player


def call_by_length(cards) -> int:
    """Trump-call policy: the suit with most of the cards seen, then the highest ones."""
    best, best_key = 0, None
    for s in range(4):
        ranks = [c % 13 for c in cards if c // 13 == s]
        key = (len(ranks), sum(ranks), -s)
        if best_key is None or key > best_key:
            best, best_key = s, key
    return best


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
        if is_bet(legal[-1]):
            return self._bet(view, legal)
        if view.layout is not None:
            return self._layout(view, legal)
        return self._trick(view, legal)

    # -- auction -------------------------------------------------------------------------
    @staticmethod
    def _bid(view, legal) -> int:
        """The lowest bid allowed while the hand is strong enough, else pass: strength is the
        high cards (Q, K, A) and the longest suit against an average hand, less one for every
        bid the others have made."""
        cards = list(bits(view.hand))
        high = sum(1 for c in cards if c % 13 >= 10)
        longest = max(sum(1 for c in cards if c // 13 == s) for s in range(4))
        strength = high + longest - len(cards) // 4 - 3  # about 0 for an average hand
        raised = sum(1 for s, v in view.auction if v and s != view.seat)
        bids = [a for a in legal if a != PASS]
        return bids[0] if bids and strength - raised >= 1 else PASS

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
        c = self.contract_of(view)
        trick_pts, value = card_values(c, view.tricks_total, view.trump, view.players, view.trick_number)
        positive = is_positive(c, view.tricks_total, view.trump, view.players)
        hand = view.hand
        if not view.trick:
            if positive:
                return max(legal, key=lambda x: (x % 13, -popcount(hand & SUIT_MASK[x // 13]), -x))
            # lead low from the shortest suit, never a card that costs points if avoidable
            return min(legal, key=lambda x: (-value[x], x % 13 + popcount(hand & SUIT_MASK[x // 13]), x))
        trump = view.trump
        win = winning_play(view.trick, trump)

        def beats(x: int) -> bool:
            return card_beats(x, win, trump)

        following = any(x // 13 == view.led_suit for x in legal)
        last = len(view.trick) == view.players - 1
        at_stake = trick_pts + sum(value[x] for _, x in view.trick)
        if positive:
            winners = [x for x in legal if beats(x)]
            if winners and (last or at_stake >= 0):
                return min(winners, key=lambda x: (x % 13 + (13 if trump >= 0 and x // 13 == trump else 0), x))
            return min(legal, key=lambda x: (value[x] > 0, x % 13, x))
        if following:
            losers = [x for x in legal if not beats(x)]
            if losers:
                return max(losers, key=lambda x: (-value[x] if not last else 0, x % 13, -x))
            if last and at_stake == 0:
                return max(legal, key=lambda x: (x % 13, -x))
            return max(legal, key=lambda x: (x % 13, -value[x], -x))
        return min(legal, key=lambda x: (value[x], -(x % 13), x))

    # -- other decisions -------------------------------------------------------------------
    def _pass(self, view, legal) -> int:
        c = self.contract_of(view)
        _, value = card_values(c, view.tricks_total, view.trump, view.players, 1)
        positive = is_positive(c, view.tricks_total, view.trump, view.players)
        if positive:
            return min(legal, key=lambda x: (x % 13, x))
        return min(legal, key=lambda x: (value[x], -(x % 13), x))

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
        hand = view.hand
        c = self.contract_of(view)
        free = view.opening_rank < 0  # a free start: the card played now sets the opening rank

        def score(x: int) -> tuple:
            # cards of ours this one leads to, minus the gap it opens for the others
            suit, pos = x // 13, c.position(x)
            start = pos if free else c.position(view.opening_rank)
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


@register_player
class SimplePlayer(HeuristicPlayer):
    """The name of the first rule-aware player; the same as ``heuristic``."""

    name = "simple"
