"""Fatal Fight: what a finished game says — the per-game record (from the event log only),
invariants, static checks, the readable trace, and content variants for card-impact runs.
"""
from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING, Final

from .fatal_fight_actions import (BUY, CURE, DONE, DROP_A, END, FINISH, GAUGE, ITEM, JOIN, MEGA, MOVE, NO_TARGET,
                                  GIVE, PAID_MOVE, PASS, PICK_A, PLAY, RAGE_A, SAVE, TAKE, TARGET_A, UPGRADE)
from .fatal_fight_flow import ACTIVE, DOWN, OVER
from .fatal_fight_setup import SQUARES
from ..variants import with_record_changed

if TYPE_CHECKING:
    from .fatal_fight import State


def _seat(state, s) -> str:
    return f"P{s + 1}:{state.setup.characters[state.chars[s]]['id']}"


def _named(ident: str, name: str) -> str:
    """``e1_punk（チンピラ）``: the id a designer searches the YAML for, and the name on the card."""
    return f"{ident}（{name}）" if name else ident


def _card(state, c) -> str:
    return state.setup.c_id[c]


def _enemy(state, e) -> str:
    boss = state.setup.boss
    if e == boss:
        return "the BOSS"
    return "an obstacle" if e > boss else state.setup.e_id[e]


# ---- per-game record ---------------------------------------------------------------------------

_COUNTED: Final = frozenset(("draw", "supply", "offer", "play", "buy", "upgrade", "pick", "item", "gold", "round",
                             "boss_in", "kill", "mass", "down", "clear", "enemy_phase", "auto", "reshuffle",
                             "empty_pool"))


def summarize(state: State) -> dict:
    """Everything the metrics need, computed from ``state.log`` (and the party)."""
    setup = state.setup
    c_id = setup.c_id
    gold_by: Counter[str] = Counter()
    exposed, used = [], []  # cards drawn or supplied, played or used, in log order
    offered, bought = set(), set()
    stage_rounds, rounds_mass, boss_rounds, combo_boss = [], set(), set(), set()
    downs = mass_events = reshuffles = empty = upgrades = forced = 0
    group_sizes = []
    current_round, boss_round, boss_in = 0, False, 0
    boss_kill_rounds = []
    boss_ids = {setup.stages[s]["boss"]["id"] for s in setup.stages}
    for ev in state.log:  # kinds tested most frequent first (draw, play, offer, kill, auto, gold ...)
        kind: str = ev[0]  # typed: compiled, the kind tests below are string compares, not generic ones
        if kind not in _COUNTED:  # about half the log: actions, spawns, turns, damage ...
            continue
        if kind == "draw":
            exposed.append(ev[2])
        elif kind == "play":
            used.append(ev[2])
        elif kind == "offer":  # shop items: games in which it was affordable vs games it was bought
            offered.add(c_id[ev[2]])
        elif kind == "kill":
            if ev[2] == setup.boss:
                boss_kill_rounds.append(current_round - boss_in + 1)
        elif kind == "auto":
            forced += 1
        elif kind == "gold":
            gold_by[ev[2]] += ev[1]
            if ev[2] == "combo" and boss_round:
                combo_boss.add(current_round)
        elif kind == "round":
            current_round = ev[1]
            boss_round = ev[4] in boss_ids
            if boss_round:
                boss_rounds.add(current_round)
        elif kind == "buy" or kind == "upgrade" or kind == "pick":
            bought.add(c_id[ev[2]])
            if kind == "upgrade":
                upgrades += 1
        elif kind == "enemy_phase":
            for x in ev[1]:  # a loop, not a generator: a frame and a resumption per group
                if x:
                    group_sizes.append(x)
        elif kind == "supply":
            exposed.append(ev[2])
        elif kind == "item":
            used.append(ev[2])
        elif kind == "boss_in":
            boss_in = current_round
        elif kind == "mass":
            mass_events += 1
            rounds_mass.add(current_round)
        elif kind == "down":
            downs += 1
        elif kind == "clear":
            stage_rounds.append(ev[2])
        elif kind == "reshuffle":
            reshuffles += 1
        elif kind == "empty_pool":
            empty += 1
    exposures, uses = Counter(map(c_id.__getitem__, exposed)), Counter(map(c_id.__getitem__, used))  # counted in C
    exposures.update(offered | bought)
    uses.update(bought)
    party_upgrades = sum(len(setup.characters[c]["upgrades"]) for c in state.chars)
    start_gold = setup.rules["start_gold_per_player"]
    return {
        "outcome": state.outcome,
        "rounds": state.round_id,
        "party": [setup.characters[c]["id"] for c in state.chars],
        "stage": state.stage,
        "stage_rounds": stage_rounds,
        "boss_kill_rounds": boss_kill_rounds,
        "exposures": dict(exposures),
        "uses": dict(uses),
        "downs": downs,
        "mass_rounds": len(rounds_mass),
        "mass_events": mass_events,
        "boss_rounds": len(boss_rounds),
        "combo_boss_rounds": len(combo_boss),
        "group_size_sum": sum(group_sizes),
        "group_size_n": len(group_sizes),
        "gold_per_player": start_gold + sum(state.gold_earned) / state.n,
        "upgrades_bought": upgrades,
        "upgrades_total": party_upgrades,
        "gold_by_source": dict(gold_by),
        "reshuffles": reshuffles,
        "forced": forced,
        "empty_pool_rounds": empty,
    }


# ---- invariants (M0) ---------------------------------------------------------------------------

def check_invariants(state) -> list[str]:
    setup, out = state.setup, []
    seen: Counter[int] = Counter()
    zones = [state.exiled, state.gym, state.gym_deck, state.gym_gone, state.picks, state.wound_pool]
    for s in range(state.n):
        zones += [state.deck[s], state.hand[s], state.discard[s], state.played_up[s], state.played_down[s],
                  state.gauge[s], state.upgrades_left[s], state.carry[s]]
    for zone in zones:
        seen.update(zone)
    seen.update(m for m in state.mega_art if m >= 0)
    dup = [setup.c_id[c] for c, n in seen.items() if n > 1]
    if dup:
        out.append(f"cards in two places at once: {sorted(dup)}")
    expected = set(setup.extra_arts) | set(setup.wounds)
    for c in state.chars:
        expected |= set(setup.characters[c]["initial"]) | set(setup.characters[c]["upgrades"])
    missing = expected - set(seen)
    if missing:
        out.append(f"cards lost: {sorted(setup.c_id[c] for c in missing)}")
    boss = setup.boss
    on_board = [e for g in state.groups for e in g]
    enemies = Counter(state.enemy_deck + state.enemy_discard + state.escaped + [e for e in on_board if e < boss])
    if any(n > 1 for n in enemies.values()):
        out.append("an enemy card is in two places at once")
    due = {e for e in range(len(setup.e_id)) if setup.e_stage[e] <= state.stage}
    if set(enemies) != due:
        out.append(f"enemy cards lost or duplicated: {len(due - set(enemies))} missing, "
                   f"{len(set(enemies) - due)} unexpected")
    bosses = on_board.count(boss)
    if state.phase != OVER and state.boss_placed and state.boss_alive and bosses != 1:
        out.append("the boss is alive but not on the board")
    if bosses and not state.boss_placed:
        out.append("the boss is on the board before it was placed")
    if bosses > 1:
        out.append("two bosses on the board")
    for s in range(state.n):
        if state.gold[s] < 0 or state.gp[s] < 0:
            out.append(f"{_seat(state, s)} has negative gold or GP")
        if state.life[s] > state.max_life[s]:
            out.append(f"{_seat(state, s)} has more life than its maximum")
        if state.status[s] == ACTIVE and state.life[s] <= 0:
            out.append(f"{_seat(state, s)} is active with life {state.life[s]}")
        if state.status[s] == DOWN and state.life[s] > 0:
            out.append(f"{_seat(state, s)} is down with life {state.life[s]}")
    if state.pool < 0 or state.actions_left < 0 or state.free_moves < 0:
        out.append("negative gold pool, actions or moves")
    return out


# ---- static checks (M8) ------------------------------------------------------------------------

def static_checks(setup, players: int) -> list[str]:
    """Setups no play can win, found without playing: e.g. a boss no party can one-shot."""
    out = []
    for stage in sorted(setup.stages):
        if not any(setup.e_stage[e] == stage for e in range(len(setup.e_id))):
            out.append(f"stage {stage} has no enemy cards")
    best = {}
    for c, char in enumerate(setup.characters):
        pool = sorted((setup.c_ap[i] for i in char["initial"] + char["upgrades"] + setup.extra_arts
                       if setup.c_attack[i]), reverse=True)
        best[c] = sum(pool[:char["actions"]])
    for stage, boss in sorted(setup.bosses.items()):
        worst = min(sum(best[c] for c in party) for party in itertools.combinations(best, players))
        if boss["min_life"] + boss["per_extra"] * max(0, players - setup.rules["min_characters"]) > worst:
            out.append(f"stage {stage} boss {boss['id']} (life {boss['life']}) is out of reach of the weakest "
                       f"{players}-character party even with every card at hand (max AP {worst})")
    return out


# ---- variants (M5) -----------------------------------------------------------------------------

def cards(setup) -> list[str]:
    return list(setup.tracked)


def ablate(tables: dict, card_id: str) -> dict:
    """The same content with ``card_id`` replaced by a neutral filler (no AP, no sub, no effect)."""
    return with_record_changed(tables, card_id, _neutral)


def _neutral(record: dict) -> None:
    record["ap"] = 0
    record["attributes"] = [a for a in record.get("attributes") or [] if a not in ("attack",)]
    record["sub"] = {}
    record["effect"] = []


# ---- trace -------------------------------------------------------------------------------------

def action_text(state, a) -> str:
    kind = a[0]
    if kind in (PLAY, JOIN, GAUGE, ITEM, UPGRADE, BUY, CURE, PICK_A, DROP_A):
        verb = {PLAY: "play", JOIN: "join combo with", GAUGE: "gauge", ITEM: "use item", UPGRADE: "upgrade to",
                BUY: "buy", CURE: "cure", PICK_A: "take", DROP_A: "discard supply"}[kind]
        aim = f" at R{a[2] + 1}" if len(a) > 2 and a[2] >= 0 else ""
        return f"{verb} {_card(state, a[1])}{aim}"
    if kind == TAKE:
        return "take the pickup" + (f" paying {_card(state, a[1])}" if a[1] >= 0 else "")
    if kind == MOVE:
        return f"move to {SQUARES[a[1]]}"
    if kind == PAID_MOVE:
        return f"move to {SQUARES[a[1]]}" + (f" paying {_card(state, a[2])}" if a[2] >= 0 else "")
    if kind == SAVE:
        return f"save {_seat(state, a[1])} paying " + ", ".join(_card(state, c) for c in a[2:])
    if kind == TARGET_A:
        return f"target group R{a[1] + 1}"
    if kind == GIVE:
        return f"give 1 gold to {_seat(state, a[1])}"
    if kind == RAGE_A:
        return f"remove the boss's rage card #{a[1]}"
    return {END: "end turn", MEGA: "mega crash", FINISH: "close chain", PASS: "pass", NO_TARGET: "no target",
            DONE: "done shopping"}[kind]


def describe(state, ev) -> str:
    kind = ev[0]
    if kind == "act":
        return f"  {_seat(state, ev[1])}: {action_text(state, ev[2])}"
    if kind == "auto":
        return f"  {_seat(state, ev[1])}: {action_text(state, ev[2])} (forced)"
    if kind == "round":
        return f"-- round {ev[1]} (stage {ev[2]}, round {ev[3]}): stage card {ev[4]}"
    if kind == "stage":
        return f"== stage {ev[1]}"
    if kind == "party":
        names = {c["id"]: _named(c["id"], c.get("name", "")) for c in state.setup.characters}
        return "party: " + ", ".join(names.get(c, c) for c in ev[1])
    if kind == "spawn":
        return f"    spawn {_named(state.setup.e_id[ev[2]], state.setup.e_name[ev[2]])} at R{ev[1] + 1}"
    if kind == "chain":
        where = f"R{ev[5] + 1}" if ev[5] >= 0 else "nothing"
        return f"    chain by {_seat(state, ev[1])}: AP {ev[2]}, {ev[4]} hit(s) -> {where}, {ev[6]} defeated"
    if kind == "kill":
        return f"    defeated {_enemy(state, ev[2])} at R{ev[1] + 1}"
    if kind == "hurt":
        return f"    {_seat(state, ev[1])} takes {ev[2]} ({ev[4]}; {ev[3]} guarded)"
    if kind == "turn":
        return f" {_seat(state, ev[1])}'s turn"
    if kind == "down":
        return f"    {_seat(state, ev[1])} is DOWN"
    if kind == "save":
        return f"    {_seat(state, ev[1])} saves {_seat(state, ev[2])}"
    if kind in ("heal", "gp"):
        return f"    {_seat(state, ev[1])} " + ("heals " if kind == "heal" else "gains GP ") + str(ev[2])
    if kind in ("draw", "offer", "play", "move", "shop_turn", "upgrade", "buy", "pick", "cure"):
        return ""
    setup = state.setup
    text = {
        "gold": lambda: f"    +{ev[1]} gold to the pool ({ev[2]})",
        "special": lambda: f"    {_seat(state, ev[1])}'s special fires ({ev[2]})",
        "enemy_phase": lambda: _enemy_phase(ev),
        "reshuffle": lambda: "    the enemy deck is empty: its discard is shuffled into a new one",
        "boss_skill": lambda: f"    the boss uses {_boss_skill(setup, ev)}",
        "boss_gp": lambda: _boss_gp(ev),
        "mass": lambda: f"    mass damage: R{ev[1] + 1} sheds {ev[2]} enemies",
        "cross": lambda: f"    {setup.e_id[ev[1]]} crosses from R{ev[2] + 1}",
        "escape": lambda: f"    {setup.e_id[ev[1]]} escapes",
        "boss_in": lambda: f"    the BOSS enters at R{ev[1] + 1} (life {ev[2]})",
        "split": lambda: f"    stage clear: {ev[1]} gold each, {ev[2]} left in the pool",
        "clear": lambda: f"== stage {ev[1]} cleared in {ev[2]} rounds",
        "end": lambda: f"== game over: {ev[1]}",
        "item": lambda: f"    {_seat(state, ev[1])} uses {_card(state, ev[2])}",
        "supply": lambda: f"    {_seat(state, ev[1])} gets {_card(state, ev[2])}",
        "drop": lambda: f"    {_seat(state, ev[1])} discards {_card(state, ev[2])} (over max carry)",
        "discard": lambda: f"    {_seat(state, ev[1])} discards {_card(state, ev[2])} from hand",
        "take": lambda: f"    {_seat(state, ev[1])} takes the pickup on {SQUARES[ev[2]]}",
        "obstacle": lambda: f"    an obstacle (life {ev[2]}) blocks R{ev[1] + 1}",
        "boss_move": lambda: f"    the boss moves to R{ev[1] + 1}",
        "empty_pool": lambda: f"    no enemy left to spawn at R{ev[1] + 1}",
        "exile": lambda: f"    {_card(state, ev[2])} is exiled",
        "final_boss": lambda: _final_boss(ev),
        "give": lambda: f"    {_seat(state, ev[1])} gives 1 gold to {_seat(state, ev[2])}",
        "rage_out": lambda: f"    the boss's rage card #{ev[1]} is removed",
        "strike": lambda: f"    strike by {_seat(state, ev[1])}: AP {ev[2]} at R{ev[3] + 1}, {ev[4]} defeated",
    }.get(kind)
    if text:
        return text()
    return "    " + " ".join(str(x) for x in ev)


def _enemy_phase(ev) -> str:
    """The groups' sizes (their combat damage); a board with none said so, not as a bare "group sizes"."""
    sizes = " ".join(f"R{k + 1}:{n}" for k, n in enumerate(ev[1]) if n)
    return "  enemy phase: " + (f"group sizes {sizes}" if sizes else "no enemy on the board")


def _boss_skill(setup, ev) -> str:
    """``skill stance`` or ``rage skill fury``: its name in bosses.yaml (skill:), from the stage's boss deck."""
    boss = setup.bosses[ev[2]]
    n = len(boss["skill_names"])
    return f"skill {boss['skill_names'][ev[1]]}" if ev[1] < n else f"rage skill {boss['rage_names'][ev[1] - n]}"


def _boss_gp(ev) -> str:
    """The boss's GP as it changes (a skill gives it, a hit spends it, the enemy phase clears it): with
    its life on its entry line, the trace shows why a hit on the boss defeated it or not."""
    before, after, how = ev[1], ev[2], ev[3]
    if how == "gains":
        return f"    the BOSS gains GP {after - before} (GP {after})"
    if how == "spends":
        return f"    the BOSS's GP stops {before - after} of the hit (GP {after} left)"
    return f"    the BOSS's GP {before} expires"


def _final_boss(ev) -> str:
    """G1's purchase: what the team's gold removed, and nothing said as a change when it bought nothing
    (it read "0 rage card(s) removed, life -0")."""
    removed, lowered = ev[1], ev[2]
    bought = ([f"{removed} rage card{'s' if removed > 1 else ''} removed"] if removed else []) + \
        ([f"life lowered by {lowered}"] if lowered else [])
    return "    final boss: " + (", ".join(bought) + " by the team's gold" if bought else
                                 "keeps every rage card and its full life (the team's gold bought nothing)")


def state_text(state) -> str:
    rows = [f"stage {state.stage} round {state.round_in_stage} pool {state.pool} phase {state.phase}"]
    for s in range(state.n):
        rows.append(f"{_seat(state, s)} life {state.life[s]}/{state.max_life[s]} at {SQUARES[state.pos[s]]} "
                    f"hand {[_card(state, c) for c in state.hand[s]]} gold {state.gold[s]}")
    for k, g in enumerate(state.groups):
        if g:
            rows.append(f"R{k + 1}: {[_enemy(state, e) for e in g]}")
    return "\n".join(rows)
