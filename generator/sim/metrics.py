"""The validator's metrics (shared/VALIDATOR.md), computed from per-game records only.

Records are the plain dicts ``runner.play_game`` returns (generic keys plus the engine's
``summarize``); nothing here knows a particular game except through those keys.
"""
from __future__ import annotations

from collections import Counter, defaultdict

from .stats import Z95, median, nearest_rank, ratio_diff_interval, ratio_interval, wilson


def outcomes(records) -> Counter:
    return Counter(r["outcome"] for r in records)


def run_summary(records) -> dict:
    """Win rate, length, integrity and the engine's pressure/economy counters of one run."""
    n = len(records)
    out = outcomes(records)
    wins = out.get("win", 0)
    played = [r for r in records if r["outcome"] not in ("error",)]
    rounds = [r["rounds"] for r in played if "rounds" in r]
    stage_rounds = [x for r in played for x in r.get("stage_rounds", [])]
    if not any("stage_rounds" in r for r in played):  # a game without stages (a designer's own engine): the
        stage_rounds = [r["rounds"] for r in played if r["outcome"] == "win" and "rounds" in r]  # won game is one
    total_rounds = sum(rounds) or 1
    checked = [r for r in records if r.get("checked")]
    decisions = sum(r["decisions"] + r.get("forced", 0) for r in checked)  # forced steps: one option
    summary = {
        "games": n, "wins": wins, "win_rate": wins / n if n else 0.0, "ci95": list(wilson(wins, n)),
        "outcomes": dict(out), "timeouts": out.get("timeout", 0), "errors": out.get("error", 0),
        "stalls": out.get("stall", 0),
        "rounds": {"median": median(rounds) if rounds else 0, "p95": nearest_rank(rounds, 95) if rounds else 0,
                   "wins_median": median([r["rounds"] for r in played if r["outcome"] == "win"] or [0]),
                   "losses_median": median([r["rounds"] for r in played if r["outcome"] != "win"] or [0])},
        "rounds_hist": dict(Counter(rounds)),
        "stage_rounds_median": median(stage_rounds) if stage_rounds else 0,
        "decision_density": (sum(r["multi"] for r in checked) / decisions) if decisions else None,
        # M9's interval: a share of decisions, the game as the unit (decisions of one game are not independent)
        "decision_density_ci": list(ratio_interval([r["multi"] for r in checked],
                                                   [r["decisions"] + r.get("forced", 0) for r in checked],
                                                   proportion=True)) if decisions else None,
        "checked_games": len(checked),
    }
    if played and "mass_rounds" in played[0]:
        summary.update({
            "mass_round_share": sum(r["mass_rounds"] for r in played) / total_rounds,
            "down_game_share": sum(1 for r in played if r["downs"]) / len(played),
            "gold_per_player": sum(r["gold_per_player"] for r in played) / len(played),
            "upgrade_share": sum(r["upgrades_bought"] for r in played) / max(1, sum(r["upgrades_total"] for r in played)),
            "mean_group_size": sum(r["group_size_sum"] for r in played) / max(1, sum(r["group_size_n"] for r in played)),
            "combo_boss_round_share": sum(r["combo_boss_rounds"] for r in played)
            / max(1, sum(r["boss_rounds"] for r in played)),
            "boss_kill_rounds_median": median([x for r in played for x in r["boss_kill_rounds"]] or [0]),
            "loss_stage": dict(Counter(r["stage"] for r in played if r["outcome"] != "win")),
            "empty_pool_round_share": sum(r["empty_pool_rounds"] for r in played) / total_rounds,
        })
        summary["pressure_ci"] = pressure_intervals(played)
    return summary


# The pressure/economy counters as ratios of per-game sums: key -> (numerator, denominator, is a share).
PRESSURE_RATIOS = {
    "mass_round_share": (lambda r: r["mass_rounds"], lambda r: r.get("rounds", 0), True),
    "down_game_share": (lambda r: 1 if r["downs"] else 0, lambda r: 1, True),
    "gold_per_player": (lambda r: r["gold_per_player"], lambda r: 1, False),
    "upgrade_share": (lambda r: r["upgrades_bought"], lambda r: r["upgrades_total"], True),
    "mean_group_size": (lambda r: r["group_size_sum"], lambda r: r["group_size_n"], False),
    "combo_boss_round_share": (lambda r: r["combo_boss_rounds"], lambda r: r["boss_rounds"], True),
    "empty_pool_round_share": (lambda r: r["empty_pool_rounds"], lambda r: r.get("rounds", 0), True),
}


def pressure_intervals(played, z: float = Z95) -> dict:
    """key -> [lo, hi]: 95% intervals of the pressure counters with the game as the sampling unit
    (shared/VALIDATOR.md: statistical decisions use intervals, not point estimates)."""
    return {key: list(ratio_interval([num(r) for r in played], [den(r) for r in played], z, share))
            for key, (num, den, share) in PRESSURE_RATIOS.items()}


def card_usage(records) -> dict:
    """card id -> [exposures (drawn / offered), uses (played face up / bought / used)]."""
    usage: dict = defaultdict(lambda: [0, 0])
    for r in records:
        for card, n in r.get("exposures", {}).items():
            usage[card][0] += n
        for card, n in r.get("uses", {}).items():
            usage[card][1] += n
    return dict(usage)


def dead_cards(usage: dict, max_rate: float, min_exposures: int) -> list[tuple]:
    """Cards whose use rate's upper 95% bound is below ``max_rate`` with enough exposures."""
    dead = []
    for card, (seen, used) in sorted(usage.items()):
        if seen >= min_exposures:
            hi = wilson(min(used, seen), seen)[1]
            if hi < max_rate:
                dead.append((card, seen, used, hi))
    return dead


def card_impact(records, min_games: int) -> dict:
    """Screening (not proof): win rate in games where the card was used minus games where it was
    drawn or offered but never used. card -> (delta, games used, games unused)."""
    used, unused = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0])
    for r in records:
        if r["outcome"] == "error":
            continue
        win = r["outcome"] == "win"
        uses = r.get("uses", {})
        for card in r.get("exposures", {}):
            bucket = used if uses.get(card) else unused
            bucket[card][0] += win
            bucket[card][1] += 1
    out = {}
    for card in set(used) | set(unused):
        (wu, nu), (wn, nn) = used.get(card, [0, 0]), unused.get(card, [0, 0])
        if nu >= min_games and nn >= min_games:
            out[card] = (wu / nu - wn / nn, nu, nn)
    return out


def hero_rates(records) -> dict:
    """character id -> (wins, games) over the games with that character in the party."""
    rates: dict = defaultdict(lambda: [0, 0])
    for r in records:
        if r["outcome"] == "error":
            continue
        for char in r.get("party", []):
            rates[char][0] += r["outcome"] == "win"
            rates[char][1] += 1
    return {k: tuple(v) for k, v in sorted(rates.items())}


def hero_gap(records, first, second) -> tuple[float, float, float]:
    """``(d, lo, hi)``: the win rate with ``first`` in the party minus the win rate with ``second``
    (M7), the game as the unit: a game with both in the party counts in both arms, so the two rates
    are not independent samples (``stats.ratio_diff_interval`` keeps their covariance)."""
    played = [r for r in records if r["outcome"] != "error"]
    arms = []
    for char in (first, second):
        dens = [r.get("party", []).count(char) for r in played]
        arms += [[d * (r["outcome"] == "win") for d, r in zip(dens, played)], dens]
    return ratio_diff_interval(*arms)


def hero_spread(records) -> tuple[str, str, float, float, float] | None:
    """``(best, worst, d, lo, hi)``, M7 as the verdict judges it: the characters with the highest and
    the lowest win rate by their point estimates, and ``hero_gap`` of the two (None without a party)."""
    points = {c: w / g for c, (w, g) in hero_rates(records).items() if g}
    if not points:
        return None
    best = max(points, key=points.get)
    worst = min(points, key=points.get)
    return (best, worst, *hero_gap(records, best, worst))


def hero_split(records) -> dict:
    """character id -> ``((wins, games) with it in the party, (wins, games) without it)``, over the
    games that did not crash (as ``hero_rates``), the highest win rate with it first: what M7's spread
    is made of, so that the character it names stands at one end."""
    played = [r for r in records if r["outcome"] != "error"]
    total = (sum(r["outcome"] == "win" for r in played), len(played))
    split = {c: ((w, g), (total[0] - w, total[1] - g)) for c, (w, g) in hero_rates(records).items()}
    return dict(sorted(split.items(), key=lambda kv: (-kv[1][0][0] / max(1, kv[1][0][1]), kv[0])))


def failures(records) -> list[dict]:
    """Games that crashed, broke an invariant or hit the decision cap (M0)."""
    return [r for r in records if r["outcome"] in ("error", "timeout")]


def failure_line(record) -> str:
    """Why a failed game failed, in one line: its exception, the rules it broke, or the decision cap."""
    why = record["error"] or "; ".join(record["violations"]) or (
        f"no end after {record['decisions']} decisions (the cap): does every way through the rules set an outcome?")
    return why.splitlines()[0]
