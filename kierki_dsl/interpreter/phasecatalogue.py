"""The catalogue of the shipped phases: the one list every other list of them is made from.

A shipped phase is one module of this package (``bidding.py`` the auction, ``calling.py`` the
trump call, ...). The module declares everything the phase is: its part of the ruleset format
(``KEY``, ``FIELD``), its rule class and checks (``LINT_CODES``), its action numbers
(``NUMBERS``, ``notation``, ``read_notation``), its words for ``kierki explain`` (``WORDS_AT``,
``explain``), its part of the seat view (a ``view_part`` class), its engine (a
``phaseengine.PhaseEngine``, for a phase before play) and its unit (``UNIT``, a
``phasekit.base.PhaseUnit``: the labels a person reads and the words one types, its panel, its
refusals, its record, its bots' rule of thumb). The phases' registry (``kierki_dsl.phases``) loads
each entry's module and registers its ``UNIT``; it refuses a unit declared anywhere but the
module its entry names.

One entry per phase below; the lists made from it:

- the phases' registry (``phases.MODULES``): every entry's module, then the deal's end;
- the action numbers (``actions.NUMBERED``): every module that numbers actions;
- a trick deal's phases before play (``phaselist.SHIPPED``), in ``PLAY_ORDER``;
- each deal type's phases whose words ``kierki explain`` says (``Contract.phases``), in
  ``EXPLAINED``'s order;
- each deal type's contract keys that phases bring (``format_keys``), placed by ``FORMAT``.

The modules are named, not imported, here (``phase_module`` imports one when it is asked for):
they import the action table, which is made from this catalogue.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Optional

from ..values import frozen


@frozen
class ShippedPhase:
    """A shipped phase: its unit's name and the module that is the phase."""

    name: str  # the unit's name (``phases.UNITS``; the deal's ``Phase`` while it decides)
    module: str  # the phase's module, a module of this package
    rule: str = ""  # the contract's attribute holding its rule ("" : none of its own)
    engine: str = ""  # the class of its module that is its engine ("" : none); a trick deal steps ``PLAY_ORDER``'s
    numbers: bool = False  # its module declares action numbers (``NUMBERS``, ``notation``, ``read_notation``)
    bets: bool = False  # its actions are side declarations a record keeps under ``bets`` (``actions.is_bet``)

    @property
    def unit_module(self) -> str:
        """Its module as the phases' registry names it (``interpreter.bidding``)."""
        return f"interpreter.{self.module}"


#: The shipped phases, in the order their units' panels are shown (``phases.MODULES``).
PHASES = (
    ShippedPhase("call", "calling", "call", "CallEngine", numbers=True),
    ShippedPhase("choose", "choice", engine="ChooseEngine", numbers=True),
    ShippedPhase("pass", "passing", "passing", "PassEngine"),
    ShippedPhase("auction", "bidding", "auction", "AuctionEngine", numbers=True),
    ShippedPhase("exchange", "widow", "widow", "WidowEngine"),
    ShippedPhase("name", "naming", numbers=True, bets=True),
    ShippedPhase("double", "doubling", "doubling", "DoublingEngine", numbers=True, bets=True),
    ShippedPhase("expose", "exposure", "exposure", "ExposureEngine", numbers=True, bets=True),
    ShippedPhase("declarations", "declarations", "declarations"),
    ShippedPhase("stock", "stock", "stock"),
    ShippedPhase("play", "tricks"),
    ShippedPhase("layout", "layout"),
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


def phase_module(name: str) -> ModuleType:
    """The module of the shipped phase ``name`` (imported if it is not yet)."""
    return importlib.import_module(f"{__package__}.{_BY_NAME[name].module}")


def in_order(names: tuple) -> tuple:
    """The entries of ``names``, in that order."""
    return tuple(_BY_NAME[n] for n in names)


def numbering() -> tuple:
    """Every block of action numbers a shipped phase declares (``actions.NUMBERED`` assembles them)."""
    return tuple(b for p in PHASES if p.numbers for b in phase_module(p.name).NUMBERS)


def engines() -> tuple:
    """(engine class, the contract's attribute holding its rule) of each phase of a trick deal
    before play, in ``PLAY_ORDER`` (``phaselist.SHIPPED``)."""
    return tuple((engine(p.name), p.rule) for p in in_order(PLAY_ORDER))


def engine(name: str) -> Optional[type]:
    """The engine class of the shipped phase ``name`` (whichever deal type lists it), or None."""
    p = _BY_NAME.get(name)
    if p is None or not p.engine:
        return None
    return getattr(phase_module(name), p.engine)


def slot_engine(name: str) -> Optional[type]:
    """The engine class of the shipped phase ``name`` when no contract lists it (the declarer's
    choice: a schedule slot's, whose seat view names no contract), else None."""
    return None if name in PLAY_ORDER else engine(name)


def explained(deal_type: str) -> tuple:
    """The modules of the phases whose words ``kierki explain`` says for a contract of ``deal_type``
    (``Contract.phases``), in that order."""
    return tuple(phase_module(n) for n in EXPLAINED[deal_type])


def format_keys(deal_type: str, own: dict) -> dict:
    """``deal_type``'s contract keys: ``own`` (key -> ``Field``) with the key of each of its phases
    (its module's ``KEY`` and ``FIELD``) where ``FORMAT`` places it."""
    places = FORMAT[deal_type]
    out = _phase_fields(places.get("", ()))
    for key, field in own.items():
        out[key] = field
        out.update(_phase_fields(places.get(key, ())))
    return out


def _phase_fields(names: tuple) -> dict:
    return {m.KEY: m.FIELD for m in map(phase_module, names)}


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
    "phase_module",
    "in_order",
    "numbering",
    "slot_engine",
]
