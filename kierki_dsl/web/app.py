"""The Starlette application: pages, the JSON API and the table's WebSocket.

Secrets never travel in a URL the server sees: invitation links carry the seat's token after
``#``; the page sends it as the first WebSocket message. Request bodies are bounded
(``max_upload``); every WebSocket message is validated (``messages``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
from typing import Optional

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import jsonshape
from ..cards import pretty_cards
from ..i18n import N_, accepted, catalogue, said, tr, using
from ..phases import contract_name
from . import messages
from .catalogue import SHIPPED, Catalogue, lint_upload, upload_name
from .config import WebConfig
from .guard import Guard
from .rooms import RoomError, Rooms
from .snapshot import seat_state
from .storage import FINISHED, PLAYING, Storage, StorageError, token_hash
from .throttle import Gate, PerClient, client_key

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")


class BodyTooLarge(Exception):
    pass


class BodyUnreadable(Exception):
    """A request body that is not JSON (``why``: what is wrong with it, located)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


async def _read_body(request: Request, limit: int, too_large: str):
    """(the request's JSON body, None) or (None, the error reply): 413 with ``too_large`` past
    ``limit`` bytes, 400 saying why for a body that is not JSON."""
    try:
        return await _json_body(request, limit), None
    except BodyTooLarge:
        return None, _error(too_large, 413)
    except BodyUnreadable as e:
        return None, _error(tr("the request's body is not JSON: {why}").format(why=e.why))


async def _json_body(request: Request, limit: int):
    """The request's JSON body, read no further than ``limit`` bytes (its nesting bounded before it
    is parsed: ``jsonshape``); ``BodyUnreadable`` if it is not JSON."""
    size = request.headers.get("content-length")
    if size is not None and (not (size.isascii() and size.isdecimal()) or int(size) > limit):
        raise BodyTooLarge()
    chunks, got = [], 0
    async for chunk in request.stream():
        got += len(chunk)
        if got > limit:
            raise BodyTooLarge()
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as e:
        raise BodyUnreadable(tr("byte {at} is not UTF-8").format(at=e.start + 1)) from None
    try:
        return jsonshape.parse(text, max_text=None)  # bounded by ``limit``
    except jsonshape.ShapeError as e:
        raise BodyUnreadable(tr("line {where}: {message}").format(where=e.where, message=e.message)) from None


LINT_SECONDS = 20.0  # an upload that takes longer to check is refused


async def _lint(name: str, text: str, workdir: str):
    """``lint_upload`` in a worker thread (the server keeps serving meanwhile); None if too slow."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(lint_upload, name, text, workdir), LINT_SECONDS)
    except asyncio.TimeoutError:
        return None


NO_MATCH = N_("no finished match with this id (a private match opens from a seat's link)")
UNAVAILABLE = "the server cannot reach its database just now; try again in a moment"


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _address(conn) -> str:
    """The key a client (an HTTP request or a socket) is counted under."""
    return client_key(conn.client.host if conn.client else "-")


def _language(conn) -> str:
    """The language a request or socket asks for: ``?lang=``, else its ``Accept-Language``."""
    return accepted(conn.query_params.get("lang") or conn.headers.get("accept-language"))


def _speaking(handler):
    """``handler`` answering in the language its request asks for (its error messages)."""

    async def speaking(request: Request):
        with using(_language(request)):
            return await handler(request)

    return speaking


def _title(rs, contract: Optional[str]) -> Optional[str]:
    """A recorded deal's contract as a person reads it (the table's score sheet's words), or None
    when the ruleset is gone or does not have it (the page shows the record's name then)."""
    c = rs.contracts.get(contract) if rs is not None and contract else None
    return contract_name(c) if c is not None else None


def _bearer(request: Request) -> str:
    """The secret a request shows (``Authorization: Bearer <token>``), or ""."""
    kind, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if kind.lower() == "bearer" else ""


def _opens(storage: Storage, row: dict, token: str, creator: bool = False) -> bool:
    """Whether ``token`` is one of the table's seat tokens (or, with ``creator``, its creator's)."""

    if not token:
        return False
    got = token_hash(token)
    hashes = list(storage.token_hashes(row["id"]).values()) + ([row["creator_hash"]] if creator else [])
    return any([hmac.compare_digest(h, got) for h in hashes])


def _page(name: str):
    async def page(request: Request):
        return FileResponse(
            os.path.join(STATIC, name), media_type="text/html", headers={"Cache-Control": "no-store"}
        )  # the security headers: guard.Guard

    return page


def create_app(config: Optional[WebConfig] = None) -> Starlette:
    """The web application with its own storage and rooms (opened at startup, closed at shutdown)."""
    config = config or WebConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        storage = Storage(config.db)
        rooms = Rooms(config, storage, Catalogue((SHIPPED,) + tuple(config.rulesets)))
        app.state.storage, app.state.rooms = storage, rooms
        await rooms.start()
        try:
            yield
        finally:
            await rooms.stop()
            storage.close()

    def rooms(request) -> Rooms:
        return request.app.state.rooms

    throttle = PerClient(config.creates_per_minute, config.create_burst)
    gates = (
        Gate(config.pending_per_address, config.max_pending),
        Gate(config.sockets_per_address, 16 * config.max_pending),
    )

    def refused(request: Request) -> Optional[JSONResponse]:
        """429 once the client's address has created or linted too much lately; None otherwise."""
        address = _address(request)
        if throttle.allow(address):
            return None
        wait = throttle.retry_after(address)
        return JSONResponse(
            {"error": tr("too many tables or uploads from your address; try again in {wait} s").format(wait=wait)},
            status_code=429,
            headers={"Retry-After": str(wait)},
        )

    async def api_rulesets(request: Request):
        """The offered rulesets, worded in the language asked for (``?lang=pl``), else the browser's."""
        return JSONResponse(await asyncio.to_thread(rooms(request).catalogue.list, _language(request)))

    async def api_bots(request: Request):
        return JSONResponse({"bots": list(config.bots)})

    @_speaking
    async def api_lint(request: Request):
        if (no := refused(request)) is not None:
            return no
        body, no = await _read_body(
            request, config.max_upload, tr("the upload is larger than {size} bytes").format(size=config.max_upload)
        )
        if no is not None:
            return no
        if not isinstance(body, dict) or not isinstance(body.get("text"), str):
            return _error(tr('send {"name": "...", "text": "<the ruleset>"}'))
        got = await _lint(str(body.get("name") or "upload.yaml"), body["text"], rooms(request).workdir)
        if got is None:
            return _error(
                tr("checking the ruleset took longer than {seconds} s").format(seconds=f"{LINT_SECONDS:.0f}"), 422
            )
        return JSONResponse(
            {
                "ok": got.ok,
                "findings": list(got.findings),
                "name": got.ruleset.name if got.ok else None,
                "players": got.ruleset.players if got.ok else None,
            }
        )

    @_speaking
    async def api_create(request: Request):
        if (no := refused(request)) is not None:
            return no
        r = rooms(request)
        body, no = await _read_body(
            request, config.max_upload, tr("the upload is larger than {size} bytes").format(size=config.max_upload)
        )
        if no is not None:
            return no
        if not isinstance(body, dict):
            return _error(tr("send a JSON object"))
        upload = body.get("upload")
        if isinstance(upload, dict) and isinstance(upload.get("text"), str):
            name = upload_name(str(upload.get("name") or "upload.yaml"))
            got = await _lint(name, upload["text"], r.workdir)
            if got is None:
                return _error(
                    tr("checking the ruleset took longer than {seconds} s").format(seconds=f"{LINT_SECONDS:.0f}"), 422
                )
            if not got.ok:
                return JSONResponse(
                    {"error": tr("the ruleset has errors"), "findings": list(got.findings)}, status_code=422
                )
            kind, ref, text, rs = "upload", name, upload["text"], got.ruleset
        else:
            found = r.catalogue.get(body.get("ruleset")) if isinstance(body.get("ruleset"), str) else None
            if found is None:
                return _error(tr("choose one of the listed rulesets or upload one"))
            kind, ref, text, rs = "shipped", found[0].ref, None, found[1]
        seats = body.get("seats")
        if not isinstance(seats, list) or len(seats) != rs.players:
            return _error(
                tr("give one entry per seat ({players}): human, {bots}").format(
                    players=rs.players, bots=", ".join(config.bots)
                )
            )
        if not all(isinstance(s, str) and (s == "human" or s in config.bots) for s in seats):
            return _error(tr("a seat is human or one of the bots: {bots}").format(bots=", ".join(config.bots)))
        if "human" not in seats:
            return _error(tr("at least one seat is for a person"))
        if not isinstance(body.get("public", False), bool):
            return _error(tr('"public" is true (anyone may see the finished match) or false (its seats only)'))
        try:
            made = r.create(kind, ref, text, rs, seats, _address(request), body.get("public", False))
        except RoomError as e:
            return _error(str(e), e.status)
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                "id": made["id"],
                "links": {str(s): f"{base}/t/{made['id']}#{t}" for s, t in made["tokens"].items()},
                "admin": f"{base}/admin/{made['id']}#{made['creator']}",
                "match": f"{base}/m/{made['id']}#{made['creator']}",
                "creator": made["creator"],
            }
        )

    @_speaking
    async def api_revoke(request: Request):
        body, no = await _read_body(request, 4096, tr("too large"))
        if no is not None:
            return no
        if not isinstance(body, dict) or not isinstance(body.get("creator"), str) or type(body.get("seat")) is not int:
            return _error(tr('send {"creator": "<secret>", "seat": <n>}'))
        table_id = request.path_params["id"]
        try:
            token = rooms(request).revoke(table_id, body["creator"], body["seat"])
        except RoomError as e:
            return _error(str(e), e.status)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({"seat": body["seat"], "link": f"{base}/t/{table_id}#{token}"})

    @_speaking
    async def api_admin(request: Request):
        """The seats of a table for its creator (who is connected), given the creator's secret."""

        body, no = await _read_body(request, 4096, tr("too large"))
        if no is not None:
            return no
        row = request.app.state.storage.get(request.path_params["id"])
        if (
            row is None
            or not isinstance(body, dict)
            or not isinstance(body.get("creator"), str)
            or not hmac.compare_digest(row["creator_hash"], token_hash(body["creator"]))
        ):
            return _error(tr("not the creator of this table"), 403)
        room = rooms(request).live.get(row["id"])
        present = set(room.conns) if room else set()
        return JSONResponse(
            {
                "id": row["id"],
                "status": row["status"],
                "note": row["note"],
                "seats": [{"seat": s, "kind": k, "connected": s in present} for s, k in enumerate(row["seats"])],
            }
        )

    async def api_matches(request: Request):
        rows = request.app.state.storage.with_status(FINISHED, 100, public=True)
        return JSONResponse(
            [
                {
                    "id": r["id"],
                    "ruleset": (r["record"] or {}).get("ruleset", {}).get("name"),
                    "totals": (r["record"] or {}).get("totals"),
                    "finished": r["finished"],
                }
                for r in rows
            ]
        )

    def _finished(request: Request):
        """The finished table, if the match is public or the request shows one of its secrets
        (a seat's token or the creator's); else None (a private match is not even said to exist)."""
        storage = request.app.state.storage
        row = storage.get(request.path_params["id"])
        if row is None or row["status"] != FINISHED:
            return None
        return row if row["public"] or _opens(storage, row, _bearer(request), creator=True) else None

    @_speaking
    async def api_match(request: Request):
        from .frames import match_frames

        row = _finished(request)
        if row is None:
            return _error(tr(NO_MATCH), 404)
        rs = rooms(request).ruleset_of(row)
        rec = row["record"]
        doc = {
            "id": row["id"],
            "ruleset": rec["ruleset"],
            "ruleset_kind": row["ruleset_kind"],
            "seats": row["seats"],
            "seed": None if rec.get("seed") is None else str(rec["seed"]),  # a JSON number is exact to 2^53 only
            "totals": rec.get("totals"),
            "players": rec.get("players"),
            "sheet": [
                {"deal": i + 1, "contract": d["contract"], "title": _title(rs, d["contract"]), "scores": d["scores"]}
                for i, d in enumerate(rec["deals"])
            ],
            "deals": [],
        }
        if rs is not None:  # the labels and panels of each step in the page's language (_speaking)
            with using(None, rs.words):
                doc["deals"] = match_frames(rs, rec, request.app.state.storage.actions(row["id"]))
        return JSONResponse(doc)

    async def api_record(request: Request):
        row = _finished(request)
        if row is None:
            return _error(NO_MATCH, 404)
        return Response(
            json.dumps(row["record"], indent=1, ensure_ascii=False) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="kierki-{row["id"]}.json"'},
        )

    async def api_match_ruleset(request: Request):
        row = _finished(request)
        if row is None:
            return _error(NO_MATCH, 404)
        if row["ruleset_kind"] == "upload":
            text = row["ruleset_text"] or ""
        else:
            found = rooms(request).catalogue.get(row["ruleset_ref"])
            if found is None:
                return _error("the ruleset is no longer offered", 404)
            with open(found[0].path, encoding="utf-8") as f:
                text = f.read()
        name = os.path.basename(row["ruleset_ref"])
        return Response(
            text,
            media_type="text/yaml; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def api_i18n(request: Request):
        """The pages' words: ``{"lang", "messages": {English: words}}`` in the language asked
        for (``?lang=pl``), else the browser's (``Accept-Language``)."""
        lang = _language(request)
        return JSONResponse({"lang": lang, "messages": catalogue(lang)}, headers={"Cache-Control": "no-store"})

    async def table_socket(ws: WebSocket):
        await ws.accept()
        key, (pending, sockets) = _address(ws), gates
        if not sockets.enter(key):
            await ws.close(1013, "too many connections from your address")
            return
        try:
            await _serve_socket(ws, ws.app.state.rooms, ws.path_params["id"], config, pending, key)
        except WebSocketDisconnect:
            pass
        except StorageError:  # the database is out of reach: say so, the page tries again later
            with contextlib.suppress(Exception):
                await _send(ws, messages.error(UNAVAILABLE, "unavailable"))
                await ws.close(1011, "storage unavailable")
        finally:
            sockets.leave(key)

    routes = [
        Route("/", _page("index.html")),
        Route("/t/{id}", _page("table.html")),
        Route("/admin/{id}", _page("admin.html")),
        Route("/m/{id}", _page("match.html")),
        Route("/api/rulesets", api_rulesets),
        Route("/api/bots", api_bots),
        Route("/api/i18n", api_i18n),
        Route("/api/lint", api_lint, methods=["POST"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{id}/revoke", api_revoke, methods=["POST"]),
        Route("/api/tables/{id}/admin", api_admin, methods=["POST"]),
        Route("/api/matches", api_matches),
        Route("/api/matches/{id}", api_match),
        Route("/api/matches/{id}/record", api_record),
        Route("/api/matches/{id}/ruleset", api_match_ruleset),
        WebSocketRoute("/ws/{id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def storage_failed(request, exc):
        return _error(UNAVAILABLE, 503)

    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={StorageError: storage_failed},
        middleware=[Middleware(Guard)],
    )


async def _receive(ws: WebSocket):
    """The next frame's text (None for a binary frame); ``WebSocketDisconnect`` when closed."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    return msg.get("text")


async def _send(ws: WebSocket, doc: dict) -> None:
    await ws.send_text(json.dumps(doc, separators=(",", ":"), ensure_ascii=False))


async def _serve_socket(ws: WebSocket, rooms: Rooms, table_id: str, config: WebConfig, pending: Gate, key: str) -> None:
    """Take a seat with the first message, then read actions until the socket closes. Until its
    hello a socket holds one of its address's few ``pending`` places, for ``hello_seconds``."""
    if not pending.enter(key):
        await ws.close(1013, "too many connections waiting for their hello from your address")
        return
    try:
        hello = messages.parse(await asyncio.wait_for(_receive(ws), config.hello_seconds))
    except asyncio.TimeoutError:
        await ws.close(4001, "no hello")
        return
    except messages.BadMessage as e:
        await _send(ws, messages.error(str(e)))
        await ws.close(4002, "bad hello")
        return
    finally:
        pending.leave(key)
    if hello["type"] != "hello":
        await _send(ws, messages.error("the first message is hello with the seat's token"))
        await ws.close(4002, "bad hello")
        return
    row = rooms.storage.get(table_id)
    if row is not None and row["status"] != PLAYING and not _opens(rooms.storage, row, hello["token"]):
        row = None  # a closed table's status is told to its seats only
    if row is not None and row["status"] != PLAYING:
        await _send(
            ws,
            {
                "type": "closed",
                "status": row["status"],
                "note": row["note"],
                "match_url": f"/m/{table_id}" if row["status"] == FINISHED else None,
            },
        )
        await ws.close(1000)
        return
    try:
        room = rooms.room(table_id)
    except RoomError as e:
        await _send(ws, messages.error(str(e), "full"))
        await ws.close(1013)
        return
    seat = room.seat_of(hello["token"]) if room is not None else None
    if room is None or seat is None:
        with using(_language(ws)):
            await _send(ws, messages.error(tr("this invitation is unknown or was revoked"), "bad-token"))
        await ws.close(4003, "bad token")
        return
    conn = room.join(seat, ws)
    conn.lang = _language(ws)
    writer = asyncio.ensure_future(_writer(room, conn))
    limiter = messages.RateLimit(config.rate, config.burst)
    try:
        while conn.closing is None:
            text = await _receive(ws)
            if not limiter.allow():
                if limiter.refused >= config.max_refused:
                    conn.close(1008, "too many messages")
                    break
                with using(conn.lang):
                    conn.reply(messages.error(tr("too many messages; slow down"), "rate"))
                continue
            with using(conn.lang, room.ruleset.words):
                _handle(room, conn, text)
    finally:
        room.leave(conn)
        if conn.closing is None:
            conn.close(1000, "")
        await asyncio.gather(writer, return_exceptions=True)


def _handle(room, conn, text) -> None:
    """One message from a seated browser: validated, then acted on; a reply only when refused."""
    try:
        msg = messages.parse(text)
    except messages.BadMessage as e:
        conn.reply(messages.error(str(e)))
        return
    if msg["type"] == "ping":
        conn.reply({"type": "pong"})
    elif msg["type"] == "hello":
        conn.reply(messages.error(tr("already seated")))
    else:
        if room.table.over or room.failure:
            conn.reply(messages.error(tr("the match is over"), "refused"))
            return
        view = room.table.view(conn.seat)
        if (msg["deal"], msg["ply"]) != (view.deal_number, view.ply):
            conn.reply(messages.error(tr("the table has moved on since then"), "stale"))
            conn.mark()
            return
        reason = room.act(conn.seat, msg["action"])
        if reason is not None:
            shown = said(reason)  # in the seat's language; English as the rules give it
            if shown != reason:  # translated: its cards in the seat's letters (D♠)
                shown = pretty_cards(shown)
            conn.reply(messages.error(shown, "illegal", {"action": msg["action"]}))


async def _writer(room, conn) -> None:
    """Send the seat its replies and, whenever the table changed, its fresh state."""
    try:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.replies:
                await _send(conn.ws, conn.replies.pop(0))
            if conn.dirty:
                conn.dirty = False
                with using(conn.lang, room.ruleset.words):
                    state = seat_state(room, conn.seat)
                await _send(conn.ws, state)
            if conn.closing is not None:
                await conn.ws.close(*conn.closing)
                return
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
