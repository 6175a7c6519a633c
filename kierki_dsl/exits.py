"""The exit codes of every ``kierki`` command, and how an exception that reaches the top of a
command becomes one: 0 success · 1 findings or bad input · 2 usage · 70 internal error ·
130 interrupted · 141 the output's reader went away (``kierki ... | head``). Every command module imports them from here (no ``cli`` ↔ ``entry`` ↔
``lint`` cycle)."""

from __future__ import annotations

import os
import sys

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 70, 130
#: The reader of the output went away before it was all written (``kierki lint ... | head -1``):
#: 128 + SIGPIPE, what a shell reports of a program SIGPIPE ends, so ``set -o pipefail`` does not
#: take a cut-off output (lint's findings among it) for a success.
EXIT_BROKEN_PIPE = 141


class SetupError(Exception):
    """The environment names what cannot be used (a module of ``KIERKI_PHASES`` that does not
    import): a usage error, told in one line."""


def failure_exit(e: BaseException, debug: bool) -> int:
    """The exit code (and message) for an exception that reached the top of a command."""
    if isinstance(e, SetupError):
        stderr_line(f"kierki: error: {e}")
        return EXIT_USAGE
    if isinstance(e, KeyboardInterrupt):
        stderr_line("kierki: interrupted")
        return EXIT_INTERRUPTED
    if isinstance(e, BrokenPipeError):  # the reader went away (kierki ... | head)
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    if debug:
        import traceback

        traceback.print_exc()
    else:
        stderr_line(f"kierki: internal error: {type(e).__name__}: {e} (run with --debug for details)")
    return EXIT_INTERNAL


def _silence_stdout() -> None:
    """Point standard output at the null device, so that Python's last flush at exit does not
    meet the closed pipe again (and print ``Exception ignored ... BrokenPipeError``)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's captured stream)
        pass


_said = {"interrupted": False}


def stderr_line(text: str) -> None:
    """Write one line to stderr."""
    if text.startswith("kierki: interrupted"):
        _said["interrupted"] = True
    sys.stderr.write(text.rstrip("\n") + "\n")


def interrupted_exit(code: int) -> int:
    """``code``; for 130 (a Ctrl-C that typer turned into an exit code on its own, e.g. while a
    ruleset loads) the line ``kierki: interrupted`` is said first if no command said it."""
    if code == EXIT_INTERRUPTED and not _said["interrupted"]:
        stderr_line("kierki: interrupted")
    return code
