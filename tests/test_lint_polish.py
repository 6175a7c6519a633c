"""`kierki lint --lang pl`: the findings a Polish-speaking author reads (messages, hints, the words
error/warning/hint/note and the summary line) in Polish; paths, positions and codes as they are; what
a program reads (json, sarif, github, the editor's LSP diagnostics) stays English."""

from __future__ import annotations

import json
import os
import pickle
import re
import string
import sys
from pathlib import Path

import pytest

from kierki_dsl import entry, i18n
from kierki_dsl.codes import CODES
from kierki_dsl.i18n import L_, L_join, finding_said
from kierki_dsl.lint import lint_file, summary

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

BAD = """kierki: 1
name: example
deals: 3
match: {schedule: [bez_lew]}
contracts:
  bez_lew:
    total: -260
    score: [{per_trick: -20}, {per_seat: "tricks_taken * 2 +"}]
"""


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language(None)


def _lint(capsys, *args):
    code = entry.main(["lint", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def _where_and_codes(text: str) -> list:
    """``path:line:col code`` of every headline of a text report."""
    return re.findall(r"^(\S+:\d+:\d+): \S+: ([YSENRMX]\d{3}) ", text, re.M)


def test_lint_lang_pl_says_the_findings_in_polish_at_the_same_places(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    code_en, _, english = _lint(capsys, path)
    code_pl, out, polish = _lint(capsys, "--lang", "pl", path)
    assert code_pl == code_en == 1 and out == ""
    assert _where_and_codes(polish) == _where_and_codes(english) and _where_and_codes(polish)
    assert f"{path}:3:1: błąd: S201 nieznany klucz 'deals' w ruleset" in polish
    assert "wskazówka: dozwolone: kierki, extends, name" in polish  # the key names stay as written
    assert "S203" not in polish
    assert "E301 nieoczekiwany koniec wyrażenia" in polish
    assert polish.rstrip().endswith("kierki lint: sprawdzono 1 plik, 2 błędy, 1 ostrzeżenie")
    assert "error:" not in polish and "hint:" not in polish
    # KIERKI_LANG speaks Polish too, and --lang en wins over it
    os.environ["KIERKI_LANG"] = "pl"
    try:
        assert _lint(capsys, path)[2] == polish
        assert _lint(capsys, "--lang", "en", path)[2] == english
    finally:
        del os.environ["KIERKI_LANG"]


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_machine_formats_stay_english_with_lang_pl(fmt, tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    english = _lint(capsys, "--format", fmt, path)
    assert _lint(capsys, "--format", fmt, "--lang", "pl", path) == english
    assert "unknown key 'deals' in ruleset" in english[1]


def test_the_summary_line_says_polish_plurals():
    with i18n.using("pl"):
        assert summary(1, []) == "kierki lint: sprawdzono 1 plik, 0 błędów, 0 ostrzeżeń"
        assert summary(3, []) == "kierki lint: sprawdzono 3 pliki, 0 błędów, 0 ostrzeżeń"
        assert summary(22, []) == "kierki lint: sprawdzono 22 pliki, 0 błędów, 0 ostrzeżeń"
        assert summary(5, []) == "kierki lint: sprawdzono 5 plików, 0 błędów, 0 ostrzeżeń"
    assert summary(1, []) == "kierki lint: 1 file checked, 0 errors, 0 warnings"


def test_a_findings_arguments_are_never_translated():
    """Only the sentence is translated: a name that is also a word of the catalogue stays as written."""
    with i18n.using("pl"):
        assert i18n.tr("deal") != "deal" and i18n.tr("trump") != "trump"
        message = L_("unknown key {key!r} in {label}", key="deal", label="trump")
        assert message == "unknown key 'deal' in trump"  # the finding keeps its English
        assert finding_said(message) == "nieznany klucz 'deal' w trump"
        assert finding_said(str(message)) == "unknown key 'deal' in trump"  # a plain text is never guessed at
        # a field that is itself a marked sentence is said in turn (a did-you-mean inside a hint)
        hint = L_("YAML 1.1 reads this as a boolean; {hint}", hint=L_("did you mean {close!r}?", close="yes"))
        assert finding_said(hint) == "YAML 1.1 czyta to jako wartość logiczną; czy chodziło o 'yes'?"
        # a text no marked sentence fills is shown as it is
        assert finding_said("nothing marked here") == "nothing marked here"


def test_a_finding_is_said_from_the_sentence_it_was_filled_from_never_guessed():
    """A finding's text remembers its sentence and fields (through a worker and back too); a plain
    text that was not filled from a marked sentence is shown as it is, never guessed at."""
    message = L_("{message} in {field}", message=L_("unexpected end of expression"), field="contracts.a.score")
    restored = pickle.loads(pickle.dumps(message))  # a finding that went to a worker and back
    assert restored == message == "unexpected end of expression in contracts.a.score"
    homes = L_join(", ", [L_("trick scoring"), L_("seat scoring")])
    with i18n.using("pl"):
        assert finding_said(restored) == "nieoczekiwany koniec wyrażenia w contracts.a.score"
        assert finding_said(str(message)) == str(message)  # a plain text: as it is
        assert finding_said(homes) == "punktacja lew, punktacja miejsc"


LINT_CODES = [c for c in CODES.values() if c.lint]


@pytest.mark.parametrize("code", LINT_CODES, ids=lambda c: c.code)
def test_every_codes_bad_example_is_said_in_polish(code, tmp_path):
    """Each code's bad example: every finding's message (and hint) comes from a marked sentence
    with Polish words, so none is left in English."""
    if code.base:
        (tmp_path / "base.yaml").write_bytes(code.base.encode("utf-8", "surrogateescape"))
    path = tmp_path / "bad.yaml"
    path.write_bytes(code.bad.encode("utf-8", "surrogateescape"))
    findings = lint_file(str(path))
    assert findings
    with i18n.using("pl"):
        for d in findings:
            said = d.said()
            assert said.code == d.code and said.pos == d.pos and said.path == d.path
            assert said.message != d.message, f"{d.code}: {d.message!r} is not said in Polish"
            if d.hint:  # a missing key's hint too: its field's description
                assert said.hint != d.hint, f"{d.code}: hint {d.hint!r} is not said in Polish"


def _fields(template: str) -> set:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_the_polish_of_a_sentence_uses_only_its_fields():
    """A Polish sentence with a field its English lacks would fail to be filled in (a KeyError)."""
    catalogue = pytest.importorskip("i18n")  # tools/i18n.py (babel)
    wrong = []
    for m in catalogue.polish():
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        words = m.string if isinstance(m.string, tuple) else (m.string,)
        try:
            known = set().union(*(_fields(i) for i in ids))
            if any(_fields(w) - known for w in words):
                wrong.append(m.id)
        except ValueError:  # braces that are text ("add e.g. {per_seat: declared}")
            continue
    assert not wrong, wrong[:5]


def test_shown_through_the_typer_command_too(tmp_path, capsys):
    """`kierki lint --lang pl --quiet` and the other commands' failing ruleset (run, explain)."""
    from kierki_dsl import cli

    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    assert cli.main(["explain", str(path), "--lang", "pl"]) == 1
    err = capsys.readouterr().err
    assert "błąd: S201 nieznany klucz 'deals' w ruleset" in err


def test_the_editors_diagnostics_stay_english(tmp_path):
    pytest.importorskip("pygls")
    from kierki_dsl.lsp.server import findings, to_lsp

    with i18n.using("pl"):
        found = [to_lsp(d) for d in findings(str(tmp_path / "bad.yaml"), BAD)]
    assert any(f.message.startswith("unknown key 'deals' in ruleset") for f in found)
    assert not any("nieznany" in f.message for f in found)


def test_json_document_is_english_and_loads(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    _, out, _ = _lint(capsys, "--format", "json", "--lang", "pl", path)
    doc = json.loads(out)
    assert {d["code"] for d in doc} == {"S201", "E301", "M618"}


def test_diff_of_tysiac_says_its_deal_words_in_polish(capsys):
    """`kierki diff --lang pl` of Tysiąc: the deal with a widow, the auction, the widow and the
    declarations in Polish (the expressions inside stay as they are said, docs/polish.md)."""
    from kierki_dsl import cli

    cli.main(
        ["diff", str(ROOT / "rulesets/kierki_standard.yaml"), str(ROOT / "rulesets/games/tysiac.yaml"), "--lang", "pl"]
    )
    out = capsys.readouterr().out
    lines = {line.split(":")[0]: line for line in out.splitlines()}
    assert "po 7 kart dla każdego i 3 do musika, rozdawane po jednej" in lines["rozdanie 1, rozdanie"]
    assert lines["rozdanie 1, atuty"].endswith("bez atu, dopóki meldunek nie ustali innego koloru atutowego")
    assert "przed grą, zaczynając od: gracz po lewej rozdającego" in lines["rozdanie 1, licytacja"]
    assert "(od 100 do 360 co 10) albo pasuje i odpada" in lines["rozdanie 1, licytacja"]
    assert "jeśli wszyscy spasują, gracz po lewej rozdającego gra za 100" in lines["rozdanie 1, licytacja"]
    assert (
        "leżą zakryte jako musik; po licytacji jej zwycięzca bierze je, pokazuje je i daje 1 kartę"
        in lines["rozdanie 1, musik"]
    )
    assert "marriage: zgłaszany przez wyjście kartą, gdy" in lines["rozdanie 1, meldunki"]
    for words in ("cards each", "before play", "the widow", "declared by leading", "until a declaration"):
        assert words not in out
