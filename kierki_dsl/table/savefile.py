"""Save files (``kierki-save/1``): a match kept durably as it is played, and resumed.

The file is JSON lines: a header, then one line per action, each written, flushed and
fsynced before the game goes on. A crash or SIGKILL loses at most the action in flight; a
torn last line is ignored (and cut off) on resume. Because every player's randomness is
derived from the seed and the position (never from a running stream), replaying the saved
actions puts the match, and every bot, exactly where it was.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Optional

from ..cards import CardError
from ..diagnostics import quoted
from ..interpreter import extensions
from ..interpreter.actions import action_str, parse_action
from ..interpreter.match import MatchError
from ..values import frozen

FORMAT = "kierki-save/1"


class SaveError(MatchError):
    """A save file that cannot be resumed (the message names the file and line)."""


@frozen
class SavedAction:
    """One saved action: the deal (1-based) and seat it belongs to, and its line in the file."""

    deal: int
    seat: int
    action: int
    line: int


encode = action_str  # one notation for actions everywhere (interpreter/actions.py)
decode = parse_action


class SaveWriter:
    """Appends actions to a save file, durably (flush + fsync per line), holding the file's lock
    (``savelock``) until ``close``: one writer per save file.

    ``fd``: the file already opened and locked (``savelock.open_locked``), else it is opened
    and locked here. ``header``: a new match (the file is emptied and the header written);
    ``keep_bytes``: a resumed one (a torn last line is cut off before appending)."""

    def __init__(
        self, path: str, header: Optional[dict] = None, keep_bytes: Optional[int] = None, fd: Optional[int] = None
    ):
        from .savelock import open_locked

        self.path = path
        if fd is None:
            fd = open_locked(path, create=header is not None)
        try:
            if header is not None:
                os.ftruncate(fd, 0)
                os.write(fd, (json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8"))
                os.fsync(fd)
            elif keep_bytes is not None:  # drop a torn last line before appending
                os.ftruncate(fd, keep_bytes)
            self.f = os.fdopen(fd, "a", encoding="utf-8")
        except BaseException:
            os.close(fd)
            raise

    def write(self, deal_index: int, seat: int, action: int) -> None:
        self.f.write(json.dumps({"deal": deal_index + 1, "seat": seat, "action": encode(action)}) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        """Close the file (its lock goes with it); closing twice is harmless."""
        self.f.close()


def header(ruleset, seed: int, players: list, extra: Optional[dict] = None) -> dict:
    """The first line of a save file; ``check`` seals the seed, the players, the ruleset and
    ``extra`` (a table's bots, the match file of fixed deals)."""
    head = {
        "format": FORMAT,
        "ruleset": {"path": os.path.abspath(ruleset.path), "fingerprint": ruleset.fingerprint, "name": ruleset.name},
        "seed": seed,
        "players": players,
        **(extra or {}),
    }
    head["check"] = seal(head)
    return head


SEALED_EXTRA = ("bots", "deals")  # further header keys the seal covers when present


def seal(head: dict) -> str:
    """A digest of what decides the match (the ruleset's fingerprint, the seed, the players, a
    table's bots and match file): a header edited after the match began no longer matches it."""
    what = {"fingerprint": head["ruleset"]["fingerprint"], "seed": head["seed"], "players": head["players"]}
    what.update({k: head[k] for k in SEALED_EXTRA if k in head})
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def _schemas():
    from ..jsonshape import Int, List, Obj, Str

    ruleset = Obj({"path": Str(), "fingerprint": Str(), "name": Str()}, required=("path", "fingerprint"))
    head = Obj(
        {
            "format": Str(),
            "ruleset": ruleset,
            "seed": Int(0, name="a seed (0 or more)"),
            "players": List(Str(), max_items=8, name="a list of player names"),
            "check": Str(),
        },
        required=("format", "ruleset", "seed", "players", "check"),
        name="a JSON object",
    )
    action = Obj(
        {"deal": Int(1, name="a deal number"), "seat": Int(0, 7, name="a seat number"), "action": Str()},
        required=("deal", "seat", "action"),
        name="a JSON object",
    )
    return head, action


def _shaped(path: str, raw: bytes, line: int, schema, what: str):
    """The JSON value of one line, checked against ``schema``; SaveError naming the line."""
    from ..jsonshape import ShapeError, check, line_of, load

    try:
        value, lines = load(raw.decode("utf-8"), line)
    except UnicodeDecodeError:
        raise SaveError(f"{path}:{line}: error: corrupt save file ({what} is not UTF-8)") from None
    except ShapeError as e:
        raise SaveError(f"{path}:{e.line}: error: corrupt save file ({what} is {e.message})") from None
    problem = check(value, schema)
    if problem is not None:
        raise SaveError(f"{path}:{line_of(lines, problem[0], line)}: error: corrupt save file ({what}: {problem[1]})")
    return value


def _plain_action(raw: bytes) -> Optional[dict]:
    """An action line of the usual shape, read quickly (the full check runs only when this
    cannot tell: a long journal costs little); None when it must be checked in full."""
    from ..jsonshape import ShapeError, parse

    try:
        entry = parse(raw.decode("utf-8"), max_text=None)  # a line over jsonshape's bound is checked in full
    except (ShapeError, UnicodeDecodeError):
        return None
    if type(entry) is not dict or entry.keys() != {"deal", "seat", "action"}:
        return None
    deal, seat, action = entry["deal"], entry["seat"], entry["action"]
    if type(deal) is not int or type(seat) is not int or type(action) is not str or deal < 1 or not 0 <= seat <= 7:
        return None
    return entry


def read(path: str) -> tuple[dict, list, int]:
    """(header, saved actions, bytes to keep). Every complete line is checked — the header's
    shape and seal, each action's shape and notation; only a torn last line (no newline: the
    action in flight when the process died) is dropped. Damage is a ``SaveError`` naming the line."""
    from ..players.base import player_names

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SaveError(f"{path}: error: cannot read save file: {e.strerror}") from None
    lines = data.split(b"\n")[:-1]  # the part after the last newline is torn (or empty)
    if not lines:
        raise SaveError(f"{path}:1: error: not a kierki save file (no header)")
    head_schema, action_schema = _schemas()
    from ..jsonshape import ShapeError, parse

    try:
        first = parse(lines[0].decode("utf-8"), max_text=None)  # its length: checked with its shape below
    except UnicodeDecodeError:
        first = None
    except ShapeError as e:
        raise SaveError(f"{path}:{e.line}: error: not a kierki save file (its first line is {e.message})") from None
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        raise SaveError(f"{path}:1: error: not a kierki save file (expected a header with format {FORMAT!r})")
    head = _shaped(path, lines[0], 1, head_schema, "the header")
    if head["check"] != seal(head):
        raise SaveError(
            f"{path}:1: error: the header was changed after the match began (its ruleset, seed or "
            "players no longer match its check)"
        )
    known = set(player_names()) | ({"remote"} if "bots" in head else set())  # a table's seats for people
    for name in head["players"]:
        if name.partition(":")[0] not in known:
            raise SaveError(f"{path}:1: error: unknown player {quoted(name)} in the header")
    extensions.load_plugins()  # the phase modules of KIERKI_PHASES: the notation of their actions
    actions = []
    keep = len(lines[0]) + 1
    for i, raw in enumerate(lines[1:], start=2):
        entry = _plain_action(raw)
        if entry is None:  # not the usual shape: checked in full, the problem located
            entry = _shaped(path, raw, i, action_schema, f"line {i}")
        try:
            action = decode(entry["action"])
        except CardError:
            raise SaveError(
                f"{path}:{i}: error: corrupt save file (line {i}: {quoted(entry['action'])} is not an action)"
            ) from None
        actions.append(SavedAction(entry["deal"], entry["seat"], action, i))
        keep += len(raw) + 1
    return head, actions, keep
