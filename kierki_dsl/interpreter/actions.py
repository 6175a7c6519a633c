"""Action numbers shared by every deal type: cards are 0..51, then pass, trump calls and bets."""

from __future__ import annotations

from ..cards import SUITS, CardError, card_str, parse_card, parse_rank

PASS = 52
CALL_BASE = 53  # CALL_BASE + suit (0..3) names that suit trumps
NO_TRUMP = 57  # the caller chose to play without trumps
DOUBLE_BASE = 58  # DOUBLE_BASE + seat (0..7): double that seat
REDOUBLE_BASE = 66  # REDOUBLE_BASE + seat: redouble a seat that doubled you
DONE = 74  # no more doubles (or redoubles) from this seat
ACCEPT = 75  # an auction's seller accepts the best bid (sells the deal to its bidder)
REFUSE = 76  # an auction's seller refuses it and plays the deal himself
DECLINE = 77  # an auction's seller declines to play the deal (fixed scores)
SELLER_WORDS = {ACCEPT: "accept", REFUSE: "refuse", DECLINE: "decline"}
NAME_BASE = 80  # NAME_BASE + rank (0..12): a layout's declarer names the rank that opens the rows
CHOOSE_BASE = 100  # CHOOSE_BASE + i: a declarer chooses option i of a declarer's-choice deal
CHOOSE_END = 500  # a declarer's choice offers at most 32 contracts: 100..499 are kept for it
ADDED_BASE = 500  # ADDED_BASE..ADDED_END - 1: blocks handed out to phases added by a module (``reserve``)
ADDED_END = 900
EXPOSE_BASE = 900  # EXPOSE_BASE + card: show that card before play (exposure doubling)
BID_BASE = 1000  # BID_BASE + value: a bid of that value in an auction (a pass there is PASS)
MAX_BID = 100_000  # the highest bid an auction may allow (its schema's bound)
MAX_ACTION = BID_BASE + MAX_BID  # no action of any phase is numbered higher


def call(suit: int) -> int:
    return NO_TRUMP if suit < 0 else CALL_BASE + suit


def called_suit(action: int) -> int:
    """The suit an action calls (-1 for no trumps)."""
    return -1 if action == NO_TRUMP else action - CALL_BASE


def is_call(action: int) -> bool:
    return CALL_BASE <= action <= NO_TRUMP


def double(seat: int) -> int:
    return DOUBLE_BASE + seat


def redouble(seat: int) -> int:
    return REDOUBLE_BASE + seat


def bid(value: int) -> int:
    """The action bidding ``value`` in an auction."""
    return BID_BASE + value


def bid_value(action: int) -> int:
    return action - BID_BASE


def is_bid(action: int) -> bool:
    """An auction bid (not a pass)."""
    return action >= BID_BASE


def is_choice(action: int) -> bool:
    """A declarer's choice of contract (``CHOOSE_BASE + i``)."""
    return CHOOSE_BASE <= action < CHOOSE_END


#: The blocks of action numbers handed out to added phases: owner name -> (base, width, owner).
#: An owner has ``notation(action)`` (its record notation, ``name:...``) and ``read_notation(text)``.
BLOCKS: dict = {}


def reserve(owner) -> int:
    """The first action number of ``owner``'s block of ``owner.action_width`` numbers: handed out
    once per owner name, below ``EXPOSE_BASE`` (so below ``MAX_ACTION``), the same block again when
    the owner is registered again. ``ValueError`` when no room is left."""
    got = BLOCKS.get(owner.name)
    if got is not None and got[1] == owner.action_width:
        BLOCKS[owner.name] = (got[0], got[1], owner)
        return got[0]
    start = max((b + w for b, w, _ in BLOCKS.values()), default=ADDED_BASE)
    if start + owner.action_width > ADDED_END:
        raise ValueError(f"no room for {owner.action_width} more action numbers of phase {owner.name!r}")
    BLOCKS[owner.name] = (start, owner.action_width, owner)
    return start


def block_owner(action: int):
    """The added phase whose block holds ``action``, or None."""
    if ADDED_BASE <= action < ADDED_END:
        for base, width, owner in BLOCKS.values():
            if base <= action < base + width:
                return owner
    return None


def expose(card: int) -> int:
    """The action showing ``card`` before play (exposure doubling)."""
    return EXPOSE_BASE + card


def exposed_card(action: int) -> int:
    return action - EXPOSE_BASE


def is_expose(action: int) -> bool:
    return EXPOSE_BASE <= action < EXPOSE_BASE + 52


def name_rank(rank: int) -> int:
    """The action naming ``rank`` (0 = 2 .. 12 = A) the opening rank of a layout's rows."""
    return NAME_BASE + rank


def named_rank(action: int) -> int:
    return action - NAME_BASE


def is_rank_name(action: int) -> bool:
    return NAME_BASE <= action < NAME_BASE + 13


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
    if action == PASS:
        return "pass"
    if action in SELLER_WORDS:
        return SELLER_WORDS[action]
    if is_bid(action):
        return f"bid:{action - BID_BASE}"
    if action == NO_TRUMP:
        return "call:none"
    if is_call(action):
        return "call:" + SUITS[action - CALL_BASE]
    if action == DONE:
        return "done"
    if action >= REDOUBLE_BASE:
        return f"redouble:{action - REDOUBLE_BASE}"
    return f"double:{action - DOUBLE_BASE}"


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


class IllegalAction(Exception):
    """An action that the rules do not allow now; ``reason`` says which rule."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
