"""The one confidence-interval helper of kierki: a mean with its 95% interval.

Every figure that ``simulate``, ``compare`` and ``ladder`` report with an interval is the mean
of independent observations (one per match, or one per duplicate deal set), so one normal
approximation serves them all: mean ± 1.96 · s / √n with the sample standard deviation s.
A difference between two rulesets on the same deals is the mean of the per-match
differences (a paired estimate), so it goes through the same helper. With fewer than two
observations there is no interval: ``half_width`` is None and the text says ``n/a``.
"""

from __future__ import annotations

import math
from itertools import repeat
from operator import mul, sub
from typing import Optional, Sequence

from .values import frozen

Z95 = 1.96


@frozen
class Estimate:
    """A mean and the half width of its 95% confidence interval (None below two observations)."""

    mean: float
    half_width: Optional[float]
    n: int

    def __str__(self) -> str:
        if self.half_width is None:
            return f"{self.mean:+8.1f} ±    n/a"
        return f"{self.mean:+8.1f} ± {self.half_width:6.1f}"

    @property
    def significant(self) -> bool:
        """Whether the interval excludes zero (a difference, an advantage that is really there)."""
        return self.half_width is not None and abs(self.mean) > self.half_width

    def to_json(self) -> dict:
        return {"mean": self.mean, "ci95": self.half_width, "n": self.n}


def estimate(xs: Sequence[float]) -> Estimate:
    """The mean of ``xs`` with its 95% confidence interval."""
    n = len(xs)
    mean = math.fsum(xs) / n if n else 0.0
    if n < 2:
        return Estimate(mean, None, n)
    return Estimate(mean, Z95 * math.sqrt(_squares(xs, mean) / (n - 1) / n), n)


def _squares(xs: Sequence[float], mean: float) -> float:
    """The sum of the squared deviations from ``mean``, correctly rounded (in ``map``: it runs over every
    simulated match for every measure)."""
    return math.fsum(map(pow, map(sub, xs, repeat(mean)), repeat(2)))


def sd(xs: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    n = len(xs)
    if n < 2:
        return 0.0
    return math.sqrt(_squares(xs, math.fsum(xs) / n) / (n - 1))


def mean_sd(xs: Sequence[float]) -> dict:
    """``{"mean": ..., "sd": ...}`` of a non-empty ``xs``: ``estimate(xs).mean`` and ``sd(xs)``
    with the mean worked out once."""
    n = len(xs)
    mean = math.fsum(xs) / n
    return {"mean": mean, "sd": math.sqrt(_squares(xs, mean) / (n - 1)) if n > 1 else 0.0}


def spread(xs: Sequence[float]) -> float:
    """The population standard deviation of a few values (how far apart one deal leaves the
    seats); plain sums, as it runs once per deal of every simulated match."""
    n = len(xs)
    if not n:
        return 0.0
    mean = sum(xs) / n
    gaps = list(map(sub, xs, repeat(mean)))
    return math.sqrt(sum(map(mul, gaps, gaps)) / n)


def quantiles(xs: Sequence[float], qs: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)) -> list:
    """Linear-interpolated quantiles of ``xs`` (empty when there is no value)."""
    if not xs:
        return []
    s = sorted(xs)
    out = []
    for q in qs:
        pos = q * (len(s) - 1)
        lo = int(pos)
        hi = min(lo + 1, len(s) - 1)
        out.append(s[lo] + (s[hi] - s[lo]) * (pos - lo))
    return out


def share_interval(k: int, n: int) -> tuple:
    """The 95% Wilson score interval (low, high) of a share of ``k`` out of ``n``: unlike
    mean ± 1.96 s/√n it stays inside [0, 1] and is not empty at 0 or n."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def sign_test(diffs: Sequence[float]) -> float:
    """The exact two-sided p-value of the sign test: how likely as uneven a split of the
    non-zero paired differences into ups and downs is when neither way is likelier."""
    up = sum(1 for d in diffs if d > 0)
    down = sum(1 for d in diffs if d < 0)
    n = up + down
    if not n:
        return 1.0
    tail = math.fsum(math.comb(n, i) for i in range(min(up, down) + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def normal_p(e: Estimate) -> float:
    """The two-sided p-value of a mean being zero under the normal approximation of ``estimate``
    (1 without an interval; 0 for a non-zero mean with no spread at all)."""
    if e.half_width is None:
        return 1.0
    if e.half_width == 0:
        return 0.0 if e.mean else 1.0
    return math.erfc(abs(e.mean) / (e.half_width / Z95) / math.sqrt(2.0))


def holm(ps: dict, level: float = 0.05) -> dict:
    """Name -> whether its p-value stays below ``level`` after Holm's step-down correction for
    testing all of ``ps`` at once (so that among many measures, noise alone flags none at 95%)."""
    ordered = sorted(ps.items(), key=lambda kv: kv[1])
    m = len(ordered)
    out: dict = {}
    worst = 0.0
    for i, (name, p) in enumerate(ordered):
        worst = max(worst, min(1.0, (m - i) * p))
        out[name] = worst < level
    return out


__all__ = [
    "Estimate",
    "estimate",
    "holm",
    "mean_sd",
    "normal_p",
    "quantiles",
    "sd",
    "share_interval",
    "sign_test",
    "spread",
]
