"""Any ruleset as a PettingZoo AEC environment (``pip install 'kierki-dsl[rl]'``).

    from kierki_dsl.pettingzoo import env
    e = env("rulesets/kierki_standard.yaml")              # one deal; scope="match" for a match
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seats). Chance (the shuffle, a random first
dealer) is drawn from the generator seeded by ``reset(seed=...)``. Each observation is a
dict: ``observation``, the seat's observation tensor (``information_state=True``: its
perfect-recall information-state tensor) from ``adapters/knowledge.py`` — built from that
seat's view only — and ``action_mask``, 1 for the legal actions (kierki-dsl's action
numbers: cards 0..51, ``pass`` 52, calls, bets, contract choices from 100). The reward of
a step is the change of each seat's total: its deal scores when a deal ends. An illegal
action raises ``ValueError`` naming the rule it breaks. No OpenSpiel is needed.

Where the compiled step core steps the deal, ``last``, ``step`` and ``agent_iter``'s iterator
run in C (``_go_c``), saying exactly what the methods below say (docs/performance.md).
"""

from __future__ import annotations

import math
import operator
import random
import weakref
from typing import Optional

try:
    import numpy as np
    import pettingzoo
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("kierki_dsl.pettingzoo needs PettingZoo: pip install 'kierki-dsl[rl]'") from e

from .adapters import knowledge
from .adapters.game import MATCH_DEALS, GameSpec, GameState
from .interpreter import stepper
from .interpreter.actions import IllegalAction
from .ruleset.model import Ruleset

try:  # the compiled step core's PettingZoo calls (the environment steps in C where the core steps the deal)
    from .interpreter._cstep import agent_iter as _c_agent_iter  # type: ignore[import-not-found,import-untyped,unused-ignore]  # a C extension
    from .interpreter._cstep import env_calls as _env_calls  # type: ignore[import-not-found,import-untyped,unused-ignore]  # a C extension
except ImportError:  # pragma: no cover - without a C compiler
    _c_agent_iter = _env_calls = None

_C_CALLS = ("last", "step")  # set on the instance by ``_go_c``
#: The PettingZoo releases whose ``AECEnv.last``, ``_accumulate_rewards`` and ``_was_dead_step``
#: the C calls do as they do (checked by tests/test_pettingzoo_fast.py); with another release the
#: environment answers by its Python methods (PettingZoo's own), slower but never different.
C_CALLS_FOR = ("1.24.", "1.25.", "1.26.", "1.27.")


_C_FIT = str(getattr(pettingzoo, "__version__", "")).startswith(C_CALLS_FOR)


def _action_number(agent: str, action) -> int:
    """``action`` as the action number it names: an int (a numpy integer) or a float holding a
    whole number (a numpy float too), or a 0-d array of either; ``ValueError`` for anything else (a fraction, a bool,
    None, a string), never cast to another action."""
    if isinstance(action, np.ndarray) and action.ndim == 0:  # (a 0-d array: as its one number)
        action = action[()]
    if not isinstance(action, (bool, np.bool_)):
        try:
            return operator.index(action)
        except TypeError:
            pass
        if isinstance(action, (float, np.floating)) and math.isfinite(action) and float(action).is_integer():
            return int(action)
    raise ValueError(f"{agent}: action {action!r} is not an action number (an int: one of the mask's legal actions)")


class KierkiEnv(AECEnv):
    """A ruleset (one deal or the whole match) as an agent-environment-cycle game."""

    metadata = {"render_modes": ["ansi"], "name": "kierki_dsl_v0", "is_parallelizable": False}

    def __init__(
        self,
        ruleset,
        scope: str = "deal",
        deal: int = 1,
        information_state: bool = False,
        render_mode=None,
        max_deals: int = MATCH_DEALS,
    ):
        super().__init__()
        rs = ruleset if isinstance(ruleset, Ruleset) else Ruleset.load(str(ruleset))
        self.spec = GameSpec.make(rs, scope, deal, max_deals)
        self.perfect_recall = information_state
        if render_mode is not None and render_mode != "ansi":  # (the metadata's render_modes)
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(rs.players)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        size = self._size = knowledge.tensor_size(self.spec, information_state)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.spec.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.spec.num_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self.game: Optional[GameState] = None  # the game in play, from the first ``reset``
        self._blank_observation = np.zeros(size, np.float32)
        self._blank_mask = np.zeros(self.spec.num_actions, np.int8)
        self._go_c()

    # -- the fast path: the environment's calls in C where the core steps the deal ----------------
    def _go_c(self) -> None:
        """Answer ``last`` (unless ``information_state``) and ``step`` in C (``_cstep.env_calls``):
        callables set on the instance, which shadow the methods. While the compiled core steps the
        deal in play directly (``GameState._go_fast``) they read and write this environment's
        attributes as the methods below do, with no Python frame per call (a dead agent's step
        too: PettingZoo's ``_was_dead_step``; the end of a one-deal game too: ``_after_step`` and
        GameState's ``_after_action``, ``_cstep``'s ``_gameend.h``); everything else (no core, a
        trump call, an action that is not a legal ``int``, the step after a payment) they hand to
        the methods, and a match's deal end to ``_after_step``. They hold the environment by a weak reference (no
        reference cycle). Only for ``KierkiEnv`` itself (a subclass may override the methods) and
        while the methods they do in C are the class's own (``_C_COPIES``; each call checks again that
        none is replaced on the class or set on the instance)."""
        if _env_calls is None or not stepper.available() or type(self) is not KierkiEnv or not _C_FIT:
            return
        if any(getattr(KierkiEnv, name) is not method for name, method in _C_COPIES.items()):
            return
        last, step = _env_calls(
            weakref.ref(self),
            AECEnv.last,
            KierkiEnv.step,
            knowledge.core_observed,
            self._blank_observation.copy,  # (a copy of a zeroed array: cheaper than np.zeros)
            self._blank_mask.copy,
        )
        if not self.perfect_recall:  # (the C ``last`` writes the observation tensor)
            self.last = last
        self.step = step  # type: ignore[method-assign]

    def _go_python(self) -> None:
        """Answer every call by the Python methods (tests hold the two paths equal)."""
        for name in _C_CALLS:
            self.__dict__.pop(name, None)

    def __getstate__(self) -> dict:
        """Copied or pickled without the C calls (they hold this environment): set again on the copy."""
        return {k: v for k, v in self.__dict__.items() if k not in _C_CALLS}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._go_c()

    def agent_iter(self, max_iter: int = 2**63):
        """PettingZoo's ``AECIterable`` (yields ``agent_selection`` until no agent is left or after
        ``max_iter``), its iterator in C (``_cstep.agent_iter``)."""
        if _c_agent_iter is None or not stepper.available() or type(max_iter) is not int or not _C_FIT:
            return super().agent_iter(max_iter)
        return _c_agent_iter(self, max_iter)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = random.Random(seed)
        game = self.game = GameState(self.spec)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False  # whether the last step paid (then its rewards are not all zero)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._chance(game)
        self.agent_selection = self._agent(game)

    def _chance(self, g: GameState) -> None:
        """Resolve chance nodes (the deal) of the game in play ``g`` with the environment's generator."""
        while g.is_chance():
            outcomes = g.legal_actions()  # chance_outcomes' outcomes, in order: every one alike likely
            g.apply_action(outcomes[int(self._rng.random() * len(outcomes))])

    def _agent(self, game: GameState) -> str:
        """The agent on turn in the game in play ``game`` (once it is over, the first left)."""
        p = game.current_player()
        return self.possible_agents[p] if p >= 0 else self.agents[0] if self.agents else self.possible_agents[0]

    def observe(self, agent):
        seat = self._seats[agent]
        game = self.game
        if game is None:
            raise RuntimeError("observe() before reset(): no game in play")
        obs = self._blank_observation.copy()  # (a copy of a zeroed array: cheaper than np.zeros)
        knowledge.fill_tensor(game, seat, self.perfect_recall, obs)
        mask = self._blank_mask.copy()
        if game.current_player() == seat:
            game.mark_legal(mask)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        game = self.game
        if game is None:
            raise RuntimeError("step() before reset(): no game in play")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        before = game.totals  # a new list only as a deal ends (and pays)
        try:
            game.apply_action(_action_number(agent, action))
        except IllegalAction as e:
            raise ValueError(f"{agent}: action {action} is illegal: {e.reason}") from None
        self._after_step(agent, game, before)

    def _after_step(self, agent: str, game: GameState, before: list) -> None:
        """The rest of ``step`` once ``agent``'s action is applied to ``game``, whose totals were
        ``before``: the chance nodes after it, the rewards, the end, the next agent (also the C
        ``step``'s, at a deal's end)."""
        if game.is_chance():
            self._chance(game)
        after = game.totals
        self._cumulative_rewards[agent] = 0.0
        paid = after is not before
        if paid or self._paid:  # (the rewards stay zero from one unpaid step to the next: nothing to add)
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(after[s] - before[s]) if paid else 0.0
            self._accumulate_rewards()
        self._paid = paid
        if game.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._agent(game)

    def render(self):
        """The whole table, hidden cards included (``render_mode="ansi"``), for debugging."""
        return str(self.game) if self.render_mode == "ansi" else None

    def close(self):
        pass


#: The methods the C calls do as written here and in PettingZoo (``_go_c``).
_C_COPIES = {
    name: getattr(KierkiEnv, name)
    for name in (
        "last",
        "step",
        "observe",
        "_was_dead_step",
        "_clear_rewards",
        "_after_step",
        "_agent",
        "_accumulate_rewards",
    )
}


def env(
    ruleset,
    scope: str = "deal",
    deal: int = 1,
    information_state: bool = False,
    render_mode=None,
    max_deals: int = MATCH_DEALS,
) -> KierkiEnv:
    """The ruleset (a path or a loaded ``Ruleset``) as a PettingZoo AEC environment (a
    match ends after at most ``max_deals`` deals). It wraps nothing (an illegal action raises
    ``ValueError`` naming the rule): PettingZoo's default wrappers (``OrderEnforcingWrapper``,
    ``AssertOutOfBoundsWrapper``) add their cost to every step (docs/performance.md)."""
    return KierkiEnv(ruleset, scope, deal, information_state, render_mode, max_deals)


#: PettingZoo's name for an environment without wrappers: ``env`` is one already.
raw_env = env

__all__ = ["env", "raw_env", "KierkiEnv"]
