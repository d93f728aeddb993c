"""Metroidvania: the spec §5 bands the shared verdict does not know, judged by the engine hook
``judge_extra`` (generator/sim/verdict.py calls it after the generic metrics) — the sibling of
``valheim_bands``.

The bands live in ``balance.yaml`` under ``crawl:``: the static map checks (located at map.yaml
lines), the NORMAL run's bands per player count and pooled, EASY runs and the per-room death
histogram.
"""
from __future__ import annotations

import math
from collections import Counter

from ...sim.stats import band_status, diff_interval, interval_text, median, ratio_estimate, wilson
from . import metroidvania_dice as dice
from .metroidvania_report import map_checks
from .metroidvania_setup import COLOURS


def judge_extra(judge, config, setup, tables, records, runs) -> dict:
    """Map checks (located in map.yaml), spec §5 bands, EASY runs and the per-room death histogram.

    ``records``: {players: {"reference": [...], "random": [...], <control>: [...]}} of the NORMAL run.
    Adds rows and problems to ``judge``; returns extra report data."""
    out: dict = {}
    problems = map_checks(setup)
    judge.row("M8 map checks (map.yaml)", "all", f"{len(problems)} problem(s)", "0", "pass" if not problems else "FAIL")
    judge.problems.extend(problems)
    from ..verdict import reference_agent  # the verdict calls this hook: it is loaded already

    band = config.get("crawl")
    if not band:
        return out
    agent = reference_agent(config)
    per: dict = {}
    walls: Counter = Counter()
    for n, recs in sorted(records.items()):
        ref = [r for r in recs["reference"] if r["outcome"] not in ("error", "timeout")]
        per[n] = _judge_normal(judge, band, n, ref, recs, agent)
        for r in ref:
            walls.update(r.get("deaths_by_node", {}))
    all_ref = [r for recs in records.values() for r in recs["reference"] if r["outcome"] not in ("error", "timeout")]
    length = band["length"]
    wins = sum(p["wins"] for p in per.values())
    _prop(judge, "crawl.length.early_share_max", "§5.2 wins before round " + str(length["early_before_round"]), "all",
          sum(p["early"] for p in per.values()), wins, None, length["early_share_max"],
          "share of wins that come early", agent, _sev(length))
    _prop(judge, "crawl.length.late_share_min", f"§5.2 wins in rounds {length['late_from_round']}+", "all",
          sum(p["late"] for p in per.values()), wins, length["late_share_min"], None,
          "share of wins in the last rounds", agent, _sev(length))
    _judge_content(judge, band, setup, all_ref, out)
    _judge_easy(judge, band, setup, tables, records, runs, agent, per, out)
    total = sum(walls.values()) or 1
    out["deaths_by_room"] = dict(walls.most_common())
    shown = ", ".join(f"{node} {k / total:.0%}" for node, k in walls.most_common(6))
    judge.row("   deaths by room (top 6)", "all", shown or "none", "report", "info")
    out["crawl"] = per
    return out


def _status(ok: bool, severity="error") -> str:
    return "pass" if ok else ("FAIL" if severity == "error" else "warn")


_ORDER = ("pass", "pass?", "warn?", "warn", "FAIL")


def _worst(statuses) -> str:
    return max(statuses, key=_ORDER.index, default="pass")


# Each band goes to the verdict's ``judge.band`` with its 95% interval, the game as the unit (like
# Valheim's and the shared pressure bands): a ``warning`` band warns only when the whole interval is
# outside (a straddle shows pass?/warn?); an ``error`` band fails outside and, at a straddle, when the
# point estimate is outside. ``run``: the sample's own seed and options for the reproduce command.

def _prop(judge, key, metric, n, k, m, lo, hi, what, agent, severity="error", **run):
    """A share of games (``k`` of ``m``): Wilson, each game one trial."""
    return judge.band(key, metric, n, k / m if m else None, wilson(k, m), lo, hi, what, hard=severity == "error",
                      games=m, agent=agent, **run)


def _ratio(judge, key, metric, n, nums, dens, lo, hi, what, agent, severity="error", proportion=True, fmt="{:.3f}",
           **run):
    """A ratio of per-game sums (deaths per maiden, a share of deaths or turns): the game as the unit."""
    value, a, b = ratio_estimate(nums, dens, proportion=proportion)
    return judge.band(key, metric, n, value, (a, b), lo, hi, what, hard=severity == "error", games=len(nums),
                      fmt=fmt, agent=agent, **run)


def _value(judge, key, metric, n, value, lo, hi, what, agent, games, severity="error", fmt="{:.2f}", **run):
    """A value without an interval (a median, a maximum, a ratio of two win rates): the point decides."""
    return judge.band(key, metric, n, value, None, lo, hi, what, hard=severity == "error", games=games, fmt=fmt,
                      agent=agent, **run)


def _sev(group) -> str:
    return (group or {}).get("severity") or "error"


def _judge_normal(judge, band, n, ref, recs, agent) -> dict:
    wins = [r for r in ref if r["outcome"] == "win"]
    m = len(ref)
    out = {"games": m, "wins": len(wins)}
    length = band["length"]   # §5.2 is a property of the game (no "at every player count"): judged pooled,
    early = sum(1 for r in wins if r["rounds"] < length["early_before_round"])   # shown per count
    late = sum(1 for r in wins if r["rounds"] >= length["late_from_round"])
    out.update(early=early, late=late)
    w = max(1, len(wins))
    judge.row(f"   §5.2 wins before round {length['early_before_round']} / in rounds {length['late_from_round']}+",
              n, f"{early / w:.3f} / {late / w:.3f} ({len(wins)} wins)", "pooled below", "info")
    bb = band["bosses_before_final"]
    before = [r["bosses_before_final"] for r in wins]
    if before:
        _value(judge, "crawl.bosses_before_final", "§5.3 bosses killed before Urza (median, wins)", n,
               median(before), bb["min"], bb["max"], "median bosses killed before Urza in wins", agent, m, fmt="{:.1f}")
        _prop(judge, "crawl.bosses_before_final.one_boss_max", "§5.3 wins with <= 1 boss", n,
              sum(1 for x in before if x <= 1), len(before), None, bb["one_boss_max"], "share of wins with at most "
              "one boss before Urza", agent)
    rush = recs.get("rush_urza")
    if rush:
        rk = sum(1 for r in rush if r["outcome"] == "win") / len(rush)
        hk = len(wins) / max(1, m)
        ratio = rk / hk if hk else (0.0 if rk == 0 else math.inf)
        _value(judge, "crawl.rush_ratio_max", "§5.3 rush_urza / heuristic wins", n, ratio, None,
               band["rush_ratio_max"], f"rush_urza wins {rk:.3f} vs {hk:.3f}: ratio", "rush_urza", len(rush))
    deaths = band["deaths"]
    sev = _sev(deaths)
    maiden_deaths = [d for r in ref for d in r["deaths"]]
    out["deaths_per_maiden"] = sum(maiden_deaths) / max(1, len(maiden_deaths))
    _ratio(judge, "crawl.deaths.normal", "§5.4 deaths per maiden per game", n, [sum(r["deaths"]) for r in ref],
           [len(r["deaths"]) for r in ref], deaths["normal"]["min"], deaths["normal"]["max"], "mean deaths per maiden",
           agent, sev, proportion=False, fmt="{:.2f}")
    four = sum(1 for r in ref if max(r["deaths"]) >= 4)
    _prop(judge, "crawl.deaths.four_share_max", "§5.4 games with a maiden dying >= 4 times", n, four, m, None,
          deaths["four_share_max"], "share of games where a maiden dies 4+ times", agent, sev)
    causes = Counter()
    for r in ref:
        causes.update(r["deaths_by_cause"])
    if sum(causes.values()):
        worst = causes.most_common(1)[0][0]
        died = [sum(r["deaths_by_cause"].values()) for r in ref]   # the deaths of one game are not independent
        _ratio(judge, "crawl.deaths.source_max", f"§5.4 top death source ({worst})", n,
               [r["deaths_by_cause"].get(worst, 0) for r in ref], died, None, deaths["source_max"],
               f"share of deaths from {worst}", agent, sev)
        _ratio(judge, "crawl.deaths.slate_share_max", "§5.4 deaths from slate (gap 16)", n,
               [r["deaths_by_cause"].get("slate", 0) for r in ref], died, None, deaths["slate_share_max"],
               "share of deaths from slate (gap 16 fallback: slate_damage_per_die: one)", agent, "warning")
        out["death_causes"] = dict(causes)
    dg = band["danger"]
    turns = [r.get("turns", 0) for r in ref]
    _ratio(judge, "crawl.danger.mean_max", "§5.5 danger level (mean over turns)", n,
           [r.get("danger_sum", 0) for r in ref], turns, None, dg["mean_max"], "mean danger level", agent,
           proportion=False, fmt="{:.2f}")
    _ratio(judge, "crawl.danger.top_share_max", "§5.5 turns at top danger", n,
           [r.get("danger_top_turns", 0) for r in ref], turns, None, dg["top_share_max"],
           "share of turns at the top danger level", agent)
    _ratio(judge, "crawl.skipped_turns_max", "§5.8 turns skipped (no destination)", n,
           [r.get("skipped_turns", 0) for r in ref], turns, None, band["skipped_turns_max"], "share of skipped turns",
           agent, fmt="{:.4f}")
    markers = max((r["markers_max"] for r in ref), default=0)
    _value(judge, "crawl.markers_max", "§5.8 markers on the board (max)", n, markers, None, band["markers_max"],
           "most exploration markers at once", agent, m, fmt="{:.0f}")
    return out


def _judge_content(judge, band, setup, ref, out) -> None:
    """Bosses end >= half of their fights; no unbeatable room card or boss action (§5.6-7)."""
    out["boss_fights"] = _judge_boss_fights(judge, band["boss_fights"], setup.bosses, ref)
    ub = band["unbeatable"]
    builds = _median_builds(ref)
    rules = setup.rules
    bad = []
    kinds = sorted({(r["d"], r["multi"], r["slate"] >= 0, r["qte"], r["prompts"]) for r in setup.rooms})
    first_round = {}
    crit0, every = rules["criterion.start"], rules["criterion.every_rounds"]
    for rnd in range(1, rules["rounds"] + 1):
        first_round.setdefault(crit0 + (rnd - 1) // every, rnd)
    for c, rnd in sorted(first_round.items()):
        wil, pie = builds.get(rnd, (1, 0))
        for d, m, slate, qte, prompts in kinds:
            p = _p(setup, wil, pie, c, d, m, slate, qte, prompts)
            if p < ub["room_min"]:
                kind = _kind_text(d, m, slate, qte, prompts)
                bad.append(f"room cards C{c} {kind}: success {_below(p, ub['room_min'])} with round {rnd}'s "
                           f"median build (Wil {wil}/Pie {pie}), below room_min {ub['room_min']}")
    strong = ub["strong_build"]
    top_c = crit0 + (rules["rounds"] - 1) // every
    weak = []   # slate, double/triple and QTE cards: the spec's own mix cannot reach strong_min at the top C
    for d, m, slate, qte, prompts in kinds:
        p = _p(setup, strong["wil"], strong["pie"], top_c, d, m, slate, qte, prompts)
        if p < ub["strong_min"]:
            text = (f"C{top_c} {_kind_text(d, m, slate, qte, prompts)} for Wil {strong['wil']}/Pie {strong['pie']}: "
                    f"{p:.2f}")
            (weak if (qte or slate or m > 1) else bad).append(text)
    fr = {}
    for r in ref:
        for b, rounds in r["fight_rounds"].items():
            fr.setdefault(b, []).extend(rounds)
    for boss in setup.bosses:
        rounds = fr.get(boss["id"])
        if not rounds:
            continue
        rnd = int(median(rounds))
        wil, pie = builds.get(rnd, (1, 0))
        c = crit0 + (rnd - 1) // every
        for i, (d, m, slate) in enumerate(boss["actions"]):
            extra = sum(int(p.get("n") or 0) for op, p in boss["trait"] if op == "criterion")
            p = _p(setup, wil, pie, c + extra, d, m, slate >= 0, False, ())
            if p < ub["boss_min"]:
                bad.append(f"{boss['id']} action {i + 1}: success {_below(p, ub['boss_min'])} at round {rnd} with its "
                           f"median build (Wil {wil}/Pie {pie}), below boss_min {ub['boss_min']}")
    judge.row("§5.6 unbeatable content (exact)", "all", f"{len(bad)} case(s)", "0", _status(not bad))
    for text in bad[:12]:
        judge.problem("crawl.unbeatable", "§5.6 unbeatable content", text)
    judge.row("§5.6 strong build vs slate/multi/QTE at top C", "all", f"{len(weak)} card kind(s) below",
              f">= {ub['strong_min']}", _status(not weak, "warning"), "crawl.unbeatable.strong_min")
    if weak:
        judge.problem("crawl.unbeatable.strong_min", "§5.6 strong build", "below the band for a strong build at the "
                      "last criterion (slate, double/triple and QTE checks cannot reach it by their nature): "
                      + "; ".join(weak), "warning")
    out["strong_build_weak_kinds"] = weak
    draws, lows = Counter(), Counter()
    for r in ref:
        draws.update(r["card_draws"])
        lows.update(r["card_low"])
    flagged = sorted(c for c, k in draws.items() if k >= 50 and lows.get(c, 0) / k > ub["low_draws_max"])
    judge.row("§5.6 cards hopeless in > 25% of draws", "all", ", ".join(flagged) or "none", "none",
              _status(not flagged, "warning"), "crawl.unbeatable.low_draws_max")
    if flagged:
        judge.problem("crawl.unbeatable.low_draws_max", "§5.6 hopeless draws", "room cards with < "
                      f"{ub['low']:.0%} success in more than {ub['low_draws_max']:.0%} of their draws: "
                      + ", ".join(flagged), "warning")
    out["median_builds"] = builds


def _judge_boss_fights(judge, group, bosses, ref) -> dict:
    """§5.7: each boss's kills per fight started (a boss fought in 30+ fights), a ratio of per-game
    sums (the fights of one game are not independent). One row: every boss not clearly in the band,
    with its interval and status. Returns ``{boss: [fights, kills]}``."""
    fights, kills = Counter(), Counter()
    for r in ref:
        fights.update(r["fights"])
        kills.update(r["boss_kills"])
    sev = _sev(group)
    kmin = group["kill_share_min"]
    shown, low = [], []
    for boss in bosses:
        f = fights.get(boss["id"], 0)
        if f < 30:
            continue
        share, a, b = ratio_estimate([r["boss_kills"].get(boss["id"], 0) for r in ref],
                                     [r["fights"].get(boss["id"], 0) for r in ref], proportion=True)
        status = band_status(share, a, b, kmin, None, hard=sev == "error")
        if status != "pass":
            shown.append((status, f"{boss['id']} {interval_text(share, a, b)} {status}"))
        if status in ("warn", "FAIL"):
            low.append(f"{boss['id']} {interval_text(share, a, b)} of {f} fights")
    judge.row("§5.7 bosses killed in >= half their fights", "all",
              (", ".join(text for _, text in shown) + f" ({len(ref)} games)") if shown else "all",
              f"every boss >= {kmin}", _worst(status for status, _ in shown), "crawl.boss_fights")
    if low:
        judge.problem("crawl.boss_fights", "§5.7 boss fights", "fights started (a reset restarts the fight) "
                      f"that end in a kill, wholly below {kmin} over {len(ref)} games: " + ", ".join(low), sev)
    return {b["id"]: [fights.get(b["id"], 0), kills.get(b["id"], 0)] for b in bosses}


def _below(p: float, limit: float) -> str:
    """``p`` with the digits that show it below ``limit``: 0.1497 against 0.15 read "0.15", as if it passed."""
    digits = 2
    while float(f"{p:.{digits}f}") >= limit and digits < 6:
        digits += 1
    return f"{p:.{digits}f}"


def _kind_text(d, m, slate, qte, prompts) -> str:
    if qte:
        return "QTE " + "/".join(f"{COLOURS[c]}{off:+d}" for c, off in prompts)
    return f"d{d}" + {1: "", 2: " double", 3: " triple"}.get(m, f" x{m}") + (" slate" if slate else "")


def _p(setup, wil, pie, c, d, m, slate, qte, prompts) -> float:
    r = setup.rules
    sizes = r["die_by_will"]
    size = sizes[min(len(sizes) - 1, min(wil, r["stats_cap.wil"]))]
    k = len(r["coloured"]) + pie * r["white_dice_per_pie"]
    if qte:
        return dice.qte_chance(size, [c + off for _, off in prompts], k - len(prompts), True, pie,
                               r["ascension_max_pairs"])
    return dice.chance(size, k, c + d, m, slate, True, pie, r["ascension_max_pairs"], exact=True)


def _median_builds(ref) -> dict:
    by_round: dict = {}
    for r in ref:
        for rnd, builds in r["builds"].items():
            by_round.setdefault(int(rnd), []).extend(builds)
    out = {}
    for rnd, builds in by_round.items():
        out[rnd] = (int(median([w for w, _ in builds])), int(median([p for _, p in builds])))
    return out


def _judge_easy(judge, band, setup, tables, records, runs, agent, per, out) -> None:
    """EASY (8 rest rooms): win rate 15-25 points above NORMAL (<= 85%), fewer deaths."""
    from ...sim.runner import start_games
    from . import metroidvania as engine
    easy = band["easy"]
    games = easy["games"]
    easy_tables = dict(tables, difficulty="easy")
    seed = f"easy/{runs.seed}"
    run = {"seed": seed, "options": "--difficulty easy"}  # what `pnp simulate` needs to play these games
    out["easy"] = {}
    batches = {n: start_games(engine, easy_tables, players=n, games=games, seed=seed, agent=agent,
                              workers=runs.workers, executor=runs.executor)
               for n in sorted(records)}  # side by side: no worker idles between player counts
    for n in sorted(records):
        recs = batches[n].records()
        played = [r for r in recs if r["outcome"] not in ("error", "timeout")]
        failed = len(recs) - len(played)
        if failed:
            judge.problem("crawl.easy", "M0 integrity (EASY)", f"{failed} EASY game(s) with {n} players crashed or "
                          "timed out", players=n, agent=agent, games=games, **run)
        out["easy"][n] = _judge_easy_count(judge, band, n, played, (per[n]["wins"], per[n]["games"]), agent, run)


def _judge_easy_count(judge, band, n, played, normal, agent, run) -> dict:
    """The EASY rows of one player count: EASY - NORMAL (``normal``: wins, games of the NORMAL run),
    the EASY win rate's ceiling and EASY deaths per maiden, each on its interval."""
    easy = band["easy"]
    sev = _sev(easy)
    k, m = sum(1 for r in played if r["outcome"] == "win"), len(played) or 1
    kn, mn = normal[0], max(1, normal[1])
    # EASY and NORMAL are played on their own seeds (independent samples): Newcombe's interval, games
    gap, (a, b) = k / m - kn / mn, diff_interval(k, m, kn, mn)
    judge.band("crawl.easy.above_normal", "§5.1 EASY - NORMAL win rate", n, gap, (a, b), easy["above_normal"]["min"],
               easy["above_normal"]["max"], f"EASY minus NORMAL win rate (EASY {k / m:.3f} on {m} games, NORMAL "
               f"{kn / mn:.3f} on {mn})", hard=sev == "error", games=m, fmt="{:+.3f}", agent=agent, **run)
    _prop(judge, "crawl.easy.max", "§5.1 EASY win rate", n, k, m, None, easy["max"], "EASY win rate", agent, sev,
          **run)
    maiden = [d for r in played for d in r["deaths"]]
    mean = sum(maiden) / max(1, len(maiden))
    _ratio(judge, "crawl.deaths.easy_max", "§5.4 EASY deaths per maiden", n, [sum(r["deaths"]) for r in played],
           [len(r["deaths"]) for r in played], None, band["deaths"]["easy_max"], "EASY mean deaths per maiden", agent,
           _sev(band["deaths"]), proportion=False, fmt="{:.2f}", **run)
    return {"games": m, "wins": k, "win_rate": k / m, "deaths_per_maiden": mean, "gap": gap, "gap_ci95": [a, b]}
