"""The shipped rulesets travel in the wheel: an installed kierki-dsl (not a checkout) offers them in
``kierki web`` and ``kierki join`` finds its default ruleset, from any working directory."""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, RULESETS, run_cli

SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "CHANGELOG.md", "kierki_dsl", "rulesets")


def _copy_sources(src) -> None:
    """What a source distribution is made from, copied without build products."""
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "static_test*",
                                                                                "*.so", "*.pyd"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(source, src / name)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel built from a copy of the sources (setuptools, no network: --no-build-isolation),
    unpacked as pip installs a pure wheel: (site folder, wheel path)."""
    pytest.importorskip("setuptools", reason="building the wheel needs setuptools (the [test] extra has it)")
    pytest.importorskip("wheel", reason="building the wheel needs wheel (the [test] extra has it)")
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    _copy_sources(src)
    got = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                          "-q", "-w", str(base / "dist"), str(src)], capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    (wheel,) = (base / "dist").glob("kierki_dsl-*.whl")
    site = base / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    return site, wheel


def _run_installed(site, code: str, cwd) -> str:
    """Run ``code`` with the unpacked wheel first on the path, from ``cwd`` (not the checkout)."""
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONSAFEPATH="1")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd, env=env)
    assert got.returncode == 0, got.stderr
    return got.stdout


@pytest.mark.slow
def test_the_wheel_carries_every_shipped_ruleset(installed):
    site, wheel = installed
    with zipfile.ZipFile(wheel) as z:
        inside = {n[len("kierki_dsl/rulesets/"):] for n in z.namelist() if n.startswith("kierki_dsl/rulesets/")}
    shipped = {p.relative_to(RULESETS).as_posix() for p in RULESETS.rglob("*.yaml")}
    assert shipped and inside == shipped


@pytest.mark.slow
def test_the_wheel_builds_the_step_core_where_it_can(installed, tmp_path):
    """``kierki_dsl.interpreter._cstep`` is compiled into the wheel where a C compiler and
    Python's headers exist (CI: KIERKI_REQUIRE_C=1 requires it), and the installed package
    steps on it."""
    site, wheel = installed
    with zipfile.ZipFile(wheel) as z:
        built = [n for n in z.namelist() if n.startswith("kierki_dsl/interpreter/_cstep")]
    if not built:
        assert not os.environ.get("KIERKI_REQUIRE_C"), "the wheel has no compiled step core"
        pytest.skip("no C compiler or Python headers here: the wheel steps on the interpreter")
    code = ("import kierki_dsl.interpreter.stepper as s, kierki_dsl.interpreter._cstep as c\n"
            "print(s.available(), c.__file__)\n")
    available, where = _run_installed(site, code, tmp_path).split()
    assert available == "True" and where.startswith(str(site))


@pytest.mark.slow
def test_an_installed_package_finds_its_rulesets_from_another_folder(installed, tmp_path):
    site, _ = installed
    code = ("import json, os, kierki_dsl, kierki_dsl.shipped as s\n"
            "from kierki_dsl.web.catalogue import Catalogue\n"
            "print(json.dumps({'package': kierki_dsl.__file__, 'dir': s.rulesets_dir(),\n"
            "  'sik': os.path.isfile(s.shipped_ruleset('games/sik.yaml')),\n"
            "  'listed': [e['id'] for e in Catalogue().list()]}))\n")
    doc = json.loads(_run_installed(site, code, tmp_path))
    assert doc["package"].startswith(str(site)), "the checkout was imported, not the installed wheel"
    assert doc["dir"] == os.path.join(str(site), "kierki_dsl", "rulesets") and doc["sik"]
    listed = set(doc["listed"])
    assert {"kierki_standard.yaml", "games/sik.yaml", "games/barbu.yaml", "variants/jacks_only.yaml"} <= listed
    assert len(listed) == len(list(RULESETS.rglob("*.yaml")))


@pytest.mark.slow
def test_kierki_web_of_an_installed_package_lists_the_rulesets(installed, tmp_path):
    """The real command: ``kierki web`` from the unpacked wheel, started in an empty folder."""
    pytest.importorskip("httpx")
    import httpx

    from test_web_cli import read_address

    site, _ = installed
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONSAFEPATH="1")
    proc = subprocess.Popen([sys.executable, "-m", "kierki_dsl", "web", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: (proc.poll() is None and proc.kill(), proc.wait(30), proc.stdout.close(),
                                proc.stderr.close()))
        base = read_address(proc)
        ids = {r["id"] for r in httpx.get(base + "/api/rulesets", timeout=30).json()}
        assert "kierki_standard.yaml" in ids and "games/sik.yaml" in ids
        assert (tmp_path / "kierki-web.sqlite3").exists()  # its database is where it runs


def test_join_defaults_to_the_shipped_sik_ruleset():
    """In the checkout (and an editable install) the shipped rulesets are the repository's own."""
    from kierki_dsl.shipped import rulesets_dir, shipped_ruleset

    assert os.path.samefile(rulesets_dir(), RULESETS)
    assert os.path.isfile(shipped_ruleset("games/sik.yaml"))


@pytest.mark.slow
def test_kierki_join_of_an_installed_package_loads_its_default_ruleset(installed, tmp_path):
    """``kierki join`` without --ruleset, from the wheel in an empty folder: the shipped sik.yaml
    loads, and the command gets as far as connecting (nothing listens on the port it is given)."""
    import socket

    site, _ = installed
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONSAFEPATH="1")
    got = subprocess.run([sys.executable, "-m", "kierki_dsl", "join", "127.0.0.1", str(port), "--seat", "N",
                          "--timeout", "2"], capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert got.returncode == 1 and "cannot connect to 127.0.0.1" in got.stderr, got.stderr
    assert "sik.yaml" not in got.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``python -m build`` of a copy of the sources: the sdist, and the wheel built from it
    (without build isolation, so no network: setuptools and wheel come from the [test] extra)."""
    pytest.importorskip("build", reason="python -m build needs the build package (the [test] extra has it)")
    base = tmp_path_factory.mktemp("build")
    src = base / "src"
    _copy_sources(src)
    got = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(base / "dist"), str(src)],
                         capture_output=True, text=True, timeout=600)
    assert got.returncode == 0, got.stdout[-3000:] + got.stderr[-3000:]
    (sdist,) = (base / "dist").glob("kierki_dsl-*.tar.gz")
    (wheel,) = (base / "dist").glob("kierki_dsl-*.whl")
    return sdist, wheel


def _version() -> str:
    return re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text("utf-8"), re.M).group(1)


@pytest.mark.slow
def test_python_m_build_makes_an_sdist_with_the_sources_and_a_wheel_with_the_core(built):
    import tarfile

    sdist, wheel = built
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert {"pyproject.toml", "setup.py", "README.md", "CHANGELOG.md", "kierki_dsl/interpreter/_cstep.c",
            "rulesets/kierki_standard.yaml"} <= names
    assert wheel.name.startswith(f"kierki_dsl-{_version()}-")
    with zipfile.ZipFile(wheel) as z:
        inside = z.namelist()
    assert "kierki_dsl/rulesets/kierki_standard.yaml" in inside
    if not any(n.startswith("kierki_dsl/interpreter/_cstep") for n in inside):
        assert not os.environ.get("KIERKI_REQUIRE_C"), "the wheel has no compiled step core"


@pytest.mark.slow
def test_the_wheel_installs_and_plays_in_a_fresh_venv_without_a_compiler(built, tmp_path):
    """The wheel goes into a new virtual environment by its own pip, with ``PATH`` holding only
    that environment's ``bin`` and an empty folder — no gcc, no cc — and plays a seeded match
    byte for byte as the checkout does; ``kierki --version`` is the package's version. The
    dependencies (pure Python) are those of this environment, put on the fresh one's path
    after its own site-packages, so the test needs no network."""
    import site
    import sysconfig

    _, wheel = built
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bare = tmp_path / "bare"
    bare.mkdir()
    path = os.pathsep.join([str(venv / "bin"), str(bare)])
    assert shutil.which("gcc", path=path) is None and shutil.which("cc", path=path) is None
    env = {"PATH": path, "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    if os.environ.get("KIERKI_REQUIRE_C"):
        env["KIERKI_REQUIRE_C"] = os.environ["KIERKI_REQUIRE_C"]
    got = subprocess.run(["pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], capture_output=True,
                         text=True, timeout=300, env=env, cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    fresh_site = subprocess.run(["python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                capture_output=True, text=True, env=env, check=True).stdout.strip()
    deps = [p for p in site.getsitepackages() + [sysconfig.get_paths()["purelib"]] if os.path.isdir(p)]
    (Path(fresh_site) / "zz_test_dependencies.pth").write_text("\n".join(dict.fromkeys(deps)) + "\n", "utf-8")

    version = subprocess.run(["kierki", "--version"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert version.returncode == 0 and version.stdout.strip() == f"kierki {_version()}", version.stdout + version.stderr
    where = subprocess.run(["python", "-c", "import kierki_dsl, kierki_dsl.interpreter.stepper as s\n"
                            "from kierki_dsl.shipped import shipped_ruleset\n"
                            "print(kierki_dsl.__file__, s.available(), shipped_ruleset('kierki_standard.yaml'))"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    package, core, ruleset = where.stdout.split()
    assert package.startswith(fresh_site), "the checkout was imported, not the installed wheel"
    with zipfile.ZipFile(wheel) as z:
        assert core == str(any(n.startswith("kierki_dsl/interpreter/_cstep") for n in z.namelist()))
    match = subprocess.run(["kierki", "run", ruleset, "--seed", "7"], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=300)
    assert match.returncode == 0, match.stderr
    code, expected, _, _ = run_cli("run", str(RULESETS / "kierki_standard.yaml"), "--seed", "7")
    assert code == 0 and "Final standings" in match.stdout
    assert match.stdout.replace(ruleset, "RULESET") == expected.replace(str(RULESETS / "kierki_standard.yaml"), "RULESET")


def test_the_all_extra_brings_every_other_extra():
    """``pip install 'kierki-dsl[all]'`` installs every optional dependency there is."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    extras_block = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    extras = set(re.findall(r"^([\w-]+) = \[", extras_block, re.M))
    (listed,) = re.findall(r'^all = \["kierki-dsl\[([\w,-]+)\]"\]', extras_block, re.M)
    assert set(listed.split(",")) == extras - {"all"}
