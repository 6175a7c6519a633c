"""Compiling validated contracts: expressions with file positions, references, cycles."""

from __future__ import annotations

import os
import re
from typing import Any, Optional

from ..diagnostics import ERROR, WARNING, Diagnostic, Diagnostics, Pos, did_you_mean
from ..expr import ExprText, compile_expr
from ..expr.types import Scope, Type
from ..i18n import L_
from ..spec.schema import ExprSource, Scalar
from ..spec.yamlsafe import node_path

#: A contract's keys that decide its declared and computed total: with an error in one of
#: them, its total cannot be checked.
TOTAL_KEYS = frozenset({"type", "score", "prizes", "total", "trump"})


class BuildContext:
    """Everything a deal type's ``build`` needs: positions, diagnostics, other contracts."""

    def __init__(
        self, path: str, diags: Diagnostics, specs: dict, nodes: dict, players: int, deck: int, invalid=frozenset()
    ):
        self.path = path
        self.diags = diags
        self.specs = specs
        self.nodes = nodes
        self.players = players
        self.deck = deck
        self.order: Optional[tuple] = None  # the deck's rank order (``rankorder``), set once the deck is read
        self.built: dict[str, Any] = {}
        self.invalid = invalid
        self._building: list[str] = []
        #: contracts with a schema error outside what decides their total, built with the bad
        #: values left out (their defaults), for the total checks only
        self.partial: dict[str, Any] = {}
        #: contracts with schema errors being built -> the paths reported invalid: only
        #: the findings the errors cannot have caused are kept (see ``_caused``)
        self._faulty: dict[str, frozenset] = {}
        #: the places of expressions that did not compile: what they mean is unknown, so no
        #: other finding is reported at or below them (their own error is the one message)
        self._meaningless: set[tuple] = set()

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

    def written(self, where: tuple) -> bool:
        """Whether the ruleset (or a base it extends) writes the key at ``where`` (a spec holds
        the default of a key left out, so only the file can tell)."""
        return where in self.nodes

    def pos(self, where: tuple) -> Optional[Pos]:
        return self.locate(where)[1]

    def error(self, where: tuple, code: str, message: str, hint: str = "") -> None:
        if not self._caused(where, code):
            self.diags.add(self._finding(where, code, message, hint, ERROR))

    def warning(self, where: tuple, code: str, message: str, hint: str = "", advise: bool = True) -> None:
        """A warning at ``where``; ``advise=False``: no advice to override an inherited value
        (the finding is not about the value)."""
        if not self._caused(where, code):
            self.diags.add(self._finding(where, code, message, hint, WARNING, advise))

    def _caused(self, where: tuple, code: str) -> bool:
        """Whether a finding at ``where`` may follow from an error already reported: it is at
        or below an expression that did not compile, or it is in a contract with schema errors
        and is a semantic finding (M: those weigh the contract as a whole, which lacks the bad
        values), or it is at or around a bad value.
        Expression and reference findings elsewhere in the contract stand on their own."""
        if any(where[: len(p)] == p for p in self._meaningless):
            return True
        bad = self._faulty.get(where[1]) if len(where) > 1 and where[0] == "contracts" else None
        if not bad:
            return False
        if code.startswith("M"):
            return True
        return any(where[: len(p)] == p or p[: len(where)] == where for p in bad)

    def _finding(
        self, where: tuple, code: str, message: str, hint: str, severity: str, advise: bool = True
    ) -> Diagnostic:
        """A finding at ``where``; one about a value the linted file inherits from its base is
        placed in the linted file (at the override that holds it, else at ``extends``), with a
        note naming where the base wrote it and a hint naming the key to override."""
        path, pos = self.locate(where)
        if os.path.abspath(path) == os.path.abspath(self.path):
            return Diagnostic(path, pos, code, message, severity, hint)
        here = self._override(where) or self._extends()
        if here is None:
            return Diagnostic(path, pos, code, message, severity, hint)
        at = f"{path}:{pos.line}:{pos.col}" if pos else path
        whole = next((i for i, part in enumerate(where) if isinstance(part, int)), len(where))
        key = self.label(where[:whole])
        what = L_("{key} (a list is replaced whole)", key=key) if whole < len(where) else key
        advice = L_("to change it for this ruleset, override {what} in this file", what=what) if key and advise else ""
        return Diagnostic(
            self.path,
            here,
            code,
            message,
            severity,
            L_("{hint}; {advice}", hint=hint, advice=advice) if hint and advice else hint or advice,
            note=L_("the value is inherited: {at}", at=at) if key else L_("from the base ruleset: {at}", at=at),
        )

    def _override(self, where: tuple) -> Optional[Pos]:
        """The innermost value around ``where`` written in the linted file (a contract or deeper)."""
        for k in range(len(where) - 1, 1, -1):
            node = self.nodes.get(where[:k])
            if node is not None and os.path.abspath(node_path(node, "")) == os.path.abspath(self.path):
                key = self.nodes.get(where[:k] + ("$key",))  # a mapping: point at its key
                if not isinstance(node, Scalar) and key is not None:
                    node = key
                return node.span() if isinstance(node, Scalar) else node.pos
        return None

    def _extends(self) -> Optional[Pos]:
        """The position of the linted file's ``extends`` key."""
        root = self.nodes.get(())
        src = getattr(root, "source", None)
        if src is None or os.path.abspath(src.path) != os.path.abspath(self.path):
            return None
        m = re.search(r"^extends[ \t]*:", src.text, re.M)
        if m is None:
            return None
        start = src.pos(m.start())
        return Pos(start.line, start.col, start.line, start.col + len("extends") - 1)

    @staticmethod
    def label(where: tuple) -> str:
        out = ""
        for part in where:
            if isinstance(part, str) and part.startswith("$"):  # a marker (the key's own node), not a key
                continue
            out += f"[{part}]" if isinstance(part, int) else (("." if out else "") + part)
        return out

    # -- expressions ------------------------------------------------------------------------
    def expr(
        self, src: Optional[ExprSource], scope: Scope, expected: Optional[Type], where: tuple, predicate: bool = False
    ):
        """Compile one expression field, reporting findings at their place in the file."""
        if src is None:
            return None
        locate = src.node.pos_at if src.node is not None else None
        path = node_path(src.node, self.path) if src.node is not None else self.path
        text = ExprText(src.text, self.label(where), path, locate, src.pos)
        compiled, diags = compile_expr(
            text, scope, expected, predicate=predicate, deck=self.deck, order=self.order, players=self.players
        )
        if not self._caused(where, "E"):
            self.diags.extend(diags)
        if compiled is None:
            self._meaningless.add(where)
        return compiled

    # -- references between contracts -------------------------------------------------------
    def _degraded(self, name: str, spec, bad: list):
        """Build a contract that has schema errors, its bad values left out (their defaults):
        it reports what the errors cannot have caused (``_caused``) and is used for its total
        only. None when a value it needed is missing."""
        from ..interpreter.catalogue import DEAL_TYPES

        self._faulty[name] = frozenset(bad)
        self._building.append(name)
        try:
            return DEAL_TYPES[spec.type].build(name, spec, self)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # a value it needed was left out
            return None
        finally:
            self._building.pop()
            del self._faulty[name]

    def contract(self, name: str, where: tuple):
        """The compiled contract ``name`` (built on first use); None after reporting a problem."""
        if name in self._building:  # before ``built``: a contract with schema errors is there while it is built
            chain = " -> ".join(self._building[self._building.index(name) :] + [name])
            self.error(where, "R502", L_("contracts include each other in a cycle: {chain}", chain=chain))
            return None
        if name in self.built:
            return self.built[name]
        spec = self.specs.get(name)
        if spec is None:
            if (
                not {("contracts", name), ("contracts",)} & self.invalid
            ):  # else it (or all) is there, and its error reported
                self.error(where, "R501", L_("no contract named {name!r}", name=name), did_you_mean(name, self.specs))
            return None
        from ..interpreter.catalogue import DEAL_TYPES

        bad = [p for p in self.invalid if p[:2] == ("contracts", name)]
        if bad:  # reported already: not playable, but its other findings and maybe its total are checked
            self.built[name] = None
            partial = self._degraded(name, spec, bad)
            if all(len(p) >= 3 and p[2] not in TOTAL_KEYS for p in bad):  # values left out: defaults
                self.partial[name] = partial
            return None
        self._building.append(name)
        try:
            result = DEAL_TYPES[spec.type].build(name, spec, self)
        finally:
            self._building.pop()
        self.built[name] = result
        return result
