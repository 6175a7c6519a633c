"""Every decision kind of every shipped ruleset, taken by a person in the browser (issue 21, item 6).

For each shipped ruleset, a table with a person at seat 0 and random bots elsewhere, from a seed
chosen so that seat 0 meets each decision kind the ruleset has (a bid, an exposure, a double, a
pass of cards, a trump call, a contract choice, Barbu's rank naming, Tysiąc's raise after the
musik, a card, a layout pass): the person clicks each kind at least once, by the button's visible
label (a card by its face), and it is accepted; where an illegal choice can be clicked (a card of
the hand the rules refuse now), it is clicked first and refused with the rule's reason shown.

The plan (which seed, which decisions) is worked out here from the same session layer the server
runs (the same seeded bots), and the page is then played as a person; a page that shows another
decision than the plan's fails. ``pytest -m slow`` sweeps every shipped ruleset; the default run
plays one quick representative (Hearts: a pass of cards and cards, its pass panel and the
winning-card marker).
"""
from __future__ import annotations

import glob
import os
import random
import re
import shutil
import tempfile
from urllib.parse import urljoin

import attrs
import pytest

import browser_support
from browser_support import next_deal
from web_support import Client, create_table, running_server, send

from kierki_dsl import phases
from kierki_dsl.cards import card_pretty
from kierki_dsl.interpreter.actions import CHOOSE_BASE, action_str
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.table import Session
from kierki_dsl.table.session import needs

browser = browser_support.browser  # the fixture: one Chromium per module
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESETS = os.path.join(ROOT, "rulesets")
SHIPPED = sorted(os.path.relpath(p, RULESETS) for p in glob.glob(os.path.join(RULESETS, "**", "*.yaml"), recursive=True))
#: answers that decline rather than decide (a bet not made, a redouble that needs a double first, an
#: auction's seller, a pass in an auction): taken when they come, not required
OPTIONAL = {"done", "redouble", "accept", "refuse", "decline"}
PASSIVE = OPTIONAL | {"pass"}
SEEDS = range(1, 13)
MAX_ACTIONS = 1500
REFUSAL_SEARCH = 40


def kind(view, action: int) -> tuple:
    """A decision kind: the phase deciding and the family of the action (``card``, ``bid``, ``call``...)."""
    family = "card" if action < 52 else action_str(action).split(":")[0]
    return phases.phase_of(view).name, family


def required(rs, seeds=range(2), limit: int = 2500) -> set:
    """The decision kinds the ruleset has: those offered to any seat in seeded random matches (their
    first ``limit`` actions each: a long match repeats its deals)."""
    kinds: set = set()
    for seed in seeds:
        m, rng = Match(rs, seed), random.Random(seed)
        for _ in range(limit):
            if m.over:
                break
            view = m.view(m.to_move())
            kinds |= {kind(view, a) for a in view.legal}
            m.apply(rng.choice(view.legal))
    return {k for k in kinds if k[1] not in OPTIONAL and k != ("auction", "pass")}


@attrs.define
class Step:
    """One decision of the person: the page shows ``ply`` (``deal:ply``); ``illegal`` a card to click
    first and the reason it is refused with; then ``action`` by its ``label``."""

    ply: str
    action: int
    label: str
    card: bool  # played from the hand (by its face) rather than a button
    kind: tuple
    illegal: tuple = None


def _opening(rs, name: str) -> str:
    """The phase a contract opens with (a declarer's choice leads to it)."""
    contract = rs.contracts.get(name)
    return needs(rs, [contract]).decisions[0][1] if contract is not None else ""


def _choose(view, rs, todo: set) -> int:
    """The person's choice: a needed kind first; a contract on offer that opens with a needed phase;
    else an active answer (a bid, a double) over a passive one, so that later phases come."""
    legal = list(view.legal)
    for a in legal:
        if kind(view, a) in todo:
            if kind(view, a)[1] == "choose":
                return _choose_contract(view, rs, legal, {p for p, _ in todo}) or a
            return a
    active = [a for a in legal if action_str(a).split(":")[0] not in PASSIVE]
    return (active or legal)[0]


def _choose_contract(view, rs, legal, wanted):
    """The option whose contract opens with a wanted phase, or None."""
    for a in legal:
        name = _option_name(view, a)
        if name is not None and _opening(rs, name) in wanted:
            return a
    return None


def _option_name(view, action: int):
    i = action - CHOOSE_BASE
    return view.options[i] if 0 <= i < len(view.options) else None


def plan(path: str, seeds=SEEDS):
    """(seed, steps, kinds): the first seed where the person at seat 0 meets every required kind, and
    the person's decisions up to the last kind taken."""
    rs = Ruleset.load(os.path.join(RULESETS, path))
    kinds = required(rs)
    best = None
    for seed in seeds:
        steps, todo = _plan_seed(rs, seed, set(kinds))
        if not todo:
            return rs, seed, steps, kinds
        if best is None or len(todo) < len(best[1]):
            best = (seed, todo)
    pytest.fail(f"{path}: no seed of {list(seeds)} lets seat 0 take {sorted(best[1])}")


def _plan_seed(rs, seed: int, todo: set) -> tuple:
    session = Session(rs, seed, [None] + [make_player("random") for _ in range(rs.players - 1)])
    table = session.table
    table.sit(0, lambda event: None)
    steps: list = []
    refused: set = set()
    taken: set = set()
    # after the last kind, up to REFUSAL_SEARCH more decisions of the same deal look for a refusable
    # decision of each kind taken (a card the rules refuse now)
    extra, deal = REFUSAL_SEARCH, None
    while (todo or (extra > 0 and taken - refused)) and len(steps) < MAX_ACTIONS:
        extra -= 0 if todo else 1
        assert session.run_bots().ok
        if table.stopped:
            break
        view = table.view(0)
        deal = deal if todo or deal is not None else view.deal_number
        if not todo and view.deal_number != deal:
            break
        action = _choose(view, rs, todo)
        k = kind(view, action)
        step = Step(f"{view.deal_number}:{view.ply}", action, phases.label(view, action, rs),
                    action < 52 and bool(view.hand >> action & 1), k)
        if k not in refused:
            wrong = next((c for c in range(52) if view.hand >> c & 1 and c not in view.legal), None)
            if wrong is not None:
                reason = illegal_reason(view, wrong, rs.contracts.get(view.contract), lambda a, view=view: phases.label(view, a, rs))
                step.illegal = (wrong, reason or "not allowed now")
                refused.add(k)
        steps.append(step)
        todo.discard(k)
        taken.add(k)
        assert session.act(0, action).ok
    return steps, todo


def _hand_card(page, card: int):
    return page.locator("#hand button").filter(has_text=re.compile("^" + re.escape(card_pretty(card)) + "$"))


def _wait_for(page, ply: str) -> None:
    """Until the page offers the person the decision ``ply``, pressing "Next deal" as a person would."""
    while True:
        page.wait_for_function(
            "document.getElementById('next-deal') !== null || "
            f"(document.body.dataset.turn === 'true' && document.body.dataset.ply === {ply!r})")
        if not next_deal(page):
            return


class Program:
    """The seat played by a program over the page's own WebSocket protocol, between the person's clicks:
    the decisions of a kind already clicked (a match's other cards) go fast. Opening the seat here
    takes it from the page (which then says it was opened elsewhere), and back."""

    def __init__(self, base: str, link: str):
        table_id, token = link.split("/t/", 1)[1].split("#", 1)
        self.client = Client(base)
        self.ws = self.client.websocket_connect(f"/ws/{table_id}")
        send(self.ws, {"type": "hello", "token": token})

    def act(self, step: Step) -> None:
        while True:
            msg = self.ws.receive_json()
            assert msg["type"] == "state", msg
            v = msg["view"]
            if v and msg["to_move"] == 0 and not msg["paused"] and f"{v['deal_number']}:{v['ply']}" == step.ply:
                send(self.ws, {"type": "act", "action": step.action, "deal": v["deal_number"], "ply": v["ply"]})
                return

    def close(self) -> None:
        self.ws.close()
        self.client.close()


def _click(page, path: str, step: Step) -> None:
    """The person's decision: an illegal card first where the plan has one (refused, its reason shown),
    then the planned action by its face or its button's label."""
    _wait_for(page, step.ply)
    if page.locator("#trick .played").count():
        assert page.locator("#trick .played.winning").count() == 1, "the card winning the trick is marked"
    if step.illegal is not None:
        card, reason = step.illegal
        _hand_card(page, card).click()
        page.wait_for_function("document.getElementById('message').textContent.length > 0")
        assert page.locator("#message").inner_text() == reason, (path, step)
        assert page.evaluate("document.body.dataset.ply") == step.ply, "a refused click changes nothing"
    if step.card:
        _hand_card(page, step.action).click()
    else:
        page.locator("#controls button").filter(has_text=re.compile(r"^\d+\. " + re.escape(step.label) + "$")).click()
    page.wait_for_function(f"document.body.dataset.ply !== {step.ply!r}")


def play_as_a_person(browser, base: str, path: str, monkeypatch, every_step: bool = False, watch=None) -> tuple:
    """Play the plan of ``path``: each kind's first decision and each refusal clicked in the browser
    (every decision with ``every_step``), the rest by a program at the seat. (kinds clicked, kinds
    refused with their reason, the page, its context)."""
    import kierki_dsl.web.rooms as rooms

    rs, seed, steps, kinds = plan(path)
    monkeypatch.setattr(rooms, "new_seed", lambda: seed)
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    client = Client(base)
    table = create_table(client, ["human"] + ["random"] * (rs.players - 1), ruleset=path)
    client.close()
    links = {int(s): urljoin(base, link) for s, link in table["links"].items()}
    clicked, refused = set(), set()
    program, opened = None, False
    try:
        for step in steps:
            if every_step or step.illegal is not None or step.kind not in clicked:
                if program is not None:  # the page takes the seat back
                    program.close()
                    program = None
                    page.reload()
                elif not opened:
                    page.goto(links[0])
                    opened = True
                _click(page, path, step)
                if watch is not None:
                    watch(page, step)
                clicked.add(step.kind)
                refused |= {step.kind} if step.illegal is not None else set()
            else:
                program = program or Program(base, links[0])
                program.act(step)
    finally:
        if program is not None:
            program.close()
    assert kinds <= clicked, (path, sorted(kinds - clicked))
    return clicked, refused, page, context


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """One server for the module (its start reads every shipped ruleset), storing in memory-backed files
    where the machine has them (the sweep makes thousands of commits; their durability is tested
    elsewhere), with room for one live table per shipped ruleset from this one address."""
    where = tempfile.mkdtemp(dir="/dev/shm") if os.path.isdir("/dev/shm") else str(tmp_path_factory.mktemp("web"))
    try:
        with running_server(os.path.join(where, "web.sqlite3"), rate=100.0, burst=200.0,
                            tables_per_address=len(SHIPPED) + 2, max_tables=len(SHIPPED) + 2) as url:
            yield url
    finally:
        shutil.rmtree(where, ignore_errors=True)


def test_a_person_passes_cards_and_plays_in_hearts(browser, base, monkeypatch):
    """The default run's representative: Hearts' pass of cards and a card, each refused first where a
    card can be refused; after the pass the page says what went to whom and what came from whom."""
    panels: list = []

    def watch(page, step):
        if step.kind == ("play", "card") and not page.locator("#deal-end").count():
            panels.append(" ".join(page.locator(".panel").all_inner_texts()))

    taken, refused, page, context = play_as_a_person(browser, base, "games/hearts.yaml", monkeypatch, watch=watch)
    try:
        assert {("pass", "card"), ("play", "card")} <= taken and ("play", "card") in refused
        assert panels and all(re.search(r"You passed 3 cards to \w: .+; you received 3 cards from \w: ", p) for p in panels), panels
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED)
def test_every_decision_kind_of_every_shipped_ruleset_in_the_browser(browser, base, monkeypatch, path):
    _, _, _, context = play_as_a_person(browser, base, path, monkeypatch)
    context.close()
