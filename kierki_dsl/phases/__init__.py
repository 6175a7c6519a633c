"""The phases of a deal, one module each, and the registry front ends ask.

In the style of yamllint's rules (one rule, one module, one registry): every module listed in
``MODULES`` defines ``UNIT``, a ``PhaseUnit`` that declares its actions, their labels and typed
words, what it expects and its part of the seat view (``interpreter/phasekit/base.py``). A shipped
phase is one module of the interpreter (``interpreter/bidding.py`` the auction, ...; the
catalogue ``interpreter/phasecatalogue.py`` lists them), which declares its rule, numbers, engine
and unit together; the deal's end is ``done`` here; a phase added by a module registers its own
``UNIT`` with ``register``. Front ends — the terminal, the browser, the SIK client — never ask
which phase is playing; they call:

- ``phase_of(view)``: the unit deciding in a view;
- ``label(view, action, rules)``: the label a person reads for an action;
- ``parse(view, text, rules)``: the action a person's typed words name;
- ``panels(view, rules)``: every phase's part of the view that has something to show now;
- ``expected(view)``: what the seat on turn is asked for.

``rules`` (a loaded ruleset, optional) gives contract names and rule details where a phase
needs them. The record notation (``actions.action_str``) is not the phases' business: it
stays one notation for every action.
"""

from __future__ import annotations

import importlib

from .. import codes
from ..exits import SetupError
from ..interpreter import extensions, phasecatalogue
from ..interpreter.actions import action_str
from ..interpreter.phasekit.base import NotUnderstood, PhaseUnit, cards_text, contract_name, contract_of, row, seat
from ..interpreter.phasekit.cardpick import CardPhase
from ..ruleset.format import ruleset_schema

#: The phase modules (of ``kierki_dsl``), in the order their panels are shown: each shipped phase's
#: (the interpreter's catalogue of them lists them, ``interpreter/phasecatalogue.py``), then the deal's end.
MODULES = tuple(p.unit_module for p in phasecatalogue.PHASES) + ("phases.done",)

UNITS: dict = {}
_ADDED_CODES: set = set()  # the lint codes added phases brought (a shipped code is never replaced)


def register(unit: PhaseUnit) -> PhaseUnit:
    """Add a phase (a module's ``UNIT``) to the registry; a phase registered again replaces itself.

    A unit with a ``schema_key`` changes play (its engine hooks, ``base.PhaseUnit``): its key
    joins the trick contracts' format, its actions get their block of numbers and its lint codes
    join ``kierki lint --explain``'s. Any other unit is a shipped phase's, declared in the module
    the interpreter's catalogue of the shipped phases lists under its name, or the deal's end
    (``SetupError`` otherwise, ``check_home``)."""
    if not unit.schema_key:
        check_home(unit)
    UNITS[unit.name] = unit
    if not unit.schema_key:  # a shipped phase: its codes, as its module declares them
        codes.declare(unit.lint_codes, unit.name)
    if unit.schema_key:
        if not unit.record_key:  # a record keeps the added phases' actions under one key, after the bets
            unit.record_key, unit.record_rank = "added", 50
        extensions.add(unit)
        for code, (title, explanation) in unit.lint_codes.items():
            if code not in codes.CODES or codes.CODES[code].code in _ADDED_CODES:
                codes.CODES[code] = codes.Code(code, title, explanation, "", "", severity="warning")
                _ADDED_CODES.add(code)
        ruleset_schema.cache_clear()  # the format is assembled again with the new key
    return unit


def unregister(unit: PhaseUnit) -> None:
    """Take a registered phase out again (tests that register one for a while)."""
    UNITS.pop(unit.name, None)
    if unit.schema_key:
        extensions.remove(unit)
        for code in unit.lint_codes:
            if code in _ADDED_CODES:
                _ADDED_CODES.discard(code)
                codes.CODES.pop(code, None)
        ruleset_schema.cache_clear()


def check_home(unit: PhaseUnit) -> None:
    """``SetupError`` unless a shipped unit is declared in the module ``phasecatalogue`` lists under
    its name, and a unit the catalogue does not list in no module of the interpreter (a shipped
    phase is one module: its unit cannot stand apart from it, nor one phase's module hold another's)."""
    entry = phasecatalogue.entry(unit.name)
    listed = f"{phasecatalogue.__package__}.{entry.module}" if entry is not None else None
    home = type(unit).__module__
    declared = home if home.startswith(f"{phasecatalogue.__package__}.") else None
    if declared != listed:
        where = f"lists it in {listed}" if listed else "does not list it"
        raise SetupError(
            f"the phase {unit.name!r} is declared in {home}, and the catalogue of the shipped phases "
            f"(interpreter/phasecatalogue.py) {where}"
        )


def units_missing() -> list:
    """The names of the shipped phases the catalogue lists that no registered unit plays."""
    return [p.name for p in phasecatalogue.PHASES if p.name not in UNITS]


for _name in MODULES:
    register(importlib.import_module(f"kierki_dsl.{_name}").UNIT)
if units_missing():  # a catalogue entry without its unit: the shipped phases are one list
    raise SetupError(f"the catalogue of the shipped phases lists phases no module it names plays: {units_missing()}")


def phase_of(view) -> PhaseUnit:
    """The unit deciding in ``view`` (KeyError for a phase nobody registered)."""
    for unit in UNITS.values():
        if unit.matches(view):
            return unit
    raise KeyError(f"no phase module for phase {view.phase!r}")


def owner(view, action: int) -> PhaseUnit:
    """The unit numbering ``action``: the view's own phase when it does, else the first that does."""
    unit = phase_of(view)
    if unit.owns(action):
        return unit
    return next((u for u in UNITS.values() if u.owns(action)), unit)


def label(view, action: int, rules=None) -> str:
    """The label a person reads for ``action`` (``120``, ``pass``, ``expose K♥``, ``trumps: hearts``)."""
    return owner(view, action).label(view, action, rules)


def parse(view, text: str, rules=None) -> int:
    """The action ``text`` names in the view's phase (legal or not); ``NotUnderstood`` otherwise."""
    return phase_of(view).read(view, text, rules)


def actions(view, rules=None) -> list:
    """The legal actions, each as ``{"action": id, "label": words, "code": record notation}``, in the
    phase's menu order (``code`` is ``action_str``'s, stable for scripts)."""
    unit = phase_of(view)
    listed = unit.choices(view, rules)
    listed += [a for a in view.legal if a not in listed]
    return [{"action": a, "label": label(view, a, rules), "code": action_str(a)} for a in listed]


def panels(view, rules=None) -> list:
    """Every phase's part of the view with something to show: ``{"phase", "rows": [{"label", "text"}]}``."""
    out = []
    for unit in UNITS.values():
        rows = unit.panel(view, rules)
        if rows:
            out.append({"phase": unit.name, "rows": rows})
    return out


def expected(view) -> str:
    """What the view's phase expects, in words."""
    return phase_of(view).expected


def panel_lines(view, rules=None) -> list:
    """The panels as text lines (``label: text``), as the terminal shows them."""
    return [(r["label"] + ": " if r["label"] else "") + r["text"] for p in panels(view, rules) for r in p["rows"]]


__all__ = [
    "CardPhase",
    "NotUnderstood",
    "PhaseUnit",
    "UNITS",
    "actions",
    "cards_text",
    "contract_name",
    "contract_of",
    "check_home",
    "expected",
    "label",
    "owner",
    "panel_lines",
    "panels",
    "parse",
    "phase_of",
    "register",
    "row",
    "seat",
    "units_missing",
    "unregister",
]
