"""Fixed deals: a match file of given cards (the SIK format), played under any ruleset.

The file has 5 lines per deal: ``<type><first seat>`` (e.g. ``1N``), then the 13 cards of
N, E, S and W written one after another (``10CQH2S...``). Deal type ``t`` is the contract of
the ruleset's ``t``-th schedule entry (so the SIK types 1-7 are the seven negative deals of
``sik.yaml`` and of the Kierki standard profile), unless ``--deal-types`` maps the types to
contracts by name (``deal_types``); the dealer is the seat before the first
leader, which leads when the contract's first lead is ``left(dealer)`` (the default).
Every problem is reported as ``path:line: error: ...``.
"""

from __future__ import annotations

import hashlib
from typing import Optional

from ..interpreter.match import FixedDeal
from .sik import SEATS, card_text, parse_cards

MAX_BYTES = 1 << 20


class DealsError(Exception):
    """A match file that cannot be played (the message names the file and line)."""


def read_deals(path: str, ruleset, types: Optional[dict] = None) -> list[FixedDeal]:
    """The deals of a match file, mapped onto ``ruleset``'s contracts (``types``: see ``deal_types``)."""
    from ..paths import ReadError, read_limited

    try:
        data = read_limited(path, MAX_BYTES)
    except ReadError as e:
        raise DealsError(
            f"{path}: error: the match file is {e.size} bytes (limit {MAX_BYTES})"
            if e.size is not None
            else f"{path}: error: cannot read the match file: {e}"
        ) from None
    return parse_deals(data, ruleset, path, types)


def fingerprint(path: str) -> str:
    """A short hash of a match file's bytes (save files name the deals they play)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def parse_deals(data: bytes, ruleset, path: str = "<deals>", types: Optional[dict] = None) -> list[FixedDeal]:
    """Parse the bytes of a match file (see the module docstring)."""
    types = types if types is not None else deal_types(ruleset)
    if ruleset.players != 4:
        raise DealsError(f"{path}: error: a match file seats N, E, S, W; this ruleset has {ruleset.players} players")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise DealsError(f"{path}:{line}: error: the match file is not ASCII (byte {e.start})") from None
    lines = [ln.strip() for ln in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise DealsError(f"{path}:1: error: the match file has no deals")
    if len(lines) % 5:
        raise DealsError(
            f"{path}:{len(lines) + 1}: error: the file ends inside a deal (5 lines per deal: type and leader, then N, E, S, W)"
        )
    return [_deal(lines[i : i + 5], i + 1, ruleset, path, types) for i in range(0, len(lines), 5)]


def deal_types(ruleset, spec: Optional[str] = None) -> dict:
    """Deal type digit -> compiled contract. By default type ``t`` is the ruleset's ``t``-th
    schedule entry; ``spec`` (``"1=no_tricks,2=no_hearts"``) names them instead."""
    from ..interpreter.protocol import CompiledContract

    if spec is None:
        pairs = [(t, c) for t, c in enumerate(ruleset.schedule[:9], start=1)]
    else:
        pairs = []
        for item in (x.strip() for x in spec.split(",") if x.strip()):
            digit, eq, name = item.partition("=")
            if not eq or not digit.isdecimal() or not 1 <= int(digit) <= 9:
                raise DealsError(f"--deal-types takes TYPE=CONTRACT pairs (a type is 1-9), got {item!r}")
            if name not in ruleset.contracts:
                raise DealsError(
                    f"--deal-types: {name!r} is not a contract of {ruleset.name!r} "
                    f"(it has {', '.join(ruleset.contracts)})"
                )
            pairs.append((int(digit), ruleset.contracts[name]))
    return {t: c for t, c in pairs if isinstance(c, CompiledContract)}  # a declarer's choice names none


def contract_of_type(ruleset, kind: int, types: Optional[dict] = None):
    """The contract a deal type names (see ``deal_types``), or None."""
    return (types if types is not None else deal_types(ruleset)).get(kind)


def type_of_contract(ruleset, contract, types: Optional[dict] = None) -> int:
    """The deal type that names ``contract`` (the first, if several do), or 0."""
    for t, c in sorted((types if types is not None else deal_types(ruleset)).items()):
        if c is contract:
            return t
    return 0


def _deal(lines: list, first: int, ruleset, path: str, types: dict) -> FixedDeal:
    head = lines[0]
    if len(head) != 2 or not head[0].isdecimal() or head[1] not in SEATS:
        raise DealsError(
            f"{path}:{first}: error: expected a deal type digit and the first seat (e.g. 1N), got {head!r}"
        )
    kind = int(head[0])
    contract = types.get(kind)
    if contract is None:
        raise DealsError(
            f"{path}:{first}: error: deal type {kind} names no contract of {ruleset.name!r} "
            f"(types: {', '.join(f'{t}={c.name}' for t, c in sorted(types.items())) or 'none'}; "
            "--deal-types maps them)"
        )
    dealt, seen = [], 0
    for s in range(4):
        where = f"{path}:{first + 1 + s}"
        cards = parse_cards(lines[1 + s])
        if cards is None:
            raise DealsError(
                f"{where}: error: the cards of {SEATS[s]} cannot be read (write rank then suit, e.g. 10CQH2S)"
            )
        if len(cards) != ruleset.hand_size:
            raise DealsError(f"{where}: error: {SEATS[s]} has {len(cards)} cards, a hand is {ruleset.hand_size}")
        for c in cards:
            if seen >> c & 1:
                raise DealsError(f"{where}: error: {card_text(c)} is dealt twice in this deal")
            if not ruleset.deck >> c & 1:
                raise DealsError(f"{where}: error: {card_text(c)} is not in this ruleset's deck")
            seen |= 1 << c
        dealt.append(tuple(cards))
    leader = SEATS.index(head[1])
    return FixedDeal(contract, (leader - ruleset.direction) % 4, tuple(dealt), head[0])
