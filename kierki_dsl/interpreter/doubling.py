"""Doubling: side bets between two players on which of them scores better in a deal (Barbu).

A contract with ``doubling`` opens each deal (after any trump call, before the first card)
with a round of bets. Starting left of the dealer, every seat in turn may double any seats
that ``may_double`` allows (``doubler``, ``target``, ``dealer``, ``players``), one at a
time, then says ``done`` (a seat with no choice left is passed over). Then, in the same order, every seat that was doubled may redouble
any of its doublers (``redouble: true``). When the deal ends, each pair that has a bet
settles it: the one who scored more takes the difference of their two scores from the other,
twice the difference if it was redoubled. Settling moves points between two players, so the
deal's total does not change.

Barbu's duties, as data: ``duty: {times: 2, deals: 7}`` makes every seat that may double the
dealer do so at least ``times`` times in the ``deals`` deals one dealer deals in a row — when
the deals left are no more than the doubles it still owes, it may not say ``done`` before
doubling the dealer. The match keeps count in its memory (``remember``, after each deal).
``of: every`` (barbu.app's stricter form) makes every seat double *every other* seat at least
``times`` times in each block of ``over`` deals of the match (28: the whole game), whenever it
likes; the chances it is sure of are the deals left in the block that the target deals (the
dealer passes on every ``deals`` deals; a double of the dealer is one every contract allows —
lint checks it), and when they are no more than the doubles it still owes him, it may not say
``done`` before doubling him. So a duty left open is met at the latest in the target's own run.
``if_undoubled: split``: a deal in which nobody doubled anybody is not played; the contract's
declared ``total`` is shared among the seats other than the dealer, each share rounded away
from zero, and the dealer gets what is left (0, or a point or two back).

The phase is this one module: its action numbers, its part of the format and its checks, the round's
state (``BettingRound``), its part of the seat view (``BetsPart``), its engine (``DoublingEngine``:
the round as a trick or layout deal steps it, ``phaseengine``; the bets are paid on the scores at
the deal's end) and its unit (``UNIT``: labels, typed words, panel and bot hooks — double a seat,
redouble, or done).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..codes import Code, example, table
from ..expr.types import BOOL
from ..exprwords import words
from ..i18n import L_, N_, R_, tr
from ..spec.schema import Bool, Enum, Expr, Field, Int, Obj
from ..values import frozen
from . import scopes
from .envs import double_env
from .numbering import Block
from .phaseengine import RoundEngine
from .phasekit.base import contract_of, row, seat
from .phasekit.botplay import bot_contract, high_cards, low_cards
from .phasekit.records import BetsSection
from .phases import EXPECTED, Phase
from .trickkernel import is_positive
from .view import part_of, view_part

# its action numbers: double a seat, redouble one, done (``actions`` assembles every phase's)
BETS = Block("double", 58, 17, "double a seat (base + seat), redouble one (base + 8 + seat), done (the last)")
NUMBERS = (BETS,)
DOUBLE_BASE = BETS.base  # DOUBLE_BASE + seat (0..7): double that seat
REDOUBLE_BASE = BETS.base + 8  # REDOUBLE_BASE + seat: redouble a seat that doubled you
DONE = BETS.end - 1  # no more doubles (or redoubles) from this seat; an exposing seat's last word too


def done_unless_forced(legal) -> int:
    """A bot's word in a round of side declarations: ``done`` (no more bets or exposures), unless a
    duty leaves no such choice: then the first action."""
    return DONE if DONE in legal else legal[0]


def double(seat: int) -> int:
    """The action doubling ``seat``."""
    return DOUBLE_BASE + seat


def redouble(seat: int) -> int:
    """The action redoubling ``seat``."""
    return REDOUBLE_BASE + seat


def notation(action: int) -> str:
    """An action of the doubling round in the record notation: ``double:1``, ``redouble:2``, ``done``."""
    if action == DONE:
        return "done"
    if action >= REDOUBLE_BASE:
        return f"redouble:{action - REDOUBLE_BASE}"
    return f"double:{action - DOUBLE_BASE}"


def read_notation(text: str) -> Optional[int]:
    """The action ``notation`` wrote, or None."""
    t = text.strip().lower()
    if t == "done":
        return DONE
    kind, _, seat = t.partition(":")
    if kind in ("double", "redouble") and seat.isdecimal() and int(seat) < 8:
        return (DOUBLE_BASE if kind == "double" else REDOUBLE_BASE) + int(seat)
    return None


#: The contract's key that brings the phase into a deal, and where its words stand (``kierki explain``).
KEY = "doubling"
#: The names of the aspects its words stand under (message ids: ``kierki explain`` says them translated).
ASPECT, DUTY, UNDOUBLED = N_("doubling"), N_("duty"), N_("undoubled")
WORDS_AT = "bets"


def explain(doubling, contract, rs) -> dict:
    """The doubling round in words: who may double, redoubles, a duty to double, an undoubled split."""
    out: dict = {}
    who = (
        tr("a player may double another where {condition}").format(condition=words(doubling.may_double.text))
        if doubling.may_double is not None
        else tr("each player but the dealer may double any other player")
    )
    again = tr("; a doubled player may redouble") if doubling.redouble else ""
    twice = tr(" (twice the difference if redoubled)") if doubling.redouble else ""
    out[ASPECT] = tr(
        "before the first card, in turn from the dealer's left, {who}{again}; each bet pays the "
        "difference of the two players' scores to the better one{twice}"
    ).format(who=who, again=again, twice=twice)
    duty = doubling.duty
    if duty is not None and duty.of == "every":
        out[DUTY] = tr(
            "each player must double every other player at least {times} times in every "
            "{deals} deals, when he likes; a double still owed is forced in the "
            "last deals the other player deals"
        ).format(times=duty.times, deals=duty.over or duty.deals)
    elif duty is not None:
        out[DUTY] = tr(
            "each player who may double the dealer must do so at least {times} times in the "
            "{deals} deals the dealer deals in a row"
        ).format(times=duty.times, deals=duty.deals)
    if doubling.if_undoubled == "split":
        out[UNDOUBLED] = tr(
            "if nobody doubles, the deal is not played: its total is shared among the players "
            "other than the dealer, each share rounded away from zero, the dealer taking the rest"
        )
    return out


DOUBLING = Obj(
    {
        "may_double": Field(
            Expr("bool"),
            "whether `doubler` may double `target` (seats; also dealer, players); "
            "default: any seat but the dealer may double any other seat",
            default=None,
        ),
        "redouble": Field(Bool(), "a doubled seat may redouble each seat that doubled it", default=True),
        "duty": Field(
            Obj(
                {
                    "times": Field(
                        Int(1, 50),
                        N_("how many times each seat must double the dealer (of: every: each other seat)"),
                        required=True,
                    ),
                    "deals": Field(
                        Int(1, 100),
                        N_("in how many deals in a row by the same dealer (match.deals_per_dealer)"),
                        required=True,
                    ),
                    "of": Field(
                        Enum(("dealer", "every")),
                        "dealer: the doubles owed are of the dealer, in his run of deals; "
                        "every: of every other seat, in each block of `over` deals",
                        default="dealer",
                    ),
                    "over": Field(
                        Int(1, 1000),
                        "with of: every, the deals the duty spans (e.g. 28, a whole Barbu game)",
                        default=None,
                    ),
                },
                title="duty",
                doc="Each seat that may double the dealer must do so at least `times` times in the `deals` "
                "deals he deals in a row (Barbu: twice in the declarer's seven); with `of: every`, each seat must "
                "double each other seat `times` times in every `over` deals (barbu.app).",
            ),
            "a duty to double",
            default=None,
        ),
        "if_undoubled": Field(
            Enum(("play", "split")),
            "play the deal when nobody doubled (default), or `split`: do "
            "not play it and share the contract's total among the other seats (Barbu's negative "
            "contracts)",
            default="play",
        ),
    },
    title="doubling",
    doc="Side bets on the difference between two players' scores in the deal (Barbu).",
)
#: Its part of a contract's format, under ``KEY``.
FIELD = Field(DOUBLING, "side bets between players on the difference of their scores (Barbu)", default=None)


def bet_of(seat: int, action: int) -> Optional[tuple]:
    """((doubler, target), factor) of a double or redouble taken by ``seat``; None for done."""
    if DOUBLE_BASE <= action < REDOUBLE_BASE:
        return (seat, action - DOUBLE_BASE), 1
    if REDOUBLE_BASE <= action < DONE:
        return (action - REDOUBLE_BASE, seat), 2
    return None


@frozen(eq=False)
class Doubling:
    """A contract's compiled doubling rule."""

    may_double: Optional[Callable[[dict], Any]]  # compiled bool expression, or None for "anyone but the dealer"
    redouble: bool = True
    duty_times: int = 0  # doubles of the dealer each seat owes in a dealer's run of deals (0: none)
    duty_deals: int = 0  # the length of that run
    if_undoubled: str = "play"  # "play" | "split"
    duty_every: int = 0  # with of: every, the block of deals in which each seat owes each other seat (0: no)

    def allows(self, doubler: int, target: int, dealer: int, players: int) -> bool:
        if doubler == target:
            return False
        if self.may_double is None:
            return doubler != dealer
        return bool(self.may_double(double_env(doubler, target, dealer, players)))


def build_doubling(spec, ctx, where: tuple) -> tuple[Optional[Doubling], bool]:
    """(the rule or None, whether it compiled)."""
    if spec is None:
        return None, True
    may = None
    if spec.may_double is not None:
        may = ctx.expr(spec.may_double, scopes.DOUBLE_EXPR, BOOL, where + ("may_double",))
        if may is None:
            return None, False
    duty = spec.duty
    every = 0
    if duty is not None and duty.of == "every":
        every = duty.over or duty.deals
    elif duty is not None and duty.over is not None:
        ctx.warning(
            where + ("duty", "over"),
            "M632",
            L_("`over` counts only with `of: every`: a duty of the dealer runs over his `deals`"),
            L_("remove it, or say of: every"),
        )
    return Doubling(
        may, spec.redouble, duty.times if duty else 0, duty.deals if duty else 0, spec.if_undoubled, every
    ), True


def _everyone_may_double_the_dealer(rule: Doubling, players: int) -> bool:
    return all(rule.allows(a, d, d, players) for d in range(players) for a in range(players) if a != d)


def check_doubling(contract, where: tuple, bctx, deals_per_dealer: int = 0, players: int = 4) -> None:
    """M616: a ``may_double`` that is always false; M632: a split of an undoubled deal needs the
    contract's declared total; a duty that can never be met is an error."""
    rule = contract.doubling
    if rule.may_double is not None and rule.may_double.is_const and not rule.may_double.const:
        bctx.warning(
            where + ("doubling", "may_double"),
            "M616",
            L_("may_double is always false: nobody can ever double"),
            L_("remove doubling, or say who may double whom"),
        )
    if rule.if_undoubled == "split" and contract.total is None:
        bctx.error(
            where + ("doubling", "if_undoubled"),
            "M632",
            L_("an undoubled deal is split by the contract's total, but this contract declares no `total`"),
            L_("declare the contract's total"),
        )
    if rule.duty_every:
        if rule.duty_every % rule.duty_deals:
            bctx.error(
                where + ("doubling", "duty", "over"),
                "M632",
                L_(
                    "a duty over {duty_every} deals must span whole runs of {duty_deals} deals by one dealer",
                    duty_every=rule.duty_every,
                    duty_deals=rule.duty_deals,
                ),
            )
        elif not _everyone_may_double_the_dealer(rule, players):
            bctx.warning(
                where + ("doubling", "may_double"),
                "M632",
                L_(
                    "a duty to double every seat is kept, at the "
                    "latest, in the target's own deals; this contract does not let every other seat double the "
                    "dealer, so a duty may go unmet"
                ),
                L_("allow doubling the dealer (doubler != dealer)"),
            )
    elif rule.duty_times > rule.duty_deals > 0:
        bctx.error(
            where + ("doubling", "duty", "times"),
            "M632",
            L_(
                "{duty_times} doubles cannot be made in {duty_deals} deals (one double of the dealer a deal)",
                duty_times=rule.duty_times,
                duty_deals=rule.duty_deals,
            ),
        )


def _block_key(rule: Doubling, number: int) -> tuple:
    return ("duty-every", (number - 1) // rule.duty_every)


def owed_to_every(
    rule: Doubling, memory: Optional[dict], dealer: int, number: int, players: int, direction: int
) -> tuple[list, list]:
    """With ``of: every``: (per seat, the doubles it still owes each seat; per target, the
    chances left to double it — the deals of the block from this one on that it deals)."""
    if not rule.duty_every or memory is None or number <= 0:
        return [[0] * players for _ in range(players)], [0] * players
    made = memory.get(_block_key(rule, number), set())
    owed = [
        [
            0 if a == b else max(0, rule.duty_times - sum(1 for _, x, y in made if (x, y) == (a, b)))
            for b in range(players)
        ]
        for a in range(players)
    ]
    end = ((number - 1) // rule.duty_every + 1) * rule.duty_every
    run = (number - 1) // rule.duty_deals
    chances = [0] * players
    for j in range(number, end + 1):
        chances[(dealer + direction * ((j - 1) // rule.duty_deals - run)) % players] += 1
    return owed, chances


def _duty_keys(dealer: int) -> tuple:
    return ("duty-run", dealer), ("duty-doubles", dealer)


def owed_doubles(rule: Doubling, memory: Optional[dict], dealer: int, players: int) -> tuple[list, int]:
    """(doubles of the dealer each seat still owes, deals left in the dealer's run including
    this one), read from the match's memory."""
    if not rule.duty_times or memory is None:
        return [0] * players, 0
    run_key, doubles_key = _duty_keys(dealer)
    run, doubles = memory.get(run_key, set()), memory.get(doubles_key, set())
    if len(run) >= rule.duty_deals:  # a new run of this dealer's deals begins
        run, doubles = set(), set()
    owed = [max(0, rule.duty_times - sum(1 for _, s in doubles if s == seat)) for seat in range(players)]
    owed[dealer] = 0
    return owed, rule.duty_deals - len(run)


def remember(rule: Doubling, memory: Optional[dict], dealer: int, number: int, bets: dict) -> None:
    """Count a finished deal's doubles of the dealer into the match's memory (sets of tuples,
    so the memory copies the way a declarer's choices do)."""
    if not rule.duty_times or memory is None:
        return
    if rule.duty_every:
        memory.setdefault(_block_key(rule, number), set()).update((number, a, b) for (a, b) in bets)
        return
    run_key, doubles_key = _duty_keys(dealer)
    run, doubles = memory.setdefault(run_key, set()), memory.setdefault(doubles_key, set())
    if len(run) >= rule.duty_deals:
        run.clear()
        doubles.clear()
    run.add(number)
    doubles.update((number, a) for (a, b) in bets if b == dealer)


def split_total(total: int, dealer: int, players: int) -> list:
    """An undoubled deal's scores: ``total`` shared among the seats other than the dealer, each
    share rounded away from zero; the dealer gets the rest."""
    others = players - 1
    share = -((-total + others - 1) // others) if total < 0 else (total + others - 1) // others
    scores = [share] * players
    scores[dealer] = total - share * others
    return scores


@view_part("double")
@frozen
class BetsPart:
    """The doubling round's part of a seat view (public)."""

    bets: tuple  # (doubler, target, 2 if redoubled else 1) of every bet made so far


class BettingRound:
    """The bets of one deal: who doubled whom, and which bets were redoubled."""

    rule: Optional[Doubling]  # None in a round rebuilt from a view (``settled``)
    owed: list  # doubles of the dealer each seat still owes

    def __init__(
        self, rule: Doubling, players: int, dealer: int, direction: int, memory: Optional[dict] = None, number: int = 0
    ) -> None:
        self.rule = rule
        self.number = number
        self.owed, self.deals_left = (
            owed_doubles(rule, memory, dealer, players) if not rule.duty_every else ([0] * players, 0)
        )
        self.owed_every, self.chances = owed_to_every(rule, memory, dealer, number, players, direction)
        self.players = players
        self.dealer = dealer
        self.order = [(dealer + direction * (i + 1)) % players for i in range(players)]
        self.bets: dict = {}  # (doubler, target) -> 1, or 2 once redoubled
        self.stage = "double"
        self.turn = 0  # index into order
        self.finished = False
        self._skip()

    @classmethod
    def from_view(cls, view) -> Optional[BettingRound]:
        """The finished round of the bets ``view`` shows, for a deal rebuilt from it (None: no bet
        made, or no doubling round in the deal)."""
        shown = part_of(view, BetsPart)
        return cls.settled(shown.bets, view.players) if shown is not None and shown.bets else None

    @classmethod
    def settled(cls, bets: tuple, players: int) -> "BettingRound":
        """A finished round holding these bets (for states rebuilt from a view)."""
        r = object.__new__(cls)
        r.rule, r.players, r.dealer, r.order = None, players, -1, []
        r.owed, r.deals_left, r.number = [0] * players, 0, 0
        r.owed_every, r.chances = [[0] * players for _ in range(players)], [0] * players
        r.bets = {(a, b): f for a, b, f in bets}
        r.stage, r.turn, r.finished = "done", 0, True
        return r

    def copy(self) -> "BettingRound":
        other = object.__new__(BettingRound)
        other.__dict__.update(self.__dict__)
        other.bets = dict(self.bets)
        return other

    @property
    def seat(self) -> int:
        return -1 if self.finished else self.order[self.turn]

    def legal(self) -> list[int]:
        if self.finished:
            return []
        me = self.seat
        if self.stage == "double":
            rule = self.rule
            assert rule is not None  # only a settled round has none, and it is finished
            out = [
                double(t)
                for t in range(self.players)
                if (me, t) not in self.bets and rule.allows(me, t, self.dealer, self.players)
            ]
            if double(self.dealer) in out and self.owed[me] >= self.deals_left > 0:
                return out  # the duty to double the dealer: not done before doubling him
            if self._forced(me, out):
                return out  # the duty to double every seat: not done before doubling those owed
        else:
            out = [redouble(a) for (a, b), f in sorted(self.bets.items()) if b == me and f == 1]
        return out + [DONE]

    def _forced(self, me: int, out: list) -> list:
        """The seats ``me`` must double now (``of: every``): owed as many doubles as there are
        deals left that they deal, and allowed now."""
        owed = self.owed_every[me]
        return [t for t in range(self.players) if owed[t] and owed[t] >= self.chances[t] and double(t) in out]

    def why_illegal(self, action: int) -> Optional[str]:
        legal = self.legal()
        if action in legal:
            return None
        forced = self._forced(self.seat, legal) if self.stage == "double" and not self.finished else []
        if action == DONE and forced:
            t = forced[0]
            return R_(
                "you must double seat {seat} {times} more time(s) in this game, and he "
                "deals {deals} deal(s) of it from this one on: double him before saying done"
            ).format(seat=t, times=self.owed_every[self.seat][t], deals=self.chances[t])
        if action == DONE and self.stage == "double":
            return R_(
                "you must double the dealer (seat {seat}) {times} more time(s) in his "
                "{deals} deal(s) left: double him before saying done"
            ).format(seat=self.dealer, times=self.owed[self.seat], deals=self.deals_left)
        return R_("a bet is expected: {choices}").format(choices=", ".join(notation(a) for a in legal))

    def apply(self, action: int) -> None:
        bet = bet_of(self.seat, action)
        if bet is None:
            self.turn += 1
        else:
            self.bets[bet[0]] = bet[1]
        self._skip()  # a seat with nothing left to choose has finished its turn

    def _skip(self) -> None:
        """Move on to the next seat that has a choice to make."""
        while True:
            if self.turn >= len(self.order):
                if self.stage == "double" and self.rule is not None and self.rule.redouble and self.bets:
                    self.stage, self.turn = "redouble", 0
                else:
                    self.finished, self.stage = True, "done"
                    return
            if self.legal() != [DONE]:
                return
            self.turn += 1

    def remember(self, memory: Optional[dict]) -> None:
        """Count this deal's doubles of the dealer into the match's memory (duties)."""
        if self.rule is not None:
            remember(self.rule, memory, self.dealer, self.number, self.bets)

    def public(self) -> tuple:
        """Every bet as (doubler, target, factor), for views and records."""
        return tuple((a, b, f) for (a, b), f in sorted(self.bets.items()))

    def part(self) -> BetsPart:
        """The doubling round's part of every seat's view."""
        return BetsPart(self.public())

    def settle(self, scores: list) -> list:
        """The scores after every bet is paid."""
        out = list(scores)
        for (a, b), factor in self.bets.items():
            diff = (scores[a] - scores[b]) * factor
            out[a] += diff
            out[b] -= diff
        return out


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M632",
        "doubling duties that cannot work",
        "`doubling.if_undoubled: split` shares the contract's declared "
        "`total` among the seats other than the dealer when nobody doubled, so the contract must declare one; a `duty` "
        "of more doubles than its deals can hold (one double of the dealer a deal) can never be met; a duty counted "
        "over runs of another length than `match.deals_per_dealer` is warned about. A duty to double every seat "
        "(`of: every`) must span whole runs (`over` a multiple of `deals`), is kept at the latest in the target's own "
        "deals, so a `may_double` that stops someone doubling the dealer is warned about, and `over` without `of: "
        "every` is ignored (a warning).",
        example("  bez_lew:\n    doubling: {if_undoubled: split}\n    score: [{per_trick: -20}]\n"),
        example("  bez_lew:\n    total: -260\n    doubling: {if_undoubled: split}\n    score: [{per_trick: -20}]\n"),
        (6, 30),
    ),
    Code(
        "M616",
        "nobody may double",
        "A `may_double` rule that is always false makes the doubling round empty.",
        example("  bez_lew:\n    doubling: {may_double: 1 > 2}\n    score: [{per_trick: -20}]\n"),
        example("  bez_lew:\n    doubling: {may_double: doubler != dealer}\n    score: [{per_trick: -20}]\n"),
        (6, 28),
        severity="warning",
    ),
)


# -- its engine: the round as a deal steps it ---------------------------------------------------
class DoublingEngine(RoundEngine):
    """The doubling round of ``contract.doubling`` (``Doubling``); its state is ``deal.betting``."""

    phase = Phase.DOUBLE
    field = "betting"

    def start(self, deal) -> int:
        deal.betting = BettingRound(self.rule, deal.players, deal.dealer, deal.direction, deal.memory, deal.number)
        return deal.betting.seat

    def ends_unplayed(self, deal) -> bool:
        """With ``if_undoubled: split`` and no bet made, the deal ends unplayed, its total split."""
        if self.rule.if_undoubled != "split" or (deal.betting and deal.betting.bets):
            return False
        deal.scores = split_total(deal.contract.total, deal.dealer, deal.players)
        return True

    def copy(self, deal, other) -> None:
        if deal.betting is not None:
            other.betting = deal.betting.copy()

    def from_view(self, deal, view) -> None:
        deal.betting = BettingRound.from_view(view)

    def settle_after(self, deal) -> None:
        if deal.betting is not None:
            deal.scores = deal.betting.settle(deal.scores)

    def remember(self, deal, memory) -> None:
        if deal.betting is not None:
            deal.betting.remember(memory)


# -- its unit: what a person and a bot see of it ------------------------------------------------
class DoublingUnit(BetsSection):
    """The doubling round as a person and a bot see it: its labels, typed words, panel and bot hooks."""

    name = "double"
    part_type = BetsPart
    expected = EXPECTED[Phase.DOUBLE]
    task = N_("double or not")
    prompt_word = N_("bet")
    hint = N_("Type a number from the list, 'double E', 'redouble N' or 'done'.")
    searched = True
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    # adapter hooks
    def observation_lines(self, view) -> list:
        """The bets standing, ``bets p0>p1x2 ...`` (none: no line)."""
        return ["bets " + " ".join(f"p{a}>p{b}x{f}" for a, b, f in _bets(view))] if _bets(view) else []

    def tensor_marks(self, view) -> list:
        """Each bet standing at ``bets[doubler * players + target]``, its factor."""
        return [("bets", a * view.players + b, float(f)) for a, b, f in _bets(view)]

    def owns(self, action: int) -> bool:
        return DOUBLE_BASE <= action <= DONE

    def label(self, view, action: int, rules=None) -> str:
        if action == DONE:
            return tr("done")
        if action >= REDOUBLE_BASE:
            return tr("redouble {seat}").format(seat=seat(view, action - REDOUBLE_BASE))
        return tr("double {seat}").format(seat=seat(view, action - DOUBLE_BASE))

    def word(self, view, text: str, rules=None) -> Optional[int]:
        if text in ("done", tr("done")):
            return DONE
        kind, _, who = text.partition(" ")
        base = {
            "double": DOUBLE_BASE,
            "d": DOUBLE_BASE,
            "kontra": DOUBLE_BASE,
            "redouble": REDOUBLE_BASE,
            "r": REDOUBLE_BASE,
            "rekontra": REDOUBLE_BASE,
        }.get(kind)
        for s in range(view.players):
            if base is not None and who == seat(view, s).lower():
                return base + s
        return None

    def advice(self, view, rules=None) -> list:
        lines = [
            tr(
                "A double is a side bet that you outscore that player in this deal: the difference of "
                "your two scores is paid, twice if redoubled."
            )
        ]
        if DONE in view.legal:
            return lines
        contract = contract_of(rules, view.contract)
        if contract is not None and contract.doubling is not None and contract.doubling.duty_every:
            lines.append(
                tr(
                    "You owe a player doubles under the duty to double every player, and the deals he deals "
                    "are running out: you may not say done yet."
                )
            )
        else:
            lines.append(
                tr(
                    "You owe the dealer ({seat}) a double: you must double him in one "
                    "of his deals left, and this is the last chance to keep that duty."
                ).format(seat=seat(view, view.dealer))
            )
        return lines

    def menu(self, view, rules=None) -> list:
        return [tr("Bets: ") + "  ".join(f"{i}) {self.label(view, a)}" for i, a in enumerate(view.legal, start=1))]

    def panel(self, view, rules=None) -> list:
        if not _bets(view):
            return []
        return [
            row(
                tr("Bets so far"),
                ", ".join(
                    (tr("{seat} redoubled {other}") if f == 2 else tr("{seat} doubled {other}")).format(
                        seat=seat(view, a), other=seat(view, b)
                    )
                    for a, b, f in _bets(view)
                ),
            )
        ]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """Double (or redouble) every seat it may while its hand is clearly above average: many
        low cards where tricks cost, many high ones where they pay; never in a layout deal. A
        duty to double the dealer (no 'done' allowed) is met at once."""
        legal = view.legal
        if DONE not in legal:
            return double(view.dealer) if double(view.dealer) in legal else legal[0]
        if view.part("layout") is not None:  # a layout deal's doubling (``layout.lays_out``, which imports this module)
            return DONE
        high, low = high_cards(view.hand), low_cards(view.hand)
        positive = is_positive(bot_contract(rules, view.contract), view.tricks_total, view.trump, view.players)
        edge = high - low + 1 if positive else low - high - 1  # about 0 for an average hand
        bets = [a for a in legal if a != DONE]
        return bets[0] if bets and edge >= 3 else DONE

    def search_try(self, state, view, action: int) -> None:
        """The bets of the view's deal after ``action``, settled (nobody bets after it), then play
        (or the split of an undoubled deal)."""
        state.betting = bets_after(view, action)
        state.play_from_start()

    def search_tie(self, action: int):
        """On a tie, do not bet."""
        return action == DONE

    def rollout_action(self, state) -> Optional[int]:
        """No bets, but a double a duty forces."""
        return done_unless_forced(state.legal_actions())


def _bets(view) -> tuple:
    """The bets of the view's doubling round (none: the deal has no doubling round)."""
    part = view.part("double")
    return part.bets if part is not None else ()


def bets_after(view, action: int) -> BettingRound:
    """The bets of the view's deal after ``action``, as a settled round (nobody bets after it)."""
    bets = {(a, b): f for a, b, f in _bets(view)}
    bet = bet_of(view.seat, action)
    if bet is not None:
        bets[bet[0]] = bet[1]
    return BettingRound.settled(tuple((a, b, f) for (a, b), f in bets.items()), view.players)


UNIT = DoublingUnit()
