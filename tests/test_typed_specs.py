"""Validated specs are typed: every object the schema describes is a frozen attrs ``Spec`` with
its defaults applied, lists are tuples, and no dict is left where the schema has an object, so
a consumer cannot (and need not) call ``.get(key, default)`` on one."""
from __future__ import annotations

import glob

import attrs
import pytest

from kierki_dsl.ruleset.format import ruleset_schema
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.spec.schema import (
    Expr, ExprSource, List, MapOf, Obj, OneOf, Spec, Tagged, attr_name,
)

RULESETS = sorted(glob.glob("rulesets/**/*.yaml", recursive=True))


def untyped(value, kind, path: str = "ruleset") -> list:
    """Where ``value`` is not what ``kind`` promises a consumer: a list of (path, problem)."""
    if value is None:
        return []
    if isinstance(kind, OneOf):
        alts = [k for k in (kind.scalar, kind.seq, kind.mapping) if k is not None]
        found = [untyped(value, k, path) for k in alts]
        return [] if any(not f for f in found) else found[0]
    if isinstance(kind, Tagged):
        if not isinstance(value, Spec):
            return [(path, f"{type(value).__name__} where the schema has an object")]
        return untyped(value, kind.variants[getattr(value, kind.key)], path)
    if isinstance(kind, Obj):
        if not isinstance(value, Spec) or not attrs.has(type(value)):
            return [(path, f"{type(value).__name__} where the schema has an object")]
        if type(value).__setattr__ is object.__setattr__ or hasattr(value, "get"):
            return [(path, "a spec that can change or answers .get")]
        problems = []
        for key, field in kind.fields.items():
            if not hasattr(value, attr_name(key)):
                problems.append((f"{path}.{key}", "missing"))
                continue
            got = getattr(value, attr_name(key))
            if got is None and not field.required and field.default is not None:
                problems.append((f"{path}.{key}", "default not applied"))
            problems += untyped(got, field.kind, f"{path}.{key}")
        return problems
    if isinstance(kind, List):
        if not isinstance(value, tuple):
            return [(path, f"{type(value).__name__} where the schema has a list (a tuple)")]
        return [p for i, v in enumerate(value) for p in untyped(v, kind.item, f"{path}[{i}]")]
    if isinstance(kind, MapOf):  # user-chosen names: a dict by design
        if not isinstance(value, dict):
            return [(path, f"{type(value).__name__} where the schema has a map of names")]
        return [p for k, v in value.items() for p in untyped(v, kind.value, f"{path}.{k}")]
    if isinstance(kind, Expr):
        return [] if isinstance(value, ExprSource) else [(path, f"{type(value).__name__} where an expression goes")]
    if isinstance(value, (dict, list)):
        return [(path, f"a {type(value).__name__} where the schema has a scalar")]
    return []


def _whole_spec(path: str):
    """The validated spec of a whole ruleset file, as ``Ruleset.load`` builds it."""
    from kierki_dsl.diagnostics import Diagnostics
    from kierki_dsl.ruleset.model import load_tree
    from kierki_dsl.spec.schema import Ctx

    diags = Diagnostics()
    _, root, _ = load_tree(path, diags)
    return ruleset_schema().load(root, Ctx(path, diags), (), "ruleset")


@pytest.mark.parametrize("path", RULESETS)
def test_every_spec_of_a_shipped_ruleset_is_typed(path):
    spec = _whole_spec(path)
    assert untyped(spec, ruleset_schema()) == []
    rs = Ruleset.load(path)
    assert rs.specs and all(isinstance(s, Spec) for s in rs.specs.values())
    assert isinstance(rs.parts, tuple)


def test_the_walk_finds_a_dict_or_list_left_in_a_spec():
    """The check above can fail: a dict where the schema has an object, or a list, is found."""
    spec = _whole_spec("rulesets/kierki_standard.yaml")
    name, contract = next(iter(spec.contracts.items()))
    as_dict = dict(contract.items())
    broken = attrs.evolve(spec, contracts={**spec.contracts, name: as_dict})
    assert any("where the schema has an object" in why for _, why in untyped(broken, ruleset_schema()))
    listed = attrs.evolve(spec, match=attrs.evolve(spec.match, schedule=list(spec.match.schedule)))
    assert any("tuple" in why for _, why in untyped(listed, ruleset_schema()))
    undefaulted = attrs.evolve(spec, match=attrs.evolve(spec.match, series=None))
    assert ("ruleset.match.series", "default not applied") in untyped(undefaulted, ruleset_schema())


def test_specs_are_frozen_and_have_no_get():
    spec = _whole_spec("rulesets/kierki_standard.yaml")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        spec.match.series = 2
    assert not hasattr(spec, "get") and not hasattr(spec.match, "get")


def test_defaults_are_applied_and_from_is_from_():
    spec = _whole_spec("rulesets/kierki_standard.yaml")
    assert spec.players == 4 and spec.match.deals_per_dealer == 1 and spec.match.parts
    contract = next(iter(spec.contracts.values()))
    assert contract.type == "tricks" and contract.follow_suit is True and contract.restrictions == ()
    variants = [p for p in RULESETS if "choose" in open(p, encoding="utf-8").read()]
    assert variants
    choose = next(e.choose for p in variants for e in _whole_spec(p).match.schedule
                  if not isinstance(e, str) and e.choose is not None)
    assert isinstance(choose.from_, tuple) and choose.once_each in (True, False)


def _protocol_members() -> set:
    from kierki_dsl.interpreter.protocol import CompiledContract, DealState

    names = set()
    for proto in (DealState, CompiledContract):
        names |= {n for n in vars(proto) if not n.startswith("_")} | set(proto.__annotations__)
    return names


def test_no_module_probes_a_declared_hook():
    """Every hook the program calls on a deal state or a compiled contract is declared in
    ``interpreter/protocol.py`` (with defaults in ``catalogue.Deal``/``catalogue.Contract``),
    so nothing asks ``getattr(x, "hook", None)`` or ``hasattr(x, "hook")`` about one."""
    import pathlib
    import re

    members = _protocol_members()
    assert {"ended_early", "record_passes", "pass_offset", "call", "passing", "fixed_total", "turn_word"} <= members
    probe = re.compile(r"""\b(?:getattr|hasattr)\(\s*[\w.]+\s*,\s*["'](\w+)["']""")
    found = []
    for path in sorted(pathlib.Path("kierki_dsl").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path}:{n}: {m}" for m in probe.findall(line) if m in members]
    assert found == []
    assert probe.findall('x = getattr(state, "ended_early", False)') == ["ended_early"]  # the scan sees a probe


def test_every_deal_state_and_contract_has_every_declared_member():
    import random

    from kierki_dsl.interpreter.match import deal_out, shuffled
    from kierki_dsl.interpreter.protocol import CompiledContract, DealState

    def members(proto) -> set:
        return {n for n in vars(proto) if not n.startswith("_")} | set(proto.__annotations__)

    for path in ("rulesets/kierki_standard.yaml", "rulesets/games/barbu.yaml", "rulesets/games/hearts.yaml",
                 "rulesets/variants/auction_for_trumps.yaml"):
        rs = Ruleset.load(path)
        for contract in rs.contracts.values():
            dealt = deal_out(shuffled(random.Random(1), rs.deck), 0, rs.players, rs.direction)
            state = contract.new_deal(rs.players, rs.deck, 0, dealt, rs.direction, 1)
            assert [m for m in members(CompiledContract) if not hasattr(contract, m)] == [], contract.name
            assert [m for m in members(DealState) if not hasattr(state, m)] == [], contract.name
            assert isinstance(contract, CompiledContract) and isinstance(state, DealState)
