"""kierki lint: one failing case per code (the examples of kierki_dsl/codes.py, as data),
the good examples, output formats, the jacks-only total, docs that stay current."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, RULESETS, STANDARD, run_cli

from kierki_dsl.codes import CODES, markdown
from kierki_dsl.lint import lint_file

LINT_CODES = [c for c in CODES.values() if c.lint]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8", "surrogateescape"))
    return p


@pytest.mark.parametrize("code", LINT_CODES, ids=lambda c: c.code)
def test_bad_example_gives_its_code_at_its_position(tmp_path, code):
    if code.base:
        _write(tmp_path, "base.yaml", code.base)
    found = [d for d in lint_file(str(_write(tmp_path, "bad.yaml", code.bad))) if d.code == code.code]
    assert found, f"{code.code} not reported"
    d = found[0]
    assert d.severity == code.severity
    assert ((d.pos.line, d.pos.col) if d.pos else None) == code.at


@pytest.mark.parametrize("code", list(CODES.values()), ids=lambda c: c.code)
def test_good_example_is_clean(tmp_path, code):
    if code.base:
        _write(tmp_path, "base.yaml", code.base)
    assert lint_file(str(_write(tmp_path, "good.yaml", code.good))) == []


def test_runtime_code_example(tmp_path):
    code = CODES["X701"]
    p = _write(tmp_path, "x.yaml", code.bad)
    rc, out, err, _ = run_cli("run", str(p), "--seed", "1")
    # the run's stderr may begin with the ruleset's lint warnings (N412 foretells X701)
    assert rc == 1 and re.search(rf"^{re.escape(str(p))}:{code.at[0]}:{code.at[1]}: error: X701 ", err, re.M), err


def test_every_code_in_the_source_is_documented():
    used = set()
    for f in (ROOT / "kierki_dsl").rglob("*.py"):
        if f.name == "codes.py":
            continue
        used |= set(re.findall(r'"([YSENRMX][0-9]{3})"', f.read_text("utf-8")))
    assert used <= set(CODES), sorted(used - set(CODES))
    assert set(CODES) <= used, sorted(set(CODES) - used)


def test_docs_page_is_current():
    assert (ROOT / "docs" / "lint-codes.md").read_text("utf-8") == markdown() + "\n"


def test_explain(cli):
    rc, out, err = cli("lint", "--explain", "m601")
    assert rc == 0 and out.startswith("M601 (error): declared total disagrees")
    assert "Bad:" in out and "Good:" in out
    assert cli("lint", "--explain", "Z999")[0] == 2


JACKS_ONLY = STANDARD.read_text("utf-8").replace(
    "      - per_card: card.rank in [K, J]\n        points: -30",
    "      - per_card: card.rank == J\n        points: -30",
)


def test_jacks_only_with_the_kings_and_jacks_total_is_flagged(tmp_path, cli):
    assert "card.rank == J" in JACKS_ONLY
    p = _write(tmp_path, "jacks.yaml", JACKS_ONLY)
    rc, out, err = cli("lint", str(p))
    assert rc == 1
    assert "M601 contract 'bez_panow' declares total -240 but its scoring gives -120" in err
    # and the knock-on: the robber, the negative part and the match no longer add up
    assert "M601 contract 'rozbojnik' declares total -1300 but its scoring gives -1180" in err
    assert "M611 part 'rozgrywka' declares total -2600 but its deals add up to -2360" in err
    assert "M609 the match declares total 0 but its deals add up to 240" in err


def test_json_and_github_and_sarif_formats(tmp_path, cli):
    p = _write(tmp_path, "j.yaml", JACKS_ONLY)
    rc, out, err = cli("lint", "--format", "json", str(p))
    data = json.loads(out)
    assert rc == 1 and err == ""
    first = data[0]
    assert set(first) == {
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "severity",
        "message",
        "hint",
        "note",
    }
    assert first["severity"] == "error" and "M601" in [d["code"] for d in data]
    rc, out, err = cli("lint", "--format", "github", str(p))
    assert out.splitlines()[0].startswith(f"::error file={p},line=")
    rc, out, err = cli("lint", "--format", "sarif", str(p))
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0"
    assert "M601" in [r["ruleId"] for r in sarif["runs"][0]["results"]]


def test_strict_makes_warnings_fail(tmp_path, cli):
    p = _write(tmp_path, "w.yaml", CODES["M608"].bad)
    assert cli("lint", str(p))[0] == 0
    assert cli("lint", "--strict", str(p))[0] == 1


def test_folders_are_walked(tmp_path, cli):
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub", "a.yaml", CODES["S201"].bad)
    _write(tmp_path, "b.yml", CODES["N401"].bad)
    _write(tmp_path, "notes.txt", "not a ruleset")
    rc, out, err = cli("lint", str(tmp_path))
    assert rc == 1 and "S201" in err and "N401" in err


def test_shipped_rulesets_validate_against_the_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    schema = json.loads((ROOT / "schema" / "kierki-ruleset.schema.json").read_text("utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)  # once: jsonschema.validate would re-check the schema for every file
    validator = cls(schema)
    files = sorted(RULESETS.rglob("*.yaml"))
    assert files
    for f in files:
        data = yaml.safe_load(f.read_text("utf-8"))  # our own trusted files; plain data only
        validator.validate(data)
    bad = yaml.safe_load(CODES["S201"].bad)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(bad)


GOLDEN = sorted((ROOT / "tests" / "data" / "golden").glob("*.yaml"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_rendered_output_is_pinned(path, cli, monkeypatch):
    """Golden files: `cd tests/data/golden && kierki lint NAME.yaml 2> NAME.txt` regenerates one."""
    monkeypatch.chdir(path.parent)
    rc, out, err = cli("lint", path.name)
    assert rc == 1
    assert err == path.with_suffix(".txt").read_text("utf-8")


FAST = [  # plain lint calls: entry.py runs them without importing typer
    ("lint", "{bad}"),
    ("lint", "{good}"),
    ("lint", "--strict", "{warn}"),
    ("lint", "{warn}"),
    ("lint", "--format", "json", "{bad}"),
    ("lint", "--format=github", "{bad}"),
    ("lint", "{bad}", "--format", "sarif"),
    ("lint", "{good}", "--strict", "{bad}"),
    ("lint", "{dir}"),
    ("lint", "{missing}"),
    ("lint", "--quiet", "{bad}"),
    ("lint", "{warn}", "-q"),
    ("lint", "--lang", "pl", "{bad}"),
    ("lint", "{warn}", "--lang=pl"),
    ("lint", "--lang", "en", "{bad}"),
]
TYPER = [  # everything else goes to the typer application
    ("lint",),
    ("lint", "--format", "xml", "{bad}"),
    ("lint", "{bad}", "--format"),
    ("lint", "--strict"),
    ("lint", "--explain", "M601"),
    ("lint", "--help"),
    ("lint", "-x", "{bad}"),
    ("lint", "--", "{bad}"),
    ("lint", "--lang", "xx", "{bad}"),
    ("lint", "{bad}", "--lang"),
]


@pytest.mark.parametrize("args", FAST + TYPER, ids=" ".join)
def test_fast_lint_path_behaves_as_the_typer_command(args, tmp_path, capsys, monkeypatch):
    """`kierki lint` skips importing typer for plain calls; the result must not change."""
    from kierki_dsl import cli as typer_cli
    from kierki_dsl import entry
    from kierki_dsl.i18n import set_language

    warn = next(c for c in LINT_CODES if c.severity == "warning")
    names = dict(
        bad=_write(tmp_path, "bad.yaml", LINT_CODES[0].bad),
        good=_write(tmp_path, "good.yaml", LINT_CODES[0].good),
        warn=_write(tmp_path, "warn.yaml", warn.bad),
        dir=tmp_path,
        missing=tmp_path / "nope.yaml",
    )
    argv = [a.format(**names) for a in args]
    monkeypatch.chdir(tmp_path)
    results = []
    try:
        for main in (entry.main, typer_cli.main):
            code = main(list(argv))
            out, err = capsys.readouterr()
            results.append((code, out, err))
    finally:
        set_language(None)  # a --lang of the call is not the next test's
    assert results[0] == results[1]
    assert (entry.plain_lint(argv) is not None) == (args in FAST)


def test_plain_lint_does_not_import_typer():
    code = (
        "import sys; from kierki_dsl.entry import main; "
        "rc = main(['lint', 'rulesets/kierki_standard.yaml']); "
        "sys.exit(10 + rc if 'typer' in sys.modules or 'lark' in sys.modules else rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_fine_that_is_never_charged(tmp_path):
    body = "  lot:\n    type: layout\n    pass_fine: 20\n    prizes: [800, 500]\n"
    text = "kierki: 1\nname: example\nmatch: {schedule: [lot]}\ncontracts:\n" + body
    found = [d for d in lint_file(str(_write(tmp_path, "fine.yaml", text))) if d.code == "M614"]
    assert len(found) == 1 and "pass_fine never applies" in found[0].message and found[0].pos.line == 7


def test_findings_about_inherited_values_are_placed_in_the_variant(tmp_path):
    """A variant that changes bez_lew makes the robber's inherited total wrong: the finding is
    at the variant's `extends`, with a note naming the base's line and the key to override."""
    v = tmp_path / "v.yaml"
    v.write_text(
        f"kierki: 1\nextends: {STANDARD}\nname: v\ncontracts:\n  bez_lew:\n    total: -130\n"
        "    score: [{per_trick: -10}]\n",
        "utf-8",
    )
    found = {d.code: d for d in lint_file(str(v))}
    m601 = found["M601"]
    assert m601.path == str(v) and (m601.pos.line, m601.pos.col) == (2, 1)
    base_line = next(i for i, line in enumerate(STANDARD.read_text("utf-8").splitlines(), 1) if "total: -1300" in line)
    assert m601.note.startswith(f"the value is inherited: {STANDARD}:{base_line}:")
    assert "override contracts.rozbojnik.total in this file" in m601.hint
    assert "override match.parts (a list is replaced whole)" in found["M611"].hint
    # an override in the variant is where an inherited value's finding goes
    v.write_text(
        f"kierki: 1\nextends: {STANDARD}\nname: v\nplayers: 3\ndeck: {{remove: [2C]}}\n"
        "contracts:\n  loteryjka:\n    prizes: [800, 500]\n",
        "utf-8",
    )
    m617 = next(d for d in lint_file(str(v)) if d.code == "M617")
    assert m617.path == str(v) and m617.pos.line == 7 and "override contracts.loteryjka.ace" in m617.hint


def test_no_shipped_layout_has_a_card_it_can_never_reach():
    """Three players without 2C needs the ace high in loteryjka, or AC is a dead card (M617)."""
    from kierki_dsl.ruleset.model import Ruleset

    for f in sorted(RULESETS.rglob("*.yaml")):
        rs = Ruleset.load(str(f))
        for c in rs.contracts.values():
            if c is not None and c.type == "layout":
                assert c.unreachable(rs.deck) == 0, (f.name, c.name)
    three = Ruleset.load(str(RULESETS / "variants" / "three_players.yaml"))
    assert three.contracts["loteryjka"].ace_high


def test_a_contract_with_a_schema_error_still_gets_its_total_checked(tmp_path):
    """`ace: hi` does not hide a wrong declared total (M601); an error in the scoring itself
    says the check was skipped (M618)."""
    body = (
        "kierki: 1\nname: x\nmatch: {schedule: [lot]}\ncontracts:\n  lot:\n    type: layout\n"
        "    ace: hi\n    total: 1000\n    prizes: [800, 500]\n"
    )
    codes = [d.code for d in lint_file(str(_write(tmp_path, "a.yaml", body)))]
    assert codes == ["S204", "M601"]
    codes = [d.code for d in lint_file(str(_write(tmp_path, "b.yaml", body.replace("[800, 500]", "[800, x]"))))]
    assert "M618" in codes and "M601" not in codes


def test_a_card_the_deck_has_not_is_found_wherever_an_expression_names_it(tmp_path):
    """N411: `first_dealer: holder(2H)` with 2H removed linted clean and stopped `run` (X701);
    now lint warns at the card, in match-level and contract-level expressions alike."""
    from kierki_dsl.lint import lint_file

    path = tmp_path / "removed.yaml"
    path.write_text(
        "kierki: 1\nname: three\nplayers: 3\ndeck: {remove: [2H]}\n"
        "match: {first_dealer: holder(2H), schedule: [gra]}\n"
        "contracts:\n  gra:\n    total: -340\n    score: [{per_trick: -20}, {per_card: card == 2H, points: 0}]\n",
        "utf-8",
    )
    found = [(f.code, f.pos.line, f.pos.col, f.severity) for f in lint_file(str(path)) if f.code == "N411"]
    assert found == [("N411", 5, 30, "warning"), ("N411", 9, 50, "warning")], found
