"""What ruleset expressions cost, in machine instructions (callgrind, deterministic): each hot
place the interpreter evaluates one, counted around that evaluation alone.

    python benchmarks/expr_instructions.py [--repeat 2000] [--games 10]

- ``seat scoring``: Hearts' end-of-deal seat scoring (shooting the moon, ``per_seat``) for the
  four seats of one deal, as the step interpreter does it (``trickkernel.add_seat_scores``);
- ``first lead``: Hearts' ``first_lead: holder(2C)`` once per deal (``TrickDeal._start_play``'s
  call);
- ``dynamic trick``: one finished trick's points of a contract whose scoring reads the trick's
  winner, leader and cards (``benchmarks/dynamic_points.yaml``: no shipped ruleset has such
  scoring), ``TrickDeal._dynamic_points``;
- ``load``: ``Ruleset.load`` of kierki_standard (parsing, checking and compiling every expression);
- ``match, step interpreter``: whole matches of kierki_standard played by random players through
  the step interpreter (``MatchRunner``, as ``kierki run`` plays), per match;
- ``match, simulate heuristic``: a whole match through ``kierki simulate --players heuristic``
  (the whole command counted: the difference between ``--games`` matches and one, divided,
  so load and start-up cancel out); ``Hearts match, simulate random``: the same for Hearts
  (whose whole-deal kernel names the first leader by ``holder(2C)`` and scores seats).

Needs ``valgrind``. Numbers per evaluation (per deal for seat scoring, per trick for dynamic).
The figures before expressions were generated functions are those of this script at commit
9f28ae4 (expressions as trees of closures); README, "What expressions cost".
"""
from __future__ import annotations

import argparse
import operator
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HEARTS = ROOT / "rulesets" / "games" / "hearts.yaml"
STANDARD = ROOT / "rulesets" / "kierki_standard.yaml"
DYNAMIC = ROOT / "benchmarks" / "dynamic_points.yaml"


def _hearts():
    from kierki_dsl.ruleset.model import Ruleset

    rs = Ruleset.load(str(HEARTS))
    return rs, rs.contracts["hand"]


def _split(rng, deck: int, players: int) -> list:
    """The cards of ``deck`` shared out at random among ``players`` masks."""
    out = [0] * players
    for c in range(52):
        if deck >> c & 1:
            out[rng.randrange(players)] |= 1 << c
    return out


def _seat_scoring(repeat: int):
    from kierki_dsl.interpreter.trickkernel import add_seat_scores

    rs, c = _hearts()
    scorers = c.play_rules(13, -1, 4, rs.deck)[6]
    rng = random.Random(3)
    cases = []
    for k in range(repeat):
        taken = [rs.deck, 0, 0, 0] if k % 7 == 0 else _split(rng, rs.deck, 4)
        cases.append((taken, [m.bit_count() // 4 for m in taken]))

    def run():
        scores = [0, 0, 0, 0]
        for taken, won in cases:
            add_seat_scores(scores, scorers, 0, 4, -1, -1, won, 13, taken, rs.deck)
    return run


def _first_lead(repeat: int):
    from kierki_dsl.interpreter.envs import seat_env

    rs, c = _hearts()
    rng = random.Random(4)
    hands = [_split(rng, rs.deck, 4) for _ in range(repeat)]
    lead = c.first_lead

    def run():
        for h in hands:
            lead.seat(seat_env(1, 4, -1, h, rs.deck, -1, 0), 4)
    return run


def _dynamic(repeat: int):
    from kierki_dsl.interpreter.match import deal_out, shuffled
    from kierki_dsl.ruleset.model import Ruleset

    rs = Ruleset.load(str(DYNAMIC))
    c = rs.contracts["bez_lew"]
    rng = random.Random(5)
    st = c.new_deal(4, rs.deck, 0, deal_out(shuffled(rng, rs.deck), 0, 4), 1, 1)
    dynamic = st._dynamic
    assert dynamic, "the benchmark's contract must score dynamically"
    tricks = []
    for k in range(repeat):
        cards = rng.sample(range(52), 4)
        tricks.append((sum(1 << x for x in cards), k % 4, (k // 4) % 4, k % 13 + 1))

    def run():
        for tm, winner, leader, n in tricks:
            st._dynamic_points(dynamic, tm, winner, leader, n)
    return run


def _load(repeat: int):
    from kierki_dsl.ruleset.model import Ruleset

    Ruleset.load(str(STANDARD))  # imports and tables outside the count

    def run():
        Ruleset.load(str(STANDARD))
    return run


def _step_match(repeat: int):
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import make_player
    from kierki_dsl.ruleset.model import Ruleset

    rs = Ruleset.load(str(STANDARD))

    def run():
        for seed in range(repeat):
            runner = MatchRunner(rs, [make_player("random") for _ in range(4)], seed=seed)
            for _ in runner.deals():
                pass
    return run


CASES = {"seat scoring": (_seat_scoring, 1), "first lead": (_first_lead, 1), "dynamic trick": (_dynamic, 1),
         "load": (_load, 0), "match, step interpreter": (_step_match, 1)}


def _count(argv: list, toggle: bool = True) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        opts = ["--toggle-collect=_operator_call"] if toggle else []
        out = subprocess.run(["valgrind", "--tool=callgrind", *opts, f"--callgrind-out-file={tmp}/cg.out", *argv],
                             capture_output=True, text=True, check=True).stderr
    return int(re.search(r"refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def _case(name: str, repeat: int) -> float:
    make, per_repeat = CASES[name]
    n = (repeat if name != "match, step interpreter" else max(2, repeat // 200)) if per_repeat else 1
    count = _count([sys.executable, __file__, "--case", name, "--repeat", str(n)])
    return count / n


def _match(command: list, games: int) -> float:
    """Instructions per match of a ``kierki`` command: (games matches - one match) / (games - 1)."""
    base = [sys.executable, "-m", "kierki_dsl", *command]
    one = _count(base + ["--games", "1"], toggle=False)
    many = _count(base + ["--games", str(games)], toggle=False)
    return (many - one) / (games - 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2000)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--case", choices=tuple(CASES), help=argparse.SUPPRESS)
    ap.add_argument("--only", nargs="*", help="only these measures (by name)")
    args = ap.parse_args()
    if args.case:
        run = CASES[args.case][0](args.repeat)
        run()  # warm up (memo tables, first calls)
        operator.call(run)
        return
    if shutil.which("valgrind") is None:
        sys.exit("expr_instructions needs valgrind")
    print("instructions per evaluation (callgrind):")
    for name in CASES:
        if not args.only or name in args.only:
            print(f"  {name:28s} {_case(name, args.repeat):12.0f}")
    for label, command in (("match, simulate heuristic", ["simulate", str(STANDARD), "--players", "heuristic"]),
                           ("Hearts match, simulate random", ["simulate", str(HEARTS), "--players", "random"])):
        if not args.only or label in args.only:
            print(f"  {label:28s} {_match(command, args.games):12.0f}")


if __name__ == "__main__":
    main()
