"""Name resolution and type checking: collects every error of an expression in one pass.

The result, ``Checked``, records each node's type and what each name means (a constant or
an env key); the compiler reads it and never re-checks anything.
"""

from __future__ import annotations

from typing import Optional

import attrs

from ..diagnostics import did_you_mean
from ..values import define
from . import ast
from .builtins import FUNCTIONS
from .errors import ExprError, card_hint
from .types import ANY, BOOL, CARD, INT, NAME_HOMES, PRED, RANK, SEAT, STRING, SUIT, Scope, Type, Var, list_of

SUIT_CONSTANTS = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}
RANK_CONSTANTS = {"T": 8, "J": 9, "Q": 10, "K": 11, "A": 12, "ten": 8, "jack": 9, "queen": 10, "king": 11, "ace": 12}
CARD_ATTRS = {"suit": SUIT, "rank": RANK}
ORDERED = (INT, RANK)


@define
class Checked:
    """What the checker learnt: node types, name meanings, rank coercions, predicate scopes."""

    types: dict = attrs.Factory(dict)  # id(node) -> Type
    consts: dict = attrs.Factory(dict)  # id(node) -> constant value (names of suits/ranks)
    vars: dict = attrs.Factory(dict)  # id(node) -> Var (names and namespace attributes)
    errors: list = attrs.Factory(list)

    def type_of(self, node: ast.Node) -> Type:
        return self.types.get(id(node), ANY)


class Checker:
    def __init__(self, scope: Scope, card_scope: Scope) -> None:
        self.scope = scope
        self.card_scope = card_scope
        self.out = Checked()

    def error(self, node_or_offset, code: str, message: str, hint: str = "") -> Type:
        if isinstance(node_or_offset, ast.Node):
            off, end = node_or_offset.start, node_or_offset.end
        else:
            off, end = node_or_offset, None
        self.out.errors.append(ExprError(off, code, message, hint, end))
        return ANY

    def check(self, node: ast.Node, scope: Scope) -> Type:
        t = self._check(node, scope)
        self.out.types[id(node)] = t
        return t

    # -- one method per node class ------------------------------------------------------
    def _check(self, node: ast.Node, scope: Scope) -> Type:
        meth = getattr(self, "_" + type(node).__name__)
        return meth(node, scope)

    def _IntLit(self, node, scope):
        return INT

    def _BoolLit(self, node, scope):
        return BOOL

    def _CardLit(self, node, scope):
        return CARD

    def _StringLit(self, node, scope):
        return STRING

    def _Name(self, node: ast.Name, scope: Scope) -> Type:
        name = node.id
        if name.startswith("_"):
            return self.error(node, "N406", f"names starting with '_' are not allowed ({name!r})")
        if name in scope.vars:
            v = scope.vars[name]
            if isinstance(v, dict):  # a group of names used as a value (attributes are read in _Attribute)
                return self.error(
                    node,
                    "N404",
                    f"{name!r} is a group of names, not a value",
                    "use one of them: " + ", ".join(f"{name}.{a}" for a in sorted(v)),
                )
            self.out.vars[id(node)] = v
            return v.type
        if name in SUIT_CONSTANTS:
            self.out.consts[id(node)] = SUIT_CONSTANTS[name]
            return SUIT
        if name in RANK_CONSTANTS:
            self.out.consts[id(node)] = RANK_CONSTANTS[name]
            return RANK
        visible = sorted(k for k in scope.vars if not k.startswith("$"))
        known = visible + list(SUIT_CONSTANTS) + ["ace", "king", "queen", "jack"]
        if name in NAME_HOMES:
            homes = ", ".join(sorted(NAME_HOMES[name]))
            return self.error(
                node, "N401", f"unknown name {name!r} in {scope.name}", f"{name!r} is defined in: {homes}"
            )
        hint = card_hint(name) or did_you_mean(name, known)
        if not hint and visible:
            hint = "names here: " + ", ".join(visible)
        return self.error(node, "N401", f"unknown name {name!r} in {scope.name}", hint)

    def _Attribute(self, node: ast.Attribute, scope: Scope) -> Type:
        if node.name.startswith("_"):
            return self.error(node.name_start, "N406", f"names starting with '_' are not allowed ({node.name!r})")
        if isinstance(node.obj, ast.Name) and isinstance(scope.vars.get(node.obj.id), dict):
            members = scope.vars[node.obj.id]
            if node.name in members:
                v = members[node.name]
                self.out.vars[id(node)] = v
                return v.type
            return self.error(
                node.name_start,
                "N402",
                f"{node.obj.id!r} has no attribute {node.name!r}",
                did_you_mean(node.name, members) or "attributes: " + ", ".join(sorted(members)),
            )
        t = self.check(node.obj, scope)
        if t == ANY:
            return ANY
        if t == CARD and node.name in CARD_ATTRS:
            return CARD_ATTRS[node.name]
        if t == CARD:
            return self.error(
                node.name_start,
                "N402",
                f"a card has no attribute {node.name!r}",
                did_you_mean(node.name, CARD_ATTRS) or "attributes: suit, rank",
            )
        return self.error(node.name_start, "N402", f"a {t} has no attribute {node.name!r}")

    def _Call(self, node: ast.Call, scope: Scope) -> Type:
        if node.func.startswith("_"):
            return self.error(node, "N406", f"names starting with '_' are not allowed ({node.func!r})")
        fn = FUNCTIONS.get(node.func)
        if fn is None:  # its arguments' meaning is unknown too: no cascade of findings
            return self.error(node, "N403", f"unknown function {node.func!r}", did_you_mean(node.func, FUNCTIONS))
        missing = [k for k in fn.needs if not provides(scope, k)]
        if missing:
            return self.error(node, "N407", f"function {fn.name!r} is not available in {scope.name}")
        if len(node.args) != len(fn.params):
            return self.error(
                node,
                "N405",
                f"{fn.name}() takes {len(fn.params)} argument(s), got {len(node.args)}",
                f"example: {fn.example}" if fn.example else "",
            )
        for a, p in zip(node.args, fn.params):
            if p == PRED:
                t = self.check(a, _card_scope(scope, self.card_scope))
                want = BOOL
            else:
                t = self.check(a, scope)
                want = p
            if t != ANY and t != want:
                self.error(
                    a,
                    "N404",
                    f"argument of {fn.name}() must be {want if p != PRED else 'a card predicate (bool)'}, got {t}",
                )
        return fn.result

    def _ListLit(self, node: ast.ListLit, scope: Scope) -> Type:
        if not node.items:
            return self.error(node, "N404", "empty list")
        types = [self.check(i, scope) for i in node.items]
        known = [t for t in types if t != ANY]
        if not known:
            return ANY
        elem = RANK if RANK in known else known[0]
        for item, t in zip(node.items, types):
            if t == ANY or t == elem:
                continue
            if elem == RANK and t == INT and self._rank_literal(item):
                continue
            self.error(item, "N404", f"list mixes {elem} and {t}")
        return list_of(elem)

    def _rank_literal(self, node: ast.Node) -> bool:
        """An int literal 2..10 used where a rank is meant: record the coercion."""
        if isinstance(node, ast.IntLit) and 2 <= node.value <= 10:
            self.out.consts[id(node)] = node.value - 2
            self.out.types[id(node)] = RANK
            return True
        return False

    def _UnOp(self, node: ast.UnOp, scope: Scope) -> Type:
        t = self.check(node.operand, scope)
        want = BOOL if node.op == "not" else INT
        if t != ANY and t != want:
            return self.error(node.op_start, "N404", f"operator {node.op!r} cannot be applied to a {t}")
        return want

    def _BinOp(self, node: ast.BinOp, scope: Scope) -> Type:
        lt = self.check(node.left, scope)
        rt = self.check(node.right, scope)
        op = node.op
        if op in ("and", "or"):
            for _side, t in ((node.left, lt), (node.right, rt)):
                if t not in (ANY, BOOL):
                    self.error(node.op_start, "N404", f"operator {op!r} needs bool operands, got {t}")
            return BOOL
        if op in ("+", "-", "*", "/", "%"):
            for t in (lt, rt):
                if t not in (ANY, INT):
                    art = "an" if str(t)[0] in "aeiou" else "a"
                    hint = (
                        "a seat is not a number: left(seat) and right(seat) are the next and the previous seat"
                        if t == SEAT
                        else ""
                    )
                    return self.error(node.op_start, "N404", f"operator {op!r} cannot be applied to {art} {t}", hint)
            return INT
        if ANY in (lt, rt):
            return BOOL
        if op in ("in", "not in"):
            if rt.name != "list":
                return self.error(node.op_start, "N404", f"right side of {op!r} must be a list, got {rt}")
            elem = rt.elem
            if lt == INT and elem == RANK and self._rank_literal(node.left):
                return BOOL
            if lt != elem:
                return self.error(node.op_start, "N404", f"cannot look for {_article(lt)} in a {rt}")
            return BOOL
        # comparisons
        if lt != rt:
            if lt == RANK and rt == INT and self._rank_literal(node.right):
                rt = RANK
            elif rt == RANK and lt == INT and self._rank_literal(node.left):
                lt = RANK
            else:
                return self.error(
                    node.op_start,
                    "N404",
                    f"cannot compare {_article(lt)} with {_article(rt)}",
                    _unquote_hint(node, lt, rt),
                )
        if op not in ("==", "!=") and lt not in ORDERED:
            return self.error(
                node.op_start, "N404", f"{lt} values cannot be ordered with {op!r}", _order_hint(node, lt, op)
            )
        return BOOL

    def _IfExpr(self, node: ast.IfExpr, scope: Scope) -> Type:
        ct = self.check(node.cond, scope)
        if ct not in (ANY, BOOL):
            self.error(node.cond, "N404", f"condition of 'if' must be bool, got {ct}")
        a = self.check(node.then, scope)
        b = self.check(node.other, scope)
        if ANY in (a, b):
            return a if b == ANY else b
        if a != b:
            return self.error(node.other, "N404", f"'then' gives a {a} but 'else' gives a {b}")
        return a


def provides(scope: Scope, key: str) -> bool:
    """Whether ``scope`` gives a function the env value ``key`` it needs (a name or a hidden input)."""
    for v in scope.vars.values():
        if isinstance(v, Var) and v.key == key:
            return True
        if isinstance(v, dict) and any(m.key == key for m in v.values()):
            return True
    return False


def _card_scope(scope: Scope, card_scope: Scope) -> Scope:
    merged = dict(scope.vars)
    merged.update(card_scope.vars)
    return Scope(f"a card predicate in {scope.name}", merged)


def check(node: ast.Node, scope: Scope, card_scope: Scope, expected: Optional[Type]) -> Checked:
    """Type-check ``node`` in ``scope``; ``expected`` is the type the field needs."""
    c = Checker(scope, card_scope)
    t = c.check(node, scope)
    if expected is not None and t != ANY and t != expected:
        if not (expected == RANK and t == INT and c._rank_literal(node)):
            hint = (
                (
                    "this field gives points (a number): a condition goes beside it in 'when', or inside it as "
                    "'if ... then ... else 0'"
                )
                if expected == INT and t == BOOL
                else ""
            )
            c.error(node, "N404", f"expected {_article(expected)} here, got {_article(t)}", hint)
    return c.out


def _article(t: Type) -> str:
    s = str(t)
    return ("an " if s[0] in "aeiou" else "a ") + s


__all__ = ["check", "Checked", "SUIT_CONSTANTS", "RANK_CONSTANTS", "provides"]


def _unquote_hint(node: ast.BinOp, lt: Type, rt: Type) -> str:
    """For a suit, rank or card compared with a quoted string: write it without the quotes."""
    for lit, other in ((node.right, lt), (node.left, rt)):
        if isinstance(lit, ast.StringLit) and other in (SUIT, RANK, CARD):
            return f"a {other} is written without quotes: {lit.value}"
    return ""


def _order_hint(node, t: Type, op: str) -> str:
    """What to write instead of ordering cards or suits (``card > winning``)."""
    if t == CARD:
        left, right = (_name_of(node.left) or "a", _name_of(node.right) or "b")
        return (
            f"cards are not ordered (which card wins depends on the suit led and trumps); compare their ranks: "
            f"{left}.rank {op} {right}.rank, and their suits with == or !="
        )
    if t == SUIT:
        return "suits have no order: compare them with == or != (card.suit == trump)"
    return ""


def _name_of(node):
    """The name a node reads, if it is a plain name (for hints)."""
    return node.id if isinstance(node, ast.Name) else None
