"""kierki explain and diff on an author's house rules: nothing of the base presented as the
variant's own, and every change at the table named (first dealer, end of the match, parts)."""
from __future__ import annotations

from pathlib import Path

import pytest

from kierki_dsl.explain import aspects
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS, STANDARD

HEARTS = RULESETS / "games" / "hearts.yaml"


def _variant(tmp_path: Path, base: Path, body: str) -> Path:
    p = tmp_path / "house.yaml"
    p.write_text(f"kierki: 1\nextends: {base}\nname: house\n" + body, "utf-8")
    return p


def test_explain_does_not_give_the_bases_description_as_the_variants(tmp_path, cli):
    """The standard profile's "every match sums to zero" is wrong for a variant that sums to
    +240 and does not describe itself: explain names the base instead."""
    p = _variant(tmp_path, STANDARD, "match:\n  total: 240\n  parts:\n    - {name: rozgrywka, first: 1, last: 7, total: -2360}\n"
                 "contracts:\n  bez_panow:\n    total: -120\n"
                 "    score: [{per_card: card.rank == J, points: -30}]\n  rozbojnik: {total: -1180}\n")
    rc, out, err = cli("explain", str(p))
    assert rc == 0, err
    assert "sums to zero" not in out
    assert out.splitlines()[2] == "A variant of kierki_standard.yaml (this file has no description of its own)."
    assert "The final scores add up to +240." in out


def test_explain_says_when_a_repeated_match_ends(cli):
    rc, out, err = cli("explain", str(HEARTS))
    assert "until the lowest running total is at most minus 100 after a deal (at most 200 deals)" in out


def test_diff_names_a_new_first_dealer_and_end_condition(tmp_path, cli):
    p = _variant(tmp_path, HEARTS, "match: {until: \"lowest_total <= -50\", first_dealer: 0}\n")
    rc, out, err = cli("diff", str(HEARTS), str(p))
    assert rc == 0, err
    assert out.splitlines() == [
        "first dealer: chosen at random → seat 0",
        "end of the match: until the lowest running total is at most minus 100 after a deal (at most 200 deals) → "
        "until the lowest running total is at most minus 50 after a deal (at most 200 deals)",
    ]


def test_diff_pairs_parts_by_name_when_their_titles_change(tmp_path, cli):
    """Parts written without pl/en keep their names: one change each, not a removal and an addition."""
    p = _variant(tmp_path, STANDARD, "match:\n  parts:\n    - {name: rozgrywka, first: 1, last: 7, total: -2600}\n"
                 "    - {name: odgrywka, first: 8, last: 12, total: 2600}\n")
    rc, out, err = cli("diff", str(STANDARD), str(p))
    assert out.splitlines() == [
        "part rozgrywka: Rozgrywka — negative part: deals 1–7, adding up to -2600 → rozgrywka: deals 1–7, adding up to -2600",
        "part odgrywka: Odgrywka — positive part: deals 8–12, adding up to +2600 → odgrywka: deals 8–12, adding up to +2600",
    ]


def test_explain_of_a_code_points_to_lint_explain(cli):
    rc, out, err = cli("explain", "M601")
    assert rc == 2 and "kierki lint --explain M601" in err


def test_run_and_explain_print_errors_in_file_order(tmp_path, cli):
    """As lint does: a schema error on line 4 comes before an expression error on line 7,
    whichever pass found it first."""
    p = _variant(tmp_path, STANDARD, "players: \"4\"\ncontracts:\n  bez_lew:\n    score: [{per_trick: trick.is_last}]\n"
                 "  atu:\n    follow_suit: yes\n")
    for command in ("explain", "run"):
        rc, out, err = cli(command, str(p))
        assert rc == 1
        lines = [int(line.split(":")[1]) for line in err.splitlines() if ": error: " in line]
        assert lines == sorted(lines) and len(lines) == 3, err


def test_explain_says_how_cards_are_passed(cli):
    """Hearts passes three cards in a rotating direction: explain said nothing of it."""
    rc, out, err = cli("explain", str(HEARTS))
    assert ("  passing: before play every player passes 3 cards, all at once, in turn from deal to deal: "
            "to the left, to the right, across, not at all.") in out
    assert "The schedule has 1 deal;" in out and "A match is 1 deals" not in out


def test_diff_names_passing_added(tmp_path, cli):
    p = _variant(tmp_path, STANDARD, "contracts:\n  bez_lew: {pass_cards: {count: 3, rotation: [left]}}\n")
    rc, out, err = cli("diff", str(STANDARD), str(p))
    assert out == "deal 1, passing: (nothing) → before play every player passes 3 cards to the left, all at once\n"


def test_doubling_without_redoubling_says_nothing_of_redoubles(tmp_path, cli):
    p = _variant(tmp_path, STANDARD, "contracts:\n  atu: {doubling: {redouble: false}}\n")
    rc, out, err = cli("explain", str(p))
    line = next(x for x in out.splitlines() if x.startswith("  doubling:"))
    assert "redouble" not in line and "each bet pays the difference of the two players' scores" in line


def _scoring(tmp_path: Path, item: str) -> str:
    """The scoring words of a one-deal ruleset whose only contract scores ``item``."""
    p = tmp_path / "one.yaml"
    p.write_text("kierki: 1\nname: one\nmatch: {schedule: [gra]}\ncontracts:\n  gra:\n    pl: Gra\n"
                 f"    score: [{item}]\n", "utf-8")
    return aspects(Ruleset.load(str(p)), "gra")["scoring"]


@pytest.mark.parametrize("when, which", [("trick.is_last", "the last trick"), ("trick.is_first", "the first trick"),
                                         ("trick.number == 7", "trick 7")])
def test_points_for_one_trick_are_not_said_each(tmp_path, when, which):
    """One trick is won once: "winning the last trick: +25", not "+25 each"."""
    assert _scoring(tmp_path, f"{{per_trick: 25, when: {when}}}") == f"winning {which}: +25"
    assert _scoring(tmp_path, "{per_trick: 25, when: trick.number == 7 or trick.is_last}") == (
        "winning trick 7 and the last trick: +25 each")
