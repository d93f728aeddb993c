"""Valheim agents: the spec §6 shared team planner ("greedy", public information only) and the
all-seeing planner ("oracle", the same planner that also reads every hand when committing).

Every bot runs the same deterministic planner over the *public* state (map, pool, bases, gear,
market, hand sizes), so the team agrees on the plan without naming cards (G21). The planner climbs
the spec's ladder one biome tier at a time: find a dungeon of the lowest undefeated avatar's biome,
gather and craft the designated fighter's gear, level the bases, and dive when the exact chance to
beat the avatar (hand + gear + d6) is good enough. Its only private input is the seat's own hand
when it chooses which cards to reveal; the oracle also reads the other hands there.

Speed: the team's reading of the state (``Plan``) is computed once per action of a cycle and kept
in ``state.memo`` (agents' scratch space, never read by the rules), so the seats share it; a gather
is planned in one pass and replayed step by step. Thresholds below are behaviour, not game
numbers: every game number comes from ``state.setup``.
"""
from __future__ import annotations

from typing import Any, Final, Optional

from ..state import kept_on_setup
from .valheim_rules import (BASE, BUY, COMMIT, CRAFT, DONE, DUNGEON, EXPLORE, FIGHTER, GATHER, HUNT, KEEP, LEVEL,
                            MAKE, MOVE, NEWBASE, OPEN, ORDER, P_BASE, P_COMMIT, P_CRAFT, P_EXPLORE, P_FIGHTER,
                            P_GATHER, P_HUNT, P_LEVEL, P_ORDER, P_PAY, P_PICK, P_REROLL, P_TRAIN, PAY, PICK,
                            REROLL, REST, TAKE, TRAIN, TRASH, WILD, Rules, gather_waive)
from .valheim_setup import STEP, Cost

_DONE = (DONE,)
BOSS_HUNT_P: Final = 0.5      # dive for the avatar when the fighter's exact win chance reaches this (spec §6)
KEEP_FOR_P: Final = 0.67      # the fighter keeps just enough cards in hand to reach this chance (or its best)
GATHER_MIN: Final = 0.12      # stop gathering when the best token is worth less than this per AP
EXPLORE_MIN: Final = 0.0  # open no edge worth no more than this (all useful tiles are worth opening: more tokens, more dungeons)
TRASH_ABOVE: Final = 14       # trash only when a deck exceeds this many cards (spec §6)
DECK_MAX: Final = 20          # stop buying for a player whose deck is this thick
BUY_MIN: Final = 0.25         # do not buy a card worth less than this per AP
NEAR_BEST: Final = 0.85       # shopping: random choice among buys worth at least this share of the best
_OP_WORTH = {"extra_ap": 1.0, "free_steps": 0.5, "trash": 0.4, "market_discount": 0.6, "edge_discount": 0.8,
             "choose_tile": 0.6, "extra_yield": 0.8, "gather_discount": 0.8, "power": 0.9, "reroll": 0.7,
             "peek_enemy": 0.6, "gain": 0.8, "pay": 0.6, "craft_discount": 0.6, "draw": 1.2}
_ACTION_WORTH = (1.2, 1.0, 0.6, 1.1, 0.9)  # explore, gather, train, hunt, craft (spec: favour hunt, explore)
_FAC_WORTH = {"extra_ap": 3.0, "hand_size": 3.0, "gather_discount": 2.5, "power": 2.5, "craft_discount": 1.5,
              "extra_level_up": 1.5, "link_bases": 1.5}
INF: Final = 1 << 20


def card_worth(setup, c) -> float:
    return _card_worths(setup)[c]


def _card_worths(setup) -> list[float]:
    return kept_on_setup(setup, "_vh_worth", _all_worths)


def _all_worths(setup) -> list[float]:
    return [_worth(setup, i) for i in range(len(setup.c_id))]


def _worth(setup, c) -> float:
    a = setup.c_action[c]
    worth = (max(_ACTION_WORTH) if a < 0 else _ACTION_WORTH[a]) * setup.c_weight[c]
    for op, p in setup.c_effect[c]:
        worth += _OP_WORTH.get(op, 0.4) * max(1, p.get("n", 1))
    return worth


def _facility_order(setup) -> list[int]:
    return kept_on_setup(setup, "_vh_fac", _facilities_by_worth)


def _facilities_by_worth(setup) -> list[int]:
    order = []
    for r in range(len(setup.r_id)):
        if setup.r_kind[r] == "facility":
            worth = sum(_FAC_WORTH.get(op, 1.0) for op, _ in setup.r_effect[r])
            cost = sum(k for _, k in setup.r_cost[r]) + setup.r_ap[r]
            order.append((-worth / cost, r))
    return [r for _, r in sorted(order)]


# the slots of Plan and _Tables, named (a class compiled by mypyc has no __slots__ to read back; tests read these)
PLAN_SLOTS = ("target", "fighter", "gear", "gear_need", "demand", "imp", "want", "edge_want", "boss_p", "boss_dungeon",
              "final", "main", "dungeons")
TABLES_SLOTS = ("slot_recipes", "facilities", "equipment", "biome_need")


class Plan:
    """The team's public reading of the state at the start of one action of a cycle."""

    __slots__ = PLAN_SLOTS
    target: Optional[int]
    fighter: int
    gear: list[int]
    gear_need: list[int]
    demand: list[int]
    imp: list[float]
    want: list[float]
    edge_want: list[float]
    boss_p: float
    boss_dungeon: int
    final: bool
    main: int
    dungeons: list[int]


class MapTally:
    """What the planner reads from the placed tiles, kept up to date tile by tile (tiles are only
    ever added): tiles per biome, the dungeon slots (all, and per biome), the resources printed on
    the map (with the fight rewards once a dungeon is placed; a bit mask) and the plan signature
    of the map's make-up."""

    __slots__ = ("seen", "placed", "dungeons", "biome_dungeons", "on_map", "sig")
    seen: int
    placed: list[int]
    dungeons: list[int]
    biome_dungeons: list[list[int]]
    on_map: int
    sig: int

    def __init__(self, setup: Any) -> None:
        self.seen, self.sig, self.on_map = 0, 0, 0
        self.placed = [0] * len(setup.biomes)
        self.biome_dungeons = [[] for _ in setup.biomes]
        self.dungeons = []

    def update(self, state: Rules) -> "MapTally":
        tiles = state.s_tile
        if self.seen == len(tiles):
            return self
        setup = state.setup
        t_biome, t_dungeon, t_res = setup.t_biome, setup.t_dungeon, setup.t_res
        placed = self.placed
        for k in range(self.seen, len(tiles)):
            t = tiles[k]
            b = t_biome[t]
            if placed[b] < 4:
                self.sig += 1 << (3 * b)
            placed[b] += 1
            for r, _ in t_res[t]:
                self.on_map |= 1 << r
            if t_dungeon[t]:
                self.sig += 1 << (16 + 3 * b)
                if not self.dungeons:
                    for r in _fight_rewards(setup):
                        self.on_map |= 1 << r
                self.dungeons.append(k)
                self.biome_dungeons[b].append(k)
        self.seen = len(tiles)
        return self


def _fight_rewards(setup) -> list[int]:
    return kept_on_setup(setup, "_vh_rewards", _reward_ids)


def _reward_ids(setup) -> list[int]:
    return sorted({r for reward in setup.e_reward for r, _ in reward})


def map_tally(state: Rules) -> MapTally:
    tally: Optional[MapTally] = state.memo.get("tally")
    if tally is None:
        tally = state.memo["tally"] = MapTally(state.setup)
    if tally.seen != len(state.s_tile):
        tally.update(state)
    return tally


# what ``_make_plan`` read (``_reading``): recipes left, bases, the tally's signature, resources on the
# map and dungeons, avatars defeated, the demon's hit points (or None), levels, pool
Reading = tuple[list[int], int, int, int, int, int, Any, list[int], list[int]]


class PlanKeep:
    """What ``plan_for`` keeps in ``state.memo["planner"]`` between looks: the log length at the last
    look, the key of the kept plan field by field (compared in place: no key tuple built and dropped
    each look), the plan and what it was made from (``_reading``)."""

    __slots__ = ("logged", "round_id", "cycle", "sig", "r_left", "no_base", "defeated", "demon_hp", "new_keys",
                 "plan", "read")
    logged: int
    round_id: int
    cycle: int
    sig: int
    r_left: list[int]
    no_base: int
    defeated: int
    demon_hp: Any
    new_keys: int  # how many times the key has changed (tests read it)
    plan: Optional[Plan]
    read: Optional[Reading]

    def __init__(self) -> None:
        self.logged, self.round_id, self.cycle, self.sig, self.no_base, self.defeated = -1, -1, -1, -1, -1, -1
        self.r_left, self.demon_hp, self.new_keys, self.plan, self.read = [], None, 0, None, None

    def same_key(self, state: Rules, tally: MapTally) -> bool:
        """Is the key as it was? If not, keep the new one."""
        # slots that are no base: s_level.count(-1), read from the kept list of bases
        no_base = len(state.s_level) - len(state.bases())
        defeated = state.defeated.count(True)
        if (state.round_id == self.round_id and state.cycle == self.cycle and tally.sig == self.sig
                and no_base == self.no_base and defeated == self.defeated and state.demon_hp == self.demon_hp
                and state.r_left == self.r_left):
            return True
        self.round_id, self.cycle, self.sig, self.no_base, self.defeated = (state.round_id, state.cycle, tally.sig,
                                                                             no_base, defeated)
        self.demon_hp, self.r_left = state.demon_hp, list(state.r_left)
        self.new_keys += 1
        return False


def plan_for(state: Rules) -> Plan:
    """The team's plan, recomputed only when something it reads has changed: a new cycle, a craft,
    an avatar, or a new slot — a base or any tile (the key counts the slots that are no base: the
    map tally's signature alone would let most tiles of a walk pass, but that changes the games).
    The key holds the recipes left one by one, not their sum: replaced equipment goes back to the
    display, so such a craft leaves the sum as it was.

    When the key changes but everything the plan is made from is as it was (``_same_reading``),
    the plan made now would be the kept one: it is kept (about half the recomputes of a game)."""
    memo = state.memo
    keep: Optional[PlanKeep] = memo.get("planner")
    if keep is None:
        keep = memo["planner"] = PlanKeep()
    logged = len(state.log)
    p = keep.plan
    if keep.logged == logged and p is not None:
        return p  # nothing happened since the last look (every change below is logged)
    keep.logged = logged
    tally: Optional[MapTally] = memo.get("tally")
    if tally is None or tally.seen != len(state.s_tile):
        tally = map_tally(state)
    if keep.same_key(state, tally) and p is not None:
        return p
    read = keep.read
    if p is not None and read is not None and _same_reading(state, p, read, tally):
        return p  # what it was made from still holds for it: compared with that again next time
    p = keep.plan = _make_plan(state)
    keep.read = _reading(state, tally)
    return p


def _pool_masks(pool: list[int], p: Plan, r_cost: list[Cost]) -> tuple[int, int]:
    """The resources in ``pool`` (bit mask) and those short of the plan's gear (``_biome_wants``)."""
    held = missing = 0
    for x, k in enumerate(pool):
        if k > 0:
            held |= 1 << x
    for r in p.gear:
        for x, k in r_cost[r]:
            if pool[x] < k:
                missing |= 1 << x
    return held, missing


def _reading(state: Rules, tally: MapTally) -> Reading:
    """What ``_make_plan`` read, as far as ``_same_reading`` compares it (lists copied: the
    rules change theirs in place)."""
    return (list(state.r_left), len(state.bases()), tally.sig, tally.on_map, len(tally.dungeons),
            state.defeated.count(True), state.demon_hp, list(state.s_level), list(state.pool))


def _same_reading(state: Rules, p: Plan, read: Reading, tally: MapTally) -> bool:
    """Would ``_make_plan`` now make the plan ``p``, made when it read ``read``? Yes when every input
    it reads is as it was: the recipes left (every craft changes them; they fix the gear, the
    facilities and so the power and links), the levels (a new slot is appended as no base), the
    avatars, the map's make-up as the plan reads it (resources, tiles per biome up to 4, dungeons)
    and which resources the pool holds or lacks for the gear. The one input left is the distances
    from the bases to the target's dungeons, which a new tile may shorten: then the dive is planned
    again (``_plan_boss``) and a changed one makes a new plan. Cheapest tests first: most fail."""
    r_left, nbases, sig, on_map, ndungeons, defeated, demon_hp, levels, pool = read
    if (state.r_left != r_left or len(state.bases()) != nbases or tally.sig != sig or tally.on_map != on_map
            or len(tally.dungeons) != ndungeons or state.defeated.count(True) != defeated
            or state.demon_hp != demon_hp):
        return False
    s_level = state.s_level
    grew = len(s_level) != len(levels)
    # new slots: with as many bases as before none of them is one (levels only rise)
    if (s_level[:len(levels)] if grew else s_level) != levels:
        return False
    if state.pool != pool:
        r_cost = state.setup.r_cost
        if _pool_masks(state.pool, p, r_cost) != _pool_masks(pool, p, r_cost):
            return False
    if grew and p.target is not None and not p.final:
        twin = Plan()
        twin.final, twin.target, twin.fighter = p.final, p.target, p.fighter
        _plan_boss(state, twin, tally)
        if twin.boss_dungeon != p.boss_dungeon or twin.boss_p != p.boss_p:
            return False
    return True


def _make_plan(state: Rules) -> Plan:
    setup = state.setup
    tally = map_tally(state)
    p = Plan()
    p.final = state.demon_hp is not None
    p.target = state.defeated.index(False) if False in state.defeated else None
    r_level = setup.r_level
    best = -1
    for s, gear in enumerate(state.equip):
        e = 0
        for r in gear:
            if r >= 0:
                e += r_level[r]
        if e > best:
            p.fighter, best = s, e
    level = state.s_level
    p.main = _top_base(level)
    have = tally.on_map  # resources held, or to be had on the map (bit mask)
    for x, k in enumerate(state.pool):
        if k > 0:
            have |= 1 << x
    tables = _tables(setup)
    p.gear = _gear_plan(tables, state, p.fighter, have)
    p.demand, p.imp = _needs(tables, state, p, have)
    p.dungeons = list(tally.dungeons)
    p.want = _biome_wants(tables, state, p, tally)
    p.edge_want = _edge_wants(p.want)
    _plan_boss(state, p, tally)
    return p


class _Tables:
    """Per-setup constants the planner reads at every plan (resource sets as bit masks)."""

    __slots__ = TABLES_SLOTS
    slot_recipes: list[list[tuple[int, int, int, int]]]
    facilities: list[tuple[int, int]]
    equipment: list[tuple[int, int, int, Cost, int]]
    biome_need: list[int]

    def __init__(self, setup):
        def mask(cost):
            return sum({1 << x for x, _ in cost})
        # per equipment slot, the active recipes for it in recipe order: (recipe, level, tier, needs)
        self.slot_recipes = [
            [(r, setup.r_level[r], setup.r_tier[r], mask(setup.r_cost[r])) for r in range(len(setup.r_id))
             if setup.r_slot[r] == slot and setup.r_active[r]]
            for slot in range(len(setup.slots))]
        self.facilities = [(r, mask(setup.r_cost[r])) for r in _facility_order(setup) if setup.r_active[r]]
        # the active equipment recipes in recipe order: (recipe, slot, level, cost, AP)
        self.equipment = [(r, setup.r_slot[r], setup.r_level[r], setup.r_cost[r], setup.r_ap[r])
                          for r in range(len(setup.r_id)) if setup.r_kind[r] == "equipment" and setup.r_active[r]]
        self.biome_need = [sum({1 << x for x in res}) for res in setup.biome_res]


def _tables(setup) -> _Tables:
    return kept_on_setup(setup, "_vh_tables", _Tables)


def _gear_plan(tables: _Tables, state: Rules, f: int, have: int) -> list[int]:
    """The next recipe per slot for the fighter: the best one whose resources can be had."""
    r_left, r_level, equip = state.r_left, state.setup.r_level, state.equip[f]
    plan = []
    for slot, recipes in enumerate(tables.slot_recipes):
        cur = equip[slot]
        cur_level = r_level[cur] if cur >= 0 else 0
        best: Optional[tuple[int, int, int, int]] = None
        fallback: Optional[tuple[int, int, int, int]] = None
        for rec in recipes:
            r, lv, tier, need = rec
            if lv <= cur_level or r_left[r] <= 0:
                continue
            if not need & ~have:
                if best is None or lv > best[1]:
                    best = rec
            elif fallback is None or tier < fallback[2]:
                fallback = rec
        if best is not None:
            plan.append(best[0])
        elif fallback is not None:
            plan.append(fallback[0])
    return plan


def _next_facility(tables: _Tables, state: Rules, have: int) -> int:
    r_left = state.r_left
    for r, need in tables.facilities:
        if r_left[r] > 0 and not need & ~have:
            return r
    return -1


def _needs(tables: _Tables, state: Rules, p: Plan, have: int) -> tuple[list[int], list[float]]:
    """(demand, importance) per resource: the fighter's next gear (also kept as ``p.gear_need``),
    the main base's next level, the next facility and a new base."""
    setup = state.setup
    r_cost = setup.r_cost
    nres = len(setup.res)
    demand = [0] * nres
    imp = [0.15] * nres
    for r in p.gear:
        for x, k in r_cost[r]:
            demand[x] += k
            imp[x] = 1.0
    p.gear_need = list(demand)  # what the fighter's next gear costs in all
    lv = state.s_level[p.main]
    if lv < setup.play.max_level and lv < len(setup.level_cost):
        for x, k in setup.level_cost[lv]:
            demand[x] += k
            if imp[x] < 0.8:
                imp[x] = 0.8
    fac = _next_facility(tables, state, have)
    if fac >= 0:
        for x, k in r_cost[fac]:
            demand[x] += k
            if imp[x] < 0.5:
                imp[x] = 0.5
    for x, k in setup.new_base_cost:
        demand[x] += k
        if imp[x] < 0.5:
            imp[x] = 0.5
    return demand, imp


def _biome_wants(tables: _Tables, state: Rules, p: Plan, tally: MapTally) -> list[float]:
    """What a new tile of each biome is worth."""
    setup = state.setup
    nb = len(setup.biomes)
    placed, dungeons, defeated = tally.placed, tally.biome_dungeons, state.defeated
    target = p.target if p.target is not None else nb - 1
    missing = 0  # resources the fighter's next gear lacks (bit mask)
    pool, r_cost = state.pool, setup.r_cost
    for r in p.gear:
        for x, k in r_cost[r]:
            if pool[x] < k:
                missing |= 1 << x
    biome_need = tables.biome_need
    want = [0.3] * nb
    for b in range(nb):
        near = b <= target + 1
        if near:
            want[b] = 1.0 if placed[b] < 4 else 0.5
        if placed[b] < 3 and missing & biome_need[b] and want[b] < 6.0:
            want[b] = 6.0
        if near and not defeated[b] and not dungeons[b]:
            v = 10.0 if b == target else 5.0
            if want[b] < v:
                want[b] = v
    return want


def _edge_wants(want: list[float]) -> list[float]:
    """What an edge into each biome is worth: the biome, or a step toward a wanted harder one
    (halved per step: the best of want[b] / 2 ** (b - eb) for b >= eb, folded from the hardest)."""
    edge_want = list(want)
    for b in range(len(want) - 2, -1, -1):
        ahead = edge_want[b + 1] * 0.5
        if ahead > edge_want[b]:
            edge_want[b] = ahead
    return edge_want


def _plan_boss(state: Rules, p: Plan, tally: MapTally) -> None:
    """The avatar hunt: the fighter's chance and the dungeon of the target biome nearest a base."""
    hand = state.hand_limit() - 1
    p.boss_dungeon = -1
    if p.final:
        p.boss_p = _chance(state, p.fighter, state.demon_str, hand)
        return
    if p.target is None:
        p.boss_p = 0.0
        return
    p.boss_p = _chance(state, p.fighter, state.avatar_strength(p.target), hand)
    cands = tally.biome_dungeons[p.target]
    if not cands:
        return
    # distances are symmetric: read them from the bases (cached, shared with the other
    # decisions) rather than searching from every candidate dungeon
    level = state.s_level
    base_dists: list[tuple[int, list[int]]] = []
    for b in state.bases():
        base_dists.append((level[b], state.dist(b)))
    best = 0
    for k in cands:
        # the hunt's AP beyond the walk from the best base (one card revealed by the fighter)
        reach = -INF
        for lv, db in base_dists:
            if lv - db[k] > reach:
                reach = lv - db[k]
        reach += 1
        if reach > best:
            p.boss_dungeon, best = k, reach


def pace_room(state: Rules, s: int, held: int) -> int:
    """How many of its ``held`` cards seat s may reveal and still refill its hand at the next briefing
    without a reshuffle, when s sets the round's pace: no marker yet and no player still without one
    holds a thicker deck and hand (the round ends when the last of them needs a reshuffle). INF when
    s does not set the pace or holding back cannot save the reshuffle (at least one card is revealed)."""
    if state.marker[s]:
        return INF
    pace = len(state.deck[s]) + held
    for x in range(state.n):
        if x != s and not state.marker[x] and len(state.deck[x]) + len(state.hand[x]) > pace:
            return INF
    room = pace - state.hand_limit()
    return room if room > 0 else INF


def _chance(state: Rules, s: int, strength: int, hand: int) -> float:
    """Exact chance that seat s beats ``strength`` holding ``hand`` cards (one die)."""
    setup = state.setup
    power = state.fac.p_boss + state.fac.p_all
    if setup.play.power_adds_hand:
        power += hand
    if setup.play.power_adds_equipment:
        power += state.equip_level(s)
    sides = setup.play.die_sides
    need = strength - power + (0 if setup.play.tie_wins else 1)
    chance = (sides - need + 1) / sides
    return 0.0 if chance < 0.0 else 1.0 if chance > 1.0 else chance  # clamped without min/max calls


def _top_base(level: list[int]) -> int:
    """The first of the highest bases: ``max(bases, key=(level, -slot))``, read from the levels
    (a slot that is no base has level -1 and there is always a base). A loop: compiled, ``max`` and
    ``index`` are generic calls comparing boxed ints."""
    best, top = 0, level[0]
    for k in range(1, len(level)):
        if level[k] > top:
            best, top = k, level[k]
    return best


def _weight(p: Plan, x: int, pool_x: int) -> float:
    """What one more token of resource x is worth now."""
    d = p.demand[x]
    if pool_x < d:
        return p.imp[x]
    return 0.15 if pool_x < d + 2 else 0.05


def _worths(p: Plan, pool: list[int]) -> list[float]:
    """``_weight`` of every resource at once (read at every gather and plan: one loop, no calls)."""
    out: list[float] = []
    for d, imp, k in zip(p.demand, p.imp, pool):
        out.append(imp if k < d else 0.15 if k < d + 2 else 0.05)
    return out


def _first_best(vals: list[float]) -> int:
    """``max(range(len(vals)), key=lambda x: (vals[x], -x))``, the first of the best, without a key function."""
    best = 0
    for x in range(1, len(vals)):
        if vals[x] > vals[best]:
            best = x
    return best


def _best_edge(edge_want: list[float], frontier: list[tuple[int, int, int, int]]) -> float:
    """``max(edge_want[pile] for each frontier edge, default=0.0)`` without a generator."""
    if not frontier:
        return 0.0
    best = edge_want[frontier[0][2]]
    for e in frontier:
        if edge_want[e[2]] > best:
            best = edge_want[e[2]]
    return best


def _best_reach(state: Rules, bases: list[int], goal: int, links: bool) -> int:
    """The base with the most level left after the walk to slot ``goal``, the first among equals:
    ``max(bases, key=(level - distance, -slot))``. Distances are symmetric: the goal's distance is
    read from each base's cached search."""
    level = state.s_level
    best, best_reach = -1, -INF - 1  # below any reach, even to a slot out of reach
    for k in bases:  # in slot order
        reach = level[k] - state.dist(k, links)[goal]
        if reach > best_reach:
            best, best_reach = k, reach
    return best


def _affords(pool: list[int], cost: Cost) -> bool:
    for x, k in cost:
        if pool[x] < k:
            return False
    return True


def _covers(pool: list[int], planned: list[int]) -> bool:
    """Every resource of ``pool`` at least as many as in ``planned``."""
    for k, x in zip(pool, planned):
        if k < x:
            return False
    return True


def _spares(pool: list[int], cost: Cost, p: Plan) -> bool:
    """Paying ``cost`` leaves the fighter's next gear affordable as far as the pool allowed it."""
    need = p.gear_need
    for x, k in cost:
        if need[x] and pool[x] - k < need[x]:
            return False
    return True


class GreedyAgent:
    """The spec §6 team planner: public information only."""

    name = "greedy"

    def __init__(self, setup, seat: int):
        self.setup, self.seat = setup, seat
        # the per-setup tables held, not looked up at each decision: kept_on_setup is a Python call
        self.tables, self.card_worths = _tables(setup), _card_worths(setup)

    def choose(self, state: Rules, rng):
        ph = state.phase
        if ph == P_COMMIT:
            return self.commit(state, rng)
        if ph == P_GATHER:
            return self.gather(state)
        if ph == P_BASE:
            return (BASE, self.pick_base(state))
        if ph == P_EXPLORE:
            return self.explore(state)
        if ph == P_TRAIN:
            return self.train(state, rng)
        if ph == P_HUNT:
            return self.hunt(state)
        if ph == P_CRAFT:
            return self.craft(state)
        if ph == P_LEVEL:
            return self.level(state)
        if ph == P_FIGHTER:
            return (FIGHTER, self.fighter(state))
        if ph == P_REROLL:
            return (REROLL, 1)
        if ph == P_ORDER:
            return self.order(state)
        if ph == P_PICK:
            return (PICK, self.pick_tile(state))
        if ph == P_PAY:
            return self.pay(state)
        return state.legal_actions()[-1]

    # ---- commit (hidden, simultaneous) ------------------------------------------------------------
    def action_values(self, state: Rules, p: Plan) -> list[float]:
        memo = state.memo
        key = ("vals", state.round_id, state.cycle)
        if memo.get("vals_key") == key:
            return memo["vals"]
        setup = state.setup
        vals = [0.0] * 5
        vals[EXPLORE] = _best_edge(p.edge_want, state.frontier())
        d0 = state.dist(p.main)
        worth = _worths(p, state.pool)
        best = 0.0
        t_rids, tiles = setup.t_rids, state.s_tile
        for k, tok in enumerate(state.s_tok):
            for r in t_rids[tiles[k]]:
                if tok[r] and worth[r] > 0.1:
                    v = worth[r] / (1 + d0[k])
                    if v > best:
                        best = v
        vals[GATHER] = best * 4
        vals[TRAIN] = 0.6 if any(c >= 0 for c in state.row) else 0.0  # a card in the row
        if p.final:
            vals[HUNT] = 10.0
        elif p.dungeons:
            vals[HUNT] = 3.0 if p.boss_p >= BOSS_HUNT_P and p.boss_dungeon >= 0 else 0.8
        vals[CRAFT] = 1.0
        memo["vals_key"], memo["vals"] = key, vals
        return vals

    def commit(self, state: Rules, rng):
        s = state.seat  # this agent's deck (solo: one person commits for both decks)
        p = plan_for(state)
        vals = self.action_values(state, p)
        fighter = p.fighter if vals[HUNT] >= 3.0 else None
        chosen = self.pick_cards(state, s, p, vals, list(state.hand[s]), fighter)
        if chosen:
            return (COMMIT, tuple(sorted(chosen)))
        hand = state.hand[s]
        if state.setup.rules["round.anti_stall_discard"] and hand:
            setup = state.setup
            c = min(hand, key=lambda c: (card_worth(setup, c), setup.c_id[c], c))
            return (REST, min(x for x in hand if setup.c_id[x] == setup.c_id[c]))
        return (COMMIT, ())

    def pick_cards(self, state: Rules, s: int, p: Plan, vals: list[float], hand: list[int],
                   fighter: Optional[int]) -> list[tuple[int, int]]:
        """The cards to reveal (``wanted_cards``), held back to what the deck can refill when this seat
        sets the round's pace (``pace_room``): the round ends when its last player runs dry, so the
        cards the pace setter keeps buy the whole team one more main phase (a 10-card deck and a hand of
        6 revealed in full last one cycle, not two)."""
        picks = self.wanted_cards(state, s, p, vals, hand, fighter)
        room = pace_room(state, s, len(hand))
        if room >= len(picks):
            return picks
        setup = state.setup
        dive = s == fighter  # the fighter's hunt card stays in: the dive is why it reveals
        worth = self.card_worths
        picks.sort(key=lambda x: (not (dive and x[1] == HUNT), -vals[x[1]] * worth[x[0]], x[0]))
        return _canonical(setup, hand, picks[:room])

    def wanted_cards(self, state: Rules, s: int, p: Plan, vals: list[float], hand: list[int],
                     fighter: Optional[int]) -> list[tuple[int, int]]:
        """Reveal every card with a use. On an avatar hunt (``fighter`` is not None) the others keep
        their hunt cards, and the fighter reveals one hunt card and keeps just enough cards in hand to
        reach a good chance (power counts the unrevealed hand); a fighter without a hunt card plays
        as usual."""
        setup = state.setup
        act = setup.c_action
        named: list[tuple[int, int]] = []
        for c in sorted(hand):
            a = act[c]
            if a == WILD:
                a = _first_best(vals)
            named.append((c, a))
        if fighter is None or (p.final and s != fighter):
            return named
        if s != fighter:
            # the avatar appears on a rare card: leave the fights to the fighter, keep hunt cards
            return [x for x in named if x[1] != HUNT]
        hunts = [x for x in named if x[1] == HUNT]
        if not hunts:
            wild = [c for c, _ in named if act[c] == WILD]
            if not wild:
                return named
            hunts = [(wild[0], HUNT)]
        keep = self.cards_to_keep(state, s, p, len(hand))
        rest = [x for x in named if x[1] != HUNT and x[0] != hunts[0][0]]
        worth = self.card_worths
        rest.sort(key=lambda x: (-vals[x[1]] * worth[x[0]], x[0]))
        play = hunts[:1]
        others = hunts[1:] + rest
        room = len(hand) - len(play) - keep
        play += others[:max(0, room)]
        # of identical cards reveal the lowest instances (the canonical commit)
        return _canonical(setup, hand, play)

    def cards_to_keep(self, state: Rules, s: int, p: Plan, size: int) -> int:
        strength = state.demon_str if p.final else state.avatar_strength(p.target)  # type: ignore[arg-type]
        for keep in range(size):
            if _chance(state, s, strength, keep) >= KEEP_FOR_P:
                return keep
        return max(0, size - 1)

    # ---- bases ----------------------------------------------------------------------------------
    def pick_base(self, state: Rules) -> int:
        a = state.act
        bases = state.bases()
        level = state.s_level
        p = plan_for(state)
        if a in (TRAIN, CRAFT):
            return _top_base(level)
        if a == HUNT:
            goal = p.boss_dungeon if p.boss_dungeon >= 0 and p.boss_p >= BOSS_HUNT_P else self.nearest_dungeon(state, p)
            if goal < 0 or (p.final and state.setup.rules["final_battle.skip_dungeon_distance"]):
                return _top_base(level)
            return _best_reach(state, bases, goal, True)
        if a == EXPLORE:
            edge_slot = self.best_frontier(state, p)  # (not goal: an int above, to a compiled build)
            if edge_slot is None:
                return _top_base(level)
            return _best_reach(state, bases, edge_slot, False)
        return self.gather_base(state, p, bases)

    def gather_base(self, state: Rules, p: Plan, bases: list[int]) -> int:
        """The base whose level and distances give the most wanted tokens: from each base, the
        tokens within its AP taken best worth per AP first (dearer first among equals)."""
        level = state.s_level
        worth = _worths(p, state.pool)
        t_rids, tiles = state.setup.t_rids, state.s_tile
        slots: list[int] = []  # per token (a resource of a slot with tokens worth taking): its slot, count, worth
        counts: list[int] = []
        worths: list[float] = []
        for k, tok in enumerate(state.s_tok):
            for r in t_rids[tiles[k]]:
                if tok[r] and worth[r] > 0.1:
                    slots.append(k)
                    counts.append(tok[r])
                    worths.append(worth[r])
        # the tokens worst worth first: a cost's tokens listed in this order end with its best worth per AP
        by_worth = sorted(range(len(worths)), key=worths.__getitem__)
        cards = state.n_act[GATHER]
        best, best_score = bases[0], -1.0
        for b in bases:
            d = state.dist(b)
            ap = level[b] + cards
            by_cost: list[list[int]] = [[] for _ in range(ap + 1)]  # per cost within the AP, its tokens
            for i in by_worth:
                c = d[slots[i]] + 1
                if c <= ap:  # a token costing more than all the AP is never taken
                    by_cost[c].append(i)
            score = 0.01 * level[b]
            # taken best worth per AP first, the dearer among equals: the order of sorting the tokens by
            # (-worth per AP, -cost), picked from the ends of the cost lists (~2.6 picks a base; no sort of
            # tuples). Equal worth per AP and cost means equal worth: their order leaves the score as it was
            while ap:
                pick, pick_ratio = 0, 0.0
                for c in range(1, ap + 1):  # a cost above the AP left is out of reach for good
                    if by_cost[c]:
                        ratio = worths[by_cost[c][-1]] / c
                        if ratio >= pick_ratio:
                            pick, pick_ratio = c, ratio
                if not pick:
                    break
                i = by_cost[pick].pop()
                take = ap // pick
                if take > counts[i]:
                    take = counts[i]
                w = worths[i]
                for _ in range(take):  # token by token: the same sum of floats
                    score += w
                ap -= pick * take
            if score > best_score:
                best, best_score = b, score
        return best

    def nearest_dungeon(self, state: Rules, p: Plan) -> int:
        d = state.dist(p.main)
        best = -1  # min(dungeons, key=(distance, slot)) as a loop
        for k in p.dungeons:
            if best < 0 or d[k] < d[best] or (d[k] == d[best] and k < best):
                best = k
        return best

    # ---- explore ----------------------------------------------------------------------------------
    def best_frontier(self, state: Rules, p: Plan) -> Optional[int]:
        best, best_score = None, 0.0
        want = p.edge_want
        for k, d, b, cost in state.frontier():
            score = want[b] - 0.05 * cost
            if score > best_score:
                best, best_score = k, score
        return best

    def explore(self, state: Rules):
        """Walk to the most wanted affordable edge and open it; the walk is planned once per edge."""
        memo = state.memo
        key = (state.round_id, state.cycle, state.ap, state.walker, len(state.s_tile))
        queue = memo.get("walk")
        if queue and memo.get("walk_key") == key:
            step = queue.pop()
            memo["walk_key"] = step[1]
            return step[0]
        p = plan_for(state)
        want = p.edge_want
        ap = state.ap
        w = state.walker
        dw = state.dist(w, False)
        mc = state.setup.play.move_cost
        free = state.free
        edisc = state.mods.edisc
        best: Optional[tuple[int, int]] = None
        best_score = EXPLORE_MIN
        for k, d, b, cost in state.frontier():
            dk = dw[k]
            if dk >= INF:
                continue
            walk = dk * mc - free
            edge = cost - edisc
            total = (walk if walk > 0 else 0) + (edge if edge > 1 else 1)
            if total <= ap:
                score = want[b] - 0.05 * total
                if score > best_score:
                    best, best_score = (k, d), score
        if best is None:
            return _DONE
        k, d = best
        if k == w:
            return (OPEN, d)
        # the path from the walker to k, as MOVE steps, then the OPEN
        to_k = state.dist(k, False)
        grid, pos = state.grid, state.s_pos
        steps: list[tuple] = []
        at = w
        while at != k:
            x, y = pos[at]
            nxt = None
            for dx, dy in STEP:
                j = grid.get((x + dx, y + dy))
                if j is not None and to_k[j] < to_k[at] and (nxt is None or j < nxt):
                    nxt = j
            if nxt is None:
                return _DONE
            spent = min(free, mc)
            free -= spent
            ap -= mc - spent
            steps.append(((MOVE, nxt), (state.round_id, state.cycle, ap, nxt, len(state.s_tile))))
            at = nxt
        steps.append(((OPEN, d), None))
        steps.reverse()
        step = steps.pop()
        memo["walk"], memo["walk_key"] = steps, step[1]
        return step[0]

    def pick_tile(self, state: Rules) -> int:
        p = plan_for(state)
        setup = state.setup
        scores = []
        for i, t in enumerate(state.drawn):
            b = setup.t_biome[t]
            score = sum(_weight(p, r, state.pool[r]) * n for r, n in setup.t_res[t])
            if setup.t_dungeon[t] and not state.defeated[b]:
                score += p.want[b]
            scores.append((score, -i))
        return -max(scores)[1]

    # ---- gather (planned in one pass, replayed step by step) ---------------------------------------
    def gather(self, state: Rules):
        memo = state.memo
        key = (state.round_id, state.cycle, state.ap, state.free)
        if memo.get("gather_key") == key:
            queue = memo["gather"]
            if queue:
                step = queue.pop()
                memo["gather_key"] = step[1]
                return step[0]
            if _covers(state.pool, memo["gather_pool"]):
                # the plan ran to its end and play followed it: planning again from here would
                # find nothing worth taking. Extra yields (the only way the pool can outgrow the
                # plan's) only lower what a token is worth, and the AP, free steps and tokens on
                # the map are the plan's own, so this holds with them too (~5 plans a game)
                return _DONE
        queue, memo["gather_pool"] = self.plan_gather(state)
        if not queue:
            return _DONE
        step = queue.pop()
        memo["gather"], memo["gather_key"] = queue, step[1]
        return step[0]

    def plan_gather(self, state: Rules) -> tuple[list, list]:
        """The takes worth making, last first, and the pool they would leave."""
        p = plan_for(state)
        setup = state.setup
        d = state.dist(state.base)
        gate, t_biome, t_rids, tiles = setup.gate, setup.t_biome, setup.t_rids, state.s_tile
        level = state.s_level[state.base]
        base_cost = setup.play.gather_cost
        gdisc = state.mods.gdisc
        ap, free = state.ap, state.free
        pool = list(state.pool)
        worth = _worths(p, pool)  # one more token of each resource, now
        # [cost, resource, count, slot, dist] in slot order (ties go to the first); a token scoring
        # no more than GATHER_MIN never will (costs only rise, worth only falls as the pool grows)
        tokens: list[list[int]] = []
        no_tokens = [0] * len(pool)  # ``tok != no_tokens``: ``any(tok)``, a call a compiled build makes generic
        for k, (tok, t, dist) in enumerate(zip(state.s_tok, tiles, d)):
            if tok != no_tokens and gate[t_biome[t]] <= level:
                # min(raw, max(1, raw - gdisc)) without the calls (~28 slots a plan, each pass again)
                raw = (dist - free if dist > free else 0) + base_cost
                cost = raw - gdisc if raw - gdisc > 1 else 1
                if cost > raw:
                    cost = raw
                if cost > ap and not free:
                    continue
                for r in t_rids[t]:
                    if tok[r] and (worth[r] / cost if cost else worth[r] * 2) > GATHER_MIN:
                        tokens.append([cost, r, tok[r], k, dist])
        steps = []
        key = (state.round_id, state.cycle)
        while tokens:
            best: Optional[list[int]] = None
            best_score = GATHER_MIN
            live: list[list[int]] = []
            for tk in tokens:
                cost = tk[0]
                if cost > ap or not tk[2]:
                    continue  # for good: AP only fall, costs only rise (free steps get spent)
                w = worth[tk[1]]
                score = w / cost if cost > 0.5 else w * 2
                if score <= GATHER_MIN:
                    continue  # for good too (see above)
                live.append(tk)
                if score > best_score:
                    best, best_score = tk, score
            if best is None:
                break
            tokens = live
            ap -= best[0]
            if free:
                free -= gather_waive(best[4], free, base_cost, gdisc)[1]
                for tk in tokens:  # waived steps are spent: the rest cost their full distance again
                    raw = (tk[4] - free if tk[4] > free else 0) + base_cost
                    cost = raw - gdisc if raw - gdisc > 1 else 1
                    tk[0] = cost if cost < raw else raw
            best[2] -= 1
            r = best[1]
            pool[r] += 1
            worth[r] = _weight(p, r, pool[r])
            steps.append(((TAKE, best[3], r), key + (ap, free)))
        steps.reverse()
        return steps, pool

    # ---- train ------------------------------------------------------------------------------------
    def train(self, state: Rules, rng):
        setup = state.setup
        who = state.train_revealers()
        ap = state.ap
        p = plan_for(state)
        sizes = [0] * state.n  # the revealers' decks
        # who takes a card: the thinnest deck below DECK_MAX, the fighter's last, the first seat among equals
        # (min by (is the fighter, size, seat) compared field by field: no key tuples)
        buyer, buyer_last, buyer_size = -1, False, 0
        for s in who:
            size = sizes[s] = len(state.deck[s]) + len(state.hand[s]) + len(state.discard[s]) + len(state.played[s])
            last = s == p.fighter
            if size < DECK_MAX and (buyer < 0 or last < buyer_last or (last == buyer_last and (
                    size < buyer_size or (size == buyer_size and s < buyer)))):
                buyer, buyer_last, buyer_size = s, last, size
        options = []
        top = 0.0
        if buyer >= 0:
            c_cost, mdisc = setup.c_cost, state.mods.mdisc
            worth = self.card_worths
            for i, c in enumerate(state.row):
                if c >= 0:
                    cost = c_cost[c] - mdisc  # state.buy_cost, inlined
                    if cost < 1:
                        cost = 1
                    if cost <= ap:
                        value = worth[c] / cost
                        if value >= BUY_MIN:
                            options.append((value, i, buyer))
                            if value > top:
                                top = value
        if options:
            near = [o for o in options if o[0] >= NEAR_BEST * top]
            pick = near[int(rng.random() * len(near))]
            return (BUY, pick[1], pick[2])
        cost = 0 if state.trash_left else setup.play.remove_cost
        if cost <= ap:
            for s in who:
                if sizes[s] > TRASH_ABOVE:
                    # the first basic card of the least worth action, the lowest id among equals: min() by
                    # (action worth, id) as a loop (the first such card is the first of its id in the discard)
                    c, c_worth, c_id = -1, 0.0, ""
                    for x in state.discard[s]:
                        if setup.c_tier[x] < 0:
                            worth_x, id_x = _ACTION_WORTH[setup.c_action[x]], setup.c_id[x]
                            if c < 0 or worth_x < c_worth or (worth_x == c_worth and id_x < c_id):
                                c, c_worth, c_id = x, worth_x, id_x
                    if c >= 0:
                        return (TRASH, s, c)
        if setup.rules["inheritance.mode"] == "carry_by_train":
            for a in state.legal_actions():
                if a[0] == KEEP:
                    return a
        return _DONE

    # ---- hunt -------------------------------------------------------------------------------------
    def hunt(self, state: Rules):
        options = state.dungeon_options()
        if not options:
            return _DONE
        setup = state.setup
        d = state.dist(state.base)
        best, best_score = None, -1.0
        hunters = state.hunters()
        for k in options:
            left = state.ap - (d[k] - state.free if d[k] > state.free else 0)
            if left <= 0:
                continue
            b = setup.t_biome[state.s_tile[k]]
            bonus = 0.0
            if not state.defeated[b]:
                best_chance = 0.0  # max() of the hunters' chances (never below 0), as a loop
                for s in hunters:
                    chance = _chance(state, s, state.avatar_strength(b), len(state.hand[s]))
                    if chance > best_chance:
                        best_chance = chance
                bonus = 3.0 * best_chance
            score = left * (1.0 + bonus)
            if score > best_score:
                best, best_score = k, score
        return (DUNGEON, best) if best is not None else _DONE

    def fighter(self, state: Rules) -> int:
        """The hunter with the best odds against the card face up (public: it is shown before the
        fighter is chosen); among equal odds the weakest, so that the strongest may take the next
        card (nobody fights twice in a row)."""
        if state.foe is not None:
            strength, vs = state.foe[0], state.foe[1]
        else:  # the final battle: the demon lord
            strength, vs = state.demon_str, "boss"
        level = state.s_level[state.base]
        # max(eligible, key=(odds, -power, -seat)) as a loop: compiled, a key function is a generic call
        best, best_odds, best_power = -1, 0.0, 0
        for s in state.eligible():
            odds, power = state.win_prob(s, strength, vs, level), state.power(s, vs, level)
            if best < 0 or odds > best_odds or (odds == best_odds and (power < best_power
                                                                       or (power == best_power and s < best))):
                best, best_odds, best_power = s, odds, power
        return best

    def order(self, state: Rules):
        setup = state.setup
        k = min(state.mods.peek, len(state.edeck))
        top = state.edeck[-k:][::-1]
        b = setup.t_biome[state.s_tile[state.dungeon]] if state.dungeon >= 0 else None
        who = state.eligible()
        power = max(state.power(s, "boss") for s in who) if who else 0
        r = min(state.round_id, setup.play.rounds) - 1

        def key(e):
            if setup.e_boss[e]:
                if b is not None and not state.defeated[b] and power + 3.5 >= state.avatar_strength(b):
                    return (0, 0, e)
                return (2, 0, e)
            return (1, setup.e_strength[e][r], e)
        return (ORDER, tuple(sorted(top, key=key)))

    # ---- craft ------------------------------------------------------------------------------------
    def craft(self, state: Rules):
        setup = state.setup
        p = plan_for(state)
        ap = state.ap
        f = p.fighter
        pool, r_left, equip, r_level = state.pool, state.r_left, state.equip, setup.r_level
        disc = state.mods.cd_equip
        best, best_gain = None, 0
        seats = [f] + [s for s in range(state.n) if s != f]  # the fighter first
        for r, slot, lv, cost, r_ap in self.tables.equipment:
            if r_left[r] <= 0 or (r_ap - disc if r_ap > disc else 0) > ap or not _affords(pool, cost):
                continue
            for s in seats:
                cur = equip[s][slot]
                gain = lv - (r_level[cur] if cur >= 0 else 0)
                if gain > 0:
                    weight = gain * (3 if s == f else 1)
                    if weight > best_gain:
                        best, best_gain = (MAKE, r, s), weight
                    break
        if best is not None:
            return best
        disc = state.mods.cd_fac
        for r, _ in self.tables.facilities:
            cost = setup.r_cost[r]
            if r_left[r] > 0 and max(0, setup.r_ap[r] - disc) <= ap and _affords(pool, cost) and _spares(pool, cost, p):
                return (MAKE, r, -1)
        spot = self.base_spot(state, p)
        if spot is not None:
            return (NEWBASE, spot)
        return _DONE

    def base_spot(self, state: Rules, p: Plan):
        """A tile for a forward base: the target dungeon or a wanted resource tile 3+ steps away."""
        setup = state.setup
        bases = state.bases()
        pool = state.pool
        cost = setup.new_base_cost
        if len(bases) >= setup.play.max_bases or not _affords(pool, cost) or not _spares(pool, cost, p):
            return None
        d = state.dist(state.base)
        dists = [state.dist(b) for b in bases]
        worth = None  # of a biome's tokens, worked out for the first slot far enough
        level, free, ap = state.s_level, state.free, state.ap
        t_biome, t_dungeon, defeated = setup.t_biome, setup.t_dungeon, state.defeated
        best, best_score = None, 0.0
        for k, t in enumerate(state.s_tile):
            # the action's own base is one of the bases: a slot under 3 steps from it is too near
            if level[k] >= 0 or d[k] < 3 or (d[k] - free if d[k] > free else 0) > ap:
                continue
            near = INF
            for x in dists:
                if x[k] < near:
                    near = x[k]
            if near < 3:
                continue
            if worth is None:
                worth = [sum(_weight(p, r, pool[r]) for r in res) for res in setup.biome_res]
            b = t_biome[t]
            score = near * 0.5
            if t_dungeon[t] and not defeated[b]:
                score += 4.0 if b == p.target else 1.0
            score += worth[b]
            if score > best_score:
                best, best_score = k, score
        return best

    # ---- round end ----------------------------------------------------------------------------------
    def level(self, state: Rules):
        p = plan_for(state)
        options = state.level_options()
        if not options:
            return _DONE
        if p.main in options:
            return (LEVEL, p.main)  # the main base first, whatever the level costs
        for k in sorted(options, key=lambda k: (-state.s_level[k], k)):
            if _spares(state.pool, state.level_cost(k)[0], p):
                return (LEVEL, k)
        return _DONE

    def pay(self, state: Rules):
        s, c, q = state.pays[0]
        p = plan_for(state)
        pool = state.pool
        worth = 0.0
        for op, x in q["then"]:
            if op == "gain":
                worth += sum(_weight(p, r, pool[r]) * k for r, k in x["resources"])
            elif op == "power":
                if state.n_act[HUNT] and (x["vs"] != "boss" or p.boss_p >= BOSS_HUNT_P or p.final):
                    worth += 2.0
            else:
                worth += 0.5
        price = sum(_weight(p, r, pool[r] - k + 1) * k for r, k in q["cost"])
        return (PAY, c, 1 if worth > price else 0)


class OracleAgent(GreedyAgent):
    """The same planner committing for the whole team with every hand visible (spec §6 "oracle": an
    upper bound on what pre-coordination would be worth).

    What it reads beyond the public state: every player's hand (what the team would share by naming
    cards at the table, which G21 forbids). It never reads a future chance outcome: not the order of
    any deck (the enemy deck is read as its contents, the share of "boss appears" cards still in it,
    which the face-up discards make public), not a die. Every other decision is the planner's.

    The joint commit is a small search over the team's reveals of the avatar dive: the planner's
    fighter reveals one hunt card and keeps just enough cards, as the planner has it; on top of the
    planner's commit, any set of the other players who hold a hunt card may reveal it too — doubling
    the hunt's AP, so more enemy cards are drawn and the avatar is more likely to appear — where
    independent planners keep their hunt cards, not knowing who holds one. The set that maximises the
    chance to beat the avatar in this hunt wins (the fighters take the draws in turn; each
    fighter's chance is exact from hand kept + gear + d6). Only players whose extra reveal cannot shorten
    the round may join: one who has already taken a marker, or one whose deck and hand are not the
    thickest of those still without one (the round ends when the last player runs out of cards:
    revealing the pace setter's kept card costs the team a cycle, which measured dearer than the
    extra fights).

    Tried and measured worse than the planner (paired, same seeds): handing the dive to a stand-in
    when the fighter holds no hunt card (the previous oracle; 2 players -7 points), or to whichever
    holder has the best chance (2 players -3): the stand-in keeps cards that the planner plays, and at
    2 players a kept card also loses its action's doubling; nor when the stand-in is allowed only
    where no action loses its doubling (2 players -6, 4 players +10 against +6 here).
    """

    name = "oracle"

    def commit(self, state: Rules, rng):
        chosen = self.team_commit(state)[state.seat]
        if chosen:
            return (COMMIT, tuple(sorted(chosen)))
        return super().commit(state, rng)  # nothing to reveal: the planner's rest

    def team_commit(self, state: Rules) -> list:
        """Every seat's reveal for this cycle, chosen once (the first seat to commit) and shared."""
        memo = state.memo
        key = (state.round_id, state.cycle)
        if memo.get("team_key") == key:
            return memo["team"]
        p = plan_for(state)
        vals = self.action_values(state, p)
        hands = [list(h) for h in state.hand]
        fighter = p.fighter if vals[HUNT] >= 3.0 else None
        team = [self.pick_cards(state, s, p, vals, hands[s], fighter) for s in range(state.n)]
        if fighter is not None and not p.final and p.boss_dungeon >= 0:
            team = self.dive_team(state, p, vals, team, hands)
        memo["team_key"], memo["team"] = key, team
        return team

    def dive_team(self, state: Rules, p: Plan, vals, team, hands) -> list:
        """The planner's commits ``team`` with the helpers that give the best chance to beat the avatar."""
        setup = state.setup
        act, weight = setup.c_action, setup.c_weight
        f = p.fighter
        if not any(a == HUNT for _, a in team[f]):
            return team  # the fighter holds no hunt card: no dive this cycle (as the planner)
        helpers = [x for x in range(state.n) if x != f and self.free_to_help(state, x, hands)
                   and any(act[c] in (HUNT, WILD) for c in hands[x]) and not any(a == HUNT for _, a in team[x])]
        if not helpers:
            return team
        strength = state.avatar_strength(p.target)  # type: ignore[arg-type]
        level = state.s_level
        reach = max(level[b] - state.dist(b)[p.boss_dungeon] for b in state.bases())
        deck = state.edeck or state.ediscard
        q = sum(1 for e in deck if setup.e_boss[e]) / len(deck) if deck else 0.0
        rules = setup.rules
        mult, group = rules["ap.group_multiplier"], rules["ap.group_min_players"]
        best, best_key = team, None
        for mask in range(1 << len(helpers)):
            joined = [x for i, x in enumerate(helpers) if mask >> i & 1]
            trial = list(team)
            for h in joined:
                trial[h] = self.helper_cards(state, h, p, vals, hands[h])
            cards, revealers = 0, 0
            for s in range(state.n):
                k = sum(weight[c] for c, a in trial[s] if a == HUNT)
                if k:
                    cards, revealers = cards + k, revealers + 1
            ap = cards * (mult if revealers >= group else 1) + reach
            order = [f] + joined
            miss = 1.0
            for i in range(max(0, ap)):
                x = order[i % len(order)]
                miss *= 1.0 - q * _chance(state, x, strength, len(hands[x]) - len(trial[x]))
            key = (round(1.0 - miss, 9), -len(joined), -mask)
            if best_key is None or key > best_key:
                best, best_key = trial, key
        return best

    def free_to_help(self, state: Rules, h, hands) -> bool:
        """Revealing one more card cannot end the round sooner: h has taken its marker, or another
        player still without one has a thicker deck and hand."""
        if state.marker[h]:
            return True
        pace = len(state.deck[h]) + len(hands[h])
        return any(not state.marker[x] and len(state.deck[x]) + len(hands[x]) > pace
                   for x in range(state.n) if x != h)

    def helper_cards(self, state: Rules, s: int, p: Plan, vals, hand) -> list[tuple]:
        """A helper's commit: every card with a use, its hunt card among them (a wild card named
        hunt if it holds no hunt card)."""
        named = self.pick_cards(state, s, p, vals, hand, None)
        if any(a == HUNT for _, a in named):
            return named
        act = state.setup.c_action
        for i, (c, a) in enumerate(named):
            if act[c] == WILD:
                named[i] = (c, HUNT)
                return _canonical(state.setup, hand, named)
        return named


def _canonical(setup, hand, picks) -> list[tuple]:
    """The same choice in the listed form: of identical cards the lowest instances, wild names
    ascending."""
    c_id = setup.c_id
    by_id: dict = {}
    for c, a in picks:
        by_id.setdefault(c_id[c], []).append(a)
    out: list[tuple] = []
    for cid, acts in by_id.items():
        mine = sorted(c for c in hand if c_id[c] == cid)
        out.extend(zip(mine, sorted(acts)))
    return sorted(out)


AGENTS = {"greedy": GreedyAgent, "oracle": OracleAgent}
