"""M634: a seat named by ``holder(card)`` where the card may lie in no hand.

``holder(2C)`` is the seat holding the two of clubs when the rule is read. In most deals every
card of the deck is in some hand, but a widow (until it is taken, and for good when its taker
lays cards aside) and a stock keep cards out of every hand: then ``holder()`` names nobody and
the deal stops at run time (X701). Lint says so ahead, for each seat rule read at a moment when
a card can be out of the hands:

- the widow's taker and the trump caller are named before the widow is taken;
- the first leader is named after it, when a taker who lays cards aside may have laid the card
  aside; with a stock, the undealt cards are out of the hands when play starts.
"""

from __future__ import annotations

from ..i18n import L_

HOLDERS = "holders"  # the env key ``holder()`` reads (``expr.builtins``)


def check_unheld(ctx, where: tuple, first_lead, called_by, widow, stock, deck_cards: int, players: int) -> None:
    """Report M634 for each seat rule of a trick contract that reads ``holder()`` when a card
    may be in no hand (``widow``/``stock``: the compiled rules, or None)."""
    for field, _expr, why in _read_too_early(first_lead, called_by, widow, stock, deck_cards, players):
        ctx.error(
            where + field,
            "M634",
            L_("holder() may name nobody here: {why}", why=why),
            L_("name the seat another way (dealer, left(dealer), bidder)"),
        )


def _read_too_early(first_lead, called_by, widow, stock, deck_cards: int, players: int):
    """(field, expression, why) of each seat rule that reads ``holder()`` while a card can be
    out of every hand."""
    out: list = []
    if widow is not None:
        before = L_("it is read before the widow is taken, and any card may lie in the widow")
        if _reads_holder(widow.taken_by):
            out.append((("widow", "taken_by"), widow.taken_by, before))
        if _reads_holder(called_by):
            out.append((("trump", "called_by"), called_by, before))
        if not widow.give and _reads_holder(first_lead):
            out.append((("first_lead",), first_lead, L_("the widow's taker may have laid that card aside")))
    if stock is not None and stock.hand * players < deck_cards:
        why = L_("the cards left in the stock are in no hand when play starts")
        if _reads_holder(first_lead):
            out.append((("first_lead",), first_lead, why))
        if _reads_holder(called_by):
            out.append((("trump", "called_by"), called_by, why))
    return out


def _reads_holder(expr) -> bool:
    return expr is not None and HOLDERS in expr.free


__all__ = ["check_unheld"]
