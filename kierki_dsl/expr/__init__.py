"""The expression language: parse -> check -> compile, with located diagnostics.

>>> from kierki_dsl.expr import compile_text, CARD_SCOPE
>>> p = compile_text("card.suit == hearts or card == QS", CARD_SCOPE, predicate=True)
>>> bin(p.const).count("1")
14
"""

from __future__ import annotations

from typing import Optional, Union

from ..cards import FULL_DECK, card_str
from ..diagnostics import WARNING, Diagnostic, DiagnosticError, Pos
from ..i18n import L_
from .ast import ExprText
from .check import check
from .codegen import generate
from .compile import CardPredicate, Compiled
from .divisors import zero_divisors
from .errors import EvalError, ExprError
from .parser import parse
from .types import BOOL, CARD, INT, RANK, SEAT, SUIT, Scope, Type, Var


class RuleRuntimeError(Exception):
    """A ruleset expression failed while a deal was being played (located diagnostic)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.headline())
        self.diagnostic = diagnostic

    def __reduce__(self):
        """Pickled by its diagnostic (a simulation's worker process hands it to the command)."""
        return (RuleRuntimeError, (self.diagnostic,))


#: Names every card predicate can read.
CARD_SCOPE = Scope(L_("a card predicate"), {"card": Var(CARD, "card", "the card being tested")})


def diagnostics_for(text: ExprText, errors) -> list[Diagnostic]:
    out = []
    for e in errors:
        pos: Pos = text.pos(e.offset, getattr(e, "end", None))
        out.append(
            Diagnostic(
                text.path, pos, e.code, L_("{message} in {field}", message=e.message, field=text.field), hint=e.hint
            )
        )
    return out


def compile_expr(
    text: ExprText,
    scope: Scope,
    expected: Optional[Type],
    predicate: bool = False,
    deck: int = FULL_DECK,
    order: Optional[tuple] = None,
    players: Optional[int] = None,
) -> tuple[Optional[Union[Compiled, CardPredicate]], list[Diagnostic]]:
    """Parse, check and compile one expression; return it and every finding.

    With ``predicate=True`` the expression is a bool over ``card`` and becomes a
    ``CardPredicate`` (masks); otherwise a ``Compiled`` callable. Either evaluates one
    generated Python function (``codegen``; ``compile.compile_tree`` is the reference). ``order``: the deck's rank
    order (``rankorder``), which rank comparisons follow; ``players``: the ruleset's number of
    players, which a divisor's range is worked out with (N412, ``divisors``).
    """
    try:
        tree = parse(text.text)
    except ExprError as e:
        return None, diagnostics_for(text, [e])
    if predicate:
        merged = dict(scope.vars)
        merged.update(CARD_SCOPE.vars)
        scope = Scope(scope.name, merged)
        expected = BOOL
    info = check(tree, scope, CARD_SCOPE, expected)
    if info.errors:
        return None, diagnostics_for(text, info.errors)
    warnings = _cards_outside(text, tree, deck)

    def on_error(e: EvalError) -> RuleRuntimeError:
        at = text.pos(e.offset)
        pos = text.anchor or at
        return RuleRuntimeError(
            Diagnostic(
                text.path,
                pos,
                "X701",
                L_(
                    "{message} in {field} (operator at {line}:{col})",
                    message=e.message,
                    field=text.field,
                    line=at.line,
                    col=at.col,
                ),
            )
        )

    try:
        fn, free, seen, compute, located = generate(tree, info, deck, order, predicate, on_error)
        warnings += zero_divisors(text, tree, info, players)
        if predicate:
            return CardPredicate(fn, free, deck, on_error, seen, compute), warnings

        def binder(params: tuple):
            return generate(tree, info, deck, order, False, on_error, params)[4]

        compiled = Compiled(fn, free, on_error, seen, located, binder)
        if info.type_of(tree) == INT:
            compiled.bounds = _bounds(text, tree, info)
        return compiled, warnings
    except EvalError as e:
        return None, diagnostics_for(text, [ExprError(e.offset, "N410", e.message)])


def _bounds(text: ExprText, tree, info) -> tuple:
    """(lo, hi, the position of the innermost part that can pass SCORE_LIMIT or None)."""
    from .bounds import measure

    lo, hi, wide = measure(tree, info)
    return lo, hi, None if wide is None else text.pos(wide.start, wide.end)


def _cards_outside(text: ExprText, tree, deck: int) -> list[Diagnostic]:
    """N411 for every card named in the expression that the deck does not have: it is never
    dealt, so `holder(2C)` is nobody (no seat to deal or lead) and `card == 2C` never holds."""
    from .ast import CardLit, walk

    out = []
    for node in walk(tree):
        if isinstance(node, CardLit) and not deck >> node.card & 1:
            name = card_str(node.card)
            out.append(
                Diagnostic(
                    text.path,
                    text.pos(node.start, node.end),
                    "N411",
                    L_("{name} is not in the deck in {field}: it is never dealt", name=name, field=text.field),
                    WARNING,
                    L_("a seat such as holder({name}) is nobody; name a card the deck has", name=name),
                )
            )
    return out


def compile_text(source: str, scope: Scope, expected: Optional[Type] = None, predicate: bool = False):
    """Compile an expression given as plain text; raise ``DiagnosticError`` on any finding."""
    compiled, diags = compile_expr(ExprText(source, "<expr>"), scope, expected, predicate)
    if diags:
        raise DiagnosticError(diags)
    return compiled


__all__ = [
    "BOOL",
    "CARD",
    "INT",
    "RANK",
    "SEAT",
    "SUIT",
    "CARD_SCOPE",
    "CardPredicate",
    "Compiled",
    "EvalError",
    "ExprError",
    "RuleRuntimeError",
    "ExprText",
    "Scope",
    "Type",
    "Var",
    "compile_expr",
    "compile_text",
]
