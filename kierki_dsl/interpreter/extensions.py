"""Phases added from one module that change play: the engine's side of ``phases.register``.

A phase module (``phasekit/base.PhaseUnit``) that names a ``schema_key`` is also a part of the
engine: ``phases.register`` hands it to ``add`` here. From then on

- its key is a key of every trick contract (``tricks.Tricks.fields``), checked by its
  ``schema`` and compiled by its ``build_rule`` (lint: its ``check_rule`` and ``lint_codes``);
- its actions are numbered in a block of ``numbering.reserve`` (below ``MAX_ACTION``), written
  and read in its own record notation (``name:...``);
- a trick deal whose contract holds the key runs the phase before the first card
  (``trickstate.TrickDeal``: the unit's ``engine_*`` hooks: start, seat, legal, reason, apply,
  view part, settle at the deal's end);
- the compiled engines decline the contract (``plan.compile_plan`` says which phase), so the
  interpreter plays it, the same on every path.

Modules named in ``KIERKI_PHASES`` (comma-separated, found on ``PYTHONPATH``) are imported
before the first ruleset is loaded (``load_plugins``): a ruleset using their key can then be
linted, run, served and replayed by the ``kierki`` command.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from ..exits import SetupError
from .numbering import reserve
from .phases import PRIVATE, Added

#: The added phases by schema key, in the order they run before play.
PARTS: dict = {}


def add(unit) -> None:
    """Make ``unit`` a part of the engine (its action block reserved, its key a contract key)."""
    if unit.action_width:
        unit.action_base = reserve(unit)
    PARTS[unit.schema_key] = unit
    unit.phase = Added(unit.name)
    if unit.private:
        PRIVATE.added.add(unit.name)


def remove(unit) -> None:
    """Take ``unit`` out of the engine again (its action block stays reserved for it)."""
    key = unit.schema_key
    if PARTS.get(key) is unit:
        del PARTS[key]
    PRIVATE.added.discard(unit.name)


def fields() -> dict:
    """The contract keys the added phases declare: key -> ``spec.schema.Field``."""
    return {key: unit.schema for key, unit in PARTS.items()}


def named(phase: str) -> Any:
    """The added phase called ``phase``, or None."""
    return next((u for u in PARTS.values() if u.name == phase), None)


def load_plugins() -> None:
    """Import the phase modules named in ``KIERKI_PHASES`` once (they register themselves);
    ``SetupError`` (a usage error) naming a module that cannot be imported."""
    if getattr(load_plugins, "done", False):
        return
    load_plugins.done = True  # type: ignore[attr-defined]
    for module in filter(None, (m.strip() for m in os.environ.get("KIERKI_PHASES", "").split(","))):
        try:
            importlib.import_module(module)
        except ImportError as e:
            load_plugins.done = False  # type: ignore[attr-defined]
            raise SetupError(f"KIERKI_PHASES names {module!r}, which cannot be imported: {e}") from None


__all__ = ["PARTS", "add", "fields", "load_plugins", "named", "remove"]
