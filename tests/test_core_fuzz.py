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
