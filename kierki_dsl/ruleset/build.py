"""Compiling validated contracts: expressions with file positions, references, cycles."""
from __future__ import annotations

from typing import Any, Optional

from ..diagnostics import Diagnostics, Pos, did_you_mean
from ..expr import ExprText, compile_expr
from ..expr.types import Scope, Type
from .schema import ExprSource, Scalar
from .yamlsafe import node_path


class BuildContext:
    """Everything a deal type's ``build`` needs: positions, diagnostics, other contracts."""

    def __init__(self, path: str, diags: Diagnostics, specs: dict, nodes: dict, players: int, deck: int, invalid=frozenset()):
        self.path = path
        self.diags = diags
        self.specs = specs
        self.nodes = nodes
        self.players = players
        self.deck = deck
        self.built: dict[str, Any] = {}
        self.invalid = invalid
        self._building: list[str] = []

    # -- positions and findings -------------------------------------------------------------
    def locate(self, where: tuple) -> tuple[str, Optional[Pos]]:
        """The file and position of the value at ``where`` (or of its nearest parent)."""
        while where:
            node = self.nodes.get(where)
            if node is not None:
                pos = node.span() if isinstance(node, Scalar) else node.pos
                return node_path(node, self.path), pos
            where = where[:-1]
        return self.path, None

    def pos(self, where: tuple) -> Optional[Pos]:
        return self.locate(where)[1]

    def error(self, where: tuple, code: str, message: str, hint: str = "") -> None:
        self.diags.error(*self.locate(where), code, message, hint)

    def warning(self, where: tuple, code: str, message: str, hint: str = "") -> None:
        self.diags.warning(*self.locate(where), code, message, hint)

    @staticmethod
    def label(where: tuple) -> str:
        out = ""
        for part in where:
            out += f"[{part}]" if isinstance(part, int) else (("." if out else "") + part)
        return out

    # -- expressions ------------------------------------------------------------------------
    def expr(self, src: Optional[ExprSource], scope: Scope, expected: Optional[Type], where: tuple, predicate: bool = False):
        """Compile one expression field, reporting findings at their place in the file."""
        if src is None:
            return None
        locate = src.node.pos_at if src.node is not None else None
        path = node_path(src.node, self.path) if src.node is not None else self.path
        text = ExprText(src.text, self.label(where), path, locate, src.pos)
        compiled, diags = compile_expr(text, scope, expected, predicate=predicate, deck=self.deck)
        self.diags.extend(diags)
        return compiled

    # -- references between contracts -------------------------------------------------------
    def contract(self, name: str, where: tuple):
        """The compiled contract ``name`` (built on first use); None after reporting a problem."""
        if name in self.built:
            return self.built[name]
        if name in self._building:
            chain = " -> ".join(self._building[self._building.index(name):] + [name])
            self.error(where, "R502", f"contracts include each other in a cycle: {chain}")
            return None
        spec = self.specs.get(name)
        if spec is None:
            self.error(where, "R501", f"no contract named {name!r}", did_you_mean(name, self.specs))
            return None
        from ..interpreter.catalogue import DEAL_TYPES

        if any(p[:2] == ("contracts", name) for p in self.invalid):  # reported already: building adds noise
            self.built[name] = None
            return None
        self._building.append(name)
        try:
            result = DEAL_TYPES[spec["type"]].build(name, spec, self)
        finally:
            self._building.pop()
        self.built[name] = result
        return result

