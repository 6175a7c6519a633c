"""A phase that changes play, added from one module (issue 21, item 6, the engine side).

``phases_extra/face_down.py`` registers "before play, every player lays one card face down from
the hand; the face-down cards go to whoever takes the last trick and score for them" (the
contract key ``face_down: {points_each: -10}``). No engine, front-end, player or adapter file
names it; this file plays it through the public API, ``kierki run`` with bots, a person at the
terminal, the session layer and the browser's state message, the OpenSpiel game, a record and
its replay, and lint — and checks that the compiled engines decline it and SIK refuses it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kierki_dsl
from kierki_dsl import phases
from kierki_dsl.cards import bits, card_pretty, card_str, parse_card
from kierki_dsl.interpreter import stepper
from kierki_dsl.interpreter.actions import PASS, IllegalAction, action_str, parse_action
from kierki_dsl.interpreter.plan import Declined, Plan, compile_plan
from kierki_dsl.players.base import make_player
from kierki_dsl.table import ACCEPTED, Refused, Session
from kierki_dsl.table.events import Played

from conftest import spawn, stop

TESTS = Path(__file__).resolve().parent
RULESET = """\
kierki: 1
name: face down
players: 4
match: {schedule: [bez_lew, bez_kierow]}
contracts:
  bez_lew:
    pl: Bez lew
    face_down: {points_each: -10}
    score: [{per_trick: -20}]
  bez_kierow:
    pl: Bez kierów
    total: -260
    score: [{per_card: card.suit == hearts, points: -20}]
"""


@pytest.fixture
def unit():
    """The phase registered for the test, taken out again afterwards (the module registers it
    when first imported; a later test registers the same unit again)."""
    sys.path.insert(0, str(TESTS))
    try:
        from phases_extra import face_down
    finally:
        sys.path.remove(str(TESTS))
    registered = phases.register(face_down.UNIT)
    try:
        yield registered
    finally:
        phases.unregister(registered)


@pytest.fixture
def ruleset_path(tmp_path):
    path = tmp_path / "face_down.yaml"
    path.write_text(RULESET, "utf-8")
    return path


@pytest.fixture
def rules(unit, ruleset_path):
    return kierki_dsl.load_ruleset(str(ruleset_path))


def kierki(*args: str, stdin: bytes = b"", modules: str = "phases_extra.face_down", timeout: float = 120):
    """``kierki ARGS`` with the tests folder on ``PYTHONPATH`` and ``modules`` (the phase module)
    in ``KIERKI_PHASES``; (exit code, stdout, stderr)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH", "")]))
    env.pop("KIERKI_PHASES", None)
    if modules:
        env["KIERKI_PHASES"] = modules
    p = spawn(list(args), env=env, stdin=subprocess.PIPE)
    try:
        out, err = p.communicate(input=stdin, timeout=timeout)
    finally:
        stop(p)
        for stream in (p.stdout, p.stderr, p.stdin):
            stream.close()
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _to_face_down(match, seat: int):
    """Step ``match`` with random legal actions until ``seat`` must lay a card face down."""
    while match.to_move() != seat or match.view(seat).phase != "face_down":
        match.apply(match.view(match.to_move()).legal[0])
    return match.view(seat)


# -- the engine --------------------------------------------------------------------------------------


def test_a_seeded_match_lays_cards_face_down_and_scores_them_for_the_last_trick(rules, unit):
    played = kierki_dsl.play_match(rules, ["random"] * 4, seed=11)
    again = kierki_dsl.play_match(rules, ["random"] * 4, seed=11)
    assert played.record() == again.record(), "same ruleset and seed, same match"
    first, second = played.deals
    assert len(first.added) == 4 and all(a.startswith("face_down:") for a in first.added)
    assert len(first.plays) == 48, "every hand one card shorter: 12 tricks"
    assert sum(first.scores) == 12 * -20 + 4 * -10
    down = {parse_action(a) - unit.action_base for a in first.added}
    hands = [set(h) for h in first.dealt]
    assert all(len(down & h) == 1 for h in hands), "each seat laid one card of its own hand"
    assert not down & {parse_action(p) for p in first.plays}, "a face-down card is never played"
    assert second.added == () and len(second.plays) == 52 and sum(second.scores) == -260


def test_the_last_trick_s_taker_gets_the_face_down_cards(rules, unit):
    match = kierki_dsl.Match(rules, seed=4)
    while match.deal_index == 0:
        state = match.state
        match.apply(match.view(match.to_move()).legal[-1])
    assert state.is_terminal()
    taker = state.completed[-1][2]
    for s in range(4):
        assert state.scores[s] == -20 * state.tricks_won[s] + (-40 if s == taker else 0)
    laid = sum(1 << c for c in state.added[0][1].cards)
    assert laid.bit_count() == 4 and not laid & state.played and state.taken[taker] & laid == laid


def test_a_seat_sees_its_own_face_down_card_and_only_the_count_of_the_others(rules, unit):
    match = kierki_dsl.Match(rules, seed=2)
    view = _to_face_down(match, 1)
    assert view.legal == tuple(unit.action_base + c for c in bits(view.hand))
    laid_before = dict(view.parts)["face_down"][1]
    match.apply(view.legal[0])
    mine = dict(match.view(1).parts)["face_down"]
    assert mine == (view.legal[0] - unit.action_base, laid_before + 1)
    for other in (0, 2, 3):
        theirs = dict(match.view(other).parts)["face_down"]
        assert theirs[1] == laid_before + 1 and theirs[0] != mine[0]
    doc = match.view(1).to_json()
    assert kierki_dsl.SeatView.from_json(doc) == match.view(1)


def test_an_illegal_action_is_refused_with_the_rule(rules, unit):
    match = kierki_dsl.Match(rules, seed=2)
    view = _to_face_down(match, 0)
    state = match.state
    not_held = next(c for c in range(52) if not view.hand >> c & 1)
    assert state.why_illegal(unit.action_base + not_held) == f"{card_str(not_held)} is not in your hand"
    assert state.why_illegal(PASS) == unit.expected
    assert state.why_illegal(min(bits(view.hand))) == unit.expected, "a card is not played before the phase ends"
    with pytest.raises(IllegalAction):
        match.apply(unit.action_base + not_held)
    assert match.view(0).ply == view.ply


def test_the_record_notation_of_the_phase_reads_back(unit):
    action = unit.action_base + 12
    assert action_str(action) == "face_down:AS" and parse_action("face_down:AS") == action
    assert unit.owns(action) and not unit.owns(12)


def test_the_compiled_engines_decline_the_contract_and_say_why(rules):
    declined = compile_plan(rules.contracts["bez_lew"])
    assert isinstance(declined, Declined) and "face_down" in declined.reason
    assert stepper.why_not_carried(rules.contracts["bez_lew"]) == declined.reason
    assert isinstance(compile_plan(rules.contracts["bez_kierow"]), Plan)
    assert rules.contracts["bez_lew"].fast_player(4, 13, rules.deck) is None


# -- the command line: bots, a person, record and replay, lint ---------------------------------------


def test_kierki_run_with_bots_records_and_replay_gives_the_same_totals(ruleset_path, tmp_path):
    record = tmp_path / "match.json"
    code, out, err = kierki(
        "run", str(ruleset_path), "--seed", "7", "--players", "random", "--format", "json", "--record", str(record)
    )
    assert code == 0, err
    totals = json.loads(out)["totals"]
    deals = json.loads(record.read_text("utf-8"))["deals"]
    assert [len(d.get("added", [])) for d in deals] == [4, 0]
    code, out, err = kierki("replay", "--ruleset", str(ruleset_path), str(record), "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["ok"] and report["totals"] == totals


def test_a_simulation_plays_it_on_the_interpreter_the_same_with_and_without_records(ruleset_path, tmp_path):
    args = ("simulate", str(ruleset_path), "--games", "6", "--seed", "4", "--format", "json")
    code, plain, err = kierki(*args)
    assert code == 0, err
    code, kept, err = kierki(*args, "--records", str(tmp_path / "records"))
    assert code == 0, err
    assert json.loads(plain) == json.loads(kept)
    first = json.loads((tmp_path / "records" / "match-000000.json").read_text("utf-8"))
    assert len(first["deals"][0]["added"]) == 4


def test_a_replay_without_the_face_down_cards_is_refused(ruleset_path, tmp_path):
    record = tmp_path / "match.json"
    assert kierki("run", str(ruleset_path), "--seed", "7", "--players", "random", "--record", str(record))[0] == 0
    doc = json.loads(record.read_text("utf-8"))
    del doc["deals"][0]["added"]
    record.write_text(json.dumps(doc), "utf-8")
    code, out, err = kierki("replay", "--ruleset", str(ruleset_path), str(record))
    assert code != 0 and "deal 1" in out + err and "the record's 'added' ends before the phase face_down is over" in out + err


def test_a_person_lays_a_card_face_down_at_the_terminal(rules, ruleset_path, unit):
    hand = kierki_dsl.Match(rules, seed=5).view(0).hand
    held = card_str(min(bits(hand)))
    not_held = card_str(next(c for c in range(52) if not hand >> c & 1))
    script = f"ZZ\n{not_held}\nlay {held} face down\n" + "1\n" * 200
    code, out, err = kierki(
        "run", str(ruleset_path), "--seed", "5", "--players", "random", "--human", "0", stdin=script.encode()
    )
    assert code == 0, err
    assert "a card to lay face down> " in out and "Legal: 1) " in out
    assert "Lay one card face down" in out
    shown = card_pretty(parse_card(not_held))  # the terminal writes cards in one notation (2♠, not 2S)
    assert f"You cannot lay {not_held} face down: {shown} is not in your hand." in out
    assert "Face down: 4 cards, for whoever takes the last trick (yours: " in out
    assert "sum of scores" in out


def test_a_saved_match_stopped_after_the_phase_resumes_to_the_same_end(ruleset_path, tmp_path):
    save = tmp_path / "match.save"
    args = ("run", str(ruleset_path), "--seed", "5", "--players", "random", "--human", "0")
    code, out, err = kierki(*args, "--save", str(save), stdin=b"1\n1\n1\n")
    assert code == 130 and "kierki resume" in err
    assert '"action": "face_down:' in save.read_text("utf-8")
    code, resumed, err = kierki("resume", str(save), stdin=b"1\n" * 200)
    assert code == 0, err
    code, whole, err = kierki(*args, stdin=b"1\n" * 200)
    assert code == 0, err
    standings = whole[whole.index("Final standings:") :]
    assert standings in resumed


def test_lint_accepts_the_key_and_rejects_a_bad_value_where_it_stands(ruleset_path, tmp_path):
    assert kierki("lint", str(ruleset_path))[0] == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text(RULESET.replace("points_each: -10", "points_each: lots"), "utf-8")
    code, out, err = kierki("lint", str(bad))
    assert code == 1 and f"{bad}:8:30: error: S202 contracts.bez_lew.face_down.points_each must be an integer" in err
    zero = tmp_path / "zero.yaml"
    zero.write_text(RULESET.replace("points_each: -10", "points_each: 0"), "utf-8")
    code, out, err = kierki("lint", str(zero))
    assert code == 0 and "warning: M690 face-down cards with points_each: 0 score nothing" in err
    code, out, err = kierki("lint", str(ruleset_path), modules="")
    assert code == 1 and "S201 unknown key 'face_down' in contracts.bez_lew" in err
    code, out, err = kierki("lint", "--explain", "M690")
    assert code == 0 and out.startswith("M690 (warning): face-down cards that score nothing")


def test_explain_and_the_declared_total_count_the_phase(ruleset_path, tmp_path):
    code, out, err = kierki("explain", str(ruleset_path))
    assert code == 0, err
    assert "game: trick-taking, 12 tricks." in out and "end: all 12 tricks are played." in out
    assert "face down: before play every player, starting left of the dealer, lays one card" in out
    assert "total: the points of one deal add up to -280." in out
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(RULESET.replace("pl: Bez lew\n", "pl: Bez lew\n    total: -260\n"), "utf-8")
    code, out, err = kierki("lint", str(wrong))
    assert code == 1 and "M601 contract 'bez_lew' declares total -260 but its scoring gives -280" in err


def test_a_phase_module_that_does_not_import_is_a_usage_error(ruleset_path):
    code, out, err = kierki("lint", str(ruleset_path), modules="phases_extra.no_such_phase")
    assert code == 2 and err.strip().startswith("kierki: error: KIERKI_PHASES names 'phases_extra.no_such_phase'")


# -- the session layer, the browser, SIK, OpenSpiel ---------------------------------------------------


def test_the_session_takes_the_phase_and_tells_no_seat_another_s_card(rules, unit):
    session = Session(rules, 3, [None] + [make_player("random") for _ in range(3)])
    heard: list = []
    assert session.table.sit(0, heard.append)
    while session.table.match.to_move() != 0 or session.table.view(0).phase != "face_down":
        assert session.run_bots() == ACCEPTED
    view = session.table.view(0)
    not_held = next(c for c in range(52) if not view.hand >> c & 1)
    refused = session.act(0, unit.action_base + not_held)
    assert refused == Refused(f"{card_str(not_held)} is not in your hand")
    assert isinstance(session.act(0, min(bits(view.hand))), Refused)
    assert session.act(0, view.legal[0]) == ACCEPTED
    assert session.run_bots() == ACCEPTED or session.over
    laid = [e for e in heard if isinstance(e, Played) and unit.owns(e.action)]
    assert [(e.seat, e.action) for e in laid] == [(0, view.legal[0])], "only the seat's own face-down card"


def test_the_browser_state_message_shows_the_phase_from_its_module(rules, unit):
    from types import SimpleNamespace

    from kierki_dsl.web.messages import parse
    from kierki_dsl.web.snapshot import seat_state

    session = Session(rules, 3, [None] + [make_player("random") for _ in range(3)])
    session.table.sit(0, lambda e: None)
    while session.table.match.to_move() != 0 or session.table.view(0).phase != "face_down":
        assert session.run_bots() == ACCEPTED
    room = SimpleNamespace(
        table=session.table, ruleset=rules, id="t", kinds=["human"] + ["random"] * 3, failure=None, logs={}
    )
    doc = seat_state(room, 0)
    view = session.table.view(0)
    assert doc["task"] == "lay a card face down"
    assert sorted(a["action"] for a in doc["actions"]) == sorted(view.legal)
    assert all(a["label"].startswith("lay ") and a["code"].startswith("face_down:") for a in doc["actions"])
    assert any(p["phase"] == "face_down" for p in doc["panels"])
    msg = parse(json.dumps({"type": "act", "action": view.legal[0], "deal": 1, "ply": view.ply}))
    assert session.act(0, msg["action"]) == ACCEPTED


def test_sik_refuses_a_deal_with_the_phase(rules, unit):
    from kierki_dsl.net.server import sik_problem

    problem = sik_problem(rules, None)
    assert problem is not None and "bez_lew" in problem and "not a plain trick deal" in problem


def test_the_openspiel_game_plays_it_and_keeps_the_face_down_cards_private(rules, unit, ruleset_path):
    pyspiel = pytest.importorskip("pyspiel")
    kos = pytest.importorskip("kierki_dsl.openspiel")
    game = kos.load(str(ruleset_path))
    assert game.num_distinct_actions() >= unit.action_base + 52
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    import random

    rng = random.Random(1)
    laid: dict = {}
    while not state.is_terminal() and len(laid) < 4:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        seat, action = state.current_player(), rng.choice(state.legal_actions())
        if unit.owns(action):
            laid[seat] = action_str(action)
        state.apply_action(action)
    assert len(laid) == 4
    for seat, code in laid.items():
        for other in range(4):
            assert (code in state.information_state_string(other)) == (other == seat)


@pytest.mark.parametrize("players", [["heuristic"] * 4, ["search:8", "heuristic", "search:8", "random"]])
def test_bots_choose_through_the_phase_s_bot_hook(rules, unit, players):
    """The heuristic asks the phase's ``bot_action``, the search player its search hooks (the bot
    hooks of ``PhaseUnit``): no player names the phase."""
    played = kierki_dsl.play_match(rules, players, seed=11)
    assert played.deals and all(len(d.added) == 4 for d in played.deals[:1])  # deal 1 lays cards face down


# -- a real browser ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_person_lays_a_card_face_down_in_the_browser(unit, ruleset_path):
    """Chromium at the web table (the server in this process, the phase registered here): the page
    draws a button per face-down card from the phase's labels, a card not held is refused with the
    rule, the click is accepted and the panel shows the seat's own face-down card."""
    from web_support import need_web, running_server

    need_web()
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = os.environ.get("KIERKI_CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(chromium):
        pytest.skip(f"no Chromium at {chromium}")
    db = str(ruleset_path.parent / "web.sqlite3")
    with running_server(db, rulesets=(str(ruleset_path.parent),), rate=50.0, burst=100.0) as base:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], headless=True)
            try:
                page = browser.new_context(bypass_csp=True).new_page()
                page.set_default_timeout(15000)
                page.goto(base + "/")
                page.locator(f'input[name=ruleset][value$="/{ruleset_path.name}"]').check()  # an extra folder's ruleset: FOLDER/NAME
                for s, kind in enumerate(["human", "random", "random", "random"]):
                    page.select_option(f"#seat-{s}", kind)
                page.click("#create")
                page.wait_for_selector("a.seat-link")
                page.goto(page.locator('a.seat-link[data-seat="0"]').get_attribute("href"))
                page.wait_for_function("document.body.dataset.turn === 'true'")
                buttons = page.locator("#controls button", has_text="face down")
                hand = page.evaluate("cardsOf(state.view.hand)")
                assert buttons.count() == len(hand) == 13
                not_held = next(c for c in range(52) if c not in hand)
                page.evaluate("document.getElementById('message').textContent = ''")
                page.evaluate(f"send({unit.action_base + not_held})")
                page.wait_for_function("document.getElementById('message').textContent.length > 0")
                assert f"{card_str(not_held)} is not in your hand" in page.locator("#message").inner_text()
                laid = buttons.first.inner_text()
                before = page.evaluate("document.body.dataset.ply")
                buttons.first.click()
                page.wait_for_function(f"document.body.dataset.ply !== {before!r}")
                page.wait_for_function("document.body.dataset.turn === 'true'")
                panels = " ".join(page.locator(".panel").all_inner_texts())
                shown = re.sub(r"^\d+\.\s*", "", laid)  # a button reads "1. lay K♠ face down"
                shown = shown.removeprefix("lay ").removesuffix(" face down")
                assert "Face down" in panels and f"(yours: {shown})" in panels, panels
                assert page.locator("#hand button.legal").count() >= 1, "play goes on with cards"
            finally:
                browser.close()
