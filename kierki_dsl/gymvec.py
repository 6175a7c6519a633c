"""A trick deal as a gymnasium ``VectorEnv``: one learning seat against random players, many
deals at once on the compiled step core (``kierki_dsl.vecenv``; ``pip install 'kierki-dsl[rl]'``).

    from kierki_dsl.gymvec import KierkiVectorEnv
    venv = KierkiVectorEnv("rulesets/kierki_standard.yaml", num_envs=256, deal=1, seat=0)
    obs, info = venv.reset(seed=0)
    obs, reward, terminated, truncated, info = venv.step(actions)

Each observation is a dict as the PettingZoo environment's: ``observation`` (the seat's tensor)
and ``action_mask`` (its legal actions). The other seats play each legal action alike (the
batch's random players, in C) until the learning seat is on turn. The reward of a step is the
learning seat's points of a deal that ended during it (0 otherwise); a deal that ends is dealt
again in the same step (``AutoresetMode.SAME_STEP``), so the observation returned is then the
new deal's. Deal ``i`` seeded with ``seed + i`` is dealt as ``VecDeals`` deals it. For every seat
learning at once (self-play), use ``kierki_dsl.vecenv.VecDeals`` itself.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("kierki_dsl.gymvec needs gymnasium: pip install 'kierki-dsl[rl]'") from e

from .adapters.game import whole
from .vecenv import Step, VecDeals

SAME_STEP: Any
try:
    from gymnasium.vector import AutoresetMode

    SAME_STEP = AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover - gymnasium before 1.1 names no autoreset modes
    SAME_STEP = "same-step"


class KierkiVectorEnv(VectorEnv):
    """``num_envs`` deals of one trick contract, ``seat`` learning against random players."""

    metadata = {"autoreset_mode": SAME_STEP, "render_modes": []}

    def __init__(self, ruleset, num_envs: int, deal: int = 1, seat: int = 0) -> None:
        self.deals = VecDeals(ruleset, num_envs, deal)
        seat = whole(seat, "seat")
        if not 0 <= seat < self.deals.players:
            raise ValueError(f"seat must be 0..{self.deals.players - 1}, got {seat}")
        num_envs = self.deals.num_envs  # (an int: num_envs=2.0 is 2, as VecDeals took it)
        self.seat, self.num_envs = seat, num_envs
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.deals.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.deals.num_actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(self.deals.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed=None, options=None):
        """Deal every deal again (deal ``i`` from ``seed + i``; no seed: 0) and play on to
        the learning seat's turn."""
        self.deals.reset(0 if seed is None else int(seed))
        return self._returned(self.deals.autoplay(self.seat)), {}

    def step(self, actions):
        """The learning seat's action in each deal (``ValueError`` if one is not legal)."""
        self.deals.step(actions, tensors=False)  # autoplay writes the tensors the learner gets
        out = self.deals.autoplay(self.seat)  # adds the points of deals that end meanwhile
        reward = out.rewards[:, self.seat].copy()
        done = out.done.copy()
        return self._returned(out), reward, done, np.zeros(self.num_envs, np.bool_), {}

    @staticmethod
    def _returned(out: Step) -> dict:
        return {"observation": out.obs.copy(), "action_mask": out.mask.copy()}

    def close(self, **kwargs) -> None:
        """Nothing to release: the deals live in this process."""


__all__ = ["KierkiVectorEnv"]
