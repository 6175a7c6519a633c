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
