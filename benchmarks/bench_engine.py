"""Throughput of the interpreter against the hand-specialised reference engine, same process.

    python benchmarks/bench_engine.py [--deals 3000] [--rounds 5] [--ref ../shared/bench/kierki_ref.py]
                                      [--only engine|command|workers]

Without the reference (a fresh clone has no ../shared) it says so and prints the absolute
figures alone. The command part measures ``kierki simulate`` itself, run in this process:
the marginal matches per CPU second of random players (the difference of a 600- and a
100-match run, so start-up and loading cancel out) against the reference's whole-match
rate, interleaved round by round; the same for heuristic players (a 350- minus a 50-match
run) against the same matches played through the general interpreter one decision at a
time, interleaved; and the wall and CPU time of 1500 heuristic matches with ``--workers 1``
and ``--workers 2``, interleaved round by round (the median of the rounds' speed-ups), with
the marginal speed-up of the second worker (1500 minus 300 matches: start-up, loading and
compiling cancel out). Every ratio is the median of ratios measured in the same round.

For each deal type (no-trump = deal 1, robber = deal 7, trump deals with a random trump,
Fan Tan, whole 12-deal matches) it plays random legal deals with kierki-dsl's compiled
whole-deal path and with the reference (imported from where it lies, never copied),
interleaved round by round, and prints the median deals/s of each and their ratio. It also
reports the general step-by-step interpreter, peak memory (and its growth with the number
of deals), the search player's playouts per second, the start-up time of `kierki --help`
and `kierki lint`, and OpenSpiel's Hearts where `open-spiel` is installed.
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl.interpreter.fastplay import compile_fast  # noqa: E402
from kierki_dsl.interpreter.match import deal_masks, deal_out, shuffled  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402
from kierki_dsl.simulate import FastMatch  # noqa: E402

KINDS = ["notrump", "robber", "trump", "fantan", "fullgame"]


def load_reference(path: str):
    spec = importlib.util.spec_from_file_location("kierki_ref", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Ours:
    def __init__(self, rs):
        self.rs = rs
        self.cards = [c for c in range(52) if rs.deck >> c & 1]
        self.fast = {name: compile_fast(c, 4, 13, rs.deck) for name, c in rs.contracts.items()}
        self.match = FastMatch(rs)

    def run(self, kind: str, n: int, seed: int) -> float:
        rng = random.Random(seed)
        grb = rng.getrandbits
        cards = self.cards
        t0 = time.perf_counter()
        if kind == "fullgame":
            for g in range(n):
                self.match.play(seed * 100_003 + g)
            return time.perf_counter() - t0
        name = {"notrump": "bez_lew", "robber": "rozbojnik", "trump": "atu", "fantan": "loteryjka"}[kind]
        play = self.fast[name]
        for d in range(n):
            hands = deal_masks(rng, cards, d & 3, 4)
            trump = grb(2) if kind == "trump" else -1
            play(hands, (d + 1) & 3, trump, grb)
        return time.perf_counter() - t0

    def run_stepwise(self, n: int, seed: int) -> float:
        """The general interpreter, one apply_action per card, random legal play."""
        rng = random.Random(seed)
        c = self.rs.contracts["bez_lew"]
        t0 = time.perf_counter()
        for d in range(n):
            st = c.new_deal(4, self.rs.deck, d & 3, deal_out(shuffled(rng, self.rs.deck), d & 3, 4))
            while not st.is_terminal():
                acts = st.legal_actions()
                st.apply_action(acts[(rng.getrandbits(32) * len(acts)) >> 32])
        return time.perf_counter() - t0


def peak_kib(fn) -> float:
    gc.collect()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1024


STARTUP = {
    "kierki --help": ["--help"],
    "kierki lint rulesets/kierki_standard.yaml": ["lint", "rulesets/kierki_standard.yaml"],
    # the floor: Python with the required libraries imported, doing nothing
    "python -c 'import attrs, yaml, typer'": None,
}


def startup_seconds(rounds: int = 11) -> dict:
    """Median wall time of each start-up command, the commands interleaved round by round."""
    exe = Path(sys.executable).with_name("kierki")
    kierki = [str(exe)] if exe.exists() else [sys.executable, "-m", "kierki_dsl"]
    floor = [sys.executable, "-c", "import attrs, yaml, typer"]
    times: dict = {name: [] for name in STARTUP}
    for _ in range(rounds):
        for name, args in STARTUP.items():
            t = time.perf_counter()
            subprocess.run(floor if args is None else kierki + args, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, cwd=ROOT)
            times[name].append(time.perf_counter() - t)
    return {name: statistics.median(ts) for name, ts in times.items()}


def search_rate(rs) -> tuple:
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import make_player

    p = make_player("search")
    players = [p] + [make_player("heuristic") for _ in range(3)]
    runner = MatchRunner(rs, players, 1)
    for r in runner.deals():
        if r.number >= 3:
            break
    s = p.stats
    return s["playouts"] / s["seconds"], s["seconds"] / max(1, s["decisions"])


def hearts_rates(n: int) -> tuple:
    """kierki-dsl's own Hearts ruleset (passing, 2C lead, hearts broken, moon), random play:
    (step by step through the interpreter, whole deals through the compiled path)."""
    rs = Ruleset.load(str(ROOT / "rulesets" / "games" / "hearts.yaml"))
    c = rs.contracts["hand"]
    rng = random.Random(1)
    t0 = time.perf_counter()
    for d in range(n):
        st = c.new_deal(4, rs.deck, d & 3, deal_out(shuffled(rng, rs.deck), d & 3, 4), 1, d + 1)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[(rng.getrandbits(32) * len(acts)) >> 32])
    step = n / (time.perf_counter() - t0)
    play = compile_fast(c, 4, 13, rs.deck)
    cards = list(range(52))
    grb = rng.getrandbits

    def holder_2c(hands):
        return next(s for s in range(4) if hands[s] >> 39 & 1)

    t0 = time.perf_counter()
    for d in range(4 * n):
        hands = deal_masks(rng, cards, d & 3, 4)
        play(hands, holder_2c(hands), -1, grb, 1, d + 1, holder_2c)
    return step, 4 * n / (time.perf_counter() - t0)


def openspiel_rate(n: int):
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    t0 = time.perf_counter()
    for _ in range(n):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                acts = st.legal_actions()
                st.apply_action(acts[rng.randrange(len(acts))])
    return n / (time.perf_counter() - t0)


def command_seconds(args: list) -> float:
    """CPU seconds of one ``kierki ...`` call run in this process (its output thrown away);
    every ruleset is loaded and compiled afresh, as in a new command."""
    import contextlib
    import io

    from kierki_dsl import simulate
    from kierki_dsl.cli import main as kierki

    simulate._COMPILED.clear()
    t0 = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = kierki(args)
    if code != 0:
        raise SystemExit(f"kierki {' '.join(args)} failed with exit code {code}")
    return time.process_time() - t0


def simulate_rate(players: str, small: int, big: int, seed: int) -> float:
    """Marginal matches per CPU second of ``kierki simulate --players P`` in one run: the
    difference of a big and a small run, so start-up, loading and the report cancel out."""
    path = str(ROOT / "rulesets" / "kierki_standard.yaml")
    base = ["simulate", path, "--players", players, "--seed", str(seed), "--format", "json", "--games"]
    return (big - small) / max(1e-9, command_seconds(base + [str(big)]) - command_seconds(base + [str(small)]))


def stepwise_heuristic_rate(games: int, seed: int) -> float:
    """Matches per CPU second of heuristic players through the general interpreter, one
    decision at a time (``MatchRunner``: the path every heuristic match took before the
    whole-deal fast path; the same matches, held to it by tests/test_fast_heuristic.py)."""
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import make_player

    rs = Ruleset.load(str(ROOT / "rulesets" / "kierki_standard.yaml"))
    t0 = time.process_time()
    for g in range(games):
        for _ in MatchRunner(rs, [make_player("heuristic") for _ in range(rs.players)], seed * 1000 + g).deals():
            pass
    return games / (time.process_time() - t0)


def workers_speedup(games: int, order=(1, 2)) -> dict:
    """Wall and CPU seconds (the command and its workers) of ``kierki simulate --players
    heuristic`` with 1 and 2 worker processes, run in ``order``: {workers: (wall, cpu)}."""
    import resource

    exe = Path(sys.executable).with_name("kierki")
    kierki = [str(exe)] if exe.exists() else [sys.executable, "-m", "kierki_dsl"]
    out = {}
    for w in order:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(kierki + ["simulate", "rulesets/kierki_standard.yaml", "--players", "heuristic", "--games",
                                 str(games), "--workers", str(w)], stdout=subprocess.DEVNULL, cwd=ROOT, check=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out[w] = (wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return out


def workers_figures(rounds: int, games: int = 1500, few: int = 300) -> None:
    """1 and 2 workers measured interleaved, round by round (the order alternating, so that
    a change of load on the machine falls on both): the median of the rounds' speed-ups,
    whole and marginal (``games`` minus ``few`` matches: start-up, loading and compiling,
    the same for any number of workers, cancel out)."""
    whole, marginal, cpu1, cpu2, loads = [], [], [], [], []
    for r in range(rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)
        big, small = workers_speedup(games, order), workers_speedup(few, order)
        whole.append(big[1][0] / big[2][0])
        marginal.append((big[1][0] - small[1][0]) / max(1e-9, big[2][0] - small[2][0]))
        cpu1.append(big[1][1])
        cpu2.append(big[2][1])
        loads.append(os.getloadavg()[0])
    med = statistics.median
    print(f"--workers 2 against 1, {games} heuristic matches, {rounds} rounds interleaved: speed-up {med(whole):.2f} "
          f"(median; rounds {', '.join(f'{x:.2f}' for x in whole)}; target 1.8; wall time, so other load on the "
          f"machine lowers it); marginal {med(marginal):.2f} (the last {games - few} matches); CPU "
          f"{med(cpu1):.1f} s and {med(cpu2):.1f} s (the command and its workers: what the second worker costs in "
          f"start-up and hand-over); load average {min(loads):.1f}-{max(loads):.1f} (2 cores)")


def command_figures(ref, rounds: int) -> None:
    """The whole command: random matches against the reference's whole-match rate (CPU time,
    interleaved), heuristic matches, and the speed-up of two worker processes."""
    mine, theirs = [], []
    for r in range(rounds):
        mine.append(simulate_rate("random", 100, 600, 1 + r))
        if ref is not None:
            t0 = time.process_time()
            ref.run_deals("fullgame", 500, 1000 + r)
            theirs.append(500 / (time.process_time() - t0))
    m = statistics.median(mine)
    line = f"kierki simulate --players random: {m:.0f} matches/s (marginal, CPU time)"
    if theirs:
        t = statistics.median(theirs)
        ratios = [a / b for a, b in zip(mine, theirs)]
        line += (f"; reference fullgame {t:.0f} matches/s; ratio {statistics.median(ratios):.2f} (median of the "
                 f"rounds {', '.join(f'{x:.2f}' for x in ratios)}; target 0.8); load average {os.getloadavg()[0]:.1f}")
    print(line)
    fast, step = [], []
    for r in range(rounds):
        fast.append(simulate_rate("heuristic", 50, 350, 1 + r))
        step.append(stepwise_heuristic_rate(20, 1 + r))
    h, s = statistics.median(fast), statistics.median(step)
    print(f"kierki simulate --players heuristic: {h:.1f} matches/s on one core (marginal, CPU time); the same "
          f"matches through the general interpreter {s:.1f}/s; ratio {h / s:.1f} (target 5)")
    workers_figures(rounds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=3000, help="deals per round (matches per round for fullgame: deals/12)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ref", default=str(ROOT.parent / "shared" / "bench" / "kierki_ref.py"))
    ap.add_argument("--only", choices=["engine", "command", "workers"], default=None, help="run one part only")
    args = ap.parse_args()
    ref = None
    if os.path.isfile(args.ref):
        ref = load_reference(args.ref)
    else:
        print(f"reference engine not found at {args.ref} (give it with --ref): absolute figures only, no ratios")
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; {args.rounds} rounds, interleaved")
    if args.only == "workers":
        workers_figures(args.rounds)
        return
    if args.only != "command":
        engine_figures(ref, args)
    if args.only != "engine":
        command_figures(ref, args.rounds)


def engine_figures(ref, args) -> None:
    rs = Ruleset.load(str(ROOT / "rulesets" / "kierki_standard.yaml"))
    ours = Ours(rs)
    print(f"{'kind':<10}{'kierki-dsl deals/s':>20}{'reference deals/s':>20}{'ratio':>8}")
    for kind in KINDS:
        n = args.deals if kind != "fullgame" else max(1, args.deals // 12)
        mine, theirs = [], []
        for r in range(args.rounds):
            seed = 1000 + r
            if ref is not None:
                el = ref.run_deals(kind, n, seed)[0]
                theirs.append(n / el)
            mine.append(n / ours.run(kind, n, seed))
        per = 12 if kind == "fullgame" else 1
        m = statistics.median(mine) * per
        if theirs:
            t = statistics.median(theirs) * per
            print(f"{kind:<10}{m:>20.0f}{t:>20.0f}{m / t:>8.2f}")
        else:
            print(f"{kind:<10}{m:>20.0f}{'-':>20}{'-':>8}")
    n = max(200, args.deals // 10)
    step = statistics.median(n / ours.run_stepwise(n, s) for s in range(3))
    if ref is not None:
        ref_nt = statistics.median(n / ref.run_deals("notrump", n, s)[0] for s in range(3))
        print(f"general step-by-step interpreter (notrump): {step:.0f} deals/s, ratio {step / ref_nt:.2f}")
    else:
        print(f"general step-by-step interpreter (notrump): {step:.0f} deals/s")
    n = args.deals
    mem_ours = peak_kib(lambda: ours.run("robber", n, 7))
    mem_ours4 = peak_kib(lambda: ours.run("robber", 4 * n, 7))
    if ref is not None:
        mem_ref = peak_kib(lambda: ref.run_deals("robber", n, 7))
        print(f"peak memory (robber, {n} deals): kierki-dsl {mem_ours:.0f} KiB, reference {mem_ref:.0f} KiB "
              f"(ratio {mem_ours / max(mem_ref, 1):.2f}); {4 * n} deals: {mem_ours4:.0f} KiB")
    else:
        print(f"peak memory (robber): {n} deals {mem_ours:.0f} KiB; {4 * n} deals: {mem_ours4:.0f} KiB")
    playouts, per_decision = search_rate(rs)
    print(f"search player: {playouts:.0f} playouts/s, {per_decision * 1000:.0f} ms per decision (default 24 samples)")
    print("start-up, median of 11 runs: " + ", ".join(f"{name} {sec:.2f} s" for name, sec in startup_seconds().items()))
    osp = openspiel_rate(300)
    step, whole = hearts_rates(300)
    if osp is None:
        print(f"Hearts (rulesets/games/hearts.yaml): {whole:.0f} deals/s whole deals, {step:.0f} step by step; "
              "open-spiel not installed (pip install open-spiel), not compared")
    else:
        print(f"Hearts, random play: OpenSpiel's Hearts stepped from Python {osp:.0f} deals/s; kierki-dsl's Hearts "
              f"ruleset {whole:.0f} deals/s as whole deals (ratio {whole / osp:.2f}), {step:.0f} step by step "
              f"(ratio {step / osp:.2f})")


if __name__ == "__main__":
    main()
