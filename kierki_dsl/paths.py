"""Paths kierki reads and writes: only regular files; outputs checked before any work, written atomically.

Kierki reads a ruleset (and the bases it ``extends``) only from a regular file: a FIFO would
block the reader, a device would never end, a folder or a looping symlink is no ruleset.
``read_problem`` says what is wrong with such a path, so that every caller reports it located.

Kierki writes records (``--record``, ``simulate --records``), HTML reports (``--html``) and CSV
files (``--csv``). It writes through a path only when the path is a regular file (or a symlink
to one, which stays a symlink) or does not exist yet in a folder it may write to; a device, a
FIFO, a socket, a folder, a dangling or looping symlink is refused with a clear message, never
replaced. Commands call ``check_file`` / ``check_folder`` before they play, so a bad output is a
usage error at once (exit 2), not a lost match at the end; ``write_atomic`` checks again just
before it writes (a crash leaves the old content or the new one, never half; two writers of
the same path each leave a whole file, the last one wins).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from typing import Optional

from .i18n import L_, N_


class OutputError(Exception):
    """An output path kierki will not write through; the message names the option and the path."""


_KINDS = (
    (stat.S_ISDIR, N_("a folder")),
    (stat.S_ISCHR, N_("a character device")),
    (stat.S_ISBLK, N_("a block device")),
    (stat.S_ISFIFO, N_("a FIFO (named pipe)")),
    (stat.S_ISSOCK, N_("a socket")),
)


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return N_("not a regular file")


def _stat(path: str, what: str) -> Optional[os.stat_result]:
    """The status of what ``path`` names (symlinks followed); None when nothing is there."""
    if "\0" in path:
        raise OutputError(f"{what}: the path holds a NUL character")
    try:
        return os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise OutputError(
                f"{what} {path}: a symlink to nothing (dangling); kierki does not write through it"
            ) from None
        return None
    except OSError as e:  # a symlink loop, a name too long, a file used as a folder
        raise OutputError(f"{what} {path}: {e.strerror}") from None


def _writable_folder(folder: str, what: str, path: str) -> None:
    if not os.path.isdir(folder):
        raise OutputError(f"{what} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {path}: the folder {folder} is not writable")


def read_problem(path: str) -> Optional[str]:
    """Why kierki will not read ``path`` as a file (None: a regular file, symlinks followed)."""
    if "\0" in path:
        return L_("the path holds a NUL character")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return L_("a symlink to nothing (dangling)") if os.path.islink(path) else L_("no such file")
    except (OSError, ValueError) as e:
        return getattr(e, "strerror", None) or str(e)
    if not stat.S_ISREG(st.st_mode):
        return L_("is {kind}; kierki reads only regular files", kind=L_(_kind(st.st_mode)))
    return None


class ReadError(Exception):
    """A file kierki will not or cannot read; ``size`` is its size when it is over the limit."""

    def __init__(self, message: str, size: Optional[int] = None) -> None:
        super().__init__(message)
        self.size = size


def read_limited(path: str, limit: int) -> bytes:
    """The bytes of the regular file ``path``, refused (``ReadError``) when it is no regular file
    (``read_problem``), cannot be read, or holds more than ``limit`` bytes (never all read then)."""
    problem = read_problem(path)
    if problem is not None:
        raise ReadError(problem)
    try:
        size = os.path.getsize(path)
        if size > limit:
            raise ReadError(f"is {size} bytes (limit {limit})", size)
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:  # no permission, an I/O error (/proc/self/mem)
        raise ReadError(e.strerror or str(e)) from None
    if len(data) > limit:  # a file that grew, or reports no size (/proc)
        raise ReadError(f"is over {limit} bytes", len(data))
    return data


def check_file(path: str, what: str = "output") -> None:
    """Raise ``OutputError`` unless kierki may write a file at ``path`` (``what`` names the option)."""
    st = _stat(path, what)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{what} {path}: is {_kind(st.st_mode)}; kierki writes only regular files")
    target = os.path.realpath(path)
    _writable_folder(os.path.dirname(target) or ".", what, path)


def check_folder(path: str, what: str = "output folder", names: Optional[str] = None) -> None:
    """Raise ``OutputError`` unless ``path`` is a writable folder or can be made one; ``names``
    (a regular expression) matches the files kierki will write there: none of them may exist
    as anything but a regular file."""
    st = _stat(path, what)
    if st is None:
        _writable_folder(os.path.dirname(os.path.abspath(path)) or ".", what, path)
        return
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(
            f"{what} needs a folder, and {path} is {_kind(st.st_mode) if not stat.S_ISREG(st.st_mode) else 'a file'}"
        )
    _writable_folder(path, what, path)
    if names is not None:
        pattern = re.compile(names)
        with os.scandir(path) as entries:
            for entry in entries:
                if pattern.fullmatch(entry.name):
                    check_file(entry.path, what)


def write_atomic(path: str, text: str, what: str = "output") -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new content.

    Raises ``OutputError`` for a path kierki does not write through (see ``check_file``) and
    ``OSError`` when writing fails (a full disk). A symlink to a regular file stays a symlink."""
    check_file(path, what)
    target = os.path.realpath(path)
    fd, tmp = tempfile.mkstemp(prefix=".kierki-", suffix=".tmp", dir=os.path.dirname(target) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fchmod(f.fileno(), _mode(target))
            os.fsync(f.fileno())
        check_file(path, what)  # once more: something may have appeared there meanwhile
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


#: A new output is its owner's only, whatever the umask: records, reports and CSV files hold
#: matches (seeds, every hand); chmod one to share it (docs/records.md).
OUTPUT_MODE = 0o600


def _mode(target: str) -> int:
    """The permissions an output is written with: ``OUTPUT_MODE``, whether new or replacing a
    file (a shared old record would otherwise keep showing every hand of the new match)."""
    return OUTPUT_MODE


def make_folder(path: str, what: str = "output folder") -> None:
    """Create ``path`` (and its parents) unless it is a folder already; ``OutputError`` otherwise."""
    check_folder(path, what)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:  # a full disk; as root, a folder the check could not foresee (under /proc)
        raise OutputError(f"{what} {path}: {e.strerror or e}") from None


__all__ = [
    "OutputError",
    "ReadError",
    "read_limited",
    "read_problem",
    "check_file",
    "check_folder",
    "make_folder",
    "write_atomic",
]
