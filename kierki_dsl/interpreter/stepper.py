"""Fast stepping of a trick deal: the compiled step core (``_cstep.c``) where it is built and
the contract is one it carries, else the interpreter's ``TrickDeal`` — the same answers.

``new_deal(contract, players, deck, dealer, dealt, direction, number)`` mirrors
``contract.new_deal`` and gives a state with ``legal_actions``, ``apply_action``,
``is_terminal``, ``current_player``, ``returns``, ``clone``, ``actions`` (the history),
``play_out(getrandbits)`` (the rest of the deal at random, ``fastplay``'s protocol) and
``interpreter()`` (the ``TrickDeal`` of the same position, for views and anything else).
``deal_from_view(contract, view, hands)`` mirrors ``contract.from_view``: a deal started in
play from a seat's view with the other hands assumed (search's sampled worlds), whose
``playout(rng)`` is search's rule-of-thumb rollout (``trickkernel.playout``: the same cards
for the same draws).

The core knows nothing of any game: this module compiles a contract into its tables — the
cards beating each card (trump and rank order), static points per trick and card, the trick
numbers whose start may change the legality programs — and answers its callbacks for what
is rare: a trick's programs (once per situation of ``legality.Legality.key``), dynamic
points, an early end, seat scoring (once per trick or deal), and the wording of an illegal
action (the interpreter replays the deal and raises its own ``IllegalAction``).

Carried: what the one plan carries (``plan.compile_plan``: an allow-list of the contract
spec's fields — passing, a fixed trump or a trump call, any play rules, any scoring; no
auction, doubling, exposure, stock, widow or declarations) and whose tables the core holds
(at most 8 seats, points inside the score limit: ``scorebound``). Play rules that read the
winning card or the hand are asked of the legality kernel at each decision, memoised as the
interpreter memoises them. Everything else, and everything when the extension is not built
or ``KIERKI_NO_C=1``, steps on the interpreter. Random playouts draw by ``draws``.
"""

from __future__ import annotations

import array
import functools
import os
from typing import Any, Optional

from ..cards import FULL_DECK, SUIT_MASK
from ..rankorder import rank_key
from .actions import call, called_suit
from .bidding import bid_standing
from .draws import below, draws_for_play, kth, pass_choices
from .envs import play_env, seat_env
from .legality import LEAD
from .phases import Phase
from .plan import Keyed, Plan, compile_plan, plan_of
from .scorebound import check_deal
from .trickkernel import add_seat_scores
from .trickstate import TrickDeal

_cstep: Any = None  # the C extension (no type information), None where not built or switched off
if not os.environ.get("KIERKI_NO_C"):
    try:
        from . import _cstep  # type: ignore[no-redef,attr-defined,unused-ignore]  # a C extension: Any
    except ImportError:  # not built (no C compiler at install): the interpreter steps
        _cstep = None

PHASES = (Phase.PASS, Phase.PLAY, Phase.DONE, Phase.CALL)  # the core's phase numbers
PLAY, CALL = 1, 3
#: Programs cached per legality situation before the cache starts again (as ``Legality.at``).
CACHE_LIMIT = 4096
#: Dynamic points of one trick the core can add (past them, the score limit is passed anyway).
_HELD = 1 << 62


def available() -> bool:
    """Whether the compiled step core is built and enabled."""
    return _cstep is not None


def compiled_deal_out():
    """The compiled kernel of ``players.sampling.deal_out`` (``_cstep.deal_out``), or None
    when the core is not built or is switched off."""
    return None if _cstep is None else _cstep.deal_out


def why_not_carried(contract) -> Optional[str]:
    """None if the core carries deals of ``contract``, else why it does not (in words): the
    one plan's decision (``plan.compile_plan``)."""
    got = compile_plan(contract)
    return None if isinstance(got, Plan) else got.reason


def _trumps(contract) -> tuple:
    """The trumps a deal of ``contract`` may be played in."""
    return contract.call.choices if contract.call is not None else (contract.trump,)


@functools.lru_cache(maxsize=256)
def carried(contract, players: int, tricks: int, deck: int) -> bool:
    """Whether ``new_deal`` steps deals of ``contract`` on the compiled core: the plan carries
    it and the core holds its tables for every trump."""
    plan = plan_of(contract)
    return (
        _cstep is not None
        and plan is not None
        and all(plan.tables(players, tricks, t, deck) is not None for t in plan.trumps)
    )


@functools.lru_cache(maxsize=256)
def _compiled(contract, players: int, tricks: int, trump: int, deck: int):
    """The core's tables of (players, tricks, trump, deck), made from the plan's (``Plan.
    tables``), or None when not carried (also when the plan declines the tables of this
    trump: the interpreter reports why)."""
    plan = plan_of(contract)
    got = plan.tables(players, tricks, trump, deck) if plan is not None and _cstep is not None else None
    if got is None:
        return None
    values = got.values
    rows = [tuple(values[n][0]) if 1 <= n <= tricks else (0,) * 52 for n in range(tricks + 2)]
    beat_masks = tuple(sum(1 << c for c in b) for b in got.beats)
    refresh_mask = sum(1 << n for n in got.refresh if 0 <= n < 64)
    rank = rank_key(contract.order)  # what trickkernel.playout's rule of thumb reads
    points = got.points
    core_plan = _cstep.Plan(
        players,
        tricks,
        contract.follow_suit,
        beat_masks,
        tuple(points[n] if n < len(points) else 0 for n in range(tricks + 2)),
        rows,
        refresh_mask,
        bool(got.dynamic),
        bool(got.early),
        bool(got.seat_scorers),
        tuple(rank(c) for c in range(52)),
        values[1][1],
    )
    return _Compiled(core_plan, got.legality, got.static, got.dynamic, got.seat_scorers)


class _Compiled:
    """A contract's plan for the core, its legality kernel and the programs by situation."""

    __slots__ = ("plan", "kernel", "tables", "dynamic", "seat_scorers", "programs", "memos")

    def __init__(self, plan, kernel, tables, dynamic, seat_scorers) -> None:
        self.plan, self.kernel, self.tables, self.dynamic = plan, kernel, tables, dynamic
        self.seat_scorers = seat_scorers
        self.programs: dict = {}  # legality situation key -> _cstep.Programs
        self.memos: Optional[tuple] = None  # what its deals' contexts ask of C (``_memos``), once built


def _memos(compiled: _Compiled, contract, players: int, tricks: int, deck: int) -> tuple:
    """(trick programs, first lead, seat scoring): what the core asks a deal context of
    ``compiled`` as ``_at_trick``, ``_begin`` and ``_finish``, memoised in C on what each reads
    (the legality kernel's key; ``plan.Plan.lead_key`` and ``seat_key``) and shared by every
    deal of ``compiled`` in the process. A miss, or what the plan does not key (the first lead
    of a contract with a trump call), asks ``_Deal``'s own method."""
    got = compiled.memos
    if got is None:
        got = compiled.memos = (_trick_memo(compiled, tricks), *_deal_memos(compiled, contract, players, deck))
    return got


def _trick_memo(compiled: _Compiled, tricks: int):
    """The C memo of a trick's programs (``_cstep.TrickMemo``), keyed on what the legality
    kernel's ``key`` reads."""
    k = compiled.kernel
    classes = [k.key(n, False, 0)[0] for n in range(tricks + 2)]
    return _cstep.TrickMemo(_at_trick_of, classes, bool(k.key(1, True, 0)[1]), k.key(1, False, FULL_DECK)[2])


def _deal_memos(compiled: _Compiled, contract, players: int, deck: int) -> tuple:
    """The first lead's and seat scoring's callables: a ``_cstep.DealMemo`` where the plan keys
    them (the dealer read as the context's ``index`` row of a book of one row per dealer), else
    ``_Deal``'s method."""
    plan = plan_of(contract)
    book = array.array("q", [v for d in range(players) for v in (d, *[0] * players)])
    lead = plan.lead_key() if plan is not None and plan.begun_in_python() is None else None
    begin = finish = None
    if isinstance(lead, Keyed):
        begin = _cstep.DealMemo(_begin_of, False, players, book, lead.dealer, lead.holders, (), False)
    seat = plan.seat_key(deck) if plan is not None and compiled.seat_scorers else None
    if isinstance(seat, Keyed):
        finish = _cstep.DealMemo(_finish_of, True, players, book, seat.dealer, 0, seat.atoms, seat.won, seat.symmetric)
    return begin or _begin_of, finish or _finish_of


def _at_trick_of(core, number: int, broken: int, played: int) -> tuple:
    """``_Deal._at_trick`` of the core's context (a memo's miss)."""
    return _Deal._at_trick(core.ctx, core, number, broken, played)


def _begin_of(core) -> tuple:
    """``_Deal._begin`` of the core's context (a memo's miss, or not keyed)."""
    return _Deal._begin(core.ctx, core)


def _finish_of(core) -> list:
    """``_Deal._finish`` of the core's context (a memo's miss, or not keyed)."""
    return _Deal._finish(core.ctx, core)


def new_deal(contract, players: int, deck: int, dealer: int, dealt: list, direction: int = 1, number: int = 1):
    """A deal of ``contract`` to step (``contract.new_deal``'s arguments): on the compiled
    core when it is built and carries the contract, else on the interpreter."""
    got = core_deal(contract, players, deck, dealer, dealt, direction, number)
    if got is not None:
        return got
    return InterpreterStepper(contract.new_deal(players, deck, dealer, dealt, direction, number))


def core_deal(contract, players: int, deck: int, dealer: int, dealt: list, direction: int = 1, number: int = 1):
    """A deal of ``contract`` on the compiled core (a ``Stepper``), or None when the core is
    not built or does not carry the contract (``new_deal``'s arguments)."""
    tricks = len(dealt[0]) if dealt else 0
    if not tricks or not carried(contract, players, tricks, deck):
        return None
    trump = _trumps(contract)[0]  # with a call, the plan of the trump called replaces this one
    ctx = _context(
        _compiled(contract, players, tricks, trump, deck),
        contract,
        players,
        deck,
        dealer,
        dealt,
        direction,
        number,
        trump,
        -1,
        contract.call is None,
    )
    got = ctx.compiled
    passing = contract.passing
    offset = passing.offset(number, players) if passing else 0
    return Stepper(
        got.plan,
        ctx,
        [sum(1 << c for c in d) for d in dealt],
        dealer,
        direction,
        passing.count if offset else 0,
        direction * offset,
    )


def deal_from_view(contract, view, hands: list):
    """The deal of a seat's ``view`` with the other hands assumed (``hands``, as search samples
    them), to search on: on the compiled core where it carries the deal (``core_from_view``),
    else the interpreter's ``contract.from_view``. Both clone, apply actions, ``playout(rng)``
    (the rule-of-thumb rollout, the same draws) and tell ``scores``."""
    got = core_from_view(contract, view, hands)
    return contract.from_view(view, hands) if got is None else got


def core_from_view(contract, view, hands: list):
    """The deal of a seat's ``view`` in play with the other hands assumed, on the compiled
    core (``TrickDeal.from_view``'s position: the trick in progress, scores, cards taken and
    tricks won read from the view), or None when the core is not built, does not carry the
    contract or the view is not of trick play."""
    players, tricks = view.players, view.tricks_total
    if (
        view.phase != "play"
        or view.part("layout") is not None
        or not 1 <= view.trick_number <= tricks
        or not carried(contract, players, tricks, view.deck)
    ):
        return None
    got = _compiled(contract, players, tricks, view.trump, view.deck)
    if got is None:
        return None
    taken, won = [0] * players, [0] * players
    for _, plays, winner in view.completed:
        for _, card in plays:
            taken[winner] |= 1 << card
        won[winner] += 1
    ctx = _context(
        got,
        contract,
        players,
        view.deck,
        view.dealer,
        None,
        view.direction,
        view.deal_number,
        view.trump,
        view.caller,
        True,
        tricks,
        (view, tuple(hands)),
    )
    ctx.bid, ctx.bidder = bid_standing(view)
    leader = view.trick[0][0] if view.trick else view.seat
    position = (
        view.seat,
        leader,
        view.trick_number,
        view.played,
        bool(view.played & SUIT_MASK[1]),
        view.scores,
        taken,
        won,
        view.trick,
    )
    return Stepper(got.plan, ctx, hands, view.dealer, view.direction, 0, 0, position)


class _Deal:
    """The Python side of one compiled deal (shared by its clones): what the core asks."""

    __slots__ = (
        "compiled",
        "contract",
        "players",
        "deck",
        "dealer",
        "dealt",
        "direction",
        "number",
        "tricks_total",
        "trump",
        "caller",
        "bidder",
        "bid",
        "called",
        "seen",
        "_tenv",
    )

    def __init__(
        self,
        compiled,
        contract,
        players,
        deck,
        dealer,
        dealt,
        direction,
        number,
        trump: int,
        caller: int,
        called: bool,
        tricks: int = 0,
        seen=None,
    ) -> None:
        self.compiled, self.contract = compiled, contract
        self.players, self.deck, self.dealer, self.direction, self.number = players, deck, dealer, direction, number
        self.dealt = dealt if dealt is None or isinstance(dealt, tuple) else tuple(tuple(d) for d in dealt)
        self.tricks_total = tricks or len(dealt[0])
        self.trump, self.caller, self.called = trump, caller, called  # called: the trump is known
        self.bidder, self.bid = -1, 0  # no auction: as TrickDeal has them
        self.seen = seen  # (view, hands) of a deal started from a seat's view, else None
        self._tenv = None  # the trick environment of dynamic scoring (``TrickDeal._dynamic_points``)

    def _seat_env(self, core) -> dict:
        return seat_env(self.dealer, self.players, self.caller, core.hands, self.deck, self.bidder, self.bid)

    # -- the core's callbacks ------------------------------------------------------------
    def _begin(self, core) -> tuple:
        """After any passing: (CALL, the caller, the calls allowed as a mask) when trumps are
        still to be called, else (PLAY, the first leader, 0) (``TrickDeal._after_auction``,
        ``_start_play``)."""
        if not self.called:
            caller = self.contract.call.called_by.seat(self._seat_env(core), self.players)
            return CALL, caller, sum(1 << a for a in self._call_actions(core))
        return PLAY, self.contract.first_lead.seat(self._seat_env(core), self.players), 0

    def _call_actions(self, core) -> list:
        """The trump calls allowed, in the contract's order (``TrickDeal.legal_actions``)."""
        return [call(s) for s in self.contract.call.choices]

    def _called(self, core, action: int) -> tuple:
        """(plan, context) of the deal once ``action`` called trumps: the caller is on turn."""
        trump = called_suit(action)
        compiled = _compiled(self.contract, self.players, self.tricks_total, trump, self.deck)
        ctx = _context(
            compiled,
            self.contract,
            self.players,
            self.deck,
            self.dealer,
            self.dealt,
            self.direction,
            self.number,
            trump,
            core.to_move,
            True,
            self.tricks_total,
            self.seen,
        )
        return compiled.plan, ctx

    def _at_trick(self, core, number: int, broken: int, played: int) -> tuple:
        """(programs, watched cards) of the trick about to start (``TrickDeal._at_trick``)."""
        k = self.compiled.kernel
        key = k.key(number, bool(broken), played)
        cache = self.compiled.programs
        progs = cache.get(key)
        if progs is None:
            if len(cache) > CACHE_LIMIT:
                cache.clear()
            progs = cache[key] = _cstep.Programs()
        return progs, k.watched(bool(broken), played)

    def _program(self, core, phase: int, led: int, number: int, broken: int, played: int, win: int, hand: int):
        """(live, the rules of one program as (keep mask, fallback) pairs) in this position:
        live when the program must be asked again at the next decision, as
        ``Legality.program_for`` works it out (its memo of programs by winning card shared)."""
        k = self.compiled.kernel
        env = play_env(
            -1 if phase == LEAD else led,
            self.trump,
            win,
            number,
            self.tricks_total,
            bool(broken),
            hand,
            self.deck,
            played,
        )
        live = k.per_decision[phase] or k.per_card[phase]
        if live and not k.per_decision[phase]:
            prog = k.program_for(None, phase, led, _Env(env))
        else:
            prog = k.program(phase, env)
        return live, tuple((keep, fallback) for keep, fallback, _, _ in prog)

    def _dynamic(self, core, tm: int, winner: int, leader: int, number: int) -> int:
        """The trick's dynamic points (``TrickDeal._dynamic_points``, read from this deal); points
        no 64-bit int holds are past the score limit: the interpreter's error (X703)."""
        # duck-typed: this context holds every name ``_dynamic_points`` reads of a ``TrickDeal``
        extra = TrickDeal._dynamic_points(self, self.compiled.dynamic, tm, winner, leader, number)  # type: ignore[arg-type]
        if not -_HELD < extra < _HELD:
            self._score_error(core)
        return extra

    def _ends_early(self, core) -> bool:
        """Whether the deal ends before the next trick (``TrickDeal._ends_early``)."""
        # duck-typed: ``_Facts`` holds every name ``_ends_early`` reads of a ``TrickDeal``
        return TrickDeal._ends_early(_Facts(self, core))  # type: ignore[arg-type]

    def _finish(self, core) -> list:
        """The scores once seat scoring is added (``TrickDeal._finish_deal``)."""
        scores = core.scores
        add_seat_scores(
            scores,
            self.compiled.seat_scorers,
            self.dealer,
            self.players,
            self.caller,
            self.trump,
            core.tricks_won,
            self.tricks_total,
            core.taken,
            self.deck,
            self.bidder,
            self.bid,
            [0] * self.players,
        )
        check_deal(scores, self.contract)  # as TrickDeal._finish_deal: X703 past the limit
        return scores

    def _illegal(self, core, action) -> None:
        """Raise the interpreter's ``IllegalAction`` for ``action`` in the core's position."""
        self.interpreter(core).apply_action(action)

    def _score_error(self, core) -> None:
        """Raise the interpreter's error of a score past the limit (X703): the core declines it."""
        self.interpreter(core)

    def _rule_error(self, core) -> None:
        """Raise the interpreter's error of a rule that leaves no card (X702)."""
        self.interpreter(core).legal_mask()

    def interpreter(self, core) -> TrickDeal:
        """The interpreter's deal in the core's position: the deal replayed (from the view
        it started from, for a deal started from a seat's view)."""
        if self.seen is not None:
            view, hands = self.seen
            deal = self.contract.from_view(view, list(hands))
        else:
            deal = self.contract.new_deal(self.players, self.deck, self.dealer, self.dealt, self.direction, self.number)
        for a in core.actions:
            deal.apply_action(a)
        return deal


class _Memoised(_Deal):
    """A deal's context whose trick programs, first lead and seat scoring the core asks of the
    C memos of its compiled contract (``_memos``): no Python frame once they hold the answer."""

    __slots__ = ("_at_trick", "_begin", "_finish", "index")
    index: int  # the row of the memos' book that holds the dealer (set by ``_context``)


def _context(compiled: _Compiled, contract, players: int, deck: int, dealer: int, *rest) -> _Deal:
    """The context of a deal on the core (``_Deal``'s arguments), asking the C memos of
    ``compiled`` (``_memos``)."""
    ctx = _Memoised(compiled, contract, players, deck, dealer, *rest)
    memos = _memos(compiled, contract, players, ctx.tricks_total, deck)
    ctx._at_trick, ctx._begin, ctx._finish = memos  # type: ignore[method-assign]  # slots over methods
    ctx.index = dealer  # the row of the memos' book that holds the dealer
    return ctx


class _Env:
    """A position as ``Legality.program_for`` reads it: its ``play_env``."""

    __slots__ = ("env",)

    def __init__(self, env: dict) -> None:
        self.env = env

    def play_env(self) -> dict:
        return self.env


class _Facts:
    """What ``TrickDeal._ends_early`` reads of a deal, read from the core."""

    __slots__ = ("contract", "_tables", "trick_no", "tricks_total", "played", "deck", "hands")
    points_left = TrickDeal.points_left

    def __init__(self, ctx: _Deal, core) -> None:
        self.contract, self._tables = ctx.contract, ctx.compiled.tables
        self.trick_no, self.tricks_total, self.played = core.trick_no, ctx.tricks_total, core.played
        self.deck, self.hands = ctx.deck, core.hands


if _cstep is not None:

    class Stepper(_cstep.Core):
        """A deal stepped by the compiled core (see the module's docstring)."""

        __slots__ = ()

        @property
        def phase(self) -> Phase:
            return PHASES[self.phase_no]

        @property
        def contract(self):
            return self.ctx.contract

        @property
        def players(self) -> int:
            return self.ctx.players

        @property
        def trump(self) -> int:
            """The trump suit (-1: none, or not called yet)."""
            return self.ctx.trump if self.ctx.called else -1

        @property
        def caller(self) -> int:
            """The seat that calls trumps (in the call, the seat on turn), -1 if none."""
            return self.to_move if self.phase_no == CALL else self.ctx.caller

        def interpreter(self) -> TrickDeal:
            """The interpreter's ``TrickDeal`` of this position (replayed), for views."""
            return self.ctx.interpreter(self)

        def view(self, seat: int):
            """What ``seat`` may see now (``TrickDeal.view``)."""
            return self.interpreter().view(seat)

        def remember(self, memory) -> None:
            """Nothing for a match to remember: a carried deal has no doubling round."""

        def play_out(self, grb) -> list:
            """Play the deal out at random (``getrandbits`` ``grb``, ``fastplay``'s protocol:
            passes drawn seat by seat from seat 0; a lead or a discard draws among its legal
            cards, a follow of the suit led only when there is a choice); the scores."""
            return self.random_playout(grb)

        def playout(self, rng) -> None:
            """Play the deal out for search as ``TrickDeal.playout`` does (the rule of thumb of
            ``trickkernel.playout``, the same draws from ``rng``)."""
            self.thumb_playout(rng.getrandbits)
else:
    Stepper = None  # type: ignore[misc,assignment]  # no compiled core: nothing steps on it (``available``)


class InterpreterStepper:
    """The same face over the interpreter's deal (any contract, or no compiled core)."""

    __slots__ = ("deal",)

    def __init__(self, deal) -> None:
        self.deal = deal

    def legal_actions(self) -> list:
        return self.deal.legal_actions()

    def apply_action(self, action: int) -> None:
        self.deal.apply_action(action)

    def is_terminal(self) -> bool:
        return self.deal.is_terminal()

    def current_player(self) -> int:
        return self.deal.current_player()

    def returns(self) -> list:
        return self.deal.returns()

    @property
    def actions(self) -> list:
        return list(self.deal.actions)

    @property
    def phase(self) -> Phase:
        return self.deal.phase

    def clone(self) -> "InterpreterStepper":
        return InterpreterStepper(self.deal.clone())

    def interpreter(self):
        """The interpreter's deal of this position (a copy)."""
        return self.deal.clone()

    def view(self, seat: int):
        return self.deal.view(seat)

    def play_out(self, grb) -> list:
        """Play the deal out at random, as ``Stepper.play_out`` does; the scores."""
        return play_out(self.deal, grb)

    def play_legal(self, action: int) -> None:
        self.deal.play_legal(action)

    def __getattr__(self, name: str):
        """Anything else of the interpreter's deal (hands, trick, trump, ...)."""
        if name == "deal":  # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.deal, name)


def play_out(deal, grb, trump=None) -> list:
    """Play the interpreter's ``deal`` out at random by the draw protocol (``draws``: the
    reference the compiled core's ``play_out`` is tested against); its scores. Any other
    decision (an auction, a call) is the k-th of its legal actions, k = draw(count), but for a
    trump call naming ``trump`` when given (drawn before the deal, as simulation draws it)."""
    while not deal.is_terminal():
        if trump is not None and deal.phase is Phase.CALL:
            deal.apply_action(call(trump))
            continue
        if deal.phase is Phase.PASS:
            _pass_out(deal, grb)
        elif deal.phase is Phase.PLAY:
            mask = deal.legal_mask()
            count = mask.bit_count()
            follow = deal.led >= 0 and bool(deal.hands[deal.to_move] & SUIT_MASK[deal.led])
            deal.play_legal(kth(mask, below(grb, count) if draws_for_play(count, follow) else 0))
        else:
            acts = deal.legal_actions()
            deal.apply_action(acts[below(grb, len(acts))])
    return deal.returns()


def _pass_out(deal, grb) -> None:
    """The passes still to choose (``draws.pass_choices``), then made in turn order."""
    count = deal.contract.passing.count
    left = [deal.hands[s] & ~sum(1 << c for c in deal.passes[s]) for s in range(deal.players)]
    chosen = pass_choices(left, [count - len(p) for p in deal.passes], grb)
    while deal.phase is Phase.PASS:
        deal.apply_action(chosen[deal.to_move].pop(0))


__all__ = [
    "new_deal",
    "core_deal",
    "deal_from_view",
    "core_from_view",
    "available",
    "carried",
    "why_not_carried",
    "compiled_deal_out",
    "Stepper",
    "InterpreterStepper",
    "play_out",
]
