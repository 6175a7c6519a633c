"""``kierki simulate`` and ``kierki compare``: many matches, seats rotated, any worker count.

Game i is played from seed ``seed * 1_000_003 + i`` with the players rotated i places, so
the results depend only on (ruleset, players, seed, games), never on how the games are
split between workers. The seed's own random stream deals the cards (as ``MatchRunner``
does), the players draw from streams of their own, so every ruleset with the same deck and
players gets the same deals from the same seed: ``compare`` plays game i of both rulesets
on the same deals with the same seats (duplicate). Matches of random players use the
compiled whole-deal fast path (``interpreter/fastplay.py``; with records wanted too, written
from it by ``fastrecord``), and so do matches of heuristic
players in every seat (the heuristic's choice in the same kernels: ``FastMatch`` with a
policy); other players play through the general interpreter. A worker process loads and
compiles each ruleset once (``compiled``), however many batches it plays, and makes each
match's measures itself. SIGTERM or Ctrl-C to the command ends its workers.
"""

from __future__ import annotations

import contextlib
import gc
import random
from operator import add
from typing import Callable, Optional

import attrs

from .analysis.rows import Batch, DealRow, GameResult
from .diagnostics import DiagnosticError
from .interpreter import matchvalues
from .interpreter.fairplay import exact_action, players_ruleset
from .interpreter.match import MatchRunner, deal_masks, deal_out, draw, first_to_play, shuffled
from .players.base import make_player

_BIT = tuple(1 << c for c in range(52))
_row = tuple.__new__  # a DealRow or GameResult from all its fields, without the Python-level constructor


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
    """Random-play matches with whole deals played by compiled closures where possible;
    with a ``policy`` (``players.heuristic.FastHeuristic``), matches of that player in every
    seat, the same as ``MatchRunner`` with those players.

    The deals come from ``random.Random(seed)`` exactly as in ``MatchRunner`` (the same
    first dealer, the same hands); random play from ``play_stream(seed)``. A match of a fixed
    number of deals runs its schedule laid out once: per deal the slot, its whole-deal
    player (None: the interpreter plays it) and, per first dealer, the dealer. A policy's
    matches need every slot to be a contract (``covers``): a declarer's choice is a
    decision the fast path does not make for it."""

    def __init__(self, rs, policy=None):
        self.rs = rs
        self.policy = policy
        self.covers = policy is None or not any(slot.offered for slot in rs.schedule)
        self.seats: list = []  # a policy's players, for deals the interpreter plays
        self.cards = [c for c in range(52) if rs.deck >> c & 1]
        self.fast: dict = {}  # contract name -> its whole-deal player (None: the interpreter plays it)
        self.fixed = None if rs.until is not None else len(rs.schedule) * rs.series
        self.dealers = [[rs.dealer_of(first, k) for k in range(self.fixed or 0)] for first in range(rs.players)]
        self.slots = [self._slot(rs.contract_at(k)) for k in range(self.fixed or 0)]
        self.plain = None  # per first dealer: (dealer, contract name, whole-deal player, deal number) per deal
        if (
            self.fixed
            and policy is None
            and rs.first_dealer_expr is None
            and all(play is not None and not choose for _, play, choose in self.slots)
        ):
            self.plain = [
                [
                    (dealer, slot.name, play, k + 1)
                    for k, (dealer, (slot, play, _)) in enumerate(zip(self.dealers[first], self.slots))
                ]
                for first in range(rs.players)
            ]

    def _player(self, contract):
        got = self.fast.get(contract.name, False)
        if got is False:
            rs = self.rs
            got = self.fast[contract.name] = contract.fast_deal(
                rs.players, rs.hand_size, rs.deck, rs.direction, self.policy
            )
        return got

    def _slot(self, slot) -> tuple:
        """(slot, whole-deal player or None, whether a decision picks the contract first)."""
        if slot.offered:
            return slot, None, True
        return slot, self._player(slot), False

    def play(self, seed: int) -> tuple:
        """(first dealer, DealRows, totals) of the match of this seed."""
        rs = self.rs
        n = rs.players
        deal_rng = random.Random(seed)
        rng = play_stream(seed)
        first = rs.first_dealer if rs.first_dealer is not None else draw(deal_rng, n)
        if self.plain is not None:
            return self._play_plain(first, deal_rng, rng)
        totals = [0] * n
        deals = []
        chosen: dict = {}
        cards, deck, direction = self.cards, rs.deck, rs.direction

        def pick(seat, allowed):
            return allowed[draw(rng, len(allowed))]

        schedule = self._open_schedule(totals) if self.fixed is None else self.slots
        policy = self.policy
        lists = None
        for k, (slot, play, choose) in enumerate(schedule):
            dealer = rs.dealer_of(first, k) if self.fixed is None else self.dealers[first][k]
            if policy is None:
                dealt = deal_masks(deal_rng, cards, dealer, n, direction)
            else:  # the order dealt too: a trump caller sees his first cards
                lists = deal_out(shuffled(deal_rng, deck), dealer, n, direction)
                dealt = [sum(map(_BIT.__getitem__, h)) for h in lists]
            if k == 0 and rs.first_dealer_expr is not None:  # the first dealer named by the first hands
                first = dealer = rs.first_dealer_from(dealt, dealer)
            contract = slot
            if choose:
                contract = slot.resolve(dealer, n, dealt, deck, chosen, pick)
                play = self._player(contract)
            if play is None:
                matchvalues.note(chosen, totals, k)
                row = self._stepwise(contract, dealer, dealt, rng, k, lists, chosen)
            else:
                scores, lead, caller, trump, early, blocked = play(dealer, dealt, k + 1, rng, None, lists)
                row = _row(DealRow, (contract.name, dealer, lead, caller, trump, tuple(scores), early, blocked, -1))
            totals[:] = map(add, totals, row.scores)  # in place: an open schedule reads it
            deals.append(row)
        return first, tuple(deals), tuple(totals)

    def _play_plain(self, first: int, deal_rng, rng) -> tuple:
        """``play`` of a fixed schedule of random whole deals only: its loop without the
        decisions and the interpreter (the same draws, the same rows)."""
        rs = self.rs
        n, cards, direction = rs.players, self.cards, rs.direction
        totals = [0] * n
        deals = []
        for dealer, name, play, number in self.plain[first]:
            scores, lead, caller, trump, early, blocked = play(
                dealer, deal_masks(deal_rng, cards, dealer, n, direction), number, rng, None, None
            )
            sc = tuple(scores)
            deals.append(_row(DealRow, (name, dealer, lead, caller, trump, sc, early, blocked, -1)))
            totals = list(map(add, totals, sc))
        return first, tuple(deals), tuple(totals)

    def _seats(self) -> list:
        if not self.seats:
            for seat in range(self.rs.players):
                p = make_player(self.policy.name)
                p.reset(0, seat, players_ruleset(self.rs, p))
                self.seats.append(p)
        return self.seats

    def _open_schedule(self, totals: list):
        """The slot of each deal of a match that ends on a condition of the running ``totals``
        (a list the caller keeps up to date)."""
        rs = self.rs
        k = 0
        while not rs.match_over(k, totals):
            yield self._slot(rs.contract_at(k))
            k += 1

    def _stepwise(
        self, contract, dealer: int, hands: list, rng, k: int, lists=None, memory: Optional[dict] = None
    ) -> DealRow:
        """Random play (or the policy's players) through the general interpreter (rules the
        fast path does not compile); ``memory``: the match's memory of earlier deals (a duty
        to double)."""
        rs = self.rs
        dealt = lists if lists is not None else [[c for c in range(52) if h >> c & 1] for h in hands]
        state = contract.new_deal(rs.players, rs.deck, dealer, dealt, rs.direction, k + 1, memory)
        first = -1
        seats = self._seats() if self.policy is not None else None
        while not state.is_terminal():
            seat = state.current_player()
            first = first_to_play(state, first)
            if seats is not None:
                state.apply_action(exact_action(seats[seat].act(state.view(seat))))
                continue
            acts = state.legal_actions()
            state.apply_action(acts[draw(rng, len(acts))] if len(acts) > 1 else acts[0])
        state.remember(memory)
        return DealRow(
            contract.name,
            dealer,
            first,
            state.caller,
            state.record_trump(),
            tuple(state.returns()),
            state.ended_early,
            state.blocked,
            state.bidder,
        )


# -- workers: each ruleset loaded and compiled once per process ------------------------------

_COMPILED: dict = {}


class Compiled:
    """A ruleset as a worker keeps it between batches: loaded, compiled, with its fast path."""

    def __init__(self, rs):
        self.rs = rs
        self.fast = FastMatch(rs)
        self._heuristic = None
        self._parts = None

    @property
    def parts(self) -> dict:
        """Contract name -> its part, for the measures (``measures.parts_of``)."""
        if self._parts is None:
            from .analysis.measures import parts_of

            self._parts = parts_of(self.rs)
        return self._parts

    @property
    def heuristic(self) -> FastMatch:
        """Matches of heuristic players in every seat on the fast paths."""
        if self._heuristic is None:
            from .players.heuristic import FastHeuristic

            self._heuristic = FastMatch(self.rs, FastHeuristic)
        return self._heuristic


def compiled(path: str, fingerprint: Optional[str] = None) -> Compiled:
    """The ruleset at ``path``, loaded once per process; ``fingerprint`` (the one the command
    loaded) guards against a file changed on disk since."""
    key = (path, fingerprint)
    got = _COMPILED.get(key)
    if got is None:
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


def adopt(rs, path: str) -> None:
    """Keep a ruleset the command has loaded already as the compiled one of ``path`` (the
    absolute path the workers are given): a command loads each ruleset once, and forked
    workers start with it. Its ``path`` is made the absolute one, as a worker loading the
    file itself would have it (records name it)."""
    if rs.path != path:
        rs = attrs.evolve(rs, path=path)
    if len(_COMPILED) >= 16:
        _COMPILED.clear()
    _COMPILED[(path, rs.fingerprint)] = Compiled(rs)


def fast_match(c: Compiled, names: list, records: bool = False) -> Optional[FastMatch]:
    """The whole-deal fast path that plays matches of these players, or None (the
    general interpreter plays them: other players, or heuristic players with records wanted;
    random players' records are written from the fast path, ``fastrecord``)."""
    if all(x == "random" for x in names):
        return c.fast
    if records:
        return None
    if all(x in ("heuristic", "simple") for x in names) and c.heuristic.covers:
        return c.heuristic
    return None


def play_one(
    c: Compiled, names: list, seed: int, i: int, records: bool = False, fast=False, seats: Optional[tuple] = None
) -> GameResult:
    """Game i of a simulation: seed ``game_seed(seed, i)``, players rotated i places.
    ``fast`` (``fast_match``'s answer, when the caller asked it once for many games) and
    ``seats`` (the players of this game) save working them out again."""
    seat_names = seats or tuple(seats_for(names, i))
    s = game_seed(seed, i)
    if fast is False:
        fast = fast_match(c, names, records)
    if fast is not None and records:
        from .fastrecord import play_recorded
        from .record import match_record

        first, deals, totals, results = play_recorded(fast, s, play_stream)
        return GameResult(i, seat_names, deals, totals, match_record(c.rs, s, first, results), s, first)
    if fast is not None:
        first, deals, totals = fast.play(s)
        return _row(GameResult, (i, seat_names, deals, totals, None, s, first))
    runner = MatchRunner(c.rs, [make_player(x) for x in seat_names], s)
    results = list(runner.deals())
    deals = tuple(
        DealRow(
            r.contract.name, r.dealer, r.first, r.caller, r.trump, tuple(r.scores), r.ended_early, r.blocked, r.bidder
        )
        for r in results
    )
    rec = None
    if records:
        from .record import match_record

        rec = match_record(c.rs, s, runner.first_dealer, results)
    return GameResult(i, seat_names, deals, tuple(results[-1].totals), rec, s, runner.first_dealer)


def play_batch(
    refs: tuple, names: list, seed: int, indices: list, records: bool = False, observe: bool = False
) -> Batch:
    """A worker's share: for each game index, one GameResult per ruleset of ``refs``
    (``(path, fingerprint)`` pairs), all on the same deals with the same seats; with
    ``observe`` the measures of each ruleset's games too, as columns (made here, in parallel,
    not in the command)."""
    rulesets = [(c, fast_match(c, names, records)) for c in (compiled(path, fp) for path, fp in refs)]
    rotations = [tuple(seats_for(names, r)) for r in range(len(names))]
    games = [
        tuple(play_one(c, names, seed, i, records, fast, rotations[i % len(names)]) for c, fast in rulesets)
        for i in indices
    ]
    if not observe:
        return Batch(games)
    from .analysis.measures import observe_games

    return Batch(games, tuple(observe_games(list(col), c.parts) for col, (c, _) in zip(zip(*games), rulesets)))


def play_games(rs_path: str, names: list, seed: int, indices: list, records: bool = False) -> list:
    """Play the given game indices of one ruleset; returns GameResults in index order."""
    return [g for (g,) in play_batch(((rs_path, None),), names, seed, indices, records).games]


def merge(batches: list) -> Batch:
    """Finished batches (in any order) as one: the games in game order, each ruleset's
    measure blocks in the order of their games."""
    batches = sorted(batches, key=lambda b: b.games[0][0].index if b.games else -1)
    games = [g for b in batches for g in b.games]
    if not batches or any(b.measured is None for b in batches):
        return Batch(games)
    return Batch(games, tuple([m for b in batches for m in b.measured[r]] for r in range(len(batches[0].measured))))


def _batches(games: int, chunk: int) -> list:
    return [list(range(i, min(games, i + chunk))) for i in range(0, games, chunk)]


def run_batches(
    refs: tuple,
    names: list,
    seed: int,
    games: int,
    workers: int = 1,
    records: bool = False,
    on_done: Optional[Callable] = None,
    chunk: int = 0,
    address: Optional[str] = None,
) -> Batch:
    """Play games 0..games-1 of every ruleset in ``refs`` on local processes (or on the Dask
    cluster at ``address``): a ``Batch`` of them all (``merge``), with their measures.
    ``on_done(batch)`` is called with each finished ``Batch``."""
    if address is not None:
        return _run_dask(address, refs, names, seed, games, records, on_done, chunk)
    if not chunk:  # several workers: small last batches, so that they end together; one: batches of 50
        chunk = 50 if workers <= 1 else max(1, min(50, games // (workers * 8) or 1))
    results: list = []

    def done(got):
        results.append(got)
        if on_done:
            on_done(got)

    if workers <= 1:
        for path, fingerprint in refs:
            compiled(path, fingerprint)
        with _frozen():
            for b in _batches(games, chunk):
                done(play_batch(refs, names, seed, b, records, True))
        return merge(results)
    import concurrent.futures as cf

    pool = None
    context = _worker_context(refs, names, seed)
    try:
        with _frozen(), _ctrl_c_deferred():  # the workers start while submitting: none sees a Ctrl-C before ignoring it
            pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start)
            futures = [pool.submit(play_batch, refs, names, seed, b, records, True) for b in _batches(games, chunk)]
        with _frozen(), _collector_held():
            for f in cf.as_completed(futures):
                done(f.result())
    except BaseException:  # Ctrl-C (or a failed batch): stop the workers now, keep what finished
        if pool is not None:
            _stop(pool)
        raise
    pool.shutdown()
    return merge(results)


@contextlib.contextmanager
def _frozen():
    """Everything alive now (the modules, the compiled rulesets) left out of the cyclic
    garbage collector's passes while the block runs: otherwise each full pass walks all of
    it again while the matches are played (about 2% of a random match), and forked workers
    would write to every page of it as they walk it. Put back afterwards."""

    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextlib.contextmanager
def _collector_held():
    """The cyclic garbage collector held back while the command takes in its workers' results
    (it runs again after): what arrives is rows without cycles, and each collection on the
    way would scan every result taken in so far, CPU the command takes from its workers."""

    held = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if held:
            gc.enable()


def _stop_signals() -> set:
    import signal

    return {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _ctrl_c_deferred():
    """Hold back Ctrl-C and SIGTERM in this thread for a moment: they are delivered when the
    block ends. Processes forked or spawned meanwhile start with them held back too
    (``_worker_start`` sets them up and lets them through)."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, _stop_signals())
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _stop_signals())


def _worker_start() -> None:
    """Workers leave Ctrl-C to the command, which stops them (no traceback from each worker),
    and die at once on SIGTERM (the command's handler, inherited by a fork, is not theirs)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _stop_signals())


def _stop(pool) -> None:
    """Cancel the batches not started and end the worker processes of ``pool``.

    A worker ended while sending a result leaves half a message in the result pipe, and the
    pool's manager thread would wait for the rest for ever (the exit then hangs joining it):
    with the workers gone this process holds the pipe's last write end, and closing it ends
    that wait. The manager thread then closes its wake-up pipe; waiting for it here keeps the
    exit hook from writing to that pipe as it closes (EBADF). ``shutdown`` forgets all three,
    so they are taken first."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    results = getattr(pool, "_result_queue", None)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(5)
    if results is not None:
        results._writer.close()
    if manager is not None:
        manager.join(5)


def _worker_context(refs: tuple, names: list, seed: int):
    """Where the platform can fork, the workers are forked from this process with every
    ruleset already compiled and, for players on the fast paths, warmed by one match played
    here and thrown away (its kernels written, its tables made): they start at once and
    compile nothing. Elsewhere they are spawned and each compiles on its first batch."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    for path, fingerprint in refs:
        compiled(path, fingerprint)
    if all(x in ("random", "heuristic", "simple") for x in names):
        play_batch(refs, names, seed, [0], False, True)
    return multiprocessing.get_context("fork")


def _run_dask(
    address: str,
    refs: tuple,
    names: list,
    seed: int,
    games: int,
    records: bool,
    on_done: Optional[Callable],
    chunk: int,
) -> Batch:
    """The same batches, sent to a Dask distributed cluster's workers."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError("the dask backend needs the cluster extra: pip install 'kierki-dsl[cluster]'") from None
    chunk = chunk or max(1, min(50, games // 16 or 1))
    results: list = []
    with Client(address) as client:
        futures = [
            client.submit(play_batch, refs, names, seed, b, records, True, pure=False) for b in _batches(games, chunk)
        ]
        for f in as_completed(futures):
            got = f.result()
            results.append(got)
            if on_done:
                on_done(got)
    return merge(results)


def run_local(
    rs_path: str,
    names: list,
    seed: int,
    games: int,
    workers: int,
    records: bool,
    on_done: Optional[Callable] = None,
    chunk: int = 0,
) -> list:
    """One ruleset's games 0..games-1 on ``workers`` local processes; GameResults in game order."""
    return [
        g
        for (g,) in run_batches(((rs_path, None),), names, seed, games, workers, records, _single(on_done), chunk).games
    ]


def run_dask(
    address: str,
    rs_path: str,
    names: list,
    seed: int,
    games: int,
    records: bool,
    on_done: Optional[Callable] = None,
    chunk: int = 0,
) -> list:
    """One ruleset's games on a Dask cluster; GameResults in game order."""
    return [
        g
        for (g,) in run_batches(
            ((rs_path, None),), names, seed, games, 1, records, _single(on_done), chunk, address
        ).games
    ]


def _single(on_done):
    return None if on_done is None else (lambda got: on_done([g for (g,) in got.games]))
