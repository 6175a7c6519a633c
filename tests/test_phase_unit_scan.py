"""Nothing outside the phase modules asks which phase is playing (issue #21 item 2): every
module of the package outside ``phases/`` (the phase modules) and ``interpreter/`` (the engine, whose phase modules and dispatch are the
phases' own) is searched, the browser's scripts included, for more ways of asking:

- a phase compared by name or by ``Phase`` member, a ``match`` on a phase or a ``case`` naming one;
- a view field or a contract part tested for presence: ``is None``, ``is not None``, truthiness,
  ``len(...)``, ``getattr``/``hasattr`` with the field's name, JavaScript's ``null`` checks,
  ``&&``, ``?:`` and ``.length``; an added phase's part looked up by name in ``view.parts``;
- ``isinstance`` on a phase unit's class.

The files still holding such lines are listed in ``REMAINING`` with how many and why; a count
may only go down (the test fails when a file holds more, or fewer than its entry says).
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "kierki_dsl"
#: The phases' own modules and the engine that steps them: not searched.
OWN = ("phases", "interpreter")

#: View fields (``interpreter/view.py``) and contract parts that only some phases fill.
FIELDS = (
    "layout|drawn|drew|exposed|declarations|bets|auction|widow|stock|pool|free_passes_left|options|received|passed"
    "|passed_to|bid|bidder|seller|taker|exchanged|aside|moves|opening_rank|exposure|doubling|passing|call|choose"
)
_V = r"\b(?:v|view|seat_view|sv|last|obs|self\.view)"
PATTERNS = [
    re.compile(r"\.phase\s*(==|!=|\bin\b|\bis\b)"),  # view.phase == "auction", state.phase in (...)
    re.compile(r"\bphase\s*(==|!=|\bis\b)"),  # phase == "pass"
    re.compile(r"\bPhase\.[A-Z]+\b"),  # Phase.AUCTION
    re.compile(r"[!=]==?\s*[\"'](auction|expose|exchange|call|double|choose|pass|play|done|layout|name|stock)[\"']"),
    re.compile(r"\b(unit|phase_of\([^)]*\))\.name\s*[!=]==?\s*[\"']"),  # unit.name == "auction"
    re.compile(r"^\s*match\s+\S*phase\b"),  # match view.phase:
    re.compile(r"^\s*case\s+[\"'](auction|expose|exchange|call|double|choose|pass|play|done|layout)[\"']"),
    re.compile(rf"\.({FIELDS})\s+is\s+(not\s+)?None\b"),  # view.layout is not None, contract.auction is None
    re.compile(rf"\b(if|elif|and|or|not|while)\s+\(?(len\()?{_V}\.({FIELDS})\b\)?\s*(:|\)|and\b|or\b|>|!=|==|$)"),
    re.compile(rf"\b(getattr|hasattr)\([^,]+,\s*[\"']({FIELDS})[\"']"),  # hasattr(view, "auction")
    re.compile(r"[\"']\w+[\"']\s+(not\s+)?in\s+\S*\.parts\b"),  # "face_down" in view.parts
    re.compile(r"isinstance\([^)]*\b\w*Unit\b"),  # isinstance(unit, AuctionUnit)
    # the browser's scripts
    re.compile(rf"\bv\.({FIELDS})\b(\.length)?\s*(!==?|===?)\s*(null|undefined)"),  # v.auction != null
    re.compile(rf"(if\s*\(\s*!?|&&\s*!?|\|\|\s*!?)v\.({FIELDS})\b(\.length)?\s*(\)|&&|\|\||\?|>)"),  # if (v.layout)
    re.compile(rf"\bv\.({FIELDS})\b(\.length)?\s*(&&|\?[^.?])"),  # v.widow && ..., v.widow ? a : b
]

#: path -> (lines it may still hold, why). Only ever lowered.
REMAINING = {
    # the model's checks: a schedule entry is a contract or a declarer's choice
    "ruleset/model.py": (1, "a schedule entry's declarer's choice (entry.choose)"),
    "ruleset/semantics.py": (1, "a schedule entry's declarer's choice (entry.choose)"),
}


def branches(package: Path = PACKAGE) -> dict:
    """path (relative to ``package``) -> the lines that ask which phase is playing."""
    found: dict = {}
    for path in sorted(package.rglob("*")):
        rel = path.relative_to(package)
        if rel.parts[0] in OWN or path.suffix not in (".py", ".js") or "__pycache__" in rel.parts:
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            code = line.split("//", 1)[0] if path.suffix == ".js" else line.split("#", 1)[0]
            if "token.type" in code or "tok.type" in code:  # the expression lexer's tokens
                continue
            if any(p.search(code) for p in PATTERNS):
                found.setdefault(rel.as_posix(), []).append(f"{n}: {line.strip()}")
    return found


def test_nothing_outside_the_phase_modules_asks_which_phase_is_playing():
    found = branches()
    problems = [
        f"{path}: {len(lines)} (listed: {REMAINING.get(path, (0, ''))[0]})\n    " + "\n    ".join(lines)
        for path, lines in sorted(found.items())
        if len(lines) != REMAINING.get(path, (0, ""))[0]
    ]
    problems += [f"{path}: listed with {n}, holds none" for path, (n, _) in REMAINING.items() if path not in found]
    assert not problems, "phase branches outside the phase modules (lower REMAINING when one goes):\n" + "\n".join(
        problems
    )


CAUGHT = [
    'if view.phase == "auction":',
    "if view.phase in ('auction', 'call'):",
    "if view.phase != PLAY:",
    "if phase == Phase.PASS:",
    'if v.phase === "call") trump = 1;',
    'if unit.name == "auction":',
    'if phases.phase_of(view).name == "auction":',
    "match view.phase:",
    '    case "auction":',
    "if view.layout is not None:",
    "if view.auction is not None:",
    "x = view.widow is None",
    "if contract.auction is not None:",
    "if view.layout:",
    "elif view.widow:",
    "if not view.exposed:",
    "if view.bets and x:",
    "if len(view.widow) > 0:",
    "if view.free_passes_left != ():",
    "if self.view.stock:",
    'if getattr(view, "layout", None) is not None:',
    'if hasattr(view, "auction"):',
    'if "face_down" in view.parts:',
    "if isinstance(unit, AuctionUnit):",
    "if (v.layout) {",
    "if (!v.widow) return;",
    "if (v.auction != null) {",
    "if (v.layout !== null) {",
    "if (v.drawn && v.drawn.length) x();",
    "if (v.received.length > 0) show();",
    "const w = v.widow ? 1 : 0;",
    "v.exposed && draw(v.exposed);",
]
NOT_CAUGHT = [
    "return DealStarted(view.deal_number, view.phase)",
    "for s, c in view.exposed:",
    "unit = phase_of(view)",
    'doc["panels"] = phases.panels(view, rs)',
    "if view.trick:",
    "for (const [s, c] of v.trick) {}",
    "rows = unit.panel(view, rules)",
    "const hand = v.hand;",
]


def test_the_search_finds_every_way_of_asking():
    for line in CAUGHT:
        assert any(p.search(line) for p in PATTERNS), line
    for line in NOT_CAUGHT:
        assert not any(p.search(line) for p in PATTERNS), line


def test_a_branch_added_to_a_front_end_file_fails(tmp_path):
    """A copy of the package's front ends with one branch added to each: each is found where it was put."""
    added = {
        "web/rooms.py": "        if view.auction is not None:\n            pass\n",
        "web/static/table.js": "if (v.widow != null) { show(v.widow); }\n",
        "net/server.py": '        if view.phase == "auction":\n            pass\n',
        "cli.py": '    if hasattr(view, "layout"):\n        pass\n',
        "ismcts.py": "        if view.layout:\n            pass\n",
        "vecenv.py": "    if len(view.widow) > 0:\n        pass\n",
    }
    for rel, text in added.items():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((PACKAGE / rel).read_text("utf-8") + text, "utf-8")
    before = branches()
    after = branches(tmp_path)
    for rel in added:
        assert len(after.get(rel, [])) == len(before.get(rel, [])) + 1, (rel, after.get(rel))
