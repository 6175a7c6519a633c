"""Which expression scope the cursor is in, read from the keys above it, and the names that
scope offers: a trick-scoring ``when`` offers ``trick.*``, seat scoring ``seat`` and
``match.*``, a card predicate ``card.*`` — each only where the compiler gives it.

The key -> scope table says what the ruleset's compiler passes for each expression key
(``interpreter/scopes.py``); tests/test_lsp_scopes.py holds the table to the compiler's own
choice for every expression of every shipped ruleset.
"""

from __future__ import annotations

import re
from typing import Optional

from ..expr import CARD_SCOPE
from ..expr.builtins import FUNCTIONS
from ..expr.check import RANK_CONSTANTS, SUIT_CONSTANTS, provides
from ..expr.types import Scope, Var
from ..interpreter import scopes as s

#: expression key -> (scope, whether it is a card predicate: ``card`` readable too)
BY_KEY = {
    "first_lead": (s.SEAT_EXPR, False),
    "called_by": (s.SEAT_EXPR, False),
    "first": (s.SEAT_EXPR, False),
    "if_all_pass": (s.SEAT_EXPR, False),
    "seller": (s.SEAT_EXPR, False),
    "taken_by": (s.SEAT_EXPR, False),
    "first_turn": (s.SEAT_EXPR, False),
    "first_dealer": (s.SEAT_EXPR, False),
    "by": (s.SEAT_EXPR, False),
    "lead_ban": (s.PLAY_PREDICATE, True),
    "forbid": (s.PLAY_PREDICATE, True),
    "require": (s.PLAY_PREDICATE, True),
    "per_trick": (s.TRICK_POINTS, False),
    "per_card": (s.CARD_SCORING, True),
    "per_seat": (s.SEAT_END, False),
    "end_when": (s.END_WHEN, False),
    "until": (s.MATCH_END, False),
    "may_double": (s.DOUBLE_EXPR, False),
    "allow": (s.AUCTION_BID, False),
    "set_trump": (s.DECLARE, False),
    "again_after": (CARD_SCOPE, True),
    "cards": (s.CARD_SCORING, True),
}
#: (parent key, expression key) -> scope, where the key alone does not say
BY_PARENT = {
    ("restrictions", "when"): (s.PLAY_WHEN, False),
    ("score", "when"): (s.TRICK_POINTS, False),
    ("score", "points"): (s.TRICK_POINTS, False),
    ("declarations", "when"): (s.DECLARE, False),
    ("declarations", "points"): (s.DECLARE, False),
    ("decline", "score"): (s.SEAT_END, False),
}

_KEY_LINE = re.compile(r"^(\s*)(?:(-)\s+)?\{?\s*([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s|$)")
_KEY_IN_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s|$)")


def _key_of(line: str) -> Optional[tuple]:
    """(column that opens the line's node, the key's column, the key) of a ``key:`` line."""
    m = _KEY_LINE.match(line)
    if not m:
        return None
    return (len(m.group(1)), m.start(3), m.group(3))


def _parent(lines: list, below: int, column: int) -> Optional[tuple]:
    """The nearest key line above ``below`` whose key stands left of ``column``: (index, key,
    the column that opens its node)."""
    for k in range(below - 1, -1, -1):
        got = _key_of(lines[k])
        if got and got[1] < column:
            return k, got[2], got[0]
    return None


def _opens_flow(here: str, after: int) -> bool:
    """Whether the line's value, from column ``after`` (its key's end) to the cursor, opens a
    flow list or mapping whose keys the cursor is among."""
    rest = here[after:]
    return ("{" in rest or "[" in rest) and _KEY_IN_LINE.search(rest.split("{", 1)[-1].split("[", 1)[-1]) is not None


def key_path(text: str, line: int, col: int) -> tuple:
    """The keys from the top of the file to the key whose value the cursor is in."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return ()
    here = lines[line][:col]
    keys = _KEY_IN_LINE.findall(here)
    got = _key_of(lines[line])
    if got:
        start = got[0]
    else:  # a continuation line: the value of the key above it
        start = len(here) - len(here.lstrip())
        keys = []
    path = [keys[-1]] if keys else []
    if got and keys and _opens_flow(here, got[1] + len(got[2])):  # in a flow value of the key: `score: [{when: x}]`
        path.append(got[2])
    k = line
    while True:
        found = _parent(lines, k, start)
        if found is None:
            break
        k, key, start = found
        path.append(key)
    return tuple(reversed(path))


def scope_at(text: str, line: int, col: int) -> Optional[tuple]:
    """(scope, card predicate?) of the expression at the cursor, or None outside one."""
    path = key_path(text, line, col)
    if not path:
        return None
    if len(path) > 1 and (path[-2], path[-1]) in BY_PARENT:
        return BY_PARENT[(path[-2], path[-1])]
    return BY_KEY.get(path[-1])


def scope_names(scope: Scope, predicate: bool) -> dict:
    """Every name an expression of ``scope`` may read -> what it means: its variables (``trick.*``
    as dotted names), ``card.*`` in a card predicate, the functions whose inputs it provides,
    suits and ranks."""
    if predicate:
        scope = scope.extend(scope.name, **CARD_SCOPE.vars)
    out: dict = {}
    for name, v in scope.vars.items():
        if name.startswith("$"):
            continue
        if isinstance(v, Var):
            out[name] = v.doc
        elif isinstance(v, dict):
            out.update((f"{name}.{attr}", w.doc) for attr, w in v.items() if isinstance(w, Var))
    if "card" in out:
        out.update({"card.suit": "the card's suit", "card.rank": "the card's rank"})
    for name, fn in FUNCTIONS.items():
        if all(provides(scope, k) for k in fn.needs):
            out[name] = (fn.doc or "a function") + (f" (e.g. {fn.example})" if fn.example else "")
    out.update((name, "a suit") for name in SUIT_CONSTANTS)
    out.update((name, "a rank") for name in RANK_CONSTANTS)
    return out


__all__ = ["BY_KEY", "BY_PARENT", "key_path", "scope_at", "scope_names"]
