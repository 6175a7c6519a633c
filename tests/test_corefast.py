"""Simulation's random deals on the compiled step core (interpreter/corefast.py) give the same
matches as fastplay's Python kernels: the same seeds, the same plays, the same scores."""
from __future__ import annotations

from pathlib import Path

import pytest

from kierki_dsl.interpreter import corefast, stepper
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.simulate import FastMatch

from conftest import fast_path_sweep

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.yaml"))
SEEDS = range(12)

pytestmark = pytest.mark.skipif(not stepper.available(), reason="the step core is not built here")


def _matches(path: str, seeds, monkeypatch, use_core: bool) -> tuple:
    """(each seed's match, how many deals the core played)."""
    played = [0]
    real = corefast.core_player

    def counting(*args):
        play = real(*args) if use_core else None
        if play is None:
            return None

        def counted(*a):
            played[0] += 1
            return play(*a)

        return counted

    monkeypatch.setattr(corefast, "core_player", counting)
    rs = Ruleset.load(str(ROOT / path))
    fm = FastMatch(rs)
    return [fm.play(s) for s in seeds], played[0]


@pytest.mark.parametrize("path", fast_path_sweep(SHIPPED))
def test_the_core_plays_a_simulation_s_deals_as_the_python_kernels(path, monkeypatch):
    rs = Ruleset.load(str(ROOT / path))
    if rs.until is not None:  # matches played to a score: a few seeds keep it quick
        seeds = range(3)
    else:
        seeds = SEEDS
    on_core, played = _matches(path, seeds, monkeypatch, True)
    in_python, none = _matches(path, seeds, monkeypatch, False)
    assert none == 0
    assert on_core == in_python
    carried = [c for c in rs.contracts.values() if stepper.why_not_carried(c) is None]
    if carried and rs.until is None:
        assert played > 0, "a carried contract's deals were not played on the core"


CALL_AFTER_PASSING = """kierki: 1
name: passing then a trump call
players: 4
match: {schedule: [gra]}
contracts:
  gra:
    pass_cards: {count: 2, rotation: [left]}
    trump: {called_by: dealer, after: 13}
    score: [{per_trick: 10}]
"""


def test_an_error_s_position_is_rebuilt_with_the_passes_before_the_call(tmp_path):
    """To word a rule error the interpreter replays the core's deal: the passes first, then
    the trump the simulation drew, then the cards played."""
    import random

    from kierki_dsl.interpreter.corefast import _MaskDeal
    from kierki_dsl.interpreter.envs import seat_function
    from kierki_dsl.interpreter.match import deal_out, shuffled

    path = tmp_path / "r.yaml"
    path.write_text(CALL_AFTER_PASSING, "utf-8")
    rs = Ruleset.load(str(path))
    c = rs.contracts["gra"]
    assert c.passing is not None and c.call is not None
    dealt = deal_out(shuffled(random.Random(3), rs.deck), 0, 4)
    hands = [sum(1 << x for x in d) for d in dealt]
    compiled = stepper._compiled(c, 4, 13, 2, rs.deck)
    ctx = _MaskDeal(compiled, c, 4, rs.deck, 0, hands, 1, 1, 2, 0, seat_function(c.first_lead, 4, rs.deck), 13)
    core = stepper.Stepper(compiled.plan, ctx, hands, 0, 1, 2, c.passing.offset(1, 4))
    rng = random.Random(9)
    for _ in range(8 + 6):  # every pass, then six cards
        legal = core.legal_actions()
        core.apply_action(legal[rng.randrange(len(legal))])
    deal = ctx.interpreter(core)
    assert deal.trump == 2 and deal.hands == core.hands and deal.trick == core.trick
    assert deal.legal_actions() == core.legal_actions()
