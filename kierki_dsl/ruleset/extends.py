"""``extends``: a variant names the ruleset it modifies and overrides only what differs.

Merging works on the YAML trees, before validation, so every value keeps the file and the
position it came from: findings point into the variant where a value came from there, and
into the base elsewhere. Mappings merge key by key (recursively); any other value replaces
the base's; ``key: null`` in a variant removes the inherited key.
"""

from __future__ import annotations

import os
from typing import Callable

from ..diagnostics import QUOTE_LIMIT, Diagnostic, DiagnosticError, Diagnostics, quoted
from ..i18n import L_
from ..shipped import find_ruleset, not_found
from ..spec.yamlsafe import Map, Node, Scalar

MAX_CHAIN = 8


def resolve_extends(path: str, root: Node, diags: Diagnostics, chain: tuple, load_tree: Callable):
    """Return (merged tree, texts of the base files) for a tree that may name a base."""
    if not isinstance(root, Map) or "extends" not in root.entries:
        return root, []
    target = root.entries["extends"]
    here = Map(
        {k: v for k, v in root.entries.items() if k != "extends"},
        {k: v for k, v in root.keys.items() if k != "extends"},
        root.pos,
        root.source,
    )
    if not isinstance(target, Scalar) or not target.value.strip():
        raise DiagnosticError([Diagnostic(path, target.pos, "S202", L_("extends must be the path of a ruleset file"))])
    base_path = find_ruleset(target.value, os.path.dirname(path)) or os.path.normpath(
        os.path.join(os.path.dirname(path), target.value)
    )
    _check_readable(path, target, base_path)
    me = os.path.realpath(path)
    if me in chain or os.path.realpath(base_path) in chain + (me,):
        names = " -> ".join(os.path.basename(p) for p in chain + (me, os.path.realpath(base_path)))
        raise DiagnosticError(
            [Diagnostic(path, target.span(), "R505", L_("extends forms a cycle: {names}", names=names))]
        )
    if len(chain) >= MAX_CHAIN:
        raise DiagnosticError(
            [Diagnostic(path, target.span(), "R505", L_("extends chain is longer than {limit}", limit=MAX_CHAIN))]
        )
    try:
        _, base_root, texts = load_tree(base_path, diags, chain + (me,))
    except DiagnosticError as e:  # a base that cannot be read at all (/proc/self/mem): said at `extends`
        raise DiagnosticError([_at_extends(d, path, target, base_path) for d in e.diagnostics]) from None
    return merge(base_root, here), texts


def _check_readable(path: str, target: Scalar, base_path: str) -> None:
    """A base that is missing is R504; one that is no regular file (a folder, a FIFO, a device,
    a symlink loop, a path with a NUL) is Y116 — both located at the ``extends`` value."""
    from ..paths import read_problem

    problem = read_problem(base_path)
    if problem is None:
        return
    if problem == "no such file":
        raise DiagnosticError(
            [
                Diagnostic(
                    path,
                    target.span(),
                    "R504",
                    L_("extends: {value}", value=not_found(target.value[:QUOTE_LIMIT], os.path.dirname(path))),
                    hint=L_("a path is relative to this file; a bare name may be a shipped ruleset"),
                )
            ]
        )
    raise DiagnosticError(
        [
            Diagnostic(
                path,
                target.span(),
                "Y116",
                L_("extends: {path} {problem}", path=quoted(base_path), problem=problem)
                if problem.startswith("is ")
                else L_("extends: cannot read {path}: {problem}", path=quoted(base_path), problem=problem),
            )
        ]
    )


def _at_extends(d: Diagnostic, path: str, target: Scalar, base_path: str) -> Diagnostic:
    if d.pos is not None or d.path != base_path:
        return d
    return Diagnostic(
        path,
        target.span(),
        d.code,
        L_("extends {path}: {message}", path=quoted(base_path), message=d.message),
        hint=d.hint,
    )


def merge(base: Node, over: Node) -> Node:
    """``over`` on top of ``base``: mappings key by key, everything else replaced."""
    if not (isinstance(base, Map) and isinstance(over, Map)):
        return over
    entries = dict(base.entries)
    keys = dict(base.keys)
    for k, v in over.entries.items():
        if isinstance(v, Scalar) and v.plain and v.value in ("null", "~"):
            entries.pop(k, None)
            keys.pop(k, None)
            continue
        entries[k] = merge(entries[k], v) if k in entries else v
        keys[k] = over.keys[k]
    return Map(entries, keys, over.pos, over.source)
