"""Stepping Hearts through the adapters, per decision, against OpenSpiel's C++ Hearts stepped from
Python, side by side in one process, as ratios.

    python benchmarks/bench_adapters.py [--deals 200] [--rounds 5] [--chunk 10]

Engines (``rulesets/games/hearts_openspiel.yaml``; OpenSpiel's ``hearts`` with default parameters):

- ``theirs``: ``pyspiel.load_game("hearts")``, stepped from Python;
- ``GameState``: the adapters' framework-free core (``kierki_dsl.adapters.game``);
- ``kierki_dsl.openspiel``: our ruleset as a Python OpenSpiel game, stepped through pyspiel;
- ``PettingZoo``: ``kierki_dsl.pettingzoo.env``, the AEC loop as its documentation writes it
  (``agent_iter``, ``last()`` with its observation tensor and action mask, ``step``), the mask read
  with ``np.flatnonzero``, the dead steps at the end included;
- ``pyspiel floor``: a Python OpenSpiel game that does nothing (``legal_actions`` answered in
  Python, as ours is), for what pyspiel's round trips alone cost;
- ``PettingZoo floor``: an AEC environment that does nothing but build an observation of the same
  size and a mask, for what PettingZoo's loop alone costs;
- ``PettingZoo wrapped`` and ``PettingZoo floor wrapped``: the same two in PettingZoo's default
  wrappers (``AssertOutOfBoundsWrapper`` inside ``OrderEnforcingWrapper``, as PettingZoo's own
  ``env()`` wraps its ``raw_env()``); ``kierki_dsl.pettingzoo.env`` itself wraps nothing;
- ``PettingZoo user's part``: the PettingZoo loop with the environment's calls answered by C
  builtins returning constants (``UsersPart``): what the user's own code in the loop costs
  (``np.flatnonzero`` on the mask, the pick), so that *PettingZoo* minus it is the environment's.

A decision of the first four is ``is_terminal()`` + ``legal_actions()`` + ``apply_action()`` of a
random legal action (PettingZoo: ``last()`` + ``step()``). The chance nodes (the pass direction,
the deal) are played outside the clock, except PettingZoo's, whose ``reset`` deals (also outside).
Each engine first steps ``--warm`` hands unmeasured (our C memos of a deal's end fill as deals end:
``stepper._memos``; a long run of training steps past the warm-up).
Engines take turns every ``--chunk`` hands, so a load that comes and goes falls on all alike; each
is timed by this process's CPU time (``--wall``: the wall clock, which counts the time other jobs
of a busy machine take from it); the medians over the rounds of each engine's decisions per second and of its ratio to OpenSpiel are
reported. ``--instructions`` counts each engine's stepping loop in machine instructions with
valgrind's callgrind instead (deterministic, so comparable on a busy machine; as
``step_instructions.py`` does). Needs ``pip install 'kierki-dsl[openspiel,rl]'``.
"""

from __future__ import annotations

import argparse
import itertools
import operator
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402

from kierki_dsl.adapters.game import GameSpec, GameState, ruleset_at  # noqa: E402
from kierki_dsl.interpreter import stepper  # noqa: E402

RULESET = str(ROOT / "rulesets" / "games" / "hearts_openspiel.yaml")


def chance_played(states: list, rng) -> list:
    """``states`` (pyspiel states or ``GameState``s) with their chance nodes played at random."""
    for st in states:
        while st.is_chance_node() if hasattr(st, "is_chance_node") else st.is_chance():
            outcomes = st.legal_actions()
            st.apply_action(outcomes[rng.randrange(len(outcomes))])
    return states


#: The clock of the timed rounds: this process's CPU time (what other jobs on a busy machine do not
#: add to), or with ``--wall`` the wall clock.
CLOCK = {"clock": time.process_time}


def stepped(states: list, grb) -> tuple:
    """(decisions, seconds) stepping ``states`` to their end with random legal actions."""
    steps = 0
    t0 = CLOCK["clock"]()
    for st in states:
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[(grb(32) * len(acts)) >> 32])
            steps += 1
    return steps, CLOCK["clock"]() - t0


def aec_stepped(envs: list, grb) -> tuple:
    """(decisions, seconds) of PettingZoo's AEC loop over ``envs`` (each just reset)."""
    steps = 0
    t0 = CLOCK["clock"]()
    for env in envs:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[(grb(32) * len(legal)) >> 32]))
            steps += 1
    return steps, CLOCK["clock"]() - t0


def floor_game():
    """A Python OpenSpiel game of 64 decisions among 10 actions that does nothing else."""
    import pyspiel

    kind = pyspiel.GameType(
        short_name="kierki_dsl_bench_floor",
        long_name="a Python game doing nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=52,
        max_chance_outcomes=52,
        num_players=4,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=64,
    )
    legal = list(range(10))

    class Floor(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.n = 0

        def current_player(self):
            return self.n % 4

        def _legal_actions(self, player):
            return legal

        def legal_actions(self, player=None):
            return legal

        def _apply_action(self, action):
            self.n += 1

        def is_terminal(self):
            return self.n >= 64

        def returns(self):
            return [0.0] * 4

    class FloorGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(kind, info, params or {})

        def new_initial_state(self):
            return Floor(self)

    pyspiel.register_game(kind, FloorGame)
    return pyspiel.load_game(kind.short_name)


def aec_floor(size: int, actions: int):
    """A PettingZoo AEC environment of 64 decisions among 10 actions that does nothing else but
    build its observation (a zeroed tensor of ``size`` and an action mask), as ours does."""
    from gymnasium import spaces
    from pettingzoo import AECEnv

    class Floor(AECEnv):
        metadata = {"name": "floor_v0", "is_parallelizable": False}

        def __init__(self):
            super().__init__()
            self.possible_agents = [f"player_{s}" for s in range(4)]
            self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}

        def action_space(self, agent):
            return self.action_spaces[agent]

        def reset(self, seed=None, options=None):
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self.n = 0
            self.agent_selection = self.agents[0]

        def observe(self, agent):
            mask = np.zeros(actions, np.int8)
            mask[:10] = 1
            return {"observation": np.zeros(size, np.float32), "action_mask": mask}

        def step(self, action):
            if self.terminations[self.agent_selection]:
                self._was_dead_step(action)
                return
            self.n += 1
            self._cumulative_rewards[self.agent_selection] = 0.0
            if self.n >= 64:
                self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self.agent_selection = self.possible_agents[self.n % 4]

    return Floor


class UsersPart:
    """PettingZoo's loop (``aec_stepped``) with the environment's calls answered by C builtins
    returning constants, for what the loop's own part costs (the user's: reading the mask with
    ``np.flatnonzero``, drawing an action): 64 decisions among the legal actions of a Hearts
    lead (13 cards), the observation and mask those of a real decision."""

    def __init__(self, observation, mask):
        got = ({"observation": observation, "action_mask": mask}, 0.0, False, False, {})
        self.last = itertools.repeat(got).__next__  # a C call returning the same tuple
        self.step = {}.get  # a C call taking the action, doing nothing
        self._agents = ["player_0", "player_1", "player_2", "player_3"] * 16

    def agent_iter(self):
        return iter(self._agents)


def wrapped(aec):
    """``aec`` in PettingZoo's default wrappers (as its own ``env()`` wraps ``raw_env()``)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(aec))


def makers() -> dict:
    """name -> (make(n, rng): ``n`` states or environments ready to step, step(items, grb))."""
    import pyspiel

    import kierki_dsl.openspiel as kos
    from kierki_dsl.pettingzoo import env

    theirs = pyspiel.load_game("hearts")
    ours = kos.load(RULESET)
    spec = GameSpec.make(ruleset_at(RULESET))
    floor = floor_game()
    probe = env(spec.ruleset)
    aec = aec_floor(probe.observation_space("player_0")["observation"].shape[0], probe.spec.num_actions)

    def floors(n, rng, wrap=lambda e: e):
        out = [wrap(aec()) for _ in range(n)]
        for e in out:
            e.reset()
        return out

    def theirs_states(n, rng):
        states = [theirs.new_initial_state() for _ in range(n)]
        for st in states:
            st.apply_action(1)  # pass left, as our first deal
        return chance_played(states, rng)

    def envs(n, rng, wrap=lambda e: e):
        out = [wrap(env(spec.ruleset)) for _ in range(n)]  # one ruleset loaded (and compiled) for all
        for e in out:
            e.reset(seed=rng.getrandbits(32))
        return out

    def users(n, rng):
        probe.reset(seed=1)
        for _ in range(12):  # the passes: a lead of 13 cards
            probe.step(int(np.flatnonzero(probe.last()[0]["action_mask"])[0]))
        obs = probe.last()[0]
        return [UsersPart(obs["observation"], obs["action_mask"]) for _ in range(n)]

    return {
        "theirs": (theirs_states, stepped),
        "GameState": (lambda n, rng: chance_played([GameState(spec) for _ in range(n)], rng), stepped),
        "kierki_dsl.openspiel": (
            lambda n, rng: chance_played([ours.new_initial_state() for _ in range(n)], rng),
            stepped,
        ),
        "PettingZoo": (envs, aec_stepped),
        "pyspiel floor": (lambda n, rng: [floor.new_initial_state() for _ in range(n)], stepped),
        "PettingZoo floor": (floors, aec_stepped),
        "PettingZoo wrapped": (lambda n, rng: envs(n, rng, wrapped), aec_stepped),
        "PettingZoo floor wrapped": (lambda n, rng: floors(n, rng, wrapped), aec_stepped),
        "PettingZoo user's part": (users, aec_stepped),
    }


def warmed(engines: dict, deals: int) -> None:
    """Step ``deals`` hands of each engine unmeasured."""
    for make, step in engines.values():
        rng = random.Random(1)
        step(make(deals, rng), rng.getrandbits)


def interleaved(engines: dict, n: int, seed: int, chunk: int) -> dict:
    """Decisions per second of each engine, the engines stepping ``chunk`` hands each in turn."""
    items = {name: make(n, random.Random(seed)) for name, (make, _) in engines.items()}
    rngs = {name: random.Random(seed + 1) for name in engines}
    steps, seconds = dict.fromkeys(engines, 0), dict.fromkeys(engines, 0.0)
    for i in range(0, n, chunk):
        for name, (_, step) in engines.items():
            got, took = step(items[name][i : i + chunk], rngs[name].getrandbits)
            steps[name] += got
            seconds[name] += took
    return {name: steps[name] / seconds[name] for name in engines}


def _step_counted(name: str, deals: int, warm: int) -> None:
    """Make ``deals`` items of engine ``name``, warm up on ``warm`` hands, then step them under
    ``operator.call`` (what callgrind counts); print the decisions stepped."""
    make, step = makers()[name]
    rng = random.Random(5)
    step(make(warm, rng), rng.getrandbits)
    items = make(deals, rng)
    got, _ = operator.call(step, items, random.Random(9).getrandbits)
    print(f"decisions {got}")


def _instructions(name: str, deals: int, warm: int) -> float:
    """Instructions per decision of engine ``name`` counted by valgrind's callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=_operator_call", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, __file__, "--engine", name, "--deals", str(deals), "--warm", str(warm)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    refs = int(re.search(r"refs:\s+([\d,]+)", done.stderr).group(1).replace(",", ""))
    return refs / int(re.search(r"decisions (\d+)", done.stdout).group(1))


def instructions(deals: int, warm: int, names: tuple) -> None:
    """Print each engine's instructions per decision and its ratio to OpenSpiel's."""
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind")
    counts = {name: _instructions(name, deals, warm) for name in ("theirs", *(n for n in names if n != "theirs"))}
    if "PettingZoo" in counts and USERS in counts:
        counts[ENVS] = counts["PettingZoo"] - counts[USERS]
    print(f"instructions per decision (callgrind, the stepping loop only), {deals} hands each after {warm}:")
    for name, count in counts.items():
        print(f"{_label(name):<44}{count:>10.0f}   ratio {counts['theirs'] / count:.2f}")


USERS = "PettingZoo user's part"
#: Not an engine: per round, PettingZoo's time per decision less its user's part's (timed runs with both).
ENVS = "PettingZoo minus the user's part"


def _label(name: str) -> str:
    return "OpenSpiel hearts (C++) from Python" if name == "theirs" else name


ENGINES = (
    "theirs",
    "GameState",
    "kierki_dsl.openspiel",
    "PettingZoo",
    "pyspiel floor",
    "PettingZoo floor",
    "PettingZoo wrapped",
    "PettingZoo floor wrapped",
    "PettingZoo user's part",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="hands per engine per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=10, help="hands each engine steps before the next takes over")
    ap.add_argument("--instructions", action="store_true", help="count instructions by callgrind instead of time")
    ap.add_argument("--wall", action="store_true", help="time by the wall clock instead of this process's CPU time")
    ap.add_argument("--warm", type=int, default=300, help="hands each engine steps unmeasured first")
    ap.add_argument("--only", nargs="+", choices=ENGINES, help="these engines (and OpenSpiel's) only")
    ap.add_argument("--engine", choices=ENGINES, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.engine:
        _step_counted(args.engine, args.deals, args.warm)
        return
    if args.instructions:
        instructions(args.deals, args.warm, tuple(args.only or ENGINES))
        return
    if args.wall:
        CLOCK["clock"] = time.perf_counter
    try:
        engines = makers()
    except ImportError:
        sys.exit("bench_adapters needs OpenSpiel and PettingZoo: pip install 'kierki-dsl[openspiel,rl]'")
    if args.only:
        engines = {name: got for name, got in engines.items() if name == "theirs" or name in args.only}
    warmed(engines, args.warm)
    rates: dict = {name: [] for name in engines}
    ratios: dict = {name: [] for name in engines}
    for r in range(args.rounds):
        got = interleaved(engines, args.deals, 100 + r, args.chunk)
        for name, rate in got.items():
            rates[name].append(rate)
            ratios[name].append(rate / got["theirs"])
    core = "the compiled step core" if stepper.available() else "the interpreter (no compiled core here)"
    print(
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average "
        f"{os.getloadavg()[0]:.1f}; {args.rounds} rounds of {args.deals} hands, engines taking turns every "
        f"{args.chunk} hands; our deals stepped by {core}; {'wall' if args.wall else 'CPU'} time; medians of the rounds"
    )
    print(f"{'engine (Hearts, per decision)':<44}{'decisions/s':>14}{'ratio':>8}   per-round ratios")
    if "PettingZoo" in engines and USERS in engines:  # the environment's own part: the loop's time less the user's
        rates[ENVS] = [1 / (1 / a - 1 / b) for a, b in zip(rates["PettingZoo"], rates[USERS])]
        ratios[ENVS] = [1 / (1 / a - 1 / b) for a, b in zip(ratios["PettingZoo"], ratios[USERS])]
    for name in rates:
        label = _label(name)
        per = " ".join(f"{x:.2f}" for x in ratios[name])
        print(f"{label:<44}{statistics.median(rates[name]):>14.0f}{statistics.median(ratios[name]):>8.2f}   {per}")


if __name__ == "__main__":
    main()
