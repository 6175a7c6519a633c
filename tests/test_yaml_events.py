"""libyaml (the fast path) and PyYAML's own parser give the ruleset reader the same tree.

The reader takes its events from libyaml when PyYAML was built with it and falls back to
PyYAML's parser otherwise, and for every text libyaml rejects (so the error messages are
always PyYAML's). These tests hold the two paths to the same nodes, positions and findings.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kierki_dsl.diagnostics import DiagnosticError
from kierki_dsl.spec import yamlsafe

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(ROOT.glob("rulesets/**/*.yaml")) + sorted(ROOT.glob("tests/data/bad_inputs/*.yaml"))

needs_libyaml = pytest.mark.skipif(getattr(yaml, "CSafeLoader", None) is None, reason="PyYAML without libyaml")


def dump(node):
    if node is yamlsafe._HOLES:
        return "holes"
    if isinstance(node, yamlsafe.Scalar):
        return ("scalar", node.value, node.style, node.pos, node.start, node.end)
    if isinstance(node, yamlsafe.Seq):
        return ("seq", node.pos, [dump(n) for n in node.items])
    return ("map", node.pos, [(dump(node.keys[k]), dump(v)) for k, v in node.entries.items()])


def tree(text: str, loader):
    src = yamlsafe.Source("t.yaml", text)
    errors: list = []
    try:
        root = yamlsafe._build(src, yaml.parse(text, Loader=loader), errors)
    except yamlsafe._Stop:
        root = None
    return (dump(root) if root is not None else None), [d.headline() for d in errors]


EDGE_CASES = [
    "a: 1\r\nb: [x, 'y', \"z\"]\r\n",
    "name: \"Zażółć gęślą jaźń\"\nkey: żółw # comment\n",
    "list:\n  - |\n    ąę\n    x\n  - >\n    folded\n    text\n  - {k: v, m: [1, 2]}\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "---\na: 1\n---\nb: 2\n",
    "a: 1\na: 2\nno: 3\n",
    "? [complex]\n: key\n",
    "",
    "# only a comment\n",
    "a: x\ufeffy\nb: '\ufeff'\n",
]


@needs_libyaml
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_files_read_the_same_with_libyaml(path):
    try:
        text = yamlsafe.decode(str(path), path.read_bytes()).text  # as the reader sees it
    except DiagnosticError:
        pytest.skip("refused before parsing")
    try:
        expected = tree(text, yaml.SafeLoader)
    except yaml.YAMLError:
        pytest.skip("not YAML: the reader uses PyYAML's parser for this text")
    assert tree(text, yaml.CSafeLoader) == expected


@needs_libyaml
@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases_read_the_same_with_libyaml(text):
    assert tree(text, yaml.CSafeLoader) == tree(text, yaml.SafeLoader)


def test_syntax_errors_keep_pyyaml_messages(monkeypatch):
    text = "a: [1, 2\nb: 3\n"
    with pytest.raises(DiagnosticError) as fast:
        yamlsafe.load("t.yaml", text.encode())
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    with pytest.raises(DiagnosticError) as slow:
        yamlsafe.load("t.yaml", text.encode())
    assert [d.headline() for d in fast.value.diagnostics] == [d.headline() for d in slow.value.diagnostics]
    assert "YAML syntax error" in fast.value.diagnostics[0].message
