"""The one confidence-interval helper (kierki_dsl/stats.py) and the figures built on it."""
from __future__ import annotations

import math

from kierki_dsl.stats import Estimate, estimate, quantiles, sd, spread


def test_a_mean_with_its_interval():
    e = estimate([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5 and e.n == 4
    assert math.isclose(e.half_width, 1.96 * sd([1, 2, 3, 4]) / 2)
    assert e.significant and str(e) == "    +2.5 ±    1.3"


def test_below_two_observations_there_is_no_interval():
    one = estimate([7.0])
    assert one == Estimate(7.0, None, 1) and not one.significant
    assert "n/a" in str(one) and "inf" not in str(one)
    assert estimate([]).n == 0 and estimate([]).half_width is None
    assert one.to_json() == {"mean": 7.0, "ci95": None, "n": 1}


def test_an_interval_around_zero_is_not_significant():
    assert not estimate([-1.0, 1.0, -1.0, 1.0]).significant
    assert not estimate([0.0, 0.0, 0.0]).significant, "a difference that is zero every time is none"


def test_spread_and_quantiles():
    assert spread([10, 0, 0, -10]) == math.sqrt(50)
    assert spread([]) == 0.0 and sd([3]) == 0.0
    assert quantiles([4, 1, 3, 2, 5], (0.0, 0.5, 1.0)) == [1, 3, 5]
    assert quantiles([0, 10], (0.25,)) == [2.5]
    assert quantiles([]) == []
