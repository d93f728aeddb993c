"""Metroidvania: what a finished game says — the per-game record (from the event log only),
invariants, the readable trace, the static map checks (located at map.yaml lines) and the
game's own balance bands of spec §5 (``judge_extra``, called by the shared verdict).
"""
from __future__ import annotations

import math
from collections import Counter, deque

from ...errors import Problem
from ...sim.stats import band_status, diff_interval, interval_text, median, ratio_estimate, wilson
from . import metroidvania_dice as dice
from .metroidvania_setup import BOSS, COLOURS, KEY, KINDS, REST, STATS, SUBS, TYPES
from ..variants import with_record_changed, without_effect

# ---- per-game record ------------------------------------------------------------------------------


_SUMMARIZED = frozenset(("turn", "round", "build", "learn", "sefira", "event", "use", "derived", "death", "skip",
                         "boss_in", "boss_kill", "checkp"))   # the log events ``summarize`` reads


def summarize(state) -> dict:
    """Everything the metrics need, computed from ``state.log``."""
    setup = state.setup
    exposures, uses = Counter(), Counter()
    deaths_by_cause, deaths_by_node = Counter(), Counter()
    fights, kills = Counter(), Counter()
    fight_rounds: dict = {}
    card_draws, card_low = Counter(), Counter()
    danger_sum = danger_top = turns = skipped = 0
    builds: dict = {}
    current = 0
    seen_events = set()
    top = setup.rules["danger.max"]
    max_pairs = setup.rules["ascension_max_pairs"]
    for ev in state.log:
        kind = ev[0]
        if kind not in _SUMMARIZED:
            continue   # most of the log (decisions, moves, rolls, hits) counts for nothing here
        if kind == "turn":
            turns += 1
            danger_sum += ev[2]
            danger_top += ev[2] >= top
        elif kind == "round":
            current = ev[1]
        elif kind == "build":
            builds[ev[1]] = ev[2]
        elif kind == "learn":
            exposures[setup.skills[ev[2]]["id"]] = 1
        elif kind == "sefira":
            exposures[ev[2]] = 1
        elif kind == "event":   # a derived event is available while it is the next row of an event in play
            exposures[setup.derived[setup.events[_event_index(setup, ev[2])]["derived"][0]]["id"]] = 1
            seen_events.add(ev[2])
        elif kind == "use":
            uses[ev[2]] = 1
        elif kind == "derived":
            uses[ev[2]] = 1
            rows = setup.events[_event_index(setup, ev[3])]["derived"]
            nxt = [setup.derived[d]["id"] for d in rows]
            if ev[2] in nxt and nxt.index(ev[2]) + 1 < len(nxt):
                exposures[nxt[nxt.index(ev[2]) + 1]] = 1
        elif kind == "death":
            deaths_by_cause[ev[3]] += 1
            deaths_by_node[setup.node_id[ev[2]]] += 1
        elif kind == "skip":
            skipped += 1
        elif kind == "boss_in":
            fights[setup.bosses[ev[2]]["id"]] += 1
            fight_rounds.setdefault(setup.bosses[ev[2]]["id"], []).append(current)
        elif kind == "boss_kill":
            kills[setup.bosses[ev[2]]["id"]] += 1
        elif kind == "checkp":
            # ("checkp", card id, size, dice, target, multi, slate, asc, pie)
            _, card, size, n_dice, target, multi, slate, asc, pie = ev
            card_draws[card] += 1
            if dice.chance(size, n_dice, target, multi, slate, asc, pie, max_pairs) < 0.05:
                card_low[card] += 1
    final = setup.bosses[setup.final_boss]["id"]
    killed = [setup.bosses[b]["id"] for b in state.kills]
    return {
        "outcome": state.outcome,
        "rounds": state.round,
        "party": [setup.servants[v]["id"] for v in state.servant],
        "stage": len(state.kills),
        "stage_rounds": [state.round] if state.outcome == "win" else [],
        "bosses_before_final": len([b for b in killed if b != final]),
        "kills": killed,
        "exposures": dict(exposures),
        "uses": dict(uses),
        "deaths": list(state.deaths),
        "deaths_by_cause": dict(deaths_by_cause),
        "deaths_by_node": dict(deaths_by_node),
        "fights": dict(fights),
        "fight_rounds": fight_rounds,
        "boss_kills": dict(kills),
        "turns": turns,
        "danger_sum": danger_sum,
        "danger_top_turns": danger_top,
        "skipped_turns": skipped,
        "markers_max": state.markers_max,
        "builds": builds,
        "card_draws": dict(card_draws),
        "card_low": dict(card_low),
    }


def _event_index(setup, event_id) -> int:
    for i, e in enumerate(setup.events):
        if e["id"] == event_id:
            return i
    return 0


# ---- invariants (M0) ------------------------------------------------------------------------------

def check_invariants(state) -> list[str]:
    setup, out = state.setup, []
    pending = {"action": [], "room": [], "event": [], "sefira": [], "skill": []}
    for task in state.tasks:
        if task[0] == "place" and task[2] is not None:
            pending["action"].extend(task[2])
        elif task[0] == "pick" and task[3] is not None:
            pending[task[2]].extend(task[3])
    actions = Counter(state.action_deck + state.action_disc + pending["action"]
                      + [t for mine in state.stacks for stack in mine for t in stack])
    if actions != Counter(setup.actions):
        out.append(f"action cards not conserved: {dict(actions)} vs {dict(Counter(setup.actions))}")
    rooms = state.room_deck + state.room_disc + pending["room"] + [c for x in state.flowers + state.keys for c in x
                                                                   if c >= 0]
    if state.check is not None and state.check.card >= 0:
        rooms.append(state.check.card)
    if sorted(rooms) != list(range(len(setup.rooms))):
        out.append(f"room cards not conserved ({len(rooms)} of {len(setup.rooms)})")
    events = state.event_deck + state.event_disc + pending["event"] + [h[0] for h in state.held]
    if sorted(events) != list(range(len(setup.events))):
        out.append("event cards not conserved")
    used = sum(1 for ev in state.log if ev[0] == "sefira_out")
    sef = state.sefira_deck + state.sefira_disc + pending["sefira"] + state.sefira_area
    if len(sef) + used != len(setup.sefira) or len(set(sef)) != len(sef):
        out.append("sefira cards not conserved")
    learned = Counter(sk[0] for mine in state.skills for sk in mine if setup.skills[sk[0]]["source"] == "deck")
    skills = Counter(state.skill_deck + state.skill_disc + pending["skill"]) + learned
    if skills != Counter(setup.deck_skills):
        out.append("skill cards not conserved")
    if state.explored_bits != sum(1 << v for v, seen in enumerate(state.explored) if seen):
        out.append("explored rooms and their bit mask disagree")
    if state.opened_key != tuple(sorted(state.opened)) or state.dead_key != tuple(state.b_dead):
        out.append("opened passages or defeated bosses and their cache keys disagree")
    r = setup.rules
    if not r["danger.min"] <= state.danger <= r["danger.max"]:
        out.append(f"danger level {state.danger} off the track")
    for s in range(state.n):
        if not 0 < state.life[s] <= state.max_life[s]:
            out.append(f"maiden {s + 1} has life {state.life[s]}/{state.max_life[s]}")
        node = state.pos[s]
        b = setup.node_boss[node]
        if not state.explored[node] and not (b >= 0 and not state.b_dead[b]):
            out.append(f"maiden {s + 1} stands in unexplored room {setup.node_id[node]}")
        for sk in state.skills[s]:
            if not 0 <= sk[1] <= setup.skills[sk[0]]["max_level"]:
                out.append(f"maiden {s + 1}: skill {setup.skills[sk[0]]['id']} at level {sk[1]}")
        if any(len(state.stacks[s][k]) < 0 for k in range(4)):
            out.append("negative stat")
    for b, boss in enumerate(setup.bosses):
        if state.b_active[b] and not 0 < state.b_life[b] <= max(state.b_start[b], 1) + 9:
            out.append(f"boss {boss['id']} fought with life {state.b_life[b]}")
        if state.b_active[b] and not state.in_room(b):
            out.append(f"boss {boss['id']} is fought with nobody in its room")
        if state.b_dead[b] and boss["node"] >= 0 and setup.rules["boss.marker_on_defeat"] \
                and not state.explored[boss["node"]]:
            out.append(f"defeated boss {boss['id']} has no marker")
    if state.markers() > setup.rules["components.exploration_markers"] + 60:
        out.append(f"{state.markers()} markers on the board")
    return out


# ---- static map checks (M8) -----------------------------------------------------------------------

def static_checks(setup, players: int) -> list[str]:
    """Count-specific statics for the shared verdict (the map checks are located: see map_checks)."""
    out = []
    if players > len(setup.servants):
        out.append(f"{players} maidens need {players} servants; the content has {len(setup.servants)}")
    return out


def map_checks(setup) -> list[Problem]:
    """Problems of map.yaml, each at its line: reachability from S, satisfiable key rooms, one boss
    room per area, the EASY/NORMAL rest rooms on the map (plus what compile_setup found)."""
    out = list(setup.map_problems)
    loc = setup.locations
    n = len(setup.node_id)

    def at(node):
        return loc.get(f"node:{setup.node_id[node]}", loc["map"])
    # 1. every room reachable from S (hidden passages count only with Ins; sealed ones stay closed)
    seen = [False] * n
    seen[setup.start] = True
    dq = deque([setup.start])
    while dq:
        v = dq.popleft()
        for w, hidden, sid in setup.adj[v]:
            if sid < 0 and not seen[w]:
                seen[w] = True
                dq.append(w)
    for v in range(n):
        if not seen[v]:
            out.append(Problem(at(v), "nodes", f"room {setup.node_id[v]} cannot be reached from "
                               f"{setup.node_id[setup.start]} (without sealed passages)"))
    # 2. every key room's condition satisfiable by some stat placement
    cards = setup.rules["setup.first_level_up"] + setup.rules["setup.initial_actions"] + \
        sum(1 for b in setup.bosses if not b["final"])
    for v in range(n):
        if setup.printed_kind[v] != KEY:
            continue
        cond = setup.key_cond[v]
        if not cond:
            out.append(Problem(at(v), "key_condition", f"key room {setup.node_id[v]} has no condition"))
            continue
        need = sum(val for _, val in cond)
        if need > cards:
            out.append(Problem(at(v), "key_condition", f"key room {setup.node_id[v]} needs "
                               + " + ".join(f"{STATS[k]} {val}" for k, val in cond)
                               + f" = {need} action cards; a maiden places at most {cards} in a game"))
    # 3. every area has exactly one boss room
    for a, area in enumerate(setup.areas):
        rooms = [v for v in range(n) if setup.area[v] == a and setup.printed_kind[v] == BOSS]
        where = loc.get(f"area:{area['id']}", loc["map"])
        if len(rooms) != 1:
            out.append(Problem(where, "areas", f"area {area['id']} has {len(rooms)} boss rooms (expected 1)"))
        elif area["boss"] >= 0 and setup.node_boss[rooms[0]] != area["boss"]:
            out.append(Problem(where, "areas", f"area {area['id']}'s boss room holds another boss"))
    # 4. the rest rooms listed for EASY and NORMAL exist on the map as rest spaces with the right tag
    lists = loc.get("rest_rooms_lists") or {}
    for diff, names in lists.items():
        for name in names:
            v = setup.node_index.get(name)
            if v is None:
                out.append(Problem(loc["rest_rooms"], f"rest_rooms.{diff}", f"rest room {name!r} is not on the map"))
            elif setup.printed_kind[v] != REST:
                out.append(Problem(at(v), f"rest_rooms.{diff}", f"{name} is listed as a {diff} rest room but is a "
                                   f"{KINDS[setup.printed_kind[v]]} room"))
    rest_all = [v for v in range(n) if setup.printed_kind[v] == REST]
    for diff in ("normal", "easy"):
        tags = set(setup.rules.get("rest_rooms." + diff) or ["all"])
        expect = sorted(setup.node_id[v] for v in rest_all if setup.tag[v] in tags)
        listed = sorted(lists.get(diff, []))
        if lists and expect != listed:
            out.append(Problem(loc["rest_rooms"], f"rest_rooms.{diff}", f"{diff.upper()} rest rooms on the board "
                               f"{expect} differ from the list {listed}"))
        if not expect:
            out.append(Problem(loc["rest_rooms"], f"rest_rooms.{diff}", f"no rest room on {diff.upper()}"))
    # 5. the final boss has a room
    fb = setup.bosses[setup.final_boss] if setup.final_boss >= 0 else None
    if fb is not None and fb["node"] < 0:
        out.append(Problem(loc["map"], "nodes", f"the final boss {fb['id']} has no room: the game cannot be won"))
    return out


# ---- variants (M5) --------------------------------------------------------------------------------

def cards(setup) -> list[str]:
    return list(setup.tracked)


def ablate(tables: dict, card_id: str) -> dict:
    """The same content with ``card_id``'s effect removed (a skill, sefira or derived event that does nothing)."""
    return with_record_changed(tables, card_id, without_effect)


# ---- trace ----------------------------------------------------------------------------------------

def _seat(state, s) -> str:
    return f"P{s + 1}:{state.setup.servants[state.servant[s]]['id']}"


def action_text(state, a) -> str:
    from . import metroidvania as mv
    kind = a[0]
    setup = state.setup
    if kind == mv.GO:
        return f"go to {setup.node_id[a[1]]} ({KINDS[setup.kind[a[1]]]})" + (" spending a key" if a[2] else "")
    if kind == mv.USE:
        s = state.active
        name = setup.skills[state.skills[s][a[2]][0]]["id"] if a[1] == 0 else \
            setup.sefira[state.sefira_area[a[2]]]["id"]
        arg = "" if a[3] < 0 else f" on {setup.node_id[a[3]] if 'teleport' in str(name) else a[3]}"
        return f"use {name}{arg}"
    if kind == mv.PLAN:
        removed, ap, pa, sa, rc = a[1]
        return f"pairs {removed} AP {ap}" + (f" recolour {rc}" if rc else "")
    if kind == mv.REROLL:
        return f"reroll dice {a[1]}"
    if kind == mv.PLACE_A:
        return f"place {TYPES[state.tasks[0][2][a[1]]]} on {STATS[a[2]]}"
    if kind == mv.PICK_A:
        return f"keep card {a[1] + 1}"
    if kind == mv.FLOWER:
        return f"flower on {setup.events[state.held[a[1]][0]]['id']}"
    if kind == mv.LEVEL_A:
        return f"thorn on {setup.skills[state.skills[state.tasks[0][1]][a[1]][0]]['id']}"
    if kind == mv.TOP:
        task = state.tasks[0] if state.tasks and state.tasks[0][0] == "peek" else ()
        depth = task[4] if len(task) > 4 else 0
        return f"put card {depth + a[1] + 1} on top" if not depth else f"put card {depth + a[1] + 1} at {depth + 1}"
    return {mv.SKIP: "skip (no destination)", mv.ROLL: "roll", mv.DONE: "done", mv.ENDT: "end turn"}.get(kind, str(a))


def describe(state, ev) -> str:
    setup = state.setup
    kind = ev[0]
    if kind == "act":
        return ""
    if kind == "round":
        return f"-- round {ev[1]}: criterion {ev[2]}, danger {ev[3]}"
    if kind == "turn":
        return f" {_seat(state, ev[1])}'s turn at {setup.node_id[ev[3]]} (life {ev[4]}, danger {ev[2]})"
    if kind == "party":
        return "party: " + ", ".join(ev[1])
    if kind == "go":
        return f"    {_seat(state, ev[1])} enters {setup.node_id[ev[2]]} ({KINDS[setup.kind[ev[2]]]})"
    if kind == "roll":
        faces = " ".join(f"{v}{'RBKW'[c]}" for v, c in zip(ev[3], ev[4]))   # red blue blacK white
        return f"    rolls d{ev[2]}: {faces}"
    if kind == "check":
        return f"    check {ev[3]} vs {ev[4]}: {'success' if ev[5] else 'FAIL'}" + (f", {ev[6]} damage" if ev[6] else "")
    if kind == "hurt":
        return f"    {_seat(state, ev[1])} takes {ev[2]} ({ev[3]})"
    if kind == "death":
        return f"    {_seat(state, ev[1])} DIES in {setup.node_id[ev[2]]} ({ev[3]}) and wakes at S"
    if kind == "place":
        return f"    {_seat(state, ev[1])} places {TYPES[ev[2]]} on {STATS[ev[3]]}"
    if kind == "learn":
        return f"    {_seat(state, ev[1])} learns {setup.skills[ev[2]]['id']}"
    if kind == "use":
        return f"    {_seat(state, ev[1])} uses {ev[2]}" + ("" if ev[3] else " (exhausted)")
    if kind == "boss_in":
        return f"    boss {setup.bosses[ev[2]]['id']} awakens with {ev[3]} life"
    if kind == "boss_hit":
        return f"    boss {setup.bosses[ev[2]]['id']} -{ev[3]} -> {ev[4]}"
    if kind == "boss_kill":
        return f"    == boss {setup.bosses[ev[2]]['id']} defeated in round {ev[3]}"
    if kind == "boss_reset":
        return f"    boss {setup.bosses[ev[1]]['id']} resets (room empty)"
    if kind == "end":
        return f"== game over: {ev[1]} in round {ev[2]}"
    if kind in _PLAIN:
        return "    " + _PLAIN[kind](state, setup, ev)
    return ""


def _card_id(setup, deck: str, i: int) -> str:
    cards = getattr(setup, {"sefira": "sefira"}.get(deck, deck + "s"), None)
    return str(cards[i]["id"]) if cards and 0 <= i < len(cards) and isinstance(cards[i], dict) else str(i)


_PLAIN = {  # event kind -> one readable trace line (without the indent)
    "heal": lambda st, su, ev: f"{_seat(st, ev[1])} heals {ev[2]}",
    "reroll": lambda st, su, ev: f"{_seat(st, ev[1])} rerolls dice {list(ev[2])}: now {list(ev[3])}",
    "danger": lambda st, su, ev: f"danger level -> {ev[1]}",
    "sub": lambda st, su, ev: f"{_seat(st, ev[1])} sub-event: {SUBS[ev[2]] if 0 <= ev[2] < len(SUBS) else ev[2]}",
    "rest": lambda st, su, ev: f"{_seat(st, ev[1])} rests at {su.node_id[ev[2]]}",
    "derived": lambda st, su, ev: f"{_seat(st, ev[1])} derived event {ev[2]} (from {ev[3]})",
    "event": lambda st, su, ev: f"{_seat(st, ev[1])} event {ev[2]}",
    "sefira": lambda st, su, ev: f"{_seat(st, ev[1])} sefira {ev[2]}",
    "skip": lambda st, su, ev: f"{_seat(st, ev[1])} skips (no destination)",
    "thorn": lambda st, su, ev: f"{_seat(st, ev[1])} thorn on {ev[2]}",
    "drawn": lambda st, su, ev: f"{_seat(st, ev[1])} draws {ev[2]} card(s) "
                                f"{', '.join(_card_id(su, ev[2], i) for i in ev[3])}",
    "open": lambda st, su, ev: "sealed passage {} - {} opens".format(*(su.node_id[n] for n in su.sealed[ev[1]])),
    "regen": lambda st, su, ev: f"boss {su.bosses[ev[1]]['id']} regenerates -> {ev[2]}",
    "key_used": lambda st, su, ev: f"{_seat(st, ev[1])} uses a key at {su.node_id[ev[2]]}",
    "area_clear": lambda st, su, ev: f"area {su.areas[ev[1]]['id']} cleared",
    "boss_life": lambda st, su, ev: f"boss {su.bosses[ev[1]]['id']} life {ev[2]:+d}",
}


def state_text(state) -> str:
    setup = state.setup
    rows = [f"round {state.round} criterion {state.crit} danger {state.danger} phase {state.phase}"]
    for s in range(state.n):
        stats = " ".join(f"{STATS[k]}{state.stat(s, k)}" for k in range(4))
        rows.append(f"{_seat(state, s)} life {state.life[s]}/{state.max_life[s]} at {setup.node_id[state.pos[s]]} "
                    f"{stats} skills {[setup.skills[sk[0]]['id'] for sk in state.skills[s]]}")
    return "\n".join(rows)


# ---- the game's own balance bands (spec §5), called by the shared verdict ------------------------

def judge_extra(judge, config, setup, tables, records, runs) -> dict:
    """Map checks (located in map.yaml), spec §5 bands, EASY runs and the per-room death histogram.

    ``records``: {players: {"reference": [...], "random": [...], <control>: [...]}} of the NORMAL run.
    Adds rows and problems to ``judge``; returns extra report data."""
    out: dict = {}
    problems = map_checks(setup)
    judge.row("M8 map checks (map.yaml)", "all", f"{len(problems)} problem(s)", "0", "pass" if not problems else "FAIL")
    judge.problems.extend(problems)
    band = config.get("crawl")
    if not band:
        return out
    agent = config.get("reference_agent", "greedy")
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
                bad.append(f"C{c} {_kind_text(d, m, slate, qte, prompts)}: {p:.2f} (Wil {wil}/Pie {pie})")
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
                bad.append(f"{boss['id']} action {i + 1} at round {rnd} (Wil {wil}/Pie {pie}): {p:.2f}")
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
