"""Issue #25 item 3: `kierki diff` pairs the deals of two schedules by contract, so one inserted
deal is one change, not a change at every later deal."""
from __future__ import annotations

import re

from conftest import STANDARD


def test_one_inserted_deal_is_one_change(tmp_path, cli):
    base = tmp_path / "std.yaml"
    base.write_text(STANDARD.read_text("utf-8"), "utf-8")
    house = tmp_path / "house.yaml"
    house.write_text("kierki: 1\nextends: std.yaml\nname: house\nmatch:\n  total: -260\n  parts: []\n"
                     "  schedule: [bez_lew, bez_lew, bez_kierow, bez_dam, bez_panow, bez_krola_kier, "
                     "bez_siodmej_i_ostatniej, rozbojnik, {contract: atu, repeat: 4}, loteryjka]\n", "utf-8")
    rc, out, err = cli("diff", str(base), str(house))
    assert rc == 0, err
    deal_lines = [line for line in out.splitlines() if re.match(r"deals? \d", line)]
    assert len(deal_lines) == 1 and re.fullmatch(r"deal [12], contract: \(none\) → Bez lew — No tricks", deal_lines[0]), out


def test_a_shorter_match_names_the_deals_it_drops_and_an_undeclared_total(tmp_path, cli):
    """Play-test 5: `kierki diff` of the standard profile and a one-deal schedule said
    "match total: 0 → None" and "every deal, contract: Rozgrywka atutowa ... → (none)" of the
    four trump deals (8-11) the shorter match drops."""
    short = tmp_path / "short.yaml"
    short.write_text("kierki: 1\nextends: " + str(STANDARD) + "\nname: short\nmatch:\n  total: null\n  parts: null\n"
                     "  schedule: [bez_lew]\n", "utf-8")
    rc, out, err = cli("diff", str(STANDARD), str(short))
    assert rc == 0, err
    assert "None" not in out and "match total: 0 → (none)" in out, out
    assert "deals 8-11, contract: Rozgrywka atutowa — Trumps, called by the dealer → (none)" in out, out
    assert "every deal" not in out, out


def test_a_change_inside_parentheses_is_shown_with_them_closed():
    from kierki_dsl.explain import _change

    a = "score: -20 per trick, plus (kings and jacks taken: -30 each) and the last trick costs -50 more points"
    b = "score: -20 per trick, plus (jacks taken: -20 each) and the last trick costs -50 more points"
    shown = _change(a, b)
    assert "plus ([kings and jacks taken: -30 → jacks taken: -20] each) and" in shown
    inner = shown[shown.index("[") + 1 : shown.index("]")]
    for part in inner.split(" → "):
        assert part.count("(") == part.count(")"), shown
