"""The PettingZoo adapter: every shipped ruleset passes PettingZoo's api_test and seed_test."""
from __future__ import annotations

import pytest

from conftest import ROOT, RULESETS

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from kierki_dsl.pettingzoo import env  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402

SHIPPED = sorted(str(p.relative_to(ROOT)) for p in RULESETS.rglob("*.yaml"))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("path", SHIPPED)
def test_api_and_seed_every_ruleset(path):
    rs = Ruleset.load(str(ROOT / path))
    api_test(env(rs), num_cycles=200)
    seed_test(lambda: env(rs), num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_information_state_observations_and_a_whole_match():
    rs = Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))
    api_test(env(rs, deal=2, information_state=True), num_cycles=300)
    e = env(RULESETS / "variants" / "six_negative_deals.yaml", scope="match")
    e.reset(seed=3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"]))
    assert list(totals.values()) == e.game.returns() and any(totals.values())


def test_an_illegal_action_names_the_rule():
    e = env(RULESETS / "games" / "hearts.yaml", deal=4)  # no passing: the two of clubs leads
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = next(a for a in range(52) if not obs["action_mask"][a])
    with pytest.raises(ValueError, match="illegal"):
        e.step(illegal)


def test_an_action_that_is_not_an_action_number_is_refused_not_cast():
    """39.5 is not the two of clubs (39), True not the two of spades: refused saying what was
    given, as are None (for a seat that is not done), a string or a list; nothing is applied."""
    import numpy as np

    e = env(RULESETS / "games" / "hearts.yaml", deal=4)  # no passing: the two of clubs (39) leads
    for action in (39.5, True, np.True_, None, "39", [39], np.nan, float("inf"), np.array(39.5), np.array(True)):
        e.reset(seed=1)
        agent, log = e.agent_selection, list(e.game.deal_log())
        with pytest.raises(ValueError, match=f"^{agent}: action .* is not an action number"):
            e.step(action)
        assert e.agent_selection == agent and list(e.game.deal_log()) == log
    for action in (39, 39.0, np.int16(39), np.array(39), np.float32(39), np.array(39.0)):
        e.reset(seed=1)
        agent = e.agent_selection
        e.step(action)
        assert e.agent_selection != agent


def test_a_render_mode_it_does_not_have_is_refused_and_step_before_reset_says_so():
    """render_mode="human" rendered nothing, silently (only "ansi" is in its metadata); step()
    before reset() said "no attribute 'agent_selection'" rather than its own message."""
    hearts = RULESETS / "games" / "hearts.yaml"
    for mode in ("human", "rgb_array", "bogus"):
        with pytest.raises(ValueError, match=f"render_mode must be None or 'ansi', got '{mode}'"):
            env(hearts, render_mode=mode)
    e = env(hearts, render_mode="ansi")
    with pytest.raises(RuntimeError, match=r"step\(\) before reset\(\)"):
        e.step(39)
    e.reset(seed=1)
    assert "deal 1" in e.render()


def test_the_mask_is_only_for_the_seat_on_turn():
    e = env(RULESETS / "kierki_standard.yaml")
    e.reset(seed=2)
    on_turn = e.agent_selection
    for agent in e.possible_agents:
        assert e.observe(agent)["action_mask"].any() == (agent == on_turn)


def test_the_example_evaluates_a_policy():
    import importlib.util

    spec = importlib.util.spec_from_file_location("duck_example", ROOT / "examples" / "pettingzoo_duck_vs_random.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    results = example.evaluate(str(RULESETS / "variants" / "jacks_only.yaml"), deal=4, episodes=30)
    duck, randoms = results[0][0], [mean for mean, _ in results[1:]]
    assert duck > max(randoms)  # ducking loses fewer jacks than random play (seeded: deterministic)
