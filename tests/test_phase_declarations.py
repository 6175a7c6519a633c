"""What every phase module declares (issue #21 item 1), checked over the registry and seeded play.

- Every module of ``phases.MODULES`` defines ``UNIT``, a ``PhaseUnit`` under its own name.
- The seat view is a common core plus one named part per phase: ``SeatView``'s fields are the
  ``CORE``; each phase's part is its own class (``part_type``), built by that phase only (a source
  check over the package), present in a view only when the deal has the phase; the flat names of
  the compatibility face (``view.bid``) read the parts.
- Each phase numbers its own actions: no action number is claimed by two units, and in seeded play
  of every shipped ruleset every legal action is numbered by the phase deciding, labelled by it, and
  the label, typed, reads back to that action (the words a person may type). Every deciding phase
  says what it expects.

Why an action is illegal, per kind: tests/test_refusal_every_kind.py. A shipped phase is one module
of ``interpreter/`` (its schema part, rule, lint codes, engine, view part and unit:
tests/test_one_phase_list.py); docs/audit-phase-unit.md lists what is not yet in the phase's own module.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs
import pytest

from kierki_dsl import phases
from kierki_dsl.interpreter.actions import BID_BASE, DONE, MAX_ACTION, PASS
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter import view
from kierki_dsl.interpreter.layout import LayoutContract
from kierki_dsl.interpreter.view import SeatView
from kierki_dsl.phases import PhaseUnit
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent / "rulesets"
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*.yaml"))
QUICK = ["kierki_standard.yaml", "games/tysiac.yaml", "games/barbu.yaml", "games/trix.yaml", "games/king_brazil.yaml",
         "variants/kierki_dominowe.yaml"]
#: The fields every seat view has, whatever the phases: who, which contract and phase, the hand,
#: the legal actions, the table (the trick, the trump and its caller, the cards played) and the
#: scores; ``parts`` holds every phase's own part.
CORE = {"seat", "contract", "phase", "hand", "legal", "dealer", "scores", "players", "hand_sizes", "finished", "deck",
        "direction", "deal_number", "ply", "parts", "trick", "led_suit", "trump", "caller", "trick_number",
        "tricks_total", "completed", "played"}
PACKAGE = Path(__file__).resolve().parent.parent / "kierki_dsl"


def test_every_phase_module_defines_its_unit():
    import importlib

    for name in phases.MODULES:
        unit = importlib.import_module(f"kierki_dsl.{name}").UNIT
        assert isinstance(unit, PhaseUnit), name
        assert phases.UNITS[unit.name] is unit, name
    assert len({phases.UNITS[n].name for n in phases.UNITS}) == len(phases.UNITS)


def test_the_view_is_a_common_core_and_one_part_per_phase():
    """The view's fields are the core; every other name it answers is a phase's part's field."""
    assert {f.name for f in attrs.fields(SeatView)} == CORE
    with_parts = {u.name: u for u in phases.UNITS.values() if u.part_type is not None}
    assert set(with_parts) == set(view.PART_TYPES), "a part class no unit declares, or a unit whose part is not registered"
    for name, unit in with_parts.items():
        assert view.PART_TYPES[name] is unit.part_type, name
        assert attrs.has(unit.part_type) and unit.fields, name
    owners: dict = {}
    for unit in with_parts.values():
        for field in unit.fields:
            owners.setdefault(field, []).append(unit.name)
    assert not {f: o for f, o in owners.items() if len(o) > 1}, "a view field declared by two phases"
    assert {f: o[0] for f, o in owners.items()} == {f: phase for f, (phase, _) in view.COMPAT.items()}
    assert not CORE & set(owners)


#: Whether a deal of compiled contract ``c`` has the phase (``view``: a seat's view in it).
HAS = {
    "auction": lambda c, v: getattr(c, "auction", None) is not None,
    "exchange": lambda c, v: getattr(c, "widow", None) is not None,
    "expose": lambda c, v: getattr(c, "exposure", None) is not None,
    "double": lambda c, v: getattr(c, "doubling", None) is not None,
    "declarations": lambda c, v: bool(getattr(c, "declarations", ())),
    "stock": lambda c, v: getattr(c, "stock", None) is not None,
    "layout": lambda c, v: isinstance(c, LayoutContract),
    "pass": lambda c, v: getattr(c, "passing", None) is not None and c.passing.offset(v.deal_number, v.players) != 0,
    "choose": lambda c, v: v.phase == "choose",
}
PARTS_MET = ["kierki_standard.yaml", "games/tysiac.yaml", "games/barbu.yaml", "games/trix.yaml", "games/hearts.yaml",
             "variants/kierki_dominowe.yaml", "variants/auction_for_trumps.yaml"]


@pytest.mark.parametrize("path", PARTS_MET + [pytest.param(p, marks=pytest.mark.slow) for p in SHIPPED if p not in PARTS_MET])
def test_every_part_is_built_by_its_phase_and_only_in_a_deal_with_the_phase(path):
    """In seeded play, each part of a view is its phase's class; a view of a deal without the
    phase has no such part, and once cards are played every phase of the deal shows its part."""
    rs = Ruleset.load(str(ROOT / path))
    m, rng, met = Match(rs, 1), random.Random(3), set()
    assert set(HAS) == set(view.PART_TYPES)
    for _ in range(1200):
        if m.over:
            break
        seat = m.to_move()
        for s in (seat, (seat + 1) % rs.players):
            v = m.view(s)
            c = rs.contracts.get(v.contract)
            names = [n for n, _ in v.parts]
            assert len(names) == len(set(names)), names
            for name, part in v.parts:
                assert type(part) is view.PART_TYPES[name], (path, name, part)
                assert c is None or HAS[name](c, v), (path, v.contract, name, "a part of a phase the deal has not")
            if v.phase == "play" and c is not None:
                assert {n for n in HAS if HAS[n](c, v)} <= set(names), (path, v.contract, names)
            met |= set(names)
        m.apply(rng.choice(m.view(seat).legal))
    assert met or path not in PARTS_MET, path  # the rulesets listed there each have a phase with a part


def builders(package: Path = PACKAGE) -> dict:
    """part class name -> the modules (relative to ``package``) whose code builds one (``Name(``)."""
    found: dict = {}
    names = {cls.__name__ for cls in view.PART_TYPES.values()}
    pattern = re.compile(r"\b(" + "|".join(sorted(names)) + r")\(")
    for path in sorted(package.rglob("*.py")):
        for line in path.read_text("utf-8").splitlines():
            code = line.split("#", 1)[0]
            for hit in pattern.finditer(code):
                found.setdefault(hit.group(1), set()).add(path.relative_to(package).as_posix())
    return found


#: The modules that may build a phase's part: the phase's module declaring it, and the module of
#: its deal state where the phase has one of its own (a widow's deal, a stock's deal; the trick
#: deal keeps the passing's cards).
OWN_STATE = {
    "exchange": "interpreter/widowstate.py",
    "stock": "interpreter/stockstate.py",
    "pass": "interpreter/trickstate.py",
}


def _own(name: str) -> set:
    cls = view.PART_TYPES[name]
    home = cls.__module__.removeprefix("kierki_dsl.").replace(".", "/") + ".py"
    return {home} | ({OWN_STATE[name]} if name in OWN_STATE else set())


def test_only_the_phase_s_own_modules_build_its_part():
    found = builders()
    for name, cls in view.PART_TYPES.items():
        assert found.get(cls.__name__), (name, "its part is never built")
        assert found[cls.__name__] <= _own(name), (name, sorted(found[cls.__name__] - _own(name)))


def test_a_part_built_outside_its_phase_fails(tmp_path):
    """A copy of the package with an auction part built by a front end: the check finds it."""
    for path in PACKAGE.rglob("*.py"):
        target = tmp_path / path.relative_to(PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text("utf-8"), "utf-8")
    (tmp_path / "web" / "frames.py").write_text(
        (PACKAGE / "web" / "frames.py").read_text("utf-8") + "\nFAKE = AuctionPart((), 0, -1, -1)\n", "utf-8"
    )
    found = builders(tmp_path)
    assert "web/frames.py" in found["AuctionPart"] and not found["AuctionPart"] <= _own("auction")


def test_the_compatibility_face_reads_the_parts_or_the_old_defaults():
    """``view.bid`` and the other flat names: the part's value, or the default without the phase."""
    rs = Ruleset.load(str(ROOT / "games/tysiac.yaml"))
    m = Match(rs, 1)
    v = m.view(m.to_move())
    auction = v.part("auction")
    assert auction is not None and (v.auction, v.bid, v.bidder, v.seller) == attrs.astuple(auction)
    assert v.layout is None and v.opening_rank == -1 and v.pool == 0 and v.exposed == () and v.drawn == ()
    plain = Match(Ruleset.load(str(ROOT / "kierki_standard.yaml")), 1)
    w = plain.view(plain.to_move())
    assert w.part("auction") is None and (w.auction, w.bid, w.bidder, w.seller) == ((), 0, -1, -1)
    with pytest.raises(AttributeError):
        w.bid = 5  # type: ignore[misc]  # read-only
    assert SeatView.from_json(v.to_json()) == v and SeatView.from_json(w.to_json()) == w
    flat = {k: x for k, x in v.to_json().items() if k != "parts"}  # a document of the flat view
    back = SeatView.from_json(flat)
    assert {k: x for k, x in back.to_json().items() if k != "parts"} == flat and back.part("auction") is not None
    assert SeatView.from_json(dict(flat, bid=130)).bid == 130
    with pytest.raises(ValueError, match="disagree"):
        SeatView.from_json(dict(v.to_json(), bid=130))  # the parts say 0


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
