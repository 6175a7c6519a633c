"""Running a simulation for a command: batches on workers or Dask, a progress bar, Ctrl-C.

The commands (``simulate``, ``compare``) call ``run``; it returns what finished (game tuples
in game order, one GameResult per ruleset, and their measures) and whether it was interrupted.
It drives ``simulate``, which fills ``analysis``'s rows: it sits above both.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import Callable, Optional

from .values import frozen


@frozen
class Plan:
    """What to play: ``refs`` are (absolute path, fingerprint) per ruleset."""

    refs: tuple
    names: tuple
    seed: int
    games: int
    workers: int = 1
    address: Optional[str] = None  # a Dask scheduler: play there instead of local processes
    records: Optional[str] = None  # a folder: keep every match as a record (one ruleset only)


def _progress(total: int) -> Callable:
    """A progress bar on a terminal (rate and ETA); nothing when stderr is not a terminal."""
    start = time.perf_counter()
    done = [0]
    tty = sys.stderr.isatty()

    def tick(batch) -> None:
        done[0] += len(batch)
        if not tty:
            return
        rate = done[0] / max(1e-9, time.perf_counter() - start)
        eta = (total - done[0]) / rate if rate else 0
        bar = "#" * int(30 * done[0] / total)
        sys.stderr.write(f"\r[{bar:<30}] {done[0]}/{total} matches · {rate:.1f}/s · ETA {eta:.0f} s ")
        sys.stderr.flush()
        if done[0] >= total:
            sys.stderr.write("\n")

    return tick


#: the files ``simulate --records`` writes in its folder
RECORD_FILES = r"match-\d+\.json"


def _keep_records(folder: str) -> Callable:
    from .paths import OutputError, make_folder, write_atomic

    def keep(batch) -> None:
        make_folder(folder, "--records")
        for (g,) in batch:
            text = json.dumps(g.record, indent=1, ensure_ascii=False) + "\n"
            path = os.path.join(folder, f"match-{g.index:06d}.json")
            try:
                write_atomic(path, text, "--records")
            except OSError as e:  # a full disk: the command's located error, exit 1
                raise OutputError(f"--records {path}: {e.strerror or e}") from None

    return keep


def run(plan: Plan) -> tuple:
    """(a ``rows.Batch`` of the games in game order with their measures, interrupted?).
    Ctrl-C keeps the batches that finished."""
    from .simulate import merge, run_batches

    done: list = []
    tick = _progress(plan.games)
    keep = _keep_records(plan.records) if plan.records else None

    def on_done(batch) -> None:
        done.append(batch)
        if keep:
            keep(batch.games)
        tick(batch.games)

    interrupted = False
    try:
        with terminate_as_interrupt():
            run_batches(
                plan.refs,
                list(plan.names),
                plan.seed,
                plan.games,
                plan.workers,
                bool(plan.records),
                on_done,
                address=plan.address,
            )
    except KeyboardInterrupt:
        interrupted = True
    return merge(done), interrupted


@contextlib.contextmanager
def terminate_as_interrupt():
    """While the block runs, SIGTERM stops it as Ctrl-C does: the workers are ended and what
    finished is kept (the default would kill the command and leave its workers running)."""
    import signal

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: signals stay as they are
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


__all__ = ["Plan", "run"]
