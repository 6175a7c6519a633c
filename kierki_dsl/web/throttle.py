"""Per-client bounds: the costly HTTP calls (creating a table, linting an upload) and the
sockets a client holds open.

Each client address gets its own token bucket (``messages.RateLimit``); the map of addresses is
bounded, the least recently seen address is forgotten first, so a flood of addresses costs a
fixed amount of memory. Behind a reverse proxy, name it with ``--proxy`` so that the client's
own address (``X-Forwarded-For``) is counted; forwarded headers from anyone else are ignored.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict

from .messages import RateLimit


class PerClient:
    """``allow(address)`` for at most ``per_minute`` calls a minute per address, bursts of ``burst``."""

    def __init__(self, per_minute: float, burst: float, max_clients: int = 10_000, clock=time.monotonic):
        self.rate, self.burst, self.max_clients, self.clock = per_minute / 60.0, burst, max_clients, clock
        self.buckets: OrderedDict = OrderedDict()

    def allow(self, address: str) -> bool:
        """Take one call from the address's bucket; False when it is empty."""
        bucket = self.buckets.pop(address, None)
        if bucket is None:
            bucket = RateLimit(self.rate, self.burst, clock=self.clock)
            while len(self.buckets) >= self.max_clients:
                self.buckets.popitem(last=False)
        self.buckets[address] = bucket
        return bucket.allow()

    def retry_after(self, address: str) -> int:
        """Whole seconds until the address may call again (at least 1)."""
        bucket = self.buckets.get(address)
        if bucket is None or self.rate <= 0:
            return 60
        return max(1, math.ceil((1 - bucket.tokens) / self.rate))


def client_key(host: str) -> str:
    """The address a client is counted under: an IPv6 address by its /64 (one customer's
    network, which hands its machines any number of addresses), any other as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6:
        if ip.ipv4_mapped is not None:  # an IPv4 client of a dual-stack socket
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Gate:
    """How many of something (sockets) each address holds now: ``enter`` refuses past
    ``per_address`` for the address or ``total`` in all; ``leave`` gives the place back."""

    def __init__(self, per_address: int, total: int):
        self.per_address, self.total = per_address, total
        self.held: dict = {}
        self.count = 0

    def enter(self, key: str) -> bool:
        """Take a place for ``key``; False (nothing taken) when a bound is reached."""
        if self.count >= self.total or self.held.get(key, 0) >= self.per_address:
            return False
        self.held[key] = self.held.get(key, 0) + 1
        self.count += 1
        return True

    def leave(self, key: str) -> None:
        left = self.held.get(key, 0) - 1
        if left > 0:
            self.held[key] = left
        else:
            self.held.pop(key, None)
        self.count -= 1
