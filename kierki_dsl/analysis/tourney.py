"""``kierki tournament --html FILE``: the tournament's table as one self-contained page, with
plots of the ratings and of the pairwise differences (95% intervals), drawn like the plots of
``analysis/html.py`` (matplotlib, PNGs embedded: no server, no script)."""

from __future__ import annotations

import html

from .html import _figure, _img


def ratings_plot(table: dict) -> str:
    """Each player's rating with its 95% interval, best on top."""
    rows = list(reversed(table["ratings"]))
    fig = _figure(7.5, 0.5 * len(rows) + 1.5)
    ax = fig.add_subplot()
    mus = [r["mu"] for r in rows]
    ax.errorbar(
        mus,
        range(len(rows)),
        xerr=[[m - r["ci95"][0] for m, r in zip(mus, rows)], [r["ci95"][1] - m for m, r in zip(mus, rows)]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(range(len(rows)), [r["player"] for r in rows])
    ax.set_xlabel("OpenSkill rating (mu, 95% interval)")
    return _img(fig, "Ratings")


def pairs_plot(table: dict) -> str:
    """Each pair's difference per deal set with its 95% interval."""
    rows = [p for p in table["pairs"] if p["diff"] is not None]
    fig = _figure(7.5, 0.5 * len(rows) + 1.5)
    ax = fig.add_subplot()
    ax.errorbar([p["diff"] for p in rows], range(len(rows)), xerr=[p["ci95"] or 0 for p in rows], fmt="o", capsize=4)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(rows)), [f"{p['a']} − {p['b']}" for p in rows])
    ax.set_xlabel("points per match, A minus B (95% interval)")
    return _img(fig, "Pairwise differences")


def render(table: dict, text: str) -> str:
    """The page: the plots, then the table as text."""
    return "\n".join(
        [
            "<!doctype html><html><head><meta charset='utf-8'><title>kierki tournament</title></head><body>",
            "<h1>Tournament</h1>",
            ratings_plot(table),
            pairs_plot(table) if table["pairs"] else "",
            f"<pre>{html.escape(text)}</pre>",
            "</body></html>",
        ]
    )
