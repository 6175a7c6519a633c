"""The bot protocol's messages (``docs/bot-protocol.md``): JSON lines, version ``kierki-bot/1``.

Pure functions only: what the engine writes to a bot, and how it reads the bot's answer. The
process that carries them is ``players/execbot.py``.
"""

from __future__ import annotations

import json
from typing import Optional

from .. import jsonshape
from ..interpreter.actions import action_str, parse_action

PROTOCOL = "kierki-bot/1"
MAX_LINE = 65536  # bytes of one line from a bot; longer is flooding
MAX_LABELLED = 1 << 20  # a refused id is named by its label up to this (a huge one names no real action)


class BotError(Exception):
    """The bot broke the protocol (garbage, an illegal answer, flooding, a timeout, a crash)."""


def line(doc: dict) -> bytes:
    """One message as the line written to the bot."""
    return (json.dumps(doc, separators=(",", ":")) + "\n").encode("utf-8")


def hello(seat: int, players: int, ruleset: str, seed: int) -> dict:
    """The first message of a match: the bot answers ``{"type": "ready"}``."""
    return {"type": "hello", "protocol": PROTOCOL, "seat": seat, "players": players, "ruleset": ruleset, "seed": seed}


def decide(view) -> dict:
    """A request to act: the seat's view and its legal actions with their labels."""
    return {"type": "decide", "view": view.to_json(), "legal": [{"id": a, "label": action_str(a)} for a in view.legal]}


def bye() -> dict:
    """The end of the match: the bot should exit."""
    return {"type": "bye"}


def read_ready(raw: bytes) -> None:
    """Check the bot's answer to ``hello``."""
    doc = _json(raw)
    if not isinstance(doc, dict) or doc.get("type") != "ready":
        raise BotError('expected {"type": "ready"} after hello')


def read_action(raw: bytes, legal: tuple) -> int:
    """The action a bot's answer names: ``{"action": ID or LABEL}`` (or a bare ID or LABEL),
    which must be one of ``legal``."""
    doc = _json(raw)
    answer = doc.get("action") if isinstance(doc, dict) else doc
    action = _action(answer)
    if action is None or action not in legal:
        raise BotError(_refusal(answer, action, legal))
    return action


def _refusal(answer, action: Optional[int], legal: tuple) -> str:
    """Why an answer is not taken, and what was legal: what a bot's author needs to fix it."""
    said = repr(answer)[:40]
    if action is not None:
        label = _label(action)
        if label is not None and _kind(action, label) in {_kind(a, action_str(a)) for a in legal}:
            said += f" ({label})"  # 9999 is bid:8999 only to a bot that is bidding
        shown = ", ".join(action_str(a) for a in legal[:16]) + (", ..." if len(legal) > 16 else "")
        return f"illegal answer {said}: not one of the {len(legal)} legal actions ({shown})"
    if isinstance(answer, str):
        return f"illegal answer {said}: not an action's label (such as QS, 10H, pass, bid:120, call:H)"
    return f'illegal answer {said}: an action is a legal action\'s id (an integer) or its label, as {{"action": 12}}'


def _label(action: int) -> Optional[str]:
    """The record notation of an id, None for one that names no action."""
    if not 0 <= action <= MAX_LABELLED:
        return None
    try:
        return action_str(action)
    except (ValueError, KeyError, IndexError):
        return None


def _kind(action: int, label: str) -> str:
    """What an action is: a card, a pass, or its label's word (bid, call, double, choose, expose...)."""
    return "card" if action < 52 else label.split(":")[0]


def _action(answer) -> Optional[int]:
    if type(answer) is int:
        return answer
    if isinstance(answer, str) and len(answer) <= 20:
        try:
            return parse_action(answer)
        except ValueError:
            return None
    return None


def _json(raw: bytes):
    """A bot's line as JSON, read as records are (``jsonshape``: nesting bounded before the parser
    runs, whose recursion 60,000 ``[`` would exhaust)."""
    try:
        return jsonshape.parse(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BotError(f"not a JSON line: {quoted(raw)} (not UTF-8)") from None
    except jsonshape.ShapeError as e:
        raise BotError(f"not a JSON line: {quoted(raw)} ({e.message})") from None


def quoted(raw: bytes) -> str:
    """The start of a line a bot wrote, as its author would read it (text, not a bytes literal)."""
    text = raw[:40].decode("utf-8", errors="replace")
    return repr(text) + (f" (and {len(raw) - 40} bytes more)" if len(raw) > 40 else "")
