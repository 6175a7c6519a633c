"""The ``tricks`` deal type: trick-taking contracts, compiled from data.

Everything a trick deal does is data: who leads, the trump (none, fixed, or called by a
seat after seeing some cards), play restrictions (follow suit, forbidden or required cards,
each with the "unless nothing else is possible" fallback), scoring components (per trick,
per card, per seat, or ``include`` of other contracts' components by reference) and an
optional end condition.

Trick play, the phase ``play``, is this one module: the contract's format (``FIELDS``), its
compiled rule (``TrickContract``), the deal type (``Tricks``) and the unit (``TrickPlay``, ``UNIT``:
a card to the trick in progress, its labels, panel, record of plays, news and bot hooks). The deal's
state, which the phases before play share, is ``trickstate``'s.
"""

from __future__ import annotations

from typing import Optional, cast

import attrs

from ..cards import SUIT_NAMES, CardError, card_pretty, read_card
from ..diagnostics import Diagnostic
from ..expr import CardPredicate, Compiled, RuleRuntimeError
from ..expr.types import BOOL, INT, SEAT
from ..i18n import L_, N_, tr
from ..spec.schema import Bool, Enum, Expr, ExprSource, Field, List, Obj, OneOf, Str, attr_name
from ..values import frozen
from . import extensions, phasecatalogue, scopes
from .actions import IllegalAction
from .bidding import Auction, build_auction, check_auction
from .calling import SUIT_CHOICES, TRUMP_CALL, TrumpCall
from .catalogue import Contract, DealType, register
from .declarations import build_declarations, check_declarations
from .doubling import Doubling, build_doubling, check_doubling
from .draws import draw
from .envs import NOBODY, card_scoring_env, seat_function, trick_env
from .exposure import Exposure, build_exposure, check_exposure
from .fastplay import EARLY, compile_tricks
from .fastplay import exchange as hand_over
from .matchvalues import reads_match
from .passing import PassCards, build_passing
from .phasekit.base import NotUnderstood, contract_of, row, seat
from .phasekit.cardpick import CardPhase
from .phasekit.records import PlaysSection
from .phases import EXPECTED, Phase
from .stock import Stock, build_stock, check_stock
from .trickkernel import beats_table, is_positive, values_by_trick, winning_play
from .unheld import check_unheld
from .widow import Widow, build_widow

SCORE_ITEM = Obj(
    {
        "per_trick": Field(Expr("int"), "points for each trick won, to its winner"),
        "when": Field(Expr("bool"), "with per_trick or per_card: only tricks where this holds (e.g. trick.is_last)"),
        "per_card": Field(Expr("pred"), "a card predicate: each matching card won scores `points`"),
        "points": Field(Expr("int"), "with per_card: the points for each matching card"),
        "per_seat": Field(Expr("int"), "points for each seat when the deal ends (tricks_taken, taken(...))"),
        "include": Field(
            OneOf(scalar=Str(r"[a-z][a-z0-9_]*"), seq=List(Str(r"[a-z][a-z0-9_]*"), min_items=1)),
            "score as these contracts score too (by reference)",
        ),
        "label": Field(Str(), "a short name for this component, for explanations"),
    },
    title="score item",
    doc="One scoring component; exactly one of per_trick, per_card, per_seat, include.",
)

RESTRICTION = Obj(
    {
        "phase": Field(
            Enum(("lead", "follow", "discard", "any")),
            N_("when it applies: leading, following suit, unable to follow (discard), or always"),
            required=True,
        ),
        "forbid": Field(Expr("pred"), "cards that may not be played"),
        "require": Field(Expr("pred"), "cards that must be played (one of them)"),
        "when": Field(Expr("bool"), "only when this holds"),
        "fallback": Field(Bool(), "if the rule would leave no legal card, ignore it (default true)", default=True),
        "reason": Field(Str(), "the rule in words, shown to a player who breaks it"),
    },
    title="restriction",
    doc="A restriction on which cards may be played.",
)

#: The keys of a trick contract: its own (trick play's), and its phases' where the catalogue places them.
FIELDS = phasecatalogue.format_keys(
    "tricks",
    {
        "first_lead": Field(Expr("seat"), "who leads to the first trick", default=None),
        "trump": Field(
            OneOf(scalar=Enum(SUIT_CHOICES), mapping=TRUMP_CALL), "none, a fixed suit, or a call", default="none"
        ),
        "follow_suit": Field(Bool(), "a player holding the suit led must play it", default=True),
        "lead_ban": Field(Expr("pred"), "cards that may not be led unless the hand holds nothing else"),
        "lead_ban_reason": Field(Str(), "the lead ban in words"),
        "restrictions": Field(
            List(RESTRICTION, max_items=32), "further play restrictions, applied in order", default=[]
        ),
        "score": Field(List(SCORE_ITEM, min_items=1, max_items=64), N_("scoring components"), required=True),
        "end_when": Field(Expr("bool"), "the deal ends before the next trick when this holds"),
        "early_stop": Field(Bool(), "end the deal as soon as no points can change any more", default=False),
    },
)


@frozen(eq=False)
class Scorer:
    """One scoring component, compiled once and shared by every contract that includes it."""

    kind: str  # "trick" | "card" | "seat"
    points: Compiled  # the points (int)
    when: Optional[Compiled] = None  # the condition (bool), None: always
    cards: Optional[CardPredicate] = None  # the cards scored, for "card"
    origin: str = ""
    label: str = ""
    where: tuple = ()  # path of the component in the ruleset, for findings


@frozen(eq=False)
class Restriction:
    phase: str  # lead | follow | discard | any
    cards: object  # CardPredicate
    require: bool
    when: object  # Compiled or None
    fallback: bool
    reason: str
    where: tuple = ()  # path of the rule in the ruleset, for findings
    at: tuple = ("", None)  # (file, position) of the rule, for run-time errors

    def leaves_nothing(self, trick_number: int) -> Exception:
        """The run-time error (X702) of this rule forbidding every card of a hand."""

        return RuleRuntimeError(
            Diagnostic(
                self.at[0],
                self.at[1],
                "X702",
                L_(
                    "no card is legal in trick {trick_number}: this rule ('{reason}') forbids every card of the hand and has 'fallback: false'",
                    trick_number=trick_number,
                    reason=self.reason,
                ),
                hint=L_("give the rule 'fallback: true' (the default), or narrow it so a card is always left"),
            )
        )


@frozen(eq=False)
class TrickContract(Contract):
    """A compiled trick-taking contract; ``new_deal`` starts a deal of it."""

    phases = phasecatalogue.explained("tricks")  # whose words explain says

    name: str
    type: str
    pl: str
    en: str
    total: Optional[int]
    first_lead: object
    trump: int  # fixed trump suit, -1 for none (ignored when `call` is set)
    call: Optional[TrumpCall]
    follow_suit: bool
    restrictions: tuple
    scorers: tuple
    end_when: object
    early_stop: bool
    description: str = ""
    passing: Optional[PassCards] = None
    doubling: Optional[Doubling] = None
    auction: Optional[Auction] = None
    stock: Optional[Stock] = None
    exposure: Optional[Exposure] = None
    widow: Optional[Widow] = None
    order: Optional[tuple] = None  # the deck's rank order (``rankorder``): None, the usual A K Q ... 2
    declarations: tuple = ()  # declarations made by leading a card (``declarations``)
    added: tuple = ()  # (unit, rule) of each phase added by a module that this contract plays (``extensions``)
    _tables: dict = attrs.field(factory=dict, repr=False)

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
        """A new deal; ``number`` is the deal's 1-based place in the match (for pass rotation);
        ``memory``: the match's memory of earlier deals (a duty to double reads it)."""
        return self._deal_class()(self, players, deck, dealer, dealt, direction, number, memory)

    def _deal_class(self):
        """The deal state of this contract: with a stock, the deal that draws from it; with a
        widow, the deal that sets it aside for the auction's winner; with declarations, one of
        these that declares after each lead."""
        if self.stock is not None:
            from .stockstate import StockDeal as base
        elif self.widow is not None:
            from .widowstate import WidowDeal as base
        else:
            from .trickstate import TrickDeal as base
        if self.declarations:
            from .declaring import DECLARING

            return DECLARING[base]
        return base

    def fast_deal(self, players: int, tricks: int, deck: int, direction: int = 1, policy=None):
        """``deal(dealer, hands, number, rng, log=None, dealt=None, actions=None) -> (scores,
        first, caller, trump, early, blocked)``: one whole deal on the fast path, with the facts
        the simulation's measures read; None when this contract needs the general interpreter.
        ``log`` receives the cards played; ``actions`` every action of random play in the
        order the interpreter takes them (its record: ``corefast.recorded_player``).
        Random play, or every seat played by ``policy`` (``players.heuristic.FastHeuristic``:
        ``call``, ``tricks``), which needs ``dealt`` (each seat's cards in the order dealt)."""
        key = ("deal", players, tricks, deck, direction, policy)
        got = self._tables.get(key, False)
        if got is False:
            got = self._tables[key] = self._fast_deal(players, tricks, deck, direction, policy)
        return got

    def _fast_deal(self, players: int, tricks: int, deck: int, direction: int, policy=None):

        fast = self._fast(players, tricks, deck)
        if fast is None:
            return None
        ended = fast.ended
        fixed_trump = self.trump
        choices = self.call.choices if self.call is not None else ()
        called_by = seat_function(self.call.called_by, players, deck) if self.call is not None else None
        lead = seat_function(self.first_lead, players, deck)
        passing = self.passing is not None
        kernels: dict = {}
        if policy is not None:
            if passing and self.call is not None:  # the exchange comes before trumps are known
                return None
            return self._policy_deal(fast, policy, players, tricks, direction, called_by, lead)
        from .corefast import core_player, recorded_player

        core = core_player(self, players, tricks, deck)  # the compiled step core, where built
        recorded = recorded_player(self, players, tricks, deck)

        def deal(dealer: int, hands: list, number: int, rng, log=None, dealt=None, actions=None) -> tuple:
            caller, trump = NOBODY, fixed_trump
            if called_by is not None:
                caller = called_by(dealer, NOBODY, hands)
                trump = choices[draw(rng, len(choices))]  # the draw protocol (``draws``)
            if actions is not None:  # every action in the interpreter's order, for a record
                scores, first, early = recorded(
                    dealer, hands, number, trump, caller, direction, rng.getrandbits, actions
                )
                return scores, first, caller, trump, early, False
            if core is not None and log is None:  # the same draws as the kernels below
                scores, first, early = core(dealer, hands, number, trump, caller, direction, rng.getrandbits)
                return scores, first, caller, trump, early, False
            first = lead(dealer, caller, hands)
            if passing:  # the first lead is named again once the cards are passed
                led = [first]

                def lead_of(now):
                    led[0] = lead(dealer, caller, now)
                    return led[0]

                scores = fast(hands, first, trump, rng.getrandbits, direction, number, lead_of, dealer, caller, log)
                first = led[0]
            elif log is None:  # straight to the kernel of this trump (``fastplay``: ``play.kernel``)
                kernel = kernels.get(trump) or kernels.setdefault(trump, fast.kernel(trump, direction, False))
                scores = kernel(hands, first, rng.getrandbits, dealer, caller, None)
            else:
                scores = fast(hands, first, trump, rng.getrandbits, direction, number, None, dealer, caller, log)
            return scores, first, caller, trump, ended[0] == EARLY, False

        return deal

    def _policy_deal(self, fast, policy, players: int, tricks: int, direction: int, called_by, lead):

        ended = fast.ended
        fixed_trump = self.trump
        choices = self.call.choices if self.call is not None else ()
        after = self.call.after if self.call is not None else 0
        passing = self.passing
        kernels: dict = {}  # trump -> (kernel, chooser)
        exchange = policy.passes(self, tricks, fixed_trump, players) if passing is not None else None
        passing_rule = cast(PassCards, passing)  # read only where ``exchange`` is set: where ``passing`` is

        def deal(dealer: int, hands: list, number: int, rng, log=None, dealt=None) -> tuple:
            caller, trump = NOBODY, fixed_trump
            if called_by is not None:
                caller = called_by(dealer, NOBODY, hands)
                trump = policy.call(dealt[caller][:after], choices)
            if exchange is not None:
                offset = passing_rule.offset(number, players) * direction
                if offset:
                    hands = hand_over(hands, [exchange(h, passing_rule.count) for h in hands], offset, players)
            first = lead(dealer, caller, hands)
            got = kernels.get((trump, log is None))
            if got is None:
                got = kernels[(trump, log is None)] = (
                    fast.kernel(trump, direction, log is not None, True),
                    policy.tricks(self, tricks, trump, players),
                )
            scores = got[0](hands, first, None, dealer, caller, log, got[1])
            return scores, first, caller, trump, ended[0] == EARLY, False

        return deal

    def _fast(self, players: int, tricks: int, deck: int):
        key = ("fast", players, tricks, deck)
        fast = self._tables.get(key, False)
        if fast is False:
            fast = self._tables[key] = self.fast_player(players, tricks, deck)
        return fast

    def fast_player(self, players: int, tricks: int, deck: int):
        """The whole-deal random player of ``fastplay`` for this contract, or None: the one plan
        decides (``plan.compile_plan``; the kernels take a subset of what it carries, written
        from its tables)."""
        from .plan import plan_of

        plan = plan_of(self)
        if plan is None or plan.fast_kernel_reason(players, tricks, deck) is not None:
            return None
        return compile_tricks(plan, players, tricks, deck)

    def match_readers(self) -> tuple:
        """The paths of this contract's seat scoring that reads match-scope values (``match.total``, ...)."""
        return tuple(s.where for s in self.scorers if s.kind == "seat" and reads_match(s.points))

    def fixed_total(self, hand_size: int, players: int, deck: int) -> Optional[int]:
        """The sum of all seats' points in one deal, if the rules fix it (lint's M601)."""
        from .trickchecks import fixed_total

        return fixed_total(self, hand_size, players, deck)

    def check(self, name: str, spec: dict, where: tuple, bctx, hand_size: int, players: int, deck: int) -> None:
        """Lint's findings about this contract's own rules."""
        from .trickchecks import check

        check(self, name, where, bctx, hand_size, deck, players)
        if self.auction is not None:
            check_auction(self, where, bctx)
        if self.doubling is not None:
            check_doubling(self, where, bctx, players=players)
        if self.exposure is not None:
            check_exposure(self, where, bctx, deck)
        if self.stock is not None:
            check_stock(self, where, bctx, deck)
        if self.declarations:
            check_declarations(self, where, bctx)
        for unit, rule in self.added:
            unit.check_rule(self, rule, where + (unit.schema_key,), bctx)

    turn_word = "trick"  # what a numbered step of play is called in messages (a trick)

    def aspects(self, rs, spec) -> dict:
        """This contract's rules in words, aspect by aspect (``kierki explain``, ``kierki diff``)."""
        from .trickwords import aspects

        return aspects(self, rs, spec)

    def wants_tricks(self, tricks_total: int, players: int) -> Optional[bool]:
        """Whether taking tricks is good here, read from the static scoring (a bot's hint)."""
        return is_positive(self, tricks_total, -1 if self.call else self.trump, players)

    def from_view(self, view, hands: list):
        """A playing-phase deal state rebuilt from a seat's view and assumed hands (search, reasons)."""
        return self._deal_class().from_view(self, view, hands)

    def legality(self, tricks: int, trump: int, deck: int):
        """The play restrictions compiled for (tricks, trump, deck): the legality kernel."""
        key = ("legal", tricks, trump, deck)
        k = self._tables.get(key)
        if k is None:
            from .legality import Legality

            k = self._tables[key] = Legality(self, tricks, trump, deck)
        return k

    def play_rules(self, tricks: int, trump: int, players: int, deck: int) -> tuple:
        """What a deal state reads while cards are played, gathered once per (tricks, trump,
        players, deck): ``(tables, values by trick, legality kernel, the trick numbers whose
        start may change the kernel's programs, cards beating each card, whether the deal may
        end early, seat scorers)``."""
        key = ("play", tricks, trump, players, deck)
        got = self._tables.get(key)
        if got is None:
            k = self.legality(tricks, trump, deck)
            got = self._tables[key] = (
                self.tables(tricks, trump, players),
                values_by_trick(self, tricks, trump, players),
                k,
                range(tricks + 2) if k.every_trick else k.turning,
                beats_table(trump, self.order),
                self.early_stop or self.end_when is not None,
                tuple(s for s in self.scorers if s.kind == "seat"),
            )
        return got

    def tables(self, tricks: int, trump: int, players: int):
        """Per-trick points of the static scorers, computed once per (tricks, trump)."""
        key = (tricks, trump, players)
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = _static_tables(self, tricks, trump, players)
        return t


# Scorers that read only these names score the same in every deal with the same number of
# tricks, trump and players: they become tables. The other names of trick scoring (leader,
# winner, the trick's cards, dealer, caller, deck) make a scorer dynamic, evaluated per trick.
_STATIC_KEYS = {"trick.number", "trick.is_first", "trick.is_last", "tricks", "players", "trump"}


def static_points(s: Scorer, tricks: int, trump: int, players: int) -> tuple:
    """(points, card mask) by trick number of a scorer that reads only ``_STATIC_KEYS``;
    ``RuleRuntimeError`` when it cannot be evaluated for some trick (a division by zero)."""
    pts = [0] * (tricks + 2)
    masks = [0] * (tricks + 2)
    for n in range(1, tricks + 1):
        # the names outside _STATIC_KEYS are not read by these scorers: NOBODY and 0 stand in
        env = trick_env(n, tricks, NOBODY, NOBODY, 0, players, trump, NOBODY, NOBODY, 0)
        if s.when is not None and not s.when(env):
            continue
        pts[n] = s.points(env)
        if s.cards is not None:
            masks[n] = s.cards.mask(card_scoring_env(n, tricks, trump, 0))
    return pts, masks


def is_static(s: Scorer) -> bool:
    """Whether a trick or card scorer reads only names that are the same in every deal."""
    free = set(s.points.free) | (set(s.when.free) if s.when else set())
    if s.cards is not None:
        free |= set(s.cards.keys)
    return free <= _STATIC_KEYS


def _static_tables(c: TrickContract, tricks: int, trump: int, players: int):
    """Split scorers into tables (points by trick number) and dynamic ones evaluated live."""
    trick_points = [0] * (tricks + 2)
    card_tables: list = []
    dynamic: list = []
    for s in c.scorers:
        if s.kind == "seat":
            continue
        if not is_static(s):
            dynamic.append(s)
            continue
        try:
            pts, masks = static_points(s, tricks, trump, players)
        except RuleRuntimeError:  # it fails for some trick: evaluated live, where the error is reported
            dynamic.append(s)
            continue
        if s.cards is None:
            for n in range(tricks + 2):
                trick_points[n] += pts[n]
        elif len(set(masks[1 : tricks + 1])) == 1:
            card_tables.append((masks[1], pts))
        else:
            for n in range(1, tricks + 1):
                if masks[n] and pts[n]:
                    one = [0] * (tricks + 2)
                    one[n] = pts[n]
                    card_tables.append((masks[n], one))
    card_tables = [(m, p) for m, p in card_tables if m and any(p)]
    return trick_points, tuple(card_tables), tuple(dynamic)


@register
class Tricks(DealType):
    name = "tricks"
    doc = "A trick-taking deal: follow suit, optional trumps, scoring per trick and per card."

    @property
    def fields(self) -> dict:  # type: ignore[override]
        """The keys of a trick contract: its own, and those of the phases added by a module."""
        return {**FIELDS, **extensions.fields()} if extensions.PARTS else FIELDS

    def included(self, spec) -> tuple:
        """The contracts whose scoring this contract's ``score`` includes."""
        names: list = []
        for item in spec.score or ():
            names.extend([item.include] if isinstance(item.include, str) else (item.include or ()))
        return tuple(names)

    def build(self, name: str, spec, ctx) -> Optional[TrickContract]:
        w = ("contracts", name)
        ok = True
        first_lead = ctx.expr(spec.first_lead or _default_lead(), scopes.SEAT_EXPR, SEAT, w + ("first_lead",))
        trump, call = -1, None
        t = spec.trump
        if isinstance(t, str):  # a suit or none; else the mapping of a called trump
            trump = SUIT_CHOICES.index(t) - 1
        elif t is not None:
            caller = ctx.expr(t.called_by, scopes.SEAT_EXPR, SEAT, w + ("trump", "called_by"))
            choices = tuple(SUIT_CHOICES.index(x) - 1 for x in t.choices or SUIT_NAMES)
            call = TrumpCall(caller, t.after, choices)
            ok = ok and caller is not None
        restrictions = []
        if spec.lead_ban is not None:
            pred = ctx.expr(spec.lead_ban, scopes.PLAY_PREDICATE, BOOL, w + ("lead_ban",), predicate=True)
            reason = spec.lead_ban_reason or f"{_words(spec.lead_ban.text)} may not be led while you hold another card"
            if pred is not None:
                restrictions.append(
                    Restriction(
                        "lead", pred, False, None, True, reason, w + ("lead_ban",), ctx.locate(w + ("lead_ban",))
                    )
                )
        for i, r in enumerate(spec.restrictions):
            rw = w + ("restrictions", i)
            if (r.forbid is None) == (r.require is None):
                ctx.error(rw, "S210", L_("a restriction needs exactly one of 'forbid' and 'require'"))
                continue
            require = r.require is not None
            src = r.require if require else r.forbid
            pred = ctx.expr(
                src, scopes.PLAY_PREDICATE, BOOL, rw + ("require" if require else "forbid",), predicate=True
            )
            when = ctx.expr(r.when, scopes.PLAY_WHEN, BOOL, rw + ("when",))
            reason = r.reason or (
                f"you must play {_words(src.text)}" if require else f"{_words(src.text)} may not be played now"
            )
            if pred is not None:
                restrictions.append(
                    Restriction(
                        r.phase,
                        pred,
                        require,
                        when,
                        r.fallback,
                        reason,
                        rw + ("require" if require else "forbid",),
                        ctx.locate(rw),
                    )
                )
        scorers = []
        for i, item in enumerate(spec.score or ()):
            got = _build_scorer(name, item, ctx, w + ("score", i))
            if got is None:
                ok = False
            else:
                scorers.extend(got)
        end_when = ctx.expr(spec.end_when, scopes.END_WHEN, BOOL, w + ("end_when",))
        doubling, doubling_ok = build_doubling(spec.doubling, ctx, w + ("doubling",))
        auction, auction_ok = build_auction(spec.auction, ctx, w + ("auction",))
        stock, stock_ok = build_stock(spec.stock, ctx, w + ("stock",), spec.follow_suit)
        exposure, exposure_ok = build_exposure(spec.exposure, ctx, w + ("exposure",))
        widow, widow_ok = build_widow(spec.widow, ctx, w + ("widow",), spec.auction is not None)
        if spec.widow is not None and spec.stock is not None:
            ctx.error(w + ("widow",), "M633", L_("a contract has a stock or a widow, not both"))
            widow_ok = False
        declarations, declarations_ok = build_declarations(spec.declarations, ctx, w + ("declarations",))
        added, added_ok = _build_added(spec, ctx, w)
        check_unheld(
            ctx,
            w,
            first_lead,
            call.called_by if call is not None else None,
            widow,
            stock,
            ctx.deck.bit_count(),
            max(1, ctx.players),
        )
        if first_lead is None or not doubling_ok or not auction_ok or not stock_ok or not exposure_ok or not widow_ok:
            ok = False
        if not declarations_ok or not added_ok:
            ok = False
        if not ok:
            return None
        return TrickContract(
            name=name,
            type=self.name,
            pl=spec.pl or name,
            en=spec.en or "",
            total=spec.total,
            first_lead=first_lead,
            trump=trump,
            call=call,
            follow_suit=spec.follow_suit,
            restrictions=tuple(restrictions),
            scorers=tuple(scorers),
            end_when=end_when,
            early_stop=spec.early_stop,
            description=spec.description or "",
            passing=build_passing(spec.pass_cards, ctx, w),
            doubling=doubling,
            auction=auction,
            stock=stock,
            exposure=exposure,
            widow=widow,
            order=ctx.order,
            declarations=declarations,
            added=added,
        )


def _build_added(spec, ctx, w: tuple) -> tuple:
    """((unit, rule) of each added phase whose key the contract holds, in registration order;
    whether all compiled)."""
    added, ok = [], True
    for key, unit in extensions.PARTS.items():
        value = getattr(spec, attr_name(key), None)
        if value is None:
            continue
        rule, fine = unit.build_rule(value, ctx, w + (key,))
        ok = ok and fine
        added.append((unit, rule))
    return tuple(added), ok


def _default_lead():

    return ExprSource("left(dealer)")


def _words(text: str) -> str:
    return " ".join(text.split())


def _build_scorer(contract: str, item, ctx, where: tuple) -> Optional[list]:
    kinds = [k for k in ("per_trick", "per_card", "per_seat", "include") if getattr(item, k) is not None]
    if len(kinds) != 1:
        ctx.error(where, "S210", L_("a score component needs exactly one of per_trick, per_card, per_seat, include"))
        return None
    kind = kinds[0]
    label = item.label or ""
    when = ctx.expr(item.when, scopes.TRICK_POINTS, BOOL, where + ("when",))
    if item.when is not None and when is None:
        return None
    if kind != "per_card" and item.points is not None:
        ctx.error(
            where + ("points",),
            "S210",
            L_("'points' goes with per_card; per_trick and per_seat carry their own points"),
        )
        return None
    if kind == "per_trick":
        pts = ctx.expr(item.per_trick, scopes.TRICK_POINTS, INT, where + ("per_trick",))
        return None if pts is None else [Scorer("trick", pts, when, None, contract, label, where)]
    if kind == "per_card":
        if item.points is None:
            ctx.error(where, "S203", L_("per_card needs 'points' (the points for each matching card)"))
            return None
        cards = ctx.expr(item.per_card, scopes.CARD_SCORING, BOOL, where + ("per_card",), predicate=True)
        pts = ctx.expr(item.points, scopes.TRICK_POINTS, INT, where + ("points",))
        if cards is None or pts is None:
            return None
        return [Scorer("card", pts, when, cards, contract, label, where + ("per_card",))]
    if kind == "per_seat":
        if item.when is not None:
            ctx.error(
                where + ("when",),
                "S210",
                L_("'when' goes with per_trick or per_card; write the condition into per_seat"),
            )
            return None
        pts = ctx.expr(item.per_seat, scopes.SEAT_END, INT, where + ("per_seat",))
        return None if pts is None else [Scorer("seat", pts, None, None, contract, label, where)]
    one = isinstance(item.include, str)  # a name, or a list of names
    names = [item.include] if one else item.include
    out: list[Scorer] = []
    for j, ref in enumerate(names):
        rw = where + ("include",) + (() if one else (j,))
        other = ctx.contract(ref, rw)
        if other is None:
            return None
        if not isinstance(other, TrickContract):
            ctx.error(
                rw,
                "R503",
                L_("contract {ref!r} is a {type} deal; only trick contracts can be included", ref=ref, type=other.type),
            )
            return None
        out.extend(other.scorers)
    return out


# -- its unit: trick play, what a person and a bot see of it ------------------------------------


def trick_text(view, plays) -> str:
    """``N 4♣, E 9♣, ...`` for ``(seat, card)`` pairs."""
    return ", ".join(f"{seat(view, s)} {card_pretty(c)}" for s, c in plays)


def taken_text(view, number: int, plays, winner: int) -> str:
    """``(3): N 4♣, E 9♣, S 5♣, W 2♣ — taken by E``."""
    return tr("({number}): {plays} — taken by {seat}").format(
        number=number, plays=trick_text(view, plays), seat=seat(view, winner)
    )


def winning_text(view, rules=None) -> str:
    """``W Q♠``: the seat and card winning the trick in progress (by the contract's rank order
    and the trumps; the usual order when no rules are given)."""
    contract = contract_of(rules, view.contract)
    card = winning_play(view.trick, view.trump, contract.order if contract is not None else None)
    return next(f"{seat(view, s)} {card_pretty(c)}" for s, c in view.trick if c == card)


class TrickPlay(PlaysSection, CardPhase):
    """Trick play's unit: a card to the trick in progress (the phase ``play`` of a trick deal)."""

    name = "play"
    expected = EXPECTED[Phase.PLAY]
    task = N_("play a card")
    searched = True
    card_play = True

    # adapter hooks: a resampled world may force a card its drawn hands make illegal
    forced_in_worlds = True

    def matches(self, view) -> bool:
        return view.phase == "play" and view.part("layout") is None

    def read(self, view, text: str, rules=None) -> int:
        if text.strip().lower() in ("pass", tr("pass")):  # "pas" in Polish
            raise NotUnderstood(tr("there is no passing in this deal: play a card"))
        return super().read(view, text, rules)

    def panel(self, view, rules=None) -> list:
        if not self.matches(view):
            return []
        of = (
            "" if view.part("stock") is not None else tr(" of {deals}").format(deals=view.tricks_total)
        )  # with a stock it varies
        rows = [
            row(tr("Trick"), f"{view.trick_number}{of}"),
            row(tr("Trick so far"), trick_text(view, view.trick) or tr("(you lead)")),
        ]
        if len(view.trick) > 1:
            rows.append(row(tr("Winning so far"), winning_text(view, rules)))
        return rows

    def winning(self, view, rules=None) -> Optional[int]:
        """The card the trick in progress goes to so far: the highest trump, else the highest of the suit led
        (by the contract's rank order)."""
        if not self.matches(view) or not view.trick:
            return None
        contract = contract_of(rules, view.contract)
        return winning_play(view.trick, view.trump, contract.order if contract is not None else None)

    def news(self, view, last) -> list:
        seen = len(last.completed) if last is not None else 0
        return [
            tr("Trick {number}: {plays} — taken by {seat}").format(
                number=i + 1, plays=trick_text(view, plays), seat=seat(view, w)
            )
            for i, (_, plays, w) in enumerate(view.completed)
            if i >= seen
        ]

    def previous(self, view) -> str:
        if not view.completed:
            return super().previous(view)
        _, plays, w = view.completed[-1]
        return tr("Previous trick ") + taken_text(view, len(view.completed), plays, w)

    def final_trick(self, view, plays: list, contract) -> Optional[str]:
        """The deal's last trick, played on from this seat's last view with the deal's last plays."""
        n = view.players
        if view.trick_number != view.tricks_total or view.hand.bit_count() != 1:
            return None
        seats, s = [], view.trick[0][0] if view.trick else view.seat
        for _ in range(n):
            seats.append(s)
            s = (s + view.direction) % n
        try:
            cards = [read_card(p) for p in plays[-n:]]
            hands = [0] * n
            for who, c in zip(seats, cards):
                if all(who != t for t, _ in view.trick):
                    hands[who] |= 1 << c
            st = contract.from_view(view, hands)
            for c in cards[len(view.trick) :]:
                st.apply_action(c)
            _, trick, winner = st.completed[-1]
        except (CardError, IllegalAction, IndexError, KeyError, ValueError, AttributeError):
            return None  # no usual ending: nothing to show
        return tr("Last trick ") + taken_text(view, view.trick_number, trick, winner)

    # -- bot hooks -------------------------------------------------------------------------------
    def plain_tricks(self, view) -> bool:
        """Cards to a trick, and no stock to draw from."""
        return view.part("stock") is None and all(0 <= a < 52 for a in view.legal)


UNIT = TrickPlay()
