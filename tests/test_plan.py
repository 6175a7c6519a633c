"""One plan under every engine (issue #21 item 4): ``plan.compile_plan`` decides from an
allow-list of the contract spec's fields whether the compiled engines carry a contract; every
field is classified (a new one fails here until it is); the generated kernels take a subset of
what the plan carries; and one module owns the random-draw protocol."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kierki_dsl.interpreter import draws, stepper, tricks
from kierki_dsl.interpreter.plan import CARRIED, DECLINED, SPEC_FIELDS, WORDS, Declined, Plan, compile_plan
from kierki_dsl.ruleset.format import COMMON_CONTRACT_FIELDS
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.yaml"))


def test_every_field_of_the_contract_spec_is_classified():
    """A field a trick contract may hold that the plan does not classify fails here: whoever
    adds it says whether the compiled engines carry it (CARRIED), decline it (DECLINED) or
    never read it (WORDS)."""
    spec = set(COMMON_CONTRACT_FIELDS) | set(tricks.FIELDS)
    assert spec == set(SPEC_FIELDS), (sorted(spec - set(SPEC_FIELDS)), sorted(set(SPEC_FIELDS) - spec))
    assert set(SPEC_FIELDS.values()) == {WORDS, CARRIED, DECLINED}


def _reference(contract):
    """The decision as the engines made it before the plan (each with its own list)."""
    if not isinstance(contract, tricks.TrickContract):
        return "not a trick contract"
    for part in ("stock", "widow", "declarations", "auction", "doubling", "exposure"):
        if getattr(contract, part):
            return part
    return None


@pytest.mark.parametrize("path", SHIPPED)
def test_the_plan_decides_for_every_engine(path):
    """Every shipped contract: the plan carries what the engines carried before; the core's
    ``why_not_carried`` is the plan's reason; the generated kernels (``fast_player``) play only
    contracts the plan carries, and where the plan says they may."""
    rs = Ruleset.load(str(ROOT / path))
    for name, c in sorted(rs.contracts.items()):
        if c is None:
            continue
        got = compile_plan(c)
        assert isinstance(got, (Plan, Declined))
        assert (got.reason if isinstance(got, Declined) else None) == stepper.why_not_carried(c)
        assert (_reference(c) is None) == isinstance(got, Plan), name
        fast = c.fast_player(rs.players, rs.hand_size, rs.deck) if isinstance(c, tricks.TrickContract) else None
        if fast is not None:
            assert isinstance(got, Plan) and got.fast_kernel_reason(rs.players, rs.hand_size, rs.deck) is None, name


def test_a_declined_field_declines_the_contract():
    trix = Ruleset.load(str(ROOT / "rulesets/games/trix.yaml"))
    reasons = {compile_plan(c).reason for c in trix.contracts.values()
               if c is not None and isinstance(compile_plan(c), Declined)}
    assert "exposures" in reasons


DRAW = re.compile(r"getrandbits\(32\)|grb\(32\)")


def test_one_module_owns_the_draw_protocol():
    """Every place that turns random bits into a choice is the draw module, or one of the hot
    loops it lists as writing the draw out (``draws.INLINED``)."""
    pkg = ROOT / "kierki_dsl"
    drawing = {str(p.relative_to(pkg)) for p in pkg.rglob("*.py") if DRAW.search(p.read_text("utf-8"))}
    assert drawing <= {"interpreter/draws.py"} | set(draws.INLINED), sorted(drawing)
    assert "32" in draws.BELOW and (draws.BELOW.format(n=7) == "(grb(32) * 7) >> 32")
    c = (pkg / "interpreter/_cstep.c").read_text("utf-8")
    assert "(bits * (unsigned long long)n) >> 32" in c  # the core's draw: the same protocol


def test_the_draws_are_the_protocol():
    import random

    rng = random.Random(5)
    bits = random.Random(5).getrandbits(32)
    assert draws.draw(rng, 13) == (bits * 13) >> 32
    assert draws.kth(0b101100, 1) == 3 and draws.kth(0b101100, 2) == 5
    assert draws.draws_for_play(1, True) is False and draws.draws_for_play(1, False) is True
    picks = draws.pass_choices([0b1111, 0b11110000], [2, 1], random.Random(1).getrandbits)
    assert [len(p) for p in picks] == [2, 1] and all(0 <= c < 4 for c in picks[0]) and 4 <= picks[1][0] < 8


# -- exactly two engines: the interpreter and the compiled core, both from the plan -------------

#: The modules that read a trick contract's rules (``play_rules``, the legality kernel, the static
#: scoring tables) themselves, and as what. Every other way of playing a deal — the compiled core
#: (``stepper``, ``corefast``), the generated-Python kernels (``fastplay``, ``trickgen``: the plan
#: written out in Python), the records of fast matches (``fastrecord``), simulation — reads them
#: through the plan (``Plan.tables``) or steps the interpreter.
RULE_READERS = {
    "interpreter/tricks.py": "the contract: its rules gathered once (play_rules)",
    "interpreter/trickstate.py": "the interpreter, the reference engine",
    "interpreter/plan.py": "the plan: its Tables, from which the core's and the kernels' tables are made",
    "interpreter/trickchecks.py": "lint's checks of the rules",
    "interpreter/trickkernel.py": "the bots' hints: what a card is worth, whether tricks pay",
    "interpreter/solver.py": "the solver's tables for pimc's search (it steps no deal)",
}
RULE_READS = re.compile(r"\.play_rules\(|\.legality\(|\b(?!plan\b)\w+\.tables\(\s*[\w.]+\s*,")


def rule_readers(pkg: Path = ROOT / "kierki_dsl") -> set:
    """The modules of ``pkg`` that read a trick contract's rules themselves (``RULE_READS``)."""
    return {
        str(p.relative_to(pkg))
        for p in pkg.rglob("*.py")
        if any(RULE_READS.search(line.split("#", 1)[0]) for line in p.read_text("utf-8").splitlines())
    }


def test_only_the_interpreter_and_the_plan_read_a_contract_s_rules():
    """Exactly two engines: nothing steps or plays a trick deal from a contract's rules but the
    interpreter; the core and the generated kernels take their tables from the plan."""
    assert rule_readers() == set(RULE_READERS), sorted(rule_readers() ^ set(RULE_READERS))
    engines = {"interpreter/stepper.py", "interpreter/corefast.py", "interpreter/fastplay.py",
               "interpreter/trickgen.py", "fastrecord.py", "simulate.py", "vecenv.py"}
    assert not engines & rule_readers()


def test_the_search_finds_a_kernel_that_reads_the_contract(tmp_path):
    """The scan above fails on a kernel that builds its tables from the contract again."""
    pkg = tmp_path / "kierki_dsl"
    (pkg / "interpreter").mkdir(parents=True)
    src = (ROOT / "kierki_dsl/interpreter/fastplay.py").read_text("utf-8")
    assert "interpreter/fastplay.py" not in rule_readers() and not RULE_READS.search(src)
    (pkg / "interpreter/fastplay.py").write_text(src.replace(
        "tables = {t: plan.tables(players, tricks, t, deck) for t in trumps}",
        "tables = {t: plan.contract.tables(tricks, t, players) for t in trumps}"), "utf-8")
    assert rule_readers(pkg) == {"interpreter/fastplay.py"}


def _zeroed(tables):
    """``tables`` scoring nothing: no trick points, no card points."""
    import attrs

    values = tuple(v if v is None else ((0,) * 52, v[1]) for v in tables.values)
    return attrs.evolve(tables, points=(0,) * len(tables.points), cards=(), values=values)


def test_the_core_and_the_kernels_play_from_the_plan_s_tables(monkeypatch):
    """Both compiled engines score what ``Plan.tables`` says: with the plan's tables of Kierki's
    bez lew made to score nothing, the core and the generated kernels score 0 in every deal
    (they scored before). A kernel with tables of its own would still score."""
    import random

    from kierki_dsl.interpreter.corefast import core_player
    from kierki_dsl.interpreter.match import deal_masks

    def scores(c, rs):
        kernel = c.fast_player(rs.players, rs.hand_size, rs.deck)
        core = core_player(c, rs.players, rs.hand_size, rs.deck)
        assert kernel is not None and (core is not None or not stepper.available())
        cards = [x for x in range(52) if rs.deck >> x & 1]
        got = []
        for seed in range(4):
            hands = deal_masks(random.Random(seed), cards, 0, 4, 1)
            got.append(tuple(kernel(list(hands), 1, -1, random.Random(seed).getrandbits)))
            if core is not None:
                got.append(tuple(core(0, list(hands), 1, -1, -1, 1, random.Random(seed).getrandbits)[0]))
        return got

    def bez_lew():
        rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
        return rs.contracts["bez_lew"], rs

    assert any(any(s) for s in scores(*bez_lew()))
    tables = Plan.tables
    monkeypatch.setattr(Plan, "tables", lambda self, *a: (lambda t: t and _zeroed(t))(tables(self, *a)))
    stepper._compiled.cache_clear()  # the core's tables of contracts equal to these: made again
    try:
        assert all(s == (0, 0, 0, 0) for s in scores(*bez_lew()))
    finally:
        stepper._compiled.cache_clear()
