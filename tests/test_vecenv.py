"""The batched environment (kierki_dsl.vecenv, _cstep.Batch): the same deals, legal masks,
observations and rewards as the PettingZoo environment (one deal at a time, adapters'
GameState) for the same seeds and actions; what it declines; its generator is Python's."""

from __future__ import annotations

import os
import random

import pytest

from conftest import ROOT, RULESETS

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from kierki_dsl.interpreter import stepper  # noqa: E402

if not stepper.available() and not os.environ.get("KIERKI_REQUIRE_C"):
    pytest.skip(
        "the compiled step core is not built here (KIERKI_REQUIRE_C=1 makes this fail)", allow_module_level=True
    )

from kierki_dsl.pettingzoo import env  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402
from kierki_dsl.vecenv import NotBatched, VecDeals  # noqa: E402

HEARTS = RULESETS / "games" / "hearts.yaml"
KIERKI = RULESETS / "kierki_standard.yaml"


def test_the_generator_is_pythons():
    from kierki_dsl.interpreter import _cstep

    for seed in (0, 1, 12345, 2**32 + 5, 2**64 - 1):
        r = random.Random(seed)
        assert _cstep.random_floats(seed, 1500) == [r.random() for _ in range(1500)]


def _same_as_pettingzoo(path, deal: int, n: int, seed: int, steps: int) -> int:
    """Step ``n`` batched deals and ``n`` PettingZoo environments side by side with the same
    random legal actions, comparing seat on turn, mask, observation and rewards at every step;
    the number of deals that ended."""
    rs = Ruleset.load(str(path))
    deals = VecDeals(rs, n, deal)
    envs = [env(rs, deal=deal) for _ in range(n)]
    for i, e in enumerate(envs):
        e.reset(seed=seed + i)
    out = deals.reset(seed)
    rng = random.Random(99)
    ended = 0
    for _ in range(steps):
        actions = np.zeros(n, np.int64)
        for i, e in enumerate(envs):
            agent = e.agent_selection
            seat = e.possible_agents.index(agent)
            got = e.observe(agent)
            assert out.player[i] == seat
            assert np.array_equal(out.mask[i], got["action_mask"])
            assert np.array_equal(out.obs[i], got["observation"])
            actions[i] = rng.choice(np.flatnonzero(got["action_mask"]))
        out = deals.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            rewards = [e.rewards[a] for a in e.possible_agents]
            assert list(out.rewards[i]) == rewards
            assert bool(out.done[i]) == all(e.terminations.values())
            if out.done[i]:
                ended += 1
                assert any(rewards)
                e.reset()  # the next deal from the same generator, as the batch's auto-reset
    return ended


def test_hearts_equals_the_single_deal_environment():
    assert _same_as_pettingzoo(HEARTS, 1, 4, 7, 400) >= 20  # passing left; about six deals each


def test_openspiels_hearts_equals_the_single_deal_environment():
    """Its heart lead ban reads a played card (the queen of spades): the trick memo keys on it."""
    assert _same_as_pettingzoo(RULESETS / "games" / "hearts_openspiel.yaml", 1, 4, 3, 300) >= 12


def test_hearts_without_passing_equals_the_single_deal_environment():
    assert _same_as_pettingzoo(HEARTS, 4, 2, 11, 120) >= 2


def test_a_kierki_negative_deal_equals_the_single_deal_environment():
    assert _same_as_pettingzoo(KIERKI, 1, 4, 5, 400) >= 24  # bez lew (no tricks)


@pytest.mark.parametrize("deal", [2, 4, 7])
def test_other_kierki_negative_deals_equal_the_single_deal_environment(deal):
    assert _same_as_pettingzoo(KIERKI, deal, 2, 40 + deal, 60) >= 2


def test_an_illegal_action_is_refused_naming_the_deal_and_nothing_is_applied():
    deals = VecDeals(KIERKI, 2)
    out = deals.reset(3)
    before = [list(deals.core(i).actions) for i in range(2)]
    actions = np.array([np.flatnonzero(out.mask[0])[0], np.flatnonzero(out.mask[1] == 0)[0]], np.int64)
    with pytest.raises(ValueError, match="deal 1: action .* is not legal"):
        deals.step(actions)
    assert [list(deals.core(i).actions) for i in range(2)] == before
    with pytest.raises(ValueError, match="one action per deal"):
        deals.step(np.zeros(3, np.int64))
    for seed in (-1, 2**64 - 1):
        with pytest.raises(ValueError, match="seed must be"):
            deals.reset(seed)


def test_a_kierki_trump_deal_equals_the_single_deal_environment():
    assert _same_as_pettingzoo(KIERKI, 8, 4, 21, 300) >= 16  # atu: the trump called first


def test_deals_it_does_not_step_are_declined_saying_why():
    auction = Ruleset.load(str(RULESETS / "variants" / "auction_for_trumps.yaml"))
    atu = next(i + 1 for i, c in enumerate(auction.schedule) if getattr(c, "name", "") == "atu")
    with pytest.raises(NotBatched, match="not carried by the step core: an auction"):
        VecDeals(auction, 2, deal=atu)
    with pytest.raises(NotBatched, match="deal must be"):
        VecDeals(KIERKI, 2, deal=99)
    with pytest.raises(NotBatched, match="not carried|not a trick contract"):
        VecDeals(RULESETS / "games" / "barbu.yaml", 2, deal=1)  # a declarer's choice of contract


def test_random_opponents_play_until_the_learners_turn():
    deals = VecDeals(KIERKI, 8)
    deals.reset(1)
    out = deals.autoplay(2)
    assert (out.player == 2).all()
    done = 0
    for _ in range(200):
        deals.step(deals.random_actions())
        out = deals.autoplay(2)
        assert (out.player == 2).all()
        done += int(out.done.sum())
        assert (out.rewards[out.done].sum(axis=1) != 0).all()
    assert done >= 8


def test_the_gymnasium_vector_env():
    pytest.importorskip("gymnasium")
    from kierki_dsl.gymvec import KierkiVectorEnv

    venv = KierkiVectorEnv(KIERKI, num_envs=4, seat=0)
    obs, info = venv.reset(seed=0)
    assert obs["observation"].shape == (4, venv.deals.obs_size)
    assert venv.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    total, ended = 0.0, 0
    for _ in range(60):
        actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        obs, reward, terminated, truncated, info = venv.step(actions)
        assert reward.shape == (4,) and not truncated.any()
        total += float(reward.sum())
        ended += int(terminated.sum())
    assert ended >= 4 and total < 0  # bez lew: every trick costs
    venv.close()


def test_the_example_learns_to_beat_random_play():
    """The policy-gradient example, short: after training, its seat loses fewer points on
    bez lew than random play does on the same deals (fixed seeds), by a clear margin."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pg", ROOT / "examples" / "vecenv_policy_gradient.py")
    pg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pg)
    random_score, learned_score = pg.main(["--iterations", "30", "--envs", "64", "--eval-deals", "512", "--quiet"])
    assert learned_score > random_score + 20  # points per deal: a trick of bez lew costs 20
