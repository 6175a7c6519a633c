"""The types of the expression language and the scopes that give names their types."""

from __future__ import annotations

from typing import Optional

from ..values import frozen


@frozen
class Type:
    name: str
    elem: Optional["Type"] = None

    def __str__(self) -> str:
        return f"list of {self.elem}" if self.name == "list" else self.name


INT = Type("int")
BOOL = Type("bool")
SUIT = Type("suit")
RANK = Type("rank")
CARD = Type("card")
SEAT = Type("seat")
STRING = Type("string")
PRED = Type("card predicate")  # a parameter type only: a bool expression over `card`
ANY = Type("any")  # the type of a node that already has an error (stops cascades)
NAMESPACE = Type("namespace")


def list_of(t: Type) -> Type:
    return Type("list", t)


@frozen
class Var:
    """A name in scope: its type, the env key it is read from, and what it means."""

    type: Type
    key: str
    doc: str = ""


#: For hints: name -> the kinds of expression that define it (filled by whoever defines scopes).
NAME_HOMES: dict[str, set] = {}


def register_scope(scope: "Scope") -> "Scope":
    """Record where each of the scope's names lives, so a misplaced name gets a useful hint."""
    for name in scope.vars:
        if not name.startswith("$"):
            NAME_HOMES.setdefault(name, set()).add(scope.name)
    return scope


@frozen
class Scope:
    """The names an expression may read, by context (card predicate, trick points, ...)."""

    name: str
    vars: dict  # name -> Var, or name -> dict of attribute -> Var for namespaces like `trick`

    def extend(self, name: str, **more) -> "Scope":
        merged = dict(self.vars)
        merged.update(more)
        return Scope(name, merged)
