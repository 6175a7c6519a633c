"""Driving a table's bots from an event loop (``kierki serve``, ``kierki web``): each bot
thinks in a worker thread, so a slow search never stalls the sockets."""

from __future__ import annotations

import asyncio
from typing import Callable, Optional

from ..report import seat_name


def bot_failure(seat: int, players: int, e: Exception) -> str:
    """A bot's failure in words, the same at every front end: ``the bot of seat E failed: ...``."""
    return f"the bot of seat {seat_name(seat, players)} failed: {type(e).__name__}: {e}"


async def drive_bots(
    table,
    changed: asyncio.Event,
    pool,
    act: Callable,
    fail: Callable,
    delay: float = 0.0,
    halted: Optional[Callable] = None,
) -> None:
    """Let ``table``'s bots act until the match stops (or ``halted()``): each decision is made
    in ``pool`` and handed to ``act(seat, action)`` (the front end's own, which tells its
    seats); with nothing for a bot to do, wait for ``changed``. ``delay``: seconds a bot
    waits before acting (a person can follow). A bot that raises ends the loop with
    ``fail(seat, message)``, the failure in the session's words (``bot_failure``)."""
    loop = asyncio.get_running_loop()
    while not table.stopped and not (halted and halted()):
        turn = table.bot_turn()
        if turn is None:
            await changed.wait()
            changed.clear()
            continue
        if delay:
            await asyncio.sleep(delay)
            turn = table.bot_turn()  # the table may have moved or paused meanwhile
            if turn is None:
                continue
        seat, player, view = turn
        try:
            action = await loop.run_in_executor(pool, player.act, view)
        except Exception as e:
            fail(seat, bot_failure(seat, table.players, e))
            return
        act(seat, action)
