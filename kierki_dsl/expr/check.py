"""Name resolution and type checking: collects every error of an expression in one pass.

The result, ``Checked``, records each node's type and what each name means (a constant or
an env key); the compiler reads it and never re-checks anything.
"""

from __future__ import annotations

from typing import Optional

import attrs

from ..diagnostics import did_you_mean
from ..i18n import L_, L_join
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
            return self.error(node, "N406", L_("names starting with '_' are not allowed ({name!r})", name=name))
        if name in scope.vars:
            v = scope.vars[name]
            if isinstance(v, dict):  # a group of names used as a value (attributes are read in _Attribute)
                return self.error(
                    node,
                    "N404",
                    L_("{name!r} is a group of names, not a value", name=name),
                    L_("use one of them: {names}", names=", ".join(f"{name}.{a}" for a in sorted(v))),
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
            homes = L_join(", ", sorted(NAME_HOMES[name]))
            return self.error(
                node,
                "N401",
                L_("unknown name {name!r} in {scope}", name=name, scope=scope.name),
                L_("{name!r} is defined in: {homes}", name=name, homes=homes),
            )
        hint = card_hint(name) or did_you_mean(name, known)
        if not hint and visible:
            hint = L_("names here: {names}", names=", ".join(visible))
        return self.error(node, "N401", L_("unknown name {name!r} in {scope}", name=name, scope=scope.name), hint)

    def _Attribute(self, node: ast.Attribute, scope: Scope) -> Type:
        if node.name.startswith("_"):
            return self.error(
                node.name_start, "N406", L_("names starting with '_' are not allowed ({name!r})", name=node.name)
            )
        if isinstance(node.obj, ast.Name) and isinstance(scope.vars.get(node.obj.id), dict):
            members = scope.vars[node.obj.id]
            if node.name in members:
                v = members[node.name]
                self.out.vars[id(node)] = v
                return v.type
            return self.error(
                node.name_start,
                "N402",
                L_("{id!r} has no attribute {name!r}", id=node.obj.id, name=node.name),
                did_you_mean(node.name, members) or L_("attributes: {names}", names=", ".join(sorted(members))),
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
                L_("a card has no attribute {name!r}", name=node.name),
                did_you_mean(node.name, CARD_ATTRS) or L_("attributes: {names}", names="suit, rank"),
            )
        return self.error(node.name_start, "N402", L_("a {t} has no attribute {name!r}", t=t, name=node.name))

    def _Call(self, node: ast.Call, scope: Scope) -> Type:
        if node.func.startswith("_"):
            return self.error(node, "N406", L_("names starting with '_' are not allowed ({func!r})", func=node.func))
        fn = FUNCTIONS.get(node.func)
        if fn is None:  # its arguments' meaning is unknown too: no cascade of findings
            return self.error(
                node, "N403", L_("unknown function {func!r}", func=node.func), did_you_mean(node.func, FUNCTIONS)
            )
        missing = [k for k in fn.needs if not provides(scope, k)]
        if missing:
            return self.error(
                node, "N407", L_("function {fn!r} is not available in {scope}", fn=fn.name, scope=scope.name)
            )
        if len(node.args) != len(fn.params):
            return self.error(
                node,
                "N405",
                L_(
                    "{fn}() takes {n_params} argument(s), got {n_args}",
                    fn=fn.name,
                    n_params=len(fn.params),
                    n_args=len(node.args),
                ),
                L_("example: {example}", example=fn.example) if fn.example else "",
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
                    L_(
                        "argument of {fn}() must be {want}, got {t}",
                        fn=fn.name,
                        want=want if p != PRED else L_("a card predicate (bool)"),
                        t=t,
                    ),
                )
        return fn.result

    def _ListLit(self, node: ast.ListLit, scope: Scope) -> Type:
        if not node.items:
            return self.error(node, "N404", L_("empty list"))
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
            self.error(item, "N404", L_("list mixes {elem} and {t}", elem=elem, t=t))
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
            return self.error(node.op_start, "N404", L_("operator {op!r} cannot be applied to a {t}", op=node.op, t=t))
        return want

    def _BinOp(self, node: ast.BinOp, scope: Scope) -> Type:
        lt = self.check(node.left, scope)
        rt = self.check(node.right, scope)
        op = node.op
        if op in ("and", "or"):
            for _side, t in ((node.left, lt), (node.right, rt)):
                if t not in (ANY, BOOL):
                    self.error(node.op_start, "N404", L_("operator {op!r} needs bool operands, got {t}", op=op, t=t))
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
                    return self.error(
                        node.op_start,
                        "N404",
                        L_("operator {op!r} cannot be applied to {art} {t}", op=op, art=art, t=t),
                        hint,
                    )
            return INT
        if ANY in (lt, rt):
            return BOOL
        if op in ("in", "not in"):
            if rt.name != "list":
                return self.error(
                    node.op_start, "N404", L_("right side of {op!r} must be a list, got {rt}", op=op, rt=rt)
                )
            elem = rt.elem
            if lt == INT and elem == RANK and self._rank_literal(node.left):
                return BOOL
            if lt != elem:
                return self.error(node.op_start, "N404", L_("cannot look for {lt} in a {rt}", lt=_article(lt), rt=rt))
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
                    L_("cannot compare {lt} with {rt}", lt=_article(lt), rt=_article(rt)),
                    _unquote_hint(node, lt, rt),
                )
        if op not in ("==", "!=") and lt not in ORDERED:
            return self.error(
                node.op_start,
                "N404",
                L_("{lt} values cannot be ordered with {op!r}", lt=lt, op=op),
                _order_hint(node, lt, op),
            )
        return BOOL

    def _IfExpr(self, node: ast.IfExpr, scope: Scope) -> Type:
        ct = self.check(node.cond, scope)
        if ct not in (ANY, BOOL):
            self.error(node.cond, "N404", L_("condition of 'if' must be bool, got {ct}", ct=ct))
        a = self.check(node.then, scope)
        b = self.check(node.other, scope)
        if ANY in (a, b):
            return a if b == ANY else b
        if a != b:
            return self.error(node.other, "N404", L_("'then' gives a {a} but 'else' gives a {b}", a=a, b=b))
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
    return Scope(L_("a card predicate in {scope}", scope=scope.name), merged)


def check(node: ast.Node, scope: Scope, card_scope: Scope, expected: Optional[Type]) -> Checked:
    """Type-check ``node`` in ``scope``; ``expected`` is the type the field needs."""
    c = Checker(scope, card_scope)
    t = c.check(node, scope)
    if expected is not None and t != ANY and t != expected:
        if not (expected == RANK and t == INT and c._rank_literal(node)):
            hint = (
                L_(
                    "this field gives points (a number): a condition goes beside it in 'when', or inside it as "
                    "'if ... then ... else 0'"
                )
                if expected == INT and t == BOOL
                else ""
            )
            c.error(
                node, "N404", L_("expected {expected} here, got {t}", expected=_article(expected), t=_article(t)), hint
            )
    return c.out


def _article(t: Type) -> str:
    s = str(t)
    return L_("an {type}", type=s) if s[0] in "aeiou" else L_("a {type}", type=s)


__all__ = ["check", "Checked", "SUIT_CONSTANTS", "RANK_CONSTANTS", "provides"]


def _unquote_hint(node: ast.BinOp, lt: Type, rt: Type) -> str:
    """For a suit, rank or card compared with a quoted string: write it without the quotes."""
    for lit, other in ((node.right, lt), (node.left, rt)):
        if isinstance(lit, ast.StringLit) and other in (SUIT, RANK, CARD):
            return L_("a {type} is written without quotes: {value}", type=other, value=lit.value)
    return ""


def _order_hint(node, t: Type, op: str) -> str:
    """What to write instead of ordering cards or suits (``card > winning``)."""
    if t == CARD:
        left, right = (_name_of(node.left) or "a", _name_of(node.right) or "b")
        return L_(
            "cards are not ordered (which card wins depends on the suit led and trumps); compare their ranks: "
            "{left}.rank {op} {right}.rank, and their suits with == or !=",
            left=left,
            op=op,
            right=right,
        )
    if t == SUIT:
        return L_("suits have no order: compare them with == or != (card.suit == trump)")
    return ""


def _name_of(node):
    """The name a node reads, if it is a plain name (for hints)."""
    return node.id if isinstance(node, ast.Name) else None
