"""Bids that depend on the hand (issue 16, for Tysiąc): `auction.allow` keeps only the bids an
expression over the bid (`value`) and the bidder's hand (`held(...)`) allows — here Tysiąc's
"above 120 only with a marriage (K and Q of one suit) in hand"."""
from __future__ import annotations

import io

import pytest

from kierki_dsl.interpreter.actions import PASS, bid
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.lint import lint_file
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from test_variants import C

N, E, S, W = 0, 1, 2, 3
MARRIAGE = " or ".join(f"(held(card == K{s}) > 0 and held(card == Q{s}) > 0)" for s in "SHDC")
RULES = f"""kierki: 1
name: bids above 120 need a marriage
description: "PL: licytacja powyżej 120 tylko z meldunkiem. EN: bids above 120 need a marriage."
players: 4
match: {{schedule: [atu], total: 325}}
contracts:
  atu:
    total: 325
    auction:
      min: 100
      max: 200
      step: 10
      allow: "value <= 120 or {MARRIAGE}"
      allow_reason: a bid above 120 needs a marriage (K and Q of one suit) in hand
    first_lead: bidder
    trump: {{called_by: bidder, after: 13}}
    score:
      - per_trick: 25
      - per_seat: "if seat == bidder then -bid else bid / (players - 1)"
"""
# N holds the marriage of hearts; E holds kings and queens of different suits only
HANDS = [C(*"KH QH 2S 3S 4S 5S 6S 7S 8S 9S TS 2D 3D".split()),
         C(*"KS QD KC 2H 3H 4H 5H 6H 7H 8H 9H TH 4D".split()),
         C(*"JS QS AS JH AH 5D 6D 7D 8D 9D TD JD 2C".split()),
         C(*"QC KD AD AC 3C 4C 5C 6C 7C 8C 9C TC JC".split())]


@pytest.fixture()
def rs(tmp_path):
    path = tmp_path / "marriage_bids.yaml"
    path.write_text(RULES, "utf-8")
    return Ruleset.load(str(path))


def _deal(rs):
    return rs.contracts["atu"].new_deal(4, rs.deck, W, [list(h) for h in HANDS])


def test_a_bid_above_120_needs_a_marriage(rs):
    st = _deal(rs)
    assert st.current_player() == N and bid(200) in st.legal_actions(), "N holds K and Q of hearts"
    st.apply_action(bid(130))
    assert st.current_player() == E and st.legal_actions() == [PASS], "E has no marriage: nothing above 120 is his"
    assert st.why_illegal(bid(140)) == "a bid above 120 needs a marriage (K and Q of one suit) in hand"
    fresh = _deal(rs)
    fresh.apply_action(bid(110))
    assert fresh.legal_actions() == [PASS, bid(120)], "E may still bid up to 120"
    view = st.view(E)
    assert illegal_reason(view, bid(140), rs.contracts["atu"]) == ("a bid above 120 needs a marriage (K and Q of one "
                                                                   "suit) in hand")
    again = rs.contracts["atu"].from_view(view, list(st.hands))
    assert again.legal_actions() == [PASS]


def test_the_prompt_bots_records_and_words(rs, cli, tmp_path):
    st = _deal(rs)
    st.apply_action(bid(100))
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("130\n120\n"), stdout=out, ruleset=rs)
    human.reset(1, E)
    assert human.act(st.view(E)) == bid(120)
    assert "130 is not allowed: a bid above 120 needs a marriage" in out.getvalue()
    for name in ("heuristic", "search:3"):
        p = make_player(name)
        p.reset(1, E, rs)
        assert p.act(st.view(E)) in st.legal_actions()
    runner = MatchRunner(rs, [make_player("search:2"), make_player("heuristic"), make_player("random"),
                              make_player("random")], seed=4)
    results = list(runner.deals())
    record = match_record(rs, 4, runner.first_dealer, results)
    assert replay(rs, record).ok
    assert lint_file(rs.path) == []
    rc, text, _ = cli("explain", rs.path)
    assert "a bid is allowed only where the bid is at most 120 or" in text and "needs a marriage" in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(RULES.replace('allow: "value <= 120 or', 'allow: "1 > 2 or 1 > 3 or').replace(
        f" or {MARRIAGE}", ""), "utf-8")
    found = [(d.code, d.severity) for d in lint_file(str(bad))]
    assert ("M620", "warning") in found, found
    bad.write_text(RULES.replace("card == KS", "card == KX"), "utf-8")
    found = [(d.code, d.pos.line) for d in lint_file(str(bad))]
    assert found[0] == ("N401", 13), found  # the unknown card, located in `allow`


def test_the_game_adapter_bounds_a_game_by_its_longest_auction(tmp_path):
    """OpenSpiel's max_game_length: an auction of 200 levels, each bid one step up (or held)
    with every other seat passing in between, and a widow's exchange, stay within
    ``max_decisions``."""
    from kierki_dsl.adapters.game import GameSpec, GameState
    from kierki_dsl.interpreter.actions import PASS

    path = tmp_path / "long.yaml"
    path.write_text("""kierki: 1
name: a long auction
description: "x"
players: 4
match: {schedule: [gra]}
contracts:
  gra:
    auction: {min: 1, max: 200, passes: again, hold: true}
    widow: {cards: 4, then: discard}
    first_lead: bidder
    score: [{per_card: card.rank == A, points: 1}]
""", "utf-8")
    spec = GameSpec.make(Ruleset.load(str(path)), "deal", 1)
    state, decisions = GameState(spec), 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.is_chance():
            state.apply_action(legal[0])
            continue
        raise_now = state.deal.phase == "auction" and decisions % 4 in (0, 3) and len(legal) > 1
        state.apply_action(legal[1] if raise_now else legal[0])  # the lowest bid (or hold), else pass or a card
        decisions += 1
    assert decisions > 600, "the auction went on long"
    assert decisions <= spec.max_decisions


def test_lint_warns_when_allow_refuses_every_bid(tmp_path):
    """An `allow` reading only the bid that no level passes linted clean; the match then had the
    fallback seat play at a bid the rule forbids. Now M620 says so at the rule."""
    from conftest import RULESETS
    from kierki_dsl.lint import lint_file

    path = tmp_path / "none.yaml"
    base = RULESETS / "variants" / "auction_for_trumps.yaml"
    text = f"kierki: 1\nextends: {base}\nname: no bid allowed\ncontracts:\n  atu:\n    auction:\n      allow: value > 500\n"
    path.write_text(text, "utf-8")
    found = [(f.code, f.pos.line) for f in lint_file(str(path)) if "refuses every bid" in f.message]
    assert found == [("M620", 7)]
    path.write_text(text.replace("value > 500", "value > 200"), "utf-8")
    assert not [f for f in lint_file(str(path)) if "refuses every bid" in f.message]
    path.write_text(text.replace("value > 500", "value > 30 / (players - 4)"), "utf-8")
    found = [(f.code, f.severity) for f in lint_file(str(path))]
    assert found == [("N412", "error")], "M620 leaves a rule it cannot evaluate; its division by 0 is N412's"
