"""A trick deal type is a list of phases (issue 21, item 1): each contract lists its phases before
play once (``interpreter/phaselist.py``), in the order play reaches them, and ``TrickDeal`` steps
that list without asking which phase is which: the phases a deal goes through are the list's,
and ``trickstate.py`` holds no branch on a shipped phase before play (a source scan, shown to
fail when such a branch is put back)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from conftest import RULESETS
from test_added_phase import unit  # noqa: F401  (the fixture registering phases_extra/face_down.py)

import kierki_dsl
from kierki_dsl.interpreter.match import deal_out, shuffled
from kierki_dsl.interpreter.phaseengine import PhaseEngine
from kierki_dsl.interpreter.phaselist import SHIPPED, phase_list
from kierki_dsl.interpreter.phases import Phase
from kierki_dsl.interpreter.trickstate import TrickDeal
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "kierki_dsl" / "interpreter"

#: (ruleset, contract) -> the phases before play its deals step through, in order.
LISTS = {
    ("games/hearts.yaml", "hand"): ("pass",),
    ("games/black_maria.yaml", "hand"): ("pass",),
    ("games/tysiac.yaml", "tysiac"): ("auction", "exchange"),
    ("variants/auction_face_up.yaml", "atu"): ("auction", "exchange", "call"),
    ("games/king_brazil.yaml", "trunfo"): ("auction", "call"),
    ("games/king_brazil.yaml", "vazas"): (),
    ("games/barbu.yaml", "no_tricks"): ("double",),
    ("games/barbu.yaml", "trumps"): ("call", "double"),
    ("games/trix.yaml", "king"): ("expose",),
    ("kierki_standard.yaml", "atu"): ("call",),
}


def _contract(path: str, name: str):
    rs = Ruleset.load(str(RULESETS / path))
    return rs, rs.contracts[name]


def _phases_seen(rs, contract, seed: int) -> list:
    """The phases before play of one seeded deal of random actions, in the order they decided."""
    rng = random.Random(seed)
    dealer = seed % rs.players
    st = contract.new_deal(
        rs.players, rs.deck, dealer, deal_out(shuffled(rng, rs.deck), dealer, rs.players), 1, 1 + seed
    )
    assert isinstance(st, TrickDeal)
    seen: list = []
    while not st.is_terminal():
        phase = str(st.phase)
        if phase != "play" and (not seen or seen[-1] != phase):
            seen.append(phase)
        st.apply_action(rng.choice(st.legal_actions()))
    return seen


@pytest.mark.parametrize("path, name", sorted(LISTS))
def test_each_contract_lists_its_phases_in_the_order_play_reaches_them(path, name):
    rs, contract = _contract(path, name)
    steps = phase_list(contract)
    assert tuple(str(e.phase) for e in steps) == LISTS[path, name]
    assert all(isinstance(e, PhaseEngine) for e in steps)
    assert phase_list(contract) is steps, "the list is made once per contract"


@pytest.mark.parametrize("path, name", sorted(LISTS))
def test_a_deal_steps_through_the_list_of_its_contract(path, name):
    """Every deal goes through the listed phases in the list's order (a phase with nothing to
    decide in a deal is skipped: no passing in a deal of the rotation's ``none``); over a few
    deals every listed phase decides."""
    rs, contract = _contract(path, name)
    listed = [str(e.phase) for e in phase_list(contract)]
    union: set = set()
    for seed in range(8):
        seen = _phases_seen(rs, contract, seed)
        assert seen == [p for p in listed if p in seen], (seed, seen, listed)
        union |= set(seen)
    assert union == set(listed)


def test_every_shipped_phase_before_play_is_in_the_list_of_engines():
    """The shipped phases before play are the engines ``phaselist.SHIPPED`` lists, each named by
    its own phase, in the order play reaches them."""
    assert [engine.phase for engine, _ in SHIPPED] == [
        Phase.PASS,
        Phase.AUCTION,
        Phase.EXCHANGE,
        Phase.CALL,
        Phase.DOUBLE,
        Phase.EXPOSE,
    ]


ADDED = """\
kierki: 1
name: passing then face down
players: 4
match: {schedule: [bez_lew]}
contracts:
  bez_lew:
    pl: Bez lew
    pass_cards: {count: 2, rotation: [left]}
    face_down: {points_each: -10}
    score: [{per_trick: -20}]
"""


def test_an_added_phase_is_in_the_list_after_the_shipped_ones(unit, tmp_path):  # noqa: F811  (a fixture)
    path = tmp_path / "added.yaml"
    path.write_text(ADDED, "utf-8")
    rs = kierki_dsl.load_ruleset(str(path))
    contract = rs.contracts["bez_lew"]
    steps = phase_list(contract)
    assert [str(e.phase) for e in steps] == ["pass", "face_down"]
    assert steps[-1].unit is unit
    for seed in range(3):
        assert _phases_seen(rs, contract, seed) == ["pass", "face_down"]


# -- trickstate.py holds no branch on a shipped phase before play ------------------------------

#: The phases before play that ship with the engine (card play and the deal's end are not among them).
PRE_PLAY = {p.name for p in (Phase.PASS, Phase.AUCTION, Phase.EXCHANGE, Phase.CALL, Phase.DOUBLE, Phase.EXPOSE)}
#: The contract fields and deal fields of those phases' rules and states.
PHASE_FIELDS = {"passing", "auction", "widow", "call", "doubling", "exposure", "betting", "exposures", "_passable"}
#: Where the seat view is built (``view``, ``_passed``, ``_parts``: the seat view's helper owns
#: them): they may read the phases' fields and the phase to show them, and nothing else may.
VIEW_BUILDERS = {"view", "_passed", "_parts"}
#: The methods that step the deal: no shipped phase's rule or state is read there, only engines
#: (they may set a field to its default).
STEPPING = {
    "__init__",
    "_enter",
    "_decide",
    "legal_actions",
    "why_illegal",
    "apply_action",
    "_finish_deal",
    "remember",
    "play_from_start",
    "clone",
    "from_view",
}


def phase_branches(source: str, fields: bool = True) -> list:
    """(function, line, what) of each place in ``source`` that names a shipped phase before play
    (``Phase.AUCTION``, or a module constant bound to one, such as ``AUCTION``) outside the seat
    view's builders, or (``fields``) that reads a shipped phase's rule or state in a stepping method."""
    tree = ast.parse(source)
    aliases = set()  # module names bound to a shipped phase: ``AUCTION = Phase.AUCTION``
    for node in tree.body:
        if isinstance(node, ast.Assign):
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            targets = node.targets[0].elts if isinstance(node.targets[0], ast.Tuple) else node.targets
            for t, v in zip(targets, values):
                if isinstance(t, ast.Name) and _names_phase(v):
                    aliases.add(t.id)
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or func.name in VIEW_BUILDERS:
            continue
        for node in ast.walk(func):
            if _names_phase(node) or isinstance(node, ast.Name) and node.id in aliases:
                found.append((func.name, node.lineno, ast.unparse(node)))
            elif (
                fields
                and func.name in STEPPING
                and isinstance(node, ast.Attribute)
                and node.attr in PHASE_FIELDS
                and isinstance(node.ctx, ast.Load)  # set to its default (``None``) is no branch
            ):
                found.append((func.name, node.lineno, ast.unparse(node)))
            elif isinstance(node, ast.Name) and node.id == "Added":  # the class of an added phase's name
                found.append((func.name, node.lineno, node.id))
    return found


def _names_phase(node) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr in PRE_PLAY
        and isinstance(node.value, ast.Name)
        and node.value.id == "Phase"
    )


def test_trickstate_holds_no_branch_on_a_shipped_phase_before_play():
    assert phase_branches((ENGINE / "trickstate.py").read_text()) == []
    # the widow's deal deals the widow aside (its rule read there) but never asks the phase
    assert phase_branches((ENGINE / "widowstate.py").read_text(), fields=False) == []


@pytest.mark.parametrize(
    "anchor, branch",
    [
        ("    def legal_actions(self) -> list[int]:\n", "        if self.phase == AUCTION:\n            return []\n"),
        (
            "    def why_illegal(self, action: int) -> Optional[str]:\n",
            "        if self.phase is Phase.EXPOSE:\n            return None\n",
        ),
        (
            "    def apply_action(self, action: int) -> None:\n",
            "        if self.auction is not None:\n            pass\n",
        ),
        ('    def clone(self) -> "TrickDeal":\n', "        if self.phase.__class__ is Added:\n            pass\n"),
    ],
)
def test_the_scan_fails_when_a_branch_is_put_back(anchor, branch):
    source = (ENGINE / "trickstate.py").read_text()
    if "AUCTION" in branch:
        source = source.replace(
            "PLAY, DONE = Phase.PLAY, Phase.DONE\n", "PLAY, DONE = Phase.PLAY, Phase.DONE\nAUCTION = Phase.AUCTION\n"
        )
    assert source.count(anchor) == 1
    at = source.index(anchor) + len(anchor)
    broken = source[:at] + branch + source[at:]
    ast.parse(broken)  # still Python
    found = phase_branches(broken)
    assert found, branch
    assert all(line > 0 for _, line, _ in found)
