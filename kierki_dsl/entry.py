"""The ``kierki`` command's entry point: a fast path for plain lint calls, typer for the rest.

``kierki lint FILE...`` is what editors and pre-commit hooks run on every save, so it must
start fast. Importing typer (and the click inside it) costs more than reading and checking
a ruleset does, so a call that is *only* ``lint`` with paths, ``--strict``, ``--format
text|json|github|sarif``, ``--lang en|pl`` and ``--quiet`` goes straight to ``lint.lint_paths``. Anything else — another
command, ``--help``, ``--explain``, ``--debug``, an option it does not know, a misspelt
format, no path at all — goes to the typer application in ``cli.py``, which owns the
interface and every usage message. The tests run the same calls down both paths and
compare exit codes and output.

Exit codes: 0 success · 1 findings or bad input · 2 usage · 70 internal error · 130
interrupted (``exits.py``).
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Optional

from . import _QUIET_START, _interrupted_at_start  # the quiet Ctrl-C of start-up (kierki_dsl/__init__.py)


def _unraisable(hook):
    """``sys.unraisablehook`` for the command: a Ctrl-C that lands where Python cannot raise it
    (a weakref callback inside an import lock) is sent again, to be raised where it can, instead
    of a printed traceback and a match that goes on."""

    def handle(info) -> None:
        if isinstance(info.exc_value, KeyboardInterrupt):
            try:
                os.kill(os.getpid(), signal.SIGINT)
            except KeyboardInterrupt:  # raised at once, here in the hook, where it is lost: once more, later
                import threading

                threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
        else:
            hook(info)

    return handle


if _QUIET_START:
    sys.unraisablehook = _unraisable(sys.unraisablehook)

from .exits import failure_exit  # noqa: E402

LINT_FORMATS = ("text", "json", "github", "sarif")


def plain_lint(args: list) -> Optional[tuple]:
    """``(paths, strict, format, quiet, lang)`` when ``args`` is a plain lint call, else None."""
    if not args or args[0] != "lint":
        return None
    from .i18n import known

    paths: list = []
    strict, quiet = False, False
    lang: Optional[str] = None
    fmt: Optional[str] = "text"
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--strict":
            strict = True
        elif arg in ("--quiet", "-q"):
            quiet = True
        elif arg == "--format" or arg.startswith("--format="):
            fmt = arg.partition("=")[2] if "=" in arg else next(rest, None)
            if fmt not in LINT_FORMATS:
                return None
        elif arg == "--lang" or arg.startswith("--lang="):
            lang = arg.partition("=")[2] if "=" in arg else next(rest, None)
            if known(lang) is None:  # a usage error: typer's to say
                return None
        elif arg.startswith("-"):
            return None
        else:
            paths.append(arg)
    return (paths, strict, fmt, quiet, lang) if paths else None


def main(argv: Optional[list] = None) -> int:
    """Run ``kierki`` with ``argv`` (default: the command line); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted_at_start:
            signal.signal(signal.SIGINT, signal.default_int_handler)  # from here Ctrl-C is a KeyboardInterrupt
        lint = plain_lint(args)
        if lint is None:
            from .cli import main as run_app

            return run_app(args)
        paths, strict, fmt, quiet, lang = lint
        from .i18n import set_language
        from .lint import lint_paths

        set_language(lang)

        return lint_paths(paths, strict=strict, fmt=fmt, out=sys.stdout, err=sys.stderr, quiet=quiet)
    except (Exception, KeyboardInterrupt) as e:  # also while the command's modules are imported
        return failure_exit(e, debug="--debug" in args)
