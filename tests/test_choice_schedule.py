"""Declarer's choice and the dealer's run (issue 28 item 11): a dealer who deals more
declarer's-choice deals than he has contracts to name once each is a lint error located at
the schedule (it stopped the match with an unlocated "no contract left to choose")."""
from __future__ import annotations

from kierki_dsl.lint import lint_file

from conftest import RULESETS

BARBU = RULESETS / "games" / "barbu.yaml"


def _barbu_with(tmp_path, per_dealer: int):
    path = tmp_path / "barbu.yaml"
    path.write_text(BARBU.read_text("utf-8").replace("deals_per_dealer: 7", f"deals_per_dealer: {per_dealer}"))
    return str(path)


def test_eight_deals_per_dealer_with_seven_contracts_is_an_error_at_the_schedule(tmp_path):
    path = _barbu_with(tmp_path, 8)
    errors = [d for d in lint_file(path) if d.severity == "error"]
    assert [d.code for d in errors] == ["M613"], errors
    text = open(path).read().splitlines()
    assert text[errors[0].pos.line - 1].lstrip().startswith("- choose:")  # located at the schedule entry
    assert "deals 8" in errors[0].message and "7 contracts" in errors[0].message


def test_seven_deals_per_dealer_and_shorter_runs_lint_without_that_error(tmp_path):
    assert not [d for d in lint_file(str(BARBU)) if d.code == "M613"]
    assert not [d for d in lint_file(_barbu_with(tmp_path, 1)) if d.code == "M613"]


def test_what_lint_accepts_plays_to_the_end(tmp_path):
    """Every run length from 1 to 9: an M613 error, or a whole match that never runs out."""
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import RandomPlayer
    from kierki_dsl.ruleset.model import Ruleset

    for per_dealer in range(1, 10):
        path = _barbu_with(tmp_path, per_dealer)
        if any(d.code == "M613" for d in lint_file(path)):
            continue
        rs = Ruleset.load(path)
        deals = list(MatchRunner(rs, [RandomPlayer() for _ in range(4)], seed=per_dealer).deals())
        assert len(deals) == 28, per_dealer
