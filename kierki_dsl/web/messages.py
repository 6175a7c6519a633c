"""Messages a browser may send over the table's WebSocket, validated before anything reads them.

A message is one JSON object in a text frame of at most ``MAX_MESSAGE`` bytes:

- ``{"type": "hello", "token": "<the seat's secret>"}`` — first, to take the seat;
- ``{"type": "act", "action": <0..MAX_ACTION>, "deal": <n>, "ply": <n>}`` — play a card or
  take another action (any action number of any phase: whether it is legal now is the table's
  question, answered with the rule's reason); ``deal``/``ply`` name the decision seen (a stale
  click is refused);
- ``{"type": "ping"}`` — answered with ``{"type": "pong"}``.

Anything else (not JSON, another shape, extra keys, wrong types, too big, too many per
second) gets ``{"type": "error", ...}`` and changes nothing.
"""

from __future__ import annotations

import time
from typing import Optional

from .. import jsonshape
from ..interpreter.actions import MAX_ACTION

MAX_MESSAGE = 1024
MAX_TOKEN = 128

SCHEMAS: dict[str, dict[str, type]] = {
    "hello": {"token": str},
    "act": {"action": int, "deal": int, "ply": int},
    "ping": {},
}
LIMITS = {"action": (0, MAX_ACTION), "deal": (0, 10_000), "ply": (0, 100_000)}


class BadMessage(Exception):
    """A message that is refused; the text says why."""


def parse(text) -> dict:
    """The validated message, or ``BadMessage``."""
    if not isinstance(text, str):
        raise BadMessage("messages are JSON text")
    if len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
        raise BadMessage(f"message longer than {MAX_MESSAGE} bytes")
    try:
        doc = jsonshape.parse(text, max_text=None)  # bounded above: nesting bounded before parsing
    except jsonshape.ShapeError as e:
        raise BadMessage(e.message) from None
    if not isinstance(doc, dict):
        raise BadMessage("a message is a JSON object")
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise BadMessage(f"unknown message type (known: {', '.join(sorted(SCHEMAS))})")
    schema = SCHEMAS[kind]
    extra = set(doc) - set(schema) - {"type"}
    if extra:
        raise BadMessage(f"unknown field {sorted(extra)[0]!r} in {kind}")
    for key, typ in schema.items():
        value = doc.get(key)
        if not isinstance(value, typ) or isinstance(value, bool):
            raise BadMessage(f"{kind} needs {key!r} ({typ.__name__})")
        if isinstance(value, int) and key in LIMITS and not LIMITS[key][0] <= value <= LIMITS[key][1]:
            raise BadMessage(f"{key} out of range")
        if isinstance(value, str) and key == "token" and not 0 < len(value) <= MAX_TOKEN:
            raise BadMessage("bad token")
    return doc


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float = 10.0, burst: float = 20.0, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.at = clock()
        self.refused = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


def error(message: str, code: str = "bad-message", where: Optional[dict] = None) -> dict:
    """The reply to a refused message."""
    doc = {"type": "error", "code": code, "message": message}
    if where:
        doc.update(where)
    return doc
