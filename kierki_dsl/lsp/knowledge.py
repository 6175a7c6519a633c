"""What the language server knows about the ruleset format, from the format itself: each
key's doc (the schema), each expression name's meaning (the scopes), functions, cards, suits."""

from __future__ import annotations

import functools

from ..cards import RANKS, SUIT_NAMES, SUITS


@functools.lru_cache(maxsize=1)
def key_docs() -> dict:
    """Every key of the format -> its doc (the first one found walking the schema)."""
    from ..ruleset.format import ruleset_schema
    from ..spec.schema import List, MapOf, Obj, OneOf, Tagged

    docs: dict = {}
    seen: set = set()

    def walk(kind) -> None:
        if id(kind) in seen:
            return
        seen.add(id(kind))
        if isinstance(kind, Obj):
            for key, f in kind.fields.items():
                docs.setdefault(key, f.doc)
                walk(f.kind)
        for inner in ("item", "value", "scalar", "seq", "mapping"):
            if isinstance(kind, (List, MapOf, OneOf)) and hasattr(kind, inner):
                walk(getattr(kind, inner))
        if isinstance(kind, Tagged):
            docs.setdefault(kind.key, kind.doc)
            for variant in kind.variants.values():
                walk(variant)

    walk(ruleset_schema())
    return docs


@functools.lru_cache(maxsize=1)
def name_docs() -> dict:
    """Every name an expression may read (``trick.is_last``, ``dealer``), functions and
    constants -> what it means."""
    from ..expr.builtins import FUNCTIONS
    from ..expr.check import RANK_CONSTANTS, SUIT_CONSTANTS
    from ..expr.types import Var
    from ..interpreter import scopes

    docs: dict = {}
    for value in vars(scopes).values():
        names = getattr(value, "vars", value if isinstance(value, dict) else None)
        if not isinstance(names, dict):
            continue
        for name, v in names.items():
            if isinstance(v, Var) and not name.startswith("$"):
                docs.setdefault(name, v.doc)
            elif isinstance(v, dict):
                for attr, w in v.items():
                    if isinstance(w, Var):
                        docs.setdefault(f"{name}.{attr}", w.doc)
    from ..expr import CARD_SCOPE

    docs.setdefault("card", CARD_SCOPE.vars["card"].doc)
    docs.setdefault("card.suit", "the card's suit")
    docs.setdefault("card.rank", "the card's rank")
    for name, fn in FUNCTIONS.items():
        docs.setdefault(name, (fn.doc or "a function") + (f" (e.g. {fn.example})" if fn.example else ""))
    for name in SUIT_CONSTANTS:
        docs.setdefault(name, "a suit")
    for name in RANK_CONSTANTS:
        docs.setdefault(name, "a rank")
    return docs


def card_names() -> list:
    """Every card as an expression writes it (``KH``, ``10S``) and the suit names."""
    return [("10" if r == "T" else r) + s for s in SUITS for r in RANKS] + list(SUIT_NAMES)
