"""The adapters' fast path (a deal stepped on the compiled core, its bookkeeping deferred, the
observation read from the core) says exactly what the interpreter's path says: the same legal
actions, players, strings, tensors, events and returns at every decision."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from kierki_dsl.adapters import game as game_module  # noqa: E402
from kierki_dsl.adapters import knowledge  # noqa: E402
from kierki_dsl.adapters.game import GameSpec, GameState  # noqa: E402
from kierki_dsl.interpreter import stepper  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402
from kierki_dsl.shipped import shipped_ruleset  # noqa: E402

pytestmark = pytest.mark.skipif(not stepper.available(), reason="the compiled step core is not built")

CASES = [
    ("games/hearts_openspiel.yaml", "deal", 1),
    ("games/hearts.yaml", "match", 1),
    ("kierki_standard.yaml", "deal", 7),  # a trump deal
    ("kierki_standard.yaml", "deal", 1),
]


def _said(state: GameState, perfect_recall: bool) -> list:
    """Everything each seat is told of ``state``: strings and tensors."""
    out = []
    n = state.spec.ruleset.players
    for seat in range(n):
        for recall in (False, True):
            t = np.zeros(knowledge.tensor_size(state.spec, recall), np.float32)
            knowledge.fill_tensor(state, seat, recall, t)
            out.append(t.tobytes())
        if perfect_recall:
            out.append(knowledge.information_state_string(state, seat))
        out.append(knowledge.observation_string(state, seat))
    return out


def _play(path: str, scope: str, deal: int, seed: int, cored: bool, monkeypatch) -> list:
    """Every answer of a random game, asked at every decision."""
    rs = Ruleset.load(shipped_ruleset(path))
    with monkeypatch.context() as m:
        if not cored:
            m.setattr(game_module, "core_deal", lambda *a, **k: None)
        spec = GameSpec.make(rs, scope, deal, max_deals=2)
        state, rng, seen = GameState(spec), random.Random(seed), []
        used_core = False
        while not state.is_terminal():
            used_core |= state.stepping_core() is not None
            legal = state.legal_actions()
            seen.append((state.current_player(), legal, state.is_chance()))
            if not state.is_chance():
                seen.append(_said(state, rng.random() < 0.3))
                mask = np.zeros(spec.num_actions, np.int8)
                state.mark_legal(mask)
                seen.append(mask.tobytes())
                if rng.random() < 0.1:  # a clone steps on as its original would
                    state = state.clone()
            state.apply_action(legal[rng.randrange(len(legal))])
        seen.append((state.returns(), list(state.events), list(state.log), _said(state, True)))
    assert used_core == cored
    return seen


@pytest.mark.parametrize("path, scope, deal", CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_core_path_tells_what_the_interpreter_tells(path, scope, deal, seed, monkeypatch):
    assert _play(path, scope, deal, seed, True, monkeypatch) == _play(path, scope, deal, seed, False, monkeypatch)


def test_an_illegal_action_on_the_core_leaves_the_state_as_it_was():
    from kierki_dsl.interpreter.actions import IllegalAction

    state = GameState(GameSpec.make(Ruleset.load(shipped_ruleset("games/hearts_openspiel.yaml"))))
    rng = random.Random(3)
    while state.is_chance():
        outcomes = state.legal_actions()
        state.apply_action(outcomes[rng.randrange(len(outcomes))])
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    before = (state.legal_actions(), state.current_player(), list(state.events))
    illegal = next(c for c in range(52) if c not in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply_action(illegal)
    assert (state.legal_actions(), state.current_player(), list(state.events)) == before
