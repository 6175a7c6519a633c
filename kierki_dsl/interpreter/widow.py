"""A widow (Tysiąc's *musik*, V8's face-up cards): cards dealt aside that one player takes.

A trick contract with ``widow: {cards: 3, then: give}`` deals the last ``cards`` cards of the
usual one-at-a-time dealing to a widow instead of the hands. Once the auction is over (and any
passing), the ``taken_by`` seat (default: the auction's winner, ``bidder``) takes the widow —
its cards are then shown to everybody — and puts as many cards out of his hand again, one at a
time: with ``then: discard`` he lays ``cards`` cards aside (they score for nobody); with
``then: give`` he gives ``each`` cards to every other player, the first ``each`` to the player
after him, the next ``each`` to the one after that, and so on (Tysiąc: one card to each of the
two others). Then the trump call (if any) and play follow. With ``face_up: true`` the widow
lies face up from the start (V8's four cards), so bidders see it.

A seat sees the widow once it is shown, the cards it gave or was given, and how many cards
lie aside that it cannot see (``aside``); records hold the taker's cards under ``exchange``.

The whole phase is this module: its part of the format, its rule and checks and its part of the
seat view; its engine (``WidowEngine``: how a trick deal steps the exchange) and its unit
(``UNIT``: labels, typed words, panel, record, bot hooks) at the end. The deal that deals the
widow aside (``widowstate.WidowDeal``) is a deal type the declarations' deals build on too.
"""

from __future__ import annotations

from typing import Optional

from ..cards import CardError, bits, card_pretty, card_str, read_card
from ..codes import Code, example, table
from ..expr.types import SEAT
from ..i18n import L_, N_, R_, tr, trn
from ..spec.schema import Bool, Enum, Expr, ExprSource, Field, Int, Obj
from ..values import frozen
from ..words import seat as seat_words
from . import scopes
from .bidding import bid, bid_value, is_bid
from .phaseengine import PhaseEngine
from .phasekit.base import NotUnderstood, PhaseUnit, cards_text, contract_of, row, seat
from .phasekit.cardpick import CardPhase
from .phases import EXPECTED, Phase
from .stock import stock_order, unseen_rest
from .view import shown_part, view_part

WIDOW = Obj(
    {
        "cards": Field(
            Int(1, 20),
            N_("how many cards are dealt to the widow instead of the hands (the last ones dealt)"),
            required=True,
        ),
        "taken_by": Field(
            Expr("seat"), "who takes the widow once the auction is over (default: bidder, its winner)", default=None
        ),
        "then": Field(
            Enum(("discard", "give")),
            "discard: the taker lays as many cards aside; give: he gives `each` cards to every other player",
            default="discard",
        ),
        "each": Field(Int(1, 10), "with then: give, how many cards each other player gets", default=1),
        "face_up": Field(
            Bool(), "the widow lies face up from the start; otherwise it is shown when taken", default=False
        ),
        "raise_bid": Field(
            Bool(),
            "after putting his cards out, the auction's winner names his contract: his bid or "
            "a higher one the auction's steps and `allow` permit with his new hand (Tysiąc's "
            '"ustalenie poziomu gry")',
            default=False,
        ),
    },
    title="widow",
    doc="Cards dealt aside (Tysiąc's musik): after the auction the winner takes them and then discards as many, or "
    "gives some to every other player.",
)
#: Its part of a contract's format, under ``KEY``.
FIELD = Field(
    WIDOW,
    "cards dealt aside that the auction's winner takes, then discards or gives as many (Tysiąc's musik)",
    default=None,
)


@view_part("exchange")
@frozen
class WidowPart:
    """The widow's part of a seat view: what this seat may know of the widow and the exchange."""

    widow: tuple  # the widow's cards once shown (or lying face up): public
    taker: int  # the seat that took the widow (-1: not yet, or none)
    exchanged: tuple  # (card, seat it went to or -1) of the taker's cards this seat may know
    aside: int  # cards out of play this seat cannot see (a face-down widow, another's discards)


@frozen(eq=False)
class Widow:
    """A contract's compiled widow rule."""

    cards: int
    taken_by: object  # compiled seat expression
    give: bool
    each: int
    face_up: bool
    raise_bid: bool = False  # the taker may raise his winning bid once his cards are out

    def split(self, dealt: list, dealer: int, players: int, direction: int) -> tuple[list, list]:
        """(each seat's hand, the widow) from a whole deal: the widow is the last ``cards``
        cards in dealing order."""
        per_seat = len(dealt[0]) if dealt else 0
        keep = per_seat - self.cards // players
        hands = [list(d[:keep]) for d in dealt]
        widow = [
            dealt[(dealer + direction * (1 + i)) % players][i // players]
            for i in range(keep * players, per_seat * players)
        ]
        return hands, widow

    def tricks(self, hand_size: int, players: int) -> int:
        """Cards each player holds when play starts (so tricks in the deal): a widow given away
        evens the hands out again; one laid aside leaves everybody ``cards / players`` short."""
        return hand_size if self.give else hand_size - self.cards // players

    def out_count(self, players: int) -> int:
        """How many cards the taker puts out of his hand after taking the widow."""
        return self.each * (players - 1) if self.give else self.cards

    def recipient(self, taker: int, i: int, players: int, direction: int) -> int:
        """Who gets the taker's ``i``-th card (0-based): a seat, or -1 (laid aside)."""
        if not self.give:
            return -1
        return (taker + direction * (1 + i // self.each)) % players


def build_widow(spec, ctx, where: tuple, has_auction: bool) -> tuple[Optional[Widow], bool]:
    """(the rule or None, whether it compiled); M633 for a widow that cannot work."""
    if spec is None:
        return None, True

    taker = ctx.expr(spec.taken_by or ExprSource("bidder"), scopes.SEAT_EXPR, SEAT, where + ("taken_by",))
    if taker is None:
        return None, False
    players = max(1, ctx.players)
    cards, ok = spec.cards, True
    if cards % players:
        ctx.error(
            where + ("cards",),
            "M633",
            L_(
                "a widow of {cards} cards leaves {players} hands unequal: it must be a multiple of {players}",
                cards=cards,
                players=players,
            ),
            L_("the widow takes the last cards dealt, the same number from each hand"),
        )
        ok = False
    elif cards >= ctx.deck.bit_count():
        ctx.error(where + ("cards",), "M633", L_("a widow of {cards} cards leaves no hands to deal", cards=cards))
        ok = False
    elif spec.then == "give" and spec.each * players != cards:
        ctx.error(
            where + ("each",),
            "M633",
            L_(
                "taking {cards} cards and giving {each} to each of the {others} others leaves the hands unequal",
                cards=cards,
                each=spec.each,
                others=players - 1,
            ),
            L_("give {each} to each", each=cards // players),
        )
        ok = False
    if "bidder" in taker.free and not has_auction:
        ctx.error(
            where + ("taken_by",),
            "M633",
            L_("the widow goes to `bidder`, but this contract has no auction"),
            L_("add an auction, or say who takes it (taken_by: dealer)"),
        )
        ok = False
    if spec.raise_bid and (not has_auction or spec.taken_by is not None and spec.taken_by.text.strip() != "bidder"):
        ctx.error(
            where + ("raise_bid",),
            "M633",
            L_(
                "raise_bid lets the auction's winner raise his bid after taking "
                "the widow: the contract needs an auction, and the widow must go to its winner"
            ),
            L_("add an auction and leave taken_by out (it is the bidder)"),
        )
        ok = False
    if not ok:
        return None, False
    return Widow(cards, taker, spec.then == "give", spec.each, spec.face_up, spec.raise_bid), True


#: The trick contract's key that brings the phase into a deal, and where its words stand (``kierki explain``).
KEY = "widow"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("widow")
WORDS_AT = "setup"


def explain(spec, contract, rs) -> dict:
    """The deal and the widow in words."""
    cards = contract.widow.cards
    dealt = rs.hand_size - cards // rs.players
    return {
        "deal": tr(
            "{dealt} cards each and {cards} to the widow, dealt one at a time starting with the "
            "dealer's left-hand neighbour"
        ).format(dealt=dealt, cards=cards),
        ASPECT: words(spec),
    }


def words(spec) -> str:
    """The widow in words (``kierki explain``, ``kierki diff``)."""
    who = seat_words(spec.taken_by.text) if spec.taken_by is not None else tr("its winner")
    lies = tr("face up") if spec.face_up else tr("face down")
    after = (
        trn("gives {count} card to every other player", "gives {count} cards to every other player", spec.each).format(
            count=spec.each
        )
        if spec.then == "give"
        else tr("lays {cards} cards aside, which score for nobody").format(cards=spec.cards)
    )
    shown = "" if spec.face_up else tr(", shows them")
    raised = tr("; then he names his contract: his bid, or a higher one he could bid") if spec.raise_bid else ""
    return tr(
        "the last {cards} cards dealt lie {lies} as a widow; after the auction {who} takes them{shown} "
        "and {after}{raised}"
    ).format(cards=spec.cards, lies=lies, who=who, shown=shown, after=after, raised=raised)


def mask(cards) -> int:
    """The bit mask of ``cards`` (a list of card numbers)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M633",
        "a widow that cannot work",
        "A `widow` takes the last cards dealt, the same number from each hand, so "
        "its `cards` must be a multiple of the number of players and leave cards to deal; with `then: give` the taker "
        "gives `each` cards to every other player, which leaves equal hands only when `cards` is `each` times the "
        "players; a widow taken by `bidder` needs an auction, and a contract has a stock or a widow, not both. "
        "`raise_bid` (the winner names his contract after the exchange) needs an auction whose winner takes the widow.",
        example(
            "  bez_lew:\n    auction: {min: 1, max: 13}\n    widow: {cards: 3}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        example(
            "  bez_lew:\n    auction: {min: 1, max: 13}\n    widow: {cards: 4}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        (7, 20),
    ),
)


# -- its engine -----------------------------------------------------------------------------------


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
            return R_("{card} is not in your hand").format(card=card_str(action))
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


# -- its unit -------------------------------------------------------------------------------------


def lowest_card(cards) -> int:
    """A widow's taker's card to give or lay aside: the lowest rank (then the lowest suit)."""
    return min(cards, key=lambda c: (c % 13, c // 13))


def taker_action(legal) -> int:
    """The heuristic taker's action: his lowest card out; once his cards are out, his bid kept as his contract."""
    return lowest_card(legal) if legal[0] < 52 else legal[0]


def _raising(view) -> bool:
    """The taker, his cards out, names his contract (``raise_bid``): his bid or a higher one."""
    return bool(view.legal) and is_bid(view.legal[0])


class Exchange(CardPhase):
    """The widow's exchange as a person and a bot see it: the taker gives away or lays aside cards
    of his hand, then (``raise_bid``) names his contract; its labels, panel, record and hooks."""

    name = "exchange"
    part_type = WidowPart
    expected = EXPECTED[Phase.EXCHANGE]
    task = N_("give away or lay aside a card of your hand")
    hint = N_("Type a number from the list or a card such as KH.")
    private = True  # a card given or laid aside is known to the taker; its receiver sees it in his hand
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    # record hooks: the cards the taker gave or laid aside, then the contract he named (``bid:130``)
    record_key = "exchange"
    record_rank = 40
    record_shown_text = "exchange {entry}"
    record_short_text = "the record's exchange ends before the widow's taker has put out all his cards"
    record_extra_text = "the exchange is over but the record has more: {entry}"
    record_absent_text = "the record has an 'exchange' but in deal {deal} ({contract}) no widow is taken"

    def record_section(self, result) -> Optional[list]:
        return list(result.exchange)

    # adapter hooks: a card put out is its taker's secret and its receiver's
    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        if not self.puts_out(action):  # the contract named after the exchange: public
            return super().reveal(deal, seat, action, dealt)
        out = [(seat, f"p{seat} puts out {card_str(action)}"), (None, f"p{seat} puts out a card")]
        for s in range(len(dealt)):
            if (action, s) in self.part(deal.view(s)).exchanged:
                out.append((s, f"p{s} receives {card_str(action)}"))
        return out

    def puts_out(self, action: int) -> bool:
        return action < 52

    def owns(self, action: int) -> bool:
        return super().owns(action) or is_bid(action)

    def label(self, view, action: int, rules=None) -> str:
        return str(bid_value(action)) if is_bid(action) else super().label(view, action, rules)

    def choices(self, view, rules=None) -> list:
        if _raising(view):
            return list(view.legal)
        return sorted(view.legal, key=lambda c: (c // 13, -(c % 13)))

    def read(self, view, text: str, rules=None) -> int:
        t = text.strip()
        if _raising(view) and t.isdecimal() and len(t) <= 6 and int(t) > len(view.legal):
            return bid(int(t))  # a contract typed as its value, not its number on the list
        if _raising(view) and not t.isdecimal():
            raise NotUnderstood(tr("Type a contract from the list, such as 120, or its number."))
        return super().read(view, text, rules)

    def word(self, view, text: str, rules=None) -> Optional[int]:
        try:
            return read_card(text)
        except CardError:
            return None

    def _to(self, view, rules) -> int:
        """The seat the next card goes to (-1: it is laid aside)."""
        contract = contract_of(rules, view.contract)
        rule = contract.widow if contract is not None else None
        return rule.recipient(view.seat, len(self.part(view).exchanged), view.players, view.direction) if rule else -1

    def advice(self, view, rules=None) -> list:
        if _raising(view):
            bid_standing = view.part("auction").bid  # the auction's: the bid he won
            return [tr("Name your contract: your bid, {bid}, or a higher one.").format(bid=bid_standing)]
        return [tr("You took the widow: {cards}.").format(cards=cards_text(self.part(view).widow))]

    def menu(self, view, rules=None) -> list:
        return PhaseUnit.menu(self, view, rules) if _raising(view) else super().menu(view, rules)

    def prompt(self, view, rules=None) -> str:
        if _raising(view):
            return tr("contract")
        to = self._to(view, rules)
        return tr("a card to give to {seat}").format(seat=seat(view, to)) if to >= 0 else tr("a card to lay aside")

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        if _raising(view):  # the rule's reason speaks of the exchange; the contracts are what matters
            named = ", ".join(self.label(view, a, rules) for a in view.legal)
            return tr("{typed} is not a contract you may name: name one of {named}.").format(typed=text, named=named)
        refused = (
            tr("You cannot give {typed}: {reason}.")
            if self._to(view, rules) >= 0
            else tr("You cannot lay aside {typed}: {reason}.")
        )
        return refused.format(typed=text, reason=reason or tr("not allowed now"))

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None:
            return []
        rows = []
        if p.widow:
            taker = tr(" (taken by {seat})").format(seat=seat(view, p.taker)) if p.taker >= 0 else ""
            rows.append(row(tr("Widow"), cards_text(p.widow) + taker))
        if p.exchanged:
            rows.append(
                row(
                    tr("So far"),
                    ", ".join(
                        tr("{card} to {seat}").format(card=card_pretty(c), seat=seat(view, t))
                        if t >= 0
                        else tr("{card} laid aside").format(card=card_pretty(c))
                        for c, t in p.exchanged
                    ),
                )
            )
        return rows

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """His lowest cards out, then his bid kept as his contract."""
        return taker_action(view.legal)

    def rollout_action(self, state) -> Optional[int]:
        """The taker puts out his lowest cards and keeps his bid, as the heuristic does."""
        return taker_action(state.legal_actions())

    # adapter hooks: the taker may put out as many cards as the deck holds
    def most_decisions(self, contract, players: int, cards: int) -> int:
        return cards if getattr(contract, "widow", None) is not None else 0

    # bot hooks: a face-up widow lies on the table, in nobody's hand, until it is taken; the
    # cards this seat laid aside lie out of every hand, those it gave away are with their receiver
    def out_of_hands(self, view) -> int:
        p = self.part(view)
        if p is None:
            return 0
        laid = sum(1 << c for c, to in p.exchanged if to < 0)
        return laid if p.taker >= 0 else laid | sum(1 << c for c in p.widow)

    def out_unseen(self, view) -> int:
        p = self.part(view)
        return p.aside if p is not None else 0

    def shown_held(self, view) -> list:
        p = self.part(view)
        return [(to, c) for c, to in p.exchanged if to >= 0] if p is not None else []


UNIT = Exchange()


__all__ = [
    "UNIT",
    "WIDOW",
    "Exchange",
    "Widow",
    "WidowEngine",
    "bits",
    "build_widow",
    "lowest_card",
    "mask",
    "taker_action",
    "words",
]
