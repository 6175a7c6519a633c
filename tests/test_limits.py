"""Bounds (issue 28 items 9 and 10): numeric options within documented limits (exit 2 before any
work), and JSON inputs whose cost is bounded and whose messages never echo a huge value."""
from __future__ import annotations

import json
import tracemalloc

import pytest

from kierki_dsl import jsonshape
from kierki_dsl.limits import MAX_SEED, OPTIONS

from conftest import RULESETS, run_cli, run_measured

HEARTS = str(RULESETS / "games" / "hearts.yaml")

OUT_OF_BOUNDS = [
    ("simulate", HEARTS, "--games", "999999999999"),
    ("simulate", HEARTS, "--games", "0"),
    ("simulate", HEARTS, "--workers", "99999999999"),
    ("simulate", HEARTS, "--seed", str(MAX_SEED + 1)),
    ("compare", HEARTS, HEARTS, "--games", "1000001"),
    ("run", HEARTS, "--seed", "-1"),
    ("ladder", HEARTS, "--seeds", "100001"),
    ("ladder", HEARTS, "--first-seed", "-5"),
    ("tournament", HEARTS, "--players", "random,simple", "--first-seed", str(MAX_SEED + 1)),
    ("tournament", HEARTS, "--players", "random,simple", "--seeds", "0"),
    ("serve", HEARTS, "--port", "65536"),
    ("serve", HEARTS, "--timeout", "nan"),
    ("serve", HEARTS, "--timeout", "0"),
    ("join", "localhost", "0", "--seat", "N"),
    ("join", "localhost", "99999999999999999999", "--seat", "N"),
    ("join", "localhost", "5", "--seat", "N", "--retry", "inf"),
    ("join", "localhost", "5", "--seat", "N", "--timeout", "-inf"),
    ("web", "--max-tables", "0"),
    ("web", "--idle", "1e300"),
    ("web", "--bot-delay", "nan"),
]


@pytest.mark.parametrize("args", OUT_OF_BOUNDS, ids=lambda a: " ".join(a[:1] + a[-2:]))
def test_an_option_out_of_its_bounds_is_a_usage_error_before_any_work(cli, args):
    code, out, err = cli(*args)
    assert code == 2, err
    option = next((a for a in args if a in OPTIONS), "port")
    assert err.startswith(f"kierki: error: {option} must be"), err
    assert out == "" and "Traceback" not in err


def test_every_bound_is_documented():
    from conftest import ROOT

    from kierki_dsl.limits import markdown_table

    page = (ROOT / "docs" / "limits.md").read_text("utf-8")
    assert markdown_table() in page  # the page shows the bounds the code enforces
    for option in OPTIONS:
        assert f"`{option}`" in page, option


def test_the_largest_seed_plays(cli):
    code, out, err = cli("run", HEARTS, "--players", "random", "--seed", str(MAX_SEED))
    assert code == 0, err


# -- JSON inputs: cost bounded, values cut ---------------------------------------------------
def test_a_long_string_costs_a_few_bytes_per_character_to_index():
    text = json.dumps({"a": "x" * 2_000_000, "b": ["\\\"" * 1000, {"c": 1}]})
    tracemalloc.start()
    try:
        value, lines = jsonshape.load(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert lines[("b", 1, "c")] == 1 and value["b"][0] == "\\\"" * 1000
    assert peak < 20 * len(text), peak  # it was about 130 bytes a character


def test_a_text_over_the_limit_is_refused_before_parsing():
    with pytest.raises(jsonshape.ShapeError, match="characters long"):
        jsonshape.load(" " * (jsonshape.MAX_TEXT + 1))


def test_a_long_string_value_is_refused_and_quoted_short():
    problem = jsonshape.check({"a": "y" * 100_000}, jsonshape.Obj({"a": jsonshape.Str()}))
    assert problem is not None and "100_000 characters long" in problem[1] and len(problem[1]) < 200


def _save_with_a_long_line(tmp_path, length: int):
    save = tmp_path / "s.save"
    rc, out, err, _ = run_cli("run", HEARTS, "--players", "random", "--seed", "1", "--save", str(save))
    assert rc == 0, err
    lines = save.read_text().split("\n")
    lines.insert(3, json.dumps({"deal": 1, "seat": 0, "action": "y" * length}))
    save.write_text("\n".join(lines))
    return save


@pytest.mark.parametrize("length", [5000, 20_000_000])
def test_a_save_with_a_huge_line_is_refused_cheaply_and_not_echoed(tmp_path, length):
    save = _save_with_a_long_line(tmp_path, length)
    rc, out, err, _, rss = run_measured("resume", str(save), timeout=60)
    assert rc == 1 and err.startswith(f"{save}:4: error: corrupt save file"), err[:300]
    assert len(err) < 400 and "yyyyyyyyyy" * 10 not in err
    assert rss < 300 * 1024, rss  # KiB; a 20 MB line took 2.9 GB


def test_a_record_with_a_16_mb_string_is_read_within_bounded_memory(tmp_path):
    record = tmp_path / "r.json"
    rc, out, err, _ = run_cli("run", HEARTS, "--players", "random", "--seed", "1", "--record", str(record))
    assert rc == 0, err
    rec = json.loads(record.read_text())
    rec["deals"][0]["contract"] = "x" * 15_000_000
    record.write_text(json.dumps(rec))
    rc, out, err, _, rss = run_measured("replay", str(record), "--ruleset", HEARTS, timeout=60)
    assert rc == 1 and "Traceback" not in err and len(err) < 400, err[:300]
    assert rss < 300 * 1024, rss
