"""Exposure doubling (issue 16, Trix): a card shown before play costs its taker double and pays
its exposer the single value; the deal's total is unchanged. Views show exposed cards to every
seat, records keep them, and every player copes with the round."""
from __future__ import annotations

import io

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.actions import DONE, expose, parse_action
from kierki_dsl.interpreter.match import deal_out
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.players.search import sample_hands
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS

TRIX = Ruleset.load(str(RULESETS / "games" / "trix.yaml"))
KH = parse_card("KH")


def _king_deal():
    contract = TRIX.contracts["king"]
    return contract.new_deal(4, TRIX.deck, 0, deal_out(list(range(52)), 0, 4, TRIX.direction), TRIX.direction, 1)


def _play_out(st):
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[-1] if st.phase == "play" else DONE)


def _holder(st):
    return next(s for s in range(4) if st.hands[s] >> KH & 1)


def test_an_exposed_king_costs_its_taker_double_and_pays_its_exposer():
    plain, shown = _king_deal(), _king_deal()
    exposer = _holder(shown)
    assert plain.phase == "expose"
    while shown.current_player() != exposer:
        shown.apply_action(DONE)
    assert expose(KH) in shown.legal_actions()
    shown.apply_action(expose(KH))
    assert all(shown.view(s).exposed == ((exposer, KH),) for s in range(4)), "every seat sees the exposed card"
    _play_out(shown)
    _play_out(plain)
    taker = next(s for s in range(4) if plain.taken[s] >> KH & 1)
    assert plain.returns()[taker] == -75 and sum(plain.returns()) == sum(shown.returns()) == -75
    if taker != exposer:
        assert shown.returns()[taker] == -150 and shown.returns()[exposer] == 75
    else:
        assert shown.returns()[taker] == -75


def test_exposures_are_checked_and_explained_from_the_view():
    st = _king_deal()
    seat = st.current_player()
    view = st.view(seat)
    assert view.legal[0] == DONE
    assert illegal_reason(view, expose(parse_card("QS")), TRIX.contracts["king"]) in (
        "QS is not in your hand", "QS is not a card that may be exposed in this contract")
    mine = next(c for c in range(52) if view.hand >> c & 1 and c != KH)
    assert illegal_reason(view, expose(mine), TRIX.contracts["king"]).endswith(
        "is not a card that may be exposed in this contract")
    assert parse_action("expose:KH") == expose(KH) and parse_action("done") == DONE


def test_search_samples_an_exposed_card_with_its_exposer():
    import random

    st = _king_deal()
    exposer = _holder(st)
    while st.phase == "expose":
        st.apply_action(expose(KH) if st.current_player() == exposer and expose(KH) in st.legal_actions() else DONE)
    seat = next(s for s in range(4) if s != exposer)
    while st.current_player() != seat:
        st.apply_action(st.legal_actions()[0])
    view = st.view(seat)
    rng = random.Random(2)
    for _ in range(10):
        hands = sample_hands(view, rng)
        assert hands[exposer] >> KH & 1 or view.played >> KH & 1
        again = TRIX.contracts["king"].from_view(view, hands)
        assert again.view(seat).exposed == view.exposed
    bot = make_player("search:3")
    bot.reset(1, seat, TRIX)
    assert bot.act(view) in view.legal


def test_the_terminal_offers_exposures_and_refuses_with_a_reason():
    st = _king_deal()
    exposer = _holder(st)
    while st.current_player() != exposer:
        st.apply_action(DONE)
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("QS\nKH\n"), stdout=out, ruleset=TRIX)
    human.reset(0, exposer, TRIX)
    assert human.act(st.view(exposer)) == expose(KH)
    text = out.getvalue()
    assert "1) done  2) expose K♥" in text and "You cannot expose QS" in text


def test_heuristic_exposes_only_a_protected_card():
    st = _king_deal()
    exposer = _holder(st)
    while st.current_player() != exposer:
        st.apply_action(DONE)
    view = st.view(exposer)
    lower = sum(1 for c in range(KH - 11, KH) if view.hand >> c & 1)
    bot = make_player("heuristic")
    bot.reset(0, exposer, TRIX)
    assert bot.act(view) == (expose(KH) if lower >= 3 else DONE)


def test_schema_and_lint_locate_bad_exposures_and_duties(tmp_path):
    from kierki_dsl.lint import lint_file

    cases = [
        ("    exposure: {cards: card == KH, factor: 1}\n", "S", 7),
        ("    exposure: {factor: 2}\n", "S", 7),
        ("    exposure: {cards: card.suit == trump}\n", "M631", 7),
        ("    exposure: {cards: card == QS}\n", "M631", 7),
        ("    doubling: {duty: {times: 2}}\n", "S", 7),
        ("    doubling: {if_undoubled: later}\n", "S", 7),
    ]
    for body, code, line in cases:
        path = tmp_path / "bad.yaml"
        path.write_text("kierki: 1\nname: bad\nmatch: {schedule: [king]}\ncontracts:\n  king:\n"
                        "    score: [{per_card: card == KH, points: -75}]\n" + body, "utf-8")
        found = [d for d in lint_file(str(path)) if d.code.startswith(code)]
        assert found and found[0].pos is not None and found[0].pos.line == line, (body, found)
