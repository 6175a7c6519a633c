"""Lint-clean fuzz mutants through the engine-equality comparison (issue #21 item 4, #28):
every shipped ruleset with a contract the compiled core carries is mutated byte by byte
(``test_fuzz._mutate``, a fixed seed); each mutant that lints clean plays deals of every
carried contract on the core and on the interpreter side by side (``test_cstep._play_both``):
the same seat on turn, legal actions, scores and history at every step — or the same error
(a located X-code) at the same step. Also: a random playout of the core scores as the
interpreter's reference playout with the same draws."""
from __future__ import annotations

import random
import shutil

import pytest

from kierki_dsl.expr import RuleRuntimeError
from kierki_dsl.interpreter import stepper
from kierki_dsl.lint import lint_file
from kierki_dsl.ruleset.model import Ruleset

from conftest import ROOT
from test_cstep import _deal, _play_both, needs_core
from test_fuzz import _mutate

MUTANTS_PER_FILE = 12
DEALS = 2


def _carried_contracts(rs) -> list:
    return [c for _, c in sorted(rs.contracts.items())
            if c is not None and stepper.carried(c, rs.players, rs.hand_size, rs.deck)]


def _both(run):
    """``run()``'s outcome: ("ok", value) or (type of error, message) of a located error."""
    try:
        return "ok", run()
    except RuleRuntimeError as e:
        return "RuleRuntimeError", str(e)


def _compare(rs, contract, seed: int) -> None:
    core, deal = _deal(rs, contract, seed)
    assert isinstance(core, stepper.Stepper)
    rng = random.Random(seed)
    try:
        _play_both(core, deal, lambda legal: legal[rng.randrange(len(legal))], rng, f"deal {seed}")
    except RuleRuntimeError as e:  # the interpreter or the core stopped: both stop alike
        again_core, again_deal = _deal(rs, contract, seed)
        first = _both(lambda: stepper.play_out(again_deal, random.Random(seed).getrandbits))
        second = _both(lambda: again_core.play_out(random.Random(seed).getrandbits))
        assert first == second, e
        return
    fresh_core, fresh_deal = _deal(rs, contract, seed)
    assert _both(lambda: fresh_core.play_out(random.Random(seed).getrandbits)) == _both(
        lambda: stepper.play_out(fresh_deal, random.Random(seed).getrandbits))


@pytest.mark.slow  # the byte-mutation fuzz of every shipped ruleset, as test_fuzz's: a long property run
@needs_core
def test_lint_clean_mutants_step_alike_on_the_core_and_the_interpreter(tmp_path):
    tree = tmp_path / "rulesets"
    shutil.copytree(ROOT / "rulesets", tree)
    rng = random.Random(21)
    compared = 0
    for f in sorted(tree.rglob("*.yaml")):
        original = f.read_bytes()
        if not _carried_contracts(Ruleset.load(str(f))):
            continue
        for case in range(MUTANTS_PER_FILE):
            mutant = _mutate(rng, original)
            f.write_bytes(mutant)
            try:
                if mutant == original or any(d.severity == "error" for d in lint_file(str(f))):
                    continue
                rs = Ruleset.load(str(f))
                for contract in _carried_contracts(rs):
                    for seed in range(DEALS):
                        _compare(rs, contract, seed)
                        compared += 1
            except Exception as e:  # the message names the case, so it can be reproduced
                raise AssertionError(f"{f.name}, mutant {case}: {type(e).__name__}: {e}") from e
        f.write_bytes(original)
    assert compared >= 100, compared


EXTREME_TEMPLATE = """kierki: 1
name: extremes
players: 4
match: {schedule: [c]}
contracts:
  c:
    pass_cards: {count: 2, rotation: [left]}
    score:
      - per_card: card.suit == hearts
        points: "POINTS"
      - per_trick: "TRICK"
      - per_seat: "SEAT"
"""


def _extreme(rng) -> str:
    """An int expression near the limits: literals up to 18 digits, products, signs, names."""
    def atom():
        k = rng.choice((1, 3, 6, 9, 10, 11, 12, 13, 17, 18))
        n = rng.choice((10**k - 1, 10**k // 2, 10**(k - 1) + 7))
        return rng.choice((str(n), f"-{n}", "tricks_taken", "trick.number", "players", "1"))
    parts = [atom() for _ in range(rng.randint(1, 3))]
    ops = [rng.choice((" * ", " + ", " - ", " / ")) for _ in parts[1:]]
    return parts[0] + "".join(o + p for o, p in zip(ops, parts[1:]))


@needs_core
def test_integer_extremes_are_refused_by_lint_or_play_alike(tmp_path):
    """Scores built of integer extremes: lint refuses those that could pass the score limit
    (M642, located); those it lets through play alike on the core and the interpreter, with
    scores inside the limit (nothing wraps, nothing overflows)."""
    from kierki_dsl.interpreter.scorebound import SCORE_LIMIT

    rng = random.Random(28)
    path = tmp_path / "extremes.yaml"
    refused = played = 0
    for case in range(60):
        text = EXTREME_TEMPLATE
        for key, scope in (("POINTS", "trick"), ("TRICK", "trick"), ("SEAT", "seat")):
            expr = _extreme(rng)
            if scope == "trick":
                expr = expr.replace("tricks_taken", "trick.number")
            else:
                expr = expr.replace("trick.number", "tricks")
            text = text.replace(key, expr)
        path.write_text(text)
        errors = [d for d in lint_file(str(path)) if d.severity == "error"]
        if errors:
            assert {d.code for d in errors} <= {"M642", "M623"}, (case, text, errors)
            refused += 1
            continue
        rs = Ruleset.load(str(path))
        contract = rs.contracts["c"]
        for seed in range(2):
            _compare(rs, contract, seed)
            core, _ = _deal(rs, contract, seed)
            scores = core.play_out(random.Random(seed).getrandbits)
            assert all(abs(s) <= SCORE_LIMIT for s in scores), (case, text, scores)
        played += 1
    assert refused >= 10 and played >= 10, (refused, played)
