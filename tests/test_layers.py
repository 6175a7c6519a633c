"""The layers of kierki_dsl hold (docs/architecture.md).

- the import-linter contracts of pyproject.toml: every module in its layer, importing only
  its own layer and the layers below; no import cycle between the packages and modules;
- every import inside a function is listed in tests/data/inner_imports.txt with its reason,
  and the reason holds (``importgraph``: optional extra, circular import, start-up; or
  ``debt``, the ones there were, which may only go);
- every import of a package module names a module or a name that exists.
"""
from __future__ import annotations

import importlib

import pytest
from importgraph import LISTED, REASONS, imports, inner_pairs, read_listed, reasons

#: the imports inside functions without a reason when the list was made (2026-12-01)
DEBT_WHEN_LISTED = 45


def test_import_contracts_are_kept():
    """``lint-imports`` on the project's contracts, run as its own process: in-process it
    replaces the test's captured output streams (and closed them for every later test of the
    worker under pytest-xdist)."""
    pytest.importorskip("importlinter")
    import subprocess
    import sys
    from pathlib import Path

    from conftest import ROOT

    command = Path(sys.executable).with_name("lint-imports")
    got = subprocess.run([str(command), str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stdout + got.stderr
    assert "2 kept, 0 broken" in got.stdout


def test_every_import_inside_a_function_is_listed():
    found = inner_pairs(imports())
    listed = read_listed()
    missing = sorted(set(found) - set(listed))
    gone = sorted(set(listed) - set(found))
    assert not missing, ("imports inside functions that tests/data/inner_imports.txt does not list (add "
                         "each with its reason: `python tests/importgraph.py --write`, then review; or "
                         "import at the top):\n"
                         + "\n".join(f"{m} {t} (line {found[m, t][0]})" for m, t in missing))
    assert not gone, "listed in tests/data/inner_imports.txt but no longer imported inside a function:\n" + "\n".join(
        f"{m} {t}" for m, t in gone)
    assert set(listed.values()) <= set(REASONS)


def test_each_listed_reason_holds():
    listed = read_listed()
    wrong = []
    for pair, reason in sorted(reasons().items()):
        if reason is not None and pair in listed and listed[pair] != reason:
            wrong.append(f"{pair[0]} {pair[1]}: listed as {listed[pair]}, is {reason}")
    assert not wrong, ("reasons in tests/data/inner_imports.txt that do not hold (a 'debt' import "
                       "belongs at the top of its module):\n" + "\n".join(wrong))


def test_the_list_is_sorted_and_has_no_new_debt():
    lines = [line.split() for line in LISTED.read_text("utf-8").splitlines() if line.strip() and not line.startswith("#")]
    assert lines == sorted(lines)
    # the imports without a reason that there were when the list was made: fewer is fine
    assert sum(reason == "debt" for _, _, reason in lines) <= DEBT_WHEN_LISTED


def test_every_package_import_resolves():
    missing = []
    for module, target, line, _ in imports():
        if not target.startswith("kierki_dsl"):
            continue
        try:
            importlib.import_module(target)
        except ModuleNotFoundError:
            parent, _, name = target.rpartition(".")
            try:
                if hasattr(importlib.import_module(parent), name):
                    continue
            except ImportError:
                pass
            missing.append(f"{module}:{line} imports {target}")
        except ImportError:  # an optional extra missing here
            continue
    assert not missing, "\n".join(missing)
