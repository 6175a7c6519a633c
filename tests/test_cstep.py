"""The compiled step core (``interpreter/_cstep.c`` through ``interpreter/stepper.py``) steps
every shipped contract it carries exactly as the interpreter's ``TrickDeal``: at every step the
same seat on turn, legal actions, terminal flag and returns for the same random actions; illegal
actions refused with the same reason; clones independent; its random playout scores as the fast
kernel (``fastplay``) and the interpreter do for the same seeds. Deals started mid-deal from a
seat's view with assumed hands (search's and IS-MCTS's sampled worlds) step as the
interpreter's ``from_view`` deal and play search's rule-of-thumb rollout with the same draws;
seeded ``search`` and ``ismcts`` matches play the same cards either way. The fallback (no
core, or ``KIERKI_NO_C=1``) answers the same through the interpreter.

Under ``KIERKI_REQUIRE_C=1`` (CI) a core that was not built is a failure, not a skip.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl.interpreter import stepper
from kierki_dsl.interpreter.actions import IllegalAction
from kierki_dsl.interpreter.match import deal_masks
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.yaml"))
DEALS = 4

needs_core = pytest.mark.skipif(not stepper.available() and not os.environ.get("KIERKI_REQUIRE_C"),
                                reason="the compiled step core is not built here (KIERKI_REQUIRE_C=1 makes this fail)")


def test_the_core_is_built_when_required():
    """CI sets KIERKI_REQUIRE_C=1: the core must have been built by ``pip install -e``."""
    if os.environ.get("KIERKI_REQUIRE_C"):
        assert stepper.available(), "KIERKI_REQUIRE_C=1 but kierki_dsl.interpreter._cstep did not build/import"
    else:
        assert stepper.available() in (True, False)
        pytest.skip("KIERKI_REQUIRE_C not set")


def _carried(rs) -> list:
    return [c for _, c in sorted(rs.contracts.items())
            if c is not None and stepper.carried(c, rs.players, rs.hand_size, rs.deck)]


def _dealt(rs, seed: int, direction: int = 0) -> tuple:
    """(dealer, the cards dealt to each seat) of a random deal (``direction``: the ruleset's if 0)."""
    cards = [c for c in range(52) if rs.deck >> c & 1]
    dealer = seed % rs.players
    hands = deal_masks(random.Random(seed), cards, dealer, rs.players, direction or rs.direction)
    return dealer, [[c for c in range(52) if h >> c & 1] for h in hands]


def _deal(rs, contract, seed: int, direction: int = 0) -> tuple:
    """(core state, interpreter state) of the same deal (``direction``: the ruleset's if 0)."""
    direction = direction or rs.direction
    dealer, dealt = _dealt(rs, seed, direction)
    number = 1 + seed % 4
    core = stepper.new_deal(contract, rs.players, rs.deck, dealer, dealt, direction, number)
    deal = contract.new_deal(rs.players, rs.deck, dealer, dealt, direction, number)
    return core, deal


def _same(core, deal, where: str) -> None:
    assert core.current_player() == deal.current_player(), where
    assert core.is_terminal() == deal.is_terminal(), where
    assert core.legal_actions() == deal.legal_actions(), where
    assert core.returns() == deal.returns(), where
    assert core.phase == deal.phase, where
    assert (core.trump, core.caller, core.trick_no, core.trick, core.hands, core.played, core.taken, core.tricks_won,
            core.ended_early) == (deal.trump, deal.caller, deal.trick_no, deal.trick, deal.hands, deal.played,
                                  deal.taken, deal.tricks_won, deal.ended_early), where


def _refused(state, action):
    """The reason ``state`` refuses ``action`` (None: it did not)."""
    try:
        state.apply_action(action)
    except IllegalAction as e:
        return e.reason
    return None


def _illegal_probe(core, deal, rng, where: str) -> None:
    legal = set(deal.legal_actions())
    wrong = [a for a in list(range(52)) + [52, -1, 999] if a not in legal]
    action = wrong[rng.randrange(len(wrong))]
    reason = _refused(deal.clone(), action)
    assert reason is not None, where
    assert _refused(core, action) == reason, f"{where}: action {action}"


def _play_both(core, deal, pick, rng, where: str) -> None:
    """Step both to the end with actions ``pick(legal)``, comparing at every step."""
    step = 0
    while True:
        _same(core, deal, f"{where}, step {step}")
        if deal.is_terminal():
            break
        if step % 9 == 4:
            _illegal_probe(core, deal, rng, f"{where}, step {step}")
            _same(core, deal, f"{where}, step {step} after an illegal action")
        if step % 23 == 11:
            _clone_is_independent(core, deal, rng, f"{where}, step {step}")
        legal = deal.legal_actions()
        action = pick(legal)
        if step % 3 == 2:  # the unchecked play search uses
            core.play_legal(action)
        else:
            core.apply_action(action)
        deal.apply_action(action)
        step += 1
    assert core.actions == deal.actions, where
    assert _refused(core, 0) == _refused(deal, 0) == "the deal is over", where


def _clone_is_independent(core, deal, rng, where: str) -> None:
    """A clone played to the end leaves the original as it was; the interpreter's deal
    of the same position (replayed) gives the same views."""
    before = (core.actions, core.legal_actions(), core.returns())
    other = core.clone()
    assert type(other) is type(core)
    while not other.is_terminal():
        legal = other.legal_actions()
        other.apply_action(legal[rng.randrange(len(legal))])
    assert (core.actions, core.legal_actions(), core.returns()) == before, where
    again = core.interpreter()
    for seat in range(deal.players):
        assert again.view(seat) == deal.view(seat), f"{where}: view of seat {seat}"


@needs_core
@pytest.mark.parametrize("path", SHIPPED)
def test_core_steps_as_the_interpreter(path):
    rs = Ruleset.load(str(ROOT / path))
    contracts = _carried(rs)
    if not contracts:
        pytest.skip(f"{path}: no contract is carried by the core")
    for contract in contracts:
        for seed in range(DEALS):
            core, deal = _deal(rs, contract, seed)
            assert isinstance(core, stepper.Stepper), f"{path}: {contract.name}"
            rng = random.Random(seed)
            _play_both(core, deal, lambda legal: legal[rng.randrange(len(legal))], rng,
                       f"{path}: {contract.name}, deal {seed}")


def test_which_contracts_are_carried():
    """The contracts the core carries (the README lists them); the rest step on the
    interpreter: auctions, doubling, exposures, stock, widow, declarations, layouts."""
    ruff = Ruleset.load(str(ROOT / "rulesets/variants/must_ruff.yaml"))  # rules reading the winning card
    if stepper.available():
        assert stepper.carried(ruff.contracts["atu"], 4, 13, ruff.deck)
    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    why = {name: stepper.why_not_carried(c) for name, c in rs.contracts.items() if c is not None}
    assert why["bez_lew"] is None and why["rozbojnik"] is None and why["atu"] is None  # atu: a trump call
    assert why["loteryjka"] == "not a trick contract"
    trix = Ruleset.load(str(ROOT / "rulesets/games/trix.yaml"))
    assert {stepper.why_not_carried(c) for c in trix.contracts.values() if c is not None} >= {"exposures"}
    if stepper.available():
        hearts = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
        assert stepper.carried(hearts.contracts["hand"], 4, 13, hearts.deck)
        not_carried = stepper.new_deal(rs.contracts["loteryjka"], 4, rs.deck, 0,
                                       [list(range(s * 13, s * 13 + 13)) for s in range(4)])
        assert isinstance(not_carried, stepper.InterpreterStepper)


HYPO_CONTRACTS = (("rulesets/games/hearts_openspiel.yaml", "hand"), ("rulesets/kierki_standard.yaml", "rozbojnik"),
                  ("rulesets/kierki_standard.yaml", "atu"),
                  ("rulesets/games/black_maria.yaml", "hand"), ("rulesets/variants/three_players.yaml", "bez_lew"))


@needs_core
@settings(max_examples=40, deadline=None)
@given(which=st.sampled_from(HYPO_CONTRACTS), seed=st.integers(0, 10**6), direction=st.sampled_from((1, -1)),
       picks=st.lists(st.integers(0, 51), min_size=1, max_size=80))
def test_core_steps_as_the_interpreter_hypothesis(which, seed, direction, picks):
    rs = Ruleset.load(str(ROOT / which[0]))
    core, deal = _deal(rs, rs.contracts[which[1]], seed, direction)
    it = iter(picks * 4)
    _play_both(core, deal, lambda legal: legal[next(it, 0) % len(legal)], random.Random(seed), f"{which} {seed}")


@needs_core
@pytest.mark.parametrize("path", ["rulesets/games/hearts_openspiel.yaml", "rulesets/kierki_standard.yaml",
                                  "rulesets/games/king_brazil.yaml", "rulesets/variants/early_stop.yaml",
                                  "rulesets/games/pink_lady.yaml", "rulesets/variants/three_players.yaml"])
def test_play_out_scores_as_the_fast_kernel_and_the_interpreter(path):
    """``play_out(getrandbits)`` from a deal's start draws as ``fastplay`` draws: the same
    scores as the fast kernel and as the interpreter played with the same draws."""
    rs = Ruleset.load(str(ROOT / path))
    contracts = _carried(rs)
    assert contracts
    for contract in contracts:
        for seed in range(8):
            core, deal = _deal(rs, contract, seed)
            where = f"{path}: {contract.name}, deal {seed}"
            mine = core.play_out(random.Random(seed * 3).getrandbits)
            assert mine == stepper.play_out(deal, random.Random(seed * 3).getrandbits), where
            assert core.actions == deal.actions and core.is_terminal(), where
            if contract.fast_player(rs.players, rs.hand_size, rs.deck) is not None:
                hands = [sum(1 << c for c in d) for d in core.interpreter().dealt]
                fast = contract.play_fast(rs.players, rs.deck, seed % rs.players, hands, rs.direction, 1 + seed % 4,
                                          random.Random(seed * 3))
                assert mine == fast, where


@needs_core
def test_a_playout_from_mid_deal_and_from_a_clone():
    rs = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
    core, deal = _deal(rs, rs.contracts["hand"], 3)
    rng = random.Random(1)
    for _ in range(7):  # in the middle of passing
        a = deal.legal_actions()[rng.randrange(len(deal.legal_actions()))]
        core.apply_action(a)
        deal.apply_action(a)
    twin = core.clone()
    assert core.play_out(random.Random(5).getrandbits) == stepper.play_out(deal, random.Random(5).getrandbits)
    assert twin.play_out(random.Random(5).getrandbits) == core.returns()
    assert twin.actions == core.actions


VARIANT = """kierki: 1
name: variant
players: 4
match:
  schedule: [hand]
contracts:
  hand:
    first_lead: dealer
    restrictions:
    - RULE
    score:
    - per_card: card.suit == hearts
      points: -1
"""
BROKEN_RULES = {
    "X702": "{phase: lead, forbid: card.suit != spades, when: trick.number == 3, fallback: false, reason: spades}",
    "X701": "{phase: any, require: card == AS, when: trick.number == 2 and 1 / (trick.number - 2) == 0, reason: b}",
}


@needs_core
@pytest.mark.parametrize("code", sorted(BROKEN_RULES))
def test_rule_errors_surface_as_the_interpreter_raises_them(tmp_path, code):
    """A rule without fallback that leaves nothing (X702) and a rule that fails to evaluate
    (a division by zero, X701) raise the interpreter's own errors, at the same step."""
    path = tmp_path / "variant.yaml"
    path.write_text(VARIANT.replace("RULE", BROKEN_RULES[code]))
    rs = Ruleset.load(str(path))
    contract = rs.contracts["hand"]
    seen = set()
    for seed in range(40):
        core, deal = _deal(rs, contract, seed)
        rng = random.Random(seed)
        while True:
            try:
                expected = deal.legal_actions()
            except Exception as e:  # noqa: BLE001 - whatever the interpreter raises, the core raises too
                with pytest.raises(type(e)) as got:
                    core.legal_actions()
                assert str(got.value) == str(e)
                seen.add(str(e))
                break
            assert core.legal_actions() == expected
            if deal.is_terminal():
                break
            a = expected[rng.randrange(len(expected))]
            core.apply_action(a)
            deal.apply_action(a)
    assert seen and all(code in s for s in seen)


FALLBACK_SCRIPT = """
import random
from kierki_dsl.interpreter import stepper
from kierki_dsl.ruleset.model import Ruleset
assert not stepper.available()
rs = Ruleset.load("rulesets/games/hearts_openspiel.yaml")
c = rs.contracts["hand"]
dealt = [list(range(s * 13, s * 13 + 13)) for s in range(4)]
st = stepper.new_deal(c, 4, rs.deck, 3, dealt, 1, 1)
deal = c.new_deal(4, rs.deck, 3, dealt, 1, 1)
assert isinstance(st, stepper.InterpreterStepper)
rng = random.Random(4)
other = st.clone()
while not deal.is_terminal():
    assert st.legal_actions() == deal.legal_actions() and st.current_player() == deal.current_player()
    a = deal.legal_actions()[rng.randrange(len(deal.legal_actions()))]
    st.apply_action(a)
    deal.apply_action(a)
assert st.returns() == deal.returns() and st.actions == deal.actions and st.is_terminal()
assert other.play_out(random.Random(2).getrandbits) == stepper.play_out(c.new_deal(4, rs.deck, 3, dealt, 1, 1),
                                                                        random.Random(2).getrandbits)
fresh = c.new_deal(4, rs.deck, 3, dealt, 1, 1)
while fresh.phase != "play":
    fresh.apply_action(fresh.legal_actions()[0])
view = fresh.view(fresh.current_player())
from kierki_dsl.interpreter.trickstate import TrickDeal
assert stepper.core_from_view(c, view, fresh.hands) is None
assert type(stepper.deal_from_view(c, view, fresh.hands)) is TrickDeal
print("fallback ok")
"""


def test_the_interpreter_steps_when_the_core_is_switched_off():
    env = dict(os.environ, KIERKI_NO_C="1")
    env.pop("KIERKI_REQUIRE_C", None)
    out = subprocess.run([sys.executable, "-c", FALLBACK_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "fallback ok" in out.stdout


ADAPTER_GAMES = (("rulesets/games/hearts_openspiel.yaml", "deal", 1), ("rulesets/variants/six_negative_deals.yaml", "match", 1),
                 ("rulesets/games/black_maria.yaml", "deal", 1), ("rulesets/kierki_standard.yaml", "deal", 8))


@needs_core
@pytest.mark.parametrize("path,scope,deal", ADAPTER_GAMES)
def test_the_openspiel_adapter_tells_the_same_through_the_core(path, scope, deal, monkeypatch):
    """``kierki_dsl.openspiel`` steps carried deals on the core: every seat's information
    state and observation (strings and tensors), the legal actions and the returns are those
    of the same game stepped on the interpreter, at every step; clones and resampled worlds
    too."""
    pyspiel = pytest.importorskip("pyspiel")
    kos = pytest.importorskip("kierki_dsl.openspiel")
    import kierki_dsl.adapters.game as adapter_game

    game = kos.load(str(ROOT / path), scope=scope, deal=deal)
    with monkeypatch.context() as m:
        m.setattr(adapter_game, "core_deal", lambda *args, **kw: None)
        reference, interpreted = _trajectory(game, seed=3)
    got, cored = _trajectory(game, seed=3)
    assert interpreted == 0 and cored > 0, "the core did not step the game"
    assert got == reference


def _trajectory(game, seed: int) -> tuple:
    """(what every seat is told at every step of one random game, the decisions the core stepped)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    cored = 0
    n = game.num_players()
    while not state.is_terminal() and len(out) < 400:
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[rng.randrange(len(outcomes))])
            continue
        seats = range(n)
        out.append((state.current_player(), state.legal_actions(), state.returns(),
                    [state.information_state_string(p) for p in seats], [state.observation_string(p) for p in seats],
                    [list(state.information_state_tensor(p)) for p in seats],
                    [list(state.observation_tensor(p)) for p in seats]))
        cored += state.core._step is not None
        if len(out) % 17 == 0:  # a clone played on does not move the original
            other = state.clone()
            acts = other.legal_actions()
            other.apply_action(acts[0])
            assert state.information_state_string(state.current_player()) == out[-1][3][state.current_player()]
        acts = state.legal_actions()
        state.apply_action(acts[rng.randrange(len(acts))])
    out.append(state.returns())
    return out, cored


PER_DECISION = """kierki: 1
name: variant
players: 4
match:
  schedule: [hand]
contracts:
  hand:
    first_lead: dealer
    restrictions:
    - {phase: follow, forbid: card.rank < 10, when: held(card.suit == hearts) > 2, reason: high cards with hearts}
    - {phase: discard, require: card.suit == hearts, when: held(card.suit == spades) < 2, reason: hearts out}
    score:
    - per_card: card.suit == hearts
      points: -1
    - per_seat: tricks_taken
"""


@needs_core
def test_rules_that_read_the_hand_are_asked_at_each_decision(tmp_path):
    """A rule reading the hand (``held``) holds for one decision only: the core asks the
    legality kernel again each time (must-ruff rules, reading the winning card, are shipped)."""
    path = tmp_path / "variant.yaml"
    path.write_text(PER_DECISION)
    rs = Ruleset.load(str(path))
    contract = rs.contracts["hand"]
    assert any(contract.legality(rs.hand_size, -1, rs.deck).per_decision)
    for seed in range(12):
        core, deal = _deal(rs, contract, seed)
        assert isinstance(core, stepper.Stepper)
        rng = random.Random(seed)
        _play_both(core, deal, lambda legal: legal[rng.randrange(len(legal))], rng, f"deal {seed}")


@needs_core
def test_the_core_refuses_what_would_read_outside_its_tables():
    """A bare core (never initialised), an unchecked play of a card the seat does not hold,
    and a random source that is not ``getrandbits(32)`` are errors, never a crash."""
    from kierki_dsl.interpreter import _cstep

    bare = _cstep.Core.__new__(_cstep.Core)
    for use in (bare.legal_actions, bare.clone, lambda: bare.apply_action(3), lambda: bare.random_playout(None),
                lambda: bare.thumb_playout(None)):
        with pytest.raises(RuntimeError, match="not initialised"):
            use()
    rs = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
    core, _ = _deal(rs, rs.contracts["hand"], 0)
    not_held = next(c for c in range(52) if not core.hands[core.current_player()] >> c & 1)
    for action in (not_held, 60, -1, 999):
        with pytest.raises(ValueError, match="an action of the seat on turn"):
            core.play_legal(action)
    with pytest.raises(ValueError, match="getrandbits"):
        core.clone().play_out(lambda bits: 1 << 40)
    assert core.actions == []


# -- deals started mid-deal from a seat's view (search's sampled worlds, IS-MCTS's) ------------

def _from_view(rs, contract, seed: int, direction: int = 0, steps: int = -1, own_hands: bool = False):
    """(core, interpreter, view, hands) of one deal started mid-deal from the view of the seat on
    turn after ``steps`` random actions (-1: a random point of the deal), the other hands drawn
    as search draws them (``own_hands``: the real ones); None if the deal is over by then."""
    from kierki_dsl.players.search import sample_hands

    _, deal = _deal(rs, contract, seed, direction)
    rng = random.Random(seed * 7 + 1)
    steps = rng.randrange(rs.hand_size * rs.players + 12) if steps < 0 else steps
    for _ in range(steps):
        if deal.is_terminal():
            break
        legal = deal.legal_actions()
        deal.apply_action(legal[rng.randrange(len(legal))])
    while not deal.is_terminal() and deal.phase != "play":  # passing or a trump call: on to play
        legal = deal.legal_actions()
        deal.apply_action(legal[rng.randrange(len(legal))])
    if deal.is_terminal():
        return None
    view = deal.view(deal.current_player())
    hands = list(deal.hands) if own_hands else sample_hands(view, rng)
    core = stepper.core_from_view(contract, view, hands)
    return core, contract.from_view(view, hands), view, hands


@needs_core
@pytest.mark.parametrize("path", SHIPPED)
def test_core_started_from_a_view_steps_as_the_interpreter(path):
    """Every carried shipped contract, started at random points of the deal from the view of
    the seat on turn with sampled hands (as search and IS-MCTS start their worlds), steps as
    the interpreter's ``from_view`` deal: compared at every step, illegal actions, clones,
    views of the replayed position; and the search rollout from there plays the same cards
    with the same draws."""
    rs = Ruleset.load(str(ROOT / path))
    contracts = _carried(rs)
    if not contracts:
        pytest.skip(f"{path}: no contract is carried by the core")
    started = 0
    for contract in contracts:
        for seed in range(DEALS):
            got = _from_view(rs, contract, seed)
            if got is None:
                continue
            core, deal, view, hands = got
            where = f"{path}: {contract.name}, deal {seed} from trick {view.trick_number}"
            assert isinstance(core, stepper.Stepper), where
            started += 1
            rollout, reference = core.clone(), deal.clone()
            rollout.playout(random.Random(seed))
            reference.playout(random.Random(seed))
            assert (rollout.actions, rollout.scores) == (reference.actions, reference.scores), where
            rng = random.Random(seed)
            _play_both(core, deal, lambda legal: legal[rng.randrange(len(legal))], rng, where)
    assert started


@needs_core
@settings(max_examples=40, deadline=None)
@given(which=st.sampled_from(HYPO_CONTRACTS), seed=st.integers(0, 10**6), direction=st.sampled_from((1, -1)),
       steps=st.integers(0, 60), own=st.booleans(), draws=st.integers(0, 2**32))
def test_core_started_from_a_view_hypothesis(which, seed, direction, steps, own, draws):
    rs = Ruleset.load(str(ROOT / which[0]))
    got = _from_view(rs, rs.contracts[which[1]], seed, direction, steps, own)
    if got is None:
        return
    core, deal, _, _ = got
    for _ in range(3):  # rollouts from the start and from clones: the same cards, draws and scores
        a, b = core.clone(), deal.clone()
        a.playout(random.Random(draws))
        b.playout(random.Random(draws))
        assert (a.actions, a.scores, a.tricks_won, a.taken) == (b.actions, b.scores, b.tricks_won, b.taken)
        draws += 1
    rng = random.Random(seed)
    _play_both(core, deal, lambda legal: legal[rng.randrange(len(legal))], rng, f"{which} {seed}")


def test_deal_from_view_falls_back_to_the_interpreter():
    """What the core does not carry (an auction, a stock, exposures, a layout) or a view out of
    play is the interpreter's ``from_view``; so is everything without the core."""
    from kierki_dsl.interpreter.trickstate import TrickDeal

    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    got = _from_view(rs, rs.contracts["rozbojnik"], 1, steps=5)
    assert got is not None
    _, deal, view, hands = got
    mine = stepper.deal_from_view(rs.contracts["rozbojnik"], view, hands)
    assert isinstance(mine, stepper.Stepper if stepper.available() else TrickDeal)
    for other in (attrs.evolve(view, phase="pass"), attrs.evolve(view, phase="call"),
                  attrs.evolve(view, trick_number=view.tricks_total + 1)):
        assert stepper.core_from_view(rs.contracts["rozbojnik"], other, hands) is None
    trix = Ruleset.load(str(ROOT / "rulesets/games/trix.yaml"))
    shown = next(c for c in trix.contracts.values() if c is not None and stepper.why_not_carried(c) == "exposures")
    assert stepper.core_from_view(shown, view, hands) is None


@needs_core
def test_a_position_the_core_cannot_hold_is_refused():
    """A position from elsewhere is checked before the core reads it: seats, cards and the
    trick number in range, a trick shorter than a round; never a crash."""
    rs = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
    contract = rs.contracts["hand"]
    core, _, view, hands = _from_view(rs, contract, 2, steps=9)
    plan = core.ctx.compiled.plan
    good = (view.seat, view.seat, view.trick_number, view.played, False, [0] * 4, [0] * 4, [0] * 4, ())
    stepper.Stepper(plan, core.ctx, hands, 0, 1, 0, 0, good)
    for i, bad in ((0, 4), (1, -1), (2, 0), (2, 14), (3, 1 << 55), (8, ((0, 1),) * 4), (8, ((5, 1),)),
                   (8, ((0, 52),)), (8, "xx")):
        position = list(good)
        position[i] = bad
        with pytest.raises((ValueError, TypeError)):
            stepper.Stepper(plan, core.ctx, hands, 0, 1, 0, 0, tuple(position))
    with pytest.raises(ValueError, match="cards 0..51"):
        stepper.Stepper(plan, core.ctx, [1 << 60] + hands[1:], 0, 1, 0, 0, good)
    with pytest.raises(ValueError, match="no passing"):
        stepper.Stepper(plan, core.ctx, hands, 0, 1, 3, 1, good)
    with pytest.raises(ValueError, match="starts in play"):
        _deal(rs, contract, 0)[0].thumb_playout(random.Random(1).getrandbits)


def _seeded_match(path: str, setting: str, deals: int, monkeypatch, core: bool) -> list:
    """(plays, scores) of the first ``deals`` deals of a seeded match of ``setting`` at seat 0
    against heuristic players, as the players are (``core``) or as they were before they used
    the core: sampled worlds on the interpreter, the Python sampler, IS-MCTS rolling out
    through pyspiel with OpenSpiel's own evaluator."""
    import kierki_dsl.adapters.game as adapter_game
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import make_player

    with monkeypatch.context() as m:
        if not core:
            m.setattr(stepper, "core_from_view", lambda *args: None)
            m.setattr(adapter_game, "core_from_view", lambda *args: None)
            m.setattr(stepper, "compiled_deal_out", lambda: None)
            if setting.startswith("ismcts"):
                from kierki_dsl import ismcts

                m.setattr(ismcts, "_rollouts", lambda mcts, np: mcts.RandomRolloutEvaluator)
        rs = Ruleset.load(str(ROOT / path))
        players = [make_player(setting)] + [make_player("heuristic") for _ in range(rs.players - 1)]
        out = []
        for r in MatchRunner(rs, players, 7).deals():
            out.append((r.plays, r.scores))
            if r.number >= deals:
                break
    return out


@needs_core
@pytest.mark.parametrize("path", ["rulesets/kierki_standard.yaml", "rulesets/games/hearts.yaml",
                                  "rulesets/variants/must_ruff.yaml", "rulesets/variants/three_players.yaml"])
def test_search_plays_the_same_cards_on_the_core(path, monkeypatch):
    """A seeded ``search`` match is the same whether its sampled worlds step on the core or on
    the interpreter: the same rollouts, the same draws (tests/test_golden_matches.py holds it
    to the records made before the core)."""
    import kierki_dsl.players.search as search

    built = []
    with monkeypatch.context() as m:
        m.setattr(search, "deal_from_view", lambda *a: built.append(stepper.deal_from_view(*a)) or built[-1])
        on_core = _seeded_match(path, "search:6", 3, monkeypatch, True)
    assert any(isinstance(s, stepper.Stepper) for s in built), "no world was built on the core"
    assert on_core == _seeded_match(path, "search:6", 3, monkeypatch, False)


@needs_core
def test_ismcts_plays_the_same_cards_on_the_core(monkeypatch):
    """A seeded ``ismcts`` match with a fixed number of simulations is the same whether its
    worlds step on the core or on the interpreter, rolling out on the game state or through
    pyspiel with OpenSpiel's ``RandomRolloutEvaluator``."""
    pytest.importorskip("pyspiel")
    for path in ("rulesets/games/hearts.yaml", "rulesets/kierki_standard.yaml"):
        assert (_seeded_match(path, "ismcts:12", 1, monkeypatch, True)
                == _seeded_match(path, "ismcts:12", 1, monkeypatch, False)), path


@needs_core
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), cards=st.sets(st.integers(0, 51), max_size=40), room=st.lists(st.integers(0, 14),
       min_size=1, max_size=9), tries=st.integers(0, 6), data=st.data())
def test_compiled_sampling_deals_as_the_python_kernel(seed, cards, room, tries, data):
    """``players.sampling.deal_out`` in C (``_cstep.deal_out``) gives the hands the Python
    kernel gives for the same draws, fitting or not (a relaxed last try), and leaves the
    random stream at the same point."""
    from kierki_dsl.players import sampling

    cards = sorted(cards, key=lambda c: (c * 7919) % 53)
    strict = {c: data.draw(st.lists(st.integers(0, len(room) - 1), unique=True)) for c in cards}

    def able(card, relax):
        return list(range(len(room)))[::-1] if relax else strict[card]

    a, b = random.Random(seed), random.Random(seed)
    got = sampling.deal_out(cards, room, able, sampling.draws(a), tries)
    assert got == sampling.deal_out_python(cards, room, able, sampling.draws(b), tries)
    assert a.getrandbits(32) == b.getrandbits(32)
    if got is not None:
        assert sum(got) == sum(1 << c for c in cards) and all(h.bit_count() <= r for h, r in zip(got, room))


@needs_core
def test_compiled_sampling_refuses_what_it_cannot_hold():
    from kierki_dsl.interpreter import _cstep

    grb = random.Random(1).getrandbits
    for args in (([1], [1], [[1]]), ([1], [1] * 17, [[0]]), ([64], [1], [[0]]), ([1, 2], [2], [[0]]),
                 (list(range(53)), [60], [[0]] * 53), ([1], [1], [[-1]])):
        with pytest.raises(ValueError):
            _cstep.deal_out(*args, grb, 2)
    assert _cstep.deal_out([5], [1], [[0]], grb, 1) == [1 << 5]


@needs_core
def test_dynamic_trick_scoring_steps_as_the_interpreter():
    """Trick scoring that reads the trick's winner, leader and cards (no shipped ruleset has it):
    the core asks ``TrickDeal._dynamic_points`` of its deal, which keeps one trick environment."""
    rs = Ruleset.load(str(ROOT / "benchmarks" / "dynamic_points.yaml"))
    contract = rs.contracts["bez_lew"]
    assert contract.tables(rs.hand_size, -1, rs.players)[2], "the contract must score dynamically"
    for seed in range(8):
        core, deal = _deal(rs, contract, seed)
        assert isinstance(core, stepper.Stepper)
        rng = random.Random(seed)
        _play_both(core, deal, lambda legal: legal[rng.randrange(len(legal))], rng, f"deal {seed}")


# -- bad calls into the extension: every entry point checks its state and arguments ------------

class _Ctx:
    """A deal's Python side with some callbacks replaced (``over``: name -> function of the core)."""

    def __init__(self, ctx, **over) -> None:
        self._ctx, self._over = ctx, over

    def __getattr__(self, name: str):
        if name in self._over:
            return self._over[name]
        return getattr(self._ctx, name)


def _hearts_core(seed: int = 0):
    rs = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
    core, _ = _deal(rs, rs.contracts["hand"], seed)
    return rs, core


@needs_core
def test_a_core_on_an_uninitialised_plan_is_refused():
    """``Core(Plan.__new__(Plan), ...)``: a plan with no tables (once a SIGFPE) is an error."""
    from kierki_dsl.interpreter import _cstep

    _, core = _hearts_core()
    bare = _cstep.Plan.__new__(_cstep.Plan)
    with pytest.raises(ValueError, match="plan was not initialised"):
        _cstep.Core(bare, core.ctx, core.hands, 0, 1, 0, 0)


@needs_core
def test_a_plan_is_initialised_once():
    """A plan re-initialised while cores read it (once a heap overflow): refused, the plan kept."""
    _, core = _hearts_core()
    plan = core.ctx.compiled.plan
    with pytest.raises(TypeError, match="initialised once"):
        plan.__init__(1, 1, True, [0] * 52, [0] * 3, [[0] * 52] * 3, 0, False, False, False, [0] * 52, False)
    clone = core.clone()
    clone.play_out(random.Random(1).getrandbits)
    assert clone.is_terminal()


@needs_core
def test_a_failed_init_leaves_a_bare_core():
    """An ``__init__`` that fails half-way (a bad hand, a position refused, a callback raising)
    leaves no core "ready": every method refuses it, none crashes; the core may be initialised anew."""
    _, core = _hearts_core()
    plan, ctx, hands = core.ctx.compiled.plan, core.ctx, core.hands
    fresh = stepper.Stepper.__new__(stepper.Stepper)
    bad_position = (0, 0, 99, 0, False, [0] * 4, [0] * 4, [0] * 4, ())
    failing = _Ctx(ctx, _begin=lambda c: 1 / 0)
    for args, error in (((plan, ctx, [1 << 60] + hands[1:], 0, 1, 0, 0), ValueError),
                        ((plan, ctx, hands, 0, 1, 0, 0, bad_position), ValueError),
                        ((plan, failing, hands, 0, 1, 0, 0), ZeroDivisionError),
                        ((plan, ctx, hands, 0, 1 << 30, 0, 0), ValueError)):
        with pytest.raises(error):
            fresh.__init__(*args)
        for use in (fresh.legal_actions, fresh.clone, fresh.legal_mask, lambda: fresh.apply_action(3),
                    lambda: fresh.play_legal(3), lambda: fresh.random_playout(random.Random(1).getrandbits)):
            with pytest.raises(RuntimeError, match="not initialised"):
                use()
    fresh.__init__(plan, ctx, hands, 0, 1, 0, 0)
    assert fresh.legal_actions()


@needs_core
def test_a_callback_raising_after_a_trump_call_breaks_the_deal_cleanly():
    """A callback that raises once the trump is called (Ctrl-C in it) leaves the deal half-way:
    the core refuses every further step, its clones too; no crash."""
    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    contract = rs.contracts["atu"]
    for interrupt in ("_begin", "_at_trick"):
        core, _ = _deal(rs, contract, 3)
        assert core.phase == "call"
        ctx = core.ctx

        def called(c, action, ctx=ctx, interrupt=interrupt):
            plan, new = ctx._called(c, action)
            return plan, _Ctx(new, **{interrupt: lambda *a: (_ for _ in ()).throw(KeyboardInterrupt())})

        broken = stepper.Stepper(ctx.compiled.plan, _Ctx(ctx, _called=called), core.hands, ctx.dealer,
                                 ctx.direction, 0, 0)
        with pytest.raises(KeyboardInterrupt):
            broken.apply_action(broken.legal_actions()[0])
        for use in (broken.legal_actions, broken.clone, lambda: broken.apply_action(0),
                    lambda: broken.random_playout(random.Random(1).getrandbits)):
            with pytest.raises(RuntimeError, match="stopped on an error"):
                use()


@needs_core
def test_a_playout_stopped_by_its_random_source_is_refused_after():
    """A random source that raises in the middle of a playout (after cards were played) leaves a
    broken deal only where a step stopped half-way; a draw refused before a step leaves it whole."""
    _, core = _hearts_core(2)
    calls = []

    def grb(k):
        calls.append(k)
        if len(calls) > 20:
            raise KeyboardInterrupt
        return random.Random(len(calls)).getrandbits(k)

    with pytest.raises(KeyboardInterrupt):
        core.random_playout(grb)
    assert core.legal_actions()  # the draw failed before any step: the deal goes on


@needs_core
def test_scores_past_the_limit_are_declined_by_the_core():
    """The core never wraps: a plan of points past the score limit is refused (the interpreter
    steps such a contract), and a score that would pass the limit is handed to the interpreter
    (``_score_error``), whose located error is raised."""
    from kierki_dsl.interpreter import _cstep
    from kierki_dsl.interpreter.scorebound import SCORE_LIMIT

    assert _cstep.SCORE_LIMIT == SCORE_LIMIT
    with pytest.raises(ValueError, match="score limit"):
        _cstep.Plan(4, 13, True, [0] * 52, [0] * 15, [[SCORE_LIMIT + 1] * 52] * 15, 0, False, False, False,
                    [0] * 52, False)
    rs = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
    core, _, view, hands = _from_view(rs, rs.contracts["hand"], 2, steps=9)
    asked = []

    def declined(c):
        asked.append(list(c.scores))
        raise OverflowError("declined")

    ctx = _Ctx(core.ctx, _score_error=declined)

    def position(edge):
        return (view.seat, view.trick[0][0] if view.trick else view.seat, view.trick_number, view.played,
                bool(view.played & (0x1FFF << 13)), [edge] * 4, [0] * 4, [0] * 4, view.trick)

    for edge in (SCORE_LIMIT + 1, -(1 << 63)):
        with pytest.raises(ValueError, match="score limit"):
            stepper.Stepper(ctx.compiled.plan, ctx, hands, view.dealer, view.direction, 0, 0, position(edge))
    s = stepper.Stepper(ctx.compiled.plan, ctx, hands, view.dealer, view.direction, 0, 0, position(-SCORE_LIMIT))
    with pytest.raises(OverflowError, match="declined"):
        s.random_playout(random.Random(5).getrandbits)  # hearts cost points: some trick passes the limit
    assert asked and min(asked[0]) == -SCORE_LIMIT  # nothing added past it, nothing wrapped
    with pytest.raises(RuntimeError, match="stopped on an error"):
        s.legal_actions()


@needs_core
def test_a_callback_may_read_the_core_but_not_step_it():
    """A callback that steps the core it is called from (it would write past a trick) is refused;
    reading it is fine."""
    _, core = _hearts_core()
    plan, ctx, hands = core.ctx.compiled.plan, core.ctx, core.hands
    seen = []

    def begin(c):
        seen.append(list(c.hands))
        c.apply_action(0)

    fresh = stepper.Stepper.__new__(stepper.Stepper)
    with pytest.raises(RuntimeError, match="in the middle of a step"):
        fresh.__init__(plan, _Ctx(ctx, _begin=begin), hands, 0, 1, 0, 0)
    assert seen == [hands]
    with pytest.raises(RuntimeError, match="not initialised"):
        fresh.legal_actions()

    def at_trick(c, *args):
        if c.trick_no > 1:
            c.clone()
        return ctx._at_trick(c, *args)

    playing = stepper.Stepper(plan, _Ctx(ctx, _at_trick=at_trick), hands, 0, 1, 0, 0)
    with pytest.raises(RuntimeError, match="in the middle of a step"):
        playing.random_playout(random.Random(3).getrandbits)
