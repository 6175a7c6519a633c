"""``--csv DIR``: one row per match and one per deal, for people who plot themselves.

Three files: ``rulesets.csv`` (label A/B, name, path, fingerprint, players, seed),
``matches.csv`` (label, match index, seed, first dealer, player and total per seat) and
``deals.csv`` (label, match index, deal number, contract, dealer, first player, trump caller,
trump, ended early, blocked, points per seat). ``read_csv`` reads them back into the same
GameResults (tested: a round trip gives equal values).
"""

from __future__ import annotations

import csv
import io
import os

from ..cards import SUITS
from .rows import DealRow, GameResult


def _seat_cols(prefix: str, n: int) -> list:
    return [f"{prefix}{s}" for s in range(n)]


def write_csv(folder: str, games: dict, rulesets: list, plan) -> None:
    """Write the three files for ``games`` (label -> GameResults) of ``rulesets`` (in label order)."""
    from ..paths import make_folder, write_atomic

    make_folder(folder, "--csv")
    n = rulesets[0].players
    for name, rows in (
        ("rulesets.csv", _ruleset_rows(games, rulesets, plan)),
        ("matches.csv", _match_rows(games, n)),
        ("deals.csv", _deal_rows(games, n)),
    ):
        text = io.StringIO(newline="")
        csv.writer(text).writerows(rows)
        write_atomic(os.path.join(folder, name), text.getvalue(), "--csv")


#: the files ``write_csv`` writes (checked before a run: none may be a FIFO, a device or a folder)
FILES = r"(rulesets|matches|deals)\.csv"


def _ruleset_rows(games: dict, rulesets: list, plan) -> list:
    rows: list = [["label", "name", "path", "fingerprint", "players", "seed"]]
    for label, rs in zip(games, rulesets):
        rows.append([label, rs.name, rs.path, rs.fingerprint, rs.players, plan.seed])
    return rows


def _match_rows(games: dict, n: int) -> list:
    rows: list = [["label", "match", "seed", "first_dealer"] + _seat_cols("player_", n) + _seat_cols("total_", n)]
    for label, gs in games.items():
        for g in gs:
            rows.append([label, g.index, g.seed, g.first_dealer, *g.names, *g.totals])
    return rows


def _deal_rows(games: dict, n: int) -> list:
    rows: list = [
        ["label", "match", "deal", "contract", "dealer", "first", "caller", "trump", "early", "blocked"]
        + _seat_cols("points_", n)
        + ["declarer"]
    ]
    for label, gs in games.items():
        for g in gs:
            for k, r in enumerate(g.deals):
                trump = SUITS[r.trump] if r.trump >= 0 else ""
                rows.append(
                    [
                        label,
                        g.index,
                        k + 1,
                        r.contract,
                        r.dealer,
                        r.first,
                        r.caller,
                        trump,
                        int(r.early),
                        int(r.blocked),
                        *r.scores,
                        r.declarer,
                    ]
                )
    return rows


def read_csv(folder: str) -> dict:
    """label -> GameResults in match order, from a folder ``write_csv`` wrote."""
    deals: dict = {}
    n, rows = _rows(folder, "deals.csv", "points_")
    for row in rows:
        label, match = row[0], int(row[1])
        scores = tuple(int(x) for x in row[10 : 10 + n])
        trump = SUITS.index(row[7]) if row[7] else -1
        declarer = int(row[10 + n]) if len(row) > 10 + n else -1  # files written before the column: none
        deals.setdefault((label, match), []).append(
            DealRow(
                row[3], int(row[4]), int(row[5]), int(row[6]), trump, scores, row[8] == "1", row[9] == "1", declarer
            )
        )
    games: dict = {}
    n, rows = _rows(folder, "matches.csv", "total_")
    for row in rows:
        label, match = row[0], int(row[1])
        names = tuple(row[4 : 4 + n])
        totals = tuple(int(x) for x in row[4 + n : 4 + 2 * n])
        games.setdefault(label, []).append(
            GameResult(match, names, tuple(deals.get((label, match), ())), totals, None, int(row[2]), int(row[3]))
        )
    return games


def _rows(folder: str, name: str, per_seat: str) -> tuple:
    """(number of seats, the data rows) of one CSV file ``write_csv`` wrote; the seats are
    counted from the header's columns named ``per_seat``N."""
    with open(os.path.join(folder, name), newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        head = next(reader)
        return sum(1 for h in head if h.startswith(per_seat)), list(reader)


__all__ = ["read_csv", "write_csv"]
