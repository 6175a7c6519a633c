"""What every phase module declares (issue #21 item 1), checked over the registry and seeded play.

- Every module of ``phases.MODULES`` defines ``UNIT``, a ``PhaseUnit`` under its own name.
- The seat view is a common core plus one named part per phase: every field of ``SeatView`` is
  either in ``CORE`` or declared (``fields``) by exactly one phase unit.
- Each phase numbers its own actions: no action number is claimed by two units, and in seeded play
  of every shipped ruleset every legal action is numbered by the phase deciding, labelled by it, and
  the label, typed, reads back to that action (the words a person may type). Every deciding phase
  says what it expects.

Why an action is illegal, per kind: tests/test_refusal_every_kind.py. The engine half of a shipped
phase (its schema part, rule, lint codes) is in ``interpreter/`` (docs/audit-phase-unit.md lists what is not yet in
the phase's own module).
"""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

from kierki_dsl import phases
from kierki_dsl.interpreter.actions import BID_BASE, DONE, MAX_ACTION, PASS
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.view import SeatView
from kierki_dsl.phases.base import PhaseUnit
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent / "rulesets"
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*.yaml"))
QUICK = ["kierki_standard.yaml", "games/tysiac.yaml", "games/barbu.yaml", "games/trix.yaml", "games/king_brazil.yaml",
         "variants/kierki_dominowe.yaml"]
#: The fields every seat view has, whatever the phases: who, which contract and phase, the hand,
#: the legal actions, the table and the scores.
CORE = {"seat", "contract", "phase", "hand", "legal", "dealer", "scores", "players", "hand_sizes", "finished", "deck",
        "direction", "deal_number", "ply", "parts"}


def test_every_phase_module_defines_its_unit():
    import importlib

    for name in phases.MODULES:
        unit = importlib.import_module(f"kierki_dsl.phases.{name}").UNIT
        assert isinstance(unit, PhaseUnit), name
        assert phases.UNITS[unit.name] is unit, name
    assert len({phases.UNITS[n].name for n in phases.UNITS}) == len(phases.UNITS)


def test_the_view_is_a_common_core_and_one_part_per_phase():
    owners: dict = {}
    for unit in phases.UNITS.values():
        for field in unit.fields:
            owners.setdefault(field, []).append(unit.name)
    fields = {f.name for f in attrs.fields(SeatView)}
    assert not {f: o for f, o in owners.items() if len(o) > 1}, "a view field declared by two phases"
    assert set(owners) <= fields, sorted(set(owners) - fields)
    assert fields - CORE == set(owners), ("fields of no phase:", sorted(fields - CORE - set(owners)))
    assert not CORE & set(owners)


def test_no_action_number_is_claimed_by_two_phases():
    claims: dict = {}
    for unit in phases.UNITS.values():
        for a in range(MAX_ACTION + 1):
            if unit.owns(a):
                claims.setdefault(a, []).append(unit.name)
    shared = {a: tuple(names) for a, names in claims.items() if len(names) > 1}
    # the words several phases share, one number each: a card (played in a trick, passed, given after
    # the widow, laid out), "pass" (an auction's, a layout's), "done" (no more bets, no more exposures)
    # and a bid (an auction's, Tysiąc's raise after the musik); every other number is one phase's
    assert {a for a in shared if a >= 52} - {PASS, DONE} <= set(range(BID_BASE, MAX_ACTION + 1)), sorted(shared)
    assert shared[PASS] == ("auction", "layout") and shared[DONE] == ("double", "expose"), shared
    assert {shared[a] for a in shared if a >= BID_BASE} == {("auction", "exchange")}
    assert claims, "no phase numbers any action"


def play_and_check(path: str, steps: int) -> set:
    """Seeded random play of ``path``: every legal action numbered, labelled and read back by the
    phase deciding. The phases met."""
    rs = Ruleset.load(str(ROOT / path))
    met: set = set()
    m, rng = Match(rs, 1), random.Random(1)
    for _ in range(steps):
        if m.over:
            break
        view = m.view(m.to_move())
        unit = phases.phase_of(view)
        met.add(unit.name)
        assert unit.expected, unit.name
        listed = [a["action"] for a in phases.actions(view, rs)]
        assert sorted(listed) == sorted(view.legal), (unit.name, listed)
        for a in view.legal:
            assert phases.owner(view, a) is unit, (path, unit.name, a)
            words = phases.label(view, a, rs)
            assert words and phases.parse(view, words, rs) == a, (path, unit.name, words)
        m.apply(rng.choice(view.legal))
    return met


@pytest.mark.parametrize("path", QUICK)
def test_each_phase_numbers_labels_and_reads_its_actions(path):
    assert "play" in play_and_check(path, 1500) or path.endswith("king_brazil.yaml")


def test_the_quick_rulesets_meet_every_deciding_phase():
    met = set()
    for path in QUICK:
        met |= play_and_check(path, 1500)
    deciding = {"call", "choose", "auction", "exchange", "name", "double", "expose", "play", "layout"}
    assert deciding <= met, sorted(deciding - met)


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in SHIPPED if p not in QUICK])
def test_every_shipped_ruleset_numbers_labels_and_reads_its_actions(path):
    play_and_check(path, 1500)
