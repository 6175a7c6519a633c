"""``--csv DIR``: one row per match and one per deal, for people who plot themselves.

Three files: ``rulesets.csv`` (label A/B, name, path, fingerprint, players, seed),
``matches.csv`` (label, match index, seed, first dealer, player and total per seat) and
``deals.csv`` (label, match index, deal number, contract, dealer, first player, trump caller,
trump, ended early, blocked, points per seat). ``read_csv`` reads them back into the same
GameResults (tested: a round trip gives equal values).
"""
from __future__ import annotations

import csv
import os

from ..cards import SUITS
from .rows import DealRow, GameResult


def _seat_cols(prefix: str, n: int) -> list:
    return [f"{prefix}{s}" for s in range(n)]


def write_csv(folder: str, games: dict, rulesets: list, plan) -> None:
    """Write the three files for ``games`` (label -> GameResults) of ``rulesets`` (in label order);
    a file created is its owner's only (``record.OUTPUT_MODE``)."""
    from ..record import private_opener

    os.makedirs(folder, exist_ok=True)
    n = rulesets[0].players
    with open(os.path.join(folder, "rulesets.csv"), "w", newline="", encoding="utf-8", opener=private_opener) as f:
        w = csv.writer(f)
        w.writerow(["label", "name", "path", "fingerprint", "players", "seed"])
        for label, rs in zip(games, rulesets):
            w.writerow([label, rs.name, rs.path, rs.fingerprint, rs.players, plan.seed])
    with open(os.path.join(folder, "matches.csv"), "w", newline="", encoding="utf-8", opener=private_opener) as f:
        w = csv.writer(f)
        w.writerow(["label", "match", "seed", "first_dealer"] + _seat_cols("player_", n) + _seat_cols("total_", n))
        for label, gs in games.items():
            for g in gs:
                w.writerow([label, g.index, g.seed, g.first_dealer, *g.names, *g.totals])
    with open(os.path.join(folder, "deals.csv"), "w", newline="", encoding="utf-8", opener=private_opener) as f:
        w = csv.writer(f)
        w.writerow(["label", "match", "deal", "contract", "dealer", "first", "caller", "trump", "early", "blocked"]
                   + _seat_cols("points_", n))
        for label, gs in games.items():
            for g in gs:
                for k, r in enumerate(g.deals):
                    trump = SUITS[r.trump] if r.trump >= 0 else ""
                    w.writerow([label, g.index, k + 1, r.contract, r.dealer, r.first, r.caller, trump, int(r.early),
                                int(r.blocked), *r.scores])


def read_csv(folder: str) -> dict:
    """label -> GameResults in match order, from a folder ``write_csv`` wrote."""
    deals: dict = {}
    n, rows = _rows(folder, "deals.csv", "points_")
    for row in rows:
        label, match = row[0], int(row[1])
        scores = tuple(int(x) for x in row[10:10 + n])
        trump = SUITS.index(row[7]) if row[7] else -1
        deals.setdefault((label, match), []).append(
            DealRow(row[3], int(row[4]), int(row[5]), int(row[6]), trump, scores, row[8] == "1", row[9] == "1"))
    games: dict = {}
    n, rows = _rows(folder, "matches.csv", "total_")
    for row in rows:
        label, match = row[0], int(row[1])
        names = tuple(row[4:4 + n])
        totals = tuple(int(x) for x in row[4 + n:4 + 2 * n])
        games.setdefault(label, []).append(GameResult(match, names, tuple(deals.get((label, match), ())), totals,
                                                      None, int(row[2]), int(row[3])))
    return games


def _rows(folder: str, name: str, per_seat: str) -> tuple:
    """(number of seats, the data rows) of one CSV file ``write_csv`` wrote; the seats are
    counted from the header's columns named ``per_seat``N."""
    with open(os.path.join(folder, name), newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        head = next(reader)
        return sum(1 for h in head if h.startswith(per_seat)), list(reader)


__all__ = ["read_csv", "write_csv"]
