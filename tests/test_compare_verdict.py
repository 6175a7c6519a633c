"""Issue #25 item 4: ``kierki compare`` answers the author's question first, in words, with
intervals — how often the winner changes, how the seats' order agrees, how the seat, dealer and
trump caller advantages moved, which deals changed (named by their titles) — and names no deal
whose rules and measures did not change beyond noise. Few matches, fixed seeds."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from kierki_dsl.analysis.paired import flag, kendall_tau, p_value, rank_agreement, winner_changes
from kierki_dsl.analysis.rows import GameResult
from kierki_dsl.stats import estimate, holm, share_interval, sign_test

from conftest import RULESETS, STANDARD, run_cli

HEARTS = RULESETS / "games" / "hearts.yaml"


def _variant(tmp_path, body: str):
    path = tmp_path / "house.yaml"
    path.write_text(f"kierki: 1\nextends: {STANDARD}\nname: house rule\n{body}", encoding="utf-8")
    return path


KING_LED = "contracts:\n  bez_krola_kier:\n    lead_ban: card == KH\n" \
           "    lead_ban_reason: the king of hearts may not be led while you hold another card\n"


def _pair(a: tuple, b: tuple, i: int = 0) -> tuple:
    names = tuple("abcd"[: len(a)])
    return GameResult(i, names, (), a), GameResult(i, names, (), b)


def test_kendall_tau_of_seat_orders():
    assert kendall_tau((30, 20, 10, 0), (3, 2, 1, 0)) == 1.0
    assert kendall_tau((30, 20, 10, 0), (0, 10, 20, 30)) == -1.0
    assert kendall_tau((30, 20, 10, 0), (20, 30, 10, 0)) == pytest.approx(4 / 6)
    assert kendall_tau((5, 5, 5), (1, 2, 3)) is None, "one ruleset tied every seat: no order to agree with"
    assert kendall_tau((1, 1, 0), (1, 1, 0)) == pytest.approx(1.0), "tau-b: ties on both sides agree"


def test_winner_changes_and_rank_agreement_of_paired_matches():
    pairs = [_pair((10, 0, 0), (10, 0, 0), 0), _pair((10, 0, 0), (0, 10, 0), 1),
             _pair((10, 10, 0), (10, 0, 0), 2), _pair((1, 1, 1), (3, 2, 1), 3)]
    w = winner_changes(pairs)
    assert (w["changed"], w["matches"], w["share"]) == (3, 4, 0.75), "a shared win that becomes a sole win changes"
    assert w["low"] < 0.75 < w["high"] <= 1.0
    r = rank_agreement(pairs)
    assert r["n"] == 3 and r["left_out"] == 1 and r["ci95"] is not None


def test_share_interval_stays_in_bounds_and_is_not_empty():
    low, high = share_interval(0, 20)
    assert low == 0.0 and 0.1 < high < 0.2
    low, high = share_interval(20, 20)
    assert 0.8 < low < 0.9 and high == 1.0
    low, high = share_interval(5, 20)
    assert low < 0.25 < high


def test_a_rare_share_difference_is_not_flagged_by_the_normal_approximation():
    """Four matches of twenty where a deal became decisive, none the other way: the normal
    interval excludes zero ("significant"), the exact sign test does not (p = 1/8), and with
    the other measures compared at once it is not flagged."""
    diffs = [1.0] * 4 + [0.0] * 16
    e = estimate(diffs)
    assert e.significant
    assert sign_test(diffs) == pytest.approx(0.125)
    assert p_value("decisive:bez_lew", diffs, e) == pytest.approx(0.125)
    difference = {"decisive:bez_lew": dict(e.to_json(), significant=True, p=0.125),
                  "points:bez_panow": {"mean": 120.0, "ci95": 0.0, "n": 20, "significant": True, "p": 0.0}}
    flag(difference)
    assert not difference["decisive:bez_lew"]["flagged"] and difference["points:bez_panow"]["flagged"]


def test_holm_allows_for_every_measure_compared():
    ps = {f"m{i}": 0.03 for i in range(10)}
    assert not any(holm(ps).values()), "ten measures at p = 0.03 each: what noise alone gives"
    assert holm({"a": 0.001, "b": 0.04}) == {"a": True, "b": True}
    assert holm({"a": 0.001, "b": 0.03, "c": 0.5}) == {"a": True, "b": False, "c": False}


def _compare(*args) -> tuple:
    rc, out, err, _ = run_cli("compare", *map(str, args))
    assert rc == 0, err
    rc, js, err, _ = run_cli("compare", *map(str, args), "--format", "json")
    assert rc == 0, err
    return out, json.loads(js)


def _section(text: str, heading: str) -> str:
    """The lines of one verdict section of the text report."""
    return text.split(f"\n{heading}\n", 1)[1].split("\n\n", 1)[0]


def test_a_variant_of_one_contract_names_only_that_contract(tmp_path):
    """Only Bez króla kier's lead ban changes: the verdict names it (by its title) as the one
    deal whose rules differ; no other deal is named or flagged, although with seed 2 some
    measure's own interval excludes zero by chance."""
    house = _variant(tmp_path, KING_LED)
    out, res = _compare(STANDARD, house, "--games", "16", "--seed", "2")
    assert res["rules_changed"] == ["bez_krola_kier"]
    assert any(d["significant"] for d in res["difference"].values()), "noise that a per-measure interval flags"
    assert not any(d["flagged"] for d in res["difference"].values())
    verdict, deals = _section(out, "Verdict"), _section(out, "Deals")
    assert "The rules of 1 deal differ: Bez króla kier — No king of hearts." in verdict
    assert "The other 8 deals: neither the rules nor any measure changed beyond noise" in verdict
    assert deals.count("\n") == 0 and deals.strip().startswith("Bez króla kier — No king of hearts: rules changed")
    for name, title in res["titles"].items():
        if name != "bez_krola_kier":
            assert title not in verdict and title not in deals, title
    assert "*" not in out.split("Every measure", 1)[1].split("\n", 1)[1], "no row marked beyond noise"


def test_the_verdict_comes_first_in_words_with_intervals():
    out, res = _compare(STANDARD, RULESETS / "variants" / "jacks_only.yaml", "--games", "12", "--seed", "3",
                        "--players", "random")
    head = out.split("\nAdvantages\n", 1)[0]
    assert out.index("Verdict") < out.index("Every measure")
    w = res["winner_changes"]
    assert (f"The winner of a match changes in {w['changed']} of 12 matches: {round(w['share'] * 100)}% "
            f"(95% interval {round(w['low'] * 100)}% to {round(w['high'] * 100)}%).") in head
    tau = res["rank_agreement"]
    assert f"Kendall's tau of {tau['mean']:+.2f} ± {tau['ci95']:.2f} per match" in head
    assert "The rules of 2 deals differ: Bez panów — No jacks; Rozbójnik — Robber, all penalties at once." in head
    deals = _section(out, "Deals")
    assert "Bez panów — No jacks: rules changed;" in deals and "points given out up +120.0 ± 0.0" in deals
    assert not re.search(r"\bbez_[a-z_]+|rozbojnik|loteryjka", out.split("\n", 2)[2]), "ids only in the paths"


def test_advantages_are_listed_where_the_rulesets_have_them(tmp_path):
    """Seats, first dealer, dealer and first turn always; the trump caller where a deal has one
    (Kierki's trumps deal), not in Hearts (no trumps)."""
    out, res = _compare(STANDARD, _variant(tmp_path, KING_LED), "--games", "4", "--seed", "1", "--players", "random")
    adv = _section(out, "Advantages")
    for item in ("seat 0", "seat 3", "first dealer", "dealer", "trump caller", "first turn"):
        assert re.search(rf"^  {item}: .* under A, .* under B; moved .*, (within|beyond) noise\.$", adv, re.M), item
    copy = tmp_path / "hearts_copy.yaml"
    shutil.copy(HEARTS, copy)
    out, res = _compare(HEARTS, copy, "--games", "4", "--seed", "1", "--players", "random")
    adv = _section(out, "Advantages")
    assert "dealer:" in adv and "trump caller" not in adv and "trump caller" not in out
    assert "The winner of a match changes in 0 of 4 matches" in out and "tau of +1.00 ± 0.00" in out
    assert "No deal changed: neither a deal's rules nor any of its measures changed beyond noise." in out


def test_sections_that_cannot_apply_are_left_out(tmp_path):
    """Trick deals never block, and without an early stop never end early: no such rows in the
    text or the HTML; a variant with an early stop shows them for the deals that stopped."""
    pytest.importorskip("matplotlib")
    report = tmp_path / "r.html"
    out, _ = _compare(HEARTS, HEARTS, "--games", "3", "--players", "random", "--html", report)
    page = report.read_text(encoding="utf-8")
    for text in (out, page):
        assert "blocked" not in text and "ended early" not in text
    out, res = _compare(STANDARD, RULESETS / "variants" / "early_stop.yaml", "--games", "6", "--seed", "2",
                        "--players", "random")
    early = out.split("ended early:", 1)[1].split("\n\n", 1)[0]
    assert "Bez dam — No queens" in early and "Rozgrywka atutowa" not in early, early
    assert "blocked" not in out


def test_the_html_report_opens_with_the_verdict(tmp_path):
    pytest.importorskip("matplotlib")
    report = tmp_path / "r.html"
    house = _variant(tmp_path, KING_LED)
    out, res = _compare(STANDARD, house, "--games", "4", "--seed", "2", "--players", "random", "--html", report)
    page = report.read_text(encoding="utf-8")
    assert page.index("<h2>Verdict</h2>") < page.index("<h2>Advantages</h2>") < page.index("<h2>Deals</h2>") \
        < page.index("<h2>Final scores</h2>")
    assert "<li>The rules of 1 deal differ: Bez króla kier — No king of hearts.</li>" in page
    assert "<td>Bez lew — No tricks</td>" in page and "bez_lew" not in page


def test_the_declarer_advantage_where_an_auction_names_one(tmp_path):
    """Tysiąc's auction winner plays the contract: its advantage is measured and reported like
    the dealer's (Tysiąc names no trump caller: trumps come from marriages)."""
    tysiac = RULESETS / "games" / "tysiac.yaml"
    copy = tmp_path / "tysiac_copy.yaml"
    shutil.copy(tysiac, copy)
    out, res = _compare(tysiac, copy, "--games", "2", "--seed", "1", "--players", "random")
    adv = _section(out, "Advantages")
    assert re.search(r"^  declarer: .* under A, .* under B; moved \+0\.0 ± 0\.0, within noise\.$", adv, re.M), adv
    assert "trump caller" not in adv
    assert res["a"]["measures"]["advantage:declarer"]["n"] == 2
