"""``kierki simulate`` and ``kierki compare``: many matches, seats rotated, any worker count.

Game i is played from seed ``seed * 1_000_003 + i`` with the players rotated i places, so
the results depend only on (ruleset, players, seed, games), never on how the games are
split between workers. The seed's own random stream deals the cards (as ``MatchRunner``
does), the players draw from streams of their own, so every ruleset with the same deck and
players gets the same deals from the same seed: ``compare`` plays game i of both rulesets
on the same deals with the same seats (duplicate). Matches of random players use the
compiled whole-deal fast path (``interpreter/fastplay.py``); other players play through the
general interpreter. A worker process loads and compiles each ruleset once (``compiled``),
however many batches it plays.
"""
from __future__ import annotations

import contextlib
import random
from typing import Callable, Optional

from .analysis.rows import DealRow, GameResult
from .interpreter.match import MatchRunner, deal_masks, draw
from .interpreter.phases import Phase
from .players.base import make_player

def game_seed(seed: int, i: int) -> int:
    """The seed of game i of a simulation seeded with ``seed``."""
    return seed * 1_000_003 + i


def seats_for(names: list, i: int) -> list:
    """The players of game i: the list rotated i places (every player sits everywhere)."""
    n = len(names)
    return [names[(s - i) % n] for s in range(n)]


def play_stream(seed: int) -> random.Random:
    """The random stream of random players in a fast-path match (apart from the deals')."""
    return random.Random(f"play {seed}")


class FastMatch:
    """Random-play matches with whole deals played by compiled closures where possible.

    The deals come from ``random.Random(seed)`` exactly as in ``MatchRunner`` (the same
    first dealer, the same hands); the play from ``play_stream(seed)``."""

    def __init__(self, rs):
        self.rs = rs
        self.cards = [c for c in range(52) if rs.deck >> c & 1]
        self.dealers: dict = {}  # (first dealer, deal index) -> dealer

    def _dealer(self, first: int, k: int) -> int:
        got = self.dealers.get((first, k))
        if got is None:
            got = self.dealers[(first, k)] = self.rs.dealer_of(first, k)
        return got

    def play(self, seed: int) -> tuple:
        """(first dealer, DealRows, totals) of the match of this seed."""
        rs = self.rs
        n = rs.players
        deal_rng = random.Random(seed)
        rng = play_stream(seed)
        first = rs.first_dealer if rs.first_dealer is not None else draw(deal_rng, n)
        totals = [0] * n
        deals = []
        chosen: dict = {}
        k = -1
        while not rs.match_over(k + 1, totals):
            k += 1
            dealer = self._dealer(first, k)
            dealt = deal_masks(deal_rng, self.cards, dealer, n, rs.direction)
            contract = rs.contract_at(k).resolve(dealer, n, dealt, rs.deck, chosen,
                                                 lambda seat, allowed: allowed[draw(rng, len(allowed))])
            row = self._deal(contract, dealer, dealt, rng, k)
            totals = [t + s for t, s in zip(totals, row.scores)]
            deals.append(row)
        return first, tuple(deals), tuple(totals)

    def _deal(self, contract, dealer: int, hands: list, rng, k: int) -> DealRow:
        rs = self.rs
        facts: dict = {}
        scores = contract.play_fast(rs.players, rs.deck, dealer, hands, rs.direction, k + 1, rng, facts=facts)
        if scores is not None:
            return DealRow(contract.name, dealer, facts["first"], facts["caller"], facts["trump"], tuple(scores),
                           facts["early"], facts["blocked"])
        return self._stepwise(contract, dealer, hands, rng, k)

    def _stepwise(self, contract, dealer: int, hands: list, rng, k: int) -> DealRow:
        """Random play through the general interpreter (rules the fast path does not compile)."""
        rs = self.rs
        dealt = [[c for c in range(52) if h >> c & 1] for h in hands]
        state = contract.new_deal(rs.players, rs.deck, dealer, dealt, rs.direction, k + 1)
        first = -1
        while not state.is_terminal():
            if first < 0 and state.phase == Phase.PLAY:
                first = state.current_player()
            acts = state.legal_actions()
            state.apply_action(acts[draw(rng, len(acts))] if len(acts) > 1 else acts[0])
        return DealRow(contract.name, dealer, first, state.caller, state.trump, tuple(state.returns()),
                       state.ended_early, state.blocked)


# -- workers: each ruleset loaded and compiled once per process ------------------------------

_COMPILED: dict = {}


class Compiled:
    """A ruleset as a worker keeps it between batches: loaded, compiled, with its fast path."""

    def __init__(self, rs):
        self.rs = rs
        self.fast = FastMatch(rs)


def compiled(path: str, fingerprint: Optional[str] = None) -> Compiled:
    """The ruleset at ``path``, loaded once per process; ``fingerprint`` (the one the command
    loaded) guards against a file changed on disk since."""
    key = (path, fingerprint)
    got = _COMPILED.get(key)
    if got is None:
        from .diagnostics import DiagnosticError
        from .ruleset.model import Ruleset

        try:
            rs = Ruleset.load(path)
        except DiagnosticError as e:  # a worker (e.g. on a Dask cluster) that cannot read the file
            raise RuntimeError(f"{path} does not load on this worker: {e.diagnostics[0].headline()}") from None
        except OSError as e:
            raise RuntimeError(f"{path} cannot be read on this worker: {e.strerror or e}") from None
        if fingerprint is not None and rs.fingerprint != fingerprint:
            raise RuntimeError(f"{path} changed on disk after the command started")
        if len(_COMPILED) >= 16:
            _COMPILED.clear()
        got = _COMPILED[key] = Compiled(rs)
    return got


def play_one(c: Compiled, names: list, seed: int, i: int, records: bool = False) -> GameResult:
    """Game i of a simulation: seed ``game_seed(seed, i)``, players rotated i places."""
    seat_names = seats_for(names, i)
    s = game_seed(seed, i)
    if not records and all(x == "random" for x in names):
        first, deals, totals = c.fast.play(s)
        return GameResult(i, tuple(seat_names), deals, totals, None, s, first)
    runner = MatchRunner(c.rs, [make_player(x) for x in seat_names], s)
    results = list(runner.deals())
    deals = tuple(DealRow(r.contract.name, r.dealer, r.first, r.caller, r.trump, tuple(r.scores), r.ended_early,
                          r.blocked) for r in results)
    rec = None
    if records:
        from .record import match_record

        rec = match_record(c.rs, s, runner.first_dealer, results)
    return GameResult(i, tuple(seat_names), deals, tuple(results[-1].totals), rec, s, runner.first_dealer)


def play_batch(refs: tuple, names: list, seed: int, indices: list, records: bool = False) -> list:
    """A worker's share: for each game index, one GameResult per ruleset of ``refs``
    (``(path, fingerprint)`` pairs), all on the same deals with the same seats."""
    rulesets = [compiled(path, fp) for path, fp in refs]
    return [tuple(play_one(c, names, seed, i, records) for c in rulesets) for i in indices]


def play_games(rs_path: str, names: list, seed: int, indices: list, records: bool = False) -> list:
    """Play the given game indices of one ruleset; returns GameResults in index order."""
    return [g for (g,) in play_batch(((rs_path, None),), names, seed, indices, records)]


def _batches(games: int, chunk: int) -> list:
    return [list(range(i, min(games, i + chunk))) for i in range(0, games, chunk)]


def run_batches(refs: tuple, names: list, seed: int, games: int, workers: int = 1, records: bool = False,
                on_done: Optional[Callable] = None, chunk: int = 0, address: Optional[str] = None) -> list:
    """Play games 0..games-1 of every ruleset in ``refs`` on local processes (or on the Dask
    cluster at ``address``); a list of per-game tuples (one GameResult per ruleset) in game order.
    ``on_done(batch)`` is called with each finished batch."""
    if address is not None:
        return _run_dask(address, refs, names, seed, games, records, on_done, chunk)
    chunk = chunk or max(1, min(50, games // max(1, workers * 8) or 1))  # small last batches: workers end together
    results: list = []

    def done(got):
        results.extend(got)
        if on_done:
            on_done(got)

    if workers <= 1:
        for b in _batches(games, chunk):
            done(play_batch(refs, names, seed, b, records))
        return sorted(results, key=lambda g: g[0].index)
    import concurrent.futures as cf

    pool = None
    try:
        with _ctrl_c_deferred():  # the workers start while submitting: none sees a Ctrl-C before ignoring it
            pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=_worker_context(refs),
                                          initializer=_worker_start)
            futures = [pool.submit(play_batch, refs, names, seed, b, records) for b in _batches(games, chunk)]
        for f in cf.as_completed(futures):
            done(f.result())
    except BaseException:  # Ctrl-C (or a failed batch): stop the workers now, keep what finished
        if pool is not None:
            _stop(pool)
        raise
    pool.shutdown()
    return sorted(results, key=lambda g: g[0].index)


@contextlib.contextmanager
def _ctrl_c_deferred():
    """Hold back Ctrl-C in this thread for a moment: it is delivered when the block ends.
    Processes forked or spawned meanwhile start with it held back too (``_worker_start``)."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _worker_start() -> None:
    """Workers leave Ctrl-C to the command, which stops them (no traceback from each worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _stop(pool) -> None:
    """Cancel the batches not started and end the worker processes of ``pool``."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(5)


def _worker_context(refs: tuple):
    """Where the platform can fork, the workers are forked from this process with every
    ruleset already compiled (they start at once and compile nothing); elsewhere they are
    spawned and each compiles the rulesets on its first batch."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    for path, fingerprint in refs:
        compiled(path, fingerprint)
    return multiprocessing.get_context("fork")


def _run_dask(address: str, refs: tuple, names: list, seed: int, games: int, records: bool,
              on_done: Optional[Callable], chunk: int) -> list:
    """The same batches, sent to a Dask distributed cluster's workers."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError("the dask backend needs the cluster extra: pip install 'kierki-dsl[cluster]'") from None
    chunk = chunk or max(1, min(50, games // 16 or 1))
    results: list = []
    with Client(address) as client:
        futures = [client.submit(play_batch, refs, names, seed, b, records, pure=False) for b in _batches(games, chunk)]
        for f in as_completed(futures):
            got = f.result()
            results.extend(got)
            if on_done:
                on_done(got)
    return sorted(results, key=lambda g: g[0].index)


def run_local(rs_path: str, names: list, seed: int, games: int, workers: int, records: bool,
              on_done: Optional[Callable] = None, chunk: int = 0) -> list:
    """One ruleset's games 0..games-1 on ``workers`` local processes; GameResults in game order."""
    return [g for (g,) in run_batches(((rs_path, None),), names, seed, games, workers, records,
                                      _single(on_done), chunk)]


def run_dask(address: str, rs_path: str, names: list, seed: int, games: int, records: bool,
             on_done: Optional[Callable] = None, chunk: int = 0) -> list:
    """One ruleset's games on a Dask cluster; GameResults in game order."""
    return [g for (g,) in run_batches(((rs_path, None),), names, seed, games, 1, records, _single(on_done), chunk,
                                      address)]


def _single(on_done):
    return None if on_done is None else (lambda got: on_done([g for (g,) in got]))
