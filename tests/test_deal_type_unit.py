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


# A phase is one unit as well: that nothing outside the phase modules and the engine asks which
# phase is playing is checked by tests/test_phase_unit_scan.py.
