"""Metroidvania: plain content tables -> a precomputed, picklable ``Setup``.

Every number the engine uses comes from the tables (``game.tables``, shaped by
content/metroidvania/schema.yaml): the map (``map.yaml``), card fields, ``effect:`` op lists and
``rules.yaml`` (constants and every PROPOSAL switch). No Python literal copies a value of the data.
The map becomes integer node indices with adjacency lists; decks become lists of small integers.

Effect lists are compiled once to tuples ``(op, params)``; an op or a switch value the engine does
not implement is a located problem (``ProblemsError``), never a crash mid-game. Problems of the map
that the engine can still play (an unreachable room, an impossible key room ...) are kept in
``Setup.map_problems`` for the validator's static checks (metroidvania_report.map_checks).

The run parameter ``difficulty`` (``normal`` | ``easy``) is read from ``tables["difficulty"]``
(default ``normal``): it is not content, the validator sets it to play the EASY rest rooms.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, final

from ...errors import Problem, ProblemsError
from ..compile import SetupCompiler, unique_records

STATS = ("pie", "wil", "agi", "ins")
PIE: Final = 0
WIL: Final = 1
AGI: Final = 2
INS: Final = 3
TYPES = ("dash", "jump", "play", "guard")
COLOURS = ("red", "blue", "black", "white")
RED: Final = 0
BLUE: Final = 1
BLACK: Final = 2
WHITE: Final = 3
KINDS = ("start", "normal", "rest", "event", "danger", "key", "boss")
START: Final = 0
NORMAL: Final = 1
REST: Final = 2
EVENT: Final = 3
DANGER: Final = 4
KEY: Final = 5
BOSS: Final = 6
SUBS = ("none", "thorn", "memory_flower", "sweets", "key", "danger_up", "danger_down")
TIMINGS = ("move", "pre_roll", "post_roll", "on_success", "on_damage", "any")
DIFFICULTIES = ("normal", "easy")

# Every op of the effect vocabulary (content/metroidvania/README.md); the engine implements each once.
OPS = ("heal", "heal_full", "max_life", "damage_reduce", "damage_plus", "danger", "ap_bonus", "reroll", "recolour",
       "extra_dice", "die_step", "ignore_slate", "ignore_threat", "multi_minus", "criterion", "auto_success",
       "move_bonus", "pass_key_rooms", "teleport", "explore", "open_edge", "peek_deck", "gain_item", "skill_level",
       "refresh_skills", "draw_skill", "unlock_servant_skill", "level_up", "boss_life", "boss_damage",
       "boss_skip_action", "boss_action_mod", "forbid", "forbid_trait", "regen", "threat", "reveal_weakness")
# What the engine supports of each switch in rules.yaml (anything else is reported, not guessed).
SUPPORTED = {
    "turn_order_2p": ("alternate", "consecutive"),
    "move.no_destination": ("skip_turn",),
    "ascension_white_dice_in_qte": ("pairs_only", "also_prompts"),
    "slate_damage_per_die": ("danger", "one"),
    "threat.below": ("criterion",),
    "items_kept_as": ("room_card",),
    "second_servant_skill": ("event_only", "event_or_first_boss"),
    "deck_empty": ("reshuffle_discards",),
    "danger_room.damage": ("danger",),
    "skills.thorn_targets": ("any_own_skill",),
    "death.to": ("start",),
    # read nowhere else: the engine plays only these values (a skill once per turn, each servant once,
    # S not a rest room); any other value is reported rather than silently ignored
    "skills.uses_per_turn": (1,),
    "setup.unique_servants": (True,),
    "start_is_rest": (False,),
}
_NEEDED = ("players.min", "players.max", "rounds", "criterion.start", "criterion.every_rounds", "danger.start",
           "danger.min", "danger.max", "life.start", "life.max", "life.respawn", "move.base", "move.per_agi",
           "move.explored_step_cost", "move.unexplored_step_cost", "move.pass_through_unexplored", "move.blocked_by",
           "move.hidden_edges_need_ins", "die_by_will", "coloured_dice", "white_dice_per_pie", "ascension_max_pairs",
           "threat.damage", "area_effect_scope", "ins_extra_draw_decks", "rest_rooms.normal", "rest_rooms.easy",
           "rest.heal_full", "rest.refresh_skills", "rest.danger", "rest.also_room", "danger_room.danger",
           "start_explored", "start_is_rest", "skills.max_level", "skills.uses_per_turn", "flowers_per_event", "urza_seal_bosses",
           "boss.marker_on_defeat", "boss.reset_when_empty", "boss.level_up_all_on_defeat",
           "boss.multi_success_damage", "death.life", "death.exhaust_skills", "death.turn_ends",
           "setup.initial_actions", "setup.first_level_up", "setup.unique_servants", "stats_cap.wil",
           "components.exploration_markers", "turns_per_round", "boss_life_bonus")


@final
class PlayRules:
    """The rules a game reads as it plays (every decision, every search), typed: compiled, a field read is native
    where ``rules["..."]`` hashes a string. Built once from ``Setup.rules``, which keeps them all (the ones read
    once a game or a boss stay there)."""
    __slots__ = ("die_by_will", "wil_cap", "ins_decks", "danger_min", "danger_max", "move_base", "move_per_agi",
                 "explored_step_cost", "unexplored_step_cost", "level_costs", "pass_through_unexplored",
                 "blocked_boss", "blocked_key", "urza_seal_bosses", "scope", "coloured", "white_dice_per_pie",
                 "max_pairs", "slate_per_danger", "threat_damage", "white_prompts", "flowers_per_event", "rounds")

    def __init__(self, r: dict[str, Any]) -> None:
        self.die_by_will: list[int] = r["die_by_will"]
        self.wil_cap: int = r["stats_cap.wil"]
        self.ins_decks: frozenset[str] = r["ins_decks"]
        self.danger_min: int = r["danger.min"]
        self.danger_max: int = r["danger.max"]
        self.move_base: int = r["move.base"]
        self.move_per_agi: int = r["move.per_agi"]
        self.explored_step_cost: int = r["move.explored_step_cost"]
        self.unexplored_step_cost: int = r["move.unexplored_step_cost"]
        # the shipped step costs (explored 0, unexplored 1): the move searches go level by level
        self.level_costs: bool = (self.explored_step_cost, self.unexplored_step_cost) == (0, 1)
        self.pass_through_unexplored: bool = bool(r["move.pass_through_unexplored"])
        self.blocked_boss: bool = r["blocked_boss"]
        self.blocked_key: bool = r["blocked_key"]
        self.urza_seal_bosses: int = r["urza_seal_bosses"]
        self.scope: frozenset[str] = r["scope"]
        self.coloured: list[int] = r["coloured"]
        self.white_dice_per_pie: int = r["white_dice_per_pie"]
        self.max_pairs: int = r["ascension_max_pairs"]
        self.slate_per_danger: bool = r["slate_damage_per_die"] == "danger"
        self.threat_damage: int = r["threat.damage"]
        self.white_prompts: bool = r["ascension_white_dice_in_qte"] == "also_prompts"
        self.flowers_per_event: int = r["flowers_per_event"]
        self.rounds: int = r["rounds"]


@dataclass
class Setup:
    # Typed where the game reads it (compiled by mypyc, a field read is a native one and a ``list[int]`` is
    # indexed natively); records stay dicts, ids and tags whatever the content wrote.
    rules: dict[str, Any]
    play: PlayRules = field(init=False, repr=False, compare=False)   # set by compile_setup
    difficulty: str = "normal"
    # ---- map (node index = position in map.yaml nodes)
    node_id: list = field(default_factory=list)
    node_index: dict = field(default_factory=dict)
    kind: list[int] = field(default_factory=list)          # KINDS index, after the difficulty (easy rest -> normal)
    printed_kind: list[int] = field(default_factory=list)  # KINDS index as printed on the board
    tag: list = field(default_factory=list)                # difficulty_tag (all | easy)
    area: list[int] = field(default_factory=list)          # area index
    key_cond: list[tuple[tuple[int, int], ...]] = field(default_factory=list)  # (stat, value) pairs or ()
    node_boss: list[int] = field(default_factory=list)     # boss index or -1
    # node -> (neighbour, hidden_ins, sealed edge id or -1) of its edges; those always open; the others
    adj: list[list[tuple[int, int, int]]] = field(default_factory=list)
    plain_adj: list[list[int]] = field(default_factory=list)
    cond_adj: list[list[tuple[int, int, int]]] = field(default_factory=list)
    sealed: list[tuple[int, int]] = field(default_factory=list)   # sealed edge id -> (a, b)
    blockers: list[int] = field(default_factory=list)      # key and boss rooms (they may block a path)
    key_rooms: list[int] = field(default_factory=list)     # the key rooms among the blockers
    boss_rooms: list[int] = field(default_factory=list)    # the boss rooms among them that have a boss
    rest_nodes: list[int] = field(default_factory=list)    # the rest rooms at this difficulty
    key_room_bits: int = 0                                 # the key rooms in ``State.explored_bits``
    blocker_bits: int = 0                                  # the blockers in ``State.explored_bits``
    normal_rests: int = 0                                  # how many rest rooms the map has on NORMAL
    start: int = 0
    areas: list[dict] = field(default_factory=list)        # id, boss, effects (frozenset), rooms, boss_node
    # ---- cards
    actions: list[int] = field(default_factory=list)       # action deck instances -> type index
    rooms: list[dict] = field(default_factory=list)        # room card instances -> dict
    events: list[dict] = field(default_factory=list)       # id, derived (d_index, d_index)
    derived: list[dict] = field(default_factory=list)      # id, number, link, effect
    sefira: list[dict] = field(default_factory=list)       # id, timing, effect
    skills: list[dict] = field(default_factory=list)       # id, source, tops, stat_tops, timing, effect, max_level
    deck_skills: list[int] = field(default_factory=list)
    servants: list[dict] = field(default_factory=list)     # id, action, skill, second
    bosses: list[dict] = field(default_factory=list)       # id, area, tier, final, life, trait, weakness, actions
    final_boss: int = -1
    tracked: list = field(default_factory=list)
    # ---- where things are written (for located static checks)
    locations: dict = field(default_factory=dict)
    map_problems: list = field(default_factory=list)
    # what ``sim.state.setup_memo`` and ``memo_table`` keep, as the other games' Setups: without the field each
    # memo read paid a failed attribute lookup (an AttributeError made and dropped) before the ``__dict__``
    memos: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)


def _rules(comp: SetupCompiler, raw: dict) -> dict:
    r = {path: comp.rule(raw, path) for path in _NEEDED}
    for path, allowed in SUPPORTED.items():
        value = comp.rule(raw, path)
        if value is not None and value not in allowed:
            comp.problem(path, f"the simulator supports {list(allowed)}, got {value!r}", raw)
        r[path] = value
    for key in ("turns_per_round", "boss_life_bonus"):
        r[key] = {int(k): int(v) for k, v in (r[key] or {}).items()}
    r["die_by_will"] = list(r["die_by_will"] or [4, 6, 8, 12, 20])
    r["coloured"] = [COLOURS.index(c) for c in (r["coloured_dice"] or ()) if c in COLOURS]
    r["ins_decks"] = frozenset(r["ins_extra_draw_decks"] or ())
    r["scope"] = frozenset(r["area_effect_scope"] or ())
    r["rest.also_room"] = frozenset(r["rest.also_room"] or ())
    if not r["rest.also_room"] <= {"all", "easy"}:
        comp.problem("rest.also_room", "rest.also_room lists difficulty tags (all, easy), got "
                     f"{sorted(r['rest.also_room'])!r}", raw)
    r["blocked_key"] = "unexplored_key_room" in (r["move.blocked_by"] or ())
    r["blocked_boss"] = "undefeated_boss_room" in (r["move.blocked_by"] or ())
    if r["life.respawn"] is not None and r["death.life"] is not None and r["life.respawn"] != r["death.life"]:
        comp.problem("life.respawn", f"the simulator respawns with death.life ({r['death.life']!r}); "
                     f"life.respawn says {r['life.respawn']!r}", raw)
    return r


def _colour(value) -> int:
    return COLOURS.index(value) if value in COLOURS else -1


def compile_setup(tables: dict, where=None) -> Setup:
    """Compile the game's plain tables; raise ``ProblemsError`` listing what cannot be simulated."""
    comp = SetupCompiler(where, OPS)
    raw_rules = tables.get("rules") or {}
    setup = Setup(rules=_rules(comp, raw_rules))
    setup.difficulty = str(tables.get("difficulty") or "normal").lower()
    if setup.difficulty not in DIFFICULTIES:
        comp.problem("difficulty", f"difficulty must be one of {list(DIFFICULTIES)}, got {setup.difficulty!r}")
    setup.locations["rules"] = comp.loc(raw_rules)
    _compile_cards(setup, comp, tables)
    _compile_map(setup, comp, tables.get("map") or {})
    if comp.problems:
        raise ProblemsError(comp.problems)
    setup.play = PlayRules(setup.rules)   # (once every rule is there)
    return setup


def _compile_cards(setup: Setup, comp: SetupCompiler, tables: dict) -> None:
    for rec in unique_records(tables.get("actions")):
        t = TYPES.index(rec["type"]) if rec.get("type") in TYPES else -1
        if t < 0:
            comp.problem("type", f"unknown action type {rec.get('type')!r}", rec)
            continue
        setup.actions.extend([t] * int(rec.get("count") or 1))
    skills = unique_records(list(tables.get("skills") or []) + list(tables.get("servant_skills") or []))
    skill_index = {}
    for rec in skills:
        cond = rec.get("condition") or {}
        tops = [0, 0, 0, 0]
        for top in cond.get("tops") or ():
            tops[TYPES.index(top)] += 1
        stat_tops = tuple((STATS.index(k), TYPES.index(v)) for k, v in (cond.get("stat_tops") or {}).items()
                          if v is not None)
        timing = rec.get("timing")
        if timing not in TIMINGS:
            comp.problem("timing", f"unknown timing {timing!r}", rec)
        skill_index[rec["id"]] = len(setup.skills)
        setup.skills.append({"id": rec["id"], "source": rec.get("source"), "tops": tuple(tops),
                             "needs": tuple((t, n) for t, n in enumerate(tops) if n),   # (type, count) asked
                             "stat_tops": stat_tops, "timing": timing,
                             "effect": comp.effect(rec.get("effect"), rec, "effect"),
                             "max_level": min(int(rec.get("max_level") or 0),
                                              int(setup.rules["skills.max_level"] or 0))})
        setup.skills[-1]["ops"] = frozenset(op for op, _ in setup.skills[-1]["effect"])
        if rec.get("source") == "deck":
            setup.deck_skills.extend([skill_index[rec["id"]]] * int(rec.get("count") or 1))
    for rec in unique_records(tables.get("servants")):
        a = rec.get("initial_action")
        first, second = skill_index.get(rec.get("initial_skill")), skill_index.get(rec.get("second_skill"))
        if a not in TYPES or first is None or second is None:
            comp.problem("servant", f"servant {rec.get('id')!r} needs a known initial action and two skills", rec)
            continue
        setup.servants.append({"id": rec["id"], "action": TYPES.index(a), "skill": first, "second": second})
    for rec in unique_records(tables.get("rooms")):
        check = rec.get("check") or {}
        room = {"id": rec["id"], "qte": check.get("kind") == "qte", "d": int(check.get("difficulty") or 0),
                "multi": int(check.get("multi") or 1), "slate": _colour(check.get("slate")),
                "prompts": tuple((_colour(p["colour"]), int(p.get("offset") or 0)) for p in check.get("prompts") or ()),
                "sub": SUBS.index(rec.get("sub_event") or "none")}
        if room["qte"] and not room["prompts"]:
            comp.problem("check.prompts", "a QTE room needs at least one prompt", rec)
        setup.rooms.extend(dict(room) for _ in range(int(rec.get("count") or 1)))
    derived = unique_records(tables.get("derived_events"))
    d_index = {rec["id"]: i for i, rec in enumerate(derived)}
    for rec in derived:
        effect = comp.effect(rec.get("effect"), rec, "effect")
        setup.derived.append({"id": rec["id"], "number": rec.get("number"), "link": bool(rec.get("link")),
                              "effect": effect, "ops": frozenset(op for op, _ in effect)})
    for rec in unique_records(tables.get("events")):
        rows = sorted(rec.get("derived") or (), key=lambda d: d.get("flowers") or 0)
        links = tuple(d_index.get(d.get("event"), -1) for d in rows)
        if any(x < 0 for x in links):
            comp.problem("derived", "unknown derived event", rec)
            continue
        setup.events.append({"id": rec["id"], "derived": links})
    for rec in unique_records(tables.get("sefira")):
        effect = comp.effect(rec.get("effect"), rec, "effect")
        setup.sefira.append({"id": rec["id"], "timing": rec.get("timing"), "effect": effect,
                             "ops": frozenset(op for op, _ in effect)})
    for rec in unique_records(tables.get("bosses")):
        trait = rec.get("trait") or {}
        weak = rec.get("weakness")
        acts = rec.get("actions") or []
        if len(acts) < 1:
            comp.problem("actions", "a boss needs actions", rec)
            continue
        setup.bosses.append({
            "id": rec["id"], "area_id": rec.get("area"), "tier": int(rec.get("tier") or 1),
            "final": bool(rec.get("final")), "life": int(rec.get("life") or 1),
            "trait": comp.effect(trait.get("effect"), rec, "trait.effect"),
            "weakness": (int(weak.get("ins") or 0), comp.effect(weak.get("effect"), rec, "weakness.effect"))
            if weak else None,
            "actions": tuple((int(a.get("difficulty") or 0), int(a.get("multi") or 1), _colour(a.get("slate")))
                             for a in acts),
            "node": -1, "area": -1})
        weak = setup.bosses[-1]["weakness"]
        # the weakness's action modifiers as (index, difficulty, multi_minus, remove_slate), like b_mods
        setup.bosses[-1]["weak_mods"] = tuple(
            (int(p.get("index") or 0), int(p.get("difficulty") or 0), int(p.get("multi_minus") or 0),
             bool(p.get("remove_slate"))) for op, p in (weak[1] if weak else ()) if op == "boss_action_mod")
        # a trait that forbids skills holds for the whole fight (this boss's checks and her turns in its room)
        setup.bosses[-1]["forbids_skills"] = any(op == "forbid" and p.get("what") != "ascension"
                                                 for op, p in setup.bosses[-1]["trait"])
        # the damage its trait adds to each failed check (while the trait is on)
        setup.bosses[-1]["damage_plus"] = sum(int(p.get("n") or 0) for op, p in setup.bosses[-1]["trait"]
                                              if op == "damage_plus")
        if rec.get("final"):
            setup.final_boss = len(setup.bosses) - 1
    if setup.final_boss < 0:
        comp.problem("bosses", "no final boss (final: true): the game cannot be won", tables.get("rules"))
    if not setup.servants:
        comp.problem("servants", "no servants to simulate", tables.get("rules"))
    setup.tracked = sorted({s["id"] for s in setup.skills} | {s["id"] for s in setup.sefira}
                           | {d["id"] for d in setup.derived})


def _compile_map(setup: Setup, comp: SetupCompiler, raw: dict) -> None:
    where = comp.where
    map_loc = comp.loc(raw)
    setup.locations["map"] = map_loc
    boss_index = {b["id"]: i for i, b in enumerate(setup.bosses)}
    areas = raw.get("areas") or []
    area_index = {}
    for i, a in enumerate(areas):
        area_index[a["id"]] = i
        effects = frozenset(e for e in a.get("effects") or ())
        setup.areas.append({"id": a["id"], "boss": boss_index.get(a.get("boss"), -1), "effects": effects,
                            "rooms": [], "boss_node": -1,
                            "threats": tuple(COLOURS.index(e[7:]) for e in sorted(effects) if e.startswith("threat_"))})
        setup.locations[f"area:{a['id']}"] = where(a) or map_loc
    rest_tags = set((setup.rules.get("rest_rooms." + setup.difficulty) or ["all"]))
    nodes = raw.get("nodes") or []
    for i, n in enumerate(nodes):
        setup.node_index[n["id"]] = i
        setup.locations[f"node:{n['id']}"] = where(n) or map_loc
    for i, n in enumerate(nodes):
        kind = KINDS.index(n["kind"]) if n.get("kind") in KINDS else NORMAL
        setup.node_id.append(n["id"])
        setup.printed_kind.append(kind)
        tag = n.get("difficulty_tag") or "all"
        setup.tag.append(tag)
        setup.kind.append(NORMAL if kind == REST and tag not in rest_tags else kind)
        area = area_index.get(n.get("area"), -1)
        if area < 0:
            comp.problem("area", f"node {n['id']!r} names an unknown area {n.get('area')!r}", n)
        setup.area.append(area)
        cond = n.get("key_condition") or {}
        setup.key_cond.append(tuple((STATS.index(k), int(v)) for k, v in cond.items() if v is not None))
        b = boss_index.get(n.get("boss"), -1) if kind == BOSS else -1
        setup.node_boss.append(b)
        if kind == BOSS:
            if b < 0:
                setup.map_problems.append(Problem(setup.locations[f"node:{n['id']}"], "boss",
                                                  f"boss room {n['id']!r} names no known boss ({n.get('boss')!r})"))
            elif setup.bosses[b]["node"] >= 0:
                setup.map_problems.append(Problem(setup.locations[f"node:{n['id']}"], "boss",
                                                  f"boss {n.get('boss')!r} has two rooms"))
            else:
                setup.bosses[b]["node"] = i
                setup.bosses[b]["area"] = area
                if area >= 0:
                    setup.areas[area]["boss_node"] = i
        elif area >= 0 and kind != START:
            setup.areas[area]["rooms"].append(i)
    setup.adj = [[] for _ in nodes]
    for i, e in enumerate(raw.get("edges") or []):
        u, w = setup.node_index.get(e.get("a")), setup.node_index.get(e.get("b"))
        loc = where(e) or map_loc
        setup.locations[f"edge:{i}"] = loc
        if u is None or w is None:
            comp.problem("edges", f"edge {e.get('a')!r}-{e.get('b')!r} names an unknown node", e)
            continue
        sid = -1
        if e.get("sealed"):
            sid = len(setup.sealed)
            setup.sealed.append((u, w))
        hidden = int(e.get("hidden_ins") or 0) if setup.rules.get("move.hidden_edges_need_ins") else 0
        setup.adj[u].append((w, hidden, sid))
        setup.adj[w].append((u, hidden, sid))
    setup.plain_adj = [[w for w, h, sid in nbrs if not h and sid < 0] for nbrs in setup.adj]
    setup.cond_adj = [[(w, h, sid) for w, h, sid in nbrs if h or sid >= 0] for nbrs in setup.adj]
    setup.blockers = [v for v, k in enumerate(setup.kind) if k in (BOSS, KEY)]
    setup.key_rooms = [v for v in setup.blockers if setup.node_boss[v] < 0]
    setup.boss_rooms = [v for v in setup.blockers if setup.kind[v] == BOSS and setup.node_boss[v] >= 0]
    setup.rest_nodes = [v for v, k in enumerate(setup.kind) if k == REST]
    normal_tags = set(setup.rules.get("rest_rooms.normal") or ["all"])
    setup.normal_rests = sum(1 for k, t in zip(setup.printed_kind, setup.tag) if k == REST and t in normal_tags)
    setup.key_room_bits = sum(1 << v for v in setup.key_rooms)
    setup.blocker_bits = sum(1 << v for v in setup.blockers)
    start = setup.node_index.get(raw.get("start"))
    if start is None:
        comp.problem("start", f"unknown start node {raw.get('start')!r}", raw)
    setup.start = start if start is not None else 0
    setup.locations["rest_rooms"] = where(raw.get("rest_rooms")) or map_loc
    setup.locations["rest_rooms_lists"] = {k: list(v or []) for k, v in (raw.get("rest_rooms") or {}).items()}
