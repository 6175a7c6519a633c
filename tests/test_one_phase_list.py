"""A shipped phase is one unit, and the registry of units is the one list (issue #21 item 1).

``interpreter/phasecatalogue.py`` lists the shipped phases once: each phase's unit name and its
engine half. Every other list of them is made from it — the action numbers
(``actions.NUMBERED``), a trick deal's phases before play (``phaselist.SHIPPED``), the phases whose
words ``kierki explain`` says (``Contract.phases``) and the phases' keys of each deal type's
format. Each unit names its engine half and the phases' registry holds the two to the catalogue:

- the registry's modules are the catalogue's units (and the deal's end); every catalogue entry
  has exactly one unit, naming the half the entry lists; every unit that names an engine half
  is in the catalogue (shown to fail with an entry taken out, a unit with
  no entry, an entry with no unit);
- no other module of ``interpreter/`` or ``ruleset/`` lists two or more engine halves (a source
  scan, shown to fail when such a list is put back).
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import attrs
import pytest

from kierki_dsl import phases
from kierki_dsl.exits import SetupError
from kierki_dsl.interpreter import actions, bidding, doubling, layout, phasecatalogue, phaselist, tricks
from kierki_dsl.interpreter.catalogue import load_builtin_types
from kierki_dsl.interpreter.numbering import assemble
from kierki_dsl.interpreter.phasecatalogue import PHASES, ShippedPhase
from kierki_dsl.phases import PhaseUnit

PACKAGE = Path(__file__).resolve().parent.parent / "kierki_dsl"


def _units_by_module() -> dict:
    """the module of each phase (``phases.MODULES``) -> its ``UNIT`` (as the registry loads them)."""
    return {m: importlib.import_module(f"kierki_dsl.{m}").UNIT for m in phases.MODULES}


# -- the catalogue and the units -----------------------------------------------------------------


def test_every_catalogue_entry_has_exactly_one_unit_naming_its_half():
    units = list(_units_by_module().values())
    for p in PHASES:
        named = [u for u in units if u.name == p.name]
        assert len(named) == 1, p
        assert phases.engine_half_of(named[0]) == phasecatalogue.half(p.name).__name__, p
        assert phases.UNITS[p.name] is named[0]
    assert phases.units_missing() == []


def test_the_registry_s_modules_are_the_catalogue_s():
    # every module of ``phases/`` that declares a unit is loaded by the registry (none left out
    # of the catalogue), and each holds the unit of its catalogue entry, in the catalogue's order
    declaring = {
        f"{package}.{path.stem}"
        for package in ("phases", "interpreter")
        for path in (PACKAGE / package).glob("*.py")
        if re.search(r"^UNIT\s*=", path.read_text("utf-8"), re.M)
    }
    assert declaring == set(phases.MODULES)
    assert [u.name for u in _units_by_module().values()] == [p.name for p in PHASES] + ["done"]


def test_every_unit_with_an_engine_half_is_in_the_catalogue():
    listed = {p.name for p in PHASES}
    with_half = {u.name for u in _units_by_module().values() if phases.engine_half_of(u) is not None}
    assert with_half == listed
    assert len({p.half for p in PHASES}) == len(PHASES)  # one half per phase


def test_an_entry_taken_out_of_the_catalogue_fails_the_registry(monkeypatch):
    monkeypatch.setattr(phasecatalogue, "PHASES", tuple(p for p in PHASES if p.name != "auction"))
    with pytest.raises(SetupError, match="'auction' names kierki_dsl.interpreter.bidding engine half.*does not list"):
        phases.register(phases.UNITS["auction"])


def test_a_unit_without_an_entry_fails_the_registry():
    class Mine(PhaseUnit):
        name = "mine"
        engine_half = bidding

    with pytest.raises(SetupError, match="'mine' names kierki_dsl.interpreter.bidding engine half"):
        phases.register(Mine())
    assert "mine" not in phases.UNITS


def test_a_unit_naming_another_half_fails_the_registry():
    class Auction(type(phases.UNITS["auction"])):
        engine_half = doubling

    with pytest.raises(SetupError, match="lists kierki_dsl.interpreter.bidding"):
        phases.register(Auction())
    assert phases.engine_half_of(phases.UNITS["auction"]) == bidding.__name__


def test_an_entry_without_a_unit_is_found(monkeypatch):
    monkeypatch.setattr(phasecatalogue, "PHASES", PHASES + (ShippedPhase("mine", "naming"),))
    assert phases.units_missing() == ["mine"]


# -- the lists made from it ----------------------------------------------------------------------


def test_the_action_numbers_are_every_numbering_half_s():
    numbering = [p for p in PHASES if hasattr(phasecatalogue.half(p.name), "NUMBERS")]
    assert [p.name for p in numbering] == [p.name for p in PHASES if p.numbers]
    blocks = [b for p in numbering for b in phasecatalogue.half(p.name).NUMBERS]
    assert actions.NUMBERED == assemble(actions.CARDS, actions.ADDED, *blocks)
    assert {b.phase for b in blocks} == {p.name for p in numbering}


def test_the_phases_before_play_are_the_catalogue_s_in_play_order():
    assert [str(engine.phase) for engine, _ in phaselist.SHIPPED] == list(phasecatalogue.PLAY_ORDER)
    # each names a rule a trick contract holds (``phase_list`` skips a phase whose rule it lacks)
    assert {rule for _, rule in phaselist.SHIPPED} <= set(attrs.fields_dict(tricks.TrickContract))


def test_each_deal_type_s_phases_are_the_catalogue_s():
    contracts = {"tricks": tricks.TrickContract, "layout": layout.LayoutContract}
    assert set(phasecatalogue.EXPLAINED) == set(phasecatalogue.FORMAT) == set(contracts) <= set(load_builtin_types())
    for deal_type, contract in contracts.items():
        halves = contract.phases
        assert halves == tuple(phasecatalogue.half(n) for n in phasecatalogue.EXPLAINED[deal_type])
        placed = [n for names in phasecatalogue.FORMAT[deal_type].values() for n in names]
        assert sorted(placed) == sorted(phasecatalogue.EXPLAINED[deal_type])
        fields = load_builtin_types()[deal_type].fields
        for half in halves:
            assert fields[half.KEY] is half.FIELD, (deal_type, half.__name__)


def test_format_keys_stand_where_the_catalogue_places_them():
    assert list(tricks.FIELDS)[:2] == ["pass_cards", "first_lead"]
    assert list(tricks.FIELDS)[-7:] == [
        "early_stop",
        "doubling",
        "auction",
        "exposure",
        "stock",
        "widow",
        "declarations",
    ]
    keys = list(layout.FIELDS)
    assert keys[keys.index("pass_fine") + 1] == "doubling"


# -- nobody else lists the halves ----------------------------------------------------------------

#: The modules that may list the engine halves: the catalogue itself.
LISTERS = {"interpreter/phasecatalogue.py"}


def _phase_modules() -> set:
    """The short names of the engine halves and of the engines of the phase list."""
    engines = {p.engine.rpartition(".")[0] for p in PHASES if p.engine}
    return {p.half for p in PHASES} | engines


def halves_listed(source: str, modules: set) -> list:
    """The module- and class-level assignments of ``source`` whose value names two or more of
    ``modules`` (a module imported whole, or a name imported from one): a list of phases."""
    tree = ast.parse(source)
    origin: dict = {}  # a name bound in the module -> the phase module it comes from
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            head = (node.module or "").rpartition(".")[2]
            for alias in node.names:
                if alias.name in modules and head in ("", "interpreter"):
                    origin[alias.asname or alias.name] = alias.name
                elif head in modules:
                    origin[alias.asname or alias.name] = head
    found = []
    bodies = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for body in bodies:
        for node in body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                named = {origin[n.id] for n in ast.walk(node.value) if isinstance(n, ast.Name) and n.id in origin}
                if len(named) >= 2:
                    found.append((node.lineno, ast.unparse(node)[:80]))
    return found


def test_no_other_module_lists_the_engine_halves():
    modules = _phase_modules()
    listing = {}
    for folder in ("interpreter", "ruleset"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            rel = f"{folder}/{path.name}"
            if rel not in LISTERS and (found := halves_listed(path.read_text("utf-8"), modules)):
                listing[rel] = found
    assert listing == {}


@pytest.mark.parametrize(
    "rel, line",
    [
        ("interpreter/tricks.py", "from . import passing, stock\nPHASES = (stock, passing)\n"),
        (
            "interpreter/actions.py",
            "from . import calling, naming\nX = assemble(CARDS, *calling.NUMBERS, *naming.NUMBERS)\n",
        ),
        (
            "interpreter/phaselist.py",
            "from .passing import PassEngine\nfrom .calling import CallEngine\n"
            "SHIPPED = ((PassEngine, 'passing'), (CallEngine, 'call'))\n",
        ),
    ],
)
def test_the_scan_fails_when_a_list_is_put_back(rel, line):
    source = (PACKAGE / rel).read_text("utf-8")
    modules = _phase_modules()
    assert halves_listed(source, modules) == []
    assert halves_listed(source + line, modules) != []


def test_the_catalogue_is_read_through_its_functions():
    assert phasecatalogue.entry("auction").half == "bidding"
    assert phasecatalogue.entry("done") is None
    assert phasecatalogue.half("auction") is bidding
    assert [p.name for p in phasecatalogue.in_order(("double", "pass"))] == ["double", "pass"]


# -- what each half declares ---------------------------------------------------------------------

#: The notation of a shipped phase's actions written out (``bid:120``, ``call:H``, ``done``...).
NOTATION_WRITTEN = r'"(pass|done|accept|refuse|decline|(bid|call|choose|double|redouble|expose|rank):[^"]*)"'


def test_each_numbering_half_writes_and_reads_its_own_notation():
    for p in PHASES:
        if p.numbers:
            half = phasecatalogue.half(p.name)
            for block in half.NUMBERS:  # each number of its blocks (a sample of the bids) read back
                for a in [*range(block.base, block.end, max(1, block.size // 400)), block.end - 1]:
                    assert half.read_notation(half.notation(a)) == a, (p.name, a)
                    assert actions.parse_action(actions.action_str(a)) == a, (p.name, a)
    source = (PACKAGE / "interpreter" / "actions.py").read_text("utf-8")
    assert re.findall(NOTATION_WRITTEN, source) == []
    assert re.findall(NOTATION_WRITTEN, source + '    return "bid:" + str(v)\n') != []


def test_the_bets_are_the_phases_records_keep_under_bets():
    assert actions.BETS == {u.name for u in phases.UNITS.values() if u.record_key == "bets"}
    assert [a for a in range(actions.MAX_ACTION + 1) if actions.is_bet(a)] == [
        *range(actions.DOUBLE_BASE, actions.DONE + 1),
        *range(actions.NAME_BASE, actions.NAME_BASE + 13),
        *range(actions.EXPOSE_BASE, actions.EXPOSE_BASE + 52),
    ]
