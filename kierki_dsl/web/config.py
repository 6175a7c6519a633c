"""The settings of a web server (``kierki web`` options; embedded defaults need no configuration)."""

from __future__ import annotations

import attrs

from ..spec.yamlsafe import MAX_BYTES
from ..values import frozen

BOTS = ("random", "heuristic", "search")


@frozen
class WebConfig:
    """Everything that bounds and shapes a server."""

    db: str = "kierki-web.sqlite3"  # a SQLite file, or a postgresql:// URL
    rulesets: tuple = ()  # extra folders of rulesets offered next to the shipped ones
    max_tables: int = 100  # tables live at once (the rest wait in storage)
    max_upload: int = MAX_BYTES + 16 * 1024  # bytes of a request body (a ruleset upload)
    idle_seconds: float = 1800.0  # a table nobody is connected to is put away after this long
    sweep_seconds: float = 30.0
    bot_delay: float = 0.6  # seconds a bot waits before acting, so people see each card
    hello_seconds: float = 5.0  # a socket must present its token within this time
    max_pending: int = 1024  # sockets that have not presented a token yet, in all
    pending_per_address: int = 8  # ... from one client address
    sockets_per_address: int = 32  # sockets open at once from one client address (seated or not)
    unopened_seconds: float = 600.0  # a table none of whose links was opened in this time is deleted
    tables_per_address: int = 10  # live tables created from one client address
    proxies: tuple = ()  # addresses of reverse proxies whose X-Forwarded-For/-Proto are believed
    rate: float = 10.0  # messages a second per socket, on average
    burst: float = 30.0
    max_refused: int = 200  # a socket refused this many times is closed
    creates_per_minute: float = 20.0  # tables created and uploads linted, per client address
    create_burst: float = 20.0
    keep_days: float = 30.0  # finished and closed tables are deleted this long after they ended (0: never)
    purge_seconds: float = 3600.0  # how often the sweeper looks for them
    bots: tuple = attrs.field(default=BOTS)  # the bot names a table's creator may choose
    bot_specs: tuple = ()  # (name, player spec) pairs the operator offers (kierki web --bot NAME=SPEC)

    def player_spec(self, name: str) -> str:
        """The player spec ``make_player`` takes for a bot name a table was created with."""
        return dict(self.bot_specs).get(name, name)
