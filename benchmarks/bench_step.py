"""Stepping speed: ``legal_actions`` + ``apply_action`` on our Hearts against OpenSpiel's C++
Hearts stepped from Python, side by side in one process, as a ratio. Ours is measured twice:
through the compiled step core (``kierki_dsl.interpreter.stepper``, the default where the C
extension is built) and on the interpreter's ``TrickDeal``.

    python benchmarks/bench_step.py [--deals 300] [--rounds 5]

Each round deals ``--deals`` hands for each engine outside the clock (OpenSpiel: the pass
direction and 52 chance outcomes; ours: ``contract.new_deal`` on a shuffled deck), then times
only the decisions — passing three cards each, then 52 plays — each a ``legal_actions()``
call and an ``apply_action()`` of a uniformly random legal action. The engines alternate
round by round; medians of decisions per second are reported, with their ratio. Also shown:
the same game through ``kierki_dsl.openspiel`` (our ruleset as a Python OpenSpiel game).
Needs ``pip install 'kierki-dsl[openspiel]'``.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl.interpreter import stepper  # noqa: E402
from kierki_dsl.interpreter.match import deal_out, shuffled  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402

RULESET = ROOT / "rulesets" / "games" / "hearts_openspiel.yaml"


def ours(rs, n: int, seed: int) -> float:
    """Decisions per second of the interpreter on ``n`` dealt Hearts hands (passing left)."""
    rng = random.Random(seed)
    c = rs.contracts["hand"]
    states = [c.new_deal(4, rs.deck, 3, deal_out(shuffled(rng, rs.deck), 3, 4), 1, 1) for _ in range(n)]
    return _decisions_per_second(states, rng)


def core(rs, n: int, seed: int) -> float:
    """Decisions per second of the compiled step core on the same hands as ``ours``."""
    rng = random.Random(seed)
    c = rs.contracts["hand"]
    states = [stepper.new_deal(c, 4, rs.deck, 3, deal_out(shuffled(rng, rs.deck), 3, 4), 1, 1) for _ in range(n)]
    return _decisions_per_second(states, rng)


def _dealt(game, n: int, rng, first=()) -> list:
    """``n`` states of a pyspiel game with the chance nodes played out (after ``first`` actions)."""
    states = []
    for _ in range(n):
        st = game.new_initial_state()
        for action in first:
            st.apply_action(action)
        while st.is_chance_node():
            outcomes = st.legal_actions()
            st.apply_action(outcomes[rng.randrange(len(outcomes))])
        states.append(st)
    return states


def _decisions_per_second(states, rng) -> float:
    """Decisions per second stepping ``states`` to their end with random legal actions."""
    grb = rng.getrandbits
    steps = 0
    t0 = time.perf_counter()
    for st in states:
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[(grb(32) * len(acts)) >> 32])
            steps += 1
    return steps / (time.perf_counter() - t0)


def openspiel(game, n: int, seed: int) -> float:
    """Decisions per second of a pyspiel game on ``n`` hands dealt beforehand (passing left)."""
    rng = random.Random(seed)
    return _decisions_per_second(_dealt(game, n, rng, first=(1,)), rng)  # pass left, as our first deal does


def adapter(game, n: int, seed: int) -> float:
    """Decisions per second of our ruleset as a Python OpenSpiel game (kierki_dsl.openspiel)."""
    rng = random.Random(seed)
    return _decisions_per_second(_dealt(game, n, rng), rng)


def whole_deals(make, n: int, seed: int) -> float:
    """Deals per second, dealing included: ``make(rng)`` gives a state ready to step."""
    rng = random.Random(seed)
    grb = rng.getrandbits
    t0 = time.perf_counter()
    for _ in range(n):
        st = make(rng)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[(grb(32) * len(acts)) >> 32])
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="hands per engine per round")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    try:
        import pyspiel

        import kierki_dsl.openspiel as kos
    except ImportError:
        sys.exit("bench_step needs OpenSpiel: pip install 'kierki-dsl[openspiel]'")
    rs = Ruleset.load(str(RULESET))
    theirs_game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    our_game = kos.load(str(RULESET))
    contract = rs.contracts["hand"]

    def our_deal(rng):
        return contract.new_deal(4, rs.deck, 3, deal_out(shuffled(rng, rs.deck), 3, 4), 1, 1)

    def core_deal(rng):
        return stepper.new_deal(contract, 4, rs.deck, 3, deal_out(shuffled(rng, rs.deck), 3, 4), 1, 1)

    def their_deal(rng):
        st = theirs_game.new_initial_state()
        st.apply_action(1)
        return st  # the chance nodes are stepped like decisions: legal_actions + apply_action

    built = stepper.available()
    mine, theirs, wrapped, whole_mine, whole_theirs, cored, whole_core = [], [], [], [], [], [], []
    for r in range(args.rounds):
        theirs.append(openspiel(theirs_game, args.deals, 100 + r))
        if built:
            cored.append(core(rs, args.deals, 100 + r))
        mine.append(ours(rs, args.deals, 100 + r))
        wrapped.append(adapter(our_game, max(1, args.deals // 10), 100 + r))
        whole_theirs.append(whole_deals(their_deal, args.deals, 200 + r))
        if built:
            whole_core.append(whole_deals(core_deal, args.deals, 200 + r))
        whole_mine.append(whole_deals(our_deal, args.deals, 200 + r))
    m, t, w = statistics.median(mine), statistics.median(theirs), statistics.median(wrapped)
    wm, wt = statistics.median(whole_mine), statistics.median(whole_theirs)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; {args.rounds} rounds of "
          f"{args.deals} hands, interleaved; legal_actions + apply_action per decision")
    print(f"{'engine':<52}{'decisions/s':>14}{'ratio':>8}")
    print(f"{'OpenSpiel hearts (C++), stepped from Python':<52}{t:>14.0f}{1.0:>8.2f}")
    if built:
        k = statistics.median(cored)
        print(f"{'kierki-dsl step core (C), hearts_openspiel.yaml':<52}{k:>14.0f}{k / t:>8.2f}")
    else:
        print("kierki-dsl step core: not built here (no C compiler at install), interpreter only")
    print(f"{'kierki-dsl interpreter, hearts_openspiel.yaml':<52}{m:>14.0f}{m / t:>8.2f}")
    print(f"{'kierki-dsl through kierki_dsl.openspiel (Python game)':<52}{w:>14.0f}{w / t:>8.2f}")
    print(f"whole deals, dealing included (OpenSpiel steps its 52 chance nodes, we shuffle): OpenSpiel "
          f"{wt:.0f} deals/s, kierki-dsl interpreter {wm:.0f} deals/s, ratio {wm / wt:.2f}")
    if built:
        wk = statistics.median(whole_core)
        print(f"  kierki-dsl step core {wk:.0f} deals/s, ratio {wk / wt:.2f}")


if __name__ == "__main__":
    main()
