"""The ruleset format (``kierki: 1``): top-level keys, the match, and the contract catalogue.

Contract fields come from the deal types registered in the catalogue, so a new deal type
extends the format (and ``kierki schema``) without touching this file.
"""

from __future__ import annotations

import functools

from ..i18n import N_
from ..interpreter import extensions
from ..interpreter.catalogue import load_builtin_types
from ..interpreter.choice import CHOOSE
from ..spec.schema import (
    Bool,
    CardKind,
    Enum,
    Expr,
    Field,
    Int,
    List,
    MapOf,
    Obj,
    OneOf,
    RankKind,
    SeatOrRandom,
    Str,
    Tagged,
)

FORMAT_VERSION = 1

COMMON_CONTRACT_FIELDS = {
    "pl": Field(Str(), "the contract's Polish name, e.g. 'Bez kierów'"),
    "en": Field(Str(), "the contract's English name, e.g. 'No hearts'"),
    "description": Field(Str(), "what the contract is about, for players"),
    "total": Field(
        Int(-(10**9), 10**9),
        "declared sum of all seats' points in one deal of this contract (checked by lint and at run time)",
    ),
}

SCHEDULE_ENTRY = OneOf(
    scalar=Str(r"[a-z][a-z0-9_]*", doc="a contract name"),
    mapping=Obj(
        {
            "contract": Field(Str(r"[a-z][a-z0-9_]*"), "the contract to play (or use choose)"),
            "choose": Field(CHOOSE, "let a seat choose the contract of each of these deals"),
            "repeat": Field(Int(1, 256), "how many deals in a row", default=1),
        },
        title="schedule entry",
    ),
)

PART = Obj(
    {
        "name": Field(Str(r"[a-z][a-z0-9_]*"), N_("the part's name, e.g. rozgrywka"), required=True),
        "pl": Field(Str(), "Polish name"),
        "en": Field(Str(), "English name"),
        "first": Field(Int(1, 10000), N_("number of its first deal in the schedule (1-based)"), required=True),
        "last": Field(Int(1, 10000), N_("number of its last deal"), required=True),
        "total": Field(Int(-(10**9), 10**9), "declared sum of all seats' points over the part, checked"),
    },
    title="part",
    doc="A named block of consecutive deals, e.g. the negative and the positive half.",
)

MATCH = Obj(
    {
        "schedule": Field(
            List(SCHEDULE_ENTRY, min_items=1, max_items=256), N_("the deals of a match, in order"), required=True
        ),
        "first_dealer": Field(
            SeatOrRandom(expression=True),
            "'random', a seat number, or a seat expression over the "
            "first deal's hands, e.g. holder(7H) (dealt from a random seat; the hands stay as "
            "dealt)",
            default="random",
        ),
        "deals_per_dealer": Field(Int(1, 64), "how many deals in a row each dealer deals (5 in Trix)", default=1),
        "series": Field(
            Int(1, 64),
            "how many times the schedule is played; each series starts with the dealer after "
            "the one who started the previous series (4 in WALC)",
            default=1,
        ),
        "direction": Field(
            Enum(("clockwise", "counterclockwise")),
            "the order of play, dealing and the passing of the deal",
            default="clockwise",
        ),
        "total": Field(Int(-(10**9), 10**9), "declared sum of all seats' final scores (0 for a zero-sum game)"),
        "parts": Field(List(PART, max_items=64), "named blocks of deals with declared totals", default=[]),
        "until": Field(
            Expr("bool"), "play the schedule again and again until this holds after a deal (e.g. lowest_total <= -100)"
        ),
        "max_deals": Field(Int(1, 10000), "with until: the most deals a match may last", default=1000),
    },
    title="match",
    doc="How a match is played: the schedule of deals and the dealer rotation.",
)

DECK = Obj(
    {
        "ranks": Field(
            List(RankKind(), min_items=1, max_items=52, unique=True),
            "ranks in the deck, low to high order is always 2..A",
            default=None,
        ),
        "remove": Field(
            List(CardKind(), max_items=52, unique=True),
            "cards taken out of the deck (e.g. [2C] for three players)",
            default=None,
        ),
        "order": Field(
            List(RankKind(), min_items=1, max_items=13, unique=True),
            "the ranks in trick order, strongest "
            "first (e.g. [A, 10, K, Q, J, 9]: the ten beats the king); default A K Q ... 2",
            default=None,
        ),
    },
    title="deck",
    doc="The pack: 52 cards unless ranks are left out or cards removed.",
)


@functools.lru_cache(maxsize=1)
def ruleset_schema() -> Obj:
    """The schema of a whole ruleset file (built once, after the catalogue is loaded)."""
    extensions.load_plugins()  # the phase modules of KIERKI_PHASES add their keys first
    types = load_builtin_types()
    variants = {}
    for name, dt in types.items():
        fields = dict(COMMON_CONTRACT_FIELDS)
        fields.update(dt.fields)
        variants[name] = Obj(fields, doc=dt.doc, title=name)
    contract = Tagged("type", variants, default="tricks", doc="A contract (deal type) of the catalogue")
    return Obj(
        {
            "kierki": Field(Int(FORMAT_VERSION, FORMAT_VERSION), N_("ruleset format version (1)"), required=True),
            "extends": Field(
                Str(), "a ruleset this one modifies (path relative to this file); only what differs is written"
            ),
            "name": Field(Str(), N_("the ruleset's name"), required=True),
            "description": Field(Str(), "what this ruleset is"),
            "players": Field(Int(2, 8), "number of players", default=4),
            "deck": Field(DECK, "the pack of cards", default=None),
            "match": Field(MATCH, N_("the schedule of deals"), required=True),
            "contracts": Field(MapOf(contract), N_("the contracts (deal types) by name"), required=True),
            "words": Field(
                MapOf(MapOf(Str(), key_pattern=r"[\s\S]*\S[\s\S]*")),
                "the ruleset's own sentences in another language: {pl: {sentence as written: its Polish}}",
                default=None,
            ),
        },
        doc="A kierki-dsl ruleset.",
        title="ruleset",
    )


def json_schema() -> dict:
    """The JSON Schema of the ruleset format, with descriptions (``kierki schema``).

    A file with ``extends`` holds only what it changes, so it is checked against a relaxed
    form of the same schema: nothing is required and ``null`` (remove the inherited key) is
    allowed anywhere.
    """
    strict = ruleset_schema().json()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://kierki-dsl.invalid/schema/ruleset-1.json",
        "title": "kierki-dsl ruleset",
        "description": strict.get("description", ""),
        "if": {"type": "object", "required": ["extends"]},
        "then": _relaxed(strict),
        "else": strict,
    }


def _relaxed(node):
    if isinstance(node, list):
        return [_relaxed(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {("anyOf" if k == "oneOf" else k): _relaxed(v) for k, v in node.items() if k not in ("required", "minItems")}
    if "properties" in node:
        out["properties"] = {k: {"anyOf": [_relaxed(v), {"type": "null"}]} for k, v in node["properties"].items()}
    if isinstance(node.get("additionalProperties"), dict):
        out["additionalProperties"] = {"anyOf": [_relaxed(node["additionalProperties"]), {"type": "null"}]}
    return out


__all__ = [
    "ruleset_schema",
    "json_schema",
    "Bool",
    "Expr",
    "Field",
    "Int",
    "List",
    "Obj",
    "OneOf",
    "Str",
    "Enum",
    "RankKind",
]
