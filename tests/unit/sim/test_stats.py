import math

import pytest

from generator.sim.stats import band_decision, diff_interval, percentile, ratio_interval, samples_for_halfwidth, wilson


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


def test_paired_interval_uses_only_discordant_pairs():
    from generator.sim.stats import paired_diff_interval

    d, lo, hi = paired_diff_interval(both=300, only_first=30, only_second=10, n=400)
    assert d == 0.05
    # Wald interval of the paired difference: var = (b + c - (b - c)^2 / n) / n^2
    half = 1.959963984540054 * ((40 - 400 / 400) ** 0.5) / 400
    assert abs(lo - (0.05 - half)) < 1e-12 and abs(hi - (0.05 + half)) < 1e-12
    assert lo > 0                       # 20 more wins out of 400 pairs is clear when pairs agree
    assert diff_interval(330, 400, 310, 400)[0] < 0   # the same counts unpaired are not
    assert paired_diff_interval(200, 0, 0, 400) == (0.0, 0.0, 0.0)


def test_ratio_interval_uses_the_game_as_the_unit():
    # 400 games of 8 boss rounds: the same share of rounds, once spread evenly over the games and
    # once concentrated in a few games. Clustering widens the interval; an even spread is near Wilson.
    even_num = [1] * 400
    lumpy_num = [8] * 50 + [0] * 350
    dens = [8] * 400
    even = ratio_interval(even_num, dens, proportion=True)
    lumpy = ratio_interval(lumpy_num, dens, proportion=True)
    assert even[0] < 0.125 < even[1] and lumpy[0] < 0.125 < lumpy[1]
    assert lumpy[1] - lumpy[0] > 2 * (even[1] - even[0])
    lo, hi = wilson(400, 3200)
    assert even[0] == pytest.approx(lo, abs=0.01) and even[1] == pytest.approx(hi, abs=0.01)


def test_ratio_interval_of_a_zero_share_is_bounded_like_zero_successes():
    lo, hi = ratio_interval([0] * 400, [8] * 400, proportion=True)
    assert lo == pytest.approx(0.0, abs=1e-12) and 0 < hi < 4 / 3200


def test_ratio_interval_of_a_mean():
    values = [12, 14] * 200
    lo, hi = ratio_interval(values, [1] * 400)
    assert lo < 13 < hi and hi - lo == pytest.approx(2 * 1.96 * 1.0 / math.sqrt(399), rel=0.01)
