"""A policy that learns Kierki's "bez lew" (no tricks: each trick taken costs 20) by policy
gradient (REINFORCE with a running baseline), on the batched environment, with numpy only.

    python examples/vecenv_policy_gradient.py [--iterations 300] [--envs 256]

Seat 0 learns a softmax policy over its legal cards, linear in a few features of each card
read from its observation tensor; the three other seats play at random (the batch's random players, in
C). After training, the greedy policy and random play are each scored on the same deals
(``--eval-deals`` deals dealt from one seed): the mean points per deal of seat 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# the matrices are small: BLAS threads would only wait for each other on a busy machine
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl.vecenv import VecDeals  # noqa: E402

RULESET = ROOT / "rulesets" / "kierki_standard.yaml"
SEAT = 0


class Policy:
    """A softmax over the legal cards of ``theta . features(card)``: a few features a player
    would look at (the card's rank; leading, following or discarding; whether it would take
    the trick as it stands; whether the seat plays last), each alone and times the rank."""

    FEATURES = 12

    def __init__(self, deals: VecDeals) -> None:
        self.theta = np.zeros(self.FEATURES)
        self.players = deals.players
        self.trick, self.led = deals.part("trick"), deals.part("led")
        self.rank = (np.arange(52) % 13) / 12.0  # 2 .. ace as 0 .. 1
        self.suit = np.arange(52) // 13

    def features(self, obs: np.ndarray) -> np.ndarray:
        """(deals, 52 cards, FEATURES) features of playing each card now."""
        n = len(obs)
        trick = obs[:, self.trick].reshape(n, self.players, 52).max(axis=1)  # the cards on the table
        led = obs[:, self.led].argmax(axis=1) - 1  # -1: nothing led yet
        leading = (led < 0)[:, None] & np.ones(52, bool)
        following = self.suit[None, :] == led[:, None]
        discarding = ~leading & ~following
        on_table = np.where((trick > 0) & (self.suit[None, :] == led[:, None]), self.rank[None, :], -1.0)
        takes = following & (self.rank[None, :] > on_table.max(axis=1, keepdims=True))
        last = (trick.sum(axis=1) == self.players - 1)[:, None] & np.ones(52, bool)
        rank = np.broadcast_to(self.rank, (n, 52))
        parts = [leading, following, discarding, takes, takes & last, last & following]
        parts = [p.astype(np.float64) for p in parts]
        return np.stack(parts + [p * rank for p in parts], axis=2)

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> tuple:
        phi = self.features(obs)
        logits = np.where(mask[:, :52] > 0, phi @ self.theta, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True), phi

    def sample(self, obs, mask, rng) -> np.ndarray:
        p, _ = self.probs(obs, mask)
        u = rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), 51)

    def greedy(self, obs, mask) -> np.ndarray:
        return self.probs(obs, mask)[0].argmax(axis=1)

    def update(self, obs, mask, actions, advantages, lr: float) -> None:
        """One REINFORCE step: grad log pi(a) = phi(a) - E_pi[phi], weighted by the advantage."""
        p, phi = self.probs(obs, mask)
        taken = phi[np.arange(len(actions)), actions]
        expected = np.einsum("nc,nck->nk", p, phi)
        self.theta += lr * (advantages[:, None] * (taken - expected)).mean(axis=0)


def rollout(deals: VecDeals, policy: Policy, steps: int, state: dict, rng) -> tuple:
    """``steps`` decisions of seat 0 in every deal; the decisions whose deal ended, each with
    the points seat 0 took from that decision on (the deal's points less its score before the
    decision, read from the observation) and its hand size: (obs, mask, actions, returns, sizes)."""
    n = deals.num_envs
    out = state["out"]
    obs = np.zeros((steps, n, deals.obs_size), np.float32)
    masks = np.zeros((steps, n, deals.num_actions), np.int8)
    acts = np.zeros((steps, n), np.int64)
    returns = np.zeros((steps, n))
    start = np.zeros(n, np.int64)  # where each deal's decisions start in this rollout
    scores, sizes = deals.part("scores"), deals.part("hand_sizes")
    for t in range(steps):
        obs[t], masks[t] = out.obs, out.mask
        acts[t] = policy.sample(out.obs, out.mask, rng)
        deals.step(acts[t])
        out = deals.autoplay(SEAT)
        for i in np.flatnonzero(out.done):
            returns[start[i] : t + 1, i] = out.rewards[i, SEAT]
            start[i] = t + 1
    state["out"] = out
    kept = np.arange(steps)[:, None] < start[None, :]
    o = obs[kept]
    to_go = returns[kept] - o[:, scores][:, SEAT]
    return o, masks[kept], acts[kept], to_go, o[:, sizes][:, SEAT].astype(np.int64)


def evaluate(policy, deals: int, seed: int) -> float:
    """Seat 0's mean points over ``deals`` deals (one per batched deal, dealt from ``seed``),
    playing ``policy`` (None: each legal card alike)."""
    batch = VecDeals(RULESET, deals)
    batch.reset(seed)
    out = batch.autoplay(SEAT)
    scores = np.full(deals, np.nan)
    while np.isnan(scores).any():
        acts = batch.random_actions().copy() if policy is None else policy.greedy(out.obs, out.mask)
        batch.step(acts)
        out = batch.autoplay(SEAT)
        first = out.done & np.isnan(scores)
        scores[first] = out.rewards[first, SEAT]
    return float(scores.mean())


def main(argv=None) -> tuple:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=150)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=26, help="decisions per deal and iteration (13: one deal)")
    ap.add_argument("--lr", type=float, default=5.0)
    ap.add_argument("--eval-deals", type=int, default=2048)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    deals = VecDeals(RULESET, args.envs)
    deals.reset(args.seed)
    policy = Policy(deals)
    state = {"out": deals.autoplay(SEAT)}
    baseline = np.zeros(14)  # the points still to come, by cards in hand (a running mean)
    t0 = time.perf_counter()
    for it in range(args.iterations):
        obs, masks, acts, to_go, sizes = rollout(deals, policy, args.steps, state, rng)
        if not len(acts):
            continue
        for h in np.unique(sizes):
            baseline[h] += 0.2 * (to_go[sizes == h].mean() - baseline[h])
        policy.update(obs, masks, acts, (to_go - baseline[sizes]) / 20.0, args.lr)
        if not args.quiet and (it % 25 == 0 or it == args.iterations - 1):
            mean = float(to_go[sizes == 13].mean()) if (sizes == 13).any() else float("nan")
            print(f"iteration {it:4d}: mean points per deal {mean:7.2f} ({time.perf_counter() - t0:.1f} s)")
    eval_seed = 10**6 + args.seed
    random_score = evaluate(None, args.eval_deals, eval_seed)
    learned_score = evaluate(policy, args.eval_deals, eval_seed)
    if not args.quiet:
        print(
            f"on {args.eval_deals} deals: random play {random_score:.2f} points per deal, "
            f"the learned policy {learned_score:.2f} ({time.perf_counter() - t0:.1f} s in all)"
        )
    return random_score, learned_score


if __name__ == "__main__":
    main()
