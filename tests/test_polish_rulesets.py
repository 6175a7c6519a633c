"""A ruleset's own sentences in Polish (issue 22, item 5): the optional ``words: {pl: {sentence:
its Polish}}`` block, lint-checked (S204 for a language there are no words for, M650 for a
sentence the ruleset does not say), read by ``kierki explain``, the terminal and the web table.
Every shipped Kierki variant has Polish for its own sentences; the golden files stay as they were."""

from __future__ import annotations

import glob
import os
import subprocess
import sys

import pytest
import yaml

from kierki_dsl import i18n
from kierki_dsl.interpreter.match import Match
from kierki_dsl.lint import expand, lint_file
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.ruleset.model import Ruleset, load_ruleset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIERKI = "/work/venv/bin/kierki" if os.path.exists("/work/venv/bin/kierki") else "kierki"
VARIANTS = sorted(glob.glob(os.path.join(ROOT, "rulesets", "variants", "*.yaml")))
sys.path.insert(0, os.path.join(ROOT, "tools"))


def _sentences(path: str) -> list:
    """The sentences a ruleset file and the files it extends write (descriptions, rules' reasons)."""
    catalogue = pytest.importorskip("i18n")  # tools/i18n.py: what a ruleset's sentences are
    out = []
    while path:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
        out += [t for t in catalogue._ruleset_texts({k: v for k, v in data.items() if k != "words"})]
        path = os.path.normpath(os.path.join(os.path.dirname(path), data["extends"])) if "extends" in data else ""
    return out


@pytest.mark.parametrize(
    "path", [os.path.join(ROOT, "rulesets", "kierki_standard.yaml")] + VARIANTS, ids=os.path.basename
)
def test_every_sentence_of_a_shipped_kierki_ruleset_has_polish_words(path):
    rs = Ruleset.load(path)
    with i18n.using("pl", rs.words):
        untranslated = [s for s in _sentences(path) if i18n.tr(s) == s]
    assert not untranslated, untranslated


def test_explain_says_a_variants_own_sentences_in_polish():
    path = os.path.join(ROOT, "rulesets", "variants", "must_ruff.yaml")
    done = subprocess.run([KIERKI, "explain", path, "--lang", "pl"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2].startswith("W rozgrywkach atutowych: przy wyjściu w atu trzeba przebić")
    assert "przy wyjściu w atu musisz przebić najwyższe atu lewy, jeśli możesz" in done.stdout
    assert "you must ruff" not in done.stdout and "EN:" not in done.stdout
    english = subprocess.run([KIERKI, "explain", path, "--lang", "en"], capture_output=True, text=True, timeout=120)
    assert "EN: In the trump deals" in english.stdout and "you must ruff when you cannot follow suit" in english.stdout


def test_the_terminal_refuses_with_the_rulesets_polish_reason():
    """hearts_broken.yaml's own rule, broken at the terminal in Polish, is told in its Polish words."""
    rs = Ruleset.load(os.path.join(ROOT, "rulesets", "variants", "hearts_broken.yaml"))
    reason = "hearts may not be led until a heart has been played"
    for seed in range(40):
        m = Match(rs, seed)
        while not m.over and m.view(0).deal_number <= 2:
            view = m.view(m.to_move())
            hearts = [c for c in range(13, 26) if view.hand >> c & 1 and c not in view.legal]
            if view.deal_number == 2 and hearts:
                human = HumanPlayer(stdin=None, stdout=None, ruleset=rs)
                assert human._reason(view, hearts[0]) == reason  # English: as the rule says
                with i18n.using("pl"):
                    assert human._reason(view, hearts[0]) == reason  # outside act: no ruleset words in force
                    with i18n.using(None, rs.words):
                        assert (
                            human._reason(view, hearts[0]) == "nie wolno wychodzić w kiery, dopóki nie padł żaden kier"
                        )
                return
            m.apply(view.legal[0])
    pytest.fail("no seed gave a seat a heart lead it may not make")


def test_the_web_lists_a_variant_with_its_polish_description():
    pytest.importorskip("starlette")
    from kierki_dsl.web.catalogue import Catalogue

    listed = {e["id"]: e for e in Catalogue().list("pl")}
    assert listed["variants/must_ruff.yaml"]["description"].startswith("W rozgrywkach atutowych: przy wyjściu")
    assert "przy wyjściu w atu musisz przebić" in listed["variants/must_ruff.yaml"]["explain"]
    english = {e["id"]: e for e in Catalogue().list()}
    assert english["variants/must_ruff.yaml"]["description"].startswith("PL: W rozgrywkach")


# -- lint ------------------------------------------------------------------------------------------
def _findings(tmp_path, words: str) -> list:
    path = tmp_path / "v.yaml"
    path.write_text(
        f"kierki: 1\nextends: {os.path.join(ROOT, 'rulesets', 'variants', 'hearts_broken.yaml')}\nname: v\n"
        f"words:\n{words}",
        encoding="utf-8",
    )
    _, diags = load_ruleset(str(path))
    return [(d.code, d.pos.line, d.pos.col, d.severity) for d in diags]


def test_lint_locates_words_for_an_unknown_language_and_an_unknown_sentence(tmp_path):
    found = _findings(tmp_path, "  de:\n    hearts may not be led until a heart has been played: x\n")
    assert ("S204", 5, 3, "error") in found, found
    found = _findings(tmp_path, "  pl:\n    hearts may not be led until a heart was played: nie\n")
    assert ("M650", 6, 5, "warning") in found, found
    spaced = "  pl:\n    ? >-\n      hearts  may not be led\n      until a heart has been played\n    : nie wolno\n"
    assert _findings(tmp_path, spaced) == []  # spaces and line breaks do not count


def test_lint_accepts_every_shipped_ruleset_with_its_words():
    files, _ = expand([os.path.join(ROOT, "rulesets")])
    assert len(files) > 50
    found = [(f, d.code) for f in files for d in lint_file(f) if d.code in ("M650", "S204")]
    assert not found, found


#: An uploaded ruleset with a rule of its own and its Polish words.
UPLOAD = """kierki: 1
name: One deal, no major leads
description: One deal of no tricks in which hearts and spades are never led.
match: {schedule: [bez_lew], first_dealer: 3}
contracts:
  bez_lew:
    pl: Bez lew
    en: No tricks
    total: -260
    score: [{per_trick: -20}]
    restrictions:
      - {phase: lead, forbid: card.suit == hearts or card.suit == spades,
         reason: hearts and spades are never led in this game}
words:
  pl:
    One deal of no tricks in which hearts and spades are never led.: Jedno rozdanie bez lew bez wyjść w kiery i piki.
    hearts and spades are never led in this game: w tej grze nigdy nie wychodzi się w kiery ani w piki
"""


def test_a_web_table_says_an_uploaded_rulesets_own_rule_in_polish(tmp_path):
    """The rule an uploaded ruleset writes, at a web table whose browser asks for Polish: its
    contract's rules and the refusal of a heart or spade lead read the ruleset's own Polish words."""
    from web_support import Client, create_table, need_web, running_server, send

    need_web()
    with running_server(str(tmp_path / "web.sqlite3")) as base:
        client = Client(base)
        try:
            table = create_table(
                client, ["human", "random", "random", "random"], upload={"name": "no_hearts.yaml", "text": UPLOAD}
            )
            with client.websocket_connect(f"/ws/{table['id']}", headers={"Accept-Language": "pl"}) as ws:
                send(ws, {"type": "hello", "token": table["tokens"][0]})
                state = next(m for m in iter(ws.receive_json, None) if m["type"] == "state" and m["view"])
                assert (
                    dict(state["contract"]["rules"])["zasada 1"]
                    == "w tej grze nigdy nie wychodzi się w kiery ani w piki"
                )
                v = state["view"]  # N leads the first trick (the dealer is W); it holds a heart or a spade
                heart = next(c for c in range(26) if v["hand"] >> c & 1 and c not in v["legal"])
                send(ws, {"type": "act", "action": heart, "deal": v["deal_number"], "ply": v["ply"]})
                reply = next(m for m in iter(ws.receive_json, None) if m["type"] == "error")
                assert reply["message"] == "w tej grze nigdy nie wychodzi się w kiery ani w piki", reply
        finally:
            client.close()
