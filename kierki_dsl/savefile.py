"""Save files (``kierki-save/1``): a match kept durably as it is played, and resumed.

The file is JSON lines: a header, then one line per action, each written, flushed and
fsynced before the game goes on. A crash or SIGKILL loses at most the action in flight; a
torn last line is ignored (and cut off) on resume. Because every player's randomness is
derived from the seed and the position (never from a running stream), replaying the saved
actions puts the match, and every bot, exactly where it was.
"""
from __future__ import annotations

import json
import os
from typing import Optional

from .cards import CardError, parse_card
from .interpreter.actions import CHOOSE_BASE, NO_TRUMP, PASS, action_str, call, is_bid, parse_bet

FORMAT = "kierki-save/1"


class SaveError(Exception):
    """A save file that cannot be resumed (the message names the file and line)."""


def encode(action: int) -> str:
    if CHOOSE_BASE <= action and not is_bid(action):
        return f"choose:{action - CHOOSE_BASE}"
    return action_str(action)


def decode(text: str) -> int:
    t = str(text)
    if t == "pass":
        return PASS
    if t.startswith("bid:") and t[4:].isdigit() and len(t) <= 10:
        from .interpreter.bidding import parse_auction_action

        return parse_auction_action(t)
    if t.startswith("choose:") and t[7:].isdigit():
        return CHOOSE_BASE + int(t[7:])
    if t == "call:none":
        return NO_TRUMP
    if t.startswith("call:") and len(t) == 6 and t[5] in "SHDC":
        return call("SHDC".index(t[5]))
    bet = parse_bet(t)
    return bet if bet is not None else parse_card(t)


class SaveWriter:
    """Appends actions to a save file, durably (flush + fsync per line)."""

    def __init__(self, path: str, header: Optional[dict] = None, keep_bytes: Optional[int] = None):
        self.path = path
        if header is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(header, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
        elif keep_bytes is not None:  # drop a torn last line before appending
            with open(path, "r+b") as f:
                f.truncate(keep_bytes)
        self.f = open(path, "a", encoding="utf-8")

    def write(self, deal_index: int, seat: int, action: int) -> None:
        self.f.write(json.dumps({"deal": deal_index + 1, "seat": seat, "action": encode(action)}) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


def header(ruleset, seed: int, players: list) -> dict:
    return {
        "format": FORMAT,
        "ruleset": {"path": os.path.abspath(ruleset.path), "fingerprint": ruleset.fingerprint, "name": ruleset.name},
        "seed": seed,
        "players": players,
    }


def read(path: str) -> tuple[dict, list, int]:
    """(header, actions, bytes to keep); a torn last line is dropped, other damage refused."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SaveError(f"{path}: error: cannot read save file: {e.strerror}") from None
    lines = data.split(b"\n")
    complete = data.endswith(b"\n")
    if not complete:
        lines, torn = lines[:-1], True
    else:
        lines, torn = lines[:-1], False
    if not lines:
        raise SaveError(f"{path}:1: error: not a kierki save file (no header)")
    try:
        head = json.loads(lines[0].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise SaveError(f"{path}:1: error: not a kierki save file (the header is not JSON)") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SaveError(f"{path}:1: error: not a kierki save file (expected format {FORMAT!r})")
    actions = []
    keep = len(lines[0]) + 1
    for i, raw in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(raw.decode("utf-8"))
            actions.append(decode(entry["action"]))
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, CardError):
            if i == len(lines) and not torn:
                torn = True  # a damaged last line: the action in flight when the process died
                break
            raise SaveError(f"{path}:{i}: error: corrupt save file (line {i} is not a saved action)") from None
        keep += len(raw) + 1
    return head, actions, keep
