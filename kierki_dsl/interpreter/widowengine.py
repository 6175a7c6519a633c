"""The widow's exchange (Tysiąc's musik), as a trick deal steps it (``phaseengine``): once the
auction is over, the taker (``taken_by``) takes the widow into his hand and puts as many cards
out again, laid aside or given to the other seats (``widow.Widow``); with ``raise_bid``, the
auction's winner then names his contract, his bid or higher. The deal is a
``widowstate.WidowDeal``: it deals the widow aside and shows it in views and records."""

from __future__ import annotations

from typing import Optional

from ..cards import bits, card_str
from ..i18n import R_
from .actions import action_str, bid, bid_value, is_bid
from .phaseengine import PhaseEngine
from .phases import Phase
from .stock import stock_order, unseen_rest
from .view import shown_part
from .widow import WidowPart, mask


class WidowEngine(PhaseEngine):
    """The exchange of ``contract.widow``; its state is the deal's ``widow``, ``taker``,
    ``exchanged`` ((card, the seat it went to, -1 when laid aside), in order), ``raising`` (the
    taker, his cards out, names his contract) and ``raised`` (the contract he named)."""

    phase = Phase.EXCHANGE

    def start(self, deal) -> int:
        deal.taker = self.rule.taken_by.seat(deal._seat_env(), deal.players)
        deal.hands[deal.taker] |= mask(deal.widow)
        deal._lhand = -1
        return deal.taker

    def legal(self, deal) -> list:
        return self._raises(deal) if deal.raising else list(bits(deal.hands[deal.taker]))

    def _raises(self, deal) -> list:
        """The contracts the taker may name: his bid, or a higher level his hand may bid."""
        rule = deal.contract.auction
        return [
            bid(v)
            for v in rule.levels()
            if v == deal.bid
            or v > deal.bid
            and rule.allows(v, deal.taker, deal.dealer, deal.players, deal.hands[deal.taker], deal.deck)
        ]

    def reason(self, deal, action: int) -> Optional[str]:
        if deal.raising:
            return _why_not_raised(deal, action, self._raises(deal))
        if 0 <= action < 52 and deal.hands[deal.taker] >> action & 1:
            return None
        if 0 <= action < 52:
            return R_("{card} is not in your hand").format(card=card_str(action))
        to = self.rule.recipient(deal.taker, len(deal.exchanged), deal.players, deal.direction)
        return (
            "a card of your hand to lay aside is expected"
            if to < 0
            else f"a card of your hand to give to seat {to} is expected"
        )

    def apply(self, deal, action: int) -> int:
        if deal.raising:  # the contract named: play begins
            deal.bid, deal.raising = bid_value(action), False
            deal.raised.append(action)
            return -1
        rule, taker = self.rule, deal.taker
        to = rule.recipient(taker, len(deal.exchanged), deal.players, deal.direction)
        deal.hands[taker] &= ~(1 << action)
        if to >= 0:
            deal.hands[to] |= 1 << action
        deal.exchanged.append((action, to))
        deal._lhand = -1
        if len(deal.exchanged) < rule.out_count(deal.players):
            return taker
        deal.tricks_total = deal.hands[taker].bit_count()
        if rule.raise_bid and taker == deal.bidder:
            deal.raising = True
            return taker
        return -1

    def copy(self, deal, other) -> None:
        other.widow = list(deal.widow)
        other.exchanged = list(deal.exchanged)
        other.raised = list(deal.raised)

    def from_view(self, deal, view) -> None:
        """Before the widow is taken, the cards in no assumed hand are the widow (a face-up one as
        shown); once taken, the view's widow, and the cards laid aside unseen by this seat
        drawn from those in no assumed hand."""
        deal.raising, deal.raised = False, []  # a contract named shows as the view's bid
        rest = unseen_rest(view, deal.hands)
        shown = shown_part(view, WidowPart)
        if shown.taker < 0:
            deal.widow = list(shown.widow) if shown.widow else stock_order(rest, view.ply)
            deal.taker, deal.exchanged = -1, []
            return
        deal.widow, deal.taker, deal.exchanged = list(shown.widow), shown.taker, list(shown.exchanged)
        unseen = list(bits(rest))  # the cards laid aside unseen by this seat are among these
        for _ in range(shown.aside - shown_part(deal.view(view.seat), WidowPart).aside):
            deal.exchanged.append((unseen.pop() if unseen else -1, -1))

    def resume(self, deal, view) -> bool:
        """The taker's turn to put cards out (or name his contract), not yet play."""
        deal.to_move = shown_part(view, WidowPart).taker
        deal.raising = bool(view.legal) and all(is_bid(a) for a in view.legal)
        return True

    def view_reason(self, view, action: int) -> Optional[str]:
        if 0 <= action < 52 and not view.hand >> action & 1:
            return R_("{card} is not in your hand").format(card=action_str(action))
        return None


def _why_not_raised(deal, action: int, raises: list) -> Optional[str]:
    """Why the taker may not name ``action`` as his contract (None: he may)."""
    if action in raises:
        return None
    rule = deal.contract.auction
    if is_bid(action) and bid_value(action) < deal.bid:
        return R_("your contract is at least your bid, {bid}").format(bid=deal.bid)
    if is_bid(action) and bid_value(action) in rule.levels():
        return rule.allow_reason or R_("this contract may not be named")
    return R_("your contract is expected: a bid from {bid} up").format(bid=deal.bid)


__all__ = ["WidowEngine"]
