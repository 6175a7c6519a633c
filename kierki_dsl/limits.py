"""The documented bounds of every numeric command-line option (``docs/limits.md``).

A number outside its bounds is a usage error (exit 2) with one message, before any work: a
``--games`` of a trillion would build every game index and keep every result in memory, a
``--workers`` of a hundred billion overflows the process pool, a ``--timeout nan`` would wait
forever. Floats must also be finite.
"""

from __future__ import annotations

import math
from typing import Optional

from .values import frozen

#: seeds are 63-bit: every seed a command takes (``--seed``, ``--first-seed``)
MAX_SEED = 2**63 - 1
DAY = 86_400.0


@frozen
class Bound:
    """``low <= value <= high``; ``above`` makes the low end exclusive (a positive time)."""

    low: float
    high: float
    above: bool = False

    def problem(self, option: str, value) -> Optional[str]:
        if isinstance(value, float) and not math.isfinite(value):
            return f"{option} must be a finite number, got {value}"
        if value < self.low or value > self.high or (self.above and value == self.low):
            low = f"more than {_num(self.low)}" if self.above else f"from {_num(self.low)}"
            return (
                f"{option} must be {low} {'and at most' if self.above else 'to'} {_num(self.high)}, got {_shown(value)}"
            )
        return None


def _num(x) -> str:
    return f"{int(x):_}" if float(x).is_integer() else f"{x:g}"


def _shown(value) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:20] + f"... ({len(text)} digits)"


OPTIONS: dict = {
    "--games": Bound(1, 1_000_000),  # every finished match's result is kept for the report (about 7 KB each)
    "--workers": Bound(1, 256),
    "--seed": Bound(0, MAX_SEED),
    "--first-seed": Bound(0, MAX_SEED),
    "--seeds": Bound(1, 100_000),
    "--port": Bound(0, 65_535),
    "port": Bound(1, 65_535),  # join's argument
    "--timeout": Bound(0.0, DAY, above=True),
    "--retry": Bound(0.0, DAY),
    "--max-tables": Bound(1, 10_000),
    "--idle": Bound(0.0, 30 * DAY, above=True),
    "--bot-delay": Bound(0.0, 60.0),
    "--keep-days": Bound(0.0, 36_500.0),
    "--creates-per-minute": Bound(0.0, 10_000.0, above=True),
}


#: the commands that take each option (for the table in docs/limits.md)
COMMANDS = {
    "--games": "simulate, compare",
    "--workers": "simulate, compare, ladder",
    "--seed": "run, simulate, compare, serve, join",
    "--first-seed": "ladder, tournament",
    "--seeds": "ladder, tournament",
    "--port": "serve, web",
    "port": "join",
    "--timeout": "serve, join",
    "--retry": "join",
    "--max-tables": "web",
    "--idle": "web",
    "--bot-delay": "web",
    "--keep-days": "web",
    "--creates-per-minute": "web",
}


def markdown_table() -> str:
    """The table of option bounds in docs/limits.md (the tests check that the page holds it)."""
    rows = ["| option | commands | bounds |", "|---|---|---|"]
    for option, b in OPTIONS.items():
        low = f"more than {_num(b.low)}" if b.above else f"{_num(b.low)}"
        rows.append(f"| `{option}` | {COMMANDS[option]} | {low} to {_num(b.high)} |")
    return "\n".join(rows)


def option_problem(option: str, value) -> Optional[str]:
    """Why ``value`` is out of ``option``'s documented bounds (None when it is within them)."""
    if value is None:
        return None
    return OPTIONS[option].problem(option, value)


def first_problem(**values) -> Optional[str]:
    """The first out-of-bounds option among ``values`` (keyword ``games`` is ``--games``,
    ``first_seed`` is ``--first-seed``; ``port_arg`` is join's ``port``)."""
    for key, value in values.items():
        option = "port" if key == "port_arg" else "--" + key.replace("_", "-")
        problem = option_problem(option, value)
        if problem is not None:
            return problem
    return None


__all__ = ["MAX_SEED", "OPTIONS", "Bound", "first_problem", "markdown_table", "option_problem"]
