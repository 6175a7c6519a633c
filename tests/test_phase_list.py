"""A deal type is a list of phases (issue 21, item 1): each contract lists its phases before
play once (``interpreter/phaselist.py``), in the order play reaches them, and the deal steps
that list without asking which phase is which (``phasesteps.PhaseSteps``, one stepper shared by
every deal type), then plays its own way: a trick deal (and the stock-drawing deal built on it)
plays tricks, a layout deal lays rows (after the naming of the opening rank and the doubling),
a declarer's choice hands on to the chosen contract's deal. The phases a deal goes through are
the list's, and no deal type's module holds a branch on a shipped phase before play (a source
scan, shown to fail when such a branch is put back)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from conftest import RULESETS
from test_added_phase import unit  # noqa: F401  (the fixture registering phases_extra/face_down.py)

import kierki_dsl
from kierki_dsl.interpreter.choice import CHOOSE_BASE, ChoiceDeal
from kierki_dsl.interpreter.layout import LayoutDeal
from kierki_dsl.interpreter.match import deal_out, shuffled
from kierki_dsl.interpreter.phaseengine import PhaseEngine
from kierki_dsl.interpreter.phaselist import SHIPPED, PhaseList, phase_list
from kierki_dsl.interpreter.phases import Phase
from kierki_dsl.interpreter.phasesteps import PhaseSteps
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.interpreter.stockstate import StockDeal
from kierki_dsl.interpreter.trickstate import TrickDeal
from kierki_dsl.lint import lint_file
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


def _new_deal(rs, contract, seed: int, rng):
    dealer = seed % rs.players
    dealt = deal_out(shuffled(rng, rs.deck), dealer, rs.players)
    return contract.new_deal(rs.players, rs.deck, dealer, dealt, 1, 1 + seed, {})


def _phases_seen(rs, contract, seed: int, kind=TrickDeal) -> list:
    """The phases before play of one seeded deal of random actions, in the order they decided
    (a declarer's choice hands on to the chosen contract's deal: its phases follow the choice's)."""
    rng = random.Random(seed)
    st = _new_deal(rs, contract, seed, rng)
    assert isinstance(st, kind) and isinstance(st, PhaseSteps)
    seen: list = []
    while not st.is_terminal():
        phase = str(st.phase)
        if phase != "play" and (not seen or seen[-1] != phase):
            seen.append(phase)
        st.apply_action(rng.choice(st.legal_actions()))
        st = st.current_deal()
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
    _goes_through(rs, contract, [str(e.phase) for e in phase_list(contract)], TrickDeal)


def _goes_through(rs, contract, listed, kind) -> None:
    """Seeded deals of ``contract`` (states of class ``kind``) go through the phases ``listed``
    in their order (a phase with nothing to decide skipped), every one of them over 8 deals."""
    union: set = set()
    for seed in range(8):
        seen = _phases_seen(rs, contract, seed, kind)
        assert seen == [p for p in listed if p in seen], (seed, seen, listed)
        union |= set(seen)
    assert union == set(listed)


#: The shipped phases before play of a trick deal, in the order play reaches them.
TRICK_PRE_PLAY = (Phase.PASS, Phase.AUCTION, Phase.EXCHANGE, Phase.CALL, Phase.DOUBLE, Phase.EXPOSE)


def test_every_shipped_phase_before_play_is_in_the_list_of_engines():
    """The shipped phases before play are the engines ``phaselist.SHIPPED`` lists, each named by
    its own phase, in the order play reaches them."""
    assert [engine.phase for engine, _ in SHIPPED] == list(TRICK_PRE_PLAY)


def _ruleset(name: str, contract: str, rules: str) -> str:
    """A ruleset of one contract for four players: ``rules`` its lines (indented by four)."""
    return (
        f"kierki: 1\nname: {name}\nplayers: 4\nmatch: {{schedule: [{contract}]}}\ncontracts:\n  {contract}:\n" + rules
    )


ADDED = _ruleset(
    "passing then face down",
    "bez_lew",
    """\
    pl: Bez lew
    pass_cards: {count: 2, rotation: [left]}
    face_down: {points_each: -10}
    score: [{per_trick: -20}]
""",
)


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


# -- the other deal types: a layout, a stock-drawing deal, a declarer's choice ------------------

#: (ruleset, contract) of a shipped layout or stock-drawing contract -> its phases before play.
OTHER_LISTS = {
    ("games/barbu.yaml", "domino"): ("name", "double"),  # the declarer names the rank, then the bets
    ("games/trix.yaml", "trix"): (),
    ("kierki_standard.yaml", "loteryjka"): (),
    ("variants/fantan_pass_pool.yaml", "loteryjka"): (),
    ("variants/walc_chapanka.yaml", "loteryjka"): (),
    ("variants/kierki_dominowe.yaml", "dominowe"): (),
}
#: The deal state of each contract type there.
KINDS = {"layout": LayoutDeal, "tricks": StockDeal}


def _check_steps(rs, contract, listed: tuple, kind) -> None:
    """A deal of ``contract`` holds the list ``listed`` (made once per contract), and seeded
    deals go through it."""
    st = _new_deal(rs, contract, 0, random.Random(0))
    assert isinstance(st, kind)
    assert tuple(str(e.phase) for e in st.steps) == listed
    assert all(isinstance(e, PhaseEngine) for e in st.steps)
    assert _new_deal(rs, contract, 1, random.Random(1)).steps is st.steps, "the list is made once per contract"
    _goes_through(rs, contract, listed, kind)


@pytest.mark.parametrize("path, name", sorted(OTHER_LISTS))
def test_a_layout_or_stock_deal_steps_the_list_of_its_contract(path, name):
    rs, contract = _contract(path, name)
    _check_steps(rs, contract, OTHER_LISTS[path, name], KINDS[contract.type])


STOCK_PASSING = _ruleset(
    "passing before a stock",
    "dom",
    """\
    total: -13
    stock: {hand: 6, leftover: last_in}
    pass_cards: {count: 2, rotation: [left]}
    score: [{per_card: card.suit == hearts, points: -1}]
""",
)


def test_a_stock_deal_steps_the_phases_before_play_its_contract_has(tmp_path):
    """The stock-drawing deal is a trick deal with its own play: its list is the trick contract's."""
    path = tmp_path / "stock.yaml"
    path.write_text(STOCK_PASSING, "utf-8")
    rs = kierki_dsl.load_ruleset(str(path))
    contract = rs.contracts["dom"]
    _check_steps(rs, contract, ("pass",), StockDeal)
    assert _new_deal(rs, contract, 0, random.Random(0)).steps is phase_list(contract)


#: Shipped rulesets with a declarer's choice in their schedule.
CHOICES = ("games/barbu.yaml", "games/trix.yaml", "variants/declarer_chooses_negatives.yaml")


@pytest.mark.parametrize("path", CHOICES)
def test_a_declarers_choice_is_a_list_of_one_phase_that_hands_on_to_the_chosen_deal(path):
    """The choice's list is the choice; its play is the chosen contract's deal, which goes on
    through that contract's own list."""
    rs = Ruleset.load(str(RULESETS / path))
    slot = next(s for s in map(rs.contract_at, range(64)) if s.type == "choice")
    chosen: set = set()
    for seed in range(8):
        rng = random.Random(seed)
        st = _new_deal(rs, slot, seed, rng)
        assert isinstance(st, ChoiceDeal)
        assert [str(e.phase) for e in st.steps] == ["choose"] and str(st.phase) == "choose"
        assert isinstance(st.steps, PhaseList) and st.steps.named("choose") == 0  # a list like the others
        st.apply_action(rng.choice(st.legal_actions()))
        inner = st.current_deal()
        assert inner is not st and isinstance(inner, PhaseSteps)
        chosen.add(inner.contract.name)
        seen = _phases_seen(rs, slot, seed, ChoiceDeal)
        listed = [str(e.phase) for e in inner.steps]
        assert seen[0] == "choose" and seen[1:] == [p for p in listed if p in seen[1:]], (seed, seen, listed)
    assert len(chosen) > 1  # the seeds choose different contracts


def test_a_refused_choice_is_worded_by_the_choice_s_engine():
    """With no contract to ask (a choice's view names a schedule slot), a refused choice lists the
    options as the choice's engine names them (``view_name``); a front end's labels go first."""
    rs = Ruleset.load(str(RULESETS / CHOICES[0]))
    slot = next(s for s in map(rs.contract_at, range(64)) if s.type == "choice")
    st = _new_deal(rs, slot, 1, random.Random(1))
    view = st.view(st.current_player())
    options = [slot.options[a - CHOOSE_BASE].name for a in view.legal]
    assert illegal_reason(view, 0, None) == "a contract is to be chosen: " + ", ".join(options)
    assert illegal_reason(view, 0, None, str) == "a contract is to be chosen: " + ", ".join(map(str, view.legal))


LAYOUT_ADDED = _ruleset(
    "face down before a layout",
    "lot",
    """\
    type: layout
    face_down: {points_each: -10}
    prizes: [800, 500]
""",
)


def test_an_added_phase_cannot_come_before_a_layout(unit, tmp_path):  # noqa: F811  (a fixture)
    """A phase added by a module is a key of trick contracts only (``extensions``: ``tricks.Tricks.fields``):
    a layout contract naming it is refused, located (S201). A layout's list is built as a trick
    contract's is (its own naming first, then ``phase_list``: shipped, then added), so a schema
    that let a layout hold an added phase would step it; today none can."""
    path = tmp_path / "layout.yaml"
    path.write_text(LAYOUT_ADDED, "utf-8")
    found = [d for d in lint_file(str(path)) if d.severity == "error"]
    assert [d.code for d in found] == ["S201"] and "face_down" in found[0].message
    assert found[0].pos.line == 8


# -- no deal type's module holds a branch on a shipped phase before play -----------------------

#: The phases before play that ship with the engine (card play and the deal's end are not among
#: them): the trick deal's, a layout's naming of the opening rank, a declarer's choice.
PRE_PLAY_PHASES = TRICK_PRE_PLAY + (Phase.NAME, Phase.CHOOSE)
PRE_PLAY = {p.name for p in PRE_PLAY_PHASES}
#: Their names as a view or a record says them (``view.phase == "double"`` is a branch too).
PRE_PLAY_WORDS = {p.value for p in PRE_PLAY_PHASES}
#: The deal types' modules, each scanned: (file, whether its stepping may read no phase's rule or state).
SCANNED = (
    ("trickstate.py", True),
    ("phasesteps.py", True),
    ("stockstate.py", True),
    ("layout.py", True),
    ("choice.py", True),
    ("widowstate.py", False),  # the widow's deal deals the widow aside (its rule read there)
)
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
    "_start_play",
    "play_legal",
    "_finish",
    "_log",
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
            elif isinstance(node, ast.Compare) and any(
                isinstance(c, ast.Constant) and c.value in PRE_PLAY_WORDS for c in [node.left, *node.comparators]
            ):
                found.append((func.name, node.lineno, ast.unparse(node)))
    return found


def _names_phase(node) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr in PRE_PLAY
        and isinstance(node.value, ast.Name)
        and node.value.id == "Phase"
    )


@pytest.mark.parametrize("name, fields", SCANNED)
def test_no_deal_type_holds_a_branch_on_a_shipped_phase_before_play(name, fields):
    assert phase_branches((ENGINE / name).read_text(), fields=fields) == []


@pytest.mark.parametrize(
    "name, anchor, branch",
    [
        (
            "trickstate.py",
            "    def legal_actions(self) -> list[int]:\n",
            "        if self.phase == AUCTION:\n            return []\n",
        ),
        (
            "trickstate.py",
            "    def why_illegal(self, action: int) -> Optional[str]:\n",
            "        if self.phase is Phase.EXPOSE:\n            return None\n",
        ),
        (
            "trickstate.py",
            "    def apply_action(self, action: int) -> None:\n",
            "        if self.auction is not None:\n            pass\n",
        ),
        (
            "trickstate.py",
            '    def clone(self) -> "TrickDeal":\n',
            "        if self.phase.__class__ is Added:\n            pass\n",
        ),
        (
            "layout.py",
            "    def legal_actions(self) -> list[int]:\n",
            "        if self.phase == Phase.NAME:\n            return []\n",
        ),
        (
            "layout.py",
            "    def play_legal(self, action: int) -> None:\n",
            "        if self.betting is not None and not self.betting.finished:\n            pass\n",
        ),
        (
            "layout.py",
            '    def from_view(cls, contract: LayoutContract, view: SeatView, hands: list) -> "LayoutDeal":\n',
            '        phase = "name" if view.phase == "name" else "play"\n',
        ),
        (
            "stockstate.py",
            "    def play_legal(self, action: int) -> None:\n",
            "        if self.phase is Phase.PASS:\n            pass\n",
        ),
        (
            "choice.py",
            "    def current_player(self) -> int:\n",
            "        if self.phase is Phase.CHOOSE:\n            return self.chooser\n",
        ),
        (
            "phasesteps.py",
            "    def _enter(self, i: int) -> None:\n",
            "        if self.phase is Phase.DOUBLE:\n            pass\n",
        ),
    ],
)
def test_the_scan_fails_when_a_branch_is_put_back(name, anchor, branch):
    source = (ENGINE / name).read_text()
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
