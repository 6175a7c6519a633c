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


# == issue 28: paths and file types, integer extremes, option extremes, concurrent writers,
# == signals at start-up. Each generated case must end in a message and a documented exit
# == code (or a coded finding), never a traceback, a hang or a replaced special file.
import signal  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

from conftest import RULESETS, kierki_command, poll_until, run_cli  # noqa: E402

HEARTS = str(RULESETS / "games" / "hearts.yaml")
PATH_KINDS = ["regular", "new", "fifo", "folder", "to-fifo", "to-folder", "to-regular", "dangling", "loop",
              "missing-folder", "nul", "file-as-folder"]


def _make(tmp: str, kind: str, name: str) -> str:
    """A path of ``kind`` named ``name`` in the folder ``tmp`` (never a real device)."""
    path = os.path.join(tmp, name)
    if kind == "regular":
        with open(path, "w") as f:
            f.write("kept\n")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        os.mkdir(path)
    elif kind in ("to-fifo", "to-folder", "to-regular"):
        target = _make(tmp, kind[3:].replace("regular", "regular"), name + ".target")
        os.symlink(target, path)
    elif kind == "dangling":
        os.symlink(os.path.join(tmp, name + ".nothing"), path)
    elif kind == "loop":
        os.symlink(path, path)
    elif kind == "missing-folder":
        path = os.path.join(tmp, name + ".no", "such", "x")
    elif kind == "nul":
        path = path + "\0x"
    elif kind == "file-as-folder":
        with open(path, "w") as f:
            f.write("kept\n")
        path = os.path.join(path, "x")
    return path


def _snapshot(tmp: str) -> dict:
    """Every entry of ``tmp``: its type and (for regular files) its content."""
    out = {}
    for name in os.listdir(tmp):
        p = os.path.join(tmp, name)
        mode = os.lstat(p).st_mode
        out[name] = (stat.S_IFMT(mode), open(p, "rb").read() if stat.S_ISREG(mode) else None)
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(PATH_KINDS), use=st.sampled_from(["write", "folder", "lint", "extends", "record"]))
def test_generated_paths_of_every_file_type(kind, use):
    """Writers refuse (OutputError) or write a regular file, and never replace a special file;
    readers give a coded finding or a RecordError; nothing else escapes, nothing hangs."""
    from kierki_dsl.paths import OutputError, check_folder, write_atomic
    from kierki_dsl.record import RecordError, read_record

    tmp = tempfile.mkdtemp(dir=_DIR)
    path = _make(tmp, kind, "target.yaml")
    before = _snapshot(tmp)
    if use in ("write", "folder"):
        try:
            write_atomic(path, "new\n") if use == "write" else check_folder(path, "--records", r"match-\d+\.json")
        except OutputError as e:
            assert str(e)
            assert _snapshot(tmp) == before  # refused: nothing changed, no temporary file left
            return
        assert kind in {"write": ("regular", "new", "to-regular"), "folder": ("new", "folder", "to-folder")}[use]
        if use == "write":
            assert open(path).read() == "new\n" and os.path.islink(path) == (kind == "to-regular")
        return
    if use == "record":
        try:
            read_record(path)
        except RecordError as e:
            assert str(e).startswith(path.split("\0")[0][:20])
        return
    if use == "extends":
        variant = os.path.join(tmp, "variant.yaml")
        with open(variant, "w") as f:
            f.write("kierki: 1\nextends: " + json_string(os.path.relpath(path, tmp) if "\0" not in path else path) + "\n")
        path = variant
    try:
        findings = lint_file(path)
    except ValueError:  # a NUL in the path named on the command line: argv cannot hold one
        assert use == "lint" and kind == "nul"
        return
    assert findings and all(d.code in CODES for d in findings), findings
    if kind not in ("regular", "to-regular"):
        assert findings[0].code in ("Y116", "R504"), findings


def json_string(text: str) -> str:
    import json

    return json.dumps(text)


# -- integer extremes: in rulesets, records and save files ----------------------------------------
EXTREMES = [0, 1, -1, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, 10**18,
            10**19, 10**30, 999999999999999999, -999999999999999999]
extreme_ints = st.one_of(st.sampled_from(EXTREMES), st.integers(-(2**70), 2**70))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a deal is played
@given(a=extreme_ints, b=extreme_ints, field=st.sampled_from(["per_trick", "points", "per_seat", "total"]))
def test_integer_extremes_in_scores_lint_or_play(a, b, field):
    """A score built from extreme integers is a coded finding, or a ruleset whose first deal
    plays (or stops located): never another exception."""
    score = {"per_trick": f"{{per_trick: {a}}}", "points": f"{{per_card: card.suit == hearts, points: {a}}}",
             "per_seat": f"{{per_seat: \"{a} * tricks_taken + {b}\"}}", "total": f"{{per_trick: {b}}}"}[field]
    total = f"    total: {a}\n" if field == "total" else ""
    text = f"kierki: 1\nname: ints\nmatch: {{schedule: [c]}}\ncontracts:\n  c:\n{total}    score: [{score}]\n"
    findings = lint_bytes(text.encode())
    if not any(d.severity == "error" for d in findings):
        _play_first_deal(os.path.join(_DIR, "f.yaml"))


@pytest.fixture(scope="module")
def hearts_record(tmp_path_factory) -> dict:
    """A whole Hearts match's record (made once)."""
    import json

    path = tmp_path_factory.mktemp("record") / "r.json"
    rc, out, err, _ = run_cli("run", HEARTS, "--players", "random", "--seed", "3", "--record", str(path))
    assert rc == 0, err
    return json.loads(path.read_text())


@settings(max_examples=40, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(["dealer", "first_dealer", "players", "caller", "scores", "totals", "seed"]),
       value=st.one_of(extreme_ints, st.just("1e400"), st.just("9" * 5000)))
def test_integer_extremes_in_records(hearts_record, field, value):
    """Extreme integers anywhere in a record: a located RecordError or a replay report."""
    import copy
    import json

    from kierki_dsl.record import RecordError, read_record, replay
    from kierki_dsl.ruleset.model import Ruleset

    rec = copy.deepcopy(hearts_record)
    if field in ("dealer", "caller", "scores"):
        rec["deals"][0][field] = [value] * 4 if field == "scores" else value
    else:
        rec[field] = [value] * 4 if field == "totals" else value
    text = json.dumps(rec).replace('"1e400"', "1e400").replace('"' + "9" * 5000 + '"', "9" * 5000)
    path = os.path.join(_DIR, "r.json")
    with open(path, "w") as f:
        f.write(text)
    try:
        report = replay(Ruleset.load(HEARTS), read_record(path))
    except RecordError as e:
        assert str(e).startswith(path)
        return
    assert report.deals or report.violations


# -- option extremes -------------------------------------------------------------------------------
NUMBERS = ["-1", "0", "1", "2", "65535", "65536", "256", "257", "1000000", "1000001", str(2**63 - 1), str(2**63),
           str(2**64), "9" * 30, "-" + "9" * 30, "nan", "inf", "-inf", "1e308", "1e-320", "-0.0", "0x10", "1_000",
           " 5", "", "9" * 5000]
OPTION_USES = [
    ("simulate", HEARTS, "--games"), ("simulate", HEARTS, "--workers"), ("simulate", HEARTS, "--seed"),
    ("compare", HEARTS, HEARTS, "--games"), ("run", HEARTS, "--seed"), ("run", HEARTS, "--human"),
    ("ladder", HEARTS, "--seeds"), ("ladder", HEARTS, "--first-seed"), ("serve", HEARTS, "--port"),
    ("serve", HEARTS, "--timeout"), ("join", "localhost", "PORT", "--seat", "N"),
    ("join", "localhost", "5", "--seat", "N", "--timeout"), ("join", "localhost", "5", "--seat", "N", "--retry"),
    ("web", "--port"), ("web", "--max-tables"), ("web", "--idle"), ("web", "--bot-delay"), ("web", "--keep-days"),
    ("web", "--creates-per-minute"), ("run", HEARTS, "--think"), ("run", HEARTS, "--players"),
]


def _within(option: str, text: str) -> bool:
    """Whether ``text`` is a number the option takes (then the command would do real work)."""
    from kierki_dsl.limits import OPTIONS

    try:
        value = int(text)  # exactly, as the command reads it (a float rounds 2**63 - 1 up)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            return False
    bound = OPTIONS.get(option)
    return bound is not None and bound.problem(option, value) is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(use=st.sampled_from(OPTION_USES), value=st.sampled_from(NUMBERS))
def test_option_extremes_are_usage_errors_before_any_work(cli, use, value):
    from hypothesis import assume

    option = use[-1] if use[-1].startswith("--") else "port"
    if option in ("--players", "--think"):  # a search player's setting: a count 1..100_000 would play
        from kierki_dsl.players.base import setting_count  # (``1_000`` a count too; 5,000 digits never converted)

        digits = value.strip()
        count = setting_count(digits)
        assume(digits and (count is None or not 1 <= count <= 100_000))  # "": the default
        value = f"search:{value}" if option == "--players" else value
    elif option == "--human":  # a seat would wait for a person at the prompt
        assume(value.strip() not in ("0", "1", "2", "3", "-0.0"))
    else:
        assume(not _within(option, value))
    args = [value if a == "PORT" else a for a in use] + ([] if "PORT" in use else [value])
    code, out, err = cli(*args)
    assert code == 2, (args[-2:], code, err[-300:])
    assert "Traceback" not in err and "internal error" not in err
    assert len(err) < 600  # a 5000-digit value is not echoed whole



def test_a_5000_digit_seat_is_not_echoed_whole(cli):
    """``--human`` with a huge number (found by the test above: the seat reader echoed it whole)."""
    code, out, err = cli("run", HEARTS, "--human", "9" * 5000)
    assert code == 2 and "not a seat" in err and "5000 characters" in err
    assert len(err) < 600

# -- concurrent writers ------------------------------------------------------------------------
def test_two_commands_writing_the_same_record_leave_one_whole_record(tmp_path):
    """Two matches with different seeds write one --record at the same moment: the file is
    one whole record (the last writer's), no temporary file is left."""
    import json

    path = tmp_path / "r.json"
    procs = [subprocess.Popen(kierki_command() + ["run", HEARTS, "--players", "random", "--seed", str(seed),
                                                 "--record", str(path), "--format", "json"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
             for seed in (1, 2)]
    try:
        errs = [p.communicate(timeout=120)[1].decode() for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    assert [p.returncode for p in procs] == [0, 0], errs
    rec = json.loads(path.read_text())
    assert rec["seed"] in (1, 2) and rec["deals"]
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


@settings(max_examples=40, deadline=None)
@given(writers=st.integers(2, 6), size=st.integers(0, 300_000))
def test_concurrent_atomic_writers_leave_one_whole_file(writers, size):
    import threading

    from kierki_dsl.paths import write_atomic

    tmp = tempfile.mkdtemp(dir=_DIR)
    path = os.path.join(tmp, "out.json")
    texts = [f"{k}:" + "x" * size for k in range(writers)]
    threads = [threading.Thread(target=write_atomic, args=(path, t)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert open(path).read() in texts and os.listdir(tmp) == ["out.json"]


# -- signals at start-up -----------------------------------------------------------------------
def _maps(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/maps") as f:
            return f.read()
    except OSError:
        return ""


def _interrupt_when(args: list, ready, stdout=subprocess.DEVNULL) -> tuple:
    """Start ``kierki ARGS``, poll until ``ready(pid)``, send SIGINT; (exit code, stderr)."""
    p = subprocess.Popen(kierki_command() + args, stdin=subprocess.DEVNULL, stdout=stdout,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        poll_until(lambda: ready(p.pid) or p.poll() is not None, timeout=60, what="the command's start-up")
        p.send_signal(signal.SIGINT)
        err = p.communicate(timeout=60)[1].decode("utf-8", "replace")
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        p.stderr.close()
    return p.returncode, err


SLOW_MATCH = ["run", HEARTS, "--players", "search:0.05s", "--seed", "1"]  # minutes: never over before the signal


def test_ctrl_c_while_the_ruleset_loads_is_exit_130_without_a_traceback():
    """SIGINT as soon as the command has loaded the YAML reader (it is reading the ruleset)."""
    code, err = _interrupt_when(SLOW_MATCH, lambda pid: "yaml/_yaml" in _maps(pid))
    assert code == 130, err
    assert "Traceback" not in err and err.strip().endswith("interrupted"), err


def test_ctrl_c_as_the_match_begins_is_exit_130_without_a_traceback(tmp_path):
    """SIGINT as soon as the match's header is printed."""
    out = tmp_path / "out.txt"
    with open(out, "wb") as f:
        code, err = _interrupt_when(SLOW_MATCH, lambda pid: out.stat().st_size > 0, stdout=f)
    assert code == 130, err
    assert "Traceback" not in err and err.strip().endswith("interrupted"), err


_EARLY = """import os, signal, sys
sys.argv = ["kierki", "run", {ruleset!r}, "--players", "random"]
import kierki_dsl.entry as entry
{hook}
sys.exit(entry.main())
"""
_DURING_IMPORT = """import importlib.abc
class Interrupt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "kierki_dsl.cli":
            os.kill(os.getpid(), signal.SIGINT)  # a real SIGINT while the command's modules load
        return None
sys.meta_path.insert(0, Interrupt())
"""


_IN_A_CALLBACK = """import weakref
class Thing:
    pass
thing = Thing()
def callback(_):
    raise KeyboardInterrupt  # where Python cannot raise it: it used to print a traceback and go on
keep = weakref.ref(thing, callback)
del thing
"""


@pytest.mark.parametrize("hook", ["os.kill(os.getpid(), signal.SIGINT)", _DURING_IMPORT, _IN_A_CALLBACK],
                         ids=["before-main", "importing-cli", "in-a-weakref-callback"])
def test_ctrl_c_before_main_and_while_the_cli_is_imported(hook):
    """The window the issue found: a real SIGINT after kierki's entry module loaded but before
    ``main`` ran, one while ``main`` imports the CLI (it was outside the try), and a Ctrl-C that
    lands in a callback (as one did inside an import lock's)."""
    p = subprocess.run([sys.executable, "-c", _EARLY.format(ruleset=HEARTS, hook=hook)], capture_output=True,
                       timeout=120, env={**os.environ, "PYTHONPATH": str(RULESETS.parent)})
    err = p.stderr.decode()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "kierki: interrupted" in err


def _cpu_ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("ticks", range(0, 40, 2))
def test_ctrl_c_at_every_moment_of_start_up(ticks):
    """SIGINT once the command has used ``ticks`` CPU ticks (polled): exit 130 or a Python that
    had not yet started; a traceback only from Python's own start-up (site, streams) or the
    console script's import line, never from kierki's code."""
    import re

    code, err = _interrupt_when(["lint", HEARTS] if ticks % 4 else ["run", HEARTS, "--players", "random"],
                                lambda pid: _cpu_ticks(pid) >= ticks)
    assert code in (0, 130, -signal.SIGINT) or "Fatal Python error" in err, (code, err)
    assert not re.search(r'File "[^"]*kierki_dsl/', err), err


def test_a_ctrl_c_raised_inside_the_unraisable_hook_is_sent_once_more_after_it(monkeypatch):
    """The hook re-sends a Ctrl-C that landed where Python cannot raise it; where that signal is
    raised at once, inside the hook (where it would be lost too), it is sent once more, later."""
    import threading
    import types

    from kierki_dsl import entry

    sent, later = [], threading.Event()

    def kill(pid, sig):
        sent.append(sig)
        if len(sent) == 1:
            raise KeyboardInterrupt  # (as the signal's handler does when it runs inside the hook)
        later.set()

    monkeypatch.setattr(entry.os, "kill", kill)
    entry._unraisable(lambda info: None)(types.SimpleNamespace(exc_value=KeyboardInterrupt()))
    assert later.wait(5) and sent == [signal.SIGINT, signal.SIGINT]
