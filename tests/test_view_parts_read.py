"""The seat view is read through its parts, never through the flat compatibility names (issue #21).

``SeatView`` is a common core plus one part per phase (``view.part(name)``; in the engine
``view.part_of(view, AuctionPart)`` and ``view.shown_part``; elsewhere a phase unit's hooks); the names the view had when it was one
flat record (``view.taker``, ``view.widow``, ``view.stock``, ...: ``view.COMPAT``) are kept as
read-only properties for users outside the package. No module of the package reads them: this
test parses every module of ``kierki_dsl/`` but ``interpreter/view.py`` (which defines the face)
and fails on a read of one of those names from a view.

What counts as a view (the names ``stock``, ``widow``, ``auction``, ``bid``, ... are also fields of
deal states, contracts and rounds, which are read freely):

- a name ``view`` or ``views[...]`` (the package's name for a seat view, everywhere);
- a parameter annotated ``SeatView``;
- a name assigned, in the same function (or module), from a call of a method named ``view``
  (``state.view(seat)``, ``super().view(seat)``), of ``seat_view(...)``, of ``SeatView(...)`` /
  ``SeatView.of`` / ``SeatView.from_json``, or of ``.with_part(...)``;
- such a call itself (``deal.view(seat).aside``).

The read may be ``view.name`` or ``getattr(view, "name"...)`` with the name written out.

Its limits: a view held under another name that is neither annotated nor assigned from one of
those calls (a parameter called ``obs``, an item of a list other than ``views``, an attribute
``self.last``, a view of the enclosing function read in a nested one under another name than
``view``), or read with a computed name (``getattr(view, name)``), is not seen. The
package's own reads of every name at once go through ``SeatView.flat`` / ``to_json`` (view.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

from kierki_dsl.interpreter.view import COMPAT

PACKAGE = Path(__file__).resolve().parent.parent / "kierki_dsl"
#: The module that defines the compatibility face (and reads it to write documents): not searched.
FACE = "interpreter/view.py"
#: The flat names, from the face itself.
FLAT_NAMES = frozenset(COMPAT)
#: Callables whose result is a seat view.
_VIEW_CALLS = {"view", "seat_view", "SeatView", "of", "from_json", "with_part"}


def _is_view_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in {"seat_view", "SeatView"}
    if isinstance(func, ast.Attribute):
        if func.attr in {"of", "from_json"}:
            return isinstance(func.value, ast.Name) and func.value.id == "SeatView"
        return func.attr in _VIEW_CALLS
    return False


def _annotated_view(annotation) -> bool:
    if annotation is None:
        return False
    text = ast.unparse(annotation)
    return "SeatView" in text


class _Scope(ast.NodeVisitor):
    """Collects, for one function (or a module's top level), the names that hold a view."""

    def __init__(self) -> None:
        self.names = {"view"}

    def visit_FunctionDef(self, node) -> None:  # a nested function is its own scope
        return

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        if _is_view_call(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.names.add(target.id)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and (
            _annotated_view(node.annotation) or (node.value is not None and _is_view_call(node.value))
        ):
            self.names.add(node.target.id)
        self.generic_visit(node)


def _holds_view(node: ast.AST, names: set) -> bool:
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id == "views"
    return _is_view_call(node)


def _reads(body: list, names: set) -> list:
    """(line, name) of every flat name read from a view in ``body`` (nested functions excluded)."""
    found = []
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr in FLAT_NAMES:
            if _holds_view(node.value, names):
                found.append((node.lineno, node.attr))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in FLAT_NAMES
            and _holds_view(node.args[0], names)
        ):
            found.append((node.lineno, node.args[1].value))
        todo.extend(ast.iter_child_nodes(node))
    return found


def flat_reads(source: str) -> list:
    """``(line, name)`` of every read of a compatibility name from a view in ``source``, sorted."""
    tree = ast.parse(source)
    found = []
    scopes: list = [(tree.body, [])]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            params = args.posonlyargs + args.args + args.kwonlyargs
            viewed = [a.arg for a in params if _annotated_view(a.annotation)]
            body = node.body if isinstance(node.body, list) else [node.body]
            scopes.append((body, viewed))
    for body, viewed in scopes:
        scope = _Scope()
        for stmt in body:
            scope.visit(stmt)
        found += _reads(body, scope.names | set(viewed))
    return sorted(set(found))


def scan(package: Path = PACKAGE) -> dict:
    """path (relative to ``package``) -> ``(line, name)`` of its reads of the flat names from a view."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel == FACE or "__pycache__" in rel:
            continue
        found = flat_reads(path.read_text("utf-8"))
        if found:
            out[rel] = found
    return out


def test_no_module_reads_the_view_through_its_flat_names():
    found = scan()
    assert not found, "reads of the seat view's flat compatibility names (read the phase's part):\n" + "\n".join(
        f"{path}:{line}: .{name}" for path, reads in found.items() for line, name in reads
    )


def test_the_names_searched_are_the_face_s_own():
    from kierki_dsl.interpreter.view import SeatView

    assert FLAT_NAMES == {name for name in vars(SeatView) if type(vars(SeatView)[name]).__name__ == "_Compat"}
    assert {"taker", "widow", "exchanged", "drawn", "passed", "passed_to", "exposed", "stock", "aside"} <= FLAT_NAMES


CAUGHT = [
    "def f(view):\n    return view.taker\n",
    "def f(state, seat):\n    v = state.view(seat)\n    return v.widow\n",
    "def f(deal, s):\n    return deal.view(s).aside\n",
    "def f(x: SeatView):\n    return x.auction\n",
    "def f(x: 'SeatView'):\n    return len(x.exposed)\n",
    "def f(views):\n    return views[0].stock\n",
    "def f(table):\n    mine = table.view(0)\n    return [c for c in mine.passed]\n",
    "def f(doc):\n    v = SeatView.from_json(doc)\n    return v.bid\n",
    "def f(view):\n    return getattr(view, 'drawn', ())\n",
    "class D:\n    def view(self, seat):\n        v = super().view(seat)\n        return v.exchanged\n",
]
NOT_CAUGHT = [
    "def f(deal):\n    return deal.stock\n",  # a deal state's own stock
    "def f(contract):\n    return contract.widow is None\n",  # a contract's rule
    "def f(view):\n    return view.part('exchange').taker\n",  # through the part
    "def f(view):\n    p = view.part('stock')\n    return p.drawn\n",
    "def f(state):\n    return state.auction.bid\n",
    "def f(view):\n    return view.hand, view.trick, view.scores\n",  # the core
    "def f(v):\n    return v.widow\n",  # a limit: a name never assigned a view
]


def test_the_search_finds_a_read_of_a_flat_name_and_only_of_a_view():
    for source in CAUGHT:
        assert flat_reads(source), source
    for source in NOT_CAUGHT:
        assert not flat_reads(source), source


def test_a_flat_name_put_back_fails(tmp_path):
    """Copies of modules that read the view's parts, each with one flat read put back: each found."""
    put_back = {
        "players/search.py": (
            "        out += unit.out_unseen(view)\n",
            "        out += unit.out_unseen(view)\n        out += view.stock * 0\n",
        ),
        "interpreter/widow.py": (
            "        deal.to_move = shown_part(view, WidowPart).taker\n",
            "        deal.to_move = view.taker\n",
        ),
        "interpreter/trickstate.py": (
            "        st.bid, st.bidder = bid_standing(view)\n",
            "        st.bid, st.bidder = view.bid, view.bidder\n",
        ),
    }
    for rel, (old, new) in put_back.items():
        text = (PACKAGE / rel).read_text("utf-8")
        assert text.count(old) == 1, (rel, old)
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.replace(old, new), "utf-8")
    found = scan(tmp_path)
    assert set(found) == set(put_back), found
    assert [name for _, name in found["players/search.py"]] == ["stock"]
    assert [name for _, name in found["interpreter/widow.py"]] == ["taker"]
    assert [name for _, name in found["interpreter/trickstate.py"]] == ["bid", "bidder"]
