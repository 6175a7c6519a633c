"""The auction, as a trick deal steps it (``phaseengine``): the round of bids of
``bidding.AuctionRound``; once it is over, its winner and bid are the deal's ``bidder`` and
``bid``, or, when the seller declined, the deal ends unplayed at the rule's fixed scores."""

from __future__ import annotations

from typing import Optional

from ..cards import bits
from .bidding import AuctionPart, AuctionRound, history_action
from .phaseengine import RoundEngine
from .phases import Phase
from .view import part_of, shown_part


class AuctionEngine(RoundEngine):
    """The auction of ``contract.auction`` (``bidding.Auction``); its state is ``deal.auction``."""

    phase = Phase.AUCTION
    field = "auction"

    def start(self, deal) -> int:
        rule, n = self.rule, deal.players
        env = deal._seat_env()
        seller = rule.seller.seat(env, n) if rule.seller is not None else -1
        deal.auction = AuctionRound(
            rule,
            n,
            rule.first.seat(env, n),
            deal.direction,
            rule.all_pass.seat(env, n),
            seller,
            deal.hands,
            deal.dealer,
            deal.deck,
        )
        return deal.auction.seat

    def apply(self, deal, action: int) -> int:
        seat = super().apply(deal, action)
        if deal.auction.finished:  # its outcome: the winner and his bid
            deal.bid, deal.bidder = deal.auction.bid, deal.auction.bidder
        return seat

    def ends_unplayed(self, deal) -> bool:
        """The seller would not play: the deal ends unplayed, at fixed scores."""
        if deal.auction is None or not deal.auction.declined:
            return False
        deal.scores = self.rule.decline.scores(deal.dealer, deal.players, deal.tricks_total, deal.deck, deal.bidder)
        return True

    def copy(self, deal, other) -> None:
        if deal.auction is not None:
            other.auction = deal.auction.copy()
            other.auction.hands = other.hands

    def from_view(self, deal, view) -> None:
        p = part_of(view, AuctionPart)
        deal.auction = (
            AuctionRound.settled(p.auction, p.bid, p.bidder, view.players, p.seller)
            if p is not None and p.auction
            else None
        )

    def resume(self, deal, view) -> bool:
        """The deal goes on with the view's auction (any passing done): the seat on turn and the
        bids are the view's, never worked out again from the assumed hands; only the seat that
        plays if all pass is read from them, as the deal worked it out when the auction began."""
        deal.bid, deal.bidder = 0, -1  # not known before the auction ends
        deal.dealt = [list(bits(h)) for h in deal.hands]
        fallback = self.rule.all_pass.seat(deal._seat_env(), deal.players)
        deal.auction = AuctionRound.at(self.rule, view, fallback)
        deal.auction.hands = deal.hands
        deal.actions = [history_action(value) for _, value in shown_part(view, AuctionPart).auction]
        deal.to_move = view.seat
        return True

    def view_reason(self, view, action: int) -> Optional[str]:
        return AuctionRound.at(self.rule, view).why_illegal(action)


__all__ = ["AuctionEngine"]
