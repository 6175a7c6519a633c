"""The batched environment (kierki_dsl.vecenv: flat deals, _vecflat.Flat, or the step core's
_cstep.Batch): the same legal masks, observations and rewards as the PettingZoo environment
(one deal at a time, adapters' GameState) given the same deals and actions; what it declines;
its deals are its generator's (interpreter/flatdeals.py's reference)."""

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

from test_cstep import BROKEN_RULES, VARIANT  # noqa: E402  (rules that fail: the step core's cases)

from kierki_dsl.pettingzoo import env  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402
from kierki_dsl.vecenv import NotBatched, VecDeals  # noqa: E402

HEARTS = RULESETS / "games" / "hearts.yaml"
KIERKI = RULESETS / "kierki_standard.yaml"
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in RULESETS.rglob("*.yaml"))


def test_the_deals_are_the_reference_generators():
    """The C dealing (_vecdeal.h, both batches) equals flatdeals.dealt drawn from DealDraws."""
    from kierki_dsl.interpreter import _vecflat
    from kierki_dsl.interpreter.flatdeals import DealDraws, dealt

    piquet = sum(((1 << 8) - 1) << (13 * s + 5) for s in range(4))  # 32 cards: 7..A of each suit
    tables = (  # (players, deck): four players and a multiple of four (dealt four a round), and not
        (4, (1 << 52) - 1),
        (4, piquet),
        (4, (1 << 52) - 1 - 1 - (1 << 13)),  # 50 cards
        (3, (1 << 52) - 1),
        (3, piquet),
        (5, (1 << 52) - 1),
    )
    for players, deck in tables:
        for seed, first, direction in ((0, None, 1), (7, 2, 1), (2**64 - 1, None, -1), (12345, 0, -1)):
            dealer_of = [(f - 1) % players for f in range(players)]
            draws = DealDraws(seed)
            want = [dealt(draws.getrandbits, deck, players, first, dealer_of, direction) for _ in range(20)]
            got = _vecflat.deals_of(seed, 20, deck, players, -1 if first is None else first, dealer_of, direction)
            assert got == [(f, d, tuple(h)) for f, d, _, h in want]
            assert all(sum(bin(h).count("1") for h in hands) == bin(deck).count("1") for _, _, hands in got)


class _Dealt:
    """A PettingZoo environment's chance generator that deals what the batch's deal ``i`` deals
    (``flatdeals.dealt`` from ``DealDraws(seed + i)``): ``random()`` picks, at each chance node,
    the outcome drawn — the first dealer, then each card in the batch's dealing order."""

    def __init__(self, rs: Ruleset, deal: int, seed: int) -> None:
        from kierki_dsl.interpreter.flatdeals import DealDraws

        self.rs, self.draws, self.picks = rs, DealDraws(seed), []
        self.dealer_of = [rs.dealer_of(f, deal - 1) % rs.players for f in range(rs.players)]

    def deal(self, e) -> None:
        """Reset ``e`` (its environment) to the next deal."""
        from kierki_dsl.interpreter.flatdeals import dealt

        rs = self.rs
        first, _, order, _ = dealt(
            self.draws.getrandbits, rs.deck, rs.players, rs.first_dealer, self.dealer_of, rs.direction
        )
        self.picks = [(first, rs.players)] if rs.first_dealer is None else []
        left = sorted(order)
        for card in order:
            self.picks.append((left.index(card), len(left)))
            left.remove(card)
        e._rng = self
        e.reset()
        assert not self.picks

    def random(self) -> float:
        k, n = self.picks.pop(0)
        return (k + 0.5) / n


def _same_as_pettingzoo(path, deal: int, n: int, seed: int, steps: int, policy=None, ended=None, lean=0) -> int:
    """Step ``n`` batched deals and ``n`` PettingZoo environments side by side, given the same
    deals (``_Dealt``) and the same legal actions (random, or ``policy(seat, legal)``),
    comparing seat on turn, mask, observation and rewards at every step (with ``lean``, every
    ``lean``-th step writes no tensors and the next comparison skips them); the number of
    deals that ended (their rewards added to ``ended`` if given)."""
    rs = path if isinstance(path, Ruleset) else Ruleset.load(str(path))
    deals = VecDeals(rs, n, deal)
    envs = [env(rs, deal=deal) for _ in range(n)]
    dealing = [_Dealt(rs, deal, seed + i) for i in range(n)]
    for e, d in zip(envs, dealing):
        d.deal(e)
    out = deals.reset(seed)
    rng = random.Random(99)
    done, tensors = 0, True
    for k in range(steps):
        actions = np.zeros(n, np.int64)
        for i, e in enumerate(envs):
            agent = e.agent_selection
            seat = e.possible_agents.index(agent)
            got = e.observe(agent)
            assert out.player[i] == seat
            assert np.array_equal(out.mask[i], got["action_mask"])
            assert not tensors or np.array_equal(out.obs[i], got["observation"])
            legal = np.flatnonzero(got["action_mask"])
            actions[i] = rng.choice(legal) if policy is None else policy(seat, legal)
        tensors = not lean or k % lean != lean - 1
        out = deals.step(actions, tensors)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            rewards = [e.rewards[a] for a in e.possible_agents]
            assert list(out.rewards[i]) == rewards
            assert bool(out.done[i]) == all(e.terminations.values())
            if out.done[i]:
                done += 1
                assert any(rewards)
                if ended is not None:
                    ended.append(rewards)
                dealing[i].deal(e)  # the next deal from the same generator, as the batch's auto-reset
    return done


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


def test_actions_in_any_integer_form_step_as_the_int64_array_and_a_column_is_refused():
    forms = [
        lambda a: a,
        lambda a: a.tolist(),
        lambda a: a.astype(np.int32),
        lambda a: np.repeat(a, 2)[::2],  # not contiguous
    ]
    seen = []
    for form in forms:
        deals = VecDeals(KIERKI, 3)
        deals.reset(11)
        for _ in range(30):
            out = deals.step(form(deals.random_actions().copy()))
        seen.append((out.obs.copy(), out.mask.copy(), out.player.copy()))
    for obs, mask, player in seen[1:]:
        assert (obs == seen[0][0]).all() and (mask == seen[0][1]).all() and (player == seen[0][2]).all()
    with pytest.raises(ValueError, match="one action per deal"):
        deals.step(deals.random_actions().reshape(3, 1))


@pytest.mark.parametrize("path,deal", [(KIERKI, 1), (RULESETS / "variants" / "early_stop.yaml", 1)])
def test_actions_that_are_not_action_numbers_are_refused_saying_so(path, deal):
    """A fraction, NaN, a bool, a string, None or a uint64 past int64 is not an action number:
    refused naming what was given, never cast to another action (0.5 to card 0, 2**63 + 5 to a
    negative number), on the flat batch and on the step core's Batch alike."""
    deals = VecDeals(path, 2, deal)
    out = deals.reset(3)
    legal = [int(np.flatnonzero(out.mask[i])[0]) for i in range(2)]
    before = [list(deals.core(i).actions) for i in range(2)]
    refused = [
        (np.array([legal[0], legal[1] + 0.5]), r"deal 1: action 0?\.?\d*\.5 is not a whole number"),
        (np.array([legal[0], np.nan]), "deal 1: action nan is not a whole number"),
        (np.array([np.inf, legal[1]]), "deal 0: action inf is not a whole number"),
        (np.array([True, False]), "actions must be integers .*got bool"),
        (np.array(["1", "2"]), "actions must be integers .*got <U1"),
        ([legal[0], None], "actions must be integers .*got object"),
        (np.array([legal[0], 2**63 + 5], np.uint64), f"deal 1: action {2**63 + 5} is not legal"),
        (np.array([1e20, legal[1]]), "deal 0: action 100000000000000000000 is not legal"),
    ]
    for actions, message in refused:
        with pytest.raises(ValueError, match=message):
            deals.step(actions)
    assert [list(deals.core(i).actions) for i in range(2)] == before
    deals.step(np.array(legal, np.float64))  # whole numbers as floats are the actions they name
    assert [list(deals.core(i).actions) for i in range(2)] == [b + [a] for b, a in zip(before, legal)]


def test_a_deal_that_is_not_a_whole_number_is_refused_not_rounded():
    for deal in (1.5, "1", None):
        with pytest.raises(ValueError, match=r"deal must be a whole number, got (1\.5|'1'|None)"):
            VecDeals(KIERKI, 2, deal=deal)
    for num_envs in (2.5, "2"):
        with pytest.raises(ValueError, match=r"num_envs must be a whole number, got (2\.5|'2')"):
            VecDeals(KIERKI, num_envs)


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


@pytest.mark.parametrize("path", [KIERKI, RULESETS / "variants" / "early_stop.yaml"])
def test_a_seat_that_is_not_at_the_table_is_refused_naming_the_range(path):
    """autoplay(1.5) and KierkiVectorEnv(seat=1.5) say which seats there are (the vector env took
    1.5 and failed at reset with a TypeError; autoplay said only "a seat expected")."""
    deals = VecDeals(path, 2, 1)
    deals.reset(1)
    for seat in (1.5, -1, 4, 2**70, "1"):
        with pytest.raises(ValueError, match=r"seat must (be 0\.\.3|be a whole number), got"):
            deals.autoplay(seat)
    assert (deals.autoplay(2).player == 2).all()
    pytest.importorskip("gymnasium")
    from kierki_dsl.gymvec import KierkiVectorEnv

    for seat in (1.5, 4):
        with pytest.raises(ValueError, match="seat must"):
            KierkiVectorEnv(path, num_envs=2, seat=seat)


def test_the_example_learns_to_beat_random_play():
    """The policy-gradient example, short: after training, its seat loses fewer points on
    bez lew than random play does on the same deals (fixed seeds), by a clear margin."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pg", ROOT / "examples" / "vecenv_policy_gradient.py")
    pg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pg)
    random_score, learned_score = pg.main(["--iterations", "30", "--envs", "64", "--eval-deals", "512", "--quiet"])
    assert learned_score > random_score + 20  # points per deal: a trick of bez lew costs 20


def _batched_deals(rs: Ruleset) -> list:
    """The first deal number of each distinct contract of ``rs`` that the batch steps."""
    out, names = [], set()
    for deal in range(1, max(1, rs.max_deals) + 1):
        name = rs.contract_at(deal - 1).name
        if name in names:
            continue
        names.add(name)
        try:
            VecDeals(rs, 1, deal)
        except NotBatched:
            continue
        out.append(deal)
    return out


@pytest.mark.parametrize("path", SHIPPED)
def test_every_contract_it_steps_equals_the_single_deal_environment(path):
    """Every distinct contract of a shipped ruleset that the batch does not decline: two deals
    stepped beside the PettingZoo environment through a whole deal and into the next."""
    rs = Ruleset.load(str(ROOT / path))
    for deal in _batched_deals(rs):
        steps = 2 * (bin(rs.deck).count("1") + 16)  # a whole deal with passing, calls and the next
        assert _same_as_pettingzoo(rs, deal, 2, 100 + deal, steps) >= 2, (path, deal)


def test_hearts_first_lead_and_moon_are_keyed_in_c():
    """Hearts asks Python once a deal for nothing: its first lead (the holder of the two of
    clubs, after the passing) and shooting the moon are memoised in C on what the plan says
    they read; the memo answers as Python does (the equality tests above step through both)."""
    from kierki_dsl.interpreter.plan import Keyed, plan_of

    rs = Ruleset.load(str(HEARTS))
    plan = plan_of(rs.contract_at(0))
    lead, seats = plan.lead_key(), plan.seat_key(rs.deck)
    assert isinstance(lead, Keyed) and lead.holders == 1 << 39 and not lead.dealer  # holder(2C)
    hearts_and_queen = 0x1FFF << 13 | 1 << 10  # card 13 * suit + rank: spades 0, hearts 1
    assert isinstance(seats, Keyed) and seats.atoms == (hearts_and_queen,) and not seats.won
    assert VecDeals(rs, 2, 1).python_paths == []


MOON = """
kierki: 1
name: Keyed seat scoring
players: 4
match: {schedule: [hand], until: deals_played >= 1}
contracts:
  hand:
    en: Keyed
    pass_cards: {count: 2, rotation: [left]}
    first_lead: if holder(QS) == dealer then left(dealer) else holder(2C)
    score:
      - per_card: card.suit == hearts
        points: -1
      - per_seat: >
          if taken(card.suit == hearts or card == QS) == 14 then 26
          else if most_taken(card.suit == hearts or card == QS) == 14 then -26
          else if taken(card == QS) == 1 and tricks_taken > 3 and dealer == seat then 12
          else if taken(card == QS) == 1 and tricks_taken > 3 then 10
          else if most_taken(card.rank == A) >= 3 then -2 else 0
"""


def test_seat_scoring_reading_the_dealer_tricks_and_several_card_sets_equals_the_single_deal_environment(tmp_path):
    """Seat scoring counting taken cards of three overlapping sets, tricks won and the dealer,
    and a first lead reading two cards' holders and the dealer: keyed in C (the dealer from
    the batch's book), equal to the PettingZoo environment step by step."""
    from kierki_dsl.interpreter.plan import Keyed, plan_of

    path = tmp_path / "keyed.yaml"
    path.write_text(MOON)
    rs = Ruleset.load(str(path))
    plan = plan_of(rs.contract_at(0))
    lead, seats = plan.lead_key(), plan.seat_key(rs.deck)
    assert isinstance(lead, Keyed) and lead.dealer and lead.holders == 1 << 39 | 1 << 10
    assert isinstance(seats, Keyed) and seats.dealer and seats.won and len(seats.atoms) == 4
    assert VecDeals(rs, 2, 1).python_paths == []
    assert _same_as_pettingzoo(rs, 1, 4, 9, 600) >= 30


def test_a_first_lead_reading_whole_hands_is_asked_of_python_and_equal(tmp_path):
    """A rule the plan cannot key (a first lead counting the suits of a hand) is not memoised:
    each deal asks Python, says so in ``python_paths``, and still equals the environment."""
    path = tmp_path / "hands.yaml"
    path.write_text(
        MOON.replace(
            "if holder(QS) == dealer then left(dealer) else holder(2C)",
            "if suit_count(dealer) == 4 then dealer else left(dealer)",
        )
    )
    rs = Ruleset.load(str(path))
    assert VecDeals(rs, 2, 1).python_paths == ["the first lead: a first lead that reads hands"]
    assert _same_as_pettingzoo(rs, 1, 2, 4, 150) >= 4


def _shooter(seat: int, legal) -> int:
    """Seat 0 plays its highest card, the others their lowest card of the suit led, else a
    heart or the queen of spades: seat 0 takes many tricks and every penalty card it can."""
    cards = sorted(legal, key=lambda c: (c % 13, c))
    if seat == 0:
        return int(cards[-1])
    penalties = [c for c in cards if 13 <= c < 26 or c == 10]  # hearts, the queen of spades
    suits = {c // 13 for c in legal}
    return int(penalties[-1] if penalties and len(suits) > 1 else cards[0])


def test_shooting_the_moon_equals_the_single_deal_environment():
    """Shooting the moon, which random play seldom reaches: seat 0 plays to take everything
    and the others feed it penalty cards. The first deals in which seat 0 shoots (found by the
    batch among 1,024 seeds) are stepped again beside the PettingZoo environment: the same
    scores, 0 to the shooter and -26 to each other seat."""
    deals = VecDeals(HEARTS, 1024, 4)  # no passing: 52 decisions a deal
    out = deals.reset(1)
    for _ in range(52):
        actions = [_shooter(int(out.player[i]), np.flatnonzero(out.mask[i])) for i in range(1024)]
        out = deals.step(np.array(actions, np.int64))
    assert out.done.all()
    shot = np.flatnonzero((out.rewards == [0, -26, -26, -26]).all(axis=1))
    assert len(shot) >= 1
    for i in shot[:3]:
        moons: list = []
        assert _same_as_pettingzoo(HEARTS, 4, 1, 1 + int(i), 52, policy=_shooter, ended=moons) == 1
        assert moons == [[0.0, -26.0, -26.0, -26.0]]


def test_which_deals_are_flat_structs_and_why_not():
    """Hearts and Kierki's deals (the trump deals too: their caller is named by the dealer) step
    as flat C structs; a deal with an early end or play rules read at each decision steps on
    the step core's Batch, and says why (both held equal to the environment above)."""
    assert VecDeals(HEARTS, 1, 1).flat_reason is None
    assert VecDeals(RULESETS / "games" / "hearts_openspiel.yaml", 1, 1).flat_reason is None
    assert all(VecDeals(KIERKI, 1, deal).flat_reason is None for deal in (1, 4, 7, 8, 11))
    assert VecDeals(RULESETS / "variants" / "early_stop.yaml", 1, 1).flat_reason == "an early end (each trick)"
    ruff = VecDeals(RULESETS / "variants" / "must_ruff.yaml", 1, 8).flat_reason
    assert ruff == "play rules that read the hand or the winning card (each decision)"


@pytest.mark.parametrize("path, deal", [(HEARTS, 1), (KIERKI, 8), (RULESETS / "variants" / "early_stop.yaml", 2)])
def test_tensors_updated_in_place_equal_the_environment_between_steps_without_them(path, deal):
    """The flat batch updates a tensor row in place from the last decision; a step without
    tensors leaves the rows stale, and the next step with them writes them whole: equal to
    the environment either way (and on the step core's Batch, early_stop's deal)."""
    assert _same_as_pettingzoo(path, deal, 3, 50 + deal, 160, lean=3) >= 3


@pytest.mark.parametrize("code", sorted(BROKEN_RULES))
def test_a_rule_error_in_a_flat_deal_is_the_interpreters(tmp_path, code):
    """A rule without fallback that leaves no card (X702) or that fails to evaluate (X701)
    stops the flat batch with the interpreter's own located error; the batch then refuses to
    step until it is reset."""
    path = tmp_path / "broken.yaml"
    path.write_text(VARIANT.replace("RULE", BROKEN_RULES[code]))
    deals = VecDeals(path, 16, 1)
    assert deals.flat_reason is None
    deals.reset(0)
    with pytest.raises(Exception, match=code):
        for _ in range(60):
            deals.step(deals.random_actions())
    with pytest.raises(RuntimeError, match="stopped on an error"):
        deals.step(deals.random_actions())
    out = deals.reset(1)
    assert out.mask.any(axis=1).all()


def test_an_int64_array_of_actions_is_stepped_without_numpy_calls(monkeypatch):
    """A policy's argmax (a contiguous int64 array of one action per deal) is the step core's
    Batch's own input: stepped as it is, no numpy conversion per step (play10's checks cost
    ~1,270 instructions a step: 8% of a one-deal Batch step, callgrind). Other layouts of the
    same numbers (a strided view, big-endian, a list) still go through the checks and step alike."""
    import kierki_dsl.vecenv as vecenv

    deals = VecDeals(KIERKI, 2, 1)
    out = deals.reset(3)
    legal = out.mask.argmax(1)
    assert legal.dtype == np.int64
    strided = np.zeros((2, 2), np.int64)[:, 0]
    strided[:] = legal
    for given in (strided, legal.astype(">i8"), [int(a) for a in legal]):
        assert (deals._int64(given) == legal).all()

    def refused(*args, **kw):
        raise AssertionError("numpy asked to convert the actions")

    monkeypatch.setattr(vecenv.np, "asarray", refused)
    monkeypatch.setattr(vecenv.np, "ascontiguousarray", refused)
    before = [list(deals.core(i).actions) for i in range(2)]
    assert deals._int64(legal) is legal
    deals.step(legal)
    monkeypatch.undo()
    assert [list(deals.core(i).actions) for i in range(2)] == [b + [int(a)] for b, a in zip(before, legal)]


def test_whole_numbers_as_floats_are_taken():
    """deal=1.0 is deal 1: the check took it, then the flat deals failed on it with a TypeError
    ('float' object cannot be interpreted as an integer). ``np.float32(2.0)`` is a whole number
    as ``2.0`` is (it was refused as 'not a whole number', while np.float64, a float, was taken)."""
    for deal in (1.0, np.float64(1.0), np.float32(1.0)):
        deals = VecDeals(KIERKI, 2, deal)
        assert deals.reset(1).mask.any(axis=1).all()
    deals = VecDeals(KIERKI, np.float32(2.0), 1)
    assert deals.num_envs == 2
    pytest.importorskip("gymnasium")
    from kierki_dsl.gymvec import KierkiVectorEnv

    venv = KierkiVectorEnv(KIERKI, num_envs=2.0, deal=1.0)  # (its spaces were batched by a float: TypeError)
    assert venv.num_envs == 2 and venv.reset(seed=1)[0]["action_mask"].shape[0] == 2
    with pytest.raises(ValueError, match=r"num_envs must be a whole number, got np\.float32\(2\.5\)"):
        VecDeals(KIERKI, np.float32(2.5))


# Play-test 10 (left then): ``part("nope")`` was a bare KeyError('nope') and ``core(1.5)`` a
# TypeError from inside the core; both now say what there is.
@pytest.mark.parametrize("path", [HEARTS, RULESETS / "variants" / "early_stop.yaml"])  # flat; the core's Batch
def test_a_part_or_deal_that_is_not_there_is_refused_saying_what_is(path):
    deals = VecDeals(path, 2)
    hand = deals.part("hand")
    assert hand.stop - hand.start == 52  # a card a float
    with pytest.raises(KeyError, match="no part 'nope' in the observation tensor \\(its parts: seat, "):
        deals.part("nope")
    assert list(deals.core(np.int64(1)).actions) == list(deals.core(1).actions)
    for bad, said in ((1.5, "a deal is an int 0..1, got 1.5"), (2, "no deal 2: the deals are 0..1"),
                      (-1, "no deal -1: the deals are 0..1"), (True, "a deal is an int 0..1, got True")):
        with pytest.raises(IndexError, match=f"^{said}$"):
            deals.core(bad)
