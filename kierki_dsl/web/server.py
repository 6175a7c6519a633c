"""Running the application under uvicorn on a socket bound first, so port 0 can be printed."""

from __future__ import annotations

import socket
import sys
from typing import Optional

from .config import WebConfig


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: the system picks one). Made with
    ``IPPROTO_TCP``, so asyncio sets ``TCP_NODELAY`` on every connection it accepts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def uvicorn_config(app, config: WebConfig):
    """uvicorn's settings for ``app``: forwarded headers (``X-Forwarded-For``/``-Proto``) are
    believed only from the addresses ``config.proxies`` names (none by default, so a client
    cannot pretend to be many clients)."""
    import uvicorn

    return uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        ws_max_size=16 * 1024,
        lifespan="on",
        timeout_graceful_shutdown=3,
        proxy_headers=bool(config.proxies),
        forwarded_allow_ips=list(config.proxies) or None,
    )


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(config: WebConfig, host: str = "127.0.0.1", port: int = 8000, out=None) -> None:
    """Serve until interrupted; prints ``kierki web: http://HOST:PORT/`` once listening."""
    import uvicorn

    from .app import create_app

    out = out or sys.stdout
    sock = bind(host, port)
    server = uvicorn.Server(uvicorn_config(create_app(config), config))
    started = server.startup

    async def startup(sockets=None):
        await started(sockets=sockets)
        if not server.should_exit:
            out.write(f"kierki web: {url_of(sock)}\n")
            out.flush()

    server.startup = startup  # type: ignore[method-assign]  # says where it listens once uvicorn has started
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def missing_extra() -> Optional[str]:
    """Why the web server cannot start (its extra is not installed), or None."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as e:
        return f"kierki web needs the [web] extra: pip install 'kierki-dsl[web]' ({e.name} is missing)"
    return None
