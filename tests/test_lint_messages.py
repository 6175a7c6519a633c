"""Issue #25 item 2: the lint messages a new ruleset author meets first say, in words, what
was meant (a card or suit as the game's prompt reads it, a name by meaning), where an
indentation went wrong, and lead with the cause instead of its follow-ons."""
from __future__ import annotations

from pathlib import Path

import pytest

from kierki_dsl.lint import lint_file

from conftest import STANDARD


def _variant(tmp_path: Path, body: str) -> list:
    base = tmp_path / "std.yaml"
    base.write_text(STANDARD.read_text("utf-8"), "utf-8")
    p = tmp_path / "house.yaml"
    p.write_text("kierki: 1\nextends: std.yaml\nname: house\n" + body, "utf-8")
    return lint_file(str(p))


@pytest.mark.parametrize("typed, meant", [("HK", "KH"), ("kh", "KH"), ("K♥", "KH"), ("♥K", "KH"), ("qs", "QS")])
def test_a_card_typed_as_the_prompt_reads_it_gets_its_spelling(tmp_path, typed, meant):
    found = _variant(tmp_path, f"contracts:\n  bez_krola_kier:\n    score: [{{per_card: card == {typed}, points: -150}}]\n")
    errors = [d for d in found if d.severity == "error"]
    assert len(errors) == 1 and errors[0].hint.startswith(f"did you mean {meant}?"), errors


@pytest.mark.parametrize("typed", ["kier", "kiery", "heart", "H"])
def test_a_suit_typed_as_the_prompt_reads_it_gets_its_name(tmp_path, typed):
    found = _variant(tmp_path, f"contracts:\n  bez_kierow:\n    score: [{{per_card: card.suit == {typed}, points: -20}}]\n")
    errors = [d for d in found if d.severity == "error"]
    assert len(errors) == 1 and errors[0].hint.startswith("did you mean hearts?"), errors


def test_a_card_in_a_card_list_gets_its_spelling(tmp_path):
    found = _variant(tmp_path, "deck:\n  remove: [HK]\n")
    assert [(d.code, d.hint) for d in found if d.severity == "error"] == [("S204", "did you mean KH?")]


def test_a_name_is_suggested_by_meaning_before_spelling(tmp_path):
    """`trick.is_final` meant `is_last` (a synonym), not `is_first` (the closest spelling)."""
    found = _variant(tmp_path, "contracts:\n  bez_siodmej_i_ostatniej:\n    score: [{per_trick: -75, when: trick.is_final}]\n")
    n402 = next(d for d in found if d.code == "N402")
    assert n402.hint == "did you mean 'is_last'?"
