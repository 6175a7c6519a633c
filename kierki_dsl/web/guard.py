"""What every request passes first: security headers, same-origin writes, same-origin sockets.

An ASGI middleware around the whole application (pages, the API, ``/static``, errors):

- every HTTP response carries the CSP (``frame-ancestors 'none'`` included), ``X-Frame-Options:
  DENY``, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``;
- a request that may change state (any method but GET, HEAD, OPTIONS) must be
  ``Content-Type: application/json`` (415 otherwise: an HTML form or a no-cors fetch of another
  site cannot send that type) and carry an ``Origin`` naming this server (403 otherwise);
- a WebSocket whose ``Origin`` names another site is refused before it opens (HTTP 403). A
  browser always sends ``Origin``; a program without one is let through (it still needs a
  seat's token to do anything).

"This server" is the ``Host`` the client asked for: the origin's ``host[:port]`` must equal it.
Behind a reverse proxy, the proxy must pass the client's ``Host`` header on.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

CSP = (
    "default-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'; object-src 'none'"
)
HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
READING = frozenset({"GET", "HEAD", "OPTIONS"})


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def same_origin(scope) -> bool:
    """Whether the request's ``Origin`` names the host the request was sent to."""
    origin, host = _header(scope, b"origin").strip(), _header(scope, b"host").strip().lower()
    if not origin or not host:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host and not parts.path.strip("/")


def refusal(scope):
    """(status, message) why a state-changing request is refused, or None."""
    media = _header(scope, b"content-type").split(";", 1)[0].strip().lower()
    if media != "application/json":
        return 415, "send the request body as Content-Type: application/json"
    if not _header(scope, b"origin"):
        return 403, "a request that changes something must carry an Origin header"
    if not same_origin(scope):
        return 403, "a request from another site is refused"
    return None


class Guard:
    """The middleware: ``Guard(app)``."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            if _header(scope, b"origin") and not same_origin(scope):
                await send({"type": "websocket.close", "code": 1008, "reason": "another site's page"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers") or ()}
                extra = [(k, v) for k, v in HEADERS if k not in have]
                message = dict(message, headers=list(message.get("headers") or ()) + extra)
            await send(message)

        if scope["method"] not in READING:
            refused = refusal(scope)
            if refused is not None:
                await _refuse(send_with_headers, *refused)
                return
        await self.app(scope, receive, send_with_headers)


async def _refuse(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
