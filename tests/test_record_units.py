"""Each phase records and replays its own section of a game record (issue 21, item 1: "how it is
recorded and replayed").

``record.py`` names no phase (the fitness scan of ``test_phase_unit_scan.py`` reads it): it writes
a deal's sections from the phases' ``record_section`` and replays a deal by asking the phase
deciding (``phases.phase_of``) for its next recorded entry. Here every section a shipped phase
writes — ``passes``, ``auction``, ``exchange``, ``bets`` (doubling, exposures), ``trump`` (the
call), ``plays`` — is written by its unit, replays, and when cut short, lengthened, garbled, given
the wrong shape or given to a deal without the phase, is refused with a violation located at its
deal (and seat where one decides), never an exception. A phase added by a module may name its own
section and is replayed through it.
"""

from __future__ import annotations

import copy
import itertools
import sys
from pathlib import Path

import pytest

import kierki_dsl
from kierki_dsl import phases
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.record import ReplayReport, deal_entry, match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS

TESTS = Path(__file__).resolve().parent

#: (ruleset, the deal (0-based) of a seeded random match that has the section, the section).
CASES = [
    ("games/hearts.yaml", 0, "passes"),
    ("games/tysiac.yaml", 0, "auction"),
    ("games/tysiac.yaml", 0, "exchange"),
    ("games/barbu.yaml", 0, "bets"),
    ("games/trix.yaml", 3, "bets"),
    ("games/king_brazil.yaml", 6, "auction"),
    ("variants/auction_face_up.yaml", 7, "exchange"),
    ("kierki_standard.yaml", 7, "trump"),
    ("kierki_standard.yaml", 0, "plays"),
]
SEED = 3


def _played(path: str, deals: int):
    rs = Ruleset.load(str(RULESETS / path))
    runner = MatchRunner(rs, [make_player("random") for _ in range(rs.players)], seed=SEED)
    results = list(itertools.islice(runner.deals(), deals))
    return rs, results, match_record(rs, SEED, runner.first_dealer, results)


@pytest.fixture(scope="module")
def played():
    cache: dict = {}

    def get(path: str, deals: int):
        if (path, deals) not in cache:
            cache[path, deals] = _played(path, deals)
        rs, results, record = cache[path, deals]
        return rs, results, copy.deepcopy(record)

    return get


def _refused(rs, record, deal: int) -> str:
    """The first violation of a record that must be refused at ``deal`` (1-based)."""
    report = replay(rs, record)
    assert isinstance(report, ReplayReport) and not report.ok, "the broken record was accepted"
    v = report.violations[0]
    assert v.deal == deal, str(v)
    return str(v)


def _unit(key: str):
    return next(u for u in phases.UNITS.values() if u.record_key == key)


def test_every_shipped_phase_that_decides_has_a_section():
    """Every phase with decisions of its own keeps them in a record; the declarer's choice is the
    match's ``contract``, a deal that is over decides nothing, and drawing from a stock or
    declaring (by the card led) are no decisions of their own."""
    without = {u.name for u in phases.UNITS.values() if not u.record_key}
    assert without == {"choose", "done", "stock", "declarations"}, "a phase with decisions has no record section"
    assert {u.record_key for u in phases.UNITS.values()} >= {"passes", "auction", "exchange", "bets", "trump", "plays"}


@pytest.mark.parametrize("path,deal,key", CASES)
def test_the_section_is_written_by_its_phase_and_replays(played, path, deal, key):
    rs, results, record = played(path, deal + 1)
    entry = record["deals"][deal]
    assert key in entry and entry[key] not in (None, []), f"deal {deal + 1} of {path} has no {key!r}"
    unit = _unit(key)
    written = unit.record_section(results[deal])
    if written is not None:  # ``trump`` and ``plays`` stand in every deal's head
        assert deal_entry(results[deal])[key] == written
    report = replay(rs, record)
    assert report.ok, [str(v) for v in report.violations]
    assert report.totals == list(results[-1].totals)


def _lane(entry: dict, key: str) -> list:
    """A list of the section's entries to cut or lengthen (a seat's, for passes)."""
    section = entry[key]
    return section[0] if section and isinstance(section[0], list) else section


@pytest.mark.parametrize("path,deal,key", [c for c in CASES if c[2] != "trump"])
def test_a_section_cut_short_or_lengthened_is_refused_where_it_breaks(played, path, deal, key):
    rs, _, record = played(path, deal + 1)
    short = copy.deepcopy(record)
    _lane(short["deals"][deal], key).pop()
    message = _refused(rs, short, deal + 1)
    assert "seat" in message, message  # located at the seat that had more to do
    longer = copy.deepcopy(record)
    lane = _lane(longer["deals"][deal], key)
    lane.append(lane[-1])
    _refused(rs, longer, deal + 1)


@pytest.mark.parametrize("path,deal,key", CASES)
@pytest.mark.parametrize("garbage", [7, "zz", {"a": 1}, "x" * 10_000])
def test_a_garbled_section_is_refused_not_crashed_on(played, path, deal, key, garbage):
    rs, _, record = played(path, deal + 1)
    whole = copy.deepcopy(record)
    whole["deals"][deal][key] = garbage
    message = _refused(rs, whole, deal + 1)
    assert len(message) < 400, "a hostile value is quoted, cut short"
    if key != "trump":
        one = copy.deepcopy(record)
        _lane(one["deals"][deal], key)[0] = garbage
        message = _refused(rs, one, deal + 1)
        assert len(message) < 400


@pytest.mark.parametrize("path,deal,key", [c for c in CASES if c[2] not in ("trump", "plays")])
def test_a_section_on_a_deal_without_the_phase_is_refused(played, path, deal, key):
    """A deal that never comes to the phase does not skip what the record says it did."""
    rs, _, record = played(path, 8)
    other = next((i for i, e in enumerate(record["deals"]) if not e.get(key)), None)
    if other is None:
        pytest.skip(f"every deal of the first 8 of {path} has {key!r}")
    record["deals"][other][key] = copy.deepcopy(record["deals"][deal][key])
    message = _refused(rs, record, other + 1)
    assert repr(key) in message or key in message, message


def test_a_wrong_trump_on_a_deal_without_a_call_is_refused(played):
    rs, _, record = played("kierki_standard.yaml", 1)
    record["deals"][0]["trump"] = "H"
    assert "this contract has no trumps" in _refused(rs, record, 1)


# -- a phase added by a module names its own section ------------------------------------------------

RULESET = """\
kierki: 1
name: face down, own section
players: 4
match: {schedule: [bez_lew]}
contracts:
  bez_lew:
    pl: Bez lew
    face_down: {points_each: -10}
    score: [{per_trick: -20}]
"""


@pytest.fixture
def own_section(tmp_path):
    """The face-down phase of ``phases_extra`` registered with a section of its own (``laid``)."""
    sys.path.insert(0, str(TESTS))
    try:
        from phases_extra import face_down
    finally:
        sys.path.remove(str(TESTS))
    unit = copy.copy(face_down.UNIT)
    unit.record_key, unit.record_rank = "laid", 60
    phases.register(unit)
    path = tmp_path / "face_down.yaml"
    path.write_text(RULESET, "utf-8")
    try:
        yield unit, kierki_dsl.load_ruleset(str(path))
    finally:
        phases.unregister(unit)


def test_an_added_phase_records_and_replays_under_the_section_it_names(own_section):
    unit, rs = own_section
    runner = MatchRunner(rs, [make_player("heuristic") for _ in range(4)], seed=5)
    results = list(runner.deals())
    record = match_record(rs, 5, runner.first_dealer, results)
    entry = record["deals"][0]
    assert "added" not in entry and len(entry["laid"]) == 4, entry.keys()
    assert list(entry).index("laid") > list(entry).index("plays"), "its rank puts it after the head"
    assert replay(rs, record).ok
    entry["laid"].pop()
    assert "the record's 'laid' ends before the phase face_down is over" in _refused(rs, record, 1)
