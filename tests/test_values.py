"""The project's attrs declarations print exactly as attrs' own generated ``__repr__`` does."""
from __future__ import annotations

import attrs

from kierki_dsl.values import define, frozen


def _pair(decorator):
    @decorator
    class Base:
        x: int
        hidden: str = attrs.field(default="", repr=False)
        items: list = attrs.field(factory=list, repr=lambda v: f"<{len(v)} items>")

    @decorator
    class Child(Base):
        y: object = None

    return Base, Child


def test_repr_matches_attrs():
    for ours, theirs in ((frozen, attrs.frozen), (define, attrs.define)):
        mine, reference = _pair(ours), _pair(theirs)
        for m, r in zip(mine, reference):
            args = (1, "secret", [1, 2]) if m.__name__ == "Base" else (1, "secret", [1, 2], "why")
            assert repr(m(*args)) == repr(r(*args))


def test_options_pass_through():
    @frozen(eq=False)
    class Node:
        a: int

    n = Node(1)
    assert n != Node(1) and n == n  # identity equality, as asked
    try:
        n.a = 2
    except attrs.exceptions.FrozenInstanceError:
        pass
    else:  # pragma: no cover
        raise AssertionError("frozen class was mutable")


def test_own_repr_is_kept():
    @define
    class Named:
        a: int

        def __repr__(self) -> str:
            return "named"

    assert repr(Named(1)) == "named"
