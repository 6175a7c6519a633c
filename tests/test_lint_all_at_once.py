"""kierki lint reports every finding it can in one run: a schema error does not hide the
expression errors of the same contract, the YAML reader goes on after what it can step over,
and no finding follows from another (each mistake is reported once, located)."""
from __future__ import annotations

from pathlib import Path

from kierki_dsl.lint import lint_file

HEAD = "kierki: 1\nname: x\n"


def _lint(tmp_path: Path, text: str) -> list[tuple]:
    p = tmp_path / "r.yaml"
    p.write_text(text, "utf-8")
    return [(d.code, d.pos.line, d.pos.col) for d in lint_file(str(p))]


TWO_CONTRACTS = HEAD + """match: {schedule: [bez_lew, bez_kierow]}
contracts:
  bez_lew:
    total: -260
    lead_ban: card.suitt == hearts
    trump: 5
    score: [{per_trick: -20}]
  bez_kierow:
    total: abc
    lead_ban: card.suit == heart
    score:
      - per_card: card.suit == hearts
        points: -20
"""


def test_schema_and_expression_errors_of_one_contract_and_of_another_in_one_run(tmp_path, cli):
    """Each contract has a schema error (bad trump; a string total) and an expression error
    in another field (a misspelt attribute; a misspelt name): all four, once each, located."""
    found = _lint(tmp_path, TWO_CONTRACTS)
    errors = [f for f in found if f[0][0] != "M"]
    assert errors == [("N402", 7, 20), ("S204", 8, 12), ("S202", 11, 12), ("N401", 12, 28)]
    # bez_lew's total is not checked (its trump decides it): said once, as a warning
    assert [f for f in found if f[0][0] == "M"] == [("M618", 6, 12)]
    rc, out, err = cli("lint", str(tmp_path / "r.yaml"))
    assert rc == 1
    assert "did you mean 'suit'?" in err and "did you mean 'hearts'?" in err


def test_a_bad_value_in_a_score_item_brings_no_follow_on_finding(tmp_path):
    """`points: [20]` (a list) is the one finding of its item (not also "per_card needs 'points'"), and
    the wrong-typed expression of the same contract's lead_ban is still reported."""
    text = HEAD + """match: {schedule: [bez_dam]}
contracts:
  bez_dam:
    lead_ban: card.rank + 1
    score:
      - per_card: card.rank == Q
        points: [20]
"""
    found = _lint(tmp_path, text)
    assert [f[0] for f in found].count("S202") == 1
    assert ("S202", 9, 17) in found
    assert any(code.startswith("N") and line == 6 for code, line, _ in found), found
    assert "S203" not in [f[0] for f in found]


def test_an_included_contract_keeps_its_own_findings(tmp_path):
    """A contract with a schema error that includes another: the included one's expression
    error is reported (it used to be swallowed when the broken contract was built first)."""
    text = HEAD + """match: {schedule: [rozbojnik, bez_lew]}
contracts:
  rozbojnik:
    trump: 7
    score: [{include: bez_lew}, {include: bez_lwe}]
  bez_lew:
    score: [{per_trick: -20, when: trick.numbr == 1}]
"""
    codes = [f[0] for f in _lint(tmp_path, text)]
    assert "S204" in codes and "R501" in codes and "N402" in codes
    assert codes.count("N402") == 1


def test_an_anchor_alone_does_not_stop_the_schema_checks(tmp_path):
    text = HEAD + "match: {schedule: [bez_lew]}\ncontracts:\n  bez_lew: &a\n    total: -260\n    score: [{per_trik: -20}]\n"
    codes = [f[0] for f in _lint(tmp_path, text)]
    assert codes[:1] == ["Y105"] and "S201" in codes


def test_the_reader_reports_every_yaml_hazard_and_no_schema_finding_after_a_hole(tmp_path):
    """A tag, a merge key, an alias and a duplicate key: each reported; what they stood for is
    missing from the tree, so no schema finding (e.g. a "missing key") follows from them."""
    text = HEAD + """match: {schedule: [bez_lew]}
base: &b {total: -260}
contracts:
  bez_lew:
    <<: *b
    score: !!python/object [1]
    pl: a
    pl: b
"""
    found = _lint(tmp_path, text)
    assert [f[0] for f in found] == ["Y105", "Y106", "Y105", "Y104", "Y103"]
    assert all(line > 0 for _, line, _ in found)


def test_aliases_of_one_anchor_are_reported_once(tmp_path):
    text = HEAD + "a: &x [1]\nb: [*x, *x, *x, *x]\n"
    assert [f[0] for f in _lint(tmp_path, text)] == ["Y105", "Y105"]


def test_a_second_document_does_not_hide_the_first_documents_findings(tmp_path):
    text = HEAD + "match: {schedule: [bez_lew]}\ncontracts:\n  bez_lew: {score: [{per_trick: x +}]}\n---\nmore: 1\n"
    codes = [f[0] for f in _lint(tmp_path, text)]
    assert "Y108" in codes and "E301" in codes


def test_every_tab_line_at_once(tmp_path):
    text = HEAD + "match:\n\tschedule: [a]\ncontracts:\n\ta: {}\n"
    assert _lint(tmp_path, text) == [("Y102", 4, 1), ("Y102", 6, 1)]


def test_exit_codes_are_unchanged(tmp_path, cli):
    """1 with an error, 0 with warnings only (1 with --strict), 2 for a missing path."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(TWO_CONTRACTS, "utf-8")
    warn = tmp_path / "warn.yaml"
    warn.write_text(HEAD + "match: {schedule: [a]}\ncontracts:\n  a: {score: [{per_trick: -20}]}\n  b: {score: [{per_trick: -20}]}\n", "utf-8")
    assert cli("lint", str(bad))[0] == 1
    assert cli("lint", str(warn))[0] == 0
    assert cli("lint", "--strict", str(warn))[0] == 1
    assert cli("lint", str(tmp_path / "nope.yaml"))[0] == 2


def test_a_bad_match_brings_no_never_scheduled_warning(tmp_path):
    text = HEAD + "match: [bez_lew]\ncontracts:\n  bez_lew: {score: [{per_trick: x}]}\n"
    assert [f[0] for f in _lint(tmp_path, text)] == ["S202", "N401"]


def test_a_bad_schedule_entry_brings_no_total_or_part_finding(tmp_path):
    """`repeat: four` leaves the entry out: the match total and the parts' ranges are not
    checked against the shortened schedule (no M609, no "part covers deals 8-12")."""
    text = HEAD + ("match:\n  total: 0\n  parts: [{name: b, first: 2, last: 5, total: -80}]\n"
                   "  schedule: [bez_lew, {contract: bez_lew, repeat: four}, {contract: bez_lew, repeat: 3}]\n"
                   "contracts:\n  bez_lew: {total: -260, score: [{per_trick: -20}]}\n")
    assert _lint(tmp_path, text) == [("S202", 6, 51)]


def test_a_bad_deck_brings_no_finding_about_the_cards_left(tmp_path):
    """`ranks: [1, 7, ...]`: the 1 is reported; the totals are not worked out on the 28 cards
    that are left (no M601 about a deal of 7 tricks), an unscheduled contract still is."""
    text = HEAD + ("match: {schedule: [bez_lew]}\ndeck: {ranks: [1, 7, 8, 9, 10, J, Q, K, A]}\n"
                   "contracts:\n  bez_lew: {total: -260, score: [{per_trick: -20}]}\n  extra: {score: [{per_trick: 1}]}\n")
    assert [f[0] for f in _lint(tmp_path, text)] == ["S204", "M608"]


def test_a_bad_schedule_entry_is_reported_once(tmp_path):
    """`contract: [atu]` is S202; not also "a schedule entry needs 'contract' or 'choose'"."""
    text = HEAD + ("match: {schedule: [bez_lew, {contract: [bez_lew], repeat: 2}]}\n"
                   "contracts:\n  bez_lew: {total: -260, score: [{per_trick: -20}]}\n")
    assert [f[0] for f in _lint(tmp_path, text)] == ["S202"]


def test_a_base_linted_with_its_variants_reports_its_findings_once(tmp_path, cli):
    """A folder with a broken base and two variants: the base's expression error is one finding,
    not one per file that reads it."""
    (tmp_path / "base.yaml").write_text(HEAD + "match: {schedule: [a]}\ncontracts:\n  a: {score: [{per_trick: x}]}\n", "utf-8")
    for v in ("v1", "v2"):
        (tmp_path / f"{v}.yaml").write_text(f"kierki: 1\nextends: base.yaml\nname: {v}\n", "utf-8")
    rc, out, err = cli("lint", str(tmp_path))
    assert rc == 1
    assert err.count("N401") == 1 and err.endswith("3 files checked, 1 error, 0 warnings\n")


def test_a_cycle_through_a_contract_with_a_schema_error_is_reported(tmp_path):
    text = HEAD + ("match: {schedule: [a]}\ncontracts:\n"
                   "  a: {trump: 5, score: [{include: b}]}\n  b: {score: [{include: a}]}\n")
    codes = [f[0] for f in _lint(tmp_path, text)]
    assert "S204" in codes and codes.count("R502") == 1
