"""Live tables: a ``Table`` per room, its sockets, its bots, saving every action, resuming.

A room is the only owner of its table. Every change (an action, a seat filled or emptied)
marks each connected seat's socket *dirty*; the socket's writer then sends that seat a fresh
``seat_state``. An action is committed to storage (``Table.on_action``) before anyone is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import secrets
import shutil
import tempfile
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Optional

from ..i18n import tr
from .storage import PLAYING, StorageError, token_hash

LOG_LENGTH = 16  # recent actions of the deal shown to a seat


class RoomError(Exception):
    """A request the server refuses (``status``: the HTTP status to answer with)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def new_seed() -> int:
    """A new table's seed: 62 random bits (its deals and its bots' choices follow from it)."""
    return secrets.randbelow(2**62)


def new_token() -> str:
    """A secret for a seat or a creator: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


class Conn:
    """One browser socket at a seat: a writer sends the latest state and queued replies."""

    def __init__(self, ws, seat: int):
        self.ws = ws
        self.seat = seat
        self.dirty = True
        self.replies: list = []
        self.wake = asyncio.Event()
        self.wake.set()
        self.closing: Optional[tuple] = None  # (code, reason) to close with
        self.lang = "en"  # the language this browser reads (its Accept-Language, or the page's switch)

    def mark(self) -> None:
        self.dirty = True
        self.wake.set()

    def reply(self, doc: dict) -> None:
        if len(self.replies) < 64:
            self.replies.append(doc)
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        self.closing = (code, reason)
        self.wake.set()


class StoredJournal:
    """A web table's save journal: each action committed to storage before anyone is told."""

    def __init__(self, storage, table_id: str, count: int):
        self.storage = storage
        self.table_id = table_id
        self.count = count

    def write(self, deal_index: int, seat: int, action: int) -> None:
        self.storage.add_action(self.table_id, self.count, deal_index, seat, action)
        self.count += 1


class Room:
    """One table being played: the match, who sits where, the bots and the sockets."""

    def __init__(self, rooms: "Rooms", row: dict, ruleset, actions: list):
        from ..players.base import make_player
        from ..table import Failed, Session
        from ..table.savefile import SavedAction

        self.rooms = rooms
        self.id = row["id"]
        self.row = row
        self.ruleset = ruleset
        self.kinds = list(row["seats"])
        self.seed = int(row["seed"])
        self.failure: Optional[str] = None
        self.conns: dict = {}
        self.logs: dict = {}  # seat -> its recent (seat, action) of this deal, from the table's events
        self.tokens = rooms.storage.token_hashes(self.id)
        self.changed = asyncio.Event()
        self.last_active = time.monotonic()
        self.opened = False  # a seat's link was opened since the room was made or loaded
        self.creator_address: Optional[str] = None  # who created it, while it is live (for the per-address cap)
        spec = rooms.config.player_spec
        self.session = Session(ruleset, self.seed, [None if k == "human" else make_player(spec(k)) for k in self.kinds])
        self.table = self.session.table
        stored = [SavedAction(d + 1, s, a, n) for n, (d, s, a) in enumerate(actions, start=1)]
        outcome = self.session.resume(stored, self.id, place=lambda e: f"stored action {e.line}")
        if isinstance(outcome, Failed):
            raise RoomError(outcome.message, 500)
        self.session.keep(StoredJournal(rooms.storage, self.id, len(actions)))
        self.task = asyncio.ensure_future(self._bots())

    # -- seats -----------------------------------------------------------------------------------
    def seat_of(self, token: str) -> Optional[int]:
        """The seat a token opens, or None (compared in constant time)."""
        got = token_hash(token)
        found = None
        for seat, h in self.tokens.items():
            if hmac.compare_digest(h, got):
                found = seat
        return found

    def join(self, seat: int, ws) -> Conn:
        """Seat a socket; an older socket of the same seat (a reload) is closed."""
        old = self.conns.get(seat)
        if old is not None:
            old.close(4000, "this seat was opened elsewhere")
        if seat in self.table.listeners:
            self.table.leave(seat)
        conn = Conn(ws, seat)
        self.conns[seat] = conn
        self.logs[seat] = deque(maxlen=LOG_LENGTH)
        self.opened = True
        self.table.sit(seat, functools.partial(self._heard, seat))
        self.touch()
        return conn

    def _heard(self, seat: int, event) -> None:
        """What the table core told ``seat`` (only what it may know): its recent plays and passes."""
        from ..table.events import DealStarted, Played

        log = self.logs.get(seat)
        if log is None:
            return
        if isinstance(event, DealStarted):
            log.clear()
        elif isinstance(event, Played):
            log.append((event.seat, event.action))

    def leave(self, conn: Conn) -> None:
        if self.conns.get(conn.seat) is conn:
            del self.conns[conn.seat]
            self.table.leave(conn.seat)
            self.touch()

    def revoke(self, seat: int) -> str:
        """A new secret for ``seat``; the old one stops working and its socket is closed."""
        token = new_token()
        self.rooms.storage.set_token(self.id, seat, token_hash(token))
        self.tokens[seat] = token_hash(token)
        conn = self.conns.get(seat)
        if conn is not None:
            conn.close(4003, "your invitation was revoked")
            self.leave(conn)
        return token

    def touch(self) -> None:
        """Something changed: every seat gets a fresh state, the bots look again."""
        self.last_active = time.monotonic()
        self.changed.set()
        for conn in self.conns.values():
            conn.mark()

    # -- acting ----------------------------------------------------------------------------------
    def act(self, seat: int, action: int) -> Optional[str]:
        """Apply an action (committed before anyone hears of it); the reason it is refused, or None.

        When storage fails, the action was not committed: the room is unloaded (its sockets are
        closed) and the next link opened loads the table again from what storage holds."""
        if self.failure:
            return self.failure
        try:
            return self._act(seat, action)
        except StorageError:  # not saved, so not acknowledged: the table goes back to what was saved
            self.rooms.unload(self, "the server could not save that action, so it was not played: play it again")
            return self.failure

    def _act(self, seat: int, action: int) -> Optional[str]:
        from ..table import Failed, Refused

        outcome = self.session.act(seat, action)
        if isinstance(outcome, Refused):
            return outcome.reason
        if isinstance(outcome, Failed):
            self._fail(outcome.message)
            return None
        if self.table.over:
            self._finish()
        self.touch()
        return None

    def record(self) -> dict:
        """The finished match as a ``kierki-record/1`` document."""
        from ..record import match_record

        m = self.table.match
        rec = match_record(self.ruleset, self.seed, m.first_dealer, self.table.results)
        rec["ruleset"]["path"] = self.row["ruleset_ref"]
        return rec

    def _finish(self) -> None:
        self.rooms.storage.finish(self.id, self.record())

    def _fail(self, message: str) -> None:
        self.failure = message
        self.rooms.storage.close_table(self.id, message)
        self.touch()

    async def _bots(self) -> None:
        from ..table.drive import drive_bots

        def fail(seat: int, message: str) -> None:  # a bot that fails stops the table, not the server
            self._fail(message)

        await drive_bots(
            self.table,
            self.changed,
            self.rooms.pool,
            self.act,
            fail,
            self.rooms.config.bot_delay,
            halted=lambda: bool(self.failure),
        )

    def abandon(self, message: str) -> None:
        """Stop in memory only (storage is out of reach): refuse actions, close every socket."""
        self.failure = message
        self.changed.set()
        for conn in list(self.conns.values()):
            conn.reply({"type": "error", "code": "unavailable", "message": message})
            conn.close(1011, "storage unavailable")

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        self.session.close()  # an exec: bot's process goes with its room
        for conn in list(self.conns.values()):
            if conn.closing is None:
                conn.close(1001, "the server is going away")


class Rooms:
    """Every live room of a server, created, loaded (lazily or at start) and put away."""

    def __init__(self, config, storage, catalogue):
        self.config = config
        self.storage = storage
        self.catalogue = catalogue
        self.live: dict = {}
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kierki-web-bots")
        self.workdir = tempfile.mkdtemp(prefix="kierki-web-")
        self.sweeper: Optional[asyncio.Task] = None
        self.uploads: dict = {}  # table id -> its uploaded ruleset, compiled once
        self.purged_at = float("-inf")

    async def start(self) -> None:
        """Resume every unfinished table (as many as may be live), then sweep idle ones."""
        for row in reversed(self.storage.with_status(PLAYING, self.config.max_tables)):
            self._load(row)
        self.sweeper = asyncio.ensure_future(self._sweep())

    async def stop(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            await asyncio.gather(self.sweeper, return_exceptions=True)
        for room in list(self.live.values()):
            await room.stop()
        self.live.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)
        shutil.rmtree(self.workdir, ignore_errors=True)

    # -- rulesets --------------------------------------------------------------------------------
    def ruleset_of(self, row: dict):
        """The ruleset a stored table plays, or None if it cannot be loaded as it was."""
        if row["ruleset_kind"] == "upload":
            from .catalogue import load_text

            rs = self.uploads.get(row["id"])
            if rs is None:
                rs = load_text(row["ruleset_ref"], row["ruleset_text"] or "", self.workdir)
                if rs is not None and len(self.uploads) < 4 * self.config.max_tables:
                    self.uploads[row["id"]] = rs
        else:
            got = self.catalogue.get(row["ruleset_ref"])
            rs = got[1] if got else None
        return rs if rs is not None and rs.fingerprint == row["fingerprint"] else None

    # -- tables ----------------------------------------------------------------------------------
    def create(
        self, kind: str, ref: str, text: Optional[str], ruleset, seats: list, address: str = "-", public: bool = False
    ) -> dict:
        """A new table; the creator's secret and one secret per human seat (shown once). At most
        ``tables_per_address`` live tables come from one address."""
        if len(self.live) >= self.config.max_tables:
            raise RoomError(
                tr("the server has {n} tables already; try again later").format(n=self.config.max_tables), 503
            )
        mine = sum(1 for room in self.live.values() if room.creator_address == address)
        if mine >= self.config.tables_per_address:
            raise RoomError(
                tr("your address has {n} tables being played already; finish one first").format(n=mine), 429
            )
        tokens = {s: new_token() for s, k in enumerate(seats) if k == "human"}
        creator = new_token()
        row = {
            "id": secrets.token_urlsafe(9),
            "ruleset_kind": kind,
            "ruleset_ref": ref,
            "ruleset_text": text,
            "fingerprint": ruleset.fingerprint,
            "seed": new_seed(),
            "seats": list(seats),
            "creator_hash": token_hash(creator),
            "public": public,
        }
        self.storage.create(row, {s: token_hash(t) for s, t in tokens.items()})
        room = self.live[row["id"]] = Room(self, self.storage.get(row["id"]), ruleset, [])
        room.creator_address = address
        return {"id": row["id"], "creator": creator, "tokens": tokens}

    def room(self, table_id: str) -> Optional[Room]:
        """The live room of an unfinished table, loading it from storage if it was put away."""
        room = self.live.get(table_id)
        if room is not None:
            return room
        row = self.storage.get(table_id)
        if row is None or row["status"] != PLAYING:
            return None
        if len(self.live) >= self.config.max_tables:
            raise RoomError(tr("the server is full; try again later"), 503)
        return self._load(row)

    def _load(self, row: dict) -> Optional[Room]:
        rs = self.ruleset_of(row)
        if rs is None:
            self.storage.close_table(row["id"], "its ruleset is no longer offered as it was")
            return None
        try:
            room = Room(self, row, rs, self.storage.actions(row["id"]))
        except Exception as e:  # a corrupt store (an illegal action, a failing rule) must not stop the server
            self.storage.close_table(row["id"], f"cannot be resumed: {e}")
            return None
        self.live[row["id"]] = room
        if room.table.over and row["status"] == PLAYING:
            room._finish()
        return room

    def unload(self, room: Room, message: str) -> None:
        """Forget a live room whose memory may be ahead of storage; it loads again when opened."""
        room.abandon(message)
        if self.live.get(room.id) is room:
            del self.live[room.id]
        asyncio.ensure_future(room.stop())

    def revoke(self, table_id: str, creator: str, seat: int) -> str:
        row = self.storage.get(table_id)
        if row is None or not hmac.compare_digest(row["creator_hash"], token_hash(creator)):
            raise RoomError(tr("not the creator of this table"), 403)
        if not 0 <= seat < len(row["seats"]) or row["seats"][seat] != "human":
            raise RoomError(tr("no such human seat"), 400)
        if row["status"] != PLAYING:
            raise RoomError(tr("the table is not being played"), 409)
        room = self.room(table_id)
        if room is None:
            raise RoomError(tr("the table is not being played"), 409)
        return room.revoke(seat)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            await self.sweep()

    async def sweep(self) -> None:
        """Put away rooms nobody has been connected to for ``idle_seconds`` (they stay in storage),
        or whose links nobody opened within ``unopened_seconds`` (a table created here is then
        deleted: it holds nothing but its links); every ``purge_seconds``, delete tables that
        ended more than ``keep_days`` ago."""
        now = time.monotonic()
        for table_id, room in list(self.live.items()):
            unopened = not room.opened and now - room.last_active >= self.config.unopened_seconds
            if not room.conns and (unopened or now - room.last_active >= self.config.idle_seconds):
                del self.live[table_id]
                await room.stop()
                if unopened and room.creator_address is not None and room.session.journal.count == 0:
                    with contextlib.suppress(StorageError):  # the database is out of reach: it stays, put away
                        self.storage.delete(table_id)
        if self.config.keep_days > 0 and now - self.purged_at >= self.config.purge_seconds:
            self.purged_at = now
            try:
                self.storage.purge(time.time() - self.config.keep_days * 86400)
            except StorageError:
                self.purged_at = float("-inf")  # the database is out of reach: try again next sweep
