"""The work behind ``kierki serve`` and ``kierki join`` (cli.py only parses options)."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Optional

from ..exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, stderr_line
from . import sik


class CommandError(Exception):
    """A problem to report in one line, with its exit code."""

    def __init__(self, message: str, code: int = EXIT_FINDINGS):
        super().__init__(message)
        self.code = code


def parse_seat(text: str) -> int:
    """A seat written as N, E, S, W (any case) or 0..3."""
    t = text.strip().upper()
    if t in ("0", "1", "2", "3"):
        return int(t)
    if len(t) == 1 and t in sik.SEATS:
        return sik.SEATS.index(t)
    raise CommandError(f"not a seat: {text!r} (N, E, S, W or 0-3)", EXIT_USAGE)


def seat_bots(specs: list) -> dict:
    """``--seat N=search`` options as seat -> player name (checked)."""
    from ..players.base import make_player

    out = {}
    for spec in specs:
        seat, eq, name = spec.partition("=")
        if not eq or not name:
            raise CommandError(f"--seat takes SEAT=PLAYER (e.g. N=search), got {spec!r}", EXIT_USAGE)
        s = parse_seat(seat)
        if s in out:
            raise CommandError(f"seat {sik.SEATS[s]} is given twice", EXIT_USAGE)
        try:
            make_player(name)
        except KeyError as e:
            raise CommandError(str(e.args[0]), EXIT_USAGE) from None
        if name.partition(":")[0] == "human":
            raise CommandError("a person joins a table with kierki join --player human", EXIT_USAGE)
        out[s] = name
    return out


def load_types(ruleset, spec: Optional[str]) -> dict:
    """``--deal-types``: deal type digit -> contract (by default the schedule's entries)."""
    from .deals import DealsError, deal_types

    try:
        return deal_types(ruleset, spec)
    except DealsError as e:
        raise CommandError(str(e), EXIT_USAGE) from None


def load_deals(path: Optional[str], ruleset, types_spec: Optional[str] = None):
    """The fixed deals of a match file, or None."""
    if path is None:
        return None
    from .deals import DealsError, read_deals

    types = load_types(ruleset, types_spec)
    if not os.path.isfile(path):
        raise CommandError(f"{path}: error: no such match file")  # a bad input file: exit 1 (the exit-code table)
    try:
        return read_deals(path, ruleset, types)
    except DealsError as e:
        raise CommandError(str(e)) from None


def serve(
    ruleset,
    deals_path: Optional[str],
    host: Optional[str],
    port: int,
    seats: list,
    seed: Optional[int],
    save: Optional[str],
    resume: bool,
    timeout: float,
    types_spec: Optional[str] = None,
    force: bool = False,
) -> int:
    """Host a SIK table until its match is over; the exit code."""
    opened = _resume_header(save, ruleset) if resume else None
    try:
        session, types = _table_session(ruleset, deals_path, seats, seed, save, opened, types_spec, force)
    except BaseException:
        if opened is not None:
            opened.close()
        raise
    try:
        return asyncio.run(_serve(session.table, ruleset, host, port, timeout, types))
    finally:
        session.close()


def _table_session(ruleset, deals_path, seats, seed, save, opened, types_spec, force) -> tuple:
    """(the session of the table, its deal types): built from the options, or from the save file
    ``opened`` to resume (its seats, seed and match file), its saved actions replayed."""
    import secrets

    from ..players.base import make_player
    from ..table import Session
    from .server import sik_problem

    bots = seat_bots(seats)
    if opened is not None:
        head = opened.head
        deals_path = deals_path or (head.get("deals") or {}).get("path")
        types_spec = (head.get("deals") or {}).get("types", types_spec)
        seed = head["seed"]
        try:
            bots = seat_bots([f"{k}={v}" for k, v in head["bots"].items()])
        except CommandError as e:
            raise CommandError(f"{save}:1: error: the save file's seats: {e}") from None
    if seed is None:
        seed = secrets.randbelow(2**31)
    types = load_types(ruleset, types_spec)
    deals = load_deals(deals_path, ruleset, types_spec)
    if opened is not None and _deals_print(deals_path) != (opened.head.get("deals") or {}).get("fingerprint"):
        raise CommandError(f"{save}: error: the match file {deals_path!r} is not the one this save file played")
    problem = sik_problem(ruleset, deals, types)
    if problem:
        raise CommandError(f"kierki serve: error: {problem}")
    session = Session(ruleset, seed, [make_player(bots[s]) if s in bots else None for s in range(4)], deals)
    if opened is not None:
        session.resume(opened.actions, save)
    if session.failure is not None:
        raise CommandError(session.failure.line("kierki serve"))
    if opened is not None:  # the seats, the seed and the match file come from the save file
        session.keep(opened.writer())
    elif save:
        session.keep(_new_table_save(save, ruleset, seed, bots, deals_path, types_spec, force))
    return session, types


def _new_table_save(save: str, ruleset, seed: int, bots: dict, deals_path, types_spec, force: bool):
    from ..table import new_save
    from ..table.savefile import SaveError, header

    head = header(
        ruleset,
        seed,
        [bots.get(s, "remote") for s in range(4)],
        {
            "bots": {str(k): v for k, v in bots.items()},
            "deals": {
                "path": os.path.abspath(deals_path) if deals_path else None,
                "fingerprint": _deals_print(deals_path),
                "types": types_spec,
            },
        },
    )

    def deals_of(saved: dict, rs):  # the fixed deals of the match a save file already holds
        return load_deals(saved["deals"]["path"], rs, saved["deals"].get("types"))

    try:
        return new_save(save, head, force, deals_of)
    except SaveError as e:
        raise CommandError(str(e)) from None


async def _serve(table, ruleset, host, port, timeout, types) -> int:
    from .server import SikServer

    server = SikServer(table, ruleset, timeout, types=types)
    try:
        bound = await server.start(host, port)
    except OSError as e:
        raise CommandError(f"kierki serve: error: cannot listen on {host or '*'}:{port}: {e.strerror}") from None
    stderr_line(f"kierki serve: listening on {', '.join(bound)}")
    sys.stderr.flush()
    await server.run()
    if server.failure:
        raise CommandError(f"kierki serve: error: {server.failure}")
    totals = " ".join(f"{sik.SEATS[s]} {-t}" for s, t in enumerate(table.match.totals))
    stderr_line(f"kierki serve: match over; totals (SIK points) {totals}")
    return EXIT_OK


def _deals_print(path: Optional[str]) -> Optional[str]:
    from .deals import fingerprint

    return fingerprint(path) if path else None


def _resume_header(save: Optional[str], ruleset):
    """The save file of ``serve --resume``, opened and locked (an ``OpenSave``) and checked."""
    from ..table import open_save
    from ..table.savefile import SaveError

    if not save:
        raise CommandError("--resume needs --save FILE (the save file to continue)", EXIT_USAGE)
    if not os.path.isfile(save):
        raise CommandError(f"{save}: error: no such save file")
    try:
        opened = open_save(save)
    except SaveError as e:
        raise CommandError(str(e)) from None
    head = opened.head
    problem = None
    if (head.get("ruleset") or {}).get("fingerprint") != ruleset.fingerprint:
        problem = f"{save}: error: this save file belongs to another ruleset (or another version of it)"
    elif not isinstance(head.get("seed"), int) or not isinstance(head.get("bots"), dict):
        problem = f"{save}:1: error: not a save file of kierki serve"
    if problem is not None:
        opened.close()
        raise CommandError(problem)
    return opened
