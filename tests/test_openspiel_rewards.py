"""``kierki_dsl.openspiel``'s rewards through whole matches: after every action, what the last
decision changed of the returns (a deal's scores as it ends), kept through the chance nodes that
follow until the next decision, whether the deal steps on the compiled core (Hearts) or on the
interpreter with declarer's choices (Barbu); a deal on the core that follows a payment steps
directly on it again after its first decision; an illegal decision changes nothing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

import kierki_dsl.openspiel as kos  # noqa: E402
from kierki_dsl.interpreter import stepper  # noqa: E402
from kierki_dsl.interpreter.actions import IllegalAction  # noqa: E402

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


@pytest.mark.parametrize("name", ["games/hearts_openspiel.yaml", "games/barbu.yaml"])
def test_rewards_are_what_the_last_decision_paid(name):
    game = kos.load(str(RULESETS / name), scope="match", max_deals=4)
    state, rng = game.new_initial_state(), random.Random(2)
    expected = [0.0] * game.num_players()
    paid = fast_again = 0
    while not state.is_terminal():
        chance = state.is_chance_node()
        before = state.returns()
        state.apply_action(rng.choice(state.legal_actions()))
        if not chance:
            expected = [b - a for a, b in zip(before, state.returns())]
            paid += any(expected)
        assert state.rewards() == expected
        fast_again += state.core.k > 0 and state.core._fast is not None
    assert paid >= 3
    if "hearts" in name and stepper.available():
        assert fast_again > 0


def test_an_illegal_first_decision_after_a_payment_changes_nothing():
    game = kos.load(str(RULESETS / "games" / "hearts_openspiel.yaml"), scope="match", max_deals=3)
    state, rng = game.new_initial_state(), random.Random(4)
    while state.core.k == 0 or state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    paid, legal = state.rewards(), state.legal_actions()
    assert any(paid)
    with pytest.raises(IllegalAction):
        state.core.apply_action(next(a for a in range(52) if a not in legal))
    assert state.rewards() == paid and state.legal_actions() == legal
    state.apply_action(legal[0])
    assert not any(state.rewards())
