"""Valheim: what a finished game says — the per-game record (from the event log only),
invariants, static checks (M8), the readable trace and content variants for card-impact runs.
"""
from __future__ import annotations

from collections import Counter

from .valheim_rules import (BASE, BUY, COMMIT, DONE, DUNGEON, FIGHTER, KEEP, LEVEL, MAKE, MOVE, NEWBASE, OPEN,
                            ORDER, PAY, PICK, REROLL, REST, TAKE, TRASH)
from .valheim_setup import DIRS
from ..variants import with_record_changed, without_effect


# ---- per-game record ---------------------------------------------------------------------------

def summarize(state) -> dict:
    """Everything the metrics need, computed from ``state.log``."""
    setup = state.setup
    rules = setup.rules
    last = rules["rounds"]
    top = len(setup.biomes) - 1
    c_id = setup.c_id
    nres = len(setup.res)
    exposures, uses = set(), set()
    tiers_bought = set()
    gained, spent = [0] * nres, [0] * nres
    revealed = [0] * 5
    cycles, avatars = [], []
    crafts = set()
    cap = ap_total = ap_waste = resolutions = doubled = 0
    fights = fights_won = boss_fights = boss_wins = demon_fights = demon_wins = hand_sum = hand_n = 0
    top_met, top_tile_round, pile_out = False, None, False
    tiles = bases = trashed = bought = 0
    current = 1
    group = rules["ap.group_min_players"]
    t_biome = setup.t_biome
    for ev in state.log:
        kind = ev[0]
        if kind == "gather":
            gained[ev[2]] += 1 + ev[4]
        elif kind == "ap":
            resolutions += 1
            ap_total += ev[3]
            doubled += ev[5] >= group
        elif kind == "waste":
            ap_waste += ev[2]
        elif kind == "reveal":
            for _, a in ev[2]:
                revealed[a] += 1
        elif kind == "fight":
            hand_sum += ev[8]
            hand_n += 1
            if ev[2] == "enemy":
                fights += 1
                fights_won += ev[7]
            elif ev[2] == "boss":
                boss_fights += 1
                boss_wins += ev[7]
                if ev[9] == top:
                    top_met = True
            else:
                demon_fights += 1
                demon_wins += ev[7]
        elif kind == "spend":
            spent[ev[1]] += ev[2]
        elif kind in ("gain", "reward"):
            gained[ev[1]] += ev[2]
        elif kind == "round":
            current = ev[1]
        elif kind == "round_end":
            cycles.append(ev[2])
        elif kind == "cap":
            cap += 1
        elif kind == "offer":
            exposures.add(c_id[ev[1]])
        elif kind == "buy":
            uses.add(c_id[ev[1]])
            tiers_bought.add(setup.c_tier[ev[1]])
            bought += 1
        elif kind == "make":
            crafts.add(setup.r_id[ev[1]])
        elif kind == "avatar":
            avatars.append((ev[1], ev[2]))
        elif kind == "tile":
            tiles += 1
            if t_biome[ev[2]] == top and top_tile_round is None:
                top_tile_round = current
        elif kind == "pile_out":
            pile_out = True
        elif kind == "newbase":
            bases += 1
        elif kind == "trash":
            trashed += 1
    won = state.outcome == "win"
    exposures |= uses
    return {
        "outcome": state.outcome,
        "rounds": state.round_id,
        "stage_rounds": cycles,            # the core's "rounds per stage": here cycles per round
        "cycles": cycles,
        "cap_rounds": cap,
        "exposures": {c: 1 for c in exposures},
        "uses": {c: 1 for c in uses},
        "stage": len(avatars),            # progress shown by `pnp simulate --game`: avatars defeated
        "avatars": len(avatars),
        "avatars_in_time": sum(1 for _, r in avatars if r <= last),
        "win_path": ("demon" if state.demon_hp is not None else "avatars") if won else None,
        "top_met": top_met,
        "top_tile_round": top_tile_round,
        "gained": gained,
        "spent": spent,
        "left": list(state.pool),
        "tiers_bought": sorted(tiers_bought),
        "crafts": sorted(crafts),
        "revealed": revealed,
        "ap_total": ap_total,
        "ap_waste": ap_waste,
        "resolutions": resolutions,
        "doubled": doubled,
        "pile_out": pile_out,
        "fights": fights,
        "fights_won": fights_won,
        "boss_fights": boss_fights,
        "boss_wins": boss_wins,
        "demon_fights": demon_fights,
        "demon_wins": demon_wins,
        "fight_hand_sum": hand_sum,
        "fight_hand_n": hand_n,
        "tiles": tiles,
        "new_bases": bases,
        "bought": bought,
        "trashed": trashed,
        "max_level": max(state.s_level),
    }


# ---- invariants (M0) ---------------------------------------------------------------------------

def check_invariants(state) -> list[str]:
    setup, out = state.setup, []
    seen: Counter = Counter()
    for s in range(state.n):
        seen.update(state.deck[s])
        seen.update(state.hand[s])
        seen.update(state.discard[s])
        seen.update(c for c, _ in state.played[s])
    seen.update(state.exiled)
    seen.update(c for c in state.row if c >= 0)
    for pile in state.mpiles:
        seen.update(pile)
    seen.update(state.mout)
    expected = [c for s in range(state.n) for c in setup.sets[s]] + [c for tier in setup.market for c in tier]
    dup = sorted(setup.c_id[c] for c, k in seen.items() if k > 1)
    if dup:
        out.append(f"cards in two places at once: {dup}")
    missing = sorted(setup.c_id[c] for c in set(expected) - set(seen))
    if missing:
        out.append(f"cards lost: {missing}")
    extra = sorted(setup.c_id[c] for c in set(seen) - set(expected))
    if extra:
        out.append(f"cards that should not be in play: {extra}")
    enemies = Counter(state.edeck + state.ediscard)
    if state.pending is not None and state.pending[0][0] != "demon":
        enemies[state.pending[0][1]] += 1
    if state.foe is not None:  # drawn and face up, waiting for a fighter
        enemies[state.foe[2][1]] += 1
    if any(k > 1 for k in enemies.values()) or set(enemies) != set(range(len(setup.e_id))):
        out.append("enemy cards lost or duplicated")
    tiles = Counter(state.s_tile + [t for p in state.piles for t in p] + list(state.drawn))
    if any(k > 1 for k in tiles.values()) or set(tiles) != set(range(len(setup.t_id))):
        out.append("map tiles lost or duplicated")
    if len(set(state.s_pos)) != len(state.s_pos) or len(state.grid) != len(state.s_pos):
        out.append("two map tiles on one cell")
    if state.bases() != [k for k, lv in enumerate(state.s_level) if lv >= 0]:
        out.append("the list of bases is out of date")
    nres = len(setup.res)
    for r in range(nres):
        on_map = sum(tok[r] for tok in state.s_tok)
        if state.pool[r] < 0 or on_map < 0 or min(tok[r] for tok in state.s_tok) < 0:
            out.append(f"negative {setup.res[r]}")
        if not state.unlimited:
            if state.supply[r] < 0:
                out.append(f"negative supply of {setup.res[r]}")
            if state.supply[r] + state.pool[r] + on_map != setup.supply[r]:
                out.append(f"{setup.res[r]} tokens not conserved: supply {state.supply[r]} + pool {state.pool[r]} "
                           f"+ map {on_map} != {setup.supply[r]}")
    for r in range(len(setup.r_id)):
        worn = sum(1 for s in range(state.n) for x in state.equip[s] if x == r)
        built = state.facilities.count(r)
        if state.r_left[r] < 0:
            out.append(f"more {setup.r_id[r]} crafted than printed")
        if setup.rules["craft.replaced_equipment"] == "supply" and state.r_left[r] + worn + built != setup.r_copies[r]:
            out.append(f"craft cards {setup.r_id[r]} not conserved")
    top = setup.rules["bases.max_level"]
    if any(lv > top for lv in state.s_level):
        out.append("a base above the maximum level")
    if sum(1 for lv in state.s_level if lv >= 0) > setup.rules["craft.max_bases"]:
        out.append("more bases than base markers")
    if state.ap < 0 or not 0 <= state.markers_left <= state.n:
        out.append(f"negative AP or markers (AP {state.ap}, markers {state.markers_left})")
    if state.demon_hp is not None and state.demon_hp < 0:
        out.append("negative demon lord HP")
    return out


# ---- static checks (M8) ------------------------------------------------------------------------

def static_checks(setup, players: int) -> list[str]:
    """Setups no play can win, found without playing."""
    out = []
    names = setup.biomes
    reach, todo = set(), [e[0] for e in setup.t_edges[setup.start_tile] if e]
    while todo:
        b = todo.pop()
        if b in reach:
            continue
        reach.add(b)
        for t in setup.piles[b]:
            todo.extend(e[0] for e in setup.t_edges[t] if e)
    for b, name in enumerate(names):
        if b not in reach and b != setup.t_biome[setup.start_tile]:
            out.append(f"biome {name} cannot be reached through the printed edges from the start tile")
        if not any(setup.t_dungeon[t] for t in setup.piles[b]):
            out.append(f"biome {name} has no dungeon tile: its avatar can never appear")
    for res in setup.res:
        if not setup.sources.get(res):
            out.append(f"resource {res} has no source (no tile, enemy reward or gain effect yields it)")
        if not setup.sinks.get(res):
            out.append(f"resource {res} is never spent (no level step, recipe, base or pay effect uses it)")
    best = [0] * len(setup.slots)
    for r in range(len(setup.r_id)):
        if setup.r_kind[r] == "equipment" and setup.r_active[r]:
            best[setup.r_slot[r]] = max(best[setup.r_slot[r]], setup.r_level[r])
    hand = setup.rules["deck.hand_size"]
    boss_fac = 0
    for r in range(len(setup.r_id)):
        if setup.r_kind[r] == "facility" and setup.r_active[r]:
            for op, p in setup.r_effect[r]:
                if op == "hand_size":
                    hand += p["n"]
                elif op == "power" and p["vs"] in ("all", "boss"):
                    boss_fac += p["n"]
    deck_power = max([sum(p["n"] for op, p in setup.c_effect[c] if op == "power" and p["vs"] in ("all", "boss"))
                      for c in range(len(setup.c_id))] or [0])
    ceiling = hand + sum(best) + setup.rules["hunt.die_sides"] + boss_fac + deck_power
    rules = setup.rules
    step = rules["hunt.strength_by_players"].get(max(players, 2), 0)
    for b, printed in enumerate(setup.boss_strength):
        strength = printed + step
        if strength > ceiling:
            out.append(f"avatar {setup.boss_id[b]} (strength {strength}) is out of reach: the best fighter's "
                       f"power is at most {ceiling} (full hand, best gear, a 6, facilities and one card)")
    return out


# ---- variants (M5) -----------------------------------------------------------------------------

def cards(setup) -> list[str]:
    return list(setup.tracked)


def fixtures(setup) -> dict[str, bool]:
    """The craft cards in play (always in the display, never drawn: M5's screening cannot see them), each
    paired by M5 when edited; facilities (``True``) at every verdict too: their effects change how the game
    runs (a bigger hand ends a round sooner) and can cost the team. Equipment only adds its level to
    a fight, which by the rules never hurts it (what it costs is the planner's choice of what to craft)."""
    return {setup.r_id[r]: setup.r_kind[r] == "facility" for r in range(len(setup.r_id)) if setup.r_active[r]}


def ablate(tables: dict, card_id: str) -> dict:
    """The same content with ``card_id`` replaced by a neutral filler: a market card keeps its action, a
    facility its cost (still in the display, still craftable), each without its effect; a piece of
    equipment keeps its slot, tier and cost at level 0 (it adds no power: the planner never crafts it)."""
    return with_record_changed(tables, card_id, _neutral)


def _neutral(record: dict) -> None:
    without_effect(record)
    if record.get("kind") == "equipment":
        record["level"] = 0


# ---- trace -------------------------------------------------------------------------------------

def _res(state, r) -> str:
    return state.setup.res[r]


def _slot(state, k) -> str:
    if k < 0 or k >= len(state.s_tile):
        return f"#{k}"
    x, y = state.s_pos[k]
    return f"{state.setup.t_id[state.s_tile[k]]}@({x},{y})"


def action_text(state, a) -> str:
    setup = state.setup
    kind = a[0]
    acts = setup.actions
    if kind == COMMIT:
        return "commit " + (", ".join(f"{setup.c_id[c]}={acts[x]}" for c, x in a[1]) or "nothing")
    if kind == REST:
        return f"rest, discarding {setup.c_id[a[1]]}"
    if kind == PAY:
        return ("pay for " if a[2] else "do not pay for ") + setup.c_id[a[1]]
    if kind == BASE:
        return f"use the base on {_slot(state, a[1])}"
    if kind == MOVE:
        return f"walk to {_slot(state, a[1])}"
    if kind == OPEN:
        return f"open the {DIRS[a[1]]} edge"
    if kind == PICK:
        return f"place tile #{a[1]} of those drawn"
    if kind == TAKE:
        return f"gather {_res(state, a[2])} on {_slot(state, a[1])}"
    if kind == BUY:
        c = state.row[a[1]] if 0 <= a[1] < len(state.row) else -1
        return f"buy {setup.c_id[c] if c >= 0 else '?'} for P{a[2] + 1}"
    if kind == TRASH:
        return f"remove {setup.c_id[a[2]]} from P{a[1] + 1}'s discard"
    if kind == KEEP:
        return f"keep {setup.c_id[a[2]]} of P{a[1] + 1}"
    if kind == DUNGEON:
        return f"dive into {_slot(state, a[1])}"
    if kind == FIGHTER:
        return f"P{a[1] + 1} fights"
    if kind == ORDER:
        return "order the enemy deck " + ", ".join(setup.e_id[e] for e in a[1])
    if kind == REROLL:
        return "reroll" if a[1] else "keep the roll"
    if kind == NEWBASE:
        return f"build a base on {_slot(state, a[1])}"
    if kind == MAKE:
        return f"craft {setup.r_id[a[1]]}" + (f" for P{a[2] + 1}" if a[2] >= 0 else "")
    if kind == LEVEL:
        return f"level up the base on {_slot(state, a[1])}"
    if kind == DONE:
        return "done"
    return repr(a)


def describe(state, ev) -> str:
    setup = state.setup
    kind = ev[0]
    acts = setup.actions
    if kind == "setup":
        return f"setup: {ev[1]} decks ({', '.join(ev[2])})"
    if kind == "round":
        return f"-- round {ev[1]} (market {ev[2]})"
    if kind == "reveal":
        return f"  P{ev[1] + 1} reveals " + ", ".join(f"{setup.c_id[c]}" + (f"={acts[a]}" if setup.c_action[c] < 0
                                                                           else "") for c, a in ev[2])
    if kind == "ap":
        return f"  {acts[ev[1]]}: {ev[3]} AP from {ev[4]} card(s) by {ev[5]} player(s) at {_slot(state, ev[2])}"
    if kind == "tile":
        return f"    open {DIRS[ev[5]]} for {ev[6]} AP: {setup.t_id[ev[2]]} at ({ev[3]},{ev[4]})"
    if kind == "move":
        return f"    walk to {_slot(state, ev[1])} ({ev[2]} AP)"
    if kind == "gather":
        return f"    gather {_res(state, ev[2])} at {_slot(state, ev[1])} for {ev[3]} AP" + (" (+1)" if ev[4] else "")
    if kind == "buy":
        return f"    buy {setup.c_id[ev[1]]} for P{ev[2] + 1} ({ev[3]} AP)"
    if kind == "trash":
        return f"    remove {setup.c_id[ev[2]]} from P{ev[1] + 1}'s discard ({ev[3]} AP)"
    if kind == "dungeon":
        return f"    dive into {_slot(state, ev[1])} ({ev[2]} AP)"
    if kind == "fight":
        foe = {"enemy": lambda: setup.e_id[ev[3]], "boss": lambda: "AVATAR " + setup.boss_id[ev[9]],
               "demon": lambda: "the DEMON LORD"}[ev[2]]()
        return (f"    P{ev[1] + 1} fights {foe} (strength {ev[4]}): {ev[5]} + d{ev[6]} -> "
                f"{'win' if ev[7] else 'loss'} (hand {ev[8]})")
    if kind == "avatar":
        return f"    == avatar of the {setup.biomes[ev[1]]} defeated (round {ev[2]})"
    if kind == "newbase":
        return f"    build a base on {_slot(state, ev[1])} ({ev[2]} AP)"
    if kind == "make":
        return f"    craft {setup.r_id[ev[1]]}" + (f" for P{ev[2] + 1}" if ev[2] >= 0 else "") + f" ({ev[3]} AP)"
    if kind == "level":
        return f"  base on {_slot(state, ev[1])} -> level {ev[2]}" + ("" if ev[3] else " (free)")
    if kind == "round_end":
        return f"-- round {ev[1]} ends after {ev[2]} cycle(s)"
    if kind == "cap":
        return f"  !! round {ev[1]} hit the cycle cap"
    if kind == "demon":
        return f"== the demon lord rises: HP {ev[1]}, strength {ev[2]}"
    if kind == "end":
        return f"== game over: {ev[1]} in round {ev[2]}"
    if kind == "marker":
        return f"  P{ev[1] + 1} takes an action marker ({ev[2]} left)"
    if kind == "rest":
        return f"  P{ev[1] + 1} rests, discarding {setup.c_id[ev[2]]}"
    if kind == "pay":
        return f"  P{ev[1] + 1} {'pays' if ev[3] else 'does not pay'} for {setup.c_id[ev[2]]}"
    if kind == "waste":
        return f"    ({ev[2]} {acts[ev[1]]} AP left unspent)"
    if kind == "raid":
        return f"  night raid by {setup.e_id[ev[1]]} (strength {ev[2]}): " + ("repelled" if ev[3] else "hands cut")
    if kind in ("spend", "offer", "reshuffle", "cycle", "gain", "reward", "enemy_reshuffle", "no_boss", "draw",
                "pile_out", "tier", "order", "reroll", "keep", "unkept", "raid_discard"):
        return ""
    return "    " + " ".join(str(x) for x in ev)


def state_text(state) -> str:
    setup = state.setup
    rows = [f"round {state.round_id} cycle {state.cycle} phase {state.phase} seat {state.seat} AP {state.ap}",
            "pool " + " ".join(f"{setup.res[r]}:{k}" for r, k in enumerate(state.pool) if k),
            "bases " + " ".join(f"{_slot(state, k)}:L{lv}" for k, lv in enumerate(state.s_level) if lv >= 0),
            "avatars defeated " + " ".join(b for b, d in zip(setup.biomes, state.defeated) if d)]
    for s in range(state.n):
        rows.append(f"P{s + 1} hand {[setup.c_id[c] for c in state.hand[s]]} deck {len(state.deck[s])} "
                    f"discard {len(state.discard[s])} gear {[setup.r_id[r] for r in state.equip[s] if r >= 0]}")
    if state.foe is not None:
        foe = state.foe[2]
        rows.append("enemy face up: " + (f"AVATAR {setup.boss_id[foe[2]]}" if foe[0] == "boss" else setup.e_id[foe[1]])
                    + f" (strength {state.foe[0]})")
    return "\n".join(rows)
