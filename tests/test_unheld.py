"""M634: lint and run agree on `holder()` where a card may be in no hand (a widow, a stock).

Each flagged rule, let through without the check, really stops some match at run time (X701)
— so the check is not a guess —
and the same rule where every card is held lints clean and plays through."""
from __future__ import annotations

from pathlib import Path

import pytest

from kierki_dsl.interpreter import tricks
from kierki_dsl.lint import lint_file

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "rulesets" / "variants"

CASES = {
    "widow taker": ("auction_face_up.yaml", "atu",
                    "    widow: {cards: 4, taken_by: holder(AS), then: discard, face_up: true}\n", (6, 33)),
    "leader after a discard": ("auction_face_up.yaml", "atu", "    first_lead: holder(2C)\n", (6, 17)),
    "leader with a stock": ("kierki_dominowe.yaml", "dominowe", "    first_lead: holder(2C)\n", (6, 17)),
}


def _variant(tmp_path, base: str, contract: str, body: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text(f"kierki: 1\nextends: {VARIANTS / base}\nname: house\ncontracts:\n  {contract}:\n{body}",
                    "utf-8")
    return str(path)


def _first_failing_seed(cli, path: str, seeds=range(1, 13)):
    for seed in seeds:
        code, _, err = cli("run", path, "--seed", str(seed), "--players", "random")
        if code:
            return seed, code, err
    return None


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_flags_a_holder_that_may_name_nobody_and_the_run_shows_why(tmp_path, cli, monkeypatch, case):
    base, contract, body, at = CASES[case]
    path = _variant(tmp_path, base, contract, body)
    found = [d for d in lint_file(path) if d.code == "M634"]
    assert [(d.pos.line, d.pos.col) for d in found] == [at], found
    assert "holder() may name nobody" in found[0].message
    code, _, err = cli("run", path, "--seed", "1", "--players", "random")
    assert code == 1 and "M634" in err  # run refuses what lint refuses
    monkeypatch.setattr(tricks, "check_unheld", lambda *a: None)  # without the check, a match stops
    failing = _first_failing_seed(cli, path)
    assert failing is not None, "no seed stopped the match: the finding would be a false alarm"
    _, code, err = failing
    assert code == 1 and "X701" in err and "Traceback" not in err


def test_a_holder_after_a_widow_is_given_out_is_fine(tmp_path, cli):
    """With `then: give` every card is in a hand again when play starts."""
    path = _variant(tmp_path, "auction_face_up.yaml", "atu",
                    "    widow: {cards: 4, taken_by: bidder, then: give, each: 1, face_up: true}\n"
                    "    first_lead: holder(2C)\n")
    assert [d.code for d in lint_file(path) if d.severity == "error"] == []
    assert _first_failing_seed(cli, path, range(1, 5)) is None
