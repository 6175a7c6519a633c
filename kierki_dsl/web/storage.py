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
from typing import Optional

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

PLAYING, FINISHED, CLOSED = "playing", "finished", "closed"
_COLUMNS = ("id", "created", "ruleset_kind", "ruleset_ref", "ruleset_text", "fingerprint", "seed", "seats",
            "creator_hash", "status", "note", "record", "finished")


def token_hash(token: str) -> str:
    """What is stored for a secret token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class StorageError(Exception):
    """A database URL that cannot be used."""


class Storage:
    """Tables, seat tokens, every action and finished matches in one database."""

    def __init__(self, url: str):
        self.url = url
        self.lock = threading.Lock()
        if url.startswith(("postgresql://", "postgres://")):
            try:
                import psycopg
            except ImportError:
                raise StorageError("a PostgreSQL URL needs psycopg (pip install 'psycopg[binary]')") from None
            self.conn = psycopg.connect(url)
            self.mark = "%s"
        else:
            path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
            self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.mark = "?"
        for statement in SCHEMA:
            self._run(statement)

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    # -- plumbing --------------------------------------------------------------------------------
    def _sql(self, statement: str) -> str:
        return statement.replace("?", self.mark) if self.mark != "?" else statement

    def _run(self, statement: str, *params, many: Optional[list] = None) -> None:
        """One write (or a batch), committed before returning."""
        with self.lock:
            cur = self.conn.cursor()
            try:
                if self.mark == "?":
                    cur.execute("BEGIN")
                if many is not None:
                    cur.executemany(self._sql(statement), many)
                else:
                    cur.execute(self._sql(statement), params)
                self.conn.commit() if self.mark != "?" else cur.execute("COMMIT")
            except BaseException:
                self.conn.rollback()
                raise
            finally:
                cur.close()

    def _rows(self, statement: str, *params) -> list:
        with self.lock:
            cur = self.conn.cursor()
            try:
                cur.execute(self._sql(statement), params)
                rows = cur.fetchall()
                if self.mark != "?":
                    self.conn.commit()
                return rows
            finally:
                cur.close()

    # -- tables ----------------------------------------------------------------------------------
    def create(self, table: dict, seat_hashes: dict) -> None:
        """A new table (``table`` holds every column but status/record) and its seats' token hashes."""
        row = dict(table, status=PLAYING, note=None, record=None, finished=None, created=time.time())
        row["seats"] = json.dumps(row["seats"])
        cols = ", ".join(_COLUMNS)
        marks = ", ".join("?" for _ in _COLUMNS)
        self._run(f"INSERT INTO web_tables ({cols}) VALUES ({marks})", *(row[c] for c in _COLUMNS))
        for seat, h in seat_hashes.items():
            self.set_token(table["id"], seat, h)

    def get(self, table_id: str) -> Optional[dict]:
        rows = self._rows(f"SELECT {', '.join(_COLUMNS)} FROM web_tables WHERE id = ?", table_id)
        return _table(rows[0]) if rows else None

    def with_status(self, status: str, limit: int = 1000) -> list:
        """Tables in a status, newest first."""
        rows = self._rows(f"SELECT {', '.join(_COLUMNS)} FROM web_tables WHERE status = ? ORDER BY created DESC LIMIT {int(limit)}",
                          status)
        return [_table(r) for r in rows]

    def finish(self, table_id: str, record: dict) -> None:
        self._run("UPDATE web_tables SET status = ?, record = ?, finished = ? WHERE id = ?",
                  FINISHED, json.dumps(record, ensure_ascii=False), time.time(), table_id)

    def close_table(self, table_id: str, note: str) -> None:
        """A table that cannot go on (a rule failed while playing, its ruleset changed)."""
        self._run("UPDATE web_tables SET status = ?, note = ? WHERE id = ?", CLOSED, note, table_id)

    # -- seats -----------------------------------------------------------------------------------
    def set_token(self, table_id: str, seat: int, hashed: str) -> None:
        """The seat's (new) token hash; the old token stops working."""
        self._run("DELETE FROM web_seats WHERE table_id = ? AND seat = ?", table_id, seat)
        self._run("INSERT INTO web_seats (table_id, seat, token_hash) VALUES (?, ?, ?)", table_id, seat, hashed)

    def token_hashes(self, table_id: str) -> dict:
        return {int(s): h for s, h in self._rows("SELECT seat, token_hash FROM web_seats WHERE table_id = ?", table_id)}

    # -- actions ---------------------------------------------------------------------------------
    def add_action(self, table_id: str, n: int, deal: int, seat: int, action: int) -> None:
        self._run("INSERT INTO web_actions (table_id, n, deal, seat, action) VALUES (?, ?, ?, ?, ?)",
                  table_id, n, deal, seat, action)

    def actions(self, table_id: str) -> list:
        """Every action of the table in order, as (deal, seat, action)."""
        rows = self._rows("SELECT deal, seat, action FROM web_actions WHERE table_id = ? ORDER BY n", table_id)
        return [(int(d), int(s), int(a)) for d, s, a in rows]


def _table(row) -> dict:
    out = dict(zip(_COLUMNS, row))
    out["seats"] = json.loads(out["seats"])
    out["record"] = json.loads(out["record"]) if out["record"] else None
    return out
