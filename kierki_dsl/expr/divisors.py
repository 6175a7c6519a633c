"""N412: a ``/`` or ``%`` whose divisor can be 0 where it is evaluated (play would stop with X701).

The tree is walked as it is evaluated: the ``then`` of an ``if`` under what its condition
says, the ``else`` under its negation, the right of ``and`` under its left, the right of
``or`` under the left's negation. A condition comparing int values (``x > 0``, ``x >= 1``,
``0 < x``, ``x != 0``, ``not (x == 0)``, ``and`` of such) narrows the range of what it
compares wherever the same expression stands under it; a branch no value can reach is not
looked into. ``players`` is the ruleset's number of players. A divisor whose range
(``bounds.value_range``) holds 0 may be 0: a warning; one that is always 0 in a division
evaluated every time the expression is, an error (every evaluation fails).
"""

from __future__ import annotations

from typing import Optional

from ..diagnostics import ERROR, WARNING, Diagnostic
from ..i18n import L_
from . import ast
from .bounds import value_range
from .builtins import FUNCTIONS
from .check import Checked
from .types import INT, PRED

_COMPARE = {"<", "<=", ">", ">=", "==", "!="}
#: The comparison that holds when ``op`` does not.
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
#: ``a op b`` said of ``b``: ``b _MIRRORED[op] a``.
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_CARD = ("var", "card")
_PLAYERS = ("var", "players")
#: Divisors written bare in a hint's condition; any other is bracketed.
_BARE = (ast.Name, ast.Attribute, ast.Call, ast.IntLit)
#: The characters of compared parts one expression's conditions may narrow in all: past it they
#: narrow nothing more (sound, if less precise), so that nested `or` and `not`, which are
#: assumed both ways, cannot cost time exponential in their depth.
_BUDGET = 20_000


class _Known:
    """What holds where a part of the tree is evaluated: the ranges of expressions (by shape)
    and the expressions known not to be 0."""

    def __init__(self, ranges: dict, nonzero: frozenset = frozenset()) -> None:
        self.ranges = ranges
        self.nonzero = nonzero

    def cut(self, shape: tuple, lo: int, hi: int, nonzero: bool) -> "_Known":
        ranges = dict(self.ranges)
        ranges[shape] = (lo, hi)
        return _Known(ranges, self.nonzero | {shape} if nonzero else self.nonzero)

    def excludes_zero(self, shape: tuple) -> bool:
        lo, hi = self.ranges.get(shape, (0, 0))
        return shape in self.nonzero or lo > 0 or hi < 0

    def join(self, other: "_Known") -> "_Known":
        """What holds where this or ``other`` does."""
        ranges = {
            s: (min(r[0], other.ranges[s][0]), max(r[1], other.ranges[s][1]))
            for s, r in self.ranges.items()
            if s in other.ranges
        }
        both = set(self.ranges) | self.nonzero
        return _Known(ranges, frozenset(s for s in both if self.excludes_zero(s) and other.excludes_zero(s)))

    def without_card(self) -> "_Known":
        """What still holds inside a card predicate, where ``card`` is each card in turn."""
        return _Known(
            {s: r for s, r in self.ranges.items() if not _mentions(s, _CARD)},
            frozenset(s for s in self.nonzero if not _mentions(s, _CARD)),
        )


def _mentions(shape, part: tuple) -> bool:
    return shape == part or (isinstance(shape, tuple) and any(_mentions(s, part) for s in shape))


def zero_divisors(text: ast.ExprText, tree: ast.Node, info: Checked, players: Optional[int]) -> list[Diagnostic]:
    """N412 for every division or remainder of ``tree`` whose divisor can be 0 (``players``:
    the ruleset's number of players, None when not fixed)."""
    walk = _Divisions(text, info)
    start = _Known({_PLAYERS: (players, players)} if players else {})
    walk.visit(tree, start, True)
    return walk.found


class _Divisions:
    """One walk over a checked tree, collecting the findings."""

    def __init__(self, text: ast.ExprText, info: Checked) -> None:
        self.text = text
        self.info = info
        self.shapes: dict = {}
        self.spent = 0  # of _BUDGET
        self.found: list[Diagnostic] = []

    def shape(self, n: ast.Node) -> tuple:
        """What ``n`` computes, whatever its place: equal shapes give equal values in one evaluation."""
        got = self.shapes.get(id(n))
        if got is None:
            nid = id(n)
            if nid in self.info.consts:
                got = ("const", self.info.consts[nid])
            elif nid in self.info.vars:
                got = ("var", self.info.vars[nid].key)
            else:
                own = tuple(getattr(n, f, None) for f in ("op", "func", "name", "value", "card"))
                got = (type(n).__name__, own, tuple(self.shape(c) for c in ast.children(n)))
            self.shapes[nid] = got
        return got

    def range(self, n: ast.Node, known: _Known) -> tuple:
        return value_range(n, self.info, lambda part: known.ranges.get(self.shape(part)))

    # -- the walk, in the order of evaluation ------------------------------------------------
    def visit(self, n: ast.Node, known: _Known, always: bool) -> None:
        """Check ``n`` where ``known`` holds; ``always``: ``n`` is evaluated whenever the whole is."""
        if isinstance(n, ast.IfExpr):
            self.visit(n.cond, known, always)
            self.under(n.cond, True, n.then, known)
            self.under(n.cond, False, n.other, known)
            return
        if isinstance(n, ast.BinOp) and n.op in ("and", "or"):
            self.visit(n.left, known, always)
            self.under(n.left, n.op == "and", n.right, known)
            return
        if isinstance(n, ast.Call) and n.func in FUNCTIONS:
            for arg, param in zip(n.args, FUNCTIONS[n.func].params):
                if param == PRED:
                    self.visit(arg, known.without_card(), False)
                else:
                    self.visit(arg, known, always)
            return
        for child in ast.children(n):
            self.visit(child, known, always)
        if isinstance(n, ast.BinOp) and n.op in ("/", "%"):
            self.divisor(n, known, always)

    def under(self, cond: ast.Node, holds: bool, n: ast.Node, known: _Known) -> None:
        """Check ``n``, evaluated only when ``cond`` is ``holds``."""
        inside = self.assume(cond, holds, known)
        if inside is not None:  # else no value reaches n
            self.visit(n, inside, False)

    def divisor(self, n: ast.BinOp, known: _Known, always: bool) -> None:
        """N412 at ``n``'s operator and divisor when the divisor can be 0 where ``known`` holds."""
        lo, hi = self.range(n.right, known)
        if lo > hi or lo > 0 or hi < 0 or self.shape(n.right) in known.nonzero:
            return
        text, field = self.text.text, self.text.field
        by = text[n.op_start + 1 : n.end].strip()  # as written, brackets and all
        if lo == hi == 0:
            message = L_(
                "the divisor `{by}` is always 0 in {field}: working it out stops the deal with X701", by=by, field=field
            )
            hint = L_("divide by something that can be other than 0")
        else:
            message = L_(
                "the divisor `{by}` may be 0 in {field}: the deal would stop with X701 (division by zero)",
                by=by,
                field=field,
            )
            bare = isinstance(n.right, _BARE) or by != text[n.right.start : n.right.end]
            guard = f"if {by if bare else f'({by})'} {'>' if lo >= 0 else '!='} 0 then {text[n.start : n.end]} else 0"
            hint = L_("guard it: `{guard}`", guard=guard)
        severity = ERROR if lo == hi == 0 and always else WARNING
        self.found.append(Diagnostic(self.text.path, self.text.pos(n.op_start, n.end), "N412", message, severity, hint))

    # -- what a condition says ---------------------------------------------------------------
    def assume(self, cond: ast.Node, holds: bool, known: _Known) -> Optional[_Known]:
        """What holds where ``cond`` is ``holds``; None when it never is."""
        if self.spent > _BUDGET:
            return known
        if isinstance(cond, ast.UnOp) and cond.op == "not":
            return self.assume(cond.operand, not holds, known)
        if isinstance(cond, ast.BoolLit):
            return known if cond.value == holds else None
        if not isinstance(cond, ast.BinOp):
            return known
        if cond.op in ("and", "or"):
            return self.assume_both(cond, holds, known)
        if cond.op not in _COMPARE or INT != self.info.type_of(cond.left) or INT != self.info.type_of(cond.right):
            return known
        op = cond.op if holds else _NEGATED[cond.op]
        first = self.narrow(cond.left, op, cond.right, known)
        return None if first is None else self.narrow(cond.right, _MIRRORED[op], cond.left, first)

    def assume_both(self, cond: ast.BinOp, holds: bool, known: _Known) -> Optional[_Known]:
        """What holds where ``cond``, an ``and`` or an ``or``, is ``holds``."""
        first = self.assume(cond.left, holds, known)
        if (cond.op == "and") == holds:  # both parts are `holds`
            return None if first is None else self.assume(cond.right, holds, first)
        other = self.assume(cond.left, not holds, known)  # else the left is not, and the right is
        second = None if other is None else self.assume(cond.right, holds, other)
        if first is None or second is None:
            return first or second
        return first.join(second)

    def narrow(self, n: ast.Node, op: str, other: ast.Node, known: _Known) -> Optional[_Known]:
        """``known`` and ``n op other``; None when no value of ``n`` can satisfy it."""
        self.spent += n.end - n.start + other.end - other.start
        (lo, hi), (c, d) = self.range(n, known), self.range(other, known)
        nonzero = False
        if op in (">", ">="):
            lo = max(lo, c + (op == ">"))
        elif op in ("<", "<="):
            hi = min(hi, d - (op == "<"))
        elif op == "==":
            lo, hi = max(lo, c), min(hi, d)
        elif c == d:  # != one value: off the ends of the range
            lo, hi = lo + (lo == c), hi - (hi == c)
            nonzero = c == 0
        if lo > hi:
            return None
        return known.cut(self.shape(n), lo, hi, nonzero)


__all__ = ["zero_divisors"]
