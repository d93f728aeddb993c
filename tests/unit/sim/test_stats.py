import math

import pytest

from generator.sim.stats import (band_decision, diff_interval, interval_decision, interval_text, nearest_rank, number_text,
                                 percentile, plain_zeros, ratio_interval,
                                 samples_for_halfwidth, wilson)
from generator.sim.verdict import _Runs


def test_wilson_known_values():
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 1000)[1] < 0.004  # about the rule of three
    # Newcombe (1998), Stat. Med. 17:857, table I, method 3 (Wilson score, 95%): the asymmetric
    # cases check the centre correction that 50/100 cannot
    for (k, n), expected in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                             (0, 20): (0.0, 0.1611), (1, 29): (0.0061, 0.1718)}.items():
        assert [round(v, 4) for v in wilson(k, n)] == list(expected), (k, n)


def test_percentile_interpolates_like_numpy():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile(range(101), 95) == 95


def test_nearest_rank_is_a_value_that_occurs():
    """A game length's p95 is a length some game had: 20 games of 1..20 rounds give 19, not 19.05."""
    assert nearest_rank(range(1, 21), 95) == 19
    assert nearest_rank([24, 25], 95) == 25           # interpolation said 24.95
    assert nearest_rank([3, 1, 2], 50) == 2 and nearest_rank([7], 95) == 7
    assert nearest_rank(range(1, 101), 95) == 95      # 95 of 100 values at or below it
    assert math.isnan(nearest_rank([], 95))


def test_band_decision_three_ways():
    assert band_decision(500, 1000, 0.4, 0.6, 1.96) == "inside"
    assert band_decision(900, 1000, 0.4, 0.6, 1.96) == "outside"
    assert band_decision(41, 100, 0.4, 0.6, 1.96) == "unclear"
    # the interval is taken at the z asked for: 60/100 is [0.502, 0.691] at 1.96, [0.471, 0.716] at 2.576
    assert band_decision(60, 100, 0.5, None, 1.96) == "inside"
    assert band_decision(60, 100, 0.5, None, 2.576) == "unclear"


def test_interval_decision_band_ends_are_closed_and_may_be_open():
    assert interval_decision(0.4, 0.6, 0.4, 0.6) == "inside"       # touching both ends is inside
    assert interval_decision(0.3, 0.4, 0.4, 0.6) == "unclear"      # touching from outside is not outside
    assert interval_decision(0.6, 0.7, 0.4, 0.6) == "unclear"
    assert interval_decision(0.1, 0.39, 0.4, 0.6) == "outside"
    assert interval_decision(0.61, 0.9, 0.4, 0.6) == "outside"
    assert interval_decision(0.0, 0.99, None, None) == "inside"
    assert interval_decision(0.7, 0.9, None, 0.6) == "outside" and interval_decision(0.1, 0.3, 0.4, None) == "outside"


def _play_stream(stream, wins):
    """Feed a verdict sample stream made-up records (``wins[i]`` wins in its i-th batch):
    ``(the batches it asked for, what it returned)``."""
    asked = []
    request = stream.send(None)
    try:
        while True:
            asked.append(request)
            games, won = request[2], wins[len(asked) - 1]
            request = stream.send([{"outcome": "win"}] * won + [{"outcome": "loss"}] * (games - won))
    except StopIteration as end:
        records, decision, z = end.value
        return asked, (len(records), decision, z)


def test_sequential_sampling_stops_at_the_first_clear_look_with_that_looks_z():
    # 30/40 at z 2.576 is [0.547, 0.882]: inside [0.35, 0.99] at the interim look, no more games
    stream = _Runs.sequential_stream(2, "greedy", [40, 80], 0.35, 0.99, 2.576, 1.96, first_checked=False)
    assert _play_stream(stream, [30]) == ([(2, "greedy", 40, 0, False)], (40, "inside", 2.576))
    # random-agent games are all checked; 30/40 is wholly above a 0.2 ceiling
    stream = _Runs.sequential_stream(3, "random", [40, 80], None, 0.2, 2.576, 1.96, first_checked=True)
    assert _play_stream(stream, [30]) == ([(3, "random", 40, 0, True)], (40, "outside", 2.576))


def test_sequential_sampling_uses_the_interim_z_before_the_last_look_and_the_final_z_at_it():
    # 21/40 would be inside at 1.96 ([0.375, 0.671]) but is not at the interim 2.576 ([0.333, 0.710]);
    # 37/80 is inside at the final 1.96 ([0.357, 0.571]) though not at 2.576 ([0.327, 0.603])
    stream = _Runs.sequential_stream(2, "greedy", [40, 80], 0.35, 0.99, 2.576, 1.96, first_checked=False)
    assert _play_stream(stream, [21, 16]) == (
        [(2, "greedy", 40, 0, False), (2, "greedy", 40, 40, False)], (80, "inside", 1.96))
    # still unclear at the last look: the stream ends there, unclear
    stream = _Runs.sequential_stream(2, "greedy", [40, 80], 0.35, 0.99, 2.576, 1.96, first_checked=False)
    assert _play_stream(stream, [21, 14]) == (
        [(2, "greedy", 40, 0, False), (2, "greedy", 40, 40, False)], (80, "unclear", 1.96))


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


def test_a_paired_interval_is_never_zero_wide():
    """No pair differing (or every pair differing the same way) gives the Wald interval no width,
    as if 400 deals proved the arms play alike: the bound is Wilson's on 0 of 400 pairs otherwise."""
    from generator.sim.stats import paired_diff_interval

    bound = wilson(0, 400)[1]
    assert 0.009 < bound < 0.01
    assert paired_diff_interval(200, 0, 0, 400) == (0.0, -bound, bound)
    assert paired_diff_interval(0, 400, 0, 400) == (1.0, 1.0 - bound, 1.0)
    assert paired_diff_interval(0, 0, 400, 400) == (-1.0, -1.0, -1.0 + bound)


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


def test_ratio_interval_of_a_zero_share_is_bounded_like_zero_successes_in_its_games():
    # 0 of 3,200 rounds in 400 games: the rounds show no spread to measure their dependence by, so the
    # bound is that of 0 in 400 (not 0 in 3,200, which would treat the rounds as independent)
    lo, hi = ratio_interval([0] * 400, [8] * 400, proportion=True)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(wilson(0, 400)[1])
    lo, hi = ratio_interval([8] * 400, [8] * 400, proportion=True)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(wilson(400, 400)[0])


def test_ratio_interval_of_a_mean():
    values = [12, 14] * 200
    lo, hi = ratio_interval(values, [1] * 400)
    assert lo < 13 < hi and hi - lo == pytest.approx(2 * 1.96 * 1.0 / math.sqrt(399), rel=0.01)


def test_a_first_look_the_checked_games_already_played_is_decided_there():
    """With looks[0] at most the checked games (100), the checked batch is the whole first look: it is
    decided at that look (it was skipped, and the stream played on to the second)."""
    stream = _Runs.sequential_stream(2, "greedy", [40, 80], 0.35, 0.99, 2.576, 1.96, first_checked=True)
    assert _play_stream(stream, [30]) == ([(2, "greedy", 40, 0, True)], (40, "inside", 2.576))


def test_a_rounded_tiny_negative_is_shown_without_its_sign():
    """-1e-17 (two equal rates subtracted) or a negated 0.0 showed "-0.000": a loss of nothing."""
    assert number_text(-1e-17) == "0.000" and number_text(-0.0, "{:+.3f}") == "+0.000"
    assert number_text(-0.0, "{:g}") == "0"
    assert number_text(-0.0004, "{:+.3f}") == "+0.000" and number_text(-0.002, "{:+.3f}") == "-0.002"
    assert number_text(-math.inf) == "-inf" and number_text(0.25, "{:+.2f}") == "+0.25"
    assert interval_text(-0.0, -1e-12, 0.5, 40, "{:+.3f}") == "+0.000 [+0.000, +0.500] (40)"
    assert interval_text(-0.0, -0.0, 0.1) == "0.000 [0.000, 0.100]"


def test_plain_zeros_drops_the_sign_of_zero_only():
    data = plain_zeros({"delta": round(-1e-17, 4), "ci95": [-0.0, -0.25], "n": 0, "name": "-0.0"})
    assert data == {"delta": 0.0, "ci95": [0.0, -0.25], "n": 0, "name": "-0.0"}
    assert math.copysign(1, data["delta"]) == 1 and math.copysign(1, data["ci95"][0]) == 1
