"""The heuristic player's whole-deal fast path plays as the step-by-step heuristic player:
the same cards in the same order, the same trump calls, first seats and scores, deal by
deal and match by match, on every shipped ruleset whose schedule it covers."""
from __future__ import annotations

from pathlib import Path

import pytest

from kierki_dsl.cards import card_str
from kierki_dsl.interpreter.actions import PASS
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.players.heuristic import FastHeuristic
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.simulate import FastMatch
from conftest import fast_path_sweep
from test_fast_vs_step import VARIANTS, variant

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.yaml"))
MATCHES = 3


def _row(r) -> tuple:
    return (r.contract.name, r.dealer, r.first, r.caller, r.trump, tuple(r.scores), r.ended_early, r.blocked, r.bidder)


@pytest.mark.parametrize("path", fast_path_sweep(SHIPPED))
def test_heuristic_fast_path_plays_as_the_heuristic_player(path):
    _agree(path, Ruleset.load(str(ROOT / path)))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_heuristic_fast_path_agrees_on_contracts_the_shipped_rulesets_lack(tmp_path, name):
    _agree(name, variant(tmp_path, name))


def _agree(path, rs):
    """Heuristic matches of ``rs`` on the fast path play as the step-by-step heuristic players."""
    fast = FastMatch(rs, FastHeuristic)
    if not fast.covers:
        pytest.skip(f"{path}: a declarer's choice in the schedule (the interpreter plays these matches)")
    compiled = 0
    for seed in range(MATCHES):
        runner = MatchRunner(rs, [make_player("heuristic") for _ in range(rs.players)], seed)
        results = list(runner.deals())
        first, rows, totals = fast.play(seed)
        where = f"{path}, seed {seed}"
        assert first == runner.first_dealer, where
        assert [tuple(row) for row in rows] == [_row(r) for r in results], where
        assert totals == tuple(results[-1].totals), where
        for r in results:  # card by card, where the deal has a fast path
            deal = r.contract.fast_deal(rs.players, rs.hand_size, rs.deck, rs.direction, FastHeuristic)
            if deal is None:
                continue
            compiled += 1
            log: list = []
            masks = [sum(1 << c for c in cards) for cards in r.dealt]
            deal(r.dealer, masks, r.number, None, log, [list(cards) for cards in r.dealt])
            # a layout's kernel logs its passes too: every action of play
            assert ["pass" if c == PASS else card_str(c) for c in log] == list(r.plays), f"{where}, deal {r.number}"
    if compiled == 0:
        pytest.skip(f"{path}: no contract has a fast path for the heuristic (the interpreter plays them)")


def test_every_deal_of_the_standard_ruleset_has_the_heuristic_fast_path():
    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    assert FastMatch(rs, FastHeuristic).covers
    for name, c in rs.contracts.items():
        assert c.fast_deal(rs.players, rs.hand_size, rs.deck, rs.direction, FastHeuristic) is not None, name
