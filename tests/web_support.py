"""Helpers of the web tests: a server app on a temporary database, seats played over WebSockets.

The web stack (Starlette, uvicorn, httpx, websockets) is imported only when a test uses it, so
collecting the suite does not grow the pytest process (other tests measure the peak memory of
the commands they start, and a forked child starts with its parent's pages)."""
from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parent.parent
_CATALOGUES: dict = {}  # folders -> the Catalogue of the repository's own folders, loaded once per process


def need_web() -> None:
    """Skip the calling test when the [web] extra is not installed."""
    for name in ("starlette", "uvicorn", "httpx", "websockets"):
        pytest.importorskip(name)


def make_config(db: str, **settings):
    """The settings of a test server: fast bots, storing in ``db``."""
    from kierki_dsl.web.config import WebConfig

    base = {"bot_delay": 0.0, "sweep_seconds": 3600.0, "rate": 1000.0, "burst": 1000.0, "creates_per_minute": 6000.0,
            "create_burst": 1000.0}
    return WebConfig(db=db, **dict(base, **settings))


def make_app(db: str, **settings):
    """The web application with fast bots, storing in ``db``."""
    from kierki_dsl.web.app import create_app

    return create_app(make_config(db, **settings))


def shared_catalogue(folders):
    """The server's Catalogue of ``folders``, loaded once per test process when every folder is
    the repository's own (the shipped rulesets, tests/data: files no test changes), else fresh.

    Loading and explaining the 61 shipped rulesets is most of a test server's start; a Catalogue
    is not changed by a server (it only caches the entries worded in a language)."""
    from kierki_dsl.web.catalogue import Catalogue

    key = tuple(str(Path(f).resolve()) for f in folders)
    if not all(Path(f).is_relative_to(ROOT) for f in key):
        return Catalogue(folders)
    if key not in _CATALOGUES:
        _CATALOGUES[key] = Catalogue(folders)
    return _CATALOGUES[key]


@contextlib.contextmanager
def running_server(db: str, **settings):
    """A real server (uvicorn in a thread) on 127.0.0.1, a free port; always stopped. Yields its base URL."""
    need_web()
    import uvicorn

    from kierki_dsl.web import app
    from kierki_dsl.web.server import bind, url_of, uvicorn_config

    sock = bind("127.0.0.1", 0)
    config = make_config(db, **settings)
    server = uvicorn.Server(uvicorn_config(app.create_app(config), config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    catalogue = mock.patch.object(app, "Catalogue", shared_catalogue)  # read at the server's startup
    catalogue.start()
    thread.start()
    try:
        try:
            deadline = time.monotonic() + 30
            while not server.started:
                assert thread.is_alive() and time.monotonic() < deadline, "the web server did not start"
                time.sleep(0.02)
        finally:
            catalogue.stop()
        yield url_of(sock).rstrip("/")
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


class Client:
    """HTTP and WebSocket calls to a running server, from a page of that server (its ``Origin``)."""

    def __init__(self, base: str, origin: str = None):
        import httpx

        self.base = base
        self.origin = base if origin is None else origin
        self.http = httpx.Client(base_url=base, timeout=30, headers={"Origin": self.origin} if self.origin else {})

    def get(self, path, **kw):
        return self.http.get(path, **kw)

    def post(self, path, **kw):
        return self.http.post(path, **kw)

    def websocket_connect(self, path, headers=None):
        from websockets.sync.client import connect

        conn = connect(self.base.replace("http://", "ws://") + path, open_timeout=10, max_size=2**22,
                       origin=self.origin or None, additional_headers=headers)
        conn.__enter__()  # closed by WS.__exit__ / WS.close
        return WS(conn)

    def close(self):
        self.http.close()


class WS:
    """A sync WebSocket with the small API the tests use."""

    def __init__(self, conn):
        self.conn = conn

    def send_text(self, text):
        self.conn.send(text)

    def receive_json(self, timeout=30):
        return json.loads(self.conn.recv(timeout))

    def receive_text(self, timeout=30):
        return self.conn.recv(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.conn.close()

    def close(self):
        self.conn.close()


def create_table(client, seats, ruleset="kierki_standard.yaml", upload=None) -> dict:
    """Create a table; its id, the secrets of its human seats (seat -> token) and the creator's."""
    body = {"seats": seats}
    body.update({"upload": upload} if upload else {"ruleset": ruleset})
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    doc = r.json()
    return {"id": doc["id"], "tokens": {int(s): link.split("#", 1)[1] for s, link in doc["links"].items()},
            "creator": doc["creator"], "links": doc["links"]}


def send(ws, doc) -> None:
    ws.send_text(json.dumps(doc))


class Seat(threading.Thread):
    """A human seat played by a program: acts (a random legal action) whenever its latest state says so.

    Every message received is kept in ``received`` (for the no-leak check). Stops when the match is
    over, after ``limit`` messages, or when ``stop_after`` actions were taken."""

    def __init__(self, ws, seat: int, seed: int = 0, stop_after: int = 10**9, limit: int = 20000):
        super().__init__(daemon=True)
        self.ws, self.seat = ws, seat
        self.rng = random.Random(seed)
        self.received: list = []
        self.acted = 0
        self.stop_after, self.limit = stop_after, limit
        self.error = None

    def run(self) -> None:
        try:
            latest = None
            while len(self.received) < self.limit:
                msg = self.ws.receive_json()
                self.received.append(msg)
                if msg["type"] == "error" and msg.get("code") == "rate" and latest is not None:
                    time.sleep(0.2)  # a server with the real rate limit: slow down and try again
                    self._act(latest)
                if msg["type"] != "state":
                    continue
                if msg["over"] or msg["failure"] or self.acted >= self.stop_after:
                    return
                latest = None
                if msg["to_move"] == self.seat and not msg["paused"]:
                    latest = msg
                    self._act(msg)
                    self.acted += 1
        except Exception as e:  # the socket closed: the test looks at what was received
            self.error = e

    def _act(self, msg) -> None:
        v = msg["view"]
        send(self.ws, {"type": "act", "action": self.rng.choice(v["legal"]), "deal": v["deal_number"], "ply": v["ply"]})

    def last_state(self):
        return next((m for m in reversed(self.received) if m["type"] == "state"), None)


def sit(client, stack, table_id: str, token: str):
    """A WebSocket that has said hello with ``token`` (entered in ``stack``, an ExitStack)."""
    ws = stack.enter_context(client.websocket_connect(f"/ws/{table_id}"))
    send(ws, {"type": "hello", "token": token})
    return ws


def shown_to(table: dict, seat: int = None) -> dict:
    """Headers that show a seat's token (the first human seat's by default): a private match's record opens."""
    tokens = table["tokens"]
    return {"Authorization": f"Bearer {tokens[min(tokens) if seat is None else seat]}"}
