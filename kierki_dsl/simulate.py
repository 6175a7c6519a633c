"""``kierki simulate``: many matches, seats rotated, a statistical report; any worker count.

Game i is played from seed ``seed * 1_000_003 + i`` with the players rotated i places, so
the results depend only on (ruleset, players, seed, games), never on how the games are
split between workers. Matches of random players use the compiled whole-deal fast path
(``interpreter/fastplay.py``); other players play through the general interpreter.
"""
from __future__ import annotations

import math
import random
from typing import Callable, Optional

from .interpreter.match import MatchRunner, deal_masks, draw
from .players.base import make_player
from .values import frozen


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def seats_for(names: list, i: int) -> list:
    """The players of game i: the list rotated i places (every player sits everywhere)."""
    n = len(names)
    return [names[(s - i) % n] for s in range(n)]


@frozen
class GameResult:
    index: int
    names: tuple  # player name per seat
    deals: tuple  # (contract name, scores) per deal
    totals: tuple
    record: Optional[dict] = None


class FastMatch:
    """Random-play matches with whole deals played by compiled closures where possible."""

    def __init__(self, rs):
        self.rs = rs
        self.cards = [c for c in range(52) if rs.deck >> c & 1]

    def play(self, seed: int) -> tuple:
        rs = self.rs
        n = rs.players
        rng = random.Random(seed)
        grb = rng.getrandbits
        first = rs.first_dealer if rs.first_dealer is not None else draw(rng, n)
        totals = [0] * n
        deals = []
        chosen: dict = {}
        k = -1
        while not rs.match_over(k + 1, totals):
            k += 1
            dealer = rs.dealer_of(first, k)
            dealt = deal_masks(rng, self.cards, dealer, n, rs.direction)
            contract = rs.contract_at(k).resolve(dealer, n, dealt, rs.deck, chosen,
                                                 lambda seat, allowed: allowed[draw(rng, len(allowed))])
            scores = self._deal(contract, dealer, dealt, rng, grb, k)
            totals = [t + s for t, s in zip(totals, scores)]
            deals.append((contract.name, tuple(scores)))
        return tuple(deals), tuple(totals)

    def _deal(self, contract, dealer: int, hands: list, rng, grb, k: int) -> list:
        rs = self.rs
        n = rs.players
        scores = contract.play_fast(n, rs.deck, dealer, hands, rs.direction, k + 1, rng)
        if scores is not None:
            return scores
        dealt = [[c for c in range(52) if h >> c & 1] for h in hands]
        state = contract.new_deal(n, rs.deck, dealer, dealt, rs.direction, k + 1)
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply_action(acts[draw(rng, len(acts))] if len(acts) > 1 else acts[0])
        return state.returns()


def play_games(rs_path: str, names: list, seed: int, indices: list, records: bool = False) -> list:
    """Play the given game indices (a worker's share); returns GameResults in index order."""
    from .record import match_record
    from .ruleset.model import Ruleset

    rs = Ruleset.load(rs_path)
    fast = FastMatch(rs) if all(x == "random" for x in names) and not records else None
    out = []
    for i in indices:
        seat_names = seats_for(names, i)
        s = game_seed(seed, i)
        if fast is not None:
            deals, totals = fast.play(s)
            out.append(GameResult(i, tuple(seat_names), deals, totals))
            continue
        runner = MatchRunner(rs, [make_player(x) for x in seat_names], s)
        results = list(runner.deals())
        deals = tuple((r.contract.name, tuple(r.scores)) for r in results)
        rec = match_record(rs, s, runner.first_dealer, results) if records else None
        out.append(GameResult(i, tuple(seat_names), deals, tuple(results[-1].totals), rec))
    return out


# -- the report ---------------------------------------------------------------------------------

def _mean_ci(xs: list) -> tuple:
    n = len(xs)
    if not n:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def _sd(xs: list) -> float:
    if len(xs) < 2:
        return 0.0
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def summarize(rs, names: list, games: list) -> dict:
    """Per player and per seat: mean points with a 95% interval, per-contract mean and spread,
    win rates; and the check of every deal's sum against the declared totals."""
    n = rs.players
    by_player: dict = {}
    by_seat = {s: [] for s in range(n)}
    contracts: dict = {}
    wins: dict = {}
    mismatches = []
    declared = {name: getattr(c, "total", None) for name, c in rs.contracts.items()}
    for g in games:
        best = max(g.totals)
        winners = [s for s in range(n) if g.totals[s] == best]
        for s in range(n):
            p = g.names[s]
            by_player.setdefault(p, []).append(g.totals[s])
            by_seat[s].append(g.totals[s])
            wins[p] = wins.get(p, 0.0) + (1.0 / len(winners) if s in winners else 0.0)
        for k, (cname, scores) in enumerate(g.deals):
            if declared.get(cname) is not None and sum(scores) != declared[cname]:
                mismatches.append({"game": g.index, "deal": k + 1, "contract": cname, "sum": sum(scores)})
            for s in range(n):
                contracts.setdefault(cname, {}).setdefault(g.names[s], []).append(scores[s])
    seats_played = {p: len(v) for p, v in by_player.items()}
    return {
        "ruleset": rs.name,
        "games": len(games),
        "players": {
            p: {
                "mean": _mean_ci(v)[0],
                "ci95": _mean_ci(v)[1],
                "win_rate": wins.get(p, 0.0) / seats_played[p],
                "seats": seats_played[p],
            }
            for p, v in sorted(by_player.items())
        },
        "seats": {str(s): {"mean": _mean_ci(v)[0], "ci95": _mean_ci(v)[1]} for s, v in by_seat.items()},
        "contracts": {
            c: {p: {"mean": _mean_ci(v)[0], "sd": _sd(v)} for p, v in sorted(per.items())}
            for c, per in contracts.items()
        },
        "declared_totals_hold": not mismatches,
        "mismatches": mismatches[:20],
    }


def text_report(summary: dict) -> str:
    lines = [f"{summary['ruleset']}: {summary['games']} matches, seats rotated", "",
             f"{'player':<16}{'points per match':>24}{'win rate':>10}"]
    for p, v in summary["players"].items():
        lines.append(f"{p:<16}{v['mean']:>+14.1f} ± {v['ci95']:<7.1f}{v['win_rate']:>10.1%}")
    lines += ["", "by seat: " + "  ".join(f"{s}: {v['mean']:+.1f} ± {v['ci95']:.1f}" for s, v in summary["seats"].items()), ""]
    players = list(summary["players"])
    lines.append(f"{'contract':<26}" + "".join(f"{p[:18]:>22}" for p in players))
    for c, per in summary["contracts"].items():
        cells = "".join(f"{per[p]['mean']:>+12.1f} (sd {per[p]['sd']:>5.1f})" if p in per else f"{'':>22}" for p in players)
        lines.append(f"{c:<26}{cells}")
    lines.append("")
    lines.append("declared totals: every deal adds up as declared" if summary["declared_totals_hold"]
                 else f"declared totals: {len(summary['mismatches'])} deal(s) do not add up, e.g. {summary['mismatches'][0]}")
    return "\n".join(lines)


def run_local(rs_path: str, names: list, seed: int, games: int, workers: int, records: bool,
              on_done: Optional[Callable] = None, chunk: int = 0) -> list:
    """Play games 0..games-1 on ``workers`` local processes; results in game order."""
    chunk = chunk or max(1, min(50, games // max(1, workers * 4) or 1))
    batches = [list(range(i, min(games, i + chunk))) for i in range(0, games, chunk)]
    results: list = []
    if workers <= 1:
        for b in batches:
            got = play_games(rs_path, names, seed, b, records)
            results.extend(got)
            if on_done:
                on_done(got)
        return sorted(results, key=lambda g: g.index)
    import concurrent.futures as cf
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = [pool.submit(play_games, rs_path, names, seed, b, records) for b in batches]
        try:
            for f in cf.as_completed(futures):
                got = f.result()
                results.extend(got)
                if on_done:
                    on_done(got)
        except KeyboardInterrupt:
            for f in futures:
                f.cancel()
            raise
        finally:
            pass
    return sorted(results, key=lambda g: g.index)


def run_dask(address: str, rs_path: str, names: list, seed: int, games: int, records: bool,
             on_done: Optional[Callable] = None, chunk: int = 0) -> list:
    """The same batches, sent to a Dask distributed cluster's workers."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError("the dask backend needs the cluster extra: pip install 'kierki-dsl[cluster]'") from None
    chunk = chunk or max(1, min(50, games // 16 or 1))
    batches = [list(range(i, min(games, i + chunk))) for i in range(0, games, chunk)]
    results: list = []
    with Client(address) as client:
        futures = [client.submit(play_games, rs_path, names, seed, b, records, pure=False) for b in batches]
        for f in as_completed(futures):
            got = f.result()
            results.extend(got)
            if on_done:
                on_done(got)
    return sorted(results, key=lambda g: g.index)
