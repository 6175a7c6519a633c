"""One writer per save file: an exclusive ``flock`` held for as long as a match writes it.

A second ``kierki resume FILE`` (or ``run --save FILE``, ``serve --save FILE``) while the first
still plays would interleave actions of two matches in one file; it is refused instead, naming
the process that holds the file (found in ``/proc/locks`` where the system has it). The lock
belongs to the open file: it ends when the writer closes it or its process dies, so a killed
match never leaves a stale lock behind.
"""

from __future__ import annotations

import os
import stat
from typing import Optional

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: one writer is then the user's care
    fcntl = None  # type: ignore[assignment]


from .savefile import SaveError


class SaveBusy(SaveError):
    """The save file is being written by another process (``pid`` when known)."""

    def __init__(self, path: str, pid: Optional[int]):
        who = f"another kierki (pid {pid})" if pid is not None else "another process"
        super().__init__(f"{path}: error: {who} is playing this save file; wait for it to end or stop it")
        self.pid = pid


class SavePathError(SaveError):
    """The save file's path cannot be opened as a regular file (the message says why)."""


def open_locked(path: str, create: bool) -> int:
    """A read-write descriptor of ``path`` (created when ``create``), locked for this process
    alone. Nothing is truncated or written here. ``SaveBusy`` if another process holds it,
    ``SavePathError`` if it is not a regular file or cannot be opened."""
    flags = os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0)
    try:
        # its owner's only, as records are (docs/records.md): it holds the same hands and seed
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o600)
    except OSError as e:
        raise SavePathError(f"{path}: error: cannot open the save file: {e.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SavePathError(f"{path}: error: not a regular file (a save file must be one)")
        _lock(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _lock(fd: int, path: str) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SaveBusy(path, holder(fd)) from None


def holder(fd: int) -> Optional[int]:
    """The process holding a ``flock`` on ``fd``'s file, from ``/proc/locks`` (None elsewhere)."""
    st = os.fstat(fd)
    device = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            rows = [line.split() for line in f]
    except OSError:
        return None
    found = [r for r in rows if len(r) >= 6 and "->" not in r and r[1] == "FLOCK" and r[5].endswith(f":{st.st_ino}")]
    exact = [r for r in found if r[5] == device] or found  # some file systems show another device
    pids = {int(r[4]) for r in exact if r[4].isdigit()}
    return min(pids) if len(pids) == 1 else None
