"""Every kind of decision refused with its reason when illegal, at the terminal and over the
browser's WebSocket protocol (issue #21 item 6, the refusal half).

``tests/test_person_every_decision.py`` takes every decision kind as a person and types one
illegal action per phase; ``tests/test_browser_decisions.py`` clicks every kind in Chromium and
refuses cards. Here each *kind* of action that can be illegal — a bid, an auction seller's answer,
a raise after the musik, an exposure, a double, a redouble, a trump call, a contract choice, a
layout card, a layout pass, a trick card — is met illegal in seeded play and sent:

- at the terminal (``players/human.py``), typed as its own label: refused with the rule's reason
  (or the actions allowed), then a legal action typed is taken;
- to ``kierki web`` over its WebSocket (what the page's ``send(action)`` sends; the page shows the
  reply's ``message``: tests/test_web_browser.py): answered ``illegal`` with the rule's reason, the
  table unchanged, then the legal action accepted.

The reasons expected are worked out here from the seat's view and the rules
(``interpreter.reasons.illegal_reason``, the actions worded by their phase's labels), not read
from the session. A declaration is no decision (it follows from the card led): nothing to refuse.
An auction's pass and a pass of cards are never illegal in the shipped rulesets.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path

import pytest

from kierki_dsl import phases
from kierki_dsl.cards import pretty_cards
from kierki_dsl.interpreter.actions import BID_BASE, action_str
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.table import Session

from test_person_every_decision import typed
from web_support import Client, create_table, running_server, send

ROOT = Path(__file__).resolve().parent.parent / "rulesets"
CANDIDATES = range(BID_BASE + 1000)  # where illegal actions of a phase are looked for
STEPS = 3000
#: ruleset -> the kinds (phase, family) met illegal in its seeded play, each refused here
TERMINAL = {
    "games/tysiac.yaml": {("auction", "bid"), ("auction", "accept"), ("auction", "refuse"), ("auction", "decline"),
                          ("exchange", "bid"), ("play", "card")},
    "games/barbu.yaml": {("call", "call"), ("choose", "choose"), ("double", "double"), ("double", "redouble"),
                         ("double", "done"), ("layout", "card"), ("layout", "pass"), ("play", "card")},
    "games/trix.yaml": {("choose", "choose"), ("expose", "expose"), ("layout", "card"), ("layout", "pass"),
                        ("play", "card")},
}
#: the decision kinds of the issue, each of which must be refused somewhere (a declaration is none)
ISSUE_KINDS = {"bid", "expose", "double", "pass", "call", "choose", "card"}


def family(action: int) -> str:
    """``card``, or the word of the action's record notation (``bid``, ``expose``, ``call``…)."""
    return "card" if action < 52 else action_str(action).split(":")[0]


def illegal_actions(rs, view) -> dict:
    """(phase, family) -> an action of it the deciding phase numbers, illegal now, that a person can
    name (its label reads back to it; a card must be held: one not held is refused as not held)."""
    unit = phases.phase_of(view)
    found: dict = {}
    for a in CANDIDATES:
        k = (unit.name, family(a))
        if k in found or a in view.legal or not unit.owns(a) or (a < 52 and not view.hand >> a & 1):
            continue
        try:
            if phases.parse(view, phases.label(view, a, rs), rs) == a:
                found[k] = a
        except phases.NotUnderstood:
            continue
    return found


def reason_for(rs, view, action: int) -> str:
    """The rule an illegal action breaks, worded as front ends word it (the legal actions by their labels)."""
    reason = illegal_reason(view, action, rs.contracts.get(view.contract), lambda a: phases.label(view, a, rs))
    assert reason, f"no reason for {action_str(action)} in {view.phase}"
    return reason


@pytest.mark.parametrize("path", sorted(TERMINAL))
def test_each_kind_illegal_at_the_terminal_is_refused_with_its_reason(path):
    rs = Ruleset.load(str(ROOT / path))
    refused: set = set()
    steps = 0
    for seed in range(8):
        m, rng = Match(rs, seed), random.Random(seed)
        while not m.over and steps < STEPS and refused < TERMINAL[path]:
            view = m.view(m.to_move())
            for k, bad in illegal_actions(rs, view).items():
                if k in refused:
                    continue
                words, ok = phases.label(view, bad, rs), view.legal[0]
                action, shown = typed(rs, view, [words, phases.label(view, ok, rs)])
                assert action == ok, shown
                reason = pretty_cards(reason_for(rs, view, bad))  # the terminal's card notation
                refusal = phases.phase_of(view).refusal(view, words, bad, reason, rs)
                assert refusal in shown, (k, shown)
                assert reason in refusal or all(phases.label(view, a, rs) in refusal for a in view.legal[:3]), refusal
                refused.add(k)
            m.apply(rng.choice(view.legal))
            steps += 1
    assert refused >= TERMINAL[path], sorted(TERMINAL[path] - refused)


# -- the browser's protocol ----------------------------------------------------------------------
#: ruleset -> the kinds seat 0 meets illegal in the web table's seeded play (bots at the other seats)
WEB = {
    "games/tysiac.yaml": {("auction", "bid"), ("exchange", "bid"), ("play", "card")},
    "games/barbu.yaml": {("call", "call"), ("choose", "choose"), ("double", "double"), ("layout", "card"),
                         ("layout", "pass")},
    "games/trix.yaml": {("expose", "expose"), ("choose", "choose"), ("play", "card")},
}


def test_the_kinds_refused_are_the_issues():
    assert {f for kinds in TERMINAL.values() for _, f in kinds} >= ISSUE_KINDS
    assert {f for kinds in WEB.values() for _, f in kinds} >= ISSUE_KINDS


SEEDS = range(1, 16)
MAX_ACTIONS = 1200


def plan(path: str) -> tuple:
    """(seed, steps): the first seed where seat 0, playing at random against the web table's bots
    (the same seeded session the server runs), meets every kind of ``WEB[path]`` illegal; each step
    is (``deal:ply``, [(illegal action, reason)], the action then taken)."""
    rs = Ruleset.load(str(ROOT / path))
    for seed in SEEDS:
        session = Session(rs, seed, [None] + [make_player("random") for _ in range(rs.players - 1)])
        session.table.sit(0, lambda event: None)
        rng, steps, todo = random.Random(seed), [], set(WEB[path])
        while todo and len(steps) < MAX_ACTIONS:
            assert session.run_bots().ok
            if session.table.stopped or session.table.over:
                break
            view = session.table.view(0)
            bad = [(a, reason_for(rs, view, a)) for k, a in illegal_actions(rs, view).items() if k in todo]
            todo -= set(illegal_actions(rs, view))
            action = rng.choice(view.legal)
            steps.append((f"{view.deal_number}:{view.ply}", bad, action))
            assert session.act(0, action).ok
        session.close()
        if not todo:
            return rs, seed, steps
    pytest.fail(f"{path}: no seed of {list(SEEDS)} lets seat 0 meet {sorted(WEB[path])} illegal")


@pytest.fixture(scope="module")
def base():
    where = tempfile.mkdtemp(dir="/dev/shm") if os.path.isdir("/dev/shm") else tempfile.mkdtemp()
    try:
        with running_server(os.path.join(where, "web.sqlite3"), tables_per_address=10, max_tables=10) as url:
            yield url
    finally:
        shutil.rmtree(where, ignore_errors=True)


def _state_at(ws, ply: str) -> dict:
    """The seat's state once the table asks it for the decision ``ply``."""
    while True:
        msg = ws.receive_json()
        assert msg["type"] == "state", msg
        v = msg["view"]
        if v and msg["to_move"] == 0 and not msg["paused"] and f"{v['deal_number']}:{v['ply']}" == ply:
            return v


@pytest.mark.parametrize("path", sorted(WEB))
def test_each_kind_illegal_in_the_browser_protocol_is_refused_with_its_reason(base, monkeypatch, path):
    import kierki_dsl.web.rooms as rooms

    rs, seed, steps = plan(path)
    monkeypatch.setattr(rooms, "new_seed", lambda: seed)
    client = Client(base)
    try:
        table = create_table(client, ["human"] + ["random"] * (rs.players - 1), ruleset=path)
        table_id, token = table["links"]["0"].split("/t/", 1)[1].split("#", 1)
        ws = client.websocket_connect(f"/ws/{table_id}")
        send(ws, {"type": "hello", "token": token})
        refused = 0
        for ply, bad, action in steps:
            v = _state_at(ws, ply)
            deal, at = v["deal_number"], v["ply"]
            for wrong, reason in bad:
                send(ws, {"type": "act", "action": wrong, "deal": deal, "ply": at})
                reply = ws.receive_json()
                while reply["type"] == "state":  # a fresh state may come first; the table has not moved
                    assert f"{reply['view']['deal_number']}:{reply['view']['ply']}" == ply, reply
                    reply = ws.receive_json()
                assert reply == {"type": "error", "code": "illegal", "message": reason, "action": wrong}, (path, ply)
                refused += 1
            send(ws, {"type": "act", "action": action, "deal": deal, "ply": at})  # accepted: the next state comes
        assert refused >= len(WEB[path])
        while True:  # the last action accepted too: the table moves on (an error reply would come instead)
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
            if msg["view"] is None or f"{msg['view']['deal_number']}:{msg['view']['ply']}" != ply:
                break
        ws.close()
    finally:
        client.close()
