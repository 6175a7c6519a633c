"""Declarations: events of play that score and may change trumps (Tysiąc's marriages).

A trick contract with ``declarations: [{name, when, points, set_trump}]`` looks at every card
led: for each declaration in order whose ``when`` holds (a bool expression over the card led,
``lead``, and the leader's hand as it was before leading, read with ``held(...)``), the
leader declares it. Its ``points`` are credited to the leader's ``declared`` total, which seat
scoring reads (``per_seat: ... declared ...``), and with ``set_trump`` the suit it names
becomes trumps at once, for the trick just led and the rest of the deal (until another
declaration changes it again). A declaration is public: every seat's view lists it.

Declaring is a consequence of the card led, not a separate action: a record needs nothing
beyond the cards played, and replaying them declares the same things. So the phase has no engine
and its unit (``Declarations``, below) no actions, only its part of the view, shown to every seat.

The phase is this one module: its part of the format, its rule and checks, its words for
``kierki explain``, its part of the seat view and its unit (``UNIT``). The deal states that
declare on every card led (``declaring.py``) build on the trick, stock and widow deals' states and
stay beside them.
"""

from __future__ import annotations

from ..cards import SUIT_SYMBOLS
from ..codes import Code, example, table
from ..expr.types import BOOL, INT, SUIT
from ..exprwords import NAME_WORDS
from ..exprwords import words as expr_words
from ..i18n import L_, N_, tr
from ..spec.schema import Expr, Field, List, Obj, Str
from ..values import frozen
from . import scopes
from .envs import declare_env
from .phasekit.base import PhaseUnit, row, seat
from .view import view_part

DECLARATION = Obj(
    {
        "name": Field(Str(r"[a-z][a-z0-9_]*"), N_("what the declaration is called (e.g. marriage)"), required=True),
        "when": Field(
            Expr("bool"),
            N_(
                "when leading a card declares it: an expression over `lead` (the card led), "
                "held(...) (the leader's hand before leading), trump, trick.number"
            ),
            required=True,
        ),
        "points": Field(Expr("int"), "points credited to the leader's `declared`, which seat scoring reads"),
        "set_trump": Field(Expr("suit"), "the suit that becomes trumps at once (e.g. lead.suit)"),
    },
    title="declaration",
    doc="A declaration made by leading a card (a marriage): it credits points to the leader's `declared` and may "
    "make a suit trumps from the trick led on.",
)

DECLARATIONS = List(DECLARATION, min_items=1, max_items=16)
#: Its part of a contract's format, under ``KEY``.
FIELD = Field(
    DECLARATIONS,
    "declarations made by leading a card (marriages): they credit points to "
    "the leader's `declared` and may change trumps",
    default=[],
)


@view_part("declarations")
@frozen
class DeclarationsPart:
    """The declarations' part of a seat view (public)."""

    declarations: tuple  # (seat, name, points, suit or -1) of every declaration made so far


def declarations_part(st) -> DeclarationsPart:
    """The declarations' part of every seat's view of deal state ``st``."""
    return DeclarationsPart(st.declarations_made)


@frozen(eq=False)
class Declaration:
    """One compiled declaration."""

    name: str
    when: object  # compiled bool expression (scope DECLARE)
    points: object  # compiled int expression, or None
    set_trump: object  # compiled suit expression, or None


def build_declarations(items, ctx, where: tuple) -> tuple[tuple, bool]:
    """(the compiled declarations, whether they all compiled); M641 for one that does nothing."""
    out, ok = [], True
    for i, d in enumerate(items or ()):
        w = where + (i,)
        when = ctx.expr(d.when, scopes.DECLARE, BOOL, w + ("when",))
        points = ctx.expr(d.points, scopes.DECLARE, INT, w + ("points",))
        trump = ctx.expr(d.set_trump, scopes.DECLARE, SUIT, w + ("set_trump",))
        if d.points is None and d.set_trump is None:
            ctx.error(
                w,
                "M641",
                L_("declaration {d!r} neither scores nor sets trumps", d=d.name),
                L_("give it `points`, `set_trump` or both"),
            )
            ok = False
            continue
        if when is None or (d.points is not None and points is None) or (d.set_trump is not None and trump is None):
            ok = False
            continue
        if when.is_const and not when.const:
            ctx.warning(
                w + ("when",),
                "M641",
                L_("declaration {d!r} can never be made: its condition is always false", d=d.name),
            )
        out.append(Declaration(d.name, when, points, trump))
    return tuple(out), ok


def reads_declared(contract) -> bool:
    """Whether some seat scoring of the contract reads ``declared``."""
    return any(s.kind == "seat" and "declared" in s.points.free for s in contract.scorers)


def check_declarations(contract, where: tuple, bctx) -> None:
    """M641: declarations with points that no scoring reads score nothing."""
    if any(d.points is not None for d in contract.declarations) and not reads_declared(contract):
        bctx.warning(
            where + ("declarations",),
            "M641",
            L_("declarations have points but no seat scoring reads `declared`, so they score nothing"),
            L_("add e.g. {per_seat: declared}"),
        )


def declare(rules: tuple, seat: int, lead: int, hand: int, st) -> list:
    """The declarations ``seat`` makes by leading ``lead`` from ``hand`` (its hand before leading),
    as (seat, name, points, suit or -1) in order; ``st`` is the deal (trump, trick number...).
    Each one that sets trumps changes the trump the next one sees."""
    made = []
    trump = st.trump
    for d in rules:
        env = declare_env(
            lead,
            seat,
            hand,
            trump,
            st.trick_no,
            st.tricks_total,
            st.dealer,
            st.players,
            st.deck,
            st.bidder,
            st.bid,
            st.declared[seat],
        )
        if not d.when(env):
            continue
        points = d.points(env) if d.points is not None else 0
        suit = d.set_trump(env) if d.set_trump is not None else -1
        if suit >= 0:
            trump = suit
        made.append((seat, d.name, points, suit))
    return made


#: The trick contract's key that brings the phase into a deal, and where its words stand (``kierki explain``).
KEY = "declarations"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("declarations")
WORDS_AT = "play"


def explain(specs, contract, rs) -> dict:
    """The declarations in words, one sentence."""
    return {ASPECT: "; ".join(words(contract.declarations, specs))}


def words(rules: tuple, specs) -> list:
    """The declarations in plain words, for ``kierki explain``."""
    out = []
    for d, spec in zip(rules, specs):
        text = tr("{name}: declared by leading a card when {condition}").format(
            name=d.name, condition=expr_words(spec.when.text)
        )
        if spec.points is not None:
            text += tr("; scores {points} to {declared}").format(
                points=expr_words(spec.points.text), declared=tr(NAME_WORDS["declared"])
            )
        if spec.set_trump is not None:
            text += tr("; from that trick on trumps are {suit}").format(suit=expr_words(spec.set_trump.text))
        out.append(text)
    return out


def settled_declared(made: tuple, players: int) -> list:
    """Per seat, the points of the declarations ``made`` (a view's public list)."""
    declared = [0] * players
    for who, _, points, _ in made:
        declared[who] += points
    return declared


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M641",
        "declaration that does nothing",
        "A declaration (`declarations`) is made by leading a card when its "
        "`when` holds; it credits `points` to the leader's `declared` and may `set_trump`. One with neither does nothing "
        "(an error); points that no seat scoring reads (`declared`) score nothing, and a `when` that is always false is "
        "never met (warnings).",
        example(
            "  bez_lew:\n    declarations: [{name: marriage, when: lead.rank == K}]\n    score: [{per_trick: -20}]\n"
        ),
        example(
            "  bez_lew:\n    declarations: [{name: marriage, when: lead.rank == K, set_trump: lead.suit}]\n"
            "    score: [{per_trick: -20}]\n"
        ),
        (6, 20),
    ),
)


__all__ = [
    "DECLARATION",
    "DECLARATIONS",
    "UNIT",
    "Declaration",
    "Declarations",
    "build_declarations",
    "check_declarations",
    "declaration_text",
    "declare",
    "on_lead",
    "settled_declared",
    "words",
]


def on_lead(st, seat: int, lead: int) -> None:
    """``seat`` has just led ``lead`` in the deal ``st``: make the declarations it declares,
    credit their points to ``st.declared`` and, when one changes trumps, recompile the deal's
    rules for the new trump (``st.recompile()``)."""
    made = declare(st.contract.declarations, seat, lead, st.hands[seat] | 1 << lead, st)  # its hand before
    if not made:
        return
    trump = st.trump
    for _, _, points, suit in made:
        st.declared[seat] += points
        if suit >= 0:
            trump = suit
    st.declarations_made = st.declarations_made + tuple(made)
    if trump != st.trump:
        if st.opening_trump is None:
            st.opening_trump = st.trump
        st.trump = trump
        st.recompile()


# -- its unit: what a person sees of it -------------------------------------------------------


def declaration_text(view, made) -> str:
    """``N marriage (+100, trumps ♥)`` for a view's ``(seat, name, points, suit)``."""
    who, name, points, suit = made
    what = [f"{points:+d}"] if points else []
    if suit >= 0:
        what.append(tr("trumps {suit}").format(suit=SUIT_SYMBOLS[suit]))
    return f"{seat(view, who)} {name}" + (f" ({', '.join(what)})" if what else "")


class Declarations(PhaseUnit):
    """The declarations' unit: no actions, its panel (what every seat has declared)."""

    name = "declarations"
    part_type = DeclarationsPart
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    def matches(self, view) -> bool:
        return False

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None or not p.declarations:
            return []
        return [row(tr("Declared"), ", ".join(declaration_text(view, d) for d in p.declarations))]


UNIT = Declarations()
