"""The typed-to-be AST of the expression language; every node knows its span in the text.

Class names match the grammar's rule names (``kierki_dsl/grammar/expr.lark``). ``start`` and
``end`` are character offsets into the expression text; ``ExprText.pos`` turns them into
file positions.
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs

from ..diagnostics import Pos
from ..values import frozen


@frozen(eq=False)
class ExprText:
    """An expression as written: its text, where it came from, and how to locate a character."""

    text: str
    field: str  # e.g. "contracts.bez_kierow.score[0].cards"
    path: str = "<expr>"
    locate: Optional[Callable[[int], Pos]] = attrs.field(default=None, eq=False)
    anchor: Optional[Pos] = None  # where the field's value starts (quotes included)

    def pos(self, offset: int, end: Optional[int] = None) -> Pos:
        if self.locate is None:
            p = Pos(1, offset + 1)
            return Pos(1, offset + 1, 1, end) if end and end > offset + 1 else p
        p = self.locate(offset)
        if end is not None and end > offset + 1:
            q = self.locate(end - 1)
            return Pos(p.line, p.col, q.line, q.col)
        return p


@frozen(eq=False)
class Node:
    start: int
    end: int


@frozen(eq=False)
class IntLit(Node):
    value: int


@frozen(eq=False)
class BoolLit(Node):
    value: bool


@frozen(eq=False)
class CardLit(Node):
    card: int


@frozen(eq=False)
class StringLit(Node):
    value: str


@frozen(eq=False)
class Name(Node):
    id: str


@frozen(eq=False)
class Attribute(Node):
    obj: Node
    name: str
    name_start: int


@frozen(eq=False)
class Call(Node):
    func: str
    args: tuple


@frozen(eq=False)
class ListLit(Node):
    items: tuple


@frozen(eq=False)
class UnOp(Node):
    op: str
    operand: Node
    op_start: int


@frozen(eq=False)
class BinOp(Node):
    op: str
    left: Node
    right: Node
    op_start: int


@frozen(eq=False)
class IfExpr(Node):
    cond: Node
    then: Node
    other: Node


def children(node: Node) -> tuple:
    """The nodes directly inside ``node``, in the order they are written."""
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, UnOp):
        return (node.operand,)
    if isinstance(node, Attribute):
        return (node.obj,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, IfExpr):
        return (node.cond, node.then, node.other)
    return ()


def walk(node: Node):
    """Every node of a tree, parents first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))
