"""A shipped phase is one module, and the catalogue of the shipped phases is the one list (issue #21 item 1).

``interpreter/phasecatalogue.py`` lists the shipped phases once: each phase's unit name and its
module. Every other list of them is made from it — the phases' registry (``phases.MODULES``),
the action numbers (``actions.NUMBERED``), a trick deal's phases before play
(``phaselist.SHIPPED``), the phases whose words ``kierki explain`` says (``Contract.phases``) and
the phases' keys of each deal type's format. Each phase's module declares all it is:

- everything a shipped phase declares — its unit, its engine, its part of the seat view, its
  format key, its action numbers and notation, its explain words, its lint codes — is defined in
  the one module its catalogue entry names; ``kierki_dsl/phases/`` holds the registry and the
  deal's end only;
- the registry's modules are the catalogue's (and the deal's end); every catalogue entry has
  exactly one unit, declared in its module; the registry refuses a unit declared elsewhere
  (shown to fail with an entry taken out, a unit declared in a module with no entry, a unit
  declared in another phase's module, an entry with no unit);
- no other module of ``interpreter/`` or ``ruleset/`` lists two or more phase modules (a source
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


def test_every_catalogue_entry_has_exactly_one_unit_in_its_module():
    units = list(_units_by_module().values())
    for p in PHASES:
        named = [u for u in units if u.name == p.name]
        assert len(named) == 1, p
        assert type(named[0]).__module__ == phasecatalogue.phase_module(p.name).__name__, p
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


def test_every_unit_declared_in_the_interpreter_is_in_the_catalogue():
    listed = {p.name for p in PHASES}
    inside = {u.name for u in phases.UNITS.values() if type(u).__module__.startswith("kierki_dsl.interpreter.")}
    assert inside == listed
    assert len({p.module for p in PHASES}) == len(PHASES)  # one module per phase


def test_an_entry_taken_out_of_the_catalogue_fails_the_registry(monkeypatch):
    monkeypatch.setattr(phasecatalogue, "PHASES", tuple(p for p in PHASES if p.name != "auction"))
    with pytest.raises(SetupError, match="'auction' is declared in kierki_dsl.interpreter.bidding.*does not list it"):
        phases.register(phases.UNITS["auction"])


def test_a_unit_declared_in_a_module_without_an_entry_fails_the_registry():
    class Mine(PhaseUnit):
        name = "mine"

    Mine.__module__ = bidding.__name__  # as if declared in the auction's module beside its own
    with pytest.raises(SetupError, match="'mine' is declared in kierki_dsl.interpreter.bidding.*does not list it"):
        phases.register(Mine())
    assert "mine" not in phases.UNITS


def test_a_unit_declared_apart_from_its_phase_fails_the_registry():
    class Auction(type(phases.UNITS["auction"])):
        pass

    with pytest.raises(SetupError, match=r"declared in (tests\.)?test_one_phase_list.*lists it in kierki_dsl.interpreter.bidding"):
        phases.register(Auction())  # declared in this test module: apart from its phase's module
    Auction.__module__ = doubling.__name__
    with pytest.raises(SetupError, match="declared in kierki_dsl.interpreter.doubling.*lists it in kierki_dsl.interpreter.bidding"):
        phases.register(Auction())  # declared in another phase's module
    assert type(phases.UNITS["auction"]).__module__ == bidding.__name__


def test_an_entry_without_a_unit_is_found(monkeypatch):
    monkeypatch.setattr(phasecatalogue, "PHASES", PHASES + (ShippedPhase("mine", "naming"),))
    assert phases.units_missing() == ["mine"]


# -- a phase is one module ------------------------------------------------------------------------


def _declared_in(value) -> str:
    """The module that defines ``value`` (a class, a function, or an instance: its class's)."""
    return getattr(value, "__module__", None) or type(value).__module__


def test_everything_a_shipped_phase_declares_is_in_its_one_module():
    for p in PHASES:
        module = phasecatalogue.phase_module(p.name)
        home = module.__name__
        unit = phases.UNITS[p.name]
        assert module.UNIT is unit and _declared_in(unit) == home, p.name  # its unit: labels, words, panel, record, bots
        if p.engine:  # its engine: legal actions, refusals, steps
            assert _declared_in(phasecatalogue.engine(p.name)) == home, p.name
        if unit.part_type is not None:  # its part of the seat view
            assert _declared_in(unit.part_type) == home, p.name
        if p.numbers:  # its action numbers and their notation
            assert module.NUMBERS and {b.phase for b in module.NUMBERS} <= {p.name} | set(actions.BETS), p.name
            assert _declared_in(module.notation) == _declared_in(module.read_notation) == home, p.name
        if hasattr(module, "KEY"):  # its part of the format and its words for ``kierki explain``
            assert module.FIELD is not None and _declared_in(module.explain) == home, p.name
        if unit.lint_codes:  # its lint codes: the module's own table
            assert unit.lint_codes is module.LINT_CODES, p.name


def test_the_phases_package_holds_the_registry_and_the_deal_s_end_only():
    assert sorted(path.name for path in (PACKAGE / "phases").glob("*.py")) == ["__init__.py", "done.py"]
    assert phases.MODULES == tuple(f"interpreter.{p.module}" for p in PHASES) + ("phases.done",)


# -- the lists made from it ----------------------------------------------------------------------


def test_the_action_numbers_are_every_numbering_module_s():
    numbering = [p for p in PHASES if hasattr(phasecatalogue.phase_module(p.name), "NUMBERS")]
    assert [p.name for p in numbering] == [p.name for p in PHASES if p.numbers]
    blocks = [b for p in numbering for b in phasecatalogue.phase_module(p.name).NUMBERS]
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
        modules = contract.phases
        assert modules == tuple(phasecatalogue.phase_module(n) for n in phasecatalogue.EXPLAINED[deal_type])
        placed = [n for names in phasecatalogue.FORMAT[deal_type].values() for n in names]
        assert sorted(placed) == sorted(phasecatalogue.EXPLAINED[deal_type])
        fields = load_builtin_types()[deal_type].fields
        for module in modules:
            assert fields[module.KEY] is module.FIELD, (deal_type, module.__name__)


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


# -- nobody else lists the phases' modules -------------------------------------------------------

#: The modules that may list the phases' modules: the catalogue itself.
LISTERS = {"interpreter/phasecatalogue.py"}


def _phase_modules() -> set:
    """The short names of the shipped phases' modules."""
    return {p.module for p in PHASES}


def modules_listed(source: str, modules: set) -> list:
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


def test_no_other_module_lists_the_phase_modules():
    modules = _phase_modules()
    listing = {}
    for folder in ("interpreter", "ruleset"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            rel = f"{folder}/{path.name}"
            if rel not in LISTERS and (found := modules_listed(path.read_text("utf-8"), modules)):
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
    assert modules_listed(source, modules) == []
    assert modules_listed(source + line, modules) != []


def test_the_catalogue_is_read_through_its_functions():
    assert phasecatalogue.entry("auction").module == "bidding"
    assert phasecatalogue.entry("done") is None
    assert phasecatalogue.phase_module("auction") is bidding
    assert [p.name for p in phasecatalogue.in_order(("double", "pass"))] == ["double", "pass"]


# -- what each module declares -------------------------------------------------------------------

#: The notation of a shipped phase's actions written out (``bid:120``, ``call:H``, ``done``...).
NOTATION_WRITTEN = r'"(pass|done|accept|refuse|decline|(bid|call|choose|double|redouble|expose|rank):[^"]*)"'


def test_each_numbering_module_writes_and_reads_its_own_notation():
    for p in PHASES:
        if p.numbers:
            module = phasecatalogue.phase_module(p.name)
            for block in module.NUMBERS:  # each number of its blocks (a sample of the bids) read back
                for a in [*range(block.base, block.end, max(1, block.size // 400)), block.end - 1]:
                    assert module.read_notation(module.notation(a)) == a, (p.name, a)
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
