"""``ismcts``: OpenSpiel's Information Set MCTS searching our game through the adapter.

Needs the extra: ``pip install 'kierki-dsl[openspiel]'``. For each card to play it builds
the deal from its own ``SeatView`` (``adapters.game.GameState.from_view``, an OpenSpiel state
of ``kierki_dsl.openspiel``), lets ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` search it
with random-rollout evaluation, and draws every world the search needs from the view alone:
unseen cards dealt at random consistently with hand sizes, shown voids and the trump call
(``players.search.sample_hands``) — never another hand. Worlds step on the compiled step
core where it carries the deal, and the random rollouts (OpenSpiel's
``RandomRolloutEvaluator``, the same draws) step the game state directly rather than through
pyspiel's layer. The value of a position is the
seat's own score in the deal; the exploration constant is scaled to the contract's points.

Settings: ``ismcts:200`` simulations per decision (default 100; reproducible for a seed),
``ismcts:0.2s`` think time per decision (not reproducible, for equal-time comparisons).
Passing, trump calls, bets and contract choices are left to the heuristic player, as in
``search``.

It lives above ``kierki_dsl.players`` (beside ``kierki_dsl.openspiel``, which it plays through),
not in it: ``players.base.LAZY_PLAYERS`` names this module, as an installed plug-in would be named.
"""

from __future__ import annotations

import random
import time

from .adapters.game import GameState, view_spec
from .phases import phase_of
from .players.base import WithFallback, register_player, thinking_budget
from .players.search import sample_hands

DEFAULT_SIMULATIONS = 100


def _openspiel():
    """The OpenSpiel modules, or a clear error naming the extra to install."""
    try:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from . import openspiel as kos
    except ImportError:
        raise ValueError("ismcts needs OpenSpiel: pip install 'kierki-dsl[openspiel]'") from None
    return np, ismcts, mcts, kos


@register_player
class ISMCTSPlayer(WithFallback):
    """OpenSpiel's IS-MCTS over the adapter, for card play; the heuristic elsewhere."""

    name = "ismcts"

    def __init__(self, setting: str = "") -> None:
        _openspiel()  # fail now, with the message, rather than at the first card
        super().__init__()
        count, self.seconds = thinking_budget("ismcts", setting, "simulations", 1_000_000)
        self.simulations = 10**9 if self.seconds else (count or DEFAULT_SIMULATIONS)
        self.stats = {"decisions": 0, "simulations": 0, "seconds": 0.0}

    def act(self, view) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if phase_of(view).bot_action(view, self.rules) is not None:  # not card play in a trick
            return self.fallback.act(view)
        np, ismcts, mcts, kos = _openspiel()
        rng = self.rng(view)
        contract = self.contract_of(view)
        game = kos.game_of(view_spec(view, contract))
        root = _world(game, contract, view, rng)
        bot = _TimedBot(
            game,
            _rollouts(mcts, np)(1, np.random.RandomState(rng.getrandbits(31))),
            uct_c=2.0 * _scale(view, contract),
            max_simulations=self.simulations,
            seconds=self.seconds,
            random_state=np.random.RandomState(rng.getrandbits(31)),
            ismcts=ismcts,
        )
        bot.set_resampler(lambda state, player: _world(game, contract, view, rng))
        start = time.perf_counter()
        action = int(bot.step(root))
        self.stats["decisions"] += 1
        self.stats["simulations"] += bot.done
        self.stats["seconds"] += time.perf_counter() - start
        return action if action in legal else self.fallback.act(view)


def _world(game, contract, view, rng: random.Random):
    """An OpenSpiel state of the view's deal with the unseen cards drawn at random."""
    from .openspiel import KierkiState

    return KierkiState(game, GameState.from_view(game.spec, contract, view, sample_hands(view, rng)))


def _scale(view, contract) -> float:
    """The typical size of a seat's score in this deal: the contract's points per seat."""
    from .ruleset.semantics import contract_total

    total = contract_total(contract, view.tricks_total or 13, view.players, view.deck)
    return max(1.0, abs(total) / view.players) if total else 10.0


def _rollouts(mcts, np):
    """OpenSpiel's ``RandomRolloutEvaluator`` with its rollouts stepped on our game state
    directly instead of through pyspiel's layer of a Python game: the same random actions
    (its ``choice`` of a list draws ``randint(0, len)``), the same returns, faster."""

    class Rollouts(mcts.RandomRolloutEvaluator):
        def evaluate(self, state):
            result = None
            draw = self._random_state
            for _ in range(self.n_rollouts):
                game = state.core.clone()
                while not game.is_terminal():
                    if game.is_chance():
                        actions, probs = zip(*game.chance_outcomes())
                        game.apply_action(int(draw.choice(actions, p=probs)))
                    else:
                        acts = game.legal_actions()
                        game.apply_action(acts[draw.randint(0, len(acts))])
                returns = np.array(game.returns())
                result = returns if result is None else result + returns
            return result / self.n_rollouts

    return Rollouts


class _TimeUp(Exception):
    """The think time is over: stop sampling worlds."""


def _TimedBot(game, evaluator, uct_c, max_simulations, seconds, random_state, ismcts):
    """An ``ISMCTSBot`` that also stops after ``seconds`` (once the root has two visits) and
    counts its simulations in ``done``."""

    class Bot(ismcts.ISMCTSBot):
        done = 0

        def sample_root_state(self, state):
            if seconds and self.done >= 2 and time.perf_counter() - self.start >= seconds:
                raise _TimeUp
            self.done += 1
            return super().sample_root_state(state)

        def run_search(self, state):
            self.start = time.perf_counter()
            self.done = 0
            try:
                return super().run_search(state)
            except _TimeUp:
                return self.get_final_policy(state, self._root_node)

    return Bot(
        game,
        evaluator,
        uct_c,
        max_simulations,
        random_state=random_state,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )


__all__ = ["ISMCTSPlayer"]
