"""A deal type is one unit: outside its own modules, nothing asks which deal type is playing.

The modules of each deal type are listed here; every other module of the package is searched
for comparisons of a contract's ``type`` and for checks of the deal types' classes.
"""
from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "kierki_dsl"

DEAL_TYPE_MODULES = {
    "tricks": ["tricks.py", "trickstate.py", "trickkernel.py", "trickchecks.py", "trickwords.py", "fastplay.py", "plan.py",
               "stepper.py", "solver.py", "solvepy.py"],  # the solver values trick play only
    "layout": ["layout.py", "layoutwords.py", "fastplay.py"],
    "declarer's choice": ["choice.py"],
}
OWN = {PACKAGE / "interpreter" / m for mods in DEAL_TYPE_MODULES.values() for m in mods}

BRANCHES = [
    re.compile(r"\.type\s*[!=]="),  # contract.type == "layout"
    re.compile(r"isinstance\([^)]*\b(TrickDeal|LayoutDeal|ChoiceDeal|TrickContract|LayoutContract|Choice)\b"),
    re.compile(r"[!=]=\s*[\"'](tricks|layout|choice)[\"']"),
]


def test_no_module_outside_the_deal_types_branches_on_the_deal_type():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in OWN:
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if "token.type" in code or "tok.type" in code or "op.type" in code:  # lexer tokens, not deal types
                continue
            if any(p.search(code) for p in BRANCHES):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    assert not found, "deal-type branches outside the deal types:\n" + "\n".join(found)


def test_the_search_finds_a_branch_where_there_is_one(tmp_path):
    line = 'if c.type == "layout":'
    assert any(p.search(line) for p in BRANCHES)
    assert any(p.search("isinstance(st, LayoutDeal)") for p in BRANCHES)


# -- a phase is one unit: front ends, players and adapters never ask which phase is playing ----------

#: Everything outside the phase modules and the engine that implements them (``interpreter``):
#: front ends, the session, players, adapters, tools and records. ``fastrecord.py`` is left out:
#: it steers the interpreter with the decisions of the generated trick kernels (``fastplay``),
#: which know trick play, passing and the trump call only — it is part of that engine.
OUTSIDE = sorted(
    p.relative_to(PACKAGE).as_posix()
    for p in PACKAGE.iterdir()
    if p.name not in ("phases", "interpreter", "fastrecord.py", "__pycache__")
    and (p.suffix == ".py" or (p.is_dir() and any(p.rglob("*.py"))))
)
FRONT_ENDS = OUTSIDE
_FIELDS = "layout|drawn|exposed|declarations|bets|auction|widow|stock|pool|free_passes_left|options|received"
PHASE_BRANCHES = [
    re.compile(r"\.phase\s*(==|!=|\bin\b|\bis\b)"),  # view.phase == "auction", v.phase === "call"
    re.compile(r"\bphase\s*(==|!=|\bis\b)"),  # phase == "pass"
    re.compile(r"\.layout\s+is\s+(not\s+)?None"),  # view.layout is not None
    re.compile(r"[!=]==?\s*[\"'](auction|expose|exchange|call|double|choose|pass|play|done|layout)[\"']"),
    re.compile(r"\bPhase\.[A-Z]+\b"),  # Phase.AUCTION
    re.compile(rf"\b(if|elif|and|or|not|while)\s+\(?v(iew)?\.({_FIELDS})\b\s*(:|\)|and\b|or\b|$)"),  # if view.drawn:
    re.compile(rf"(if\s*\(|&&|\|\||!)\s*v\.({_FIELDS})\b\s*(\)|&&|\|\||\?)"),  # JS: if (v.layout) / v.drawn &&
]
#: Files not cleaned yet: path -> (how many branching lines they may still hold, why). A file may
#: only lose lines (then lower its count here); a file not listed may hold none.
PHASE_BRANCHES_ALLOWED = {
    # adapters: none. What an action reveals, the information state's and observation's parts, the
    # cards a seat has not seen (resampling) are the phases' adapter hooks; OpenSpiel's chance nodes
    # (the first dealer, the cards) and the declarer's choice are stage objects of adapters/game.py
    # (``_Stage``: each answers for itself), not phases of the rules, and nothing compares them.
}


def _phase_branches() -> dict:
    """path (relative to the package) -> the lines that branch on a phase or on which view fields are present."""
    found: dict = {}
    for name in FRONT_ENDS:
        root = PACKAGE / name
        paths = sorted(root.rglob("*.py")) + sorted(root.rglob("*.js")) if root.is_dir() else [root]
        for path in paths:
            for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
                code = line.split("//", 1)[0] if path.suffix == ".js" else line.split("#", 1)[0]
                if any(p.search(code) for p in PHASE_BRANCHES):
                    found.setdefault(path.relative_to(PACKAGE).as_posix(), []).append(f"{n}: {line.strip()}")
    return found


def test_no_front_end_player_or_adapter_branches_on_a_phase():
    """Front ends render what a phase module declares (``kierki_dsl.phases``); they never ask which
    phase is playing nor which view fields are present. Files not cleaned yet are listed above."""
    problems = []
    for path, lines in sorted(_phase_branches().items()):
        allowed = PHASE_BRANCHES_ALLOWED.get(path, (0, ""))[0]
        if len(lines) > allowed:
            problems.append(f"{path}: {len(lines)} phase branches (allowed {allowed}):\n    " + "\n    ".join(lines))
    assert not problems, "phase branches outside the phase modules:\n" + "\n".join(problems)


def test_the_allow_list_shrinks_with_the_code():
    """An allow-list entry larger than what its file holds is lowered (or removed), so it cannot hide a new branch."""
    found = _phase_branches()
    stale = {p: (n, len(found.get(p, []))) for p, (n, _) in PHASE_BRANCHES_ALLOWED.items() if len(found.get(p, [])) < n}
    assert not stale, f"lower these allow-list counts (allowed, found): {stale}"


def test_the_phase_search_finds_a_branch_where_there_is_one():
    for line in ('if view.phase == "auction":', 'if (v.phase === "call") trump = 1;', "if view.layout is not None:",
                 "if (v.drawn && v.drawn.length) x();", "if (v.layout) {", "elif view.exposed:",
                 "if phase == Phase.PASS:", "while st.phase in (DEALER, DEALING):"):
        assert any(p.search(line) for p in PHASE_BRANCHES), line
    for line in ("return DealStarted(view.deal_number, view.phase)", "for s, c in view.exposed:",
                 "unit = phase_of(view)", 'doc["panels"] = phases.panels(view, rs)'):
        assert not any(p.search(line) for p in PHASE_BRANCHES), line
