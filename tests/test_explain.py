"""kierki explain / kierki diff: rules in words, generated from the data, pinned by golden files.

Regenerate a golden file after a deliberate change with, e.g.,
`kierki explain rulesets/kierki_standard.yaml > tests/data/explain/kierki_standard.txt`.
"""
from __future__ import annotations

import pytest

from conftest import DATA, RULESETS, STANDARD

GOLDEN = DATA / "explain"
VARIANTS = RULESETS / "variants"


@pytest.mark.parametrize("ruleset,golden", [
    (STANDARD, "kierki_standard.txt"),
    (VARIANTS / "must_ruff.yaml", "must_ruff.txt"),
    (RULESETS / "games" / "barbu.yaml", "barbu.txt"),
])
def test_explain_is_pinned(cli, ruleset, golden):
    rc, out, err = cli("explain", str(ruleset))
    assert rc == 0 and err == ""
    assert out == (GOLDEN / golden).read_text("utf-8")


@pytest.mark.parametrize("variant,golden", [
    ("jacks_only", "diff_standard_jacks_only.txt"),
    ("kh_forced_discard", "diff_standard_kh_forced_discard.txt"),
    ("fantan_pass_pool", "diff_standard_fantan_pass_pool.txt"),
])
def test_diff_is_pinned(cli, variant, golden):
    rc, out, err = cli("diff", str(STANDARD), str(VARIANTS / f"{variant}.yaml"))
    assert rc == 0
    assert out == (GOLDEN / golden).read_text("utf-8")


def test_diff_shows_a_changed_lead_ban_reason(cli, tmp_path):
    """The sentence a player is told is part of the rules: diff shows when it changes."""
    text = STANDARD.read_text(encoding="utf-8")
    assert "lead_ban_reason: hearts may not be led while you hold another suit" in text
    polite = tmp_path / "polite.yaml"
    polite.write_text(text.replace("lead_ban_reason: hearts may not be led while you hold another suit",
                                   "lead_ban_reason: no hearts to lead, please"), encoding="utf-8")
    code, out, _ = cli("diff", str(STANDARD), str(polite))
    assert code == 0
    assert "lead ban: hearts may not be led while you hold another suit → no hearts to lead, please" in out


def test_diff_of_a_ruleset_with_itself(cli):
    assert cli("diff", str(STANDARD), str(STANDARD))[1] == "no differences at the table\n"


@pytest.mark.parametrize("path", sorted(RULESETS.rglob("*.yaml")), ids=lambda p: p.stem)
def test_every_ruleset_explains_every_deal(cli, path):
    rc, out, err = cli("explain", str(path))
    assert rc == 0
    assert out.count("\nDeal ") >= 1 and "scoring:" in out


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_variant_differs_at_the_table(cli, path):
    """A variant is a different game: diff against the standard names at least one change."""
    rc, out, err = cli("diff", str(STANDARD), str(path))
    assert rc == 0 and out.strip() and out != "no differences at the table\n", path.stem


def test_diff_names_a_change_of_match_length(cli):
    rc, out, err = cli("diff", str(STANDARD), str(VARIANTS / "four_series.yaml"))
    assert out == ("deals in a match: 12 → 48\n"
                   "series of the schedule, each starting with the next dealer: 1 → 4\n")


def test_diff_names_changes_pulled_in_by_include_and_part_totals(cli):
    """jacks_only changes bez_panow only: the robber (which includes it) and the negative part's
    declared total change with it, and diff says so."""
    rc, out, err = cli("diff", str(STANDARD), str(VARIANTS / "jacks_only.yaml"))
    assert "part Rozgrywka — negative part: deals 1–7, adding up to -2600 → deals 1–7, adding up to -2360" in out
    robber = next(line for line in out.splitlines() if line.startswith("deal 7, scoring:"))
    # the long sentence once, with only what changes in it marked (issue #25)
    assert "Bez panów ([kings and jacks → jacks] taken: -30 each)" in robber and robber.count("Bez lew") == 1


def test_the_robber_is_explained_with_its_values_and_a_reason_is_not_said_twice(cli):
    rc, out, err = cli("explain", str(STANDARD))
    assert "Bez lew (each trick won: -20), Bez kierów (hearts taken: -20 each)" in out
    rc, out, err = cli("explain", str(VARIANTS / "kh_forced_discard.yaml"))
    assert "rule 1: you must discard the king of hearts." in out and "unable to follow suit: you must" not in out
