"""Kierki in Polish (issue 22, item 5): one message catalogue (``kierki_dsl/i18n/pl.po``, compiled
to the ``.mo`` the package ships), chosen by ``--lang``/``KIERKI_LANG`` at the terminal and in
``kierki explain``, and by the browser's ``Accept-Language`` (or the page's switch) at a web table."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys

import pytest

from kierki_dsl import i18n
from kierki_dsl.cards import card_pretty, read_card
from kierki_dsl.explain import explain
from kierki_dsl.interpreter.match import Match
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.ruleset.model import Ruleset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STANDARD = os.path.join(ROOT, "rulesets", "kierki_standard.yaml")
KIERKI = "/work/venv/bin/kierki" if os.path.exists("/work/venv/bin/kierki") else "kierki"
sys.path.insert(0, os.path.join(ROOT, "tools"))

#: English words that a Polish text has no reason to hold (outside a ruleset's names and seat letters).
ENGLISH = re.compile(r"\b(the|deal|deals|trick|tricks|cards?|your|hand|points|player|trumps|scoring|each|taken)\b")


def _kierki(*args, env=None, input_text=""):
    return subprocess.run(
        [KIERKI, *args], input=input_text, capture_output=True, text=True, timeout=300,
        env=dict(os.environ, **(env or {})),
    )


# -- the catalogue --------------------------------------------------------------------------------
def test_every_message_id_of_the_code_has_polish_words():
    catalogue = pytest.importorskip("i18n")  # tools/i18n.py (needs babel, in the [test] extra)
    missing = catalogue.missing(catalogue.extracted(), catalogue.polish())
    assert not missing, f"no Polish words for {missing[:10]} (python tools/i18n.py update, then translate)"


def test_the_compiled_catalogue_in_the_package_is_the_po_compiled():
    catalogue = pytest.importorskip("i18n")
    assert catalogue.MO.read_bytes() == catalogue.compiled(catalogue.polish()), "python tools/i18n.py compile"


def test_the_catalogue_is_package_data_read_by_the_standard_library():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        assert '"kierki_dsl.i18n" = ["*.po", "locale/*/LC_MESSAGES/*.mo"]' in f.read()
    with i18n.using("pl"):
        assert i18n.tr("Your hand ({seat}):") == "Twoje karty ({seat}):"
        assert i18n.trn("{count} card", "{count} cards", 5).format(count=5) == "5 kart"
        assert i18n.trn("{count} card", "{count} cards", 3).format(count=3) == "3 karty"
    assert i18n.tr("Your hand ({seat}):") == "Your hand ({seat}):"


def test_the_language_is_read_from_names_and_headers():
    assert i18n.known("pl_PL.UTF-8") == "pl" and i18n.known("PL") == "pl" and i18n.known("de") is None
    assert i18n.accepted("pl-PL,pl;q=0.9,en;q=0.8") == "pl"
    assert i18n.accepted("en-GB,en;q=0.9,pl;q=0.5") == "en"
    assert i18n.accepted("de-DE, fr;q=0.9") == "en" and i18n.accepted(None) == "en"
    assert i18n.accepted("de;q=1, pl;q=0.3") == "pl"
    with pytest.raises(ValueError, match="no words for the language"):
        i18n.set_language("xx")


def test_polish_cards_are_written_with_polish_letters():
    with i18n.using("pl"):
        assert [card_pretty(read_card(c)) for c in ("QS", "JC", "KH", "AD")] == ["D♠", "W♣", "K♥", "A♦"]
    assert card_pretty(read_card("QS")) == "Q♠"


# -- the terminal -----------------------------------------------------------------------------------
def test_a_deal_at_the_terminal_in_polish(tmp_path):
    """A whole first deal played by a person typing at Polish prompts (numbers, a Polish card
    letter, 'ostatnia' and 'zasady'); every line the terminal says is Polish."""
    rs = Ruleset.load(STANDARD)
    m = Match(rs, 3)
    out = io.StringIO()
    typed = io.StringIO()
    human = HumanPlayer(stdin=typed, stdout=out, ruleset=rs)
    human.reset(1, 0, rs)
    with i18n.using("pl"):
        while not m.over and m.view(0).deal_number == 1:
            seat = m.to_move()
            view = m.view(seat)
            if seat != 0:
                m.apply(view.legal[0])
                continue
            card = view.legal[-1]
            letter = {9: "W", 10: "D"}.get(card % 13)
            word = f"{letter}{'SHDC'[card // 13]}" if letter else "1"
            typed.seek(0)
            typed.truncate()
            typed.write(f"ostatnia\nzasady\n{word}\n")
            typed.seek(0)
            action = human.act(view)
            assert action == (card if letter else human_first(view, rs)), out.getvalue()[-400:]
            m.apply(action)
    shown = out.getvalue()
    assert "twoja karta>" in shown and "Twoje karty (N):" in shown and "Rozdanie 1 z 12: Bez lew" in shown
    assert "Punkty w rozdaniu:" in shown and "Rozdaje " in shown and "Dozwolone: " in shown
    assert "Lewa 1: " in shown and " — wziął " in shown and "zasady jak wyżej" in shown
    assert "punktacja: każda wzięta lewa: -20" in shown
    for line in shown.splitlines():
        assert not ENGLISH.search(line), line


def human_first(view, rs) -> int:
    """The first card of the legal menu (what '1' picks)."""
    from kierki_dsl import phases

    return phases.phase_of(view).choices(view, rs)[0]


def test_kierki_run_speaks_polish_with_lang_or_kierki_lang():
    for args, env in ((["--lang", "pl"], {}), ([], {"KIERKI_LANG": "pl_PL.UTF-8"})):
        done = _kierki(
            "run", STANDARD, "--seed", "5", "--human", "S", "--players", "random", *args,
            env=env, input_text="1\n" * 700,
        )
        assert done.returncode == 0, done.stderr
        assert "Twoje karty (S):" in done.stdout and "twoja karta>" in done.stdout, done.stdout[:2000]
        assert "Your hand" not in done.stdout
        assert "suma bieżąca" in done.stdout and "Wyniki końcowe:" in done.stdout and "S human (ty)" in done.stdout
    bad = _kierki("run", STANDARD, "--lang", "xx", input_text="")
    assert bad.returncode == 2 and "--lang" in bad.stderr


# -- explain ----------------------------------------------------------------------------------------
def test_explain_of_the_standard_profile_is_polish():
    done = _kierki("explain", STANDARD, "--lang", "pl")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "Mecz to 12 rozdań; pierwszy rozdaje losowany." in text
    assert "Rozdanie 7: Rozbójnik\n" in text and "Rozdania 9–11: znów Rozgrywka atutowa." in text
    assert "  punktacja: król kier w wziętych lewach: -150." in text
    assert "  zakaz wyjścia: nie wolno wychodzić w kiery, dopóki masz inny kolor." in text
    for line in text.splitlines()[2:]:  # the ruleset's name is its own
        assert not ENGLISH.search(line), line
    english = _kierki("explain", STANDARD, env={"KIERKI_LANG": ""}).stdout
    assert "A match is 12 deals" in english and "Rozdanie" not in english


# Play-test 7: a Polish club read "4 graczy, 52 kart" (52 takes "karty", as 2, 3, 4 do).
@pytest.mark.parametrize(
    "ruleset, said",
    [("kierki_standard.yaml", "52 karty;"), ("games/tysiac.yaml", "24 karty;"), ("games/black_maria.yaml", "51 kart;")],
)
def test_explain_says_the_number_of_cards_in_its_polish_form(ruleset, said):
    rs = Ruleset.load(os.path.join(ROOT, "rulesets", ruleset))
    with i18n.using("pl"):
        line = next(x for x in explain(rs).splitlines() if x.startswith(f"{rs.players} graczy, "))
    assert said in line, line


# Play-test 7: `kierki diff --lang pl` (docs/polish.md) said the values in Polish but every field
# in English ("match total: ...", "deal 2, scoring: ...", "(none)"), and "Bez panów → Bez panów".
@pytest.mark.parametrize("variant", ["jacks_only.yaml", "three_players.yaml", "four_series.yaml"])
def test_diff_in_polish_names_its_fields_in_polish(variant):
    done = _kierki("diff", STANDARD, os.path.join(ROOT, "rulesets", "variants", variant), "--lang", "pl")
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        field = line.split(":")[0]
        assert not ENGLISH.search(field) and not re.search(r"\b(match|part|none|players|series)\b", field), line
        assert "(none)" not in line and "(nothing)" not in line, line
        old, _, new = line.partition(": ")[2].partition(" → ")
        assert old != new, line


# Play-test 7: `kierki run --lang pl` ended in Polish but for its warnings ("warning: deal 1: scores
# sum to -234, the ruleset declares -260"); the JSON output keeps them in English for programs.
def test_the_warnings_after_a_match_speak_polish(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        f"kierki: 1\nextends: {STANDARD}\nname: x\ncontracts:\n  bez_lew:\n    score:\n"
        "      - per_trick: -20\n      - per_seat: tricks_taken * 2\n"
    )
    polish = _kierki("run", str(house), "--seed", "2", "--players", "random", "--lang", "pl")
    assert polish.returncode == 0, polish.stderr
    assert "uwaga: rozdanie 1: wyniki sumują się do -234, a zasady deklarują -260" in polish.stderr
    assert "warning" not in polish.stderr and "uwaga" not in polish.stdout  # stdout: the match alone
    english = _kierki("run", str(house), "--seed", "2", "--players", "random", "--format", "json", "--lang", "pl")
    assert "deal 1: scores sum to -234, the ruleset declares -260" in json.loads(english.stdout)["warnings"]


# -- the browser --------------------------------------------------------------------------------------
def test_the_page_in_polish_by_accept_language(tmp_path):
    from web_support import Client, create_table, need_web, running_server, send

    need_web()
    with running_server(str(tmp_path / "web.sqlite3")) as base, contextlib.ExitStack() as stack:
        client = Client(base)
        stack.callback(client.close)
        words = client.get("/api/i18n", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"}).json()
        assert words["lang"] == "pl" and words["messages"]["Your turn: "] == "Twój ruch: "
        assert client.get("/api/i18n?lang=en", headers={"Accept-Language": "pl"}).json() == {
            "lang": "en",
            "messages": {},
        }
        table = create_table(client, ["human", "random", "random", "random"])
        states = {}
        for lang in ("pl", "en"):
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/{table['id']}", headers={"Accept-Language": lang})
            )
            send(ws, {"type": "hello", "token": table["tokens"][0]})
            states[lang] = next(m for m in iter(ws.receive_json, None) if m["type"] == "state" and m["view"])
            ws.close()
        pl, en = states["pl"], states["en"]
        assert pl["task"] == "zagraj kartę" and en["task"] == "play a card"
        assert [k for k, _ in pl["contract"]["rules"]][:3] == ["rozdanie", "gra", "atuty"]
        assert dict(pl["contract"]["rules"])["punktacja"] == "każda wzięta lewa: -20"
        rows = [r["label"] for p in pl["panels"] for r in p["rows"]]
        assert "Lewa" in rows and "Atu" in rows, rows
        assert pl["contract"]["title"] == "Bez lew" and en["contract"]["title"] == "Bez lew — No tricks"
        assert all(a["label"][-1] in "♠♥♦♣" for a in pl["actions"])  # the cards, in Polish letters


@pytest.mark.slow
def test_the_table_page_in_polish_in_a_browser_and_its_switch(tmp_path):
    """Chromium with a Polish locale: the table page reads Polish (its own words and the server's);
    the page's switch turns it to English and is remembered."""
    from web_support import Client, create_table, need_web, running_server

    need_web()
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = os.environ.get("KIERKI_CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(chromium):
        pytest.skip(f"no Chromium at {chromium}")
    with running_server(str(tmp_path / "web.sqlite3")) as base, sync_api.sync_playwright() as p:
        client = Client(base)
        try:
            table = create_table(client, ["human", "random", "random", "random"])
        finally:
            client.close()
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], headless=True)
        try:
            page = browser.new_context(locale="pl-PL", bypass_csp=True).new_page()  # wait_for_function evaluates
            page.set_default_timeout(15000)
            page.goto(f"{base}/t/{table['id']}#{table['tokens'][0]}")
            page.wait_for_function("document.body.dataset.turn === 'true'")
            assert page.locator("#status").inner_text() == "Twój ruch: zagraj kartę."
            assert "Twoje karty" in page.locator("main").inner_text()
            assert "Tabela wyników" in page.locator("main").inner_text()
            # play-test 5: the seats read "N (ty) · human" and "E · random", the kinds left in English
            assert page.locator("#seat-0 .who").inner_text() == "N (ty) · człowiek"
            assert page.locator("#seat-1 .who").inner_text() == "E · bot: losowy"
            assert page.evaluate("document.documentElement.lang") == "pl"
            page.select_option("#lang", "en")
            page.wait_for_function("document.documentElement.lang === 'en' && document.body.dataset.turn === 'true'")
            assert page.locator("#status").inner_text() == "Your turn: play a card."
            page.reload()
            page.wait_for_function("document.body.dataset.turn === 'true'")
            assert page.locator("#status").inner_text() == "Your turn: play a card."
        finally:
            browser.close()


def test_no_message_id_hides_inside_an_f_string():
    """Babel does not read a call inside an f-string's braces: such an id would never reach the catalogue."""
    pattern = re.compile(r"""\{\s*(tr|trn|N_)\(\s*["']""")  # e.g. f"{tr('running total'):<20}"
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "kierki_dsl")):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    found += [f"{name}:{i}" for i, line in enumerate(f, 1) if pattern.search(line)]
    assert not found, found
