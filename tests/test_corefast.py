"""Simulation's random deals on the compiled step core (interpreter/corefast.py) give the same
matches as fastplay's Python kernels: the same seeds, the same plays, the same scores."""
from __future__ import annotations

from pathlib import Path

import pytest

from kierki_dsl.interpreter import corefast, stepper
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.simulate import FastMatch

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


@pytest.mark.parametrize("path", SHIPPED)
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
