"""The OpenSpiel adapter: every shipped ruleset passes pyspiel's random simulation test; what a
seat is told depends only on what it may see; resampling keeps the seat's information."""
from __future__ import annotations

import random
import sys

import pytest

from conftest import ROOT, RULESETS

pyspiel = pytest.importorskip("pyspiel")
kos = pytest.importorskip("kierki_dsl.openspiel")

from kierki_dsl.adapters import knowledge  # noqa: E402
from kierki_dsl.adapters.game import GameSpec, GameState  # noqa: E402
from kierki_dsl.adapters.resample import resample  # noqa: E402
from kierki_dsl.cards import bits, card_str  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402

SHIPPED = sorted(str(p.relative_to(ROOT)) for p in RULESETS.rglob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED)
def test_random_sim_every_ruleset(path):
    game = kos.load(str(ROOT / path))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("path,deal", [
    ("rulesets/kierki_standard.yaml", 8),  # a trump call
    ("rulesets/kierki_standard.yaml", 12),  # a layout deal
    ("rulesets/variants/fantan_pass_pool.yaml", 12),  # passes paid into a pool
    ("rulesets/games/barbu.yaml", 2),  # a declarer's choice with doubling
    ("rulesets/games/hearts.yaml", 4),  # no passing
    ("rulesets/variants/no_trumps_allowed.yaml", 8),  # a trump call offering "no trumps"
    ("rulesets/variants/walc_chapanka.yaml", 8),
])
def test_random_sim_other_deal_types(path, deal):
    pyspiel.random_sim_test(kos.load(str(ROOT / path), deal=deal), num_sims=1, serialize=True, verbose=False)


def _distinct_contracts(path: str) -> list:
    """The 1-based schedule position of the first deal of each distinct contract (or
    declarer's-choice slot) of a ruleset."""
    rs = Ruleset.load(str(ROOT / path))
    first: dict = {}
    for k in range(max(1, rs.max_deals)):
        first.setdefault(getattr(rs.contract_at(k), "name", k), k + 1)
    return sorted(first.values())


@pytest.mark.parametrize("path", SHIPPED)
def test_legal_actions_ascend_in_every_contract(path):
    """One random game of every distinct contract of every ruleset: legal actions (decisions
    and chance outcomes alike) are listed in ascending order, as pyspiel checks."""
    rs = Ruleset.load(str(ROOT / path))
    for deal in _distinct_contracts(path):
        rng = random.Random(deal)
        state = GameState(GameSpec.make(rs, "deal", deal))
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(set(legal)), (deal, state.phase, legal)
            state.apply_action(rng.choice(legal))


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED)
def test_random_sim_every_contract(path):
    """pyspiel's random simulation test on every distinct contract of every ruleset."""
    for deal in _distinct_contracts(path):
        pyspiel.random_sim_test(kos.load(str(ROOT / path), deal=deal), num_sims=1, serialize=True, verbose=False)


def test_random_sim_a_whole_match():
    game = kos.load(str(RULESETS / "variants" / "six_negative_deals.yaml"), scope="match")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("path,deal,steps", [("rulesets/games/hearts.yaml", 1, 70),
                                             ("rulesets/games/barbu.yaml", 2, 60),  # a declarer's choice
                                             ("rulesets/kierki_standard.yaml", 8, 58)])  # a trump call
def test_a_state_serialises_as_its_history_and_comes_back_equal(path, deal, steps):
    game = kos.load(str(ROOT / path), deal=deal)
    state = _play(game, 3, steps)
    text = state.serialize()
    assert text.startswith("history=")
    back = game.deserialize_state(text)
    assert back.history() == state.history() and str(back) == str(state)
    assert back.legal_actions() == state.legal_actions() and back.returns() == state.returns()
    for seat in range(game.num_players()):
        assert back.information_state_string(seat) == state.information_state_string(seat)
    again, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(restored) == str(state) and again.num_players() == game.num_players()


def test_registered_name_takes_the_ruleset_as_a_parameter():
    game = pyspiel.load_game("kierki_dsl", {"ruleset": str(RULESETS / "games" / "hearts.yaml"), "deal": 2})
    assert game.num_players() == 4
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    assert state.is_chance_node()
    three = kos.load(str(RULESETS / "variants" / "three_players.yaml"))
    assert three.num_players() == 3


def _play(game, seed: int, steps: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _unseen_by(core: GameState, seat: int) -> set:
    """Cards other seats hold that ``seat`` has not been shown (not passed by it, not played)."""
    passed, _ = knowledge.own_passes(core, seat)
    out = set()
    if core.deal is None:
        return out
    for s in range(core.spec.ruleset.players):
        if s != seat:
            out |= {card_str(c) for c in bits(core.deal.hands[s] & ~passed)}
    return out


@pytest.mark.parametrize("path", ["rulesets/games/hearts.yaml", "rulesets/kierki_standard.yaml"])
def test_strings_never_show_another_hand(path):
    game = kos.load(str(ROOT / path))
    for seed in range(3):
        for steps in (60, 75, 90):
            state = _play(game, seed, steps)
            core = state.core
            for seat in range(game.num_players()):
                hidden = _unseen_by(core, seat)
                for text in (state.information_state_string(seat), state.observation_string(seat)):
                    shown = set(text.replace(":", " ").split())
                    assert not hidden & shown, (seat, hidden & shown)


@pytest.mark.parametrize("path,deal", [("rulesets/games/hearts.yaml", 1), ("rulesets/kierki_standard.yaml", 12),
                                       ("rulesets/games/barbu.yaml", 1), ("rulesets/kierki_standard.yaml", 8)])
def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest(path, deal):
    game = kos.load(str(ROOT / path), deal=deal)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for seed in range(4):
        state = _play(game, seed, 70 + 7 * seed)
        if state.is_terminal() or state.is_chance_node():
            continue
        seat = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(seat, sampler)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert sorted(other.legal_actions()) == sorted(state.legal_actions())
            hands = [other.core.deal.hands[s] for s in range(game.num_players()) if s != seat]
            differed += hands != [state.core.deal.hands[s] for s in range(game.num_players()) if s != seat]
    assert differed > 0


def test_tensors_depend_only_on_the_seat_s_information():
    """A state resampled for a seat gives that seat the same tensors: nothing hidden leaks in."""
    rs = Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))
    spec = GameSpec.make(rs, "deal", 1)
    rng = random.Random(5)
    state = GameState(spec)
    size = knowledge.tensor_size(spec, True)
    while not state.is_terminal():
        if not state.is_chance():
            for seat in range(4):
                other = resample(state, seat, rng)
                a, b = [0.0] * size, [0.0] * size
                knowledge.fill_tensor(state, seat, True, a)
                knowledge.fill_tensor(other, seat, True, b)
                assert a == b
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_ismcts_searches_a_ruleset():
    from open_spiel.python.algorithms import ismcts, mcts
    import numpy as np

    game = kos.load(str(RULESETS / "variants" / "jacks_only.yaml"), deal=4)
    state = _play(game, 2, 60)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), uct_c=20.0,
                           max_simulations=30, random_state=np.random.RandomState(2))
    for _ in range(4):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])


def test_ismcts_player_plays_reproducibly():
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import make_player

    rs = Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))

    def first_deal():
        players = [make_player("ismcts:8")] + [make_player("heuristic") for _ in range(3)]
        return next(iter(MatchRunner(rs, players, 11).deals())).plays

    assert first_deal() == first_deal()


def test_ismcts_without_openspiel_is_a_clear_usage_error(monkeypatch):
    from kierki_dsl.players import base

    for name in list(sys.modules):
        if name == "pyspiel" or name.split(".")[0] == "open_spiel":
            monkeypatch.setitem(sys.modules, name, None)  # as if the extra were not installed
    monkeypatch.delitem(base.PLAYERS, "ismcts", raising=False)
    monkeypatch.delitem(sys.modules, "kierki_dsl.ismcts", raising=False)
    with pytest.raises(KeyError, match=r"pip install 'kierki-dsl\[openspiel\]'"):
        base.make_player("ismcts")


def _kierki(*args, env=None):
    import os
    import subprocess

    from conftest import kierki_command

    full = dict(os.environ, **(env or {}))
    done = subprocess.run(kierki_command() + list(args), capture_output=True, text=True, timeout=300,
                          env=full, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def test_kierki_run_with_an_ismcts_seat():
    code, out, err = _kierki("run", str(RULESETS / "games" / "hearts.yaml"), "--seed", "4",
                             "--players", "ismcts:5,heuristic,heuristic,random")
    assert code == 0, err
    assert "Hearts" in out


def test_without_the_extra_the_command_names_it(tmp_path):
    blocked = tmp_path / "open_spiel"
    blocked.mkdir()
    (blocked / "__init__.py").write_text("raise ImportError('open_spiel is not installed here')\n")
    (tmp_path / "pyspiel.py").write_text("raise ImportError('pyspiel is not installed here')\n")
    code, out, err = _kierki("run", str(RULESETS / "games" / "hearts.yaml"), "--players", "ismcts",
                             env={"PYTHONPATH": str(tmp_path)})
    assert code == 2
    assert "pip install 'kierki-dsl[openspiel]'" in err and "Traceback" not in err


def test_kierki_simulate_with_ismcts_players():
    code, out, err = _kierki("simulate", str(RULESETS / "variants" / "three_players.yaml"), "--games", "1",
                             "--players", "ismcts:3,random,heuristic", "--seed", "2", "--format", "json")
    assert code == 0, err
    assert "ismcts:3" in out


def test_a_broken_ruleset_or_parameter_is_a_located_error():
    from kierki_dsl.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError, match=r"31_expr_syntax_error\.yaml:9:26: error: E301"):
        kos.load(str(ROOT / "tests" / "data" / "bad_inputs" / "31_expr_syntax_error.yaml"))
    with pytest.raises(ValueError, match="scope must be 'deal' or 'match'"):
        kos.load(str(RULESETS / "games" / "hearts.yaml"), scope="hand")
    with pytest.raises(ValueError, match="deal must be 1..12"):
        kos.load(str(RULESETS / "kierki_standard.yaml"), deal=13)


def test_a_deal_or_max_deals_that_is_not_a_whole_number_is_refused_not_rounded():
    """deal=1.5 is not deal 1, max_deals=2.5 not 2: refused in OpenSpiel's load, the game spec
    (PettingZoo's env) and the batch alike, naming the parameter."""
    from kierki_dsl.pettingzoo import env

    hearts = str(RULESETS / "games" / "hearts.yaml")
    for make in (
        lambda: kos.load(hearts, deal=1.5),
        lambda: kos.load(hearts, scope="match", max_deals=2.5),
        lambda: env(hearts, deal=2.5),
        lambda: env(hearts, deal="2"),
        lambda: env(hearts, scope="match", max_deals=None),
    ):
        with pytest.raises(ValueError, match=r"(deal|max_deals) must be a whole number, got (2\.5|1\.5|'2'|None)"):
            make()
    assert "deal=2" in str(kos.load(hearts, deal=2.0)) and "deal=3" in str(kos.load(hearts, deal=True + 2))


def test_resampling_for_a_seat_that_is_not_at_the_table_is_refused_naming_it():
    game = kos.load(str(RULESETS / "kierki_standard.yaml"), deal=5)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or len(state.history()) < 60:
        state.apply_action(
            rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions())
        )
    for seat in (-1, 4, 7):
        with pytest.raises(ValueError, match=f"player must be 0..3, got {seat}"):
            state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert state.resample_from_infostate(3, pyspiel.UniformProbabilitySampler(0.0, 1.0)).information_state_string(
        3
    ) == state.information_state_string(3)


def test_an_observer_of_a_kind_it_cannot_give_is_refused_never_one_with_the_seat_s_hand():
    """make_observation with public information only (private_info NONE) gave the seat's own
    hand; ALL_PLAYERS gave one seat's: both are refused, as are params; the two kinds OpenSpiel
    asks for (observation, information state) are the state's own strings."""
    from open_spiel.python.observation import make_observation

    game = kos.load(str(RULESETS / "games" / "hearts.yaml"), deal=4)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    private = pyspiel.PrivateInfoType
    for public_info, kind in ((True, private.NONE), (True, private.ALL_PLAYERS), (False, private.SINGLE_PLAYER)):
        for perfect_recall in (False, True):
            kind_of = pyspiel.IIGObservationType(
                perfect_recall=perfect_recall, public_info=public_info, private_info=kind
            )
            with pytest.raises(ValueError, match="kierki_dsl observes as one seat"):
                make_observation(game, kind_of)
            with pytest.raises(ValueError, match="kierki_dsl observes as one seat"):
                game.make_observer(kind_of, {})  # pyspiel's own way in
    for perfect_recall in (False, True):  # the two OpenSpiel asks for: a seat's observation, its information state
        kind_of = pyspiel.IIGObservationType(
            perfect_recall=perfect_recall, public_info=True, private_info=private.SINGLE_PLAYER
        )
        seen = make_observation(game, kind_of)
        assert seen.string_from(state, 1) == (
            state.information_state_string(1) if perfect_recall else state.observation_string(1)
        )
    assert make_observation(game).string_from(state, 2) == state.observation_string(2)
    with pytest.raises(ValueError, match="no observation parameters"):
        make_observation(game, None, {"cards": "all"})


def test_a_ruleset_edited_in_the_same_process_is_loaded_again(tmp_path):
    """A house rule edited between two loads in one process (a notebook) is the edited one: the
    game's ruleset was kept per path for the process, so the second load silently had the old rules."""
    import os

    path = tmp_path / "mine.yaml"
    text = (RULESETS / "games" / "hearts.yaml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    assert kos.load(str(path)).spec.ruleset.name == "Hearts"
    path.write_text(text.replace("\nname: Hearts\n", "\nname: Edited Hearts\n", 1), encoding="utf-8")
    os.utime(path, ns=(1, 1))  # (a new time even where the clock's step is coarse)
    assert kos.load(str(path)).spec.ruleset.name == "Edited Hearts"
    game = kos.load(str(path))
    assert kos.load(str(path)).spec.ruleset is game.spec.ruleset, "an unchanged file is loaded once"


def test_ladder_pairs_name_ismcts_with_settings():
    from kierki_dsl.cli import _pair

    assert _pair("search:0.1s:ismcts:0.1s") == ("search:0.1s", "ismcts:0.1s")
    assert _pair("ismcts:50:heuristic") == ("ismcts:50", "heuristic")


def _deals(path: str) -> list:
    """A few schedule positions of a ruleset: the 1st, 4th, 8th and 12th (as far as it has deals)."""
    last = max(1, kos.load(str(ROOT / path)).spec.ruleset.max_deals)
    return sorted({min(k, last) for k in (1, 4, 8, 12)})


@pytest.mark.parametrize("path", SHIPPED)
def test_resample_is_indistinguishable_on_every_ruleset(path):
    """Every shipped ruleset, a few deals, every few steps of a random play: a world resampled
    for the seat on turn tells that seat exactly what the true state tells it (information
    state and observation strings, tensor, legal actions) — stocks, widows, exchanges, auctions,
    declarations, exposures, doubling, layouts and declarer's choices included."""
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)  # seeded: the same worlds every run
    checked = 0
    for deal in _deals(path):
        game = kos.load(str(ROOT / path), deal=deal)
        rng = random.Random(deal)
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if not state.is_chance_node() and step % 3 == 0:
                seat = state.current_player()
                for _ in range(2):
                    other = state.resample_from_infostate(seat, sampler)
                    where = (deal, step, seat)
                    assert other.information_state_string(seat) == state.information_state_string(seat), where
                    assert other.observation_string(seat) == state.observation_string(seat), where
                    assert other.information_state_tensor(seat) == state.information_state_tensor(seat), where
                    assert other.observation_tensor(seat) == state.observation_tensor(seat), where
                    assert sorted(other.legal_actions()) == sorted(state.legal_actions()), where
                    checked += 1
            step += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def _other(value):
    """A value of the same kind as ``value`` but different from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, tuple):
        return value + (0,)
    return 0  # None


@pytest.mark.parametrize("path,deal,steps", [("rulesets/variants/fantan_three_passes.yaml", 1, 90),
                                             ("rulesets/games/trix.yaml", 1, 57),
                                             ("rulesets/games/tysiac.yaml", 1, 36)])
def test_the_information_state_carries_every_field_of_the_seat_s_view(monkeypatch, path, deal, steps):
    """Whatever the seat's view holds (free passes left, pool, exposures, a part added
    later...) tells two states apart in the information state too: a view changed in any one
    field of its core or of a phase's part changes the string."""
    import attrs

    state = _play(kos.load(str(ROOT / path), deal=deal), 2, steps).core
    seat = state.current_player()
    view = knowledge.seat_view(state, seat)
    assert view is not None and seat >= 0
    base = knowledge.information_state_string(state, seat)
    changes = [(f.name, attrs.evolve(view, **{f.name: _other(getattr(view, f.name))}))
               for f in attrs.fields(type(view)) if f.name != "parts"]
    changes.append(("an added part", attrs.evolve(view, parts=view.parts + (("added", 0),))))
    for phase, part in view.parts:  # each field of each phase's part
        changes += [(f"{phase}.{f.name}", view.with_part(phase, attrs.evolve(part, **{f.name: _other(getattr(part, f.name))})))
                    for f in attrs.fields(type(part))]
    assert len(changes) >= len(attrs.fields(type(view))) + sum(len(attrs.fields(type(p))) for _, p in view.parts)
    for name, changed in changes:
        monkeypatch.setattr(knowledge, "seat_view", lambda state, seat, changed=changed: changed)
        assert knowledge.information_state_string(state, seat) != base, name


def _trix_after_an_exposure_round() -> GameState:
    """A Trix deal (queens) in play after a round of exposures that passed over seats that had
    no card to expose: a random world must keep them without one."""
    spec = GameSpec.make(Ruleset.load(str(RULESETS / "games" / "trix.yaml")), "deal", 1)
    rng, state = random.Random(40), GameState(spec)
    for _ in range(57):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("attempts", [64, 0])  # 0: straight to the fallback replay
def test_resample_after_a_round_of_exposures(attempts):
    state = _trix_after_an_exposure_round()
    seat = state.current_player()
    for seed in range(6):
        world = resample(state, seat, random.Random(seed), attempts=attempts)
        assert knowledge.information_state_string(world, seat) == knowledge.information_state_string(state, seat)
        assert world.legal_actions() == state.legal_actions()
        assert world.exact or not attempts


def test_resample_is_deterministic():
    """The same random draws give the same world (a stock deal rebuilt from the view included)."""
    for path, steps in (("rulesets/variants/kierki_dominowe.yaml", 60), ("rulesets/games/tysiac.yaml", 36),
                        ("rulesets/games/hearts.yaml", 60)):
        state = _play(kos.load(str(ROOT / path)), 1, steps).core
        assert state.deal is not None and state.current_player() >= 0, path
        seat = state.current_player()
        a, b = resample(state, seat, random.Random(9)), resample(state, seat, random.Random(9))
        assert [a.deal.hands, a.dealt] == [b.deal.hands, b.dealt], path


@pytest.mark.parametrize("path", ["rulesets/games/tysiac.yaml", "rulesets/variants/auction_face_up.yaml"])
def test_a_world_drawn_for_a_seat_keeps_no_other_seat_s_private_cards_of_the_deal(path):
    """Widow and stock deals are rebuilt from the seat's view: the world's other seats must not
    carry what they alone saw in the true deal (IS-MCTS keys its tree by their strings)."""
    from kierki_dsl.adapters.resample import resample

    game = kos.load(str(ROOT / path), deal=8 if "auction_face_up" in path else 1)
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state = _play(game, seed, 20 + 9 * seed)
        if state.is_terminal() or state.is_chance_node():
            continue
        core, seat = state.core, state.current_player()
        start = len(core.deal_start.events)
        private = [(who, text) for who, text in core.events[start:] if who is not None and who != seat]
        world = resample(core, seat, rng)
        kept = [(who, text) for who, text in world.events[start:] if who is not None and who != seat]
        assert len(kept) == len(private)
        assert not set(private) - {(w, f"p{w} saw something") for w, _ in private} & set(kept), \
            "another seat's private event of this deal kept its cards"
        checked += bool(private)
    assert checked, "no position with another seat's private event was reached"


# barbu_app extends barbu (the same choice of contracts; only its duty to double differs): -m slow
@pytest.mark.parametrize("path", ["rulesets/games/barbu.yaml",
                                  pytest.param("rulesets/games/barbu_app.yaml", marks=pytest.mark.slow),
                                  "rulesets/games/trix.yaml"])
def test_random_sim_a_match_past_a_declarer_s_choice(path):
    """Contract choices of deals already played still have labels (pyspiel labels the history)."""
    game = kos.load(str(ROOT / path), scope="match", max_deals=3)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = _play(game, 4, 10_000)
    assert state.is_terminal() and state.core.k == 3
    from kierki_dsl.interpreter.actions import is_choice

    choices = [(s, a) for _, s, a in state.core.log if s >= 0 and is_choice(a)]
    assert choices and all(state.action_to_string(s, a).startswith("choose ") for s, a in choices)
    assert not any("#" in state.action_to_string(s, a) for s, a in choices)


@pytest.mark.slow
@pytest.mark.parametrize("path", ["rulesets/games/barbu.yaml", "rulesets/games/barbu_app.yaml",
                                  "rulesets/games/trix.yaml", "rulesets/games/tysiac.yaml"])
def test_random_sim_a_whole_match_of_declarer_s_choices_and_an_open_ended_one(path):
    pyspiel.random_sim_test(kos.load(str(ROOT / path), scope="match"), num_sims=1, serialize=True, verbose=False)


def test_an_open_ended_match_is_bounded_and_its_recall_string_stays_short():
    """Tysiąc runs until 1,000 points (random play never gets there): the game declares at
    most ``max_deals`` deals and its length, and a seat's information state sums up the deals
    before this one, so its string does not grow with the match."""
    game = kos.load(str(RULESETS / "games" / "tysiac.yaml"), scope="match", max_deals=12)
    assert game.max_game_length() <= 12 * kos.load(str(RULESETS / "games" / "tysiac.yaml")).max_game_length()
    longest, per_deal = 0, {}
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if not state.is_chance_node():
            text = state.information_state_string(state.current_player())
            longest = max(longest, len(text))
            per_deal[state.core.k] = max(per_deal.get(state.core.k, 0), len(text))
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.core.k == 12 and len(state.history()) <= game.max_game_length()
    assert per_deal[11] < 2 * per_deal[0] + 200, per_deal  # the 12th deal's string is as long as the 1st's
    with pytest.raises(ValueError, match="max_deals"):
        kos.load(str(RULESETS / "games" / "tysiac.yaml"), scope="match", max_deals=0)


def test_a_deep_copy_keeps_what_the_last_decision_paid():
    import copy

    game = kos.load(str(RULESETS / "variants" / "six_negative_deals.yaml"), scope="match")
    state, rng = game.new_initial_state(), random.Random(1)
    while state.is_chance_node() or not any(state.rewards()):
        state.apply_action(rng.choice(state.legal_actions()))
    assert copy.deepcopy(state).rewards() == state.rewards() != [0.0] * game.num_players()
