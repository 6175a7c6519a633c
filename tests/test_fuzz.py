"""Lint never crashes and never hangs: fuzzing with generated YAML, expressions and bytes.

Each example must give only coded findings (codes from the registry), no exception, and
finish quickly (hypothesis' deadline bounds every example).
"""
from __future__ import annotations

import os
import tempfile

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kierki_dsl.codes import CODES
from kierki_dsl.lint import lint_file

from conftest import STANDARD

FUZZ = settings(max_examples=120, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
_DIR = tempfile.mkdtemp(prefix="kierki-fuzz-")


def lint_bytes(data: bytes):
    path = os.path.join(_DIR, "f.yaml")
    with open(path, "wb") as f:
        f.write(data)
    findings = lint_file(path)
    for d in findings:
        assert d.code in CODES, d
        assert d.message
    return findings


# -- expressions generated from the grammar's pieces ------------------------------------------
NAMES = ["card", "trick", "tricks", "trump", "dealer", "seat", "tricks_taken", "hearts", "spades", "Q", "K",
         "led_suit", "winning", "points_left", "notes", "_x", "caller", "players", "doubler", "target"]
ATTRS = ["suit", "rank", "number", "is_last", "is_first", "leader", "winner", "bogus", "__class__"]
FUNCS = ["count", "taken", "in_trick", "held", "left", "right", "holder", "min", "max", "abs", "nope"]
OPS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in"]

atoms = st.one_of(
    st.integers(-10**20, 10**20).map(str),
    st.sampled_from(NAMES),
    st.sampled_from(["KH", "10S", "2C", "TD", "true", "false", "'x'", '"y"']),
)


def _expr(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(OPS), children).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(children, st.sampled_from(ATTRS)).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(st.sampled_from(FUNCS), st.lists(children, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        children.map(lambda e: f"({e})"),
        children.map(lambda e: f"not {e}"),
        children.map(lambda e: f"-{e}"),
        st.lists(children, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(children, children, children).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
    )


expressions = st.recursive(atoms, _expr, max_leaves=12)
tokens = st.lists(st.sampled_from(NAMES + ATTRS + FUNCS + OPS + ["(", ")", "[", "]", ",", ".", "if", "then", "else",
                                                                 "**", "'", '"', "1", "KH", "#", "\\", "\n"]),
                  max_size=20).map(" ".join)

FIELDS = [
    ("per_trick", "    score: [{{per_trick: {e}}}]\n"),
    ("per_card", "    score: [{{per_card: {e}, points: {e}}}]\n"),
    ("per_seat", "    score: [{{per_seat: {e}}}]\n"),
    ("when", "    score: [{{per_trick: -20, when: {e}}}]\n"),
    ("lead_ban", "    lead_ban: {e}\n    score: [{{per_trick: -20}}]\n"),
    ("first_lead", "    first_lead: {e}\n    score: [{{per_trick: -20}}]\n"),
    ("end_when", "    end_when: {e}\n    score: [{{per_trick: -20}}]\n"),
    ("restriction", "    restrictions: [{{phase: follow, require: {e}, when: {e}}}]\n    score: [{{per_trick: -20}}]\n"),
    ("may_double", "    doubling: {{may_double: {e}}}\n    score: [{{per_trick: -20}}]\n"),
    ("again_after", "    type: layout\n    again_after: {e}\n    prizes: [10, 5]\n"),
]


def _ruleset(field: str, expr: str) -> bytes:
    template = dict(FIELDS)[field]
    quoted = '"' + expr.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    body = template.format(e=quoted)
    return ("kierki: 1\nname: fuzz\nmatch: {schedule: [c]}\ncontracts:\n  c:\n" + body).encode("utf-8")


@FUZZ
@given(field=st.sampled_from([f for f, _ in FIELDS]), expr=st.one_of(expressions, tokens))
def test_generated_expressions_give_only_coded_findings(field, expr):
    lint_bytes(_ruleset(field, expr))


@FUZZ
@given(expr=expressions)
def test_generated_expressions_that_lint_clean_also_play(expr):
    """Whatever passes lint as a per_seat score must evaluate (or fail with a located X701)."""
    from kierki_dsl.expr import RuleRuntimeError
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import RandomPlayer
    from kierki_dsl.ruleset.model import Ruleset

    data = _ruleset("per_seat", expr)
    if any(d.severity == "error" for d in lint_bytes(data)):
        return
    rs = Ruleset.load(os.path.join(_DIR, "f.yaml"))
    try:
        for _ in MatchRunner(rs, [RandomPlayer() for _ in range(4)], seed=1).deals():
            pass
    except RuleRuntimeError as e:
        assert e.diagnostic.code == "X701"


# -- YAML documents of random shape with the format's own keys -----------------------------------
KEYS = ["kierki", "name", "players", "deck", "match", "schedule", "contracts", "type", "score", "per_trick",
        "per_card", "points", "trump", "called_by", "after", "prizes", "start_rank", "ace", "total", "parts",
        "first", "last", "ranks", "remove", "restrictions", "phase", "forbid", "include", "zzz", "choose", "by",
        "from", "once_each", "pass_cards", "count", "rotation", "until", "max_deals", "deals_per_dealer", "contract",
        "repeat", "series", "doubling", "may_double", "redouble", "free_passes", "pass_cost", "pass_fine",
        "again_after", "free"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**25, 10**25), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["no", "on", "010", "1:20", "KH", "tricks", "random"]))
documents = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.sampled_from(KEYS), children, max_size=5)),
    max_leaves=30,
)


@FUZZ
@given(doc=documents)
def test_random_yaml_documents(doc):
    lint_bytes(yaml.safe_dump(doc, allow_unicode=True).encode("utf-8"))


@FUZZ
@given(doc=st.dictionaries(st.sampled_from(KEYS), documents, max_size=6))
def test_random_mappings_with_a_valid_head(doc):
    doc = {"kierki": 1, "name": "x", **doc}
    lint_bytes(yaml.safe_dump(doc, allow_unicode=True).encode("utf-8"))


# -- byte-level damage to a real ruleset ---------------------------------------------------------
SOURCES = [STANDARD.read_bytes()] + [
    (STANDARD.parent / "games" / name).read_bytes() for name in ("trix.yaml", "hearts.yaml", "king_brazil.yaml",
                                                                 "barbu.yaml")
]


@FUZZ
@given(which=st.integers(0, len(SOURCES) - 1),
       edits=st.lists(st.tuples(st.integers(0, 4000), st.integers(0, 2), st.binary(max_size=3)), min_size=1, max_size=4))
def test_damaged_shipped_rulesets(which, edits):
    data = bytearray(SOURCES[which])
    for pos, kind, blob in edits:
        pos = min(pos, len(data))
        if kind == 0:
            data[pos:pos] = blob
        elif kind == 1:
            del data[pos : pos + max(1, len(blob))]
        else:
            data[pos : pos + len(blob)] = blob
    lint_bytes(bytes(data))


# -- byte-level mutations of every shipped ruleset, a few thousand, deterministic ----------------
#: Byte strings that reach the expression parser and the YAML reader in interesting ways
#: (chains of unary operators, reserved words, escapes, brackets, YAML punctuation).
TOKENS = [b"-", b"not ", b"(", b")", b"[", b"and ", b"in ", b"if ", b"\\x20", b"\\u00e9", b'"', b"'", b"{", b"}",
          b": ", b"\n", b"\t", b"#", b"&a ", b"*a", b"!!str ", b"~", b"99999999999999999999", b"KH", b"\xff", b"\x00"]
MUTANTS_PER_FILE = 90
#: Keys whose values are expressions: some mutations land right at the start of one.
EXPRESSION_KEYS = [b"when: ", b"lead_ban: ", b"per_card: ", b"require: ", b"forbid: ", b"again_after: ",
                   b"first_lead: ", b"end_when: ", b"called_by: ", b"until: "]


def _mutate(rng, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(out) + 1)
        kind = rng.randrange(6)
        if kind == 5:  # at the start of an expression value, if the file has one
            found = [i + len(k) for k in EXPRESSION_KEYS for i in _find_all(out, k)]
            if found:
                pos, kind = rng.choice(found), 3
        if kind == 0:
            out[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif kind == 1:
            del out[pos : pos + rng.randint(1, 8)]
        elif kind == 2:
            out[pos : pos + 1] = bytes([rng.randrange(256)])
        elif kind == 3:  # a run of one token: e.g. 300 minus signs inside an expression
            out[pos:pos] = rng.choice(TOKENS) * rng.choice((1, 2, 40, 400))
        else:  # a chunk of the file copied elsewhere
            start = rng.randrange(len(out) + 1)
            out[pos:pos] = out[start : start + rng.randint(1, 60)]
    return bytes(out)


def _find_all(data: bytes, needle: bytes) -> list:
    out, i = [], data.find(needle)
    while i >= 0:
        out.append(i)
        i = data.find(needle, i + 1)
    return out


@pytest.mark.slow
def test_byte_mutations_of_every_shipped_ruleset(tmp_path):
    """Every shipped file, mutated byte by byte MUTANTS_PER_FILE times with a fixed seed, in a
    copy of the rulesets folder (so `extends` still finds its base): only coded findings,
    never an exception; and a share of the mutants that lint clean play their first deal
    (issue 15 item 10: the crash was in lint *and* run)."""
    import random
    import shutil

    tree = tmp_path / "rulesets"
    shutil.copytree(STANDARD.parent, tree)
    files = sorted(tree.rglob("*.yaml"))
    assert len(files) > 30
    rng = random.Random(15)
    cases = played = 0
    for f in files:
        original = f.read_bytes()
        for _ in range(MUTANTS_PER_FILE):
            mutant = _mutate(rng, original)
            f.write_bytes(mutant)
            try:
                findings = lint_file(str(f))
                for d in findings:
                    assert d.code in CODES and d.message, d
                if mutant != original and not any(d.severity == "error" for d in findings) and cases % PLAY_EVERY == 0:
                    _play_first_deal(str(f))  # what lint lets through must play too (or stop located)
                    played += 1
            except Exception as e:  # the message names the case, so it can be reproduced
                raise AssertionError(f"{f.name}, case {cases}: {type(e).__name__}: {e}") from e
            cases += 1
        f.write_bytes(original)
    assert cases >= 3000 and played >= 100, (cases, played)


#: one lint-clean mutant in this many cases is played (a deal each), within CI's time
PLAY_EVERY = 3


def _play_first_deal(path: str) -> None:
    """The ruleset's first deal with random players: it ends, or stops with a located
    run-time error (an X-code, a match that cannot go on) — never another exception."""
    from kierki_dsl.expr import RuleRuntimeError
    from kierki_dsl.interpreter.match import MatchError, MatchRunner
    from kierki_dsl.players.base import RandomPlayer
    from kierki_dsl.ruleset.model import Ruleset

    rs = Ruleset.load(path)
    try:
        next(iter(MatchRunner(rs, [RandomPlayer() for _ in range(rs.players)], seed=1).deals()), None)
    except RuleRuntimeError as e:
        assert e.diagnostic.code.startswith("X"), e.diagnostic
    except MatchError:
        pass


def test_unary_chains_reach_no_recursion_limit_through_any_field():
    for field in ("when", "lead_ban", "per_seat", "restriction", "again_after"):
        for op in ("-", "not "):
            findings = lint_bytes(_ruleset(field, op * (480 // len(op)) + "1"))  # under the length limit
            assert any(d.code == "E303" for d in findings), (field, op)
