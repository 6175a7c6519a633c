"""The search players' rates now and before they used the compiled step core, in the same
process, interleaved round by round.

    python benchmarks/bench_search.py [--rounds 3] [--deals 3] [--time 0.02]

*Now*: sampled worlds stepped on the core (``stepper.deal_from_view``,
``GameState.from_view``) and dealt out by the compiled sampler (``_cstep.deal_out``), IS-MCTS
rolling out on the game state directly. *Before*: the interpreter's ``from_view`` worlds,
``sampling.deal_out_python``, and OpenSpiel's ``RandomRolloutEvaluator`` through pyspiel.

``search`` (default 24 samples) at seat 0 against heuristic players, the first ``--deals``
deals of Kierki (standard profile) and of Hearts: its playouts per second (its own thinking
time, wall clock), whether both ways played the same cards (they must: the same draws, the
same results), and the playouts per decision it reaches at a think time (``--time``). Where
``open-spiel`` is installed, ``ismcts`` the same way: the seconds one simulation takes (a
fixed 40 simulations per decision, so both search the same trees) and the simulations per
decision it reaches at equal think time (``--time``). Medians of the rounds; the machine's
load average is printed, as other jobs slow wall time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kierki_dsl.interpreter import stepper  # noqa: E402
from kierki_dsl.interpreter.match import MatchRunner  # noqa: E402
from kierki_dsl.players.base import make_player  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402

GAMES = {"Kierki": "rulesets/kierki_standard.yaml", "Hearts": "rulesets/games/hearts.yaml"}
REAL = stepper.core_from_view


REAL_SAMPLER = stepper.compiled_deal_out


def _on(core: bool) -> None:
    """The search players as they are (True), or as they were before they used the core
    (False): worlds on the interpreter, dealt out by ``sampling.deal_out_python``, and IS-MCTS
    rolling out through pyspiel with OpenSpiel's own ``RandomRolloutEvaluator``."""
    import kierki_dsl.adapters.game as adapter_game

    chosen = REAL if core else (lambda *args: None)
    stepper.core_from_view = chosen
    adapter_game.core_from_view = chosen
    stepper.compiled_deal_out = REAL_SAMPLER if core else (lambda: None)
    try:
        from kierki_dsl import ismcts
    except ImportError:  # pragma: no cover - no OpenSpiel: only search is measured
        return
    ismcts._rollouts = REAL_ROLLOUTS[0] if core else (lambda mcts, np: mcts.RandomRolloutEvaluator)


def _real_rollouts() -> list:
    try:
        from kierki_dsl import ismcts
    except ImportError:  # pragma: no cover
        return [None]
    return [ismcts._rollouts]


REAL_ROLLOUTS = _real_rollouts()


def _match(path: str, setting: str, deals: int) -> tuple:
    """(the player's stats, every deal's plays) of one seeded match, cut after ``deals``."""
    rs = Ruleset.load(str(ROOT / path))
    p = make_player(setting)
    players = [p] + [make_player("heuristic") for _ in range(rs.players - 1)]
    plays = []
    for r in MatchRunner(rs, players, 1).deals():
        plays.append((r.plays, r.scores))
        if r.number >= deals:
            break
    return p.stats, plays


def search_figures(rounds: int, deals: int, seconds: float) -> None:
    for name, path in GAMES.items():
        rates = {True: [], False: []}
        reached = {True: [], False: []}
        same = True
        for _ in range(rounds):
            got = {}
            for core in (False, True):
                _on(core)
                stats, plays = _match(path, "search", deals)
                rates[core].append(stats["playouts"] / stats["seconds"])
                got[core] = plays
                stats, _ = _match(path, f"search:{seconds}s", deals)
                reached[core].append(stats["playouts"] / stats["decisions"])
            same &= got[True] == got[False]
        _on(True)
        c, i = statistics.median(rates[True]), statistics.median(rates[False])
        rc, ri = statistics.median(reached[True]), statistics.median(reached[False])
        print(f"search, {name}: {c:.0f} playouts/s now, {i:.0f} before (ratio {c / i:.2f}); the same plays: "
              f"{'yes' if same else 'NO'}; at {seconds} s per decision {rc:.0f} playouts per decision now, "
              f"{ri:.0f} before")


def ismcts_figures(rounds: int, deals: int, seconds: float) -> None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("ismcts: open-spiel is not installed (pip install 'kierki-dsl[openspiel]')")
        return
    for name, path in GAMES.items():
        per_sim = {True: [], False: []}
        reached = {True: [], False: []}
        for _ in range(rounds):
            for core in (False, True):
                _on(core)
                stats, _ = _match(path, "ismcts:40", deals)
                per_sim[core].append(stats["seconds"] / stats["simulations"])
                stats, _ = _match(path, f"ismcts:{seconds}s", deals)
                reached[core].append(stats["simulations"] / stats["decisions"])
        _on(True)
        c, i = statistics.median(per_sim[True]), statistics.median(per_sim[False])
        rc, ri = statistics.median(reached[True]), statistics.median(reached[False])
        print(f"ismcts, {name}: {c * 1000:.2f} ms per simulation now, {i * 1000:.2f} before (ratio {i / c:.2f}); "
              f"at {seconds} s per decision {rc:.1f} simulations per decision now, {ri:.1f} before")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--deals", type=int, default=3, help="deals of each match")
    ap.add_argument("--time", type=float, default=0.02, help="think time per decision for the equal-time figures")
    ap.add_argument("--only", choices=["search", "ismcts"], default=None)
    args = ap.parse_args()
    if not stepper.available():
        raise SystemExit("the compiled step core is not built here (pip install -e . with a C compiler)")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.rounds} rounds, "
          f"interleaved; {args.deals} deals per match")
    if args.only != "ismcts":
        search_figures(args.rounds, args.deals, args.time)
    if args.only != "search":
        ismcts_figures(args.rounds, args.deals, args.time)


if __name__ == "__main__":
    main()
