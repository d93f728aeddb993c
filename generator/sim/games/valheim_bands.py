"""Valheim: the spec §6 bands the shared verdict does not know, judged by the engine hook
``judge_extra`` (generator/sim/verdict.py calls it after the generic metrics).

The bands live in ``balance.yaml`` under ``expedition:``. Each is judged per player count on the
reference agent's records by its 95% interval with the game as the unit (a share of games: Wilson;
a share of rounds, cards, AP or fights: ``ratio_interval`` over per-game sums; the oracle gap: paired),
through the verdict's ``Judge.band`` like every engine's own bands. Keys listed in ``expedition.hard``
are errors that fail the verdict (at a straddle the point estimate decides); every other band is a
warning, raised only when the whole interval lies outside (a straddle shows ``pass?``/``warn?``).
"""
from __future__ import annotations

from ...sim.stats import nearest_rank, paired_diff_interval, ratio_estimate, wilson


def judge_extra(judge, config, setup, tables, records, runs) -> dict:
    from ..verdict import reference_agent  # the verdict calls this hook: it is loaded already

    band = config.get("expedition")
    if not band:
        return {}
    hard = set(band.get("hard") or [])
    agent = reference_agent(config)
    out = {}
    for n, recs in sorted(records.items()):
        ref = [r for r in recs["reference"] if r["outcome"] in ("win", "loss")]
        if not ref:
            continue
        j = _Rows(judge, hard, n, agent)
        out[n] = _judge_count(j, band, setup, ref, recs)
    _judge_pooled(judge, band, hard, setup, records, agent)
    return {"expedition": out}


class _Rows:
    """The rows of one player count: each band goes to ``judge.band`` with its interval."""

    def __init__(self, judge, hard, n, agent):
        self.judge, self.hard, self.n, self.agent = judge, hard, n, agent

    def band(self, key, metric, value, ci, lo, hi, what, games, fmt="{:.3f}"):
        return self.judge.band(f"expedition.{key}", metric, self.n, value, ci, lo, hi, what, hard=key in self.hard,
                               games=games, label=f"spec §6 {metric.strip()}", fmt=fmt, agent=self.agent)

    def share(self, key, metric, k, m, lo, hi, what):
        """A share of games (``k`` of ``m``): Wilson, each game one trial."""
        return self.band(key, metric, k / m if m else None, wilson(k, m), lo, hi, what, m)

    def ratio(self, key, metric, nums, dens, lo, hi, what, proportion=True):
        """A ratio of per-game sums (a share of rounds, cards, AP, fights): the game as the unit."""
        value, a, b = ratio_estimate(nums, dens, proportion=proportion)
        return self.band(key, metric, value, (a, b), lo, hi, what, len(nums))

    def interval(self, key, metric, d, a, b, m, lo, hi, what):
        """A difference ``d`` with its 95% interval ``[a, b]`` over ``m`` games."""
        return self.band(key, metric, d, (a, b), lo, hi, what, m, fmt="{:+.3f}")

    def value(self, key, metric, value, lo, hi, what, games, fmt="{:.3f}"):
        """A value without an interval (a percentile): the point decides."""
        return self.band(key, metric, value, None, lo, hi, what, games, fmt)


def _judge_count(j: _Rows, band, setup, ref, recs) -> dict:
    m = len(ref)
    res = setup.res
    acts = setup.actions
    wins = [r for r in ref if r["outcome"] == "win"]
    cycles = [c for r in ref for c in r["cycles"]]
    out = {}
    # 1. termination: the G2 cycle cap and the spread of cycles per round
    j.ratio("cycle_cap_rounds_max", "   cycle cap hit (rounds)", [r["cap_rounds"] for r in ref],
            [len(r["cycles"]) for r in ref], None, band.get("cycle_cap_rounds_max"),
            "share of rounds ended by the cycle cap")
    if cycles:
        p95 = nearest_rank(cycles, 95)
        out["cycles_p95"] = p95
        j.value("cycles_p95_max", "   cycles per round p95", p95, None, band.get("cycles_p95_max"),
                "95th percentile of cycles per round", m, "{:.0f}")
    # 2. win paths and the all-seeing planner
    paths = band.get("win_paths") or {}
    if wins:
        av = sum(r["win_path"] == "avatars" for r in wins)
        j.share("win_paths", "   wins by clearing all avatars", av, len(wins), paths.get("avatars_min"), None,
                "share of wins from defeating all five avatars")
        j.share("win_paths", "   wins against the demon lord", len(wins) - av, len(wins), paths.get("demon_min"), None,
                "share of wins from the final battle")
    oracle = [r for r in recs.get("oracle", []) if r["outcome"] in ("win", "loss")]
    if oracle and band.get("oracle_gap_min") is not None:
        gap, lo, hi, pairs = oracle_gap(ref, oracle)
        out["oracle_gap"] = gap
        out["oracle_gap_ci95"] = [lo, hi]
        j.interval("oracle_gap_min", "   oracle - reference win rate (paired)", gap, lo, hi, pairs,
                   band["oracle_gap_min"], None, "the all-seeing planner's advantage on the same seeds")
    # 3. bosses
    last = setup.rules["rounds"]
    j.share("avatars_three_min", "   3+ avatars by round %d" % last, sum(r["avatars_in_time"] >= 3 for r in ref), m,
            band.get("avatars_three_min"), None, f"share of games with 3+ avatars defeated by the end of round {last}")
    allb = band.get("avatars_all") or {}
    j.share("avatars_all", "   all avatars by round %d" % last,
            sum(r["avatars_in_time"] >= len(setup.biomes) for r in ref), m, allb.get("min"), allb.get("max"),
            f"share of games with every avatar defeated by the end of round {last}")
    top = setup.biomes[-1]
    j.share("top_avatar_met_min", f"   {top} avatar met", sum(r["top_met"] for r in ref), m,
            band.get("top_avatar_met_min"), None, f"share of games that fight the {top} avatar")
    by = band.get("top_tile_by_round", last)
    j.share("top_tile_min", f"   {top} tile by round {by}",
            sum(r["top_tile_round"] is not None and r["top_tile_round"] <= by for r in ref), m,
            band.get("top_tile_min"), None, f"share of games with an {top} tile placed by round {by}" if top[:1] in "aeiou" else
            f"share of games with a {top} tile placed by round {by}")
    # 4. resources: each type gathered and spent in most games
    gmin, smin = band.get("resource_gathered_min"), band.get("resource_spent_min")
    worst_g = min(range(len(res)), key=lambda x: sum(r["gained"][x] > 0 for r in ref))
    worst_s = min(range(len(res)), key=lambda x: sum(r["spent"][x] > 0 for r in ref))
    j.share("resource_gathered_min", f"   least gathered: {res[worst_g]}", sum(r["gained"][worst_g] > 0 for r in ref),
            m, gmin, None, f"share of games that obtain {res[worst_g]}")
    j.share("resource_spent_min", f"   least spent: {res[worst_s]}", sum(r["spent"][worst_s] > 0 for r in ref), m,
            smin, None, f"share of games that spend {res[worst_s]}")
    out["left_mean"] = {res[x]: round(sum(r["left"][x] for r in ref) / m, 2) for x in range(len(res))}
    # 5. market tiers and craft recipes
    tiers = setup.tiers
    worst_t = min(range(len(tiers)), key=lambda t: sum(t in r["tiers_bought"] for r in ref)) if tiers else None
    if worst_t is not None:
        j.share("tier_bought_min", f"   {tiers[worst_t]} cards bought", sum(worst_t in r["tiers_bought"] for r in ref),
                m, band.get("tier_bought_min"), None, f"share of games buying a {tiers[worst_t]} market card")
    made: dict = {}
    for r in ref:
        for rid in r["crafts"]:
            made[rid] = made.get(rid, 0) + 1
    active = [setup.r_id[k] for k in range(len(setup.r_id)) if setup.r_active[k]]
    worst_c = min(active, key=lambda rid: (made.get(rid, 0), rid)) if active else None
    if worst_c is not None:
        j.share("craft_made_min", f"   least crafted: {worst_c}", made.get(worst_c, 0), m, band.get("craft_made_min"),
                None, f"share of games that craft {worst_c}")
    out["crafted"] = {rid: round(made.get(rid, 0) / m, 3) for rid in active}
    # 6. actions and AP
    revealed = [sum(r["revealed"][a] for r in ref) for a in range(len(acts))]
    total = sum(revealed) or 1
    worst_a = min(range(len(acts)), key=lambda a: revealed[a])
    per_game = [sum(r["revealed"]) for r in ref]   # the cards of one game are not independent: game = unit
    j.ratio("action_share_min", f"   least revealed action: {acts[worst_a]}", [r["revealed"][worst_a] for r in ref],
            per_game, band.get("action_share_min"), None, f"{acts[worst_a]}'s share of revealed cards")
    out["action_share"] = {acts[a]: round(revealed[a] / total, 3) for a in range(len(acts))}
    ap_total = sum(r["ap_total"] for r in ref) or 1
    out["ap_waste"] = sum(r["ap_waste"] for r in ref) / ap_total
    j.ratio("ap_waste_max", "   AP wasted", [r["ap_waste"] for r in ref], [r["ap_total"] for r in ref], None,
            band.get("ap_waste_max"), "share of AP left unspent")
    j.ratio("doubling_min", "   doubled resolutions", [r["doubled"] for r in ref], [r["resolutions"] for r in ref],
            band.get("doubling_min"), None, "share of action resolutions with the group bonus")
    # 7. map
    j.share("pile_out_max", "   a biome pile ran out", sum(r["pile_out"] for r in ref), m, None,
            band.get("pile_out_max"), "share of games where a biome pile ran out")
    # 8. combat
    fw = band.get("fights_won") or {}
    j.ratio("fights_won", "   regular fights won", [r["fights_won"] for r in ref], [r["fights"] for r in ref],
            fw.get("min"), fw.get("max"), "share of regular fights won")
    hand_n = sum(r["fight_hand_n"] for r in ref)
    out["fight_hand_mean"] = sum(r["fight_hand_sum"] for r in ref) / hand_n if hand_n else None
    if hand_n:
        j.judge.row("   fighter hand at fight (mean)", j.n, f"{out['fight_hand_mean']:.2f}", "report", "info")
    return out


def oracle_gap(ref, oracle) -> tuple[float, float, float, int]:
    """``(gap, lo, hi, pairs)``: the oracle's win rate minus the reference agent's on the same seeds.
    Game i of every run is dealt from the same seed, so the oracle's games pair with the reference
    agent's first games (a paired interval: most pairs agree, far narrower than comparing 200 oracle
    games with 400+ reference games as two samples; only games both finished count)."""
    by_index = {r["index"]: r["outcome"] == "win" for r in ref if r["outcome"] in ("win", "loss")}
    pairs = [(r["outcome"] == "win", by_index[r["index"]]) for r in oracle
             if r["outcome"] in ("win", "loss") and r["index"] in by_index]
    both = sum(1 for o, g in pairs if o and g)
    only_oracle = sum(1 for o, g in pairs if o and not g)
    only_ref = sum(1 for o, g in pairs if g and not o)
    gap, lo, hi = paired_diff_interval(both, only_oracle, only_ref, len(pairs))
    return gap, lo, hi, len(pairs)


def _judge_pooled(judge, band, hard, setup, records, agent) -> None:
    """Static: every resource has a source and a sink (also in static_checks, located here)."""
    missing = [res for res in setup.res if not setup.sources.get(res) or not setup.sinks.get(res)]
    judge.row("M8 resources obtainable and spent", "all", f"{len(setup.res) - len(missing)}/{len(setup.res)}",
              "all", "pass" if not missing else "FAIL")
