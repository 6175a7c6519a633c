"""Stepping speed: ``legal_actions`` + ``apply_action`` on our Hearts against OpenSpiel's C++
Hearts stepped from Python, side by side in one process, as a ratio. Ours is measured twice:
through the compiled step core (``kierki_dsl.interpreter.stepper``, the default where the C
extension is built) and on the interpreter's ``TrickDeal``.

    python benchmarks/bench_step.py [--deals 300] [--rounds 5]

Each round deals ``--deals`` hands for each engine outside the clock (OpenSpiel: the pass
direction and 52 chance outcomes; ours: ``contract.new_deal`` on a shuffled deck), then times
only the decisions — passing three cards each, then 52 plays — each a ``legal_actions()``
call and an ``apply_action()`` of a uniformly random legal action. The three stepping engines
take turns every ``--chunk`` hands, so a load that comes and goes on a shared machine falls
on all of them alike; per round, each engine's decisions per second and its ratio to
OpenSpiel's are taken, and the medians over the rounds reported. Also shown:
the same game through ``kierki_dsl.openspiel`` (our ruleset as a Python OpenSpiel game).
Needs ``pip install 'kierki-dsl[openspiel]'``.
"""
from __future__ import annotations

import argparse
import functools
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


def hands(new, rs, n: int, rng) -> list:
    """``n`` Hearts hands dealt by ``new`` (``contract.new_deal`` or ``stepper.new_deal``
    with the contract bound), passing left."""
    return [new(4, rs.deck, 3, deal_out(shuffled(rng, rs.deck), 3, 4), 1, 1) for _ in range(n)]


def interleaved(makers: dict, n: int, seed: int, chunk: int) -> dict:
    """Decisions per second of each engine (``makers``: name -> ``make(n, rng)`` giving ``n``
    states), the engines stepping ``chunk`` hands each in turn."""
    states = {name: make(n, random.Random(seed)) for name, make in makers.items()}
    rngs = {name: random.Random(seed + 1) for name in makers}
    steps, seconds = dict.fromkeys(makers, 0), dict.fromkeys(makers, 0.0)
    for i in range(0, n, chunk):
        for name in makers:
            got, took = _steps_and_seconds(states[name][i:i + chunk], rngs[name].getrandbits)
            steps[name] += got
            seconds[name] += took
    return {name: steps[name] / seconds[name] for name in makers}


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
    steps, seconds = _steps_and_seconds(states, rng.getrandbits)
    return steps / seconds


def _steps_and_seconds(states, grb) -> tuple:
    """(decisions, seconds) stepping ``states`` to their end with random legal actions."""
    steps = 0
    t0 = time.perf_counter()
    for st in states:
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[(grb(32) * len(acts)) >> 32])
            steps += 1
    return steps, time.perf_counter() - t0


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
    ap.add_argument("--chunk", type=int, default=10, help="hands each engine steps before the next takes over")
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
    makers = {"theirs": lambda n, rng: _dealt(theirs_game, n, rng, first=(1,)),  # pass left, as our first deal
              "interpreter": lambda n, rng: hands(contract.new_deal, rs, n, rng)}
    if built:
        makers["core"] = lambda n, rng: hands(functools.partial(stepper.new_deal, contract), rs, n, rng)
    rates: dict = {name: [] for name in makers}
    ratios: dict = {name: [] for name in makers}
    wrapped, whole_mine, whole_theirs, whole_core = [], [], [], []
    for r in range(args.rounds):
        got = interleaved(makers, args.deals, 100 + r, args.chunk)
        for name, rate in got.items():
            rates[name].append(rate)
            ratios[name].append(rate / got["theirs"])
        wrapped.append(adapter(our_game, max(1, args.deals // 10), 100 + r))
        whole_theirs.append(whole_deals(their_deal, args.deals, 200 + r))
        if built:
            whole_core.append(whole_deals(core_deal, args.deals, 200 + r))
        whole_mine.append(whole_deals(our_deal, args.deals, 200 + r))
    t, w = statistics.median(rates["theirs"]), statistics.median(wrapped)
    wm, wt = statistics.median(whole_mine), statistics.median(whole_theirs)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; {args.rounds} rounds of "
          f"{args.deals} hands, engines taking turns every {args.chunk} hands; legal_actions + apply_action per "
          "decision; medians of the rounds' rates and of their ratios to OpenSpiel")
    print(f"{'engine':<52}{'decisions/s':>14}{'ratio':>8}")
    print(f"{'OpenSpiel hearts (C++), stepped from Python':<52}{t:>14.0f}{1.0:>8.2f}")
    if built:
        k, kr = statistics.median(rates["core"]), statistics.median(ratios["core"])
        print(f"{'kierki-dsl step core (C), hearts_openspiel.yaml':<52}{k:>14.0f}{kr:>8.2f}")
    else:
        print("kierki-dsl step core: not built here (no C compiler at install), interpreter only")
    m, mr = statistics.median(rates["interpreter"]), statistics.median(ratios["interpreter"])
    print(f"{'kierki-dsl interpreter, hearts_openspiel.yaml':<52}{m:>14.0f}{mr:>8.2f}")
    print("per-round ratios of the core: " + " ".join(f"{x:.2f}" for x in ratios.get("core", [])))
    print(f"{'kierki-dsl through kierki_dsl.openspiel (Python game)':<52}{w:>14.0f}{w / t:>8.2f}")
    print(f"whole deals, dealing included (OpenSpiel steps its 52 chance nodes, we shuffle): OpenSpiel "
          f"{wt:.0f} deals/s, kierki-dsl interpreter {wm:.0f} deals/s, ratio {wm / wt:.2f}")
    if built:
        wk = statistics.median(whole_core)
        print(f"  kierki-dsl step core {wk:.0f} deals/s, ratio {wk / wt:.2f}")


if __name__ == "__main__":
    main()
