"""``kierki tournament``: N players, round-robin, duplicate matches, ratings (docs/bots.md).

Every pair (A, B) plays every seed in duplicate form: the same deals (the shuffle depends on the
seed only) are played ``2 × seats`` times, A alone at each seat with B in the others, then B
alone with A in the others. One observation per pair and seed is the mean over those matches of
A's mean total minus B's: the luck of the cards cancels. Results: the pairwise difference per
deal set with its 95% interval, an OpenSkill (Plackett–Luce) rating per player with a 95%
interval (each seed of each pair one game, won by the side with the higher observation), and
optionally an SPRT between the first two players that stops the tournament once decided.

Each finished match is appended to a journal (JSON lines, flushed and synced): a tournament
killed at any moment and started again with the same journal plays only what is missing and
gives the same table as one run through.
"""

from __future__ import annotations

import json
import math
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from itertools import combinations
from typing import Any, Callable, Optional

from . import jsonshape
from .interpreter.match import MatchRunner
from .players.base import make_player
from .ruleset.model import Ruleset
from .ruleset.semantics import part_of
from .stats import estimate

Key = tuple  # (a, b, seed, rotation): player indexes, the seed, 0 .. 2*seats-1
MEASURES = ("match", "negative", "positive")  # whole matches; the deals that lose points; the others


#: What plays an ``exec:`` bot's seat once the bot failed, unless told otherwise: it forfeits
#: (its first legal action every turn), so a bot that crashes ranks as such play does and not
#: as a built-in player standing in for it would (cutechess-cli scores a crashed engine's game lost).
ON_FAILURE = "forfeit"


def schedule(players: int, seats: int, seeds: range) -> list:
    """Every match of a round-robin in duplicate form, in a fixed order (seed first)."""
    return [(a, b, seed, r) for seed in seeds for a, b in combinations(range(players), 2) for r in range(2 * seats)]


def seating(key: Key, seats: int) -> list:
    """The player index at each seat in match ``key``."""
    a, b, _, r = key
    alone, rest = (a, b) if r < seats else (b, a)
    return [alone if s == r % seats else rest for s in range(seats)]


def play(ruleset, names: list, key: Key, on_failure: str = ON_FAILURE) -> dict:
    """Play one match of the tournament; A's and B's mean totals and any bot failure
    (``on_failure``: what plays an ``exec:`` bot's seat once it failed, or "forfeit")."""
    order = seating(key, ruleset.players)
    players = [make_player(names[i]) for i in order]
    for p in players:
        if hasattr(p, "on_failure"):
            p.on_failure = on_failure
    parts = {"negative": [0] * ruleset.players, "positive": [0] * ruleset.players}
    kinds: dict = {}
    try:
        runner = MatchRunner(ruleset, players, key[2])
        for r in runner.deals():
            contract: Any = r.contract
            if contract.name not in kinds:
                kinds[contract.name] = part_of(ruleset, contract)
            for s, points in enumerate(r.scores):
                parts[kinds[contract.name]][s] += points
        totals = runner.totals
    finally:
        for p in players:
            close = getattr(p, "close", None)
            if close is not None:
                close()
    failed = sorted({names[who] for p, who in zip(players, order) if getattr(p, "failure", None)})
    a, b = _sides(totals, order, key)
    row = {"key": list(key), "a": a, "b": b, "failed": failed}
    row["parts"] = {part: list(_sides(values, order, key)) for part, values in parts.items()}
    return row


def _sides(values: list, order: list, key: Key) -> tuple:
    """A's and B's mean of ``values`` (one number per seat) in match ``key``."""
    side = {i: [v for v, who in zip(values, order) if who == i] for i in (key[0], key[1])}
    return sum(side[key[0]]) / len(side[key[0]]), sum(side[key[1]]) / len(side[key[1]])


class JournalError(RuntimeError):
    """A ``--journal`` file that is not this tournament's journal: refused, never appended to
    (``FILE:LINE: error: ...``, exit 1)."""


#: The largest mean total a journal's row may carry (far beyond any real match's points).
MAX_POINTS = 1e12


def _points(value) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and abs(value) <= MAX_POINTS


def is_row(row, players: list) -> bool:
    """Whether ``row`` (a journal line read as JSON) is a finished match's as ``play`` writes it:
    a key of four ints, A's and B's mean totals, the failed bots among ``players`` and each
    part's two means, every number finite and bounded."""
    if not isinstance(row, dict):
        return False
    key, failed, parts = row.get("key"), row.get("failed"), row.get("parts")
    return (
        isinstance(key, list)
        and len(key) == 4
        and all(type(k) is int for k in key)
        and _points(row.get("a"))
        and _points(row.get("b"))
        and isinstance(failed, list)
        and all(isinstance(n, str) and n in players for n in failed)
        and isinstance(parts, dict)
        and all(
            isinstance(parts.get(part), list) and len(parts[part]) == 2 and all(map(_points, parts[part]))
            for part in MEASURES[1:]
        )
    )


class Journal:
    """The matches finished so far, one JSON line each after a first line naming the tournament
    (the ruleset's fingerprint and the players). A line that is not a finished match's (the last
    one cut by a kill, or one changed by hand: ``is_row``) is ignored: its match is played again."""

    def __init__(self, path: Optional[str], header: dict):
        self.path = path
        self.header = header

    def load(self) -> dict:
        """The finished matches by key; ``JournalError`` if the file is not this tournament's journal
        (every line is read through ``jsonshape``: nesting bounded before the parser runs)."""
        done: dict = {}
        if self.path is None or not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return done
        try:
            with open(self.path, "rb") as f:
                self._read(f, done)
        except OSError as e:
            raise JournalError(f"{self.path}: error: cannot read the journal: {e.strerror}") from None
        return done

    def _read(self, f, done: dict) -> None:
        try:
            first = jsonshape.parse(f.readline().decode("utf-8"), max_text=None)  # a journal's lines are not bounded
        except UnicodeDecodeError:
            raise JournalError(
                f"{self.path}:1: error: not a tournament journal (its first line is not UTF-8)"
            ) from None
        except jsonshape.ShapeError as e:
            raise JournalError(
                f"{self.path}:{e.line}: error: not a tournament journal (its first line is {e.message})"
            ) from None
        header = first.get("tournament") if isinstance(first, dict) else None
        if header is None:
            raise JournalError(f"{self.path}:1: error: not a tournament journal (its first line names no tournament)")
        if header != self.header:
            raise JournalError(f"{self.path}:1: error: the journal of another tournament (other rules or players)")
        for number, line in enumerate(f, start=2):
            try:
                row = jsonshape.parse(line.decode("utf-8"), number, max_text=None)
            except (jsonshape.ShapeError, UnicodeDecodeError):
                continue  # a line cut by a kill: its match is played again
            if is_row(row, header["players"]):
                done[tuple(row["key"])] = row  # (else changed by hand or cut: played again)

    def start(self) -> None:
        """Write the naming line to a new journal; end a journal's line cut by a kill, so that
        the next match's line starts on a line of its own (called after ``load`` accepted it)."""
        if self.path is None:
            return
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            self.append({"tournament": self.header})
            return
        try:
            with open(self.path, "rb+") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")
        except OSError as e:  # read-only, or gone since it was read
            raise JournalError(f"{self.path}: error: cannot write the journal: {e.strerror or e}") from None

    def append(self, row: dict) -> None:
        if self.path is None:
            return
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:  # a full disk, a folder gone meanwhile
            raise JournalError(f"{self.path}: error: cannot write the journal: {e.strerror or e}") from None


_WORKER: dict = {}


def _worker_play(path: str, names: list, key: Key, on_failure: str) -> dict:
    if path not in _WORKER:
        _WORKER[path] = Ruleset.load(path)
    return play(_WORKER[path], names, key, on_failure)


def run(ruleset, names: list, seeds: range, sprt: Optional[tuple] = None, **settings) -> dict:
    """Play what the journal lacks (``settings``: those of ``matches``, e.g. ``workers``) and
    summarize the tournament."""
    done = matches(ruleset, names, seeds, sprt=sprt, **settings)
    return summary(names, done, ruleset.players, seeds, sprt)


def matches(
    ruleset,
    names: list,
    seeds: range,
    workers: int = 1,
    journal: Optional[str] = None,
    progress: Optional[Callable] = None,
    sprt: Optional[tuple] = None,
    on_failure: str = ON_FAILURE,
) -> dict:
    """Every finished match of the tournament by key, playing what the journal lacks (until the
    SPRT, if any, is decided)."""
    keys = schedule(len(names), ruleset.players, seeds)
    book = Journal(journal, {"ruleset": ruleset.fingerprint, "players": list(names)})
    wanted = set(keys)
    done = {k: v for k, v in book.load().items() if k in wanted}
    book.start()
    todo = [k for k in keys if k not in done]

    def finished(row: dict) -> bool:
        done[tuple(row["key"])] = row
        book.append(row)
        if progress is not None:
            progress(len(done), len(keys))
        return sprt is not None and decided_at(done, names, ruleset.players, seeds, sprt) is not None

    if sprt is None or decided_at(done, names, ruleset.players, seeds, sprt) is None:
        if workers <= 1:
            for k in todo:
                if finished(play(ruleset, names, k, on_failure)):
                    break
        else:
            _parallel(ruleset.path, names, todo, workers, finished, on_failure)
    return done


def _parallel(path: str, names: list, todo: list, workers: int, finished: Callable, on_failure: str) -> None:
    with ProcessPoolExecutor(workers) as pool:
        pending = {pool.submit(_worker_play, path, names, k, on_failure) for k in todo}
        try:
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                if any(finished(f.result()) for f in ready):
                    break
        finally:
            for f in pending:
                f.cancel()


def observations(done: dict, pair: tuple, seats: int, seeds, measure: str = "match") -> list:
    """One duplicate observation per seed whose matches are all finished (in seed order): A's
    points minus B's over the whole match, or over the negative or positive deals only."""
    out = []
    for seed in seeds:
        keys = [(pair[0], pair[1], seed, r) for r in range(2 * seats)]
        if not all(k in done for k in keys):
            break
        out.append(sum(_difference(done[k], measure) for k in keys) / len(keys))
    return out


def _difference(row: dict, measure: str) -> float:
    if measure == "match":
        return row["a"] - row["b"]
    a, b = row["parts"][measure]
    return a - b


def sprt_llr(obs: list, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0) for A over B, each observation a
    win, draw or loss (fishtest's normal approximation of the trinomial)."""
    n = len(obs)
    if n == 0:
        return 0.0
    points = [1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in obs]
    m = sum(points) / n
    var = sum((p - m) ** 2 for p in points) / n
    if var == 0:
        var = 1e-3  # all wins (or all losses): the smallest variance fishtest's rounding allows
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float, beta: float) -> tuple:
    """(lower, upper): H0 is accepted below, H1 above."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def decided_at(done: dict, names: list, seats: int, seeds, sprt: tuple) -> Optional[tuple]:
    """(seeds used, 'H0' or 'H1', llr) at the first seed where the SPRT of players 0 and 1
    crosses a bound, else None."""
    elo0, elo1, alpha, beta = sprt
    lower, upper = sprt_bounds(alpha, beta)
    obs = observations(done, (0, 1), seats, seeds)
    for k in range(1, len(obs) + 1):
        llr = sprt_llr(obs[:k], elo0, elo1)
        if llr <= lower or llr >= upper:
            return k, "H1" if llr >= upper else "H0", llr
    return None


def summary(names: list, done: dict, seats: int, seeds, sprt: Optional[tuple] = None) -> dict:
    """The tournament's table: pairs, ratings, SPRT (the same whatever order matches finished in)."""
    stop = decided_at(done, names, seats, seeds, sprt) if sprt else None
    used = seeds[: stop[0]] if stop else seeds
    pairs = []
    games = []
    for a, b in combinations(range(len(names)), 2):
        obs = observations(done, (a, b), seats, used)
        est = estimate(obs) if obs else None
        pairs.append(
            {
                "a": names[a],
                "b": names[b],
                "deal_sets": len(obs),
                "diff": est.mean if est else None,
                "ci95": est.half_width if est else None,
            }
        )
        games += [(seed_i, a, b, x) for seed_i, x in enumerate(obs)]
    out = {
        "players": names,
        "seats": seats,
        "matches": sum(1 for k in done if k[2] in used),
        "pairs": pairs,
        "ratings": ratings(names, sorted(games)),
        "failures": sorted({n for row in done.values() for n in row["failed"]}),
    }
    if sprt:
        llr = sprt_llr(observations(done, (0, 1), seats, used), sprt[0], sprt[1])
        lower, upper = sprt_bounds(sprt[2], sprt[3])
        out["sprt"] = {
            "a": names[0],
            "b": names[1],
            "elo0": sprt[0],
            "elo1": sprt[1],
            "alpha": sprt[2],
            "beta": sprt[3],
            "llr": llr,
            "bounds": [lower, upper],
            "result": stop[1] if stop else "undecided",
            "deal_sets": len(used) if stop else None,
        }
    return out


def ratings(names: list, games: list) -> list:
    """OpenSkill (Plackett–Luce) ratings from the duplicate games, in a fixed order: mu, sigma,
    the 95% interval mu ± 1.96 sigma, best first."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise RuntimeError(
            "kierki tournament rates players with openskill: pip install 'kierki-dsl[tournament]'"
        ) from None
    model = PlackettLuce()
    table = [model.rating(name=n) for n in names]
    for _, a, b, x in games:
        ranks = [1.0, 1.0] if x == 0 else ([1.0, 2.0] if x > 0 else [2.0, 1.0])
        [[ra], [rb]] = model.rate([[table[a]], [table[b]]], ranks=ranks)
        table[a], table[b] = ra, rb
    rows = [
        {"player": n, "mu": r.mu, "sigma": r.sigma, "ci95": [r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma]}
        for n, r in zip(names, table)
    ]
    return sorted(rows, key=lambda row: (-row["mu"], row["player"]))


def text(table: dict) -> str:
    """The table for a reader."""
    lines = [
        f"Tournament: {len(table['players'])} players, {table['matches']} matches (duplicate form)",
        "",
        "Ratings (OpenSkill Plackett-Luce, 95% interval):",
    ]
    for i, r in enumerate(table["ratings"], 1):
        lines.append(f"  {i}. {r['player']:<24} {r['mu']:7.2f}  [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}]")
    lines += ["", "Pairs (A minus B, points per match, 95% interval):"]
    for p in table["pairs"]:
        ci = "" if p["ci95"] is None else f" ± {p['ci95']:.1f}"
        diff = "-" if p["diff"] is None else f"{p['diff']:+.1f}{ci}"
        lines.append(f"  {p['a']} vs {p['b']}: {diff} over {p['deal_sets']} deal sets")
    if "sprt" in table:
        s = table["sprt"]
        lines += [
            "",
            f"SPRT {s['a']} vs {s['b']} (elo0 {s['elo0']}, elo1 {s['elo1']}): {s['result']}, "
            f"LLR {s['llr']:.2f} in [{s['bounds'][0]:.2f}, {s['bounds'][1]:.2f}]",
        ]
    if table["failures"]:
        lines += ["", "Bots that failed in some match: " + ", ".join(table["failures"])]
    return "\n".join(lines)
