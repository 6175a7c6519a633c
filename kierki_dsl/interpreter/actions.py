"""Action numbers: every phase's blocks assembled into one table, the record notation, the
blocks handed out to phases added by a module.

Cards are 0..51 whatever phase plays them (the deck's own numbers). Every other number is
declared by the phase that takes it, in its engine half (``numbering.Block``; the shipped
phases' halves are listed in ``phasecatalogue``): the auction's ``pass``, seller's words and
bids (``bidding``), the trump call (``calling``), the doubling round (``doubling``), a layout's
named rank (``naming``), a declarer's choice (``choice``), exposures (``exposure``).
``NUMBERED`` assembles them and refuses two that overlap; the names below are those phases'
own, kept here for the modules that import them from one place.
"""

from __future__ import annotations

from ..cards import SUITS, CardError, card_str, parse_card, parse_rank
from . import bidding, doubling, phasecatalogue
from .bidding import ACCEPT, BID_BASE, DECLINE, MAX_BID, PASS, REFUSE, SELLER_WORDS, bid, bid_value, is_bid
from .calling import CALL_BASE, NO_TRUMP, call, called_suit, is_call
from .choice import CHOOSE_BASE, CHOOSE_END, is_choice
from .doubling import DONE, DOUBLE_BASE, REDOUBLE_BASE, double, redouble
from .exposure import EXPOSE_BASE, expose, exposed_card, is_expose
from .naming import NAME_BASE, is_rank_name, name_rank, named_rank
from .numbering import ADDED, ADDED_BASE, ADDED_END, BLOCKS, Block, IllegalAction, assemble, block_owner, reserve

CARDS = Block("cards", 0, 52, "a card, whatever phase takes it: played, passed, given, laid out")
#: Every block of action numbers, by its first number: the cards, the shipped phases' (``phasecatalogue``), the added ones'.
NUMBERED = assemble(CARDS, ADDED, *phasecatalogue.numbering())
MAX_ACTION = NUMBERED[-1].end - 1  # no action of any phase is numbered higher


def is_bet(action: int) -> bool:
    """A side declaration before play, as records keep them under ``bets``: double, redouble,
    expose (a card), done, or the rank named to open a layout's rows."""
    return DOUBLE_BASE <= action <= DONE or is_expose(action) or is_rank_name(action)


def action_str(action: int) -> str:
    """An action in the notation of records, save files and messages (``parse_action`` reads it):
    a card (``QS``), ``pass``, ``call:H`` / ``call:none``, ``double:1``, ``redouble:2``, ``done``,
    ``choose:3`` (the option of a declarer's choice), ``bid:120`` (an auction bid), ``accept`` /
    ``refuse`` / ``decline`` (an auction's seller), ``expose:KH``, ``rank:7`` (a layout's opening
    rank named); an added phase's actions in its own notation (``face_down:KH``)."""
    if is_expose(action):
        return "expose:" + card_str(exposed_card(action))
    if ADDED_BASE <= action < ADDED_END:
        owner = block_owner(action)
        return owner.notation(action) if owner is not None else f"action:{action}"
    if is_rank_name(action):
        return "rank:" + card_str(named_rank(action))[:-1]
    if is_choice(action):
        return f"choose:{action - CHOOSE_BASE}"
    if action < 52:
        return card_str(action)
    if action == NO_TRUMP:
        return "call:none"
    if is_call(action):
        return "call:" + SUITS[called_suit(action)]
    if DOUBLE_BASE <= action <= DONE:
        return doubling.notation(action)
    if action == PASS or action in SELLER_WORDS or is_bid(action):
        return bidding.notation(action)
    return f"action:{action}"  # a number no phase takes


def parse_action(text: str) -> int:
    """The action ``action_str`` wrote; ``CardError`` (a ``ValueError``) for anything else."""

    t = str(text).strip()
    low = t.lower()
    if low == "pass":
        return PASS
    for action, word in SELLER_WORDS.items():
        if low == word:
            return action
    if low.startswith("choose:") and low[7:].isdigit() and len(low) <= 10 and int(low[7:]) < CHOOSE_END - CHOOSE_BASE:
        return CHOOSE_BASE + int(low[7:])
    if low.startswith("bid:") and low[4:].isdigit() and len(low) <= 10:
        return bid(int(low[4:]))
    if low == "call:none":
        return NO_TRUMP
    if low.startswith("call:") and len(t) == 6 and t[5].upper() in SUITS:
        return call(SUITS.index(t[5].upper()))
    for _, _, owner in BLOCKS.values():  # an added phase's notation (``face_down:KH``)
        added = owner.read_notation(t)
        if added is not None:
            return added
    bet = parse_bet(t)
    return bet if bet is not None else parse_card(t)


def parse_bet(text: str):
    """The action ``action_str`` wrote for a doubling-round action, or None."""
    t = str(text).strip().lower()
    if t == "done":
        return DONE
    if t.startswith("expose:") and len(t) <= 10:
        try:
            return expose(parse_card(t[7:]))
        except CardError:
            return None
    if t.startswith("rank:") and len(t) <= 8:
        try:
            return name_rank(parse_rank(t[5:]))
        except CardError:
            return None
    kind, _, seat = t.partition(":")
    if kind in ("double", "redouble") and seat.isdigit() and int(seat) < 8:
        return (DOUBLE_BASE if kind == "double" else REDOUBLE_BASE) + int(seat)
    return None


#: The phases' names kept here for the modules that import every action number from one place.
__all__ = [
    "ACCEPT",
    "ADDED",
    "ADDED_BASE",
    "ADDED_END",
    "BID_BASE",
    "BLOCKS",
    "CALL_BASE",
    "CARDS",
    "CHOOSE_BASE",
    "CHOOSE_END",
    "DECLINE",
    "DONE",
    "DOUBLE_BASE",
    "EXPOSE_BASE",
    "IllegalAction",
    "MAX_ACTION",
    "MAX_BID",
    "NAME_BASE",
    "NO_TRUMP",
    "NUMBERED",
    "PASS",
    "REDOUBLE_BASE",
    "REFUSE",
    "SELLER_WORDS",
    "action_str",
    "bid",
    "bid_value",
    "block_owner",
    "call",
    "called_suit",
    "double",
    "expose",
    "exposed_card",
    "is_bet",
    "is_bid",
    "is_call",
    "is_choice",
    "is_expose",
    "is_rank_name",
    "name_rank",
    "named_rank",
    "parse_action",
    "parse_bet",
    "redouble",
    "reserve",
]
