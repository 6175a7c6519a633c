"""Issue #25 item 2: the lint messages a new ruleset author meets first say, in words, what
was meant (a card or suit as the game's prompt reads it, a name by meaning), where an
indentation went wrong, and lead with the cause instead of its follow-ons."""
from __future__ import annotations

import pytest
from test_lint_author import _variant

from kierki_dsl.lint import lint_file


@pytest.mark.parametrize("typed, meant", [("HK", "KH"), ("kh", "KH"), ("K♥", "KH"), ("♥K", "KH"), ("qs", "QS")])
def test_a_card_typed_as_the_prompt_reads_it_gets_its_spelling(tmp_path, typed, meant):
    found = _variant(tmp_path, f"contracts:\n  bez_krola_kier:\n    score: [{{per_card: card == {typed}, points: -150}}]\n")
    errors = [d for d in found if d.severity == "error"]
    assert len(errors) == 1 and errors[0].hint.startswith(f"did you mean '{meant}'?"), errors


@pytest.mark.parametrize("typed", ["kier", "kiery", "heart", "H"])
def test_a_suit_typed_as_the_prompt_reads_it_gets_its_name(tmp_path, typed):
    found = _variant(tmp_path, f"contracts:\n  bez_kierow:\n    score: [{{per_card: card.suit == {typed}, points: -20}}]\n")
    errors = [d for d in found if d.severity == "error"]
    assert len(errors) == 1 and errors[0].hint.startswith("did you mean 'hearts'?"), errors


def test_a_card_in_a_card_list_gets_its_spelling(tmp_path):
    found = _variant(tmp_path, "deck:\n  remove: [HK]\n")
    assert [(d.code, d.hint) for d in found if d.severity == "error"] == [("S204", "did you mean 'KH'?")]


def test_a_name_is_suggested_by_meaning_before_spelling(tmp_path):
    """`trick.is_final` meant `is_last` (a synonym), not `is_first` (the closest spelling)."""
    found = _variant(tmp_path, "contracts:\n  bez_siodmej_i_ostatniej:\n    score: [{per_trick: -75, when: trick.is_final}]\n")
    n402 = next(d for d in found if d.code == "N402")
    assert n402.hint == "did you mean 'is_last'?"


@pytest.mark.parametrize("body, line, words, hint", [
    ("contracts:\n  bez_lew:\n    pl: Bez lew\n   en: No tricks\n", 7,
     "this line is indented less than the key above it ('pl', 4 spaces in)",
     "indent 'en' by 4 spaces like 'pl', or by 2 like 'bez_lew'"),
    ("contracts:\n  bez_lew:\n    score:\n      - per_trick: -20\n     label: each trick\n", 8,
     "indented less than the key above it ('per_trick', 8 spaces in)", "indent 'label' by 8 spaces like 'per_trick'"),
    ("contracts:\n  bez_lew:\n    pl: Bez lew\n      en: No tricks\n", 7,
     "this line is indented more than the key above it ('pl', 4 spaces in)", "indent 'en' by 4 spaces like 'pl'"),
])
def test_an_indentation_mistake_is_said_in_words(tmp_path, body, line, words, hint):
    """Not `expected <block end>, but found '<block mapping start>'`: which line, than what, and the fix."""
    found = _variant(tmp_path, body)
    assert [d.code for d in found] == ["Y101"]
    assert words in found[0].message and "<block" not in found[0].message
    assert hint in found[0].hint and found[0].pos.line == line


def test_contracts_left_at_the_top_level_are_one_finding_with_the_cause(tmp_path):
    """`contracts:` empty and the contracts under it not indented: the cause once, with the fix;
    no R501 "no contract named" for each scheduled deal, no S201 for each contract."""
    path = tmp_path / "top.yaml"
    path.write_text("kierki: 1\nname: top\nmatch:\n  schedule: [bez_lew, bez_dam]\ncontracts:\n"
                    "bez_lew:\n  score: [{per_trick: -20}]\nbez_dam:\n  score: [{per_card: card.rank == Q, points: -60}]\n",
                    "utf-8")
    found = lint_file(str(path))
    assert [(d.code, d.pos.line) for d in found] == [("S202", 5)]
    assert "'bez_lew', 'bez_dam' below it stand at the top level" in found[0].message
    assert found[0].hint == "indent 'bez_lew', 'bez_dam' (and what follows) under contracts:"
    variant = _variant(tmp_path, "contracts:\nbez_lew:\n  total: -260\n")
    assert [d.code for d in variant] == ["S202"] and "'bez_lew' below it stands" in variant[0].message


def test_an_inherited_unscheduled_contract_gets_a_filled_in_hint(tmp_path):
    """M608 for the base's loteryjka, left out of the variant's schedule: no `$key` in the hint,
    and the hint's fix works."""
    schedule = ("match:\n  total: -975\n  parts: []\n  schedule: [bez_lew, bez_kierow, bez_dam, bez_panow, bez_krola_kier, "
                "bez_siodmej_i_ostatniej, rozbojnik, {contract: atu, repeat: 5}]\n")
    found = _variant(tmp_path, schedule)
    m608 = [d for d in found if d.code == "M608"]
    assert len(m608) == 1 and "$" not in m608[0].hint and "`loteryjka: null` under contracts" in m608[0].hint
    assert _variant(tmp_path, schedule + "contracts:\n  loteryjka: null\n") == []


def test_explain_of_a_topic_is_an_answer(cli):
    rc, out, err = cli("lint", "--explain", "total")
    assert rc == 0 and "M601 declared total disagrees" in out and err == ""


def test_a_bound_with_one_allowed_value_says_that_value(tmp_path):
    """Play-test 5: `kierki: 2` was told "kierki must be between 1 and 1, got 2"."""
    path = tmp_path / "two.yaml"
    path.write_text("kierki: 2\nname: x\nplayers: 4\nmatch: {schedule: [a]}\ncontracts:\n  a: {score: [{per_trick: -1}]}\n")
    found = [d.message for d in lint_file(str(path)) if d.severity == "error"]
    assert found == ["kierki must be 1, got 2"], found
