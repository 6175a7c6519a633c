"""The catalogue of the shipped phases: the one list every other list of them is made from.

A shipped phase is one unit in two modules. Its unit (``kierki_dsl/phases/<phase>.py``) says what
a person and a bot see of it: labels, typed words, its panel, its record. Its engine half (a
module of this package) says what play does with it: its part of the ruleset format (``KEY``,
``FIELD``), its rule class and checks (``LINT_CODES``), its action numbers (``NUMBERS``,
``notation``, ``read_notation``), its words for ``kierki explain`` (``WORDS_AT``, ``explain``)
and its part of the seat view. The two are apart because of the layers: ``phases`` stands
above ``interpreter``, so the engine may not import a unit. Each unit names its engine half
(``PhaseUnit.engine_half``) and the phases' registry holds the two to this catalogue.

One entry per phase below; the lists made from it:

- the phases' registry (``phases.MODULES``): every entry's unit module, then the deal's end;
- the action numbers (``actions.NUMBERED``): every half that numbers actions;
- a trick deal's phases before play (``phaselist.SHIPPED``), in ``PLAY_ORDER``;
- each deal type's phases whose words ``kierki explain`` says (``Contract.phases``), in
  ``EXPLAINED``'s order;
- each deal type's contract keys that phases bring (``format_keys``), placed by ``FORMAT``.

The engine halves are named, not imported, here (``half`` imports one when it is asked for):
the halves import the action table, which is made from this catalogue.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Optional

from ..values import frozen


@frozen
class ShippedPhase:
    """A shipped phase: its unit's name and what its engine half is."""

    name: str  # the unit's name (``phases.UNITS``; the deal's ``Phase`` while it decides)
    half: str  # its engine half, a module of this package
    rule: str = ""  # the contract's attribute holding its rule ("" : none of its own)
    engine: str = ""  # "module.Class": its engine ("" : none here); a trick deal lists those of ``PLAY_ORDER``
    numbers: bool = False  # its half declares action numbers (``NUMBERS``, ``notation``, ``read_notation``)
    bets: bool = False  # its actions are side declarations a record keeps under ``bets`` (``actions.is_bet``)
    unit: str = ""  # the module of ``kierki_dsl`` holding its unit ("" : ``phases.<name>``); named, never imported here

    @property
    def unit_module(self) -> str:
        """The module of ``kierki_dsl`` holding its unit (``phases.passing``, ``interpreter.calling``)."""
        return self.unit or f"phases.{self.name}"


#: The shipped phases, in the order their units' panels are shown (``phases.MODULES``).
PHASES = (
    ShippedPhase("call", "calling", "call", "calling.CallEngine", numbers=True, unit="interpreter.calling"),
    ShippedPhase("choose", "choice", engine="choice.ChooseEngine", numbers=True, unit="interpreter.choice"),
    ShippedPhase("pass", "passing", "passing", "passing.PassEngine", unit="interpreter.passing"),
    ShippedPhase("auction", "bidding", "auction", "bidding.AuctionEngine", numbers=True, unit="interpreter.bidding"),
    ShippedPhase("exchange", "widow", "widow", "widow.WidowEngine", unit="interpreter.widow"),
    ShippedPhase("name", "naming", numbers=True, bets=True, unit="interpreter.naming"),
    ShippedPhase(
        "double",
        "doubling",
        "doubling",
        "doubling.DoublingEngine",
        numbers=True,
        bets=True,
        unit="interpreter.doubling",
    ),
    ShippedPhase(
        "expose",
        "exposure",
        "exposure",
        "exposure.ExposureEngine",
        numbers=True,
        bets=True,
        unit="interpreter.exposure",
    ),
    ShippedPhase("declarations", "declarations", "declarations", unit="interpreter.declarations"),
    ShippedPhase("stock", "stock", "stock", unit="interpreter.stock"),
    ShippedPhase("play", "tricks", unit="interpreter.tricks"),
    ShippedPhase("layout", "layout", unit="interpreter.layout"),
)

#: A trick deal's phases before play, in the order play reaches them (card play follows).
PLAY_ORDER = ("pass", "auction", "exchange", "call", "double", "expose")

#: Each deal type's phases whose words ``kierki explain`` says, in the order it says them.
EXPLAINED = {
    "tricks": ("stock", "pass", "auction", "exchange", "declarations", "expose", "double"),
    "layout": ("double",),
}

#: Where each deal type's format lists the keys of its phases among its own keys: own key -> the
#: phases whose keys follow it ("" : before the first own key). ``kierki schema`` keeps this order.
FORMAT: dict[str, dict[str, tuple]] = {
    "tricks": {"": ("pass",), "early_stop": ("double", "auction", "expose", "stock", "exchange", "declarations")},
    "layout": {"pass_fine": ("double",)},
}

_BY_NAME = {p.name: p for p in PHASES}


def entry(name: str) -> Optional[ShippedPhase]:
    """The shipped phase whose unit is called ``name``, or None."""
    for p in PHASES:  # (the catalogue as it stands: tests take an entry out for a while)
        if p.name == name:
            return p
    return None


def half(name: str) -> ModuleType:
    """The engine half of the shipped phase ``name`` (imported if it is not yet)."""
    return importlib.import_module(f"{__package__}.{_BY_NAME[name].half}")


def in_order(names: tuple) -> tuple:
    """The entries of ``names``, in that order."""
    return tuple(_BY_NAME[n] for n in names)


def numbering() -> tuple:
    """Every block of action numbers a shipped phase declares (``actions.NUMBERED`` assembles them)."""
    return tuple(b for p in PHASES if p.numbers for b in half(p.name).NUMBERS)


def engines() -> tuple:
    """(engine class, the contract's attribute holding its rule) of each phase of a trick deal
    before play, in ``PLAY_ORDER`` (``phaselist.SHIPPED``)."""
    return tuple((engine(p.name), p.rule) for p in in_order(PLAY_ORDER))


def engine(name: str) -> Optional[type]:
    """The engine class of the shipped phase ``name`` (whichever deal type lists it), or None."""
    p = _BY_NAME.get(name)
    if p is None or not p.engine:
        return None
    module, _, cls = p.engine.rpartition(".")
    return getattr(importlib.import_module(f"{__package__}.{module}"), cls)


def slot_engine(name: str) -> Optional[type]:
    """The engine class of the shipped phase ``name`` when no contract lists it (the declarer's
    choice: a schedule slot's, whose seat view names no contract), else None."""
    return None if name in PLAY_ORDER else engine(name)


def explained(deal_type: str) -> tuple:
    """The engine halves whose words ``kierki explain`` says for a contract of ``deal_type``
    (``Contract.phases``), in that order."""
    return tuple(half(n) for n in EXPLAINED[deal_type])


def format_keys(deal_type: str, own: dict) -> dict:
    """``deal_type``'s contract keys: ``own`` (key -> ``Field``) with the key of each of its phases
    (its half's ``KEY`` and ``FIELD``) where ``FORMAT`` places it."""
    places = FORMAT[deal_type]
    out = _phase_fields(places.get("", ()))
    for key, field in own.items():
        out[key] = field
        out.update(_phase_fields(places.get(key, ())))
    return out


def _phase_fields(names: tuple) -> dict:
    return {m.KEY: m.FIELD for m in map(half, names)}


__all__ = [
    "EXPLAINED",
    "FORMAT",
    "PHASES",
    "PLAY_ORDER",
    "ShippedPhase",
    "engine",
    "engines",
    "entry",
    "explained",
    "format_keys",
    "half",
    "in_order",
    "numbering",
    "slot_engine",
]
