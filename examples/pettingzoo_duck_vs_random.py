"""Evaluate a tiny policy on any ruleset through the PettingZoo environment.

    python examples/pettingzoo_duck_vs_random.py [RULESET] [--deal 4] [--episodes 200]

Seat 0 ducks: reading the trick and the led suit from its own observation tensor, it plays
its highest card that does not beat the trick when it follows, its highest card when it
cannot follow, its lowest when it leads. The other seats play uniformly at random from the
action mask. Over seeded episodes of one deal it prints each seat's mean reward with a 95%
interval; in a negative deal (by default Kierki's "no jacks") ducking loses fewer points.
Needs ``pip install 'kierki-dsl[rl]'``.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl.adapters.knowledge import part  # noqa: E402
from kierki_dsl.pettingzoo import env  # noqa: E402


def duck(e, obs) -> int:
    """The ducking policy, from the observation alone."""
    legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
    cards = [a for a in legal if a < 52]
    if not cards:  # a trump call, a bet, a pass: the first choice will do
        return legal[0]
    rank = lambda c: c % 13  # noqa: E731
    trick = part(e.spec, False, obs["observation"], "trick").sum(axis=0)
    led = int(np.argmax(part(e.spec, False, obs["observation"], "led"))) - 1
    if led < 0:  # leading
        return min(cards, key=rank)
    in_suit = [c for c in np.flatnonzero(trick) if c // 13 == led]
    top = max(in_suit, key=rank)
    if all(c // 13 == led for c in cards):  # following suit: the highest card under the top one
        under = [c for c in cards if rank(c) < rank(top)]
        return max(under, key=rank) if under else min(cards, key=rank)
    return max(cards, key=rank)  # void: throw the highest


def evaluate(ruleset: str, deal: int, episodes: int, seed: int = 0) -> list:
    """Per seat, (mean reward, half-width of the 95% interval) over the episodes."""
    e = env(ruleset, deal=deal)
    rng = np.random.default_rng(seed)
    rewards = {a: [] for a in e.possible_agents}
    for episode in range(episodes):
        e.reset(seed=seed * 100_003 + episode)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            total[agent] += reward
            if terminated or truncated:
                e.step(None)
            elif agent == e.possible_agents[0]:
                e.step(duck(e, obs))
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a in e.possible_agents:
            rewards[a].append(total[a])
    out = []
    for a in e.possible_agents:
        xs = np.array(rewards[a])
        half = 1.96 * xs.std(ddof=1) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
        out.append((float(xs.mean()), float(half)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", nargs="?", default=str(ROOT / "rulesets" / "variants" / "jacks_only.yaml"))
    ap.add_argument("--deal", type=int, default=4, help="which deal of the schedule (1-based)")
    ap.add_argument("--episodes", type=int, default=200)
    args = ap.parse_args()
    for seat, (mean, half) in enumerate(evaluate(args.ruleset, args.deal, args.episodes)):
        print(f"seat {seat} ({'duck' if seat == 0 else 'random':<6}): {mean:+8.2f} ± {half:.2f}")


if __name__ == "__main__":
    main()
