"""The imports of kierki_dsl read from its source: which sit inside functions, and why.

An import inside a function is allowed only with a reason that holds (``tests/test_layers.py``
checks every one against ``tests/data/inner_imports.txt``). The reason of each (module,
imported module) pair is decided here from the code itself, never written by hand:

- ``optional``: a package of an optional extra (``pip install 'kierki-dsl[web]'`` ...), loaded
  only where it is used so the rest works without it;
- ``cycle``: the imported module imports the importing one when loaded (a plug-in registry
  loading its plug-ins, two modules of a package that need each other): at the top it would
  be a circular import;
- ``start-up``: loading the importing module does not load the imported one, so the function
  keeps it (and what it imports) out of the start-up of every command that does not call it;
- ``debt``: nothing needs it inside a function: loading the importing module already loads
  the imported one. Such an import belongs at the top of its module; the list only records
  the ones there were when the list was made, so that no new one comes in.

``python tests/importgraph.py`` prints the list as the code stands, ``--write`` writes it (review
the difference: a new ``debt`` line is an import to move to the top of its module).
"""
from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kierki_dsl"
LISTED = Path(__file__).resolve().parent / "data" / "inner_imports.txt"

#: the top-level names of the packages the optional extras of pyproject.toml bring
OPTIONAL = frozenset({"numpy", "open_spiel", "pyspiel", "starlette", "uvicorn", "websockets", "psycopg",
                      "dask", "distributed", "matplotlib", "pettingzoo", "gymnasium"})
REASONS = ("optional", "cycle", "start-up", "debt")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict:
    """Module name -> its source file, for every module of the package."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _targets(node, here: str, is_package: bool, known: dict) -> list:
    """The modules an import statement loads (a name imported from a module is that module)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = here.split(".") if is_package else here.split(".")[:-1]
    if node.level > len(base):  # above the top of the package: names no module of it
        source = "kierki_dsl.<relative import above the package>." + (node.module or "")
    elif node.level:
        base = base[: len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{source}.{alias.name}"
        out.append(sub if sub in known else source)
    return out


def _typing_only(node) -> bool:
    """``if TYPE_CHECKING:``: a block the type checker reads and Python never runs."""
    test = getattr(node, "test", None) if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node, module: str, is_package: bool, known: dict, where: str, rows: list) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            for target in _targets(child, module, is_package, known):
                rows.append((module, target, child.lineno, where))
        inside = where
        if where == "top" and _typing_only(child):
            inside = "typing"
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inside = "function"
        _walk(child, module, is_package, known, inside, rows)


@functools.lru_cache(maxsize=1)
def imports() -> tuple:
    """(module, imported module, line, where) for every import statement; where: "top" (run
    when the module loads), "function" (inside a function) or "typing" (under TYPE_CHECKING)."""
    known = _modules()
    rows: list = []
    for name, path in known.items():
        _walk(ast.parse(path.read_text("utf-8")), name, path.name == "__init__.py", known, "top", rows)
    return tuple(rows)


def _parents(module: str) -> list:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def top_level_graph(rows: list) -> dict:
    """Module -> the package modules loading it loads at once (its parents, its top imports)."""
    graph: dict = {}
    for module, target, _, where in rows:
        graph.setdefault(module, set()).update(p for p in _parents(module)[:-1])
        if where == "top" and target.startswith("kierki_dsl"):
            graph[module].update(p for p in _parents(target) if p in graph or p.startswith("kierki_dsl"))
    return graph


def closure(graph: dict, start: str) -> set:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        for p in _parents(m):
            if p not in seen:
                seen.add(p)
                todo.extend(graph.get(p, ()))
    return seen


def inner_pairs(rows: list) -> dict:
    """(module, imported module) -> the lines of its imports inside functions."""
    pairs: dict = {}
    for module, target, line, where in rows:
        if where == "function":
            pairs.setdefault((module, target), []).append(line)
    return pairs


_PROBE = r"""
import importlib, json, os, sys
asked = json.load(sys.stdin)
out = {}
for module, targets in asked.items():
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            importlib.import_module(module)
            got = [t for t in targets if t in sys.modules]
        except BaseException:
            got = None
        os.write(w, json.dumps(got).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    out[module] = json.loads(data or b"null")
print(json.dumps(out))
"""


def loaded_with(asked: dict) -> dict:
    """Module -> which of the asked modules loading it loads (None: it cannot be imported here),
    each module imported alone in a fresh child of one clean interpreter."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", _PROBE], input=json.dumps(asked), capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=600, check=True)
    return json.loads(done.stdout)


def reasons() -> dict:
    """(module, imported module) -> the reason its imports inside functions have (None: the
    importing module cannot be imported here, e.g. an extra is missing: not decided)."""
    rows = imports()
    graph = top_level_graph(rows)
    pairs = inner_pairs(rows)
    asked: dict = {}
    for module, target in pairs:
        asked.setdefault(module, []).append(target)
    loaded = loaded_with(asked)
    out = {}
    for (module, target) in pairs:
        if target.split(".")[0] in OPTIONAL:
            out[module, target] = "optional"
        elif target.startswith("kierki_dsl") and module in closure(graph, target):
            out[module, target] = "cycle"
        elif loaded.get(module) is None:
            out[module, target] = None
        else:
            out[module, target] = "debt" if target in loaded[module] else "start-up"
    return out


def read_listed(path: Path = LISTED) -> dict:
    """(module, imported module) -> reason, as the list says."""
    listed = {}
    for line in path.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            module, target, reason = line.split()
            listed[module, target] = reason
    return listed


def render(found: dict, old: dict) -> str:
    """The list file: a header, then one line per pair (an undecided reason keeps the old one)."""
    head = [line for line in LISTED.read_text("utf-8").splitlines() if line.startswith("#")] if LISTED.exists() else []
    width = max(len(m) for m, _ in found) + 2
    twidth = max(len(t) for _, t in found) + 2
    lines = [f"{m:<{width}}{t:<{twidth}}{found[m, t] or old.get((m, t), 'start-up')}" for m, t in sorted(found)]
    return "\n".join(head + lines) + "\n"


if __name__ == "__main__":
    text = render(reasons(), read_listed() if LISTED.exists() else {})
    if sys.argv[1:] == ["--write"]:
        LISTED.write_text(text, "utf-8")
    else:
        print(text, end="")
