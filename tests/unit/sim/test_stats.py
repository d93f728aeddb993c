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
