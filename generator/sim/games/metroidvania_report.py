"""Metroidvania: what a finished game says — the per-game record (from the event log only),
invariants, the static map checks (M8, located at map.yaml lines), the readable trace and content
variants for card-impact runs.
"""
from __future__ import annotations

from collections import Counter, deque

from ...errors import Problem
from . import metroidvania_dice as dice
from .metroidvania_setup import BOSS, KEY, KINDS, REST, STATS, SUBS, TYPES
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
    if state.marks != sum(sk[1] for mine in state.skills for sk in mine) + sum(h[2] for h in state.held):
        out.append("skill and event levels and their marker count disagree")
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
