"""The web table in a real browser: Debian's Chromium driven by Playwright (never ``playwright install``).

Two people in two separate browser contexts and two bots play a whole match of three deals, one
of each deal type (trick, trump call, loteryjka), by clicking; a reload reconnects to the seat;
an illegal click shows the rule; the keyboard plays a card; the finished match's record
downloads and replays. A screenshot of the table mid-deal goes to ``test-artifacts/``.
"""
from __future__ import annotations

import contextlib
import os
import re

import pytest

import browser_support
from browser_support import create, next_deal
from web_support import running_server

from kierki_dsl.record import replay
from kierki_dsl.ruleset.model import Ruleset

browser = browser_support.browser  # the fixture: one Chromium per module
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "web")
#: a real browser: `pytest -m slow`
pytestmark = pytest.mark.slow
ARTIFACTS = os.environ.get("KIERKI_TEST_ARTIFACTS", os.path.join(ROOT, "test-artifacts"))


@pytest.fixture
def base(tmp_path):
    with running_server(str(tmp_path / "web.sqlite3"), rulesets=(DATA,), rate=50.0, burst=100.0) as url:
        yield url


_create = create


def _turn(page) -> bool:
    return page.evaluate("document.body.dataset.turn") == "true"


def _turns(pages, rounds: int = 600):
    """(index, page) each time a page's seat is on turn, until every page shows the match's end; a
    finished deal's end (its last trick, its points) is read as a person would, then "Next deal" pressed."""
    for _ in range(rounds):
        if all(p.locator("#match-link").count() for p in pages):
            return
        for i, page in enumerate(pages):
            next_deal(page)
            if _turn(page):
                yield i, page
        pages[0].wait_for_timeout(30)


def _open(pages, links: dict, seats) -> None:
    """Open each seat's invitation link in its page."""
    for page, seat in zip(pages, seats):
        page.set_default_timeout(15000)
        page.goto(links[seat])


def _act(page, use_keyboard: bool = False) -> str:
    """Take one action on a page whose turn it is, by clicking (or with the keyboard); what was done."""
    before = page.evaluate("document.body.dataset.ply")
    controls = page.locator("#controls button")
    if controls.count():
        label = controls.first.get_attribute("data-action")
        controls.first.click()
    elif use_keyboard:
        page.locator("#hand button.legal").first.focus()
        page.keyboard.press("ArrowRight")
        label = "key:" + page.evaluate("document.activeElement.dataset.card")
        page.keyboard.press("Enter")
    else:
        card = page.locator("#hand button.legal").first
        label = card.get_attribute("data-card")
        card.click()
    page.wait_for_function(f"document.body.dataset.ply !== {before!r}")
    return label


def test_two_people_and_two_bots_play_every_deal_type_by_clicking(browser, base, tmp_path):
    os.makedirs(ARTIFACTS, exist_ok=True)
    creator = browser.new_context(bypass_csp=True)
    links = _create(creator.new_page(), base, "web/three_deals.yaml", ["human", "heuristic", "human", "random"])
    assert set(links) == {0, 2}
    contexts = [browser.new_context(accept_downloads=True, bypass_csp=True), browser.new_context(bypass_csp=True)]
    pages = [contexts[0].new_page(), contexts[1].new_page()]
    _open(pages, links, (0, 2))
    done: list = []
    seen = {"contracts": set(), "phases": set()}
    shot = reloaded = illegal = keyboard = False
    for i, page in _turns(pages):
        seen["contracts"].add(page.locator("#contract-name").inner_text())
        seen["phases"].add(page.locator("#status").inner_text())
        if not shot and page.locator("#last-trick").count():
            page.screenshot(path=os.path.join(ARTIFACTS, "table-mid-deal.png"), full_page=True)
            shot = True
        if not illegal and page.locator("#trick .played").count() and page.locator("#hand button:not(.legal)").count():
            page.locator("#hand button:not(.legal)").first.click()
            page.wait_for_function("document.getElementById('message').textContent.length > 0")
            reason = page.locator("#message").inner_text()
            assert re.search(r"suit|must|may not", reason), reason
            illegal = True
        if not reloaded and i == 0 and page.locator("#last-trick").count():
            hand = page.locator("#hand button").count()
            page.reload()
            page.wait_for_function("document.body.dataset.turn === 'true'")
            assert page.locator("#hand button").count() == hand
            assert "Your turn" in page.locator("#status").inner_text()
            reloaded = True
        done.append(_act(page, use_keyboard=not keyboard and i == 1 and "Bez" in seen_name(page)))
        keyboard = keyboard or done[-1].startswith("key:")
    assert all(p.locator("#match-link").count() for p in pages), "the match did not end"
    assert shot and reloaded and illegal and keyboard
    assert any(a.startswith("call:") for a in done), "nobody called trumps through the page"
    assert any(a == "pass" for a in done) or any("Loteryjka" in c for c in seen["contracts"])
    assert {"Bez kierów — No hearts", "Rozgrywka atutowa — Trumps, called by the dealer", "Loteryjka — Lottery, Fan Tan"} <= seen["contracts"]
    sheet = pages[1].locator("#sheet-table tr").count()
    assert sheet == 3 + 2  # header, three deals, totals
    # play-test 5: the standings read "1. 1. E 1140" (the list's own number and the place again)
    places = pages[1].locator("#standings li")
    assert places.count() == 4 and not places.first.inner_text()[0].isdigit(), places.first.inner_text()

    page = pages[0]
    page.click("#match-link")
    page.wait_for_selector("#sheet table")
    page.click("#next")
    assert "step 1" in page.locator("#step").inner_text()
    page.select_option("#deal", "2")
    # play-test 5: the match page named the deals by their keys ("atu", "loteryjka"), unlike the table's sheet
    assert page.locator("#deal option:checked").inner_text() == "3: Loteryjka"
    assert "Bez kierów" in page.locator("#sheet table").inner_text()
    with page.expect_download() as got:
        page.click("#record")
    path = str(tmp_path / "record.json")
    got.value.save_as(path)
    import json

    record = json.load(open(path, encoding="utf-8"))
    report = replay(Ruleset.load(os.path.join(DATA, "three_deals.yaml")), record)
    assert report.ok and len(record["deals"]) == 3
    for c in contexts + [creator]:
        c.close()


def seen_name(page) -> str:
    return page.locator("#contract-name").inner_text()


def test_the_front_page_lints_an_upload_and_lists_explain_text(browser, base, tmp_path):
    page = browser.new_page()
    try:
        page.goto(base + "/")
        page.wait_for_selector(".ruleset")
        page.locator('.ruleset[data-id="kierki_standard.yaml"] summary').click()
        assert "Loteryjka" in page.locator('.ruleset[data-id="kierki_standard.yaml"] pre').inner_text()
        bad = tmp_path / "broken.yaml"
        bad.write_text("kierki: 1\nname: x\nplayers: nine\n", encoding="utf-8")
        page.set_input_files("#upload", str(bad))
        page.wait_for_selector("#findings pre")
        text = page.locator("#findings pre").inner_text()
        assert "broken.yaml:3:10: error:" in text and "players: nine" in text
        assert page.locator("#create").is_disabled()
    finally:
        page.close()


def test_contract_choice_and_doubling_have_their_controls(browser, base):
    """Barbu declared by the person at N; the person at E, first after the declarer, always bets.

    N chooses the contract with buttons; E is asked every deal whether to double (the bots may or
    may not double N, so only E's turn is certain)."""
    context = browser.new_context(bypass_csp=True)
    try:
        links = _create(context.new_page(), base, "web/barbu_two_deals.yaml", ["human", "human", "random", "heuristic"])
        pages = [context.new_page(), context.new_page()]
        _open(pages, links, (0, 1))
        done: list = [[], []]
        for i, page in _turns(pages):
            if i == 0 and not done[0]:
                buttons = page.locator("#controls button").all()
                options = [b.get_attribute("data-action") for b in buttons]
                texts = " ".join(b.inner_text() for b in buttons)
                assert all(o.startswith("choose:") for o in options) and "No tricks" in texts, (options, texts)
                assert "no_tricks" not in texts, "a contract on offer is shown by its title, not its key"
                assert "choose the contract" in page.locator("#status").inner_text()
            if i == 1 and not done[1]:
                options = [b.get_attribute("data-action") for b in page.locator("#controls button").all()]
                assert "done" in options and any(o.startswith("double:") for o in options), options
                title = page.locator("#contract-name").inner_text()
                assert "_" not in title and " — " not in title, f"Barbu's contract by its name, not its key: {title}"
            done[i].append(_act(page))
        assert all(p.locator("#match-link").count() for p in pages), "the match did not end"
        assert done[0][0].startswith("choose:"), done[0]
        assert done[1][0] == "done" or done[1][0].startswith("double:"), done[1]
        assert pages[0].locator("#sheet-table tr").count() == 2 + 2
    finally:
        context.close()


def test_the_creator_revokes_a_link_from_the_manage_page(browser, base):
    context = browser.new_context(bypass_csp=True)
    player = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        links = _create(page, base, "kierki_standard.yaml", ["human", "random", "random", "random"])
        admin = page.locator("#admin-link").get_attribute("href")
        seat = player.new_page()
        seat.set_default_timeout(15000)
        seat.goto(links[0])
        seat.wait_for_selector("#hand button")
        page.goto(admin)
        page.wait_for_selector("button[data-seat='0']")
        assert "connected" in page.locator("#seats").inner_text()
        page.click("button[data-seat='0']")
        new = page.locator("a.new-link").get_attribute("href")
        seat.wait_for_function("document.getElementById('banner').textContent.includes('revoked')")
        assert "Your turn" not in seat.locator("#status").inner_text()
        assert seat.locator("#hand button:not([disabled])").count() == 0, "a revoked page's hand is disabled"
        seat.reload()  # the old link no longer opens the seat
        seat.wait_for_function("document.getElementById('message').textContent.includes('revoked')")
        seat.goto(new)
        seat.wait_for_selector("#hand button")
        assert "you are N" in seat.locator("#title").inner_text()
    finally:
        context.close()
        player.close()


def _panel_text(page) -> str:
    return " ".join(page.locator(".panel").all_inner_texts())


def _send_refused(page, action: int) -> str:
    """Send an action the page offers no button for (as a script could); the reason the page shows."""
    page.evaluate("document.getElementById('message').textContent = ''")
    page.evaluate(f"send({action})")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    return page.locator("#message").inner_text()


def test_a_person_bids_in_tysiac_and_sees_the_auction_and_the_widow(browser, base):
    """Three people at Tysiąc: a bid is clicked and accepted (the standing bid and bidder shown), an
    off-grid bid sent is refused with the rule, and the widow is shown once taken."""
    from kierki_dsl.interpreter.actions import bid

    context = browser.new_context(bypass_csp=True)
    try:
        os.makedirs(ARTIFACTS, exist_ok=True)
        links = _create(context.new_page(), base, "games/tysiac.yaml", ["human", "human", "human"])
        pages = [context.new_page() for _ in range(3)]
        _open(pages, links, (0, 1, 2))
        bids: list = []
        refused = widow = None
        for _, page in _turns(pages, rounds=400):
            buttons = page.locator("#controls button")
            labels = [b.inner_text().split(". ", 1)[1] for b in buttons.all()]
            if "bid" in page.locator("#status").inner_text() and any(x.isdigit() for x in labels):
                if refused is None:
                    refused = _send_refused(page, bid(105))
                value = next(x for x in labels if x.isdigit())
                before = page.evaluate("document.body.dataset.ply")
                page.locator(f'#controls button[data-action="bid:{value}"]').click()
                page.wait_for_function(f"document.body.dataset.ply !== {before!r}")
                bids.append(value)
                assert f"Highest bid: {value} by" in _panel_text(page), _panel_text(page)
                assert "Auction so far:" in _panel_text(page)
                continue
            if "Widow:" in _panel_text(page):
                widow = _panel_text(page)
                page.screenshot(path=os.path.join(ARTIFACTS, "table-tysiac-widow.png"), full_page=True)
                break
            _act(page)
        assert bids and refused and widow, (bids, refused, widow)
        assert "steps of 10" in refused, refused
        assert "(taken by" in widow and re.search(r"Widow: \S+ \S+ \S+", widow), widow
    finally:
        context.close()


def test_a_person_exposes_a_card_in_trix(browser, base):
    """Four people at Trix; the dealer chooses Damy (queens) by its title; a queen holder exposes a
    queen by its button (accepted, shown to the table), and a card that may not be exposed is
    refused with the rule."""
    from kierki_dsl.interpreter.actions import expose

    context = browser.new_context(bypass_csp=True)
    try:
        links = _create(context.new_page(), base, "games/trix.yaml", ["human"] * 4)
        pages = [context.new_page() for _ in range(4)]
        _open(pages, links, (0, 1, 2, 3))
        chosen = exposed = refused = None
        for _, page in _turns(pages, rounds=400):
            status = page.locator("#status").inner_text()
            if "choose the contract" in status and chosen is None:
                damy = page.locator("#controls button", has_text="Damy")
                assert damy.count() == 1 and damy.get_attribute("data-action").startswith("choose:")
                chosen = damy.inner_text()
                before = page.evaluate("document.body.dataset.ply")
                damy.click()
                page.wait_for_function(f"document.body.dataset.ply !== {before!r}")
                continue
            expose_buttons = page.locator("#controls button", has_text="expose")
            if "expose" in status and expose_buttons.count():
                hand = page.evaluate("cardsOf(state.view.hand)")
                not_queen = next(c for c in hand if c % 13 != 10)
                refused = _send_refused(page, expose(not_queen))
                shown = expose_buttons.first.inner_text().split("expose ", 1)[1]
                before = page.evaluate("document.body.dataset.ply")
                expose_buttons.first.click()
                page.wait_for_function(f"document.body.dataset.ply !== {before!r}")
                exposed = shown
                assert f"Exposed so far: {'NESW'[_seat_of(page)]} {shown}" in _panel_text(page), _panel_text(page)
                break
            _act(page)
        assert chosen and exposed and refused, (chosen, exposed, refused)
        assert "may be exposed" in refused, refused
    finally:
        context.close()


def _seat_of(page) -> int:
    return page.evaluate("state.seat")


# -- a dead page is unmistakable (issue 22, item 3) ---------------------------------------------------
def _banner(page) -> str:
    return page.locator("#banner").inner_text() if page.locator("#banner").is_visible() else ""


def _hand_disabled(page) -> bool:
    return page.locator("#hand button").count() > 0 and page.locator("#hand button:not([disabled])").count() == 0


def test_a_seat_opened_in_another_tab_and_a_server_gone_leave_no_page_looking_alive(browser, tmp_path):
    """The old tab of a seat opened elsewhere says so, offers to play there again and is disabled; when
    the server goes away the page says the connection is lost, disables the hand and refuses a click
    with a message."""
    context = browser.new_context(bypass_csp=True)
    with contextlib.ExitStack() as outer, contextlib.ExitStack() as stack:
        outer.callback(context.close)
        base = stack.enter_context(running_server(str(tmp_path / "web.sqlite3")))
        links = _create(context.new_page(), base, "kierki_standard.yaml", ["human", "random", "random", "random"])
        old, new = context.new_page(), context.new_page()
        _open([old], links, (0,))
        old.wait_for_selector("#hand button")
        _open([new], links, (0,))
        new.wait_for_selector("#hand button")
        old.wait_for_function("document.getElementById('banner').textContent.includes('another tab')")
        assert _hand_disabled(old) and not old.locator("#controls button").count()
        assert "Your turn" not in old.locator("#status").inner_text() and old.evaluate("document.body.dataset.turn") == "false"
        assert old.get_by_role("button", name="Play here instead").count() == 1
        old.close()
        stack.close()  # the server stops: the page still open must say so
        new.wait_for_function(
            "document.getElementById('banner').textContent.includes('connection to the server is lost')", timeout=30000)
        assert _hand_disabled(new) and "Not connected" in new.locator("#status").inner_text()
        new.evaluate("send(cardsOf(state.view.hand)[0])")  # a click that could still reach the page's code
        assert new.locator("#message").inner_text().startswith("Not played:")


def test_a_click_the_database_refused_is_told_and_can_be_played_again(browser, base, monkeypatch):
    """The database fails on the person's action: the page says it was not played, reconnects by
    itself, keeps saying so after the table is back, and the same decision is then played."""
    from kierki_dsl.web.storage import Storage, StorageError

    armed = []
    real = Storage.add_action

    def failing(self, table_id, n, deal, seat, action):
        if armed and seat == 0:
            armed.clear()
            raise StorageError("write failed (the test's database restart)")
        return real(self, table_id, n, deal, seat, action)

    monkeypatch.setattr(Storage, "add_action", failing)
    context = browser.new_context(bypass_csp=True)
    try:
        links = _create(context.new_page(), base, "kierki_standard.yaml", ["human", "random", "random", "random"])
        page = context.new_page()
        _open([page], links, (0,))
        page.wait_for_function("document.body.dataset.turn === 'true'")
        before = page.evaluate("document.body.dataset.ply")
        # the server tells "not played", then closes the socket (1011): the page goes down and comes
        # back; counted as it happens, so that the wait below is not met by the state before the close
        page.evaluate("window.downs = 0; new MutationObserver(() => { if (document.body.dataset.down === 'true')"
                      " window.downs++; }).observe(document.body, {attributes: true, attributeFilter: ['data-down']})")
        armed.append(True)
        page.locator("#hand button.legal").first.click()
        page.wait_for_function("document.getElementById('message').textContent.includes('not played')")
        page.wait_for_function(
            "window.downs > 0 && document.body.dataset.turn === 'true' && document.body.dataset.down === 'false'")
        assert page.evaluate("document.body.dataset.ply") == before, "the refused click changed nothing"
        assert "not played" in page.locator("#message").inner_text(), "the refusal is still told once the table is back"
        assert not _banner(page)
        page.locator("#hand button.legal").first.click()
        page.wait_for_function(f"document.body.dataset.ply !== {before!r}")
        assert not page.locator("#message").inner_text()
    finally:
        context.close()
