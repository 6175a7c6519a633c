"""Findings a ruleset author meets while writing house rules (play-tested from README and
docs/ only): each mistake once, located, with the hint that fixes it, and no follow-on."""
from __future__ import annotations

from pathlib import Path

from kierki_dsl.lint import lint_file

from conftest import STANDARD


def _variant(tmp_path: Path, body: str) -> list:
    base = tmp_path / "std.yaml"
    base.write_text(STANDARD.read_text("utf-8"), "utf-8")
    p = tmp_path / "house.yaml"
    p.write_text("kierki: 1\nextends: std.yaml\nname: house\n" + body, "utf-8")
    return lint_file(str(p))


def test_a_misspelt_contract_in_the_schedule_does_not_shorten_it(tmp_path):
    """R501 with a did-you-mean, and not also "part 'odgrywka' covers deals 8-12 but the
    schedule has 11" (the misspelt deal still takes its place)."""
    found = _variant(tmp_path, "match:\n  schedule: [bez_lew, bez_kierow, bez_dam, bez_panow, bez_krola_kier, "
                     "bez_pierwszej_i_ostatniej, rozbojnik, {contract: atu, repeat: 4}, loteryjka]\n")
    assert [d.code for d in found if d.severity == "error"] == ["R501"]
    assert found[0].hint == "did you mean 'bez_siodmej_i_ostatniej'?"
    assert (found[0].pos.line, found[0].pos.col) == (5, 71)


def test_an_unknown_key_brings_no_follow_on_finding(tmp_path):
    """`requires:` for `require:` is S201 with a did-you-mean, not also S210 ("a restriction
    needs exactly one of 'forbid' and 'require'"); the contract's total is still checked."""
    found = _variant(tmp_path, "contracts:\n  rozbojnik:\n    total: -1200\n    restrictions:\n"
                     "      - {phase: discard, requires: card == KH}\n")
    assert [d.code for d in found] == ["M601", "S201"]
    s201 = next(d for d in found if d.code == "S201")
    assert s201.hint == "did you mean 'require'?" and (s201.pos.line, s201.pos.col) == (8, 26)


def test_a_skipped_total_names_the_included_contract_that_stops_it(tmp_path):
    """The robber's total cannot be checked because a contract it includes is broken: M618 says
    which, and does not advise overriding the robber's (correct) total."""
    found = _variant(tmp_path, "contracts:\n  bez_siodmej_i_ostatniej:\n    score: [{per_trick: -75, when: trick.last}]\n")
    n402 = next(d for d in found if d.code == "N402")
    assert n402.hint == "did you mean 'is_last'?"
    # one M618, at the broken contract, naming the robber too (issue #25: no follow-on of a follow-on)
    [skipped] = [d for d in found if d.code == "M618"]
    assert "'bez_siodmej_i_ostatniej' was not checked (nor that of 'rozbojnik', which includes it)" in skipped.message
    assert "override" not in skipped.hint


def test_a_quoted_suit_and_arithmetic_on_a_seat_get_a_hint(tmp_path):
    found = _variant(tmp_path, "contracts:\n  bez_lew:\n    lead_ban: card.suit == \"hearts\"\n"
                     "  atu:\n    first_lead: dealer + 1\n")
    hints = {d.code + str(d.pos.line): d.hint for d in found}
    assert hints["N4046"] == "a suit is written without quotes: hearts"
    assert hints["N4048"].startswith("a seat is not a number: left(seat)")


def test_brackets_inside_a_flow_mapping_get_a_hint(tmp_path):
    found = _variant(tmp_path, "contracts:\n  bez_panow: {score: [{per_card: card.rank in [K, J], points: -30}]}\n")
    assert [d.code for d in found] == ["Y101"]
    assert "quote a value" in found[0].hint and (found[0].pos.line, found[0].pos.col) == (5, 47)


def test_a_misspelt_deal_type_is_not_also_a_missing_contract(tmp_path):
    """`type: layuot` is S205 with a did-you-mean; the schedule's 'loteryjka' exists (its error
    is reported), so no R501 "no contract named 'loteryjka'" follows."""
    found = _variant(tmp_path, "contracts:\n  loteryjka:\n    type: layuot\n")
    assert [d.code for d in found] == ["S205"]
    assert found[0].hint == "did you mean 'layout'?"


def test_a_condition_where_points_belong_gets_a_hint(tmp_path):
    found = _variant(tmp_path, "contracts:\n  bez_lew:\n    score: [{per_trick: trick.is_last}]\n")
    n404 = next(d for d in found if d.code == "N404")
    assert (n404.pos.line, n404.pos.col) == (6, 25)
    assert "a condition goes beside it in 'when'" in n404.hint


def test_a_changed_lead_ban_with_the_bases_reason_is_flagged(tmp_path):
    """S-RU's "only K♥ may not be led" written over the standard deal 5: players would be told
    that hearts may not be led (M624), unless the reason is rewritten or removed."""
    found = _variant(tmp_path, "contracts:\n  bez_krola_kier:\n    lead_ban: card == KH\n")
    assert [(d.code, d.pos.line, d.pos.col) for d in found] == [("M624", 6, 15)]
    assert "'hearts may not be led while you hold another suit'" in found[0].message
    assert _variant(tmp_path, "contracts:\n  bez_krola_kier:\n    lead_ban: card == KH\n    lead_ban_reason: null\n") == []


def test_an_expression_that_does_not_parse_brings_no_follow_on_finding(tmp_path):
    """A lead_ban with a syntax error is E301 only, not also M624 about its inherited reason
    (what the rule means is unknown); the same finding about another contract stands."""
    found = _variant(
        tmp_path,
        "contracts:\n  bez_kierow:\n    lead_ban: \"hearts_broken ==\"\n"
        "  bez_krola_kier:\n    lead_ban: card == KH\n",
    )
    assert [(d.code, d.pos.line) for d in found] == [("E301", 6), ("M624", 8)]


def test_explain_of_an_unknown_code_suggests_codes(cli):
    """`--explain total` lists the codes about totals (an answer: exit 0, issue #25); a mistyped
    code gets the closest ones (a usage error, exit 2)."""
    rc, out, err = cli("lint", "--explain", "total")
    assert rc == 0 and "M601 declared total disagrees" in out and "M618 total not checked" in out
    rc, out, err = cli("lint", "--explain", "M6011")
    assert rc == 2 and "the closest: M611, M601" in err


def test_a_misspelt_contract_override_gets_a_did_you_mean(tmp_path):
    """`bez_lwe:` in a variant defines a new contract instead of changing bez_lew: M608 says
    which contract of the base was probably meant."""
    found = _variant(tmp_path, "contracts:\n  bez_lwe:\n    total: -130\n    score: [{per_trick: -10}]\n")
    assert [(d.code, d.pos.line, d.pos.col) for d in found] == [("M608", 5, 3)]
    assert found[0].hint.startswith("did you mean 'bez_lew'? (a contract of the base ruleset")
