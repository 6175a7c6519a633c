"""An uploaded house rule may extend a shipped ruleset, as the docs write one — and nothing else
of the server (web/catalogue.py: ``lint_upload``, ``shipped_base``)."""

from __future__ import annotations

import pytest

from kierki_dsl.web.catalogue import lint_upload

HOUSE = """kierki: 1
extends: {base}
name: Our house rule
contracts:
  no_tricks:
    score: [{{per_trick: -25}}]
"""


@pytest.mark.parametrize("base", ["rulesets/kierki_standard.yaml", "kierki_standard", "variants/must_ruff.yaml"])
def test_a_house_rule_extending_a_shipped_ruleset_uploads(base):
    got = lint_upload("house.yaml", HOUSE.format(base=base))
    assert got.ruleset is not None, got.findings
    assert got.ruleset.name == "Our house rule"
    [no_tricks] = [c for c in got.ruleset.contracts.values() if c.name == "no_tricks"]
    assert no_tricks.scorers[0].points.const == -25


@pytest.mark.parametrize(
    "base",
    ["/etc/passwd", "../../../etc/passwd", "rulesets/../../etc/passwd", "..", "/tmp", "no_such_ruleset", "", "a\\b"],
)
def test_anything_else_is_refused_before_a_file_is_read(base):
    got = lint_upload("house.yaml", HOUSE.format(base=repr(base)))
    assert got.ruleset is None
    [finding] = got.findings
    assert "may extend a shipped ruleset only" in finding["text"] and "hint:" in finding["text"]
    assert finding["path"] == "house.yaml" and finding["line"] == 2


def test_a_finding_in_a_shipped_base_is_located_by_its_shipped_name(tmp_path):
    """An override that breaks the base's rules is said where the base's line is, named as
    the docs name the file, never by the server's folder."""
    text = "kierki: 1\nextends: rulesets/kierki_standard.yaml\nplayers: 3\n"
    got = lint_upload("house.yaml", text)
    assert got.findings
    for f in got.findings:
        assert f["path"] in ("house.yaml",) or f["path"].startswith("rulesets/"), f["path"]
        assert "/home" not in f["text"] and "/work" not in f["text"] and "site-packages" not in f["text"]
