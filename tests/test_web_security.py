"""The web server against attackers (issue 22, items 4, 6-8): headers on every response,
cross-site writes and sockets, forwarded addresses, tables nobody opens, silent sockets, and
who may see a finished match. Loopback only; every server is stopped whatever happens."""
from __future__ import annotations

import contextlib
import time

import pytest
from web_support import Client, create_table, running_server, send, shown_to, sit

ASK = {"ruleset": "kierki_standard.yaml", "seats": ["human", "random", "random", "random"]}


@pytest.fixture
def served(tmp_path, request):
    """(client, database path) of a server with the settings given as the fixture's parameter."""
    db = str(tmp_path / "w.sqlite3")
    with running_server(db, **getattr(request, "param", {})) as base:
        client = Client(base)
        try:
            yield client, db
        finally:
            client.close()


def _store(db):
    from kierki_dsl.web.storage import Storage

    return Storage(db)


def _poll(condition, what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


# -- item 6: cross-site requests ----------------------------------------------------------------------

def test_every_response_carries_the_security_headers(served):
    client, _ = served
    for path in ("/", "/t/x", "/m/x", "/static/index.html", "/static/table.html", "/static/table.js",
                 "/api/rulesets", "/api/matches", "/no-such-page"):
        r = client.get(path)
        assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), path
        assert r.headers.get("x-frame-options") == "DENY", path
        assert r.headers.get("x-content-type-options") == "nosniff", path


def test_a_write_must_be_json_from_this_server(served):
    client, _ = served
    import httpx

    body = '{"ruleset": "kierki_standard.yaml", "seats": ["human", "random", "random", "random"]}'
    foreign = httpx.Client(base_url=client.base, timeout=30)
    try:
        for headers in ({"Content-Type": "text/plain", "Origin": "http://evil.example"},  # a form, a no-cors fetch
                        {"Content-Type": "text/plain", "Origin": client.base},
                        {"Content-Type": "application/x-www-form-urlencoded", "Origin": client.base}):
            r = foreign.post("/api/tables", content=body, headers=headers)
            assert r.status_code == 415 and "application/json" in r.json()["error"], headers
        for headers in ({"Content-Type": "application/json", "Origin": "http://evil.example"},
                        {"Content-Type": "application/json", "Origin": client.base.replace("127.0.0.1", "localhost")},
                        {"Content-Type": "application/json", "Origin": client.base.rsplit(":", 1)[0] + ":1"},  # another port
                        {"Content-Type": "application/json", "Origin": "null"},
                        {"Content-Type": "application/json"}):
            for path in ("/api/tables", "/api/lint", "/api/tables/x/revoke", "/api/tables/x/admin"):
                r = foreign.post(path, content=body, headers=headers)
                assert r.status_code == 403, (path, headers)
                assert r.headers["x-frame-options"] == "DENY"
        assert _store(served[1]).with_status("playing") == []  # nothing was created
        r = foreign.post("/api/tables", content=body, headers={"Content-Type": "application/json", "Origin": client.base})
        assert r.status_code == 200
    finally:
        foreign.close()


def test_a_websocket_from_another_sites_page_is_refused(served):
    client, _ = served
    table = create_table(client, ASK["seats"])
    evil = Client(client.base, origin="http://evil.example")
    try:
        with pytest.raises(Exception, match="403"):
            evil.websocket_connect(f"/ws/{table['id']}")
    finally:
        evil.close()
    with contextlib.ExitStack() as stack:  # the table's own page (and a program without Origin) is served
        assert sit(client, stack, table["id"], table["tokens"][0]).receive_json()["type"] == "state"
        bare = Client(client.base, origin="")
        stack.callback(bare.close)
        assert sit(bare, stack, table["id"], table["tokens"][0]).receive_json()["type"] == "state"


# -- item 7: locking everyone out ------------------------------------------------------------------------

@pytest.mark.parametrize("served", [{"creates_per_minute": 1.0, "create_burst": 2.0}], indirect=True)
def test_a_forwarded_address_is_not_believed_without_a_proxy(served):
    client, _ = served
    codes = [client.post("/api/lint", json={"name": "a.yaml", "text": "kierki: 1\n"},
                         headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code for i in range(4)]
    assert codes == [200, 200, 429, 429]


@pytest.mark.parametrize("served", [{"creates_per_minute": 1.0, "create_burst": 2.0, "proxies": ("127.0.0.1/32",)}], indirect=True)
def test_a_named_proxy_forwards_each_clients_address(served):
    client, _ = served
    codes = [client.post("/api/lint", json={"name": "a.yaml", "text": "kierki: 1\n"},
                         headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code for i in range(4)]
    assert codes == [200] * 4
    same = [client.post("/api/lint", json={"name": "a.yaml", "text": "kierki: 1\n"},
                        headers={"X-Forwarded-For": "10.0.0.9"}).status_code for _ in range(3)]
    assert same == [200, 200, 429]


@pytest.mark.parametrize("served", [{"unopened_seconds": 0.5, "sweep_seconds": 0.05, "tables_per_address": 2, "max_tables": 3}], indirect=True)
def test_tables_nobody_opens_expire_and_one_address_holds_few(served):
    client, db = served
    first, second = create_table(client, ASK["seats"]), create_table(client, ASK["seats"])
    r = client.post("/api/tables", json=ASK)
    assert r.status_code == 429 and "tables" in r.json()["error"]
    store = _store(db)
    try:
        with contextlib.ExitStack() as stack:
            sit(client, stack, first["id"], first["tokens"][0]).receive_json()  # opened: it stays
            _poll(lambda: store.get(second["id"]) is None, "the unopened table was never deleted")
            assert store.get(first["id"])["status"] == "playing"
            third = create_table(client, ASK["seats"])  # its place came back
            with pytest.raises(AssertionError):
                create_table(client, ASK["seats"])
        assert third["id"] != second["id"]
    finally:
        store.close()


@pytest.mark.parametrize("served", [{"proxies": ("127.0.0.1",)}], indirect=True)
def test_silent_sockets_lock_out_only_their_own_address(served):
    """Sockets that never say hello: a few per address wait, the rest are closed at once; the
    table's people, from other addresses, take their seats meanwhile."""
    client, _ = served
    from websockets.exceptions import ConnectionClosed

    from kierki_dsl.web.config import WebConfig

    table = create_table(client, ASK["seats"])
    per_address = WebConfig().pending_per_address
    with contextlib.ExitStack() as stack:
        silent = [stack.enter_context(client.websocket_connect(f"/ws/{table['id']}", {"X-Forwarded-For": "10.6.6.6"}))
                  for _ in range(per_address + 4)]
        for ws in silent[per_address:]:
            with pytest.raises(ConnectionClosed):
                ws.receive_json(timeout=10)
            assert ws.conn.close_code == 1013
        ws = stack.enter_context(client.websocket_connect(f"/ws/{table['id']}", {"X-Forwarded-For": "10.1.1.1"}))
        send(ws, {"type": "hello", "token": table["tokens"][0]})
        assert ws.receive_json()["type"] == "state"
        with pytest.raises(ConnectionClosed):  # the first ones are closed after hello_seconds
            silent[0].receive_json(timeout=WebConfig().hello_seconds + 10)
        assert silent[0].conn.close_code == 4001


def test_a_handshake_times_out_fast():
    from kierki_dsl.web.config import WebConfig

    assert WebConfig().hello_seconds <= 5


# -- item 8 and the seed of item 4: who sees a finished match ------------------------------------------

SEED = 3549838695964872304  # above 2**53: a JSON number would lose it


def _finished(client, db, public=None) -> dict:
    body = dict(ASK, **({} if public is None else {"public": public}))
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    doc = r.json()
    table = {"id": doc["id"], "creator": doc["creator"],
             "tokens": {int(s): link.split("#", 1)[1] for s, link in doc["links"].items()}}
    store = _store(db)
    try:
        store.finish(table["id"], {"format": "kierki-record/1", "ruleset": {"name": "Kierki", "path": "kierki_standard.yaml"},
                                   "seed": SEED, "players": 4, "first_dealer": 0, "deals": [], "totals": [0, 0, 0, 0]})
    finally:
        store.close()
    return table


def test_a_finished_match_is_seen_by_its_seats_only(served):
    client, db = served
    table = _finished(client, db)
    assert client.get("/api/matches").json() == []
    for tail in ("", "/record", "/ruleset"):
        path = f"/api/matches/{table['id']}{tail}"
        assert client.get(path).status_code == 404, path
        assert client.get(path, headers={"Authorization": "Bearer " + "x" * 43}).status_code == 404, path
        assert client.get(path, headers=shown_to(table)).status_code == 200, path
        assert client.get(path, headers={"Authorization": f"Bearer {table['creator']}"}).status_code == 200, path
    doc = client.get(f"/api/matches/{table['id']}", headers=shown_to(table)).json()
    assert doc["seed"] == str(SEED)  # a string: the page shows it exactly


def test_a_match_its_creator_made_public_is_listed(served):
    client, db = served
    table = _finished(client, db, public=True)
    assert [m["id"] for m in client.get("/api/matches").json()] == [table["id"]]
    assert client.get(f"/api/matches/{table['id']}/record").json()["seed"] == SEED
    assert client.post("/api/tables", json=dict(ASK, public="yes")).status_code == 400


def test_a_closed_tables_status_needs_a_token(served):
    client, db = served
    table = create_table(client, ASK["seats"])
    store = _store(db)
    try:
        store.close_table(table["id"], "secret note about the table")
    finally:
        store.close()
    with contextlib.ExitStack() as stack:
        got = sit(client, stack, table["id"], "x" * 43).receive_json()
        assert got["type"] == "error" and got["code"] == "bad-token" and "secret" not in str(got)
        got = sit(client, stack, table["id"], table["tokens"][0]).receive_json()
        assert got["type"] == "closed" and got["note"] == "secret note about the table"


# -- item 9 at the web listener ---------------------------------------------------------------------------

def test_the_web_listener_turns_nagle_off(served):
    import socket
    from urllib.parse import urlsplit

    from net_support import accepted_socket_nodelay

    url = urlsplit(served[0].base)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        assert accepted_socket_nodelay(sock) != 0


def test_addresses_are_counted_by_client_and_gates_give_places_back():
    from kierki_dsl.web.throttle import Gate, client_key

    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:10.1.2.3") == client_key("10.1.2.3") == "10.1.2.3"
    gate = Gate(per_address=2, total=3)
    assert [gate.enter("a"), gate.enter("a"), gate.enter("a")] == [True, True, False]
    assert gate.enter("b") and not gate.enter("c")  # the total is reached
    gate.leave("a")
    assert gate.enter("c") and gate.held == {"a": 1, "b": 1, "c": 1}


def test_a_database_made_before_public_matches_gets_the_column_and_stays_private(db_url):
    """An older database (no ``public`` column) is opened as it is: its matches are private."""
    from kierki_dsl.web import storage as st

    old = st.Storage(db_url)
    try:
        old._run("ALTER TABLE web_tables DROP COLUMN public")  # the tables as an older server made them
        old._run("INSERT INTO web_tables (id, created, ruleset_kind, ruleset_ref, ruleset_text, fingerprint, seed, seats, "
                 "creator_hash, status, note, record, finished) VALUES (?, 0, 'shipped', 'r.yaml', NULL, 'f', 1, ?, "
                 "'h', 'finished', NULL, '{}', 1)", "old", '["human"]')
    finally:
        old.close()
    store = st.Storage(db_url)
    try:
        assert store.get("old")["public"] is False
        assert store.with_status("finished", public=True) == []
    finally:
        store.close()
