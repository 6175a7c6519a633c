"""Action numbers: every phase's blocks assembled into one table, the record notation, the
blocks handed out to phases added by a module.

Cards are 0..51 whatever phase plays them (the deck's own numbers). Every other number is
declared by the phase that takes it, in its module (``numbering.Block``; the shipped
phases' modules are listed in ``phasecatalogue``): the auction's ``pass``, seller's words and
bids (``bidding``), the trump call (``calling``), the doubling round (``doubling``), a layout's
named rank (``naming``), a declarer's choice (``choice``), exposures (``exposure``).
``NUMBERED`` assembles them and refuses two that overlap; the names below are those phases'
own, kept here for the modules that import them from one place.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Optional

from ..cards import CardError, card_str, parse_card
from . import phasecatalogue
from .bidding import ACCEPT, BID_BASE, DECLINE, MAX_BID, PASS, REFUSE, SELLER_WORDS, bid, bid_value, is_bid
from .calling import CALL_BASE, NO_TRUMP, call, called_suit, is_call
from .choice import CHOOSE_BASE, CHOOSE_END, is_choice
from .doubling import DONE, DOUBLE_BASE, REDOUBLE_BASE, double, redouble
from .exposure import EXPOSE_BASE, expose, exposed_card, is_expose
from .naming import NAME_BASE, is_rank_name, name_rank, named_rank
from .numbering import ADDED, ADDED_BASE, ADDED_END, BLOCKS, Block, IllegalAction, assemble, block_owner, reserve

CARDS = Block("cards", 0, 52, "a card, whatever phase takes it: played, passed, given, laid out")
#: Every block of action numbers, by its first number: the cards, the shipped phases'
#: (``phasecatalogue``), the added ones'.
NUMBERED = assemble(CARDS, ADDED, *phasecatalogue.numbering())
MAX_ACTION = NUMBERED[-1].end - 1  # no action of any phase is numbered higher


#: The module of each shipped phase that numbers actions, by phase (``Block.phase``): its
#: ``notation(action)`` writes them, its ``read_notation(text)`` reads them back (None: not its).
NOTATIONS = {p.name: phasecatalogue.phase_module(p.name) for p in phasecatalogue.PHASES if p.numbers}
_BASES = [b.base for b in NUMBERED]


def block_of(action: int) -> Optional[Block]:
    """The block of ``NUMBERED`` holding ``action``, or None (a number no phase takes)."""
    i = bisect_right(_BASES, action) - 1
    return NUMBERED[i] if i >= 0 and NUMBERED[i].holds(action) else None


#: The phases whose actions records keep under ``bets`` (``phasecatalogue``).
BETS = frozenset(p.name for p in phasecatalogue.PHASES if p.bets)
#: Every number of their blocks (a set: ``is_bet`` is asked of every action a record writes).
_BET_ACTIONS = frozenset(a for b in NUMBERED if b.phase in BETS for a in range(b.base, b.end))


def is_bet(action: int) -> bool:
    """A side declaration before play, as records keep them under ``bets``: double, redouble,
    expose (a card), done, or the rank named to open a layout's rows."""
    return action in _BET_ACTIONS


def action_str(action: int) -> str:
    """An action in the notation of records, save files and messages (``parse_action`` reads it):
    a card (``QS``), ``pass``, ``call:H`` / ``call:none``, ``double:1``, ``redouble:2``, ``done``,
    ``choose:3`` (the option of a declarer's choice), ``bid:120`` (an auction bid), ``accept`` /
    ``refuse`` / ``decline`` (an auction's seller), ``expose:KH``, ``rank:7`` (a layout's opening
    rank named); an added phase's actions in its own notation (``face_down:KH``). Each is the
    notation of the module of the phase numbering it (``NOTATIONS``)."""
    if action < 52:
        return card_str(action)
    block = block_of(action)
    if block is None and action > MAX_ACTION:  # the top block's numbers run on (``is_bid``: any from its base)
        block = NUMBERED[-1]
    if block is ADDED:
        owner = block_owner(action)
        return owner.notation(action) if owner is not None else f"action:{action}"
    if block is None:
        return f"action:{action}"  # a number no phase takes
    return NOTATIONS[block.phase].notation(action)


def parse_action(text: str) -> int:
    """The action ``action_str`` wrote; ``CardError`` (a ``ValueError``) for anything else."""
    t = str(text).strip()
    if len(t) <= 3 and ":" not in t and not BLOCKS:  # most of a record: a card (no shipped notation is so short)
        try:
            return parse_card(t)
        except CardError:
            pass
    for module in NOTATIONS.values():
        action = module.read_notation(t)
        if action is not None:
            return action
    for _, _, owner in BLOCKS.values():  # an added phase's notation (``face_down:KH``)
        added = owner.read_notation(t)
        if added is not None:
            return added
    return parse_card(t)


def parse_bet(text: str) -> Optional[int]:
    """The action ``action_str`` wrote for a bet (``is_bet``), or None."""
    try:
        action = parse_action(text)
    except ValueError:
        return None
    return action if is_bet(action) else None


#: The phases' names kept here for the modules that import every action number from one place.
__all__ = [
    "ACCEPT",
    "ADDED",
    "ADDED_BASE",
    "ADDED_END",
    "BID_BASE",
    "BETS",
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
    "NOTATIONS",
    "NUMBERED",
    "PASS",
    "REDOUBLE_BASE",
    "REFUSE",
    "SELLER_WORDS",
    "action_str",
    "bid",
    "bid_value",
    "block_of",
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
