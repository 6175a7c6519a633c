"""Each shipped phase declares its own action numbers, explain words and lint codes (issue #21 item 3).

- action numbers: every block is declared by a phase beside its engine (``NUMBERS`` of
  ``interpreter/bidding.py``, ``calling.py``, ``choice.py``, ``doubling.py``, ``exposure.py``,
  ``naming.py``); ``actions.py`` assembles them, refuses an overlap and numbers nothing itself but
  the cards;
- explain words: each phase of a contract (``Contract.phases``) says its own (``KEY``, ``WORDS_AT``,
  ``explain``); ``trickwords.py``, ``layoutwords.py`` and ``words.py`` read none of their keys;
- lint codes: each shipped unit's ``lint_codes`` are declared beside the checks that report them;
  ``codes.py`` holds none of them and refuses a code two phases claim;
- the OpenSpiel bounds and the search player's sampler ask the phases (adapter and bot hooks).

Each source check is also run on a copy with one central line put back, and fails there.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from kierki_dsl import codes, phases
from kierki_dsl.adapters.game import GameSpec
from kierki_dsl.interpreter import (
    actions,
    bidding,
    calling,
    choice,
    declarations,
    doubling,
    exposure,
    layout,
    naming,
    passing,
    stock,
    tricks,
    widow,
)
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.numbering import Block, assemble
from kierki_dsl.phases import PhaseUnit
from kierki_dsl.ruleset.model import Ruleset

PACKAGE = Path(__file__).resolve().parent.parent / "kierki_dsl"
RULESETS = PACKAGE.parent / "rulesets"
#: The phases' modules that number a shipped phase's actions.
NUMBERING = (bidding, calling, choice, doubling, exposure, naming)


# -- action numbers ------------------------------------------------------------------------------


def numbers_of_its_own(source: str) -> list:
    """The names a module assigns an action number to itself: a number written out, or a block
    made there (the cards' block and the added phases' are the table's own)."""
    own = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        literal = isinstance(value, ast.Constant) and isinstance(value.value, int)
        block = isinstance(value, ast.Call) and getattr(value.func, "id", "") == "Block"
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if (literal or block) and names != ["CARDS"]:
            own += names
    return own


def test_every_block_is_declared_by_a_phase_and_assembled():
    declared = [b for m in NUMBERING for b in m.NUMBERS]
    assert set(actions.NUMBERED) == {actions.CARDS, actions.ADDED, *declared}
    names = {u.name for u in phases.UNITS.values()}
    for b in declared:
        assert b.phase in names, b
        assert all(phases.UNITS[b.phase].owns(a) for a in (b.base, b.end - 1)), b
    assert actions.MAX_ACTION == bidding.BIDS.end - 1


def test_actions_py_numbers_nothing_itself():
    source = (PACKAGE / "interpreter" / "actions.py").read_text("utf-8")
    assert numbers_of_its_own(source) == []
    assert numbers_of_its_own(source + "\nBID_BASE = 1000\n") == ["BID_BASE"]
    assert numbers_of_its_own(source + '\nCALLS = Block("call", 53, 5)\n') == ["CALLS"]


def test_the_numbers_are_those_records_and_adapters_know():
    """Golden records, OpenSpiel action ids, SIK and the page keep their numbers."""
    assert (actions.PASS, actions.CALL_BASE, actions.NO_TRUMP, actions.DOUBLE_BASE, actions.REDOUBLE_BASE) == (
        52,
        53,
        57,
        58,
        66,
    )
    assert (actions.DONE, actions.ACCEPT, actions.REFUSE, actions.DECLINE, actions.NAME_BASE) == (74, 75, 76, 77, 80)
    assert (actions.CHOOSE_BASE, actions.CHOOSE_END, actions.ADDED_BASE, actions.ADDED_END) == (100, 500, 500, 900)
    assert (actions.EXPOSE_BASE, actions.BID_BASE, actions.MAX_BID, actions.MAX_ACTION) == (900, 1000, 100_000, 101_000)


def test_two_blocks_that_overlap_are_refused():
    with pytest.raises(ValueError, match="claimed by auction"):
        assemble(Block("auction", 1000, 10, "bids"), Block("mine", 1005, 3, "mine"))
    assert assemble(Block("b", 10, 2), Block("a", 0, 10)) == (Block("a", 0, 10), Block("b", 10, 2))


def test_every_number_a_block_holds_is_written_and_read_back():
    for b in actions.NUMBERED:
        if b is actions.ADDED:
            continue
        for a in (b.base, b.end - 1):
            assert actions.parse_action(actions.action_str(a)) == a, (b, a)


# -- explain words -------------------------------------------------------------------------------

WORDS_FILES = ("interpreter/trickwords.py", "interpreter/layoutwords.py", "words.py")
#: Reads of a phase's key the words of the deal type keep: a stock changes the game's and the
#: end's sentence (how many tricks), not the stock's own words.
READS_KEPT = {("interpreter/trickwords.py", "stock"): 1}


def phase_reads(text: str, keys) -> dict:
    """key -> how often ``text`` reads ``spec.<key>`` (a phase's part of a contract's spec)."""
    return {k: n for k in keys if (n := len(re.findall(rf"\bspec\.{k}\b", text)))}


def test_each_phase_of_a_contract_says_its_own_words():
    for contract_type in (tricks.TrickContract, layout.LayoutContract):
        assert contract_type.phases
        for phase in contract_type.phases:
            assert phase.KEY and phase.WORDS_AT in ("setup", "play", "scoring", "bets"), phase.__name__
            assert callable(phase.explain), phase.__name__
    assert set(tricks.TrickContract.phases) == {stock, passing, bidding, widow, declarations, exposure, doubling}


def test_the_words_of_a_deal_type_read_no_phase_of_their_own():
    keys = {p.KEY for p in tricks.TrickContract.phases}
    for rel in WORDS_FILES:
        text = (PACKAGE / rel).read_text("utf-8")
        kept = {k: n for (f, k), n in READS_KEPT.items() if f == rel}
        assert phase_reads(text, keys) == kept, rel
        assert phase_reads(text + "    if spec.auction is not None:\n", keys) != kept, rel
    trickwords = (PACKAGE / "interpreter" / "trickwords.py").read_text("utf-8")
    assert "_auction_words" not in trickwords and "_passing_words" not in trickwords


@pytest.mark.parametrize(
    "path, lang, aspect, words",
    [
        ("games/tysiac.yaml", "en", "auction", "before play, starting with"),
        ("games/hearts.yaml", "en", "passing", "before play every player passes"),
        ("games/barbu.yaml", "en", "doubling", "before the first card, in turn from the dealer's left"),
        ("games/barbu.yaml", "pl", "kontrowanie", "skontrować"),
        ("games/trix.yaml", "en", "exposure", "before play each player in turn may expose"),
    ],
)
def test_kierki_explain_says_each_phase_s_words(cli, path, lang, aspect, words):
    if not (RULESETS / path).exists():
        pytest.skip(f"{path} is not shipped")
    rc, out, err = cli("explain", "--lang", lang, str(RULESETS / path))
    assert rc == 0, err
    assert any(words in line for line in out.splitlines() if aspect in line.split(":")[0]), out


# -- lint codes ----------------------------------------------------------------------------------

#: The shipped units whose phase reports lint findings, and the phase's module that reports them.
CODE_OWNERS = {
    "auction": bidding,
    "expose": exposure,
    "double": doubling,
    "exchange": widow,
    "stock": stock,
    "declare": declarations,
    "pass": passing,
    "choose": choice,
    "layout": layout,
}


def central_codes(source: str, declared) -> set:
    """The codes of ``declared`` that ``source`` (codes.py) defines itself."""
    return set(re.findall(r'^\s*"([A-Z]\d{3})",$', source, re.M)) & set(declared)


def test_each_phase_declares_its_lint_codes_beside_its_checks():
    declared: dict = {}
    for unit in phases.UNITS.values():
        if unit.schema_key:
            continue
        for code, c in unit.lint_codes.items():
            assert isinstance(c, codes.Code) and c.code == code
            assert code not in declared, (code, declared.get(code), unit.name)
            declared[code] = unit.name
            assert codes.CODES[code] is c
    owners = {name for name in declared.values()}
    assert {u for u in owners} == {
        next(u.name for u in phases.UNITS.values() if u.lint_codes is m.LINT_CODES) for m in CODE_OWNERS.values()
    }
    assert {"M616", "M620", "M621", "M622", "M631", "M632"} <= set(declared)
    source = (PACKAGE / "codes.py").read_text("utf-8")
    assert central_codes(source, declared) == set()
    assert central_codes(source + '_add(\n    "M620",\n', declared) == {"M620"}


def test_a_code_two_phases_claim_is_refused():
    auction = phases.UNITS["auction"].lint_codes
    other = codes.Code("M620", "something else", "", "", "")
    with pytest.raises(ValueError, match="M620 of phase 'mine'"):
        codes.declare({"M620": other}, "mine")
    codes.declare(auction, "auction")  # the same codes again: the phase registered again
    assert codes.CODES["M620"] is auction["M620"]


def test_nobody_may_double_is_the_doubling_phase_s_check():
    assert '"M616"' not in (PACKAGE / "ruleset" / "semantics.py").read_text("utf-8")
    assert '"M616"' in (PACKAGE / "interpreter" / "doubling.py").read_text("utf-8")


# -- adapter and bot hooks -----------------------------------------------------------------------


def test_the_openspiel_bounds_are_the_phases():
    rs = Ruleset.load(str(RULESETS / "games" / "tysiac.yaml"))
    spec = GameSpec.make(rs)
    auctions = [c.auction for c in rs.contracts.values() if getattr(c, "auction", None) is not None]
    assert spec.num_actions == max(actions.bid(a.high) + 1 for a in auctions)
    unit = phases.UNITS["auction"]
    assert max(unit.action_end(c) for c in rs.contracts.values()) == spec.num_actions
    source = (PACKAGE / "adapters" / "game.py").read_text("utf-8")
    assert not re.search(r"\bc\.(auction|widow|exposure)\b", source)


def test_a_face_up_widow_lies_out_of_every_hand_until_it_is_taken():
    from kierki_dsl.players.search import sample_hands

    rs = Ruleset.load(str(RULESETS / "variants" / "auction_face_up.yaml"))
    m, rng = Match(rs, 3), random.Random(3)
    unit = phases.UNITS["exchange"]
    seen = 0
    for _ in range(1000):  # the auction's contract comes after seven deals of others
        view = m.view(m.to_move())
        lying = unit.out_of_hands(view)
        if view.widow and view.taker < 0:
            assert lying == sum(1 << c for c in view.widow)
            for hand in sample_hands(view, random.Random(seen)):
                assert not hand & lying
            seen += 1
        else:
            assert lying == 0
            if seen:
                break  # taken
        m.apply(rng.choice(view.legal))
    assert seen, "no view showed a face-up widow before it was taken"
    assert all(u.out_of_hands(view) == 0 for u in phases.UNITS.values() if u is not unit)
    assert isinstance(unit, PhaseUnit)
