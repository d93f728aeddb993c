"""Statistics for simulated play: Wilson intervals, percentiles, sequential looks.

Every proportion the validator reports is ``p [lo, hi] (n)`` with a Wilson score interval.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` trials (``(0, 1)`` when n = 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values, q: float) -> float:
    """The ``q``-th percentile (0..100) with linear interpolation (numpy's default method)."""
    data = sorted(values)
    if not data:
        return float("nan")
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def median(values) -> float:
    return percentile(values, 50)


def nearest_rank(values, q: float):
    """The ``q``-th percentile (0..100) by nearest rank: the smallest value with at least q% of the
    values at or below it. A game length's p95 is then a length some game had (an interpolated 24.5
    rounds is none), and a cap judged on it is judged on a game's own length."""
    data = sorted(values)
    if not data:
        return float("nan")
    return data[max(0, math.ceil(len(data) * q / 100.0) - 1)]


def samples_for_halfwidth(halfwidth: float, p: float = 0.5, z: float = Z95) -> int:
    """Games needed for a normal-approximation interval of ``±halfwidth`` at proportion ``p``."""
    return math.ceil(z * z * p * (1 - p) / (halfwidth * halfwidth))


def band_text(lo, hi) -> str:
    """A band as the reports print it: ``[0.35, 0.7]``, an open end as ``-inf`` / ``inf``."""
    return f"[{'-inf' if lo is None else lo}, {'inf' if hi is None else hi}]"


def band_decision(k: int, n: int, lo: float | None, hi: float | None, z: float) -> str:
    """Where the interval of k/n lies against the band [lo, hi] (either end may be open).

    ``"inside"`` when the whole interval lies in the band, ``"outside"`` when it lies wholly
    beyond one end, otherwise ``"unclear"``.
    """
    return interval_decision(*wilson(k, n, z), lo, hi)


def diff_interval(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p1 - p2 (independent samples, Wilson-based)."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def paired_diff_interval(both: int, only_first: int, only_second: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """``(d, lo, hi)`` for p1 - p2 measured on the same ``n`` seeds (paired): ``only_first``
    pairs where only the first arm won, ``only_second`` where only the second did (``both`` is
    for the caller's bookkeeping; concordant pairs carry no information on the difference).
    Wald interval of the paired difference; most paired games agree, so it is far narrower
    than an interval for two independent samples of the same size. Where the Wald interval has no
    width (no pair differs, or every pair differs the same way) it would claim certainty: the bound
    is then :func:`none_differ_bound`'s, 0 of ``n`` pairs ending otherwise."""
    if n <= 0:
        return 0.0, -1.0, 1.0
    b, c = only_first, only_second
    d = (b - c) / n
    var = max(0.0, (b + c) - (b - c) ** 2 / n) / (n * n)
    half = z * math.sqrt(var) if var > 0 else none_differ_bound(n, z)
    return d, max(-1.0, d - half), min(1.0, d + half)


def paired_wins(first, second) -> tuple[float, float, float, int]:
    """``(d, lo, hi, differing)``: the win rate of ``first`` minus ``second`` with its paired interval
    (:func:`paired_diff_interval`) and how many pairs ended differently; ``first[i]`` and ``second[i]``
    say whether game i (dealt from the same seed in both arms) was won."""
    both = only_first = only_second = 0
    for x, y in zip(first, second):
        both += x and y
        only_first += x and not y
        only_second += y and not x
    d, lo, hi = paired_diff_interval(both, only_first, only_second, min(len(first), len(second)))
    return d, lo, hi, only_first + only_second


def none_differ_bound(n: int, z: float = Z95) -> float:
    """How far apart two arms' win rates could still be when none of ``n`` paired games ended differently:
    a paired difference is at most the share of pairs that differ, here 0 of n, whose Wilson upper bound is
    z^2 / (n + z^2) (0.161 at 20 games, 0.0095 at 400; the rule of three's 3/n, Wilson's way), where the
    paired (Wald) interval would be [0, 0] and claim the arms certainly play alike."""
    return wilson(0, n, z)[1]


def ratio_interval(nums, dens, z: float = Z95, proportion: bool = False) -> tuple[float, float]:
    """Interval for a ratio of sums over games, R = sum(nums) / sum(dens) (a share of rounds, a mean
    per game, ...), with the game as the sampling unit: rounds of one game are not independent, so a
    Wilson interval over rounds would be too narrow. Linearised (delta-method) standard error of the
    ratio estimator. With ``proportion`` the cluster variance becomes a design effect and the result
    is a Wilson interval on the effective sample size, which stays sensible at 0 and 1: there the
    rounds show no spread to measure their dependence by, so the bound takes the games as the sample
    (a share of 0 in 3,000 boss rounds of 400 games is bounded like 0 of 400, not 0 of 3,000)."""
    n, total = len(nums), float(sum(dens))
    if n < 2 or total <= 0:
        return (0.0, 1.0) if proportion else (-math.inf, math.inf)
    r = sum(nums) / total
    resid = sum((y - r * x) ** 2 for y, x in zip(nums, dens))
    se = math.sqrt(n / (n - 1) * resid) / total
    if proportion:
        r = min(1.0, max(0.0, r))
        binom = math.sqrt(r * (1 - r) / total) if 0 < r < 1 else 0.0
        n_eff = total / max(1.0, (se / binom) ** 2) if binom > 0 else min(total, n)
        return wilson(min(n_eff, r * n_eff), n_eff, z)
    return (r - z * se, r + z * se)


def ratio_estimate(nums, dens, z: float = Z95, proportion: bool = False) -> tuple[float, float, float]:
    """``(R, lo, hi)``: the ratio of per-game sums ``sum(nums) / sum(dens)`` and its ``ratio_interval``
    (R is nan without a denominator)."""
    total = float(sum(dens))
    r = sum(nums) / total if total > 0 else math.nan
    return (r, *ratio_interval(nums, dens, z, proportion))


def ratio_diff_interval(nums1, dens1, nums2, dens2, z: float = Z95) -> tuple[float, float, float]:
    """``(d, lo, hi)`` for the difference of two ratios of per-game sums, R1 - R2 with
    R = sum(nums) / sum(dens), the game as the sampling unit. The four lists run over the same games,
    one entry per game: a game outside an arm has 0 / 0 there. So one formula covers both shapes:
    two arms on disjoint games (independent samples) and arms that share games (a game with both heroes
    of a hero-spread pair, the same seed played twice), where the shared games' covariance counts.
    Linearised (delta-method) standard error, like ``ratio_interval``."""
    n = len(nums1)
    t1, t2 = float(sum(dens1)), float(sum(dens2))
    if n < 2 or t1 <= 0 or t2 <= 0:
        return 0.0, -math.inf, math.inf
    r1, r2 = sum(nums1) / t1, sum(nums2) / t2
    resid = sum(((y1 - r1 * x1) / t1 - (y2 - r2 * x2) / t2) ** 2
                for y1, x1, y2, x2 in zip(nums1, dens1, nums2, dens2))
    se = math.sqrt(n / (n - 1) * resid)
    d = r1 - r2
    return d, d - z * se, d + z * se


# What each status in the metric table's last column means, in the README's words ("Reading the
# table"; a test holds the two to the same wording): balance.pdf prints it as its legend.
STATUS_MEANINGS = (
    ("pass", "inside the band"),
    ("FAIL", "an error: not printed"),
    ("warn", "a warning band wholly outside"),
    ("known", "a warning accepted in balance.yaml's known: with its reason (listed under problems)"),
    ("pass?/warn?", "the interval straddles an end: more games would decide; only M1 and M7 warn"),
    ("info", "reported, not judged"),
    ("info?", "a paired card difference beyond the swing only as a point estimate"),
)


def band_status(value: float, lo: float, hi: float, band_lo: float | None, band_hi: float | None,
                hard: bool = False) -> str:
    """The status of a value with its 95% interval ``[lo, hi]`` against a band (ends may be open).

    ``pass`` when the whole interval is inside; outside only when the whole interval is: ``warn`` (a
    warning band) or ``FAIL`` (``hard``: an error band). An interval straddling an end is ``pass?`` or
    ``warn?`` by its point estimate and raises nothing: these bands play no more games, so a straddle is
    no evidence either way. A hard band cannot wait, so at a straddle its point estimate decides
    (``pass?`` or ``FAIL``), like M1 at its last look. Without a finite interval the point decides."""
    inside = (band_lo is None or value >= band_lo) and (band_hi is None or value <= band_hi)
    bad = "FAIL" if hard else "warn"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "pass" if inside else bad
    decision = interval_decision(lo, hi, band_lo, band_hi)
    if decision != "unclear":
        return "pass" if decision == "inside" else bad
    return "pass?" if inside else ("FAIL" if hard else "warn?")


def number_text(value: float, fmt: str = "{:.3f}") -> str:
    """``value`` as ``fmt`` shows it, without the sign of a zero: a difference of -1e-17 (two equal
    rates summed in another order) or a negated 0.0 showed ``-0.000``, a loss of nothing. A signed
    ``fmt`` (``{:+.3f}``) shows a zero as ``+0.000``, as it shows an exact one."""
    text = fmt.format(value)
    if text.startswith("-") and float(text) == 0:
        text = ("+" if "+" in fmt else "") + text[1:]
    return text


def interval_text(value: float, lo: float, hi: float, n: int | None = None, fmt: str = "{:.3f}") -> str:
    """``value [lo, hi] (n)``, the validator's way to show an estimate (``fmt``: ``{:+.3f}`` for a
    difference, ``{:.2f}`` for a mean)."""
    return (f"{number_text(value, fmt)} [{number_text(lo, fmt)}, {number_text(hi, fmt)}]"
            + ("" if n is None else f" ({n})"))


def plain_zeros(data):
    """``data`` (JSON-like) with every ``-0.0`` as ``0.0``: a rounded tiny negative (``round(-1e-17, 4)``)
    is written ``-0.0`` in balance.json and ``--json``."""
    if isinstance(data, float):
        return 0.0 if data == 0 else data
    if isinstance(data, dict):
        return {key: plain_zeros(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [plain_zeros(value) for value in data]
    return data


def interval_decision(lo: float, hi: float, band_lo: float | None, band_hi: float | None) -> str:
    """``inside`` / ``outside`` / ``unclear`` for an interval against a band (ends may be open)."""
    low = -math.inf if band_lo is None else band_lo
    high = math.inf if band_hi is None else band_hi
    if lo >= low and hi <= high:
        return "inside"
    if hi < low or lo > high:
        return "outside"
    return "unclear"
