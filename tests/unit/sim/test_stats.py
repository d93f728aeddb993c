import math

from generator.sim.stats import band_decision, diff_interval, percentile, samples_for_halfwidth, wilson


def test_wilson_known_values():
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 1000)[1] < 0.004  # about the rule of three


def test_percentile_interpolates_like_numpy():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile(range(101), 95) == 95


def test_band_decision_three_ways():
    assert band_decision(500, 1000, 0.4, 0.6, 1.96) == "inside"
    assert band_decision(900, 1000, 0.4, 0.6, 1.96) == "outside"
    assert band_decision(41, 100, 0.4, 0.6, 1.96) == "unclear"


def test_two_percent_needs_about_2400_games():
    assert 2300 < samples_for_halfwidth(0.02) < 2500


def test_diff_interval_contains_difference():
    lo, hi = diff_interval(600, 1000, 100, 1000)
    assert lo < 0.5 < hi
