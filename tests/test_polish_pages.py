"""The front page and the finished match's page in Polish (issue 22, item 5): their words go
through the one message catalogue (``t("...")`` in the scripts, ``data-t`` in the pages), the
server words the rulesets' explain text, the steps' labels and its error messages in the page's
language. Loopback servers only; every server and browser is stopped whatever happens."""

from __future__ import annotations

import contextlib
import os
import re
import sys

import pytest

from kierki_dsl import i18n

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC = os.path.join(ROOT, "kierki_dsl", "web", "static")
DATA = os.path.join(ROOT, "tests", "data", "web")
sys.path.insert(0, os.path.join(ROOT, "tools"))

#: A JavaScript string literal (double quotes; the pages' scripts use no other for words).
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
#: Where a literal is shown to a person: an element's text, or glued to shown text with ``+``.
SHOWN = re.compile(r"(\btext:\s*|textContent\s*=\s*|\+\s*)$")

#: Literals with letters a check cannot tell from words, which are not words: a header, a file
#: name, a command line to copy, a CSS class.
NOT_WORDS = {"Bearer ", ".json", "kierki replay kierki-", ".json --ruleset ", "seat pos-"}


def _untranslated_literals(source: str) -> list:
    """The string literals of a page's script a person would read that do not go through ``t()``:
    literals with words (letters and a space), and any literal placed as an element's text or
    glued to text with ``+`` -- unless it holds no letter (``": "``, ``" · "``)."""
    out = []
    source = re.sub(r"(?m)^\s*//.*$", "", source).replace('"use strict";', "")
    for m in LITERAL.finditer(source):
        before = source[: m.start()]
        if re.search(r"\bt\(\s*$", before):
            continue  # a message id
        value = m.group(1)
        if not re.search(r"[A-Za-z]", value) or value in NOT_WORDS:
            continue
        after = source[m.end() :]
        code_like = not re.search(r"\s", value) and not SHOWN.search(before[-20:])
        if code_like or re.match(r"\s*\+\s*encodeURIComponent", after) or value.startswith(("/", "#", "?")):
            continue  # an id, a class, a tag, a URL, a selector
        out.append(value)
    return out


@pytest.mark.parametrize("script", ["index.js", "match.js", "common.js", "admin.js"])
def test_every_word_a_page_script_shows_goes_through_t(script):
    with open(os.path.join(STATIC, script), encoding="utf-8") as f:
        found = _untranslated_literals(f.read())
    assert not found, f"{script}: words shown without t(): {found}"


def test_the_check_of_literals_catches_words_outside_t():
    """The check above is not blind: shown words outside ``t()`` are found, marked ones are not."""
    assert _untranslated_literals('el("th", { text: "deal" })') == ["deal"]
    assert _untranslated_literals('x.textContent = "step " + n') == ["step "]
    assert _untranslated_literals('el("p", {}, "Manage the table: ")') == ["Manage the table: "]
    assert _untranslated_literals('el("th", { text: t("deal") }), el("div", { class: "panel" })') == []
    assert _untranslated_literals('fetch("/api/rulesets?lang=" + encodeURIComponent(lang))') == []


def test_the_pages_words_are_in_the_catalogue_with_polish():
    """Each ``data-t`` element and ``t("...")`` of the front, match and manage pages is a message id with Polish words."""
    catalogue = pytest.importorskip("i18n")  # tools/i18n.py
    ids = {m.id for m in catalogue.extracted() if m.id}
    for page in ("index", "match", "admin"):
        where = {loc for m in catalogue.extracted() for loc, _ in m.locations if f"static/{page}." in loc}
        assert {f"kierki_dsl/web/static/{page}.html", f"kierki_dsl/web/static/{page}.js"} <= where, where
    with i18n.using("pl"):
        for text in (
            "Create the table",
            "1. Choose the rules",
            "the rules (kierki explain)",
            "Step through the deals",
            "step {step} of {steps}",
            "Last trick, taken by {seat}: ",
            "revoke link",
            "manage your table",
        ):
            assert text in ids and i18n.tr(text) != text, text


# -- the server's part: rulesets, errors and a match's steps in the page's language -----------------
def test_the_api_words_rulesets_and_errors_in_the_language_asked_for(tmp_path):
    from web_support import Client, need_web, running_server

    need_web()
    with running_server(str(tmp_path / "web.sqlite3")) as base:
        client = Client(base)
        try:
            polish = {r["id"]: r for r in client.get("/api/rulesets", headers={"Accept-Language": "pl"}).json()}
            english = {
                r["id"]: r for r in client.get("/api/rulesets?lang=en", headers={"Accept-Language": "pl"}).json()
            }
            assert "Mecz to 12 rozdań" in polish["kierki_standard.yaml"]["explain"]
            assert "A match is 12 deals" in english["kierki_standard.yaml"]["explain"]
            assert set(polish) == set(english)
            bad = client.post("/api/tables?lang=pl", json={"ruleset": "kierki_standard.yaml", "seats": ["random"] * 4})
            assert bad.status_code == 400 and bad.json()["error"] == "co najmniej jedno miejsce musi być dla człowieka"
            bad = client.post("/api/tables", json={"ruleset": "nothing.yaml", "seats": []})
            assert bad.json()["error"] == "choose one of the listed rulesets or upload one"
            gone = client.get("/api/matches/nosuch", headers={"Accept-Language": "pl-PL"})
            assert gone.status_code == 404 and gone.json()["error"].startswith("nie ma zakończonego meczu")
            for what in ("admin", "revoke"):
                bad = client.post(f"/api/tables/nosuch/{what}?lang=pl", json={"creator": "guess", "seat": 0})
                assert bad.status_code == 403 and bad.json()["error"] == "nie jesteś twórcą tego stołu"
        finally:
            client.close()


def _finished_match(base: str) -> dict:
    """A short match (web/three_deals.yaml) played to its end by a program at the one human seat."""
    from web_support import Client, Seat, create_table, sit

    client = Client(base)
    with contextlib.ExitStack() as stack:
        stack.callback(client.close)
        table = create_table(client, ["human", "random", "random", "random"], ruleset="web/three_deals.yaml")
        seat = Seat(sit(client, stack, table["id"], table["tokens"][0]), 0)
        seat.start()
        seat.join(120)
        assert seat.last_state() and seat.last_state()["over"], seat.error
    return table


# -- in a browser --------------------------------------------------------------------------------------
#: English words of the pages that Polish has no use for (the rulesets' and seats' names aside).
ENGLISH = re.compile(
    r"\b(the|Choose|rules|upload|Seats|Each|person|Create|table|Finished|matches|none|yet|list|publicly|"
    r"Score|sheet|Download|record|Step|through|deals?|back|forward|Keyboard|step|of|dealer|totals|contract|"
    r"trick|taken|On|pts|seed|random|heuristic|search|loading)\b"
)


def _visible_text(page) -> str:
    """What a person reads on the page: its text, its title and the options of its lists."""
    return "\n".join(
        [page.title(), page.locator("body").inner_text()] + [o.inner_text() for o in page.locator("option").all()]
    )


@pytest.mark.slow
def test_the_front_and_match_pages_in_polish_in_a_browser(tmp_path):
    """Chromium with a Polish locale: the front page (rulesets, seats, the created table's links)
    and a finished match's page read Polish, with none of their English words left; the page's
    switch turns the front page to English."""
    from browser_support import chromium
    from web_support import running_server

    with running_server(str(tmp_path / "web.sqlite3"), rulesets=(DATA,)) as base, chromium() as browser:
        table = _finished_match(base)
        page = browser.new_context(locale="pl-PL").new_page()
        page.set_default_timeout(15000)
        page.goto(base + "/")
        page.wait_for_selector('input[name=ruleset][value="kierki_standard.yaml"]')
        assert page.evaluate("document.documentElement.lang") == "pl"
        page.locator('input[name=ruleset][value="kierki_standard.yaml"]').check()
        page.wait_for_selector("#seat-3")
        front = _visible_text(page)
        for words in (
            "1. Wybierz zasady",
            "2. Miejsca przy stole",
            "Załóż stół",
            "Zakończone mecze",
            "zasady (kierki explain)",
            "człowiek (link)",
            "bot: heurystyczny",
            "kierki — stoły",
        ):
            assert words in front, words
        standard = page.locator('.ruleset[data-id="kierki_standard.yaml"]')
        standard.locator("summary").click()
        assert "Mecz to 12 rozdań" in standard.locator("pre").inner_text()
        page.click("#create")
        page.wait_for_selector("a.seat-link")
        assert "Stół założony." in page.locator("#created").inner_text()
        ours = "\n".join(
            line
            for line in _visible_text(page).splitlines()
            if "http" not in line and not line.startswith(("Kierki", "Barbu", "Hearts"))
        )
        _no_english(ours, page.locator("#rulesets").inner_text())

        admin = page.locator("#admin-link").get_attribute("href")
        page.goto(admin)  # the manage page
        page.wait_for_selector("button[data-seat='0']")
        manage = _visible_text(page)
        for words in (
            "zarządzaj swoim stołem",
            "Unieważnienie linku",
            ": w grze",
            "brak połączenia",
            "unieważnij link",
        ):
            assert words in manage, words
        _no_english(manage, admin.split("/admin/")[1].split("#")[0])  # the table's id aside
        page.click("button[data-seat='0']")
        page.wait_for_selector("a.new-link")
        assert "nowy link: " in page.locator("#seats").inner_text()

        page.goto(f"{base}/m/{table['id']}#{table['tokens'][0]}")
        page.wait_for_selector("#sheet table")
        page.click("#next")
        match = _visible_text(page)
        for words in (
            "Tabela wyników",
            "Przejdź przez rozdania",
            "krok 1 z ",
            "Na stole:",
            "rozdanie",
            "razem",
            "Pobierz zapis",
            "sprawdź go poleceniem",
            "ziarno",
            "człowiek",
            "bot: losowy",
            " pkt",
        ):
            assert words in match, words
        _no_english(
            match, "Kierki — one deal of each type", "kierki-record/1", page.locator("#replay-cmd").inner_text()
        )

        page.goto(base + "/")
        page.select_option("#lang", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_selector(".ruleset")
        assert "1. Choose the rules" in page.locator("main").inner_text()


def _no_english(text: str, *own: str) -> None:
    """No English word of the pages in ``text`` (leaving out the parts named in ``own``: the
    rulesets' names and descriptions, a command line)."""
    for line in sorted({line.strip() for part in own for line in part.splitlines()} - {""}, key=len, reverse=True):
        text = text.replace(line, "")
    for line in text.splitlines():
        assert not ENGLISH.search(line), line
