"""A trick deal with a stock to draw from (see ``stock.py`` for the rules)."""

from __future__ import annotations

from ..cards import SUIT_MASK, bits, popcount
from .scorebound import check_score
from .stock import StockPart, stock_order, unseen_rest
from .trickstate import DONE, PLAY, TrickDeal
from .view import shown_part


class StockDeal(TrickDeal):
    """A trick deal whose players hold part of the deck and draw from the rest when void."""

    def __init__(
        self,
        contract,
        players: int,
        deck: int,
        dealer: int,
        dealt: list,
        direction: int = 1,
        number: int = 1,
        memory=None,
    ):
        rule = contract.stock
        hands, self.stock = rule.split(dealt, dealer, players, direction)
        self.drew: list = [[] for _ in range(players)]  # the cards each seat drew, in order
        self.in_trick = players  # seats holding cards when the trick in progress was led
        self.last_in = -1
        super().__init__(contract, players, deck, dealer, hands, direction, number, memory)
        self.tricks_total = rule.most_tricks(deck)

    def _start_play(self) -> None:
        self.tricks_total = self.contract.stock.most_tricks(self.deck)
        super()._start_play()

    def _compiled(self) -> None:
        super()._compiled()
        self._early = True  # the deal may end after any trick: when fewer than two hold cards

    def _holding(self) -> int:
        return sum(1 for h in self.hands if h)

    def _next_holding(self, seat: int) -> int:
        """The first seat after ``seat`` (or ``seat`` itself, ``step`` 0) that holds cards."""
        for k in range(1, self.players + 1):
            s = (seat + self.direction * k) % self.players
            if self.hands[s]:
                return s
        return seat

    def _draw_until_able(self) -> None:
        """The seat on turn draws from the top of the stock until it can follow the suit led."""
        seat, suit = self.to_move, SUIT_MASK[self.led]
        while self.stock and not self.hands[seat] & suit:
            card = self.stock.pop(0)
            self.hands[seat] |= 1 << card
            self.drew[seat].append(card)
        self._lhand = -1

    def play_legal(self, action: int) -> None:
        seat = self.to_move
        if not self.trick:
            self.in_trick = self._holding()
            self.led = action // 13
            self.win = action
        elif action in self._beats[self.win]:
            self.win = action
        self.actions.append(action)
        self.hands[seat] ^= 1 << action
        self._lhand = -1
        self.trick.append((seat, action))
        if len(self.trick) < self.in_trick:
            self.to_move = self._next_holding(seat)
            self._draw_until_able()
            return
        self._finish_trick()
        if self.phase != DONE and not self.hands[self.to_move]:
            self.to_move = self._next_holding(self.to_move)  # the winner is out: the next player leads

    def _ends_early(self) -> bool:
        return self._holding() < 2 or super()._ends_early()

    def _finish_deal(self) -> None:
        holders = [s for s in range(self.players) if self.hands[s]]
        natural = len(holders) < 2
        if len(holders) == 1:
            self.last_in = holders[0]
            if self.contract.stock.leftover == "last_in":
                self._take_leftover(holders[0])
        super()._finish_deal()
        self.ended_early = not natural

    def _take_leftover(self, seat: int) -> None:
        """The last player takes his own cards and the stock, scored as cards of one more trick."""
        left = self.hands[seat]
        for c in self.stock:
            left |= 1 << c
        n = min(self.trick_no, self.tricks_total)
        _, card_tables, dynamic = self._tables
        pts = sum(popcount(left & m) * table[n] for m, table in card_tables)
        cards = [s for s in dynamic if s.cards is not None]
        if cards:
            pts += self._dynamic_points(cards, left, seat, seat, n)
        self.scores[seat] += pts
        check_score(self.scores[seat], self.contract)
        self.taken[seat] |= left

    def view(self, seat: int):
        """The trick deal's view, with the stock's size, every seat's draws counted and the
        cards this seat drew — never the stock's cards."""
        part = StockPart(len(self.stock), tuple(len(d) for d in self.drew), tuple(self.drew[seat]))
        return super().view(seat).with_part("stock", part)

    def clone(self) -> "StockDeal":
        other = super().clone()
        assert isinstance(other, StockDeal)  # a clone has the type of its original
        other.stock = list(self.stock)
        other.drew = [list(d) for d in self.drew]
        return other

    @classmethod
    def from_view(cls, contract, view, hands: list) -> "StockDeal":
        """A state rebuilt from a view: the cards in no assumed hand and not played are the
        stock, in an order fixed by those cards (the seat cannot know it)."""
        st = super().from_view(contract, view, hands)
        assert isinstance(st, StockDeal)  # built as an instance of ``cls``
        st.stock = stock_order(unseen_rest(view, hands), view.ply)
        st.drew = [_drew_as_many(view, hands, s) for s in range(view.players)]
        st.drew[view.seat] = list(shown_part(view, StockPart).drew)
        played = {s for s, _ in view.trick}
        st.in_trick = len(played) + sum(1 for s in range(view.players) if s not in played and hands[s])
        st.last_in = -1
        st.tricks_total = contract.stock.most_tricks(view.deck)
        if st.phase == PLAY and view.trick and st.to_move >= 0:
            st._draw_until_able()
        return st


def _drew_as_many(view, hands: list, seat: int) -> list:
    """As many cards as the view says ``seat`` drew (which ones the viewer cannot know): taken
    from its assumed hand, then from the cards played, so the rebuilt deal's view counts them."""
    drawn = shown_part(view, StockPart).drawn
    return (list(bits(hands[seat])) + list(bits(view.played)))[: drawn[seat]] if drawn else []


__all__ = ["StockDeal"]
