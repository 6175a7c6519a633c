"""Exposure doubling (Trix): a player shows a penalty card before play to double its cost.

A trick contract with ``exposure: {cards: <card predicate>, factor: 2}`` opens each deal
(after any trump call and doubling round, before the first card) with a round of exposures.
Starting left of the dealer, each seat in turn may show any cards of its hand that match
``cards``, one at a time (``expose:KH`` in records), then says ``done`` (a seat holding no
such card is passed over). An exposed card is public from then on. When it is taken in a
trick, its taker scores the card's points ``factor`` times instead of once, and the seat
that exposed it is paid the difference, ``factor - 1`` times the points with the sign
reversed — so the deal's total is unchanged (Trix: exposing K♥ makes its taker lose 150 and
the exposer gain 75). The card's points are those of the contract's card scoring for the
trick it is taken in (``per_card`` components).

The phase is this one module: its action numbers, its part of the format and its checks, the round's
state (``ExposureRound``), its part of the seat view (``ExposurePart``), its engine
(``ExposureEngine``: the round as a trick deal steps it, ``phaseengine``; at the deal's end each
exposed card's taker pays its extra cost to the seat that exposed it) and its unit (``UNIT``:
labels, typed words, panel and bot hooks — expose a card, then done).
"""

from __future__ import annotations

from typing import Optional

from .. import words
from ..cards import CardError, bits, card_pretty, card_str, parse_card, read_card
from ..codes import Code, example, table
from ..expr.types import BOOL
from ..i18n import L_, N_, R_, tr
from ..spec.schema import Expr, Field, Int, Obj
from ..values import frozen
from . import scopes
from .doubling import DONE, done_unless_forced
from .numbering import Block, read_tagged
from .phaseengine import RoundEngine
from .phasekit.base import row, seat
from .phasekit.records import BetsSection
from .phases import EXPECTED, Phase
from .view import shown_part, view_part

# its action numbers: show a card (its ``done`` is the doubling round's; ``actions`` assembles every phase's)
SHOWN = Block("expose", 900, 52, "show a card (base + card) before play")
NUMBERS = (SHOWN,)
EXPOSE_BASE = SHOWN.base


def expose(card: int) -> int:
    """The action showing ``card`` before play (exposure doubling)."""
    return EXPOSE_BASE + card


def exposed_card(action: int) -> int:
    """The card an exposure shows."""
    return action - EXPOSE_BASE


def is_expose(action: int) -> bool:
    """An exposure of a card."""
    return SHOWN.holds(action)


def notation(action: int) -> str:
    """An exposure in the record notation: ``expose:KH``."""
    return "expose:" + card_str(exposed_card(action))


def read_notation(text: str) -> Optional[int]:
    """The exposure ``notation`` wrote, or None."""
    return read_tagged(text, "expose", 10, lambda card: expose(parse_card(card)))


EXPOSURE = Obj(
    {
        "cards": Field(Expr("pred"), N_("the cards a player may expose before play (e.g. card == KH)"), required=True),
        "factor": Field(
            Int(2, 10),
            "an exposed card costs its taker this many times its points; the exposer is paid the difference",
            default=2,
        ),
    },
    title="exposure",
    doc="Exposure doubling (Trix): before play a player may show cards of his hand that match `cards`; an exposed "
    "card scores `factor` times for its taker, and its exposer gets the difference.",
)
#: Its part of a contract's format, under ``KEY``.
FIELD = Field(EXPOSURE, "before play players may expose penalty cards to double their cost (Trix)", default=None)


@frozen(eq=False)
class Exposure:
    """A contract's compiled exposure rule."""

    cards: int  # the mask of cards that may be exposed
    factor: int


def build_exposure(spec, ctx, where: tuple) -> tuple[Optional[Exposure], bool]:
    """(the rule or None, whether it compiled)."""
    if spec is None:
        return None, True
    pred = ctx.expr(spec.cards, scopes.CARD_SCORING, BOOL, where + ("cards",), predicate=True)
    if pred is None:
        return None, False
    if pred.const is None:
        ctx.error(
            where + ("cards",),
            "M631",
            L_("the cards that may be exposed must not depend on the trick or the trump: exposing comes before play"),
            L_("name cards by suit and rank, e.g. card == KH"),
        )
        return None, False
    return Exposure(pred.const & ctx.deck, spec.factor), True


def check_exposure(contract, where: tuple, bctx, deck: int) -> None:
    """M631: exposing a card that no card scoring counts changes nothing."""
    rule = contract.exposure
    scored = 0
    for s in contract.scorers:
        if s.cards is not None and s.cards.const is not None:
            scored |= s.cards.const
    if not rule.cards & deck:
        bctx.warning(where + ("exposure", "cards"), "M631", L_("no card of the deck may be exposed"))
    elif rule.cards & ~scored & deck:
        names = " ".join(card_str(c) for c in range(52) if (rule.cards & ~scored & deck) >> c & 1)
        bctx.warning(
            where + ("exposure", "cards"),
            "M631",
            L_("exposing {names} changes nothing: no per_card component of this contract scores it", names=names),
            L_("expose only the cards the contract scores"),
        )


@view_part("expose")
@frozen
class ExposurePart:
    """The exposures' part of a seat view (public)."""

    exposed: tuple  # (seat, card) of every card shown before play


class ExposureRound:
    """The exposures of one deal: whose turn, which cards each seat showed."""

    def __init__(self, rule: Exposure, players: int, dealer: int, direction: int, hands: list) -> None:
        self.rule = rule
        self.players = players
        self.order = [(dealer + direction * (i + 1)) % players for i in range(players)]
        self.hands: Optional[list] = hands  # the deal's hands (read, never changed here); None once settled
        self.exposed: list = []  # (seat, card) in order
        self.turn = 0
        self.finished = False
        self._skip()

    @classmethod
    def settled(cls, exposed: tuple, rule: Exposure, players: int) -> "ExposureRound":
        """A finished round with these exposures (for states rebuilt from a view)."""
        r = object.__new__(cls)
        r.rule, r.players, r.order, r.hands = rule, players, [], None
        r.exposed, r.turn, r.finished = [tuple(e) for e in exposed], 0, True
        return r

    def copy(self, hands: list) -> "ExposureRound":
        other = object.__new__(ExposureRound)
        other.__dict__.update(self.__dict__)
        other.exposed = list(self.exposed)
        other.hands = hands
        return other

    @property
    def seat(self) -> int:
        return -1 if self.finished else self.order[self.turn]

    def _shown(self) -> int:
        m = 0
        for _, c in self.exposed:
            m |= 1 << c
        return m

    def legal(self) -> list[int]:
        if self.finished:
            return []
        assert self.hands is not None  # only a settled round has none, and it is finished
        left = self.hands[self.seat] & self.rule.cards & ~self._shown()
        return [DONE] + [expose(c) for c in range(52) if left >> c & 1]  # ascending, as OpenSpiel wants

    def why_illegal(self, action: int) -> Optional[str]:
        if action in self.legal():
            return None
        if is_expose(action):
            return R_("{card} is not a card of your hand that may be exposed").format(
                card=card_str(exposed_card(action))
            )
        return R_("an exposure is expected: {choices}").format(choices=", ".join(_word(a) for a in self.legal()))

    def apply(self, action: int) -> None:
        if action == DONE:
            self.turn += 1
        else:
            self.exposed.append((self.seat, exposed_card(action)))
        self._skip()

    def _skip(self) -> None:
        while self.turn < len(self.order) and self.legal() == [DONE]:
            self.turn += 1
        if self.turn >= len(self.order):
            self.finished = True

    def public(self) -> tuple:
        """Every exposure as (seat, card), for views and records."""
        return tuple(self.exposed)

    def part(self) -> ExposurePart:
        """The exposures' part of every seat's view."""
        return ExposurePart(self.public())

    def settle(self, scores: list, completed: list, tables) -> None:
        """Pay each exposed card's extra cost: its taker scores it ``factor`` times, its exposer
        is paid the difference."""
        _, card_tables, _ = tables
        owner = dict((c, s) for s, c in self.exposed)
        for number, (_, plays, winner) in enumerate(completed, start=1):
            for _, card in plays:
                if card not in owner:
                    continue
                points = sum(table[number] for m, table in card_tables if m >> card & 1)
                extra = (self.rule.factor - 1) * points
                scores[winner] += extra
                scores[owner[card]] -= extra


def why_not_exposed(rule: Exposure, view, action: int) -> Optional[str]:
    """Why a seat may not take ``action`` in the round of exposures, from its view alone."""
    if is_expose(action):
        card = exposed_card(action)
        if not view.hand >> card & 1:
            return R_("{card} is not in your hand").format(card=card_str(card))
        if not rule.cards >> card & 1:
            return R_("{card} is not a card that may be exposed in this contract").format(card=card_str(card))
        return R_("{card} is exposed already").format(card=card_str(card))
    return R_("an exposure is expected: {choices}").format(choices=", ".join(_word(a) for a in view.legal))


def _word(action: int) -> str:
    """A legal action in a refusal's list: ``done`` or its notation (``expose:KH``)."""
    return "done" if action == DONE else notation(action)


#: The trick contract's key that brings the phase into a deal, and where its words stand (``kierki explain``).
KEY = "exposure"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("exposure")
WORDS_AT = "scoring"


def explain(spec, contract, rs) -> dict:
    """The exposures in words."""
    return {ASPECT: exposure_words(spec)}


def exposure_words(spec) -> str:
    """The exposure rule in words (``kierki explain``, ``kierki diff``)."""
    factor = spec.factor
    times = {2: "double", 3: "three times"}.get(factor, f"{factor} times")
    return (
        f"before play each player in turn may expose {words.cards(spec.cards.text)} of his hand; "
        f"an exposed card costs its taker {times} its points, and the player who exposed it gets the difference"
    )


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M631",
        "exposure that cannot work",
        "`exposure.cards` names the cards a player may show before play to double "
        "their cost. They must not depend on the trick or the trump (an error: exposing comes before play), and a card "
        "that no `per_card` component of the contract scores changes nothing when exposed (a warning).",
        example(
            "  bez_lew:\n    exposure: {cards: card.suit == trump}\n    score: [{per_card: card == KH, points: -75}]\n"
        ),
        example("  bez_lew:\n    exposure: {cards: card == KH}\n    score: [{per_card: card == KH, points: -75}]\n"),
        (6, 23),
    ),
)


# -- its engine: the round as a trick deal steps it --------------------------------------------
class ExposureEngine(RoundEngine):
    """The exposures of ``contract.exposure`` (``Exposure``); its state is ``deal.exposures``."""

    phase = Phase.EXPOSE
    field = "exposures"

    def start(self, deal) -> int:
        deal.exposures = ExposureRound(self.rule, deal.players, deal.dealer, deal.direction, deal.hands)
        return deal.exposures.seat

    def copy(self, deal, other) -> None:
        if deal.exposures is not None:
            other.exposures = deal.exposures.copy(other.hands)

    def from_view(self, deal, view) -> None:
        deal.exposures = ExposureRound.settled(shown_part(view, ExposurePart).exposed, self.rule, view.players)

    def settle_after(self, deal) -> None:
        if deal.exposures is not None:
            deal.exposures.settle(deal.scores, deal.completed, deal._tables)

    def view_reason(self, view, action: int) -> Optional[str]:
        return why_not_exposed(self.rule, view, action)


# -- its unit: what a person and a bot see of it ------------------------------------------------
class ExposureUnit(BetsSection):
    """The exposures as a person and a bot see them: labels, typed words, panel and bot hooks."""

    name = "expose"
    part_type = ExposurePart
    expected = EXPECTED[Phase.EXPOSE]
    task = N_("expose a card or say done")
    prompt_word = N_("expose")
    hint = N_("Type a number from the list, a card such as KH, or 'done'.")
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    def owns(self, action: int) -> bool:
        return is_expose(action) or action == DONE

    def label(self, view, action: int, rules=None) -> str:
        return tr("done") if action == DONE else tr("expose {card}").format(card=card_pretty(exposed_card(action)))

    def word(self, view, text: str, rules=None) -> Optional[int]:
        if text in ("done", tr("done")):
            return DONE
        try:
            return expose(read_card(text.split()[-1]))
        except (CardError, IndexError):
            return None

    def advice(self, view, rules=None) -> list:
        return [
            tr(
                "Exposing a card doubles what it costs whoever takes it; you gain its value once if someone else "
                "takes it."
            )
        ]

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        word = tr("expose") + " "
        shown = text.split(" ", 1)[1] if text.lower().startswith(("expose ", word.lower())) else text
        return tr("You cannot expose {card}: {reason}.").format(card=shown, reason=reason or tr("not allowed now"))

    def shown_held(self, view) -> list:
        """Every card exposed: its exposer holds it until it is played."""
        p = self.part(view)
        return list(p.exposed) if p is not None else []

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None or not p.exposed:
            return []
        return [row(tr("Exposed so far"), ", ".join(f"{seat(view, s)} {card_pretty(c)}" for s, c in p.exposed))]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """Expose a card that three lower cards of its suit protect (it can be kept out of
        tricks it would lose), else done."""
        for a in view.legal:
            if is_expose(a):
                card = exposed_card(a)
                lower = sum(1 for c in bits(view.hand) if c // 13 == card // 13 and c % 13 < card % 13)
                if lower >= 3:
                    return a
        return DONE

    def rollout_action(self, state) -> Optional[int]:
        """No exposures (done, unless a duty forces one)."""
        return done_unless_forced(state.legal_actions())

    # adapter hooks: any card of the deck may be shown where the contract has exposures
    def action_end(self, contract) -> int:
        return expose(52) if contract.exposure is not None else 0


UNIT = ExposureUnit()


__all__ = [
    "EXPOSURE",
    "Exposure",
    "ExposureEngine",
    "ExposureRound",
    "ExposureUnit",
    "UNIT",
    "build_exposure",
    "check_exposure",
    "exposure_words",
]
