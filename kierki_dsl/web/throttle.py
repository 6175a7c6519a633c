"""Per-client bounds on the costly HTTP calls (creating a table, linting an upload).

Each client address gets its own token bucket (``messages.RateLimit``); the map of addresses is
bounded, the least recently seen address is forgotten first, so a flood of addresses costs a
fixed amount of memory. Behind a reverse proxy every request comes from the proxy's address:
set the rate for the whole server then, or rate-limit at the proxy.
"""
from __future__ import annotations

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
