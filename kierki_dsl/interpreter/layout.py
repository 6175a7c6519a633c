"""The ``layout`` deal type: Fan Tan / Sevens / loteryjka, compiled from data.

Rows are built by suit from an opening rank, down and up; the ace is low (A 2 .. K) or high
(2 .. K A). The opening rank is fixed, or ``free``: set by the first card played. A player
must play a legal card if he has one, otherwise passes — unless the contract lets him pass at
will or a few times a deal, and passes may cost points paid into a pool that the next player
out takes. A card matching ``again_after`` gives its player another turn at once. Players who
have emptied their hands are skipped. Prizes go in the order players go out, and the deal
ends once every prize is given (or only one player still has cards, or nobody can play).

Layout play, the phase ``layout``, is this one module: the contract's format (``FIELDS``), its rule
and checks (``LayoutContract``, ``LINT_CODES``), its part of the seat view (``LayoutPart``), the deal
type and the deal (``Layout``, ``LayoutDeal``) and its unit (``LayoutPlay``, ``UNIT``): what a person
and a bot see of its play: a card or a pass, the rows in its panel, who moved since a seat's last
turn, the bot's card (``layout_card``).
"""

from __future__ import annotations

from typing import Optional

import attrs

from ..cards import RANK_NAMES, SUIT_MASK, SUIT_NAMES, SUIT_SYMBOLS, card_list, card_pretty, card_str
from ..codes import Code, example, table
from ..expr import CARD_SCOPE, Compiled
from ..expr.types import BOOL, SEAT
from ..i18n import L_, N_, R_, tr
from ..spec.schema import Bool, CardKind, Enum, Expr, ExprSource, Field, Int, List, RankKind
from ..values import frozen
from . import phasecatalogue, scopes
from .actions import PASS, IllegalAction, action_str, is_bet
from .catalogue import Contract, Deal, DealType, register
from .doubling import BettingRound, Doubling, build_doubling, check_doubling
from .envs import NOBODY, seat_env, seat_function
from .fastplay import BLOCKED, compile_layout
from .naming import NameEngine
from .phasekit.base import row, seat
from .phasekit.botplay import bot_contract
from .phasekit.cardpick import CardPhase
from .phasekit.records import PlaysSection
from .phaselist import PhaseList, phase_list
from .phases import EXPECTED, Phase
from .phasesteps import PhaseSteps
from .view import SeatView, shown_part, view_part

#: The keys of a layout contract: its own, and its phases' where the catalogue places them.
FIELDS = phasecatalogue.format_keys(
    "layout",
    {
        "start_rank": Field(
            RankKind(words=("free", "named")),
            "the rank that opens a row (7 in loteryjka); free: the "
            "first card played opens its row, and its rank opens every other row; named: the first "
            "player names the rank before play, one he need not hold (Barbu's domino)",
            default=5,
        ),
        "ace": Field(Enum(("low", "high")), "ace below the 2 (low) or above the king (high)", default="low"),
        "first_turn": Field(Expr("seat"), "who plays first", default=None),
        "first_card": Field(
            CardKind(),
            "the card that must open the layout, before any other row is opened (English "
            "Sevens: 7D, with first_turn: holder(7D))",
            default=None,
        ),
        "must_play": Field(Bool(), "a player who can play must play (else he may pass at will)", default=True),
        "free_passes": Field(
            Int(0, 52),
            "with must_play: how many times a deal a player who could play may pass instead (Shichi Narabe: 3)",
            default=0,
        ),
        "pass_cost": Field(
            Int(0, 10**6),
            "points a player pays into the pool for every pass; the next player to go out takes the pool",
            default=0,
        ),
        "pass_fine": Field(
            Int(0, 10**6),
            "points a player pays into the pool, on top, for passing when he could have played",
            default=0,
        ),
        "again_after": Field(
            Expr("pred"),
            "a card predicate: after playing a matching card the same player plays again (if able), e.g. card.rank == A",
            default=None,
        ),
        "again_optional": Field(
            Bool(),
            "with again_after: the extra card is the player's choice (he may pass instead, "
            "free of any cost); false: he must play it when able",
            default=False,
        ),
        "up_first": Field(
            Bool(),
            "the card above the opening card must be laid before any card below it (Fan Tan: "
            "the 8 follows the 7 before the 6)",
            default=False,
        ),
        "prizes": Field(
            List(Int(-(10**6), 10**6), min_items=1, max_items=8),
            N_("points by finishing place; the deal ends when all are given"),
            required=True,
        ),
    },
)


#: Passes by players who could have played, in one deal, after which everyone must play when
#: able: a deal with passing at will stays finite whatever the players do.
MAX_VOLUNTARY_PASSES = 200


@view_part("layout")
@frozen
class LayoutPart:
    """The layout's part of a seat view (all of it public)."""

    layout: tuple  # one row per suit: None (not open) or (low, high) card ids at the ends
    opening_rank: int  # the rank that opens every row (-1 before the first card of a free start)
    pool: int  # points paid for passes, not yet taken
    free_passes_left: tuple  # per seat, the passes it may still make when able to play
    moves: tuple  # (seat, card or PASS) of every play and pass so far


@frozen(eq=False)
class LayoutContract(Contract):
    phases = phasecatalogue.explained("layout")  # whose words explain says
    name: str
    type: str
    pl: str
    en: str
    total: Optional[int]
    start_rank: Optional[int]  # None: the first card played sets it
    ace_high: bool
    first_turn: Compiled  # compiled seat expression
    must_play: bool
    prizes: tuple
    again: int = 0  # cards after which the same player plays again
    again_optional: bool = False  # the extra turn may be declined with a pass
    free_passes: int = 0
    pass_cost: int = 0
    pass_fine: int = 0
    doubling: Optional[Doubling] = None
    description: str = ""
    up_first: bool = False  # a row grows down only once the card above its opening card lies
    first_card: Optional[int] = None  # the card that must be laid first
    named: bool = False  # the first player names the opening rank before play (start_rank None until then)
    _tables: dict = attrs.field(factory=dict, repr=False)

    def steps(self) -> PhaseList:
        """The list of this contract's phases before play (made once): the naming of the opening
        rank (``start_rank: named``), then the shipped phases its rules hold (the doubling)."""
        got = self._tables.get("steps")
        if got is None:
            own = (NameEngine(self),) if self.named else ()
            got = self._tables["steps"] = PhaseList(own + tuple(phase_list(self)))
        return got

    def position(self, c: int) -> int:
        """A card's place in its row, 0 = the lowest card of the row."""
        r = c % 13
        return r if self.ace_high else (r + 1) % 13

    def card_at(self, suit: int, pos: int) -> int:
        return suit * 13 + (pos if self.ace_high else (pos - 1) % 13)

    def tables(self, start_rank: Optional[int] = None):
        """(opening cards mask, per-card mask of cards it makes playable) for rows opened by
        ``start_rank`` (default: the contract's)."""
        rank = self.start_rank if start_rank is None else start_rank
        assert rank is not None  # a contract without its own opening rank is asked with the one named
        if rank not in self._tables:
            start = self.position(rank)
            opening = 0
            adds = []
            for c in range(52):
                s, p = c // 13, self.position(c)
                if p == start:
                    opening |= 1 << c
                m = 0
                if p <= start and p > 0 and not (self.up_first and p == start and start < 12):
                    m |= 1 << self.card_at(s, p - 1)
                if p >= start and p < 12:
                    m |= 1 << self.card_at(s, p + 1)
                if self.up_first and p == start + 1 and start > 0:  # the card above opens the way down
                    m |= 1 << self.card_at(s, start - 1)
                adds.append(m)
            self._tables[rank] = (opening, tuple(adds))
        return self._tables[rank]

    def unreachable(self, deck: int) -> int:
        """The cards of ``deck`` that no layout can ever take, with a fixed opening rank: each row
        grows one card at a time from its opening card, so a card beyond a gap (a card missing
        from the deck) or in a row whose opening card is missing is never playable (0 with a
        free start, where the first card chooses the opening rank)."""
        if self.start_rank is None:
            return 0
        opening, adds = self.tables()
        reached, frontier = 0, opening & deck
        while frontier:
            c = (frontier & -frontier).bit_length() - 1
            reached |= 1 << c
            frontier = (frontier | adds[c]) & deck & ~reached
        return deck & ~reached

    def new_deal(
        self,
        players: int,
        deck: int,
        dealer: int,
        dealt: list,
        direction: int = 1,
        number: int = 1,
        memory: Optional[dict] = None,
    ):
        return LayoutDeal(self, players, deck, dealer, dealt, direction, number, memory)

    def fast_deal(self, players: int, tricks: int, deck: int, direction: int = 1, policy=None):
        """``deal(dealer, hands, number, rng, log=None, dealt=None) -> (scores, first, caller,
        trump, early, blocked)``: one whole deal on the fast path, random play or every seat
        played by ``policy`` (its ``layout(contract)``); None when this layout needs the
        general interpreter."""
        key = ("deal", players, deck, direction, policy)
        if key not in self._tables:
            self._tables[key] = self._fast_deal(players, deck, direction, policy)
        return self._tables[key]

    def _fast_deal(self, players: int, deck: int, direction: int, policy=None):
        fast = self.fast_player(players, 0, deck)
        if fast is None:
            return None
        ended = fast.ended
        turn = seat_function(self.first_turn, players, deck)
        choose = policy.layout(self) if policy is not None else None

        def deal(dealer: int, hands: list, number: int, rng, log=None, dealt=None, actions=None) -> tuple:
            first = turn(dealer, NOBODY, hands)
            log = actions if actions is not None else log  # the kernel logs a pass too: every action
            scores = fast(hands, first, -1, None if choose else rng.getrandbits, direction, log, choose)
            return scores, first, NOBODY, -1, False, ended[0] == BLOCKED

        return deal

    def fast_player(self, players: int, tricks: int, deck: int):
        """The whole-deal random player of ``fastplay`` for this layout, or None."""
        return compile_layout(self, players)

    def fixed_total(self, hand_size: int, players: int, deck: int) -> Optional[int]:
        """The sum of all seats' points in one deal: the prizes handed out (lint's M601)."""
        return sum(self.prizes[:players])

    def check(self, name: str, spec, w: tuple, bctx, hand_size: int, players: int, deck: int) -> None:
        """Lint's findings about this layout's own rules."""
        if self.free_passes and not self.must_play:
            bctx.warning(
                w + ("free_passes",),
                "M614",
                L_("free_passes has no effect: with must_play false a player may pass at will anyway"),
            )
        if self.pass_fine and self.must_play and not self.free_passes:
            bctx.warning(
                w + ("pass_fine",),
                "M614",
                L_("pass_fine never applies: a player who can play must play"),
                L_("allow passing (must_play: false, or free_passes)"),
            )
        if spec.again_after is not None and not self.again:
            bctx.warning(
                w + ("again_after",), "M615", L_("again_after matches no card of the deck: nobody ever plays again")
            )
        self._check_up_first(w, bctx, deck)
        if bctx.order is not None:
            bctx.warning(
                ("deck", "order"),
                "M640",
                L_(
                    "deck.order does not apply to the layout contract {name!r}: its rows keep the usual sequence (ace low or high)",
                    name=name,
                ),
                advise=False,
            )
        if self.doubling is not None:
            check_doubling(self, w, bctx, players=players)
        if spec.again_optional and spec.again_after is None:
            bctx.warning(
                w + ("again_optional",),
                "M615",
                L_("again_optional has no effect without again_after"),
                L_("say after which cards a player plays again (again_after: card.rank == A)"),
            )
        if len(self.prizes) > players:
            bctx.error(
                w + ("prizes",),
                "M607",
                L_("{n_prizes} prizes for {players} players", n_prizes=len(self.prizes), players=players),
            )
        opening = deck if self.start_rank is None else sum(1 << (s * 13 + self.start_rank) for s in range(4))
        if not opening & deck:
            assert self.start_rank is not None  # else every card of the deck opens a row
            bctx.error(
                w + ("start_rank",),
                "M606",
                L_("the opening rank {start_rank} is not in the deck", start_rank=card_str(self.start_rank)[0]),
            )
            return
        self._check_first_card(w, bctx, deck, opening)
        self._check_unreachable(name, spec, w, bctx, deck)

    def _check_first_card(self, w: tuple, bctx, deck: int, opening: int) -> None:
        """M644: a ``first_card`` that can never be laid first: the layout would be blocked at once."""
        c = self.first_card
        if c is None:
            return
        if self.named:
            bctx.error(
                w + ("first_card",),
                "M644",
                L_(
                    "first_card {c} with start_rank: named: the rank named may be another, and then the first card could never be laid",
                    c=card_str(c),
                ),
                L_("leave out first_card, or fix start_rank"),
            )
        elif not deck >> c & 1:
            bctx.error(
                w + ("first_card",),
                "M644",
                L_("first_card {c} is not in the deck: no card could ever be laid", c=card_str(c)),
                L_("name a card of the deck"),
            )
        elif not opening >> c & 1:
            assert self.start_rank is not None  # else every card of the deck opens a row
            bctx.error(
                w + ("first_card",),
                "M644",
                L_(
                    "first_card {c} cannot open its row: rows open with the {rank}s",
                    c=card_str(c),
                    rank=RANK_NAMES[self.start_rank],
                ),
                L_("name a card of the opening rank"),
            )

    def _check_unreachable(self, name: str, spec, w: tuple, bctx, deck: int) -> None:
        """M617: cards of the deck this layout can never take (their holders can never go out)."""
        dead = self.unreachable(deck)
        if not dead:
            return

        cards = " ".join(card_pretty(x) for x in range(52) if dead >> x & 1)
        ace = "" if self.ace_high else L_("; with the ace low a row runs A 2 3 … K, so a missing 2 cuts off the ace")
        where = (
            w + ("ace",)
            if bctx.written(w + ("ace",))
            else w + ("start_rank",)
            if bctx.written(w + ("start_rank",))
            else w
        )
        bctx.error(
            where,
            "M617",
            L_(
                "layout {name!r} can never reach {cards}: a row grows one card at a time from its opening card, "
                "and the deck has a gap before it{ace}",
                name=name,
                cards=cards,
                ace=ace,
            )
            if dead.bit_count() == 1
            else L_(
                "layout {name!r} can never reach {cards}: a row grows one card at a time from its opening card, "
                "and the deck has a gap before them{ace}",
                name=name,
                cards=cards,
                ace=ace,
            ),
            L_("make the rows continuous (ace: high when the deck lacks the 2s, or put the missing cards back)"),
        )

    def _check_up_first(self, w: tuple, bctx, deck: int) -> None:
        """M645: ``up_first`` that never applies, or that keeps the lower cards out of play."""
        if not self.up_first or self.start_rank is None:
            return
        start = self.position(self.start_rank)
        if start == 12:
            bctx.warning(
                w + ("up_first",), "M645", L_("up_first never applies: the opening card is the top of its row")
            )
        elif not any(deck >> self.card_at(s, start + 1) & 1 for s in range(4)):
            bctx.warning(
                w + ("up_first",),
                "M645",
                L_(
                    "with up_first the cards below the opening card can never be "
                    "laid: the card above it is not in the deck"
                ),
            )

    turn_word = "turn"  # what a numbered step of play is called in messages (a round of turns)

    def aspects(self, rs, spec) -> dict:
        """This contract's rules in words, aspect by aspect (``kierki explain``, ``kierki diff``)."""
        from .layoutwords import aspects

        return aspects(self, rs, spec)

    def wants_tricks(self, tricks_total: int, players: int) -> Optional[bool]:
        """A layout has no tricks: no hint (a bot's hint hook of every deal type)."""
        return None

    def from_view(self, view, hands: list) -> "LayoutDeal":
        """A deal state rebuilt from a seat's view and assumed hands (search, reasons)."""
        return LayoutDeal.from_view(self, view, hands)


@register
class Layout(DealType):
    name = "layout"
    doc = "A layout (Fan Tan / Sevens) deal: build rows by suit from an opening rank; prizes by finishing place."
    fields = FIELDS

    def build(self, name: str, spec, ctx) -> Optional[LayoutContract]:
        w = ("contracts", name)
        first = ctx.expr(spec.first_turn or ExprSource("left(dealer)"), scopes.SEAT_EXPR, SEAT, w + ("first_turn",))
        prizes = spec.prizes
        again = ctx.expr(spec.again_after, CARD_SCOPE, BOOL, w + ("again_after",), predicate=True)
        doubling, doubling_ok = build_doubling(spec.doubling, ctx, w + ("doubling",))
        if first is None or not prizes or (spec.again_after is not None and again is None) or not doubling_ok:
            return None
        return LayoutContract(
            name=name,
            type=self.name,
            pl=spec.pl or name,
            en=spec.en or "",
            total=spec.total,
            start_rank=None if spec.start_rank in ("free", "named") else spec.start_rank,
            named=spec.start_rank == "named",
            ace_high=spec.ace == "high",
            first_turn=first,
            must_play=spec.must_play,
            free_passes=spec.free_passes,
            pass_cost=spec.pass_cost,
            pass_fine=spec.pass_fine,
            prizes=prizes,
            again=again.const if again is not None else 0,
            again_optional=spec.again_optional and again is not None,
            up_first=spec.up_first,
            first_card=spec.first_card,
            doubling=doubling,
            description=spec.description or "",
        )


class LayoutDeal(PhaseSteps, Deal):
    """One layout deal in progress (no trumps, passing or auction: ``Deal``'s defaults): a list
    of phases before play (``LayoutContract.steps``: the naming of the opening rank, the doubling),
    stepped by ``phasesteps.PhaseSteps``, then the layout's play."""

    UNPLAYED_ENDS_EARLY = False  # an undoubled layout that is split is not recorded as ended early

    def __init__(
        self,
        contract: LayoutContract,
        players: int,
        deck: int,
        dealer: int,
        dealt: list,
        direction: int = 1,
        number: int = 1,
        memory: Optional[dict] = None,
    ):
        self.contract = contract
        self.number = number
        self.players = players
        self.deck = deck
        self.dealer = dealer
        self.direction = direction
        self.memory = memory  # the match's memory of earlier deals (a duty to double reads it)
        self.dealt = [list(d) for d in dealt]
        self.hands = [sum(1 << c for c in d) for d in dealt]
        self._open(contract.start_rank)
        self.played = 0
        self.frontier = self._first_frontier()
        self.scores = [0] * players
        self.finished: list[int] = []
        self.actions: list = []
        self.movers: list = []  # the seat that took each action of ``actions``
        self.passes_in_row = 0
        self.extra_turn = False  # the player on turn has just played an again_after card
        self.free_left = [contract.free_passes] * players
        self.voluntary = 0  # passes made by players who could have played
        self.pool = 0  # points paid for passes, for the next player out
        self.paid = [0] * players
        self.phase = Phase.PLAY
        self.to_move = self._first_turn()  # the first player (who names the opening rank, if it is named)
        self.betting: Optional[BettingRound] = None
        self._begin_steps(contract.steps())  # the phases before play, in order

    def _first_turn(self) -> int:
        """The seat the contract's ``first_turn`` names."""
        return self.contract.first_turn.seat(
            seat_env(self.dealer, self.players, NOBODY, self.hands, self.deck), self.players
        )

    def _start_play(self) -> None:
        """Play begins with the first player (the next one holding cards)."""
        self.phase, self._at, self.to_move = Phase.PLAY, -1, self._first_turn()
        if not self.hands[self.to_move]:
            self._advance()

    def _log(self, action: int) -> None:
        """Note an action of a phase before play, and who took it (the cards' are noted inline)."""
        self.actions.append(action)
        self.movers.append(self.to_move)

    def open_named(self, rank: int) -> None:
        """The rank named opens every row (the naming phase's action)."""
        self._open(rank)
        self.frontier = self._first_frontier()

    def _first_frontier(self) -> int:
        """The cards that may be laid while nothing lies: the opening cards, or only ``first_card``."""
        first = self.contract.first_card
        return self.opening if first is None else self.opening & (1 << first)

    def _open(self, start: Optional[int]) -> None:
        """Fix the rank that opens every row; None (a free start) lets any card open its row."""
        self.start = start
        if start is None:
            self.opening, self.adds = self.deck, ()
        else:
            self.opening, self.adds = self.contract.tables(start)

    def set_rows(self, rows, to_move: int) -> None:
        """Set up a position: ``rows`` by suit, each None (closed) or (low card, high card).

        The cards between the ends count as played; ``to_move`` is the seat on turn.
        """
        c = self.contract
        self.played = 0
        self.frontier = 0
        for suit, ends in enumerate(rows):
            if ends is None:
                self.frontier |= self.opening & SUIT_MASK[suit]
                continue
            lo, hi = c.position(ends[0]), c.position(ends[1])
            for p in range(lo, hi + 1):
                self.played |= 1 << c.card_at(suit, p)
            if lo > 0 and not (c.up_first and self.start is not None and hi == c.position(self.start) and hi < 12):
                self.frontier |= 1 << c.card_at(suit, lo - 1)
            if hi < 12:
                self.frontier |= 1 << c.card_at(suit, hi + 1)
        if not self.played:
            self.frontier = self._first_frontier()
        for s in range(self.players):
            self.hands[s] &= ~self.played
        self.to_move = to_move

    def is_terminal(self) -> bool:
        return self.phase == Phase.DONE

    def current_player(self) -> int:
        return -1 if self.phase == Phase.DONE else self.to_move

    def legal_mask(self) -> int:
        return self.hands[self.to_move] & self.frontier

    def legal_actions(self) -> list[int]:
        if self.phase == Phase.DONE:
            return []
        if self._at >= 0:  # a phase before play decides
            return self.steps[self._at].legal(self)
        out = card_list(self.legal_mask())
        c = self.contract
        may_pass = not c.must_play or self.free_left[self.to_move] > 0 or (self.extra_turn and c.again_optional)
        if not out or (may_pass and self.voluntary < MAX_VOLUNTARY_PASSES):
            out.append(PASS)
        return out

    def why_illegal(self, action: int) -> Optional[str]:
        if self.phase == Phase.DONE:
            return R_("the deal is over")
        if self._at >= 0:
            return self.steps[self._at].reason(self, action)
        if action in self.legal_actions():
            return None
        if action == PASS:
            return R_("you must play when you can")
        if not 0 <= action < 52:
            return R_("a card or 'pass' is expected")
        if not self.hands[self.to_move] >> action & 1:
            return R_("{card} is not in the hand of seat {seat}").format(card=card_str(action), seat=self.to_move)
        suit = action // 13
        first = self.contract.first_card
        if first is not None and not self.played and action != first:
            return R_("the {card} must be laid first").format(card=card_str(first))
        if not self.played & SUIT_MASK[suit]:
            assert self.start is not None  # a free start lets any card open its row: it was legal
            opener = RANK_NAMES[self.start]
            return R_("the {suit} row is not open: only its {opener} can open it").format(
                suit=SUIT_NAMES[suit], opener=opener
            )
        if self.contract.up_first and self.start is not None:
            c, pos = self.contract, self.contract.position(action)
            start = c.position(self.start)
            if pos == start - 1 and start < 12 and not self.played >> c.card_at(suit, start + 1) & 1:
                return R_("the {card} must follow the {other} before any lower card").format(
                    card=card_str(c.card_at(suit, start + 1)), other=card_str(c.card_at(suit, start))
                )
        return R_("{card} does not fit next to an end of its row").format(card=card_str(action))

    def apply_action(self, action: int) -> None:
        if self.phase == Phase.DONE:
            raise IllegalAction("the deal is over")
        if self._at >= 0:  # a phase before play decides: its engine checks the action
            self._decide(action)
            return
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason)
        self.play_legal(action)

    def play_legal(self, action: int) -> None:
        """Take an action known to be legal (from ``legal_actions``) without checking it again:
        for search rollouts, which pick among the legal actions themselves."""
        if self._at >= 0:
            self._decide(action)
            return
        seat = self.to_move
        self.actions.append(action)  # (``_log``, inline: once per card)
        self.movers.append(seat)
        if action == PASS:
            if self.extra_turn and self.contract.again_optional:  # declining the extra card: free
                self.extra_turn = False
                self.passes_in_row = 0
                self._advance()
                return
            self.extra_turn = False
            if self._pay_for_pass(seat):  # passing while able to play: the layout is not blocked
                self.passes_in_row = 0
            else:
                self.passes_in_row += 1
            active = sum(1 for h in self.hands if h)
            if self.passes_in_row >= active:  # nobody can move: a blocked layout ends the deal
                self.blocked = True
                self._finish()
                return
        else:
            self.passes_in_row = 0
            if self.start is None:  # a free start: this card's rank opens every row
                self._open(action % 13)
                self.frontier = self.opening
            elif not self.played:  # after a first_card, every row may open
                self.frontier = self.opening
            self.hands[seat] ^= 1 << action
            self.played |= 1 << action
            self.frontier = (self.frontier & ~(1 << action)) | self.adds[action]
            if not self.hands[seat]:
                self._place(seat)
                if self.phase == Phase.DONE:
                    return
            elif self.contract.again >> action & 1:  # an extra turn
                self.extra_turn = True
                return
        self.extra_turn = False
        self._advance()

    def _pay_for_pass(self, seat: int) -> bool:
        """Count and charge a pass; True if the player could have played."""
        c = self.contract
        able = self.legal_mask() != 0
        if able:
            self.voluntary += 1
            if c.must_play:
                self.free_left[seat] -= 1
        cost = c.pass_cost + (c.pass_fine if able else 0)
        if cost:
            self.scores[seat] -= cost
            self.paid[seat] += cost
            self.pool += cost
        return able

    def _place(self, seat: int) -> None:
        place = len(self.finished)
        if self.pool:  # the next player out takes the pool
            self.scores[seat] += self.pool
            self.pool = 0
            self.paid = [0] * self.players
        self.finished.append(seat)
        if place < len(self.contract.prizes):
            self.scores[seat] += self.contract.prizes[place]
        left = [s for s in range(self.players) if self.hands[s]]
        if len(self.finished) >= len(self.contract.prizes):
            self._finish()
        elif len(left) == 1:
            self._place(left[0])

    def _finish(self) -> None:
        if self.pool:  # nobody went out since these passes: they are paid back
            self.scores = [s + p for s, p in zip(self.scores, self.paid)]
            self.pool = 0
        self._settle_steps()  # the bets paid on the scores
        self.phase = Phase.DONE
        self.to_move = -1

    def _advance(self) -> None:
        if self.phase == Phase.DONE:
            return
        s = self.to_move
        for _ in range(self.players):
            s = (s + self.direction) % self.players
            if self.hands[s]:
                self.to_move = s
                return
        self._finish()

    def returns(self) -> list[int]:
        return list(self.scores)

    def trump_letter(self):
        return None

    def record_plays(self) -> list[str]:
        return ["pass" if a == PASS else card_str(a) for a in self.actions if not is_bet(a)]

    def record_bets(self) -> list[str]:
        return [action_str(a) for a in self.actions if is_bet(a)]

    def position(self) -> tuple[int, int]:
        n = sum(1 for a in self.actions if not is_bet(a))
        return n // self.players + 1, n % self.players + 1

    def rows(self) -> tuple:
        out: list[Optional[tuple[int, int]]] = []  # per suit, its row's lowest and highest card (None: not open)
        for s in range(4):
            cards = [c for c in range(s * 13, s * 13 + 13) if self.played >> c & 1]
            if not cards:
                out.append(None)
                continue
            cards.sort(key=self.contract.position)
            out.append((cards[0], cards[-1]))
        return tuple(out)

    def view(self, seat: int) -> SeatView:
        return SeatView(
            seat=seat,
            contract=self.contract.name,
            phase=self.phase.value,
            hand=self.hands[seat],
            legal=tuple(self.legal_actions()) if seat == self.current_player() else (),
            trick=(),
            led_suit=-1,
            trump=-1,
            caller=-1,
            dealer=self.dealer,
            trick_number=0,
            tricks_total=0,
            played=self.played,
            scores=tuple(self.scores),
            completed=(),
            players=self.players,
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            finished=tuple(self.finished),
            deck=self.deck,
            direction=self.direction,
            deal_number=self.number,
            ply=len(self.actions),
            parts=self._parts(),
        )

    def _parts(self) -> tuple:
        """The layout's part of every seat's view (and the doubling round's, with one)."""
        layout = LayoutPart(
            self.rows(),
            -1 if self.start is None else self.start,
            self.pool,
            tuple(self.free_left),
            tuple((s, a) for s, a in zip(self.movers, self.actions) if a == PASS or 0 <= a < 52),
        )
        return (("layout", layout),) + ((("double", self.betting.part()),) if self.betting is not None else ())

    def current_deal(self):
        """The deal being played: this one (a declarer's choice hands on to the chosen deal)."""
        return self

    def playout(self, rng) -> None:
        """Play the deal out at random, for search."""
        grb = rng.getrandbits
        while not self.is_terminal():
            acts = self.legal_actions()
            self.play_legal(acts[(grb(32) * len(acts)) >> 32] if len(acts) > 1 else acts[0])

    def clone(self) -> "LayoutDeal":
        other = object.__new__(LayoutDeal)
        other.__dict__.update(self.__dict__)
        other.hands = list(self.hands)
        other.scores = list(self.scores)
        other.finished = list(self.finished)
        other.free_left = list(self.free_left)
        other.paid = list(self.paid)
        other.actions = list(self.actions)
        other.movers = list(self.movers)
        self._copy_steps(other)
        return other

    @classmethod
    def from_view(cls, contract: LayoutContract, view: SeatView, hands: list) -> "LayoutDeal":
        """A state of ``contract`` rebuilt from a seat's view (the layout is public) and assumed hands."""
        st = object.__new__(cls)
        st.contract = contract
        st.players = view.players
        st.deck = view.deck
        st.dealer = view.dealer
        st.direction = view.direction
        st.dealt = [[] for _ in range(view.players)]
        st.hands = list(hands)
        shown = shown_part(view, LayoutPart)
        st._open(None if shown.opening_rank < 0 else shown.opening_rank)
        st.scores = list(view.scores)
        st.finished = list(view.finished)
        st.actions = []
        st.movers = []
        st.passes_in_row = 0
        # an optional extra turn shows as a pass the seat could not otherwise make
        st.free_left = list(shown.free_passes_left) or [contract.free_passes] * view.players
        st.extra_turn = (
            contract.again_optional
            and PASS in view.legal
            and len(view.legal) > 1
            and contract.must_play
            and not st.free_left[view.seat]
        )
        st.voluntary = 0
        st.pool = shown.pool
        st.paid = [0] * view.players  # who paid is not needed unless the layout blocks
        st.phase, st.memory, st.betting = Phase.PLAY, None, None
        st.number = view.deal_number
        st.set_rows(shown.layout, view.seat)
        st.hands = list(hands)
        st.steps, st._at = contract.steps(), -1
        st._resume_steps(view)  # the bets as the view shows them; the rank still to be named, or play
        return st


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M606",
        "opening rank not in the deck",
        "A layout opened by a rank the deck does not have never starts.",
        "kierki: 1\nname: example\ndeck: {ranks: [8, 9, 10, J, Q, K, A]}\nplayers: 4\nmatch: {schedule: [lot]}\n"
        "contracts:\n  lot:\n    type: layout\n    start_rank: 7\n    prizes: [800, 500]\n",
        "kierki: 1\nname: example\ndeck: {ranks: [8, 9, 10, J, Q, K, A]}\nplayers: 4\nmatch: {schedule: [lot]}\n"
        "contracts:\n  lot:\n    type: layout\n    start_rank: 8\n    ace: high\n    prizes: [800, 500]\n",
        (9, 17),
    ),
    Code(
        "M607",
        "more prizes than players",
        "Prizes are given by finishing place; there cannot be more places than players.",
        example("  lot:\n    type: layout\n    prizes: [5, 4, 3, 2, 1]\n", "[lot]"),
        example("  lot:\n    type: layout\n    prizes: [800, 500]\n", "[lot]"),
        (7, 13),
    ),
    Code(
        "M614",
        "pass rule that never applies",
        "`free_passes` means nothing when players may pass at will "
        "(`must_play: false`), and `pass_fine` is never charged when a player who can play must play.",
        example(
            "  lot:\n    type: layout\n    must_play: false\n    free_passes: 3\n    prizes: [800, 500]\n", "[lot]"
        ),
        example("  lot:\n    type: layout\n    free_passes: 3\n    prizes: [800, 500]\n", "[lot]"),
        (8, 18),
        severity="warning",
    ),
    Code(
        "M615",
        "extra turn after no card",
        "An `again_after` predicate that no card of the deck matches never "
        "gives anyone another turn (a misspelt rank or suit?).",
        "kierki: 1\nname: example\ndeck: {ranks: [8, 9, 10, J, Q, K, A]}\nmatch: {schedule: [lot]}\ncontracts:\n"
        "  lot:\n    type: layout\n    start_rank: 8\n    ace: high\n    again_after: card.rank == 2\n    prizes: [800, 500]\n",
        "kierki: 1\nname: example\ndeck: {ranks: [8, 9, 10, J, Q, K, A]}\nmatch: {schedule: [lot]}\ncontracts:\n"
        "  lot:\n    type: layout\n    start_rank: 8\n    ace: high\n    again_after: card.rank == A\n    prizes: [800, 500]\n",
        (10, 18),
        severity="warning",
    ),
    Code(
        "M644",
        "first card that cannot be laid first",
        "A layout's `first_card` must be laid before any other "
        "card (English Sevens: the 7♦). It must be a card of the deck and of the opening rank, or no card could ever "
        "be laid and every deal would be blocked at once; with `start_rank: named` the opening rank is not known "
        "before the deal, so a first card cannot be required.",
        example("  lot:\n    type: layout\n    first_card: 8D\n    prizes: [800, 500]\n", "[lot]"),
        example(
            "  lot:\n    type: layout\n    first_card: 7D\n    first_turn: holder(7D)\n    prizes: [800, 500]\n",
            "[lot]",
        ),
        (7, 17),
    ),
    Code(
        "M645",
        "up_first that never applies or blocks the row",
        "With `up_first` the card above the opening card must lie before any card below it. It never applies "
        "when the opening card is the top of its row, and it keeps the lower cards out of play for good when the "
        "card above the opening card is not in the deck.",
        example("  lot:\n    type: layout\n    start_rank: K\n    up_first: true\n    prizes: [800, 500]\n", "[lot]"),
        example("  lot:\n    type: layout\n    start_rank: 7\n    up_first: true\n    prizes: [800, 500]\n", "[lot]"),
        (8, 15),
        severity="warning",
    ),
    Code(
        "M617",
        "layout card that can never be played",
        "Rows of a layout grow one card at a time from their "
        "opening card, so a card beyond a gap in the deck (or in a row whose opening card is missing) can never "
        "be played, and its holder can never go out. With 2♣ removed and the ace low, the clubs row ends at the 3 "
        "and A♣ is dead; with the ace high the row runs up to the ace instead.",
        "kierki: 1\nname: example\nplayers: 3\ndeck: {remove: [2C]}\nmatch: {schedule: [lot]}\ncontracts:\n"
        "  lot:\n    type: layout\n    ace: low\n    prizes: [790, 485]\n",
        "kierki: 1\nname: example\nplayers: 3\ndeck: {remove: [2C]}\nmatch: {schedule: [lot]}\ncontracts:\n"
        "  lot:\n    type: layout\n    ace: high\n    prizes: [790, 485]\n",
        (9, 10),
    ),
)

# -- its unit: what a person and a bot see of it (labels, typed words, panel, news, bot hooks) -------


def lays_out(view) -> bool:
    """Whether ``view``'s deal is played to a layout (in any of its phases)."""
    return view.part("layout") is not None


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


class LayoutPlay(PlaysSection, CardPhase):
    """Layout play (Rozbójnik's *układanka*, Fan Tan): a card to the rows on the table, or a pass."""

    name = "layout"
    part_type = LayoutPart
    expected = EXPECTED[Phase.PLAY]
    task = N_("play to the layout or pass")
    searched = True
    card_play = True
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    def matches(self, view) -> bool:
        return view.phase == "play" and lays_out(view)

    def owns(self, action: int) -> bool:
        return 0 <= action < 52 or action == PASS

    def label(self, view, action: int, rules=None) -> str:
        return tr("pass") if action == PASS else super().label(view, action, rules)

    def word(self, view, text: str, rules=None) -> Optional[int]:
        return PASS if text in ("pass", tr("pass")) else super().word(view, text, rules)

    def forced(self, view) -> Optional[tuple]:
        return (PASS, tr("You have nothing to play: you pass.")) if list(view.legal) == [PASS] else None

    def menu(self, view, rules=None) -> list:
        line = super().menu(view, rules)[0]
        return [line + (tr("  or 'pass'") if PASS in view.legal else "")]

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None:
            return []
        if p.opening_rank < 0:
            rows = [
                row(tr("Layout"), tr("nothing played yet; the first card opens its row, and its rank opens every row"))
            ]
        else:
            rows = [row(tr("Layout"), tr("rows open with a {rank}").format(rank=card_pretty(p.opening_rank)[:-1]))]
        for s, r in enumerate(p.layout):
            shown = (
                tr("not open")
                if r is None
                else (card_pretty(r[0]) if r[0] == r[1] else f"{card_pretty(r[0])} … {card_pretty(r[1])}")
            )
            rows.append(row(SUIT_SYMBOLS[s], shown))
        rows.append(row(tr("Cards left"), ", ".join(f"{seat(view, s)} {k}" for s, k in enumerate(view.hand_sizes))))
        if p.pool:
            rows.append(row(tr("Pool"), tr("{points} points, for the next player to go out").format(points=p.pool)))
        if any(p.free_passes_left):
            rows.append(
                row(
                    tr("Free passes left"),
                    ", ".join(f"{seat(view, s)} {k}" for s, k in enumerate(p.free_passes_left)),
                )
            )
        return rows

    def news(self, view, last) -> list:
        """Who played which card and who passed since this seat's last turn (or, at its first
        turn of the deal, since the deal began)."""
        p = self.part(view)
        seen = len(self.part(last).moves) + 1 if last is not None else 0  # this seat's own move is not news
        if len(p.moves) <= seen:  # nobody else moved (an extra turn)
            return []
        moved = [f"{seat(view, s)} " + (tr("passed") if a == PASS else card_pretty(a)) for s, a in p.moves[seen:]]
        return [(tr("Since your last turn: ") if last is not None else tr("Played so far: ")) + ", ".join(moved)]

    def previous(self, view) -> str:
        return tr("No trick has been finished yet in this deal.")

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The card ``layout_card`` picks, or a pass when the seat has none to play."""
        cards = [a for a in view.legal if a != PASS]
        if not cards:
            return PASS
        return layout_card(bot_contract(rules, view.contract), cards, view.hand, self.part(view).opening_rank)


UNIT = LayoutPlay()
