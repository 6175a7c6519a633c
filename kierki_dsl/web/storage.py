"""Durable tables: SQLite by default, PostgreSQL (psycopg) when given a ``postgresql://`` URL.

One small interface over DB-API connections. Every write commits before it returns, so an
action is on disk before the table acknowledges it. Seat tokens are never stored, only their
SHA-256 (a token is 32 random bytes: a fast hash is enough and a database leak gives no seat).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from typing import Any, Optional

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS web_tables (
        id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, ruleset_kind TEXT NOT NULL, ruleset_ref TEXT NOT NULL,
        ruleset_text TEXT, fingerprint TEXT NOT NULL, seed BIGINT NOT NULL, seats TEXT NOT NULL,
        creator_hash TEXT NOT NULL, status TEXT NOT NULL, note TEXT, record TEXT, finished DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS web_seats (
        table_id TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS web_actions (
        table_id TEXT NOT NULL, n INTEGER NOT NULL, deal INTEGER NOT NULL, seat INTEGER NOT NULL,
        action INTEGER NOT NULL, PRIMARY KEY (table_id, n))""",
)

_INSERT_SEAT = "INSERT INTO web_seats (table_id, seat, token_hash) VALUES (?, ?, ?)"
PLAYING, FINISHED, CLOSED = "playing", "finished", "closed"
_COLUMNS = (
    "id",
    "created",
    "ruleset_kind",
    "ruleset_ref",
    "ruleset_text",
    "fingerprint",
    "seed",
    "seats",
    "creator_hash",
    "status",
    "note",
    "record",
    "finished",
    "public",
)
# added after the first release: a database made before gets the column (existing tables private)
_PUBLIC = "ALTER TABLE web_tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0"


def token_hash(token: str) -> str:
    """What is stored for a secret token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class StorageError(Exception):
    """A database that cannot be opened or used (a bad URL, a lost connection, a failed write).

    A write that raises it was not acknowledged; the live table that made it is reloaded from
    what was committed (``web/rooms.py``)."""


class Storage:
    """Tables, seat tokens, every action and finished matches in one database."""

    def __init__(self, url: str):
        self.url = url
        self.lock = threading.Lock()
        self.postgres = url.startswith(("postgresql://", "postgres://"))
        self.mark = "%s" if self.postgres else "?"
        # sqlite3's or psycopg's connection: two APIs, told apart by ``self.postgres`` where they differ
        self.conn: Any = None
        self._connect()
        for statement in SCHEMA:
            self._run(statement)
        try:
            self._rows("SELECT public FROM web_tables WHERE id = ?", "")
        except StorageError:
            self._run(_PUBLIC)

    def _connect(self) -> None:
        if self.postgres:
            try:
                import psycopg
            except ImportError:
                raise StorageError("a PostgreSQL URL needs psycopg (pip install 'psycopg[binary]')") from None
            try:
                self.conn = psycopg.connect(self.url, connect_timeout=10)
            except psycopg.Error as e:  # the message names host and user, never the password
                raise StorageError(str(e).strip()) from None
        else:
            path = self.url[len("sqlite:///") :] if self.url.startswith("sqlite:///") else self.url
            self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")

    def close(self) -> None:
        with self.lock:
            if self.conn is not None:
                self.conn.close()

    # -- plumbing --------------------------------------------------------------------------------
    def _sql(self, statement: str) -> str:
        return statement.replace("?", self.mark) if self.mark != "?" else statement

    def _cursor(self):
        """A cursor on a live connection: a PostgreSQL connection that broke is opened again."""
        if self.postgres and (self.conn.closed or self.conn.broken):
            self._connect()
        return self.conn.cursor()

    def _errors(self) -> tuple:
        if self.postgres:
            import psycopg

            return (psycopg.Error,)
        return (sqlite3.Error,)

    def _run(self, statement: str, *params) -> None:
        """One write, committed before returning."""
        self._transaction([(statement, params)])

    def _transaction(self, steps: list) -> None:
        """Writes ``[(statement, params), ...]`` all or none, committed before returning."""
        with self.lock:
            try:
                cur = self._cursor()
            except self._errors() as e:
                raise StorageError(f"the database cannot be reached: {e}") from None
            try:
                if not self.postgres:
                    cur.execute("BEGIN")
                for statement, params in steps:
                    cur.execute(self._sql(statement), params)
                self.conn.commit() if self.postgres else cur.execute("COMMIT")
            except self._errors() as e:
                self._rollback()
                raise StorageError(f"a write failed: {type(e).__name__}: {e}") from None
            except BaseException:
                self._rollback()
                raise
            finally:
                cur.close()

    def _rollback(self) -> None:
        try:
            self.conn.rollback() if self.postgres else self.conn.execute("ROLLBACK")
        except self._errors():
            pass  # a broken connection has nothing to roll back; it is opened again next time

    def _rows(self, statement: str, *params) -> list:
        with self.lock:
            try:
                cur = self._cursor()
                try:
                    cur.execute(self._sql(statement), params)
                    rows = cur.fetchall()
                    if self.postgres:
                        self.conn.commit()
                    return rows
                finally:
                    cur.close()
            except self._errors() as e:
                self._rollback()
                raise StorageError(f"a read failed: {type(e).__name__}: {e}") from None

    # -- tables ----------------------------------------------------------------------------------
    def create(self, table: dict, seat_hashes: dict) -> None:
        """A new table (``table`` holds every column but status/record; ``public`` may be left out:
        private) and its seats' token hashes."""
        row = dict(table, status=PLAYING, note=None, record=None, finished=None, created=time.time())
        row["seats"] = json.dumps(row["seats"])
        row["public"] = 1 if row.get("public") else 0
        cols = ", ".join(_COLUMNS)
        marks = ", ".join("?" for _ in _COLUMNS)
        steps = [(f"INSERT INTO web_tables ({cols}) VALUES ({marks})", tuple(row[c] for c in _COLUMNS))]
        steps += [(_INSERT_SEAT, (table["id"], seat, h)) for seat, h in seat_hashes.items()]
        self._transaction(steps)  # a table is stored with all its seats or not at all

    def get(self, table_id: str) -> Optional[dict]:
        rows = self._rows(f"SELECT {', '.join(_COLUMNS)} FROM web_tables WHERE id = ?", table_id)
        return _table(rows[0]) if rows else None

    def with_status(self, status: str, limit: int = 1000, public: bool = False) -> list:
        """Tables in a status, newest first (with ``public``: only those their creator made public)."""
        only = " AND public = 1" if public else ""
        rows = self._rows(
            f"SELECT {', '.join(_COLUMNS)} FROM web_tables WHERE status = ?{only} "
            f"ORDER BY created DESC LIMIT {int(limit)}",
            status,
        )
        return [_table(r) for r in rows]

    def finish(self, table_id: str, record: dict) -> None:
        self._run(
            "UPDATE web_tables SET status = ?, record = ?, finished = ? WHERE id = ?",
            FINISHED,
            json.dumps(record, ensure_ascii=False),
            time.time(),
            table_id,
        )

    def close_table(self, table_id: str, note: str) -> None:
        """A table that cannot go on (a rule failed while playing, its ruleset changed)."""
        self._run(
            "UPDATE web_tables SET status = ?, note = ?, finished = ? WHERE id = ?", CLOSED, note, time.time(), table_id
        )

    def purge(self, before: float) -> int:
        """Delete the tables that ended (finished or closed) before ``before``, with their seats and
        actions, all in one transaction; how many tables went."""
        ended = "SELECT id FROM web_tables WHERE status <> ? AND COALESCE(finished, created) < ?"
        count = len(self._rows(ended, PLAYING, before))
        if count:
            self._delete(ended, (PLAYING, before))
        return count

    def delete(self, table_id: str) -> None:
        """Delete one table with its seats and actions (a table nobody ever opened)."""
        self._delete("SELECT id FROM web_tables WHERE id = ?", (table_id,))

    def _delete(self, which: str, params: tuple) -> None:
        """Delete the tables the query ``which`` selects, with their seats and actions, in one transaction."""
        self._transaction(
            [
                (f"DELETE FROM web_actions WHERE table_id IN ({which})", params),
                (f"DELETE FROM web_seats WHERE table_id IN ({which})", params),
                (f"DELETE FROM web_tables WHERE id IN ({which})", params),
            ]
        )

    # -- seats -----------------------------------------------------------------------------------
    def set_token(self, table_id: str, seat: int, hashed: str) -> None:
        """The seat's (new) token hash; the old token stops working."""
        self._transaction(
            [
                ("DELETE FROM web_seats WHERE table_id = ? AND seat = ?", (table_id, seat)),
                (_INSERT_SEAT, (table_id, seat, hashed)),
            ]
        )  # never a seat without a token

    def token_hashes(self, table_id: str) -> dict:
        return {int(s): h for s, h in self._rows("SELECT seat, token_hash FROM web_seats WHERE table_id = ?", table_id)}

    # -- actions ---------------------------------------------------------------------------------
    def add_action(self, table_id: str, n: int, deal: int, seat: int, action: int) -> None:
        self._run(
            "INSERT INTO web_actions (table_id, n, deal, seat, action) VALUES (?, ?, ?, ?, ?)",
            table_id,
            n,
            deal,
            seat,
            action,
        )

    def actions(self, table_id: str) -> list:
        """Every action of the table in order, as (deal, seat, action)."""
        rows = self._rows("SELECT deal, seat, action FROM web_actions WHERE table_id = ? ORDER BY n", table_id)
        return [(int(d), int(s), int(a)) for d, s, a in rows]


def _table(row) -> dict:
    out = dict(zip(_COLUMNS, row))
    out["seats"] = json.loads(out["seats"])
    out["record"] = json.loads(out["record"]) if out["record"] else None
    out["public"] = bool(out["public"])
    return out
