"""Reading CRLF-ended text messages from an untrusted asyncio stream, with bounded memory.

Tolerant in what it accepts: a bare LF ends a line too, and NUL bytes are dropped (some
clients append one to their reply). A line longer than ``MAX_LINE`` is discarded up to its
end and returned as ``None`` (one invalid message); so is a line that is not ASCII.
"""

from __future__ import annotations

import asyncio
from typing import Optional

from .sik import MAX_LINE

INVALID = None


class LineReader:
    """``await next_line()``: the next message (str), ``None`` for an invalid one, ``EOFError``
    when the peer closed. Cancelling a read loses no bytes."""

    def __init__(self, reader: asyncio.StreamReader, limit: int = MAX_LINE):
        self.reader = reader
        self.limit = limit
        self.buf = bytearray()
        self.discarding = False

    def _take(self) -> Optional[tuple]:
        i = self.buf.find(b"\n")
        if i < 0:
            if len(self.buf) > self.limit:  # oversized: drop what we have, keep dropping to its end
                self.buf.clear()
                self.discarding = True
            return None
        raw = bytes(self.buf[:i])
        del self.buf[: i + 1]
        if self.discarding:
            self.discarding = False
            return (INVALID, b"<oversized message>")
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        if len(raw) > self.limit:
            return (INVALID, b"<oversized message>")
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            return (INVALID, raw)
        if not text.isprintable():
            return (INVALID, raw)
        return (text, raw)

    async def next_line(self) -> tuple:
        """(message or None, raw bytes) of the next line."""
        while True:
            got = self._take()
            if got is not None:
                return got
            chunk = await self.reader.read(4096)
            if not chunk:
                raise EOFError
            self.buf += chunk.replace(b"\0", b"")


def shown(raw: bytes) -> str:
    """Raw bytes as one printable report line (escapes for anything else)."""
    return repr(bytes(raw))[2:-1]
