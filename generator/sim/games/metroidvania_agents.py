"""Metroidvania agents: the spec §5 heuristic player and the ``rush_urza`` baseline.

Both read the state directly (a co-operative game with open information) and estimate chances
with ``metroidvania_dice.chance`` (exact, cached per build) — never a ``clone()``. After a roll they
take the lexicographic best plan (success, least damage, most dice kept; ``dice.best_plan``) and
use a post-roll skill only when it turns a failure into a success (an exhausting one only against
death or for a boss kill). Routes, stat placement, boss timing and item use follow spec §5.

``rush_urza`` plays the same dice and skills but walks the shortest path to Urza's throne, fighting
whatever boss blocks the way (the anti-rush check of spec §5.3).
"""
from __future__ import annotations

from collections import deque
from typing import Final

from . import metroidvania_dice as dice
from .metroidvania import (DMG, DONE, END, ENDT, FLOWER, GO, LEVEL, MOVE, PEEK, PICK, PICK_A, PLACE, PLACE_A, PLAN,
                           POST, PRE, REROLL, ROLL, SKIP, SUCC, TOP, USE, State)
from ..state import memo_table, setup_memo
from .metroidvania_effects import num
from .metroidvania_powers import _ANY_MID
from .metroidvania_setup import AGI, BOSS, DANGER, EVENT, INS, KEY, NORMAL, PIE, REST, WIL, Setup

# Stat placement priority (spec §5): Will to 2, Agi 1, Pie 1, Will to 4, then Pie and Ins alternately.
PLACEMENT: Final = ((WIL, 2), (AGI, 1), (PIE, 1), (WIL, 4))
SUB_VALUE: Final = {0: 0.0, 1: 0.3, 2: 0.3, 3: 0.3, 4: 0.3, 5: -0.5, 6: 0.3}   # none thorn flower sweets key up down
SKILL_WORTH: Final = {"ap_bonus": 3.0, "reroll": 2.5, "damage_reduce": 2.5, "heal": 2.0, "multi_minus": 2.0,
               "ignore_slate": 2.0, "extra_dice": 2.5, "die_step": 2.5, "criterion": 2.0, "boss_damage": 2.5,
               "move_bonus": 1.0, "pass_key_rooms": 0.5, "teleport": 0.8, "peek_deck": 0.6, "danger": 1.5,
               "refresh_skills": 1.0, "recolour": 1.0, "ignore_threat": 1.0, "reveal_weakness": 1.0}
FIGHT_BONUS: Final = 8.0
AVOID: Final = -10.0
# Rest rooms (spec §5): +5 for a hurt maiden, else -1 (saved for later). A rest room is used once, so saving
# pays only while they are scarce: with more left unexplored than the map has on NORMAL (setup.normal_rests, 4 on
# the shipped map), as on EASY (8), a healthy maiden takes one on her way (REST_SPARE) instead of walking round it. Hoarding EASY's extra rooms made
# her detour (a2-04 is the only door to b02's room): EASY won 0.51 against NORMAL's 0.60 at 3p (same seeds).
# NORMAL never has more than its own, so it plays exactly as before.
REST_LOW: Final = 5.0
REST_HEALTHY: Final = -1.0
REST_SPARE: Final = 0.5
MIN_PRE_GAIN: Final = 0.05  # a pre-roll skill or sefira is used only if it raises success by this much
MID_ANY_OPS: Final = _ANY_MID[POST]   # "any" effects worth using after a roll (the engine's window)
PRE_ROLL_OPS: Final = frozenset(("auto_success", "multi_minus", "ignore_slate", "extra_dice", "die_step", "criterion",
                          "ignore_threat"))   # the ops a pre-roll use is judged by (``_pre_worth``)


def _room_checks(rooms) -> tuple:
    """``(check index of each room, first room of each check)``: rooms whose dice check reads the same
    (target, multi, slate or not, prompts: all ``chance`` reads of a room) share one chance."""
    index: dict
    checks: list
    first: list
    index, checks, first = {}, [], []
    for c, room in enumerate(rooms):
        key = (room["d"], room["multi"], room["slate"] >= 0, room["prompts"])
        if key not in index:
            index[key] = len(first)
            first.append(c)
        checks.append(index[key])
    return tuple(checks), tuple(first)


def _num(state: State, s: int, p, level=0) -> int:
    return num(state, s, p, {"level": level})


class HeuristicAgent:
    """Spec §5 standard AI."""

    name = "heuristic"
    rush = False
    seat: int
    _stamp: tuple | None   # (state, turn, kills) of the goal routes in ``_memo``
    _memo: dict

    def __init__(self, setup=None, seat: int = 0):
        self.seat = seat
        self._stamp, self._memo = None, {}

    # ---- dispatch -------------------------------------------------------------------------------
    def choose(self, state: State, rng):
        phase = state.phase
        if phase == POST:
            return self.post_roll(state)
        if phase == MOVE:
            return self.move(state)
        if phase == PRE:
            return self.pre_roll(state)
        if phase == PICK:
            return self.pick(state)
        if phase == PLACE:
            return self.place(state)
        if phase == SUCC:
            return self.on_success(state)
        if phase == DMG:
            return self.on_damage(state)
        if phase == END:
            return self.end(state)
        if phase == LEVEL:
            return self.level(state)
        if phase == PEEK:
            return self.peek(state)
        return state.legal_actions()[0]

    # ---- estimates ------------------------------------------------------------------------------
    @staticmethod
    def chance(state: State, s: int, d, multi, slate, prompts=(), crit=0, asc=True, white=0, step=0, bonus=0) -> float:
        play = state.setup.play
        size = state.die_size(s, step)
        pie = state.stat(s, PIE)
        k = len(play.coloured) + pie * play.white_dice_per_pie + white
        c = state.crit + state.mod_sum(s, "crit") + crit
        if prompts:
            return dice.qte_chance(size, [c + off - bonus for _, off in prompts], k - len(prompts), asc, pie,
                                   play.max_pairs)
        return dice.chance(size, k, c + d - bonus, multi, slate >= 0, asc, pie, play.max_pairs)

    def room_value(self, state: State, s: int, card, p=None) -> float:
        """What exploring room ``card`` is worth to maiden ``s``; ``p``, when given, is its check's chance."""
        room = state.setup.rooms[card]
        if p is None:
            p = self.chance(state, s, room["d"], room["multi"], room["slate"], room["prompts"])
        dmg = state.danger
        side = 0.0
        if room["slate"] >= 0:
            per = dmg if state.setup.play.slate_per_danger else 1
            side = 2 * per * (0.6 if state.stat(s, PIE) else 1.0)
        sub = room["sub"]
        value = SUB_VALUE.get(sub, 0.0)
        if sub == 3 and state.life[s] >= state.max_life[s]:
            value = 0.0
        return p * (1 + value) - (1 - p) * dmg - side

    def mean_room_value(self, state: State, s: int) -> float:
        rooms = state.setup.rooms
        key = ("mrv", state.crit, state.danger, state.stat(s, WIL), state.stat(s, PIE), state.mod_sum(s, "crit"),
               state.life[s] >= state.max_life[s])   # (Will gives her die size)
        found = memo_table(state.setup, "_mrv").get(key)   # a hit without setup_memo's call (hits: most asks)
        return found if found is not None else \
            setup_memo(state.setup, "_mrv", key, self._mean_room_value_now, state, s, rooms)

    def _mean_room_value_now(self, state: State, s: int, rooms) -> float:
        # The chance is the dear part and the shipped map's 60 rooms have 19 checks: one estimate per check.
        # The sum still runs room by room in deck order, so the float is the one a per-room sum gives.
        checks, first = setup_memo(state.setup, "_room_checks", 0, _room_checks, rooms)
        ps = [self.chance(state, s, rooms[c]["d"], rooms[c]["multi"], rooms[c]["slate"], rooms[c]["prompts"])
              for c in first]
        return sum(self.room_value(state, s, c, ps[checks[c]]) for c in range(len(rooms))) / max(1, len(rooms))

    def boss_p(self, state: State, s: int, b: int) -> float:
        """Mean success chance over the boss's actions at the current criterion (§5 boss timing)."""
        return _mean_chance(self.boss_actions(state, s, b))

    def boss_actions(self, state: State, s: int, b: int) -> tuple:
        """(P(success), expected slate/threat damage) of each boss action for maiden ``s`` now; cached for the
        process by everything it reads (``_boss_actions_key``; read-only result)."""
        key = _boss_actions_key(state, s, b)
        found = memo_table(state.setup, "_boss_actions").get(key)   # a hit without setup_memo's call
        return found if found is not None else \
            setup_memo(state.setup, "_boss_actions", key, self._boss_actions_now, state, s, b)

    def _boss_actions_now(self, state: State, s: int, b: int) -> tuple:
        boss = state.setup.bosses[b]
        crit, asc, threats = 0, True, 0
        if state.trait_active(b, s):
            for op, p in boss["trait"]:
                if op == "criterion":
                    crit += int(p.get("n") or 0)
                elif op == "forbid" and p.get("what") == "ascension":
                    asc = False
                elif op == "threat":
                    threats += 1
        area = boss["area"]
        if area >= 0 and state.area_active(area):
            effects = state.setup.areas[area]["effects"]
            asc = asc and "no_ascension" not in effects
            threats += len(state.setup.areas[area]["threats"])
        play = state.setup.play
        per = state.danger if play.slate_per_danger else 1
        c = state.crit + crit
        out = []
        for i in range(len(boss["actions"])):
            d, m, sl = state.boss_action(b, s, i)
            p = self.chance(state, s, d, m, sl, crit=crit, asc=asc)
            side = (2 * per if sl >= 0 else 0) + threats * play.threat_damage * min(1.0, max(0, c - 1) / state.die_size(s))
            out.append((p, side))
        return tuple(out)

    def boss_damage_per_fail(self, state: State, b: int) -> int:
        return state.danger + (0 if state.b_trait_off[b] else state.setup.bosses[b]["damage_plus"])

    def win_chance(self, state: State, s: int, b: int) -> float:
        """P(the boss's life in successes before the party runs out of life), negative binomial."""
        p = self.boss_p(state, s, b)
        life = state.b_life[b] if state.b_active[b] else state.boss_life_now(b)
        dmg = self.boss_damage_per_fail(state, b)
        dmg = dmg if dmg > 1 else 1
        fails = state.n - 1   # + each maiden's fails she survives: a loop, no max call per maiden
        for life_o in state.life:
            if life_o > 1:
                fails += (life_o - 1) // dmg
        if p <= 0:
            return 0.0
        return setup_memo(state.setup, "_win", (p, life, fails), _wins_before, p, life, fails)

    def should_fight(self, state: State, s: int, b: int, entering: bool) -> bool:
        boss = state.setup.bosses[b]
        r = state.round
        if boss["final"]:
            return r >= 20 or self.win_chance(state, s, b) >= 0.4
        if r >= 21:
            return True
        acts = self.boss_actions(state, s, b)
        dmg = self.boss_damage_per_fail(state, b)
        if not entering:   # stay while one more check is expected to cost less than her life (§5: D only)
            p, _ = acts[state.b_ptr[b]] if state.b_active[b] else acts[0]
            return (1 - p) * dmg < state.life[s]
        p = _mean_chance(acts)
        if p <= 0.02:
            return False
        life = state.b_life[b] if state.b_active[b] else state.boss_life_now(b)
        present = len(state.in_room(b)) + 1
        return (life / (p * present)) * (1 - p) * dmg < state.life[s] + 1

    # ---- map ------------------------------------------------------------------------------------
    @staticmethod
    def steps_from(state: State, s: int, origin: int) -> list[int]:
        """Plain steps from ``origin`` that do not pass undefeated boss rooms or closed key rooms."""
        setup = state.setup
        inf = 1 << 20
        dist = [inf] * len(setup.node_id)
        if origin < 0:
            return dist
        dist[origin] = 0
        stop = [False] * len(dist)
        for v in setup.blockers:
            b = setup.node_boss[v]
            if b >= 0:
                stop[v] = not state.b_dead[b]
            else:
                stop[v] = not state.explored[v] and not state.key_ok(s, v) and not state.keys[s]
        adj = state.adjacency(s)
        frontier = [origin]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for v in frontier:
                if stop[v] and v != origin:
                    continue
                for w in adj[v]:
                    if dist[w] == inf:
                        dist[w] = d
                        nxt.append(w)
            frontier = nxt
        return dist

    def goal(self, state: State, s: int) -> int:
        """The boss the party heads for: next by tier (then nearest to the party), or Urza."""
        return self._goal_route(state, s)[0]

    def _goal_route(self, state: State, s: int) -> tuple:
        """``(goal, steps from the goal's room or None)`` (``_goal``), by maiden, cached this turn while no boss
        falls."""
        stamp = (id(state), state.turn_serial, len(state.kills))
        if self._stamp != stamp:
            self._stamp, self._memo = stamp, {}
        route = self._memo.get(s)
        if route is None:
            route = self._memo[s] = self._goal(state, s)
        return route

    def _goal(self, state: State, s: int) -> tuple:
        """``_goal_route_now``, cached for the process: once the fight-Urza decision is made, the rest reads only
        the map as she can walk it (``_goal_key``; the steps from the goal's room read no more than that)."""
        key = _goal_key(state, s, self._for_final(state, s))
        found = memo_table(state.setup, "_goal").get(key)   # a hit without setup_memo's call
        return found if found is not None else \
            setup_memo(state.setup, "_goal", key, self._goal_route_now, state, s, key[0])

    def _goal_route_now(self, state: State, s: int, for_final) -> tuple:
        goal = self._goal_now(state, s, for_final)
        node = state.setup.bosses[goal]["node"]
        return goal, (_route_steps(state, s, node) if node >= 0 else None)

    def _for_final(self, state: State, s: int) -> bool:
        """Is Urza the goal, if she can be reached (unsealed, and rushing, late or a fair chance)?"""
        setup = state.setup
        final = setup.final_boss
        seal = setup.play.urza_seal_bosses
        sealed = seal and len(state.kills) < seal
        return setup.bosses[final]["node"] >= 0 and not sealed and (
            self.rush or state.round >= 20 or self.win_chance(state, s, final) >= 0.4)

    def _goal_now(self, state: State, s: int, for_final) -> int:
        setup = state.setup
        final = setup.final_boss
        inf = 1 << 20
        from_start = self._from_start(state, s)
        fnode = setup.bosses[final]["node"]
        if for_final:
            if from_start[fnode] < inf:
                return final
            blocker = self._blocker(state, s, fnode)   # Urza is the goal: fight what stands on the way
            if blocker >= 0:
                return blocker
        best, key = final, None
        for b, boss in enumerate(setup.bosses):
            if boss["final"] or state.b_dead[b] or boss["node"] < 0 or from_start[boss["node"]] >= inf:
                continue
            k = (boss["tier"], from_start[boss["node"]], b)
            if key is None or k < key:
                best, key = b, k
        return best

    def _blocker(self, state: State, s: int, target) -> int:
        """The first undefeated boss on a shortest plain path from S to ``target``."""
        setup = state.setup
        dist = _plain_steps(state, s, target)
        v = setup.start
        seen = 0
        while v != target and seen < len(dist):
            seen += 1
            b = setup.node_boss[v]
            if b >= 0 and not state.b_dead[b]:
                return b
            nxt = [w for w in state.adjacency(s)[v] if dist[w] == dist[v] - 1]
            if not nxt:
                return -1
            keyed = [w for w in nxt if setup.kind[w] != KEY or state.explored[w] or state.key_ok(s, w)]
            v = min(keyed or nxt)
            if setup.kind[v] == KEY and not state.explored[v] and not state.key_ok(s, v) and not state.keys[s]:
                return -1
        return -1

    def _from_start(self, state: State, s: int) -> list:
        """Steps from S (bosses rank by tier, then by this distance: every maiden picks the same one)."""
        return _route_steps(state, s, state.setup.start)

    # ---- decisions ------------------------------------------------------------------------------
    def move(self, state: State):
        s = state.active
        use = self.any_use(state, MOVE)
        if use is not None:
            return use
        dests = state.destinations()
        if not dests:
            return (SKIP,)
        goal, from_goal = self._goal_route(state, s)
        best, best_score = None, None
        mrv = None
        setup = state.setup
        kinds, areas, area_left = setup.kind, setup.area, state.area_left
        life, danger = state.life[s], state.danger
        if life <= state.max_life[s] - 3 or _exhausted(state, s) >= 2:
            rest = REST_LOW
        else:
            spare = _unexplored(state, setup.rest_nodes) > setup.normal_rests
            rest = REST_SPARE if spare else REST_HEALTHY
        for v, key in dests:
            kind = kinds[v]
            score = 0.0
            if from_goal is not None:
                steps = from_goal[v]
                score -= 0.5 * (steps if steps < 60 else 60)
            if kind == BOSS:
                b = setup.node_boss[v]
                entering = v != state.pos[s]
                if self.should_fight(state, s, b, entering):
                    score += FIGHT_BONUS if b == goal else 2.0
                else:
                    score += AVOID
            elif kind == NORMAL:
                if mrv is None:
                    mrv = self.mean_room_value(state, s)
                score += mrv
                if life <= danger:
                    score += AVOID
            elif kind == REST:
                score += rest
                if setup.tag[v] in setup.rules["rest.also_room"]:   # the switch: a room card follows the rest
                    if mrv is None:
                        mrv = self.mean_room_value(state, s)
                    score += mrv
            elif kind == EVENT:
                score += 1.5
            elif kind == KEY:
                score += 2.5 - (1.0 if key else 0.0)
            elif kind == DANGER:
                score -= danger + 2
                if life <= danger + 1:
                    score += 2 * AVOID
            a = areas[v]
            if kind != BOSS and a >= 0 and area_left[a] == 1 and _harsh(setup.areas[a]["effects"]):
                score += 1.0
            if best_score is None or score > best_score:
                best, best_score = (GO, v, key), score
        return best

    def pick(self, state: State):
        task = state.tasks[0]
        s, deck, drawn = task[1], task[2], task[3]
        if deck == "room":
            values = [self.room_value(state, s, c) for c in drawn]
        elif deck == "skill":
            values = [self.skill_value(state, s, c) for c in drawn]
        elif deck == "event":
            values = [sum(self.derived_value(state, s, d) for d in state.setup.events[c]["derived"]) for c in drawn]
        else:
            values = [self.effect_value(state, s, state.setup.sefira[c]["effect"]) for c in drawn]
        return (PICK_A, max(range(len(drawn)), key=lambda i: (values[i], -i)))

    def skill_value(self, state: State, s: int, skill) -> float:
        sk = state.setup.skills[skill]
        value = sum(SKILL_WORTH.get(op, 0.5) for op, _ in sk["effect"])
        tops = [0, 0, 0, 0]
        for stack in state.stacks[s]:
            if stack:
                tops[stack[-1]] += 1
        if all(have >= need for have, need in zip(tops, sk["tops"])):
            value += 1.5
        return value

    def effect_value(self, state: State, s: int, effect) -> float:
        return sum(SKILL_WORTH.get(op, 1.0) + (1.5 if op in ("boss_life", "heal_full", "auto_success") else 0.0)
                   for op, _ in effect)

    def derived_value(self, state: State, s: int, d) -> float:
        value = 0.0
        for op, p in state.setup.derived[d]["effect"]:
            boss = p.get("boss")
            alive = True
            if boss:
                b = next((i for i, x in enumerate(state.setup.bosses) if x["id"] == boss), -1)
                alive = b >= 0 and not state.b_dead[b]
            if op in ("boss_life", "boss_action_mod", "boss_skip_action", "forbid_trait", "reveal_weakness"):
                value += 1.8 if alive else 0.0
            elif op == "level_up":
                value += 3.0
            elif op == "unlock_servant_skill":
                value += 2.0 if not state.unlocked[s][0] else 0.2
            elif op in ("draw_skill", "max_life"):
                value += 1.5
            elif op == "heal":
                value += 0.4 * sum(state.max_life[o] - state.life[o] for o in range(state.n)) / state.n
            elif op == "skill_level":
                value += 1.0
            else:
                value += 0.4
        return value

    def place(self, state: State):
        task = state.tasks[0]
        s, drawn = task[1], task[2]
        stat = self.next_stat(state, s)
        best, best_key = None, None
        for i, t in enumerate(drawn):
            key = (self.conditions_after(state, s, stat, t), -i)
            if best_key is None or key > best_key:
                best, best_key = (PLACE_A, i, stat), key
        return best

    @staticmethod
    def next_stat(state: State, s: int) -> int:
        for stat, target in PLACEMENT:
            if state.stat(s, stat) < target:
                return stat
        return PIE if state.stat(s, PIE) <= state.stat(s, INS) else INS

    @staticmethod
    def conditions_after(state: State, s: int, stat, t) -> int:
        tops = [0, 0, 0, 0]
        for k, stack in enumerate(state.stacks[s]):
            top = t if k == stat else (stack[-1] if stack else -1)
            if top >= 0:
                tops[top] += 1
        met = 0
        for sk in state.skills[s]:
            for top, need in state.setup.skills[sk[0]]["needs"]:
                if tops[top] < need:
                    break
            else:
                met += 1
        return met

    def level(self, state: State):
        s = state.tasks[0][1]
        legal = state.legal_actions()

        def worth(a):
            skill = state.setup.skills[state.skills[s][a[1]][0]]
            per = sum(int(p.get("per_level") or 0) for _, p in skill["effect"])
            return (per, state.condition_met(s, state.skills[s][a[1]][0]), -a[1])
        return max(legal, key=worth)

    def peek(self, state: State):
        task = state.tasks[0]
        s = task[1]
        deck = getattr(state, task[2] + "_deck")
        depth = task[4] if len(task) > 4 else 0
        k = min(task[3], len(deck)) - depth
        if task[2] != "room":
            return (TOP, 0)
        values = [self.room_value(state, s, deck[len(deck) - 1 - depth - i]) for i in range(k)]
        return (TOP, max(range(k), key=lambda i: (values[i], -i)))

    # ---- skill, sefira and flower use -----------------------------------------------------------
    def _uses(self, state: State, phase):
        """(source, index, effect, ready, level, ops) for every usable skill/sefira of the turn player."""
        s = state.active
        out: list = []
        usable = state.usable(phase)
        if not usable:
            return out
        skills = state.setup.skills
        refresh = None   # looked up only for a skill whose condition is not met
        for src, j in usable:
            if src == 0:
                skill = state.skills[s][j][0]
                card = skills[skill]
                ops = card["ops"]
                ready = state.condition_met(s, skill)
                if not ready and "refresh_skills" not in ops:
                    if refresh is None:
                        refresh = _holds_refresh(state, s)
                    ready = refresh
                level = state.skills[s][j][1]
            else:
                card = state.setup.sefira[state.sefira_area[j]]
                ops, ready, level = card["ops"], True, 0
            out.append((src, j, card["effect"], ready, level, ops))
        return out

    def _arg(self, state: State, effect):
        args = state._args(effect)
        if args == [-1]:
            return -1
        s = state.active
        if any(op == "teleport" for op, _ in effect):
            return None
        goal = self.goal(state, s)
        return goal if goal in args else args[0]

    def _near_goal(self, state: State, s: int, b: int) -> bool:
        """She is in boss ``b``'s room or can enter it this turn."""
        node = state.setup.bosses[b]["node"] if b >= 0 else -1
        return node >= 0 and (state.pos[s] == node or any(v == node for v, _ in state.destinations()))

    def _teleport_target(self, state: State, s: int):
        """An explored room nearer to the goal than she is, when the goal is out of reach this turn."""
        if not self._far_from_goal(state, s):
            return None
        from_goal = self._goal_route(state, s)[1]   # (the goal has a room: she is far from it)
        here = from_goal[state.pos[s]]
        best = min((from_goal[v], v) for v in range(len(state.explored))
                   if state.explored[v] and v != state.pos[s])
        return best[1] if best[0] < here - 1 else None

    def _closed_key_near(self, state: State, s: int) -> bool:
        setup = state.setup
        dist = state.distances(s, state.pos[s])
        mp = state.move_points(s)
        return any(setup.kind[v] == KEY and not state.explored[v] and not state.key_ok(s, v) and dist[v] <= mp + 1
                   for v in setup.blockers)

    def any_use(self, state: State, phase):
        """Uses worth making in a free window (move, pre-roll or end of turn)."""
        s = state.active
        uses = self._uses(state, phase)
        if uses:
            use = self._wanted_use(state, phase, s, uses)
            if use is not None:
                return use
        if phase in (MOVE, END) and state.flowers[s]:
            best, value = self.flower_choice(state, s)
            if best is not None and value > 0.3:
                return (FLOWER, best)
        return None

    def _wanted_use(self, state: State, phase, s: int, uses):
        """The first of these skill/sefira uses worth making now, as an action (or None)."""
        late = state.round >= 20
        missing = state.max_life[s] - state.life[s]
        for src, j, effect, ready, level, ops in uses:
            want = False
            if "heal_full" in ops:
                want = _party_low(state) or (late and missing >= 2)
            elif "heal" in ops:
                p = next(p for op, p in effect if op == "heal")
                n = _num(state, s, p, level)
                if p.get("who") == "all" or src == 1:
                    want = (_party_low(state) or late) and sum(
                        state.max_life[o] - state.life[o] for o in range(state.n)) >= n
                else:
                    want = missing >= n if ready else state.life[s] <= 2
            elif "danger" in ops:
                want = state.danger >= (2 if ready and src == 0 else 3) or (late and state.danger >= 2)
            elif "refresh_skills" in ops:   # used without its condition, a refresh card is exhausted by the use
                want = _exhausted(state, s) >= (1 if src == 0 and ready else 2)
            elif "boss_life" in ops:
                b = state.context_boss()
                want = (b >= 0 and (state.setup.bosses[b]["final"] or state.b_life[b] <= 3)) or late
            elif "reveal_weakness" in ops:
                if phase == PRE and state.check.boss < 0:
                    # a room check: no boss is fought this turn, so the reveal (叡智の眼 sk102: この手番) is
                    # wasted; use it only when free (condition met) for the room-deck peek that comes with it
                    want = ready and src == 0 and "peek_deck" in ops
                else:
                    b = state.context_boss() if state.context_boss() >= 0 else self.goal(state, s)
                    weak = state.setup.bosses[b]["weakness"] if b >= 0 else None
                    party_ins = max(state.stat(o, INS) for o in range(state.n))
                    want = weak is not None and not state.weakness_revealed(b, s) and (
                        phase == PRE or (src == 1 and party_ins < weak[0] and self._near_goal(state, s, b)))
            elif "peek_deck" in ops:
                want = phase == MOVE and ready
            elif "criterion" in ops and src == 1:
                b = state.context_boss()
                want = (b >= 0 or late or self._near_goal(state, s, self.goal(state, s))) and phase in (MOVE, PRE)
            elif "teleport" in ops and phase == MOVE:
                want = ready and self._teleport_target(state, s) is not None
            elif "pass_key_rooms" in ops and phase == MOVE:
                want = ready and self._closed_key_near(state, s)
            elif "move_bonus" in ops and phase == MOVE:
                want = ready and self._far_from_goal(state, s)
            elif phase == PRE and "ignore_threat" in ops and state.check is not None and state.check.threats:
                want = ready
            elif phase == PRE and not ops.isdisjoint(PRE_ROLL_OPS):
                want = self._pre_worth(state, s, effect, ready, src)
            if want:
                arg = self._teleport_target(state, s) if "teleport" in ops else self._arg(state, effect)
                if arg is not None:
                    return (USE, src, j, arg)
        return None

    def flower_choice(self, state: State, s: int):
        """The event card whose next derived event is worth most (an opening row also counts half of
        the row it unlocks)."""
        limit = state.setup.play.flowers_per_event
        best, best_value = None, None
        for h in state.flower_targets():
            ev, _, marks = state.held[h]
            rows = state.setup.events[ev]["derived"]
            value = self.derived_value(state, s, rows[marks])
            if marks + 1 < min(limit, len(rows)):
                value += 0.5 * self.derived_value(state, s, rows[marks + 1])
            if best_value is None or value > best_value:
                best, best_value = h, value
        return best, best_value

    def _far_from_goal(self, state: State, s: int) -> bool:
        goal = self.goal(state, s)
        node = state.setup.bosses[goal]["node"]
        return node >= 0 and node != state.pos[s] and all(v != node for v, _ in state.destinations())

    def _lethal(self, state: State, s: int) -> bool:
        chk = state.check
        return chk is not None and state.danger + chk.fail >= state.life[s]

    def _boss_finisher(self, state: State) -> bool:
        chk = state.check
        return chk is not None and chk.kind == "boss" and state.b_life[chk.boss] <= 1

    def _pre_worth(self, state: State, s: int, effect, ready, src) -> bool:
        chk = state.check
        if chk is None or chk.kind == "danger":
            return False
        ops = dict(effect)   # (the (op, params) pairs as they are: no generator)
        if "auto_success" in ops:
            base = self._check_p(state, s, chk)
            return base < 0.9 and (self._lethal(state, s) or self._boss_finisher(state) or
                                   (state.round >= 20 and base < 0.7))
        if "ignore_threat" in ops and chk.threats and len(ops) == 1:
            return ready
        # whatever it would gain, a use is made only when one of these holds: ask it before the estimates
        # (an estimate for a build not seen yet enumerates its dice)
        if not ((ready and src == 0) or self._lethal(state, s) or self._boss_finisher(state) or
                (src == 1 and state.round >= 20)):
            return False
        base = self._check_p(state, s, chk)
        slate = -1 if "ignore_slate" in ops else chk.slate
        if slate == chk.slate and base > 1 - MIN_PRE_GAIN + 1e-9:
            return False   # no estimate exceeds 1 (+ rounding): nothing can gain MIN_PRE_GAIN
        mm = int(ops["multi_minus"].get("n") or 1) if "multi_minus" in ops else 0
        white = _num(state, s, ops["extra_dice"]) if "extra_dice" in ops else 0
        step = int(ops["die_step"].get("n") or 1) if "die_step" in ops else 0
        crit = int(ops["criterion"].get("n") or 0) if "criterion" in ops else 0
        after = self._check_p(state, s, chk, slate=slate, mm=mm, white=white, step=step, crit=crit)
        return after - base + (0.3 if slate != chk.slate else 0.0) >= MIN_PRE_GAIN

    def _check_p(self, state: State, s: int, chk, slate=None, mm=0, white=0, step=0, crit=0) -> float:
        slate = chk.slate if slate is None or state.has_mod(s, "noslate") else slate
        multi = chk.multi - state.mod_sum(s, "mminus") - mm
        multi = multi if multi > 1 else 1
        white += state.mod_sum(s, "xdice")
        step += state.mod_sum(s, "step")
        return self.chance(state, s, chk.d, multi, slate, chk.prompts, crit=chk.crit + crit, asc=chk.asc,
                           white=white, step=step)

    def pre_roll(self, state: State):
        use = self.any_use(state, PRE)
        if use is not None:
            return use
        return (ROLL,)

    def post_roll(self, state: State):
        s = state.active
        chk = state.check
        spec = state.spec()
        plan, key = dice.best_plan(spec, chk.vals, chk.cols)
        if key[0] and key[1] == 0:
            return (PLAN, plan)
        lethal = key[1] >= state.life[s]
        finisher = chk.kind == "boss" and state.b_life[chk.boss] <= 1
        late = state.round >= 20
        if chk.tokens:
            return (REROLL, self._reroll_choice(state, spec))
        uses = self._uses(state, POST)
        for src, j, effect, ready, level, ops in uses:
            if not ops.isdisjoint(MID_ANY_OPS):   # an "any" effect now that the dice are seen
                if self._any_worth(state, s, spec, key, effect, ready, src, lethal or finisher, uses):
                    return (USE, src, j, -1)
                continue
            if not (ready and src == 0 or lethal or finisher or (src == 1 and (late or chk.kind == "boss"))):
                continue
            if "reroll" in ops:
                if not key[0]:
                    return (USE, src, j, -1)
                continue
            trial = spec.copy()
            for op, p in effect:
                if op == "ap_bonus":
                    n = _num(state, s, p, level)
                    if p.get("all_dice"):
                        trial.all_bonus += n
                    else:
                        trial.single = trial.single + (n,)
                elif op == "recolour":
                    trial.recolour = trial.recolour + ((_colour_index(p.get("from")), _colour_index(p.get("to"))),)
            _, k2 = dice.best_plan(trial, chk.vals, chk.cols)
            if k2[:2] > key[:2]:
                return (USE, src, j, -1)
        return (PLAN, plan)

    def _any_worth(self, state: State, s: int, spec, key, effect, ready, src, urgent, uses) -> bool:
        """After the roll: is this "any" effect (a danger or criterion cut, a threat ward, a refresh) worth
        using now, before AP is chosen? A cut or ward only if it saves damage or turns the check into a
        success, and then when it is free (a ready skill), she would die, the boss would fall, or it is a
        cut she would make this turn anyway; a refresh only to ready a post-roll skill the check needs."""
        if key[0] and key[1] == 0:
            return False
        ops = dict(effect)
        if "refresh_skills" in ops:
            return (ready and src == 0 or urgent) and not any(
                op in ("ap_bonus", "reroll", "recolour") for u in uses for op in u[5])
        if not (ready and src == 0 or urgent or "danger" in ops):
            return False
        trial = spec.copy()
        play = state.setup.play
        if "danger" in ops:
            cut = state.danger - max(play.danger_min, state.danger + int(ops["danger"].get("n") or 0))
            trial.fail -= cut
            if play.slate_per_danger:
                trial.slate_dmg -= cut
        if "criterion" in ops:
            n = int(ops["criterion"].get("n") or 0)
            trial.target += n
            trial.below += n
            trial.prompts = tuple((c, t + n) for c, t in trial.prompts)
        if "ignore_threat" in ops:
            trial.threats = ()
        _, k2 = dice.best_plan(trial, state.check.vals, state.check.cols)
        if k2[:2] <= key[:2]:
            return False
        if ready and src == 0 or urgent:
            return True
        # a danger cut she is not pressed to make: now rather than at the end of the turn, if she would then
        return state.danger >= 3 or (state.round >= 20 and state.danger >= 2)

    @staticmethod
    def _reroll_choice(state: State, spec):
        chk = state.check
        options = state.reroll_options()
        n = chk.tokens[0][0] if chk.tokens[0][0] >= 0 else len(chk.cols)
        if spec.slate >= 0:
            xs = [i for i, c in enumerate(chk.cols) if c == spec.slate]
            if xs and (xs[0],) in options and chk.vals[xs[0]] < spec.target:
                return (xs[0],)
        low = [o for o in options if len(o) <= n]
        target = spec.target
        below = [o for o in low if all(chk.vals[i] < target for i in o)]
        pool = below or low
        return max(pool, key=lambda o: (len(o), -sum(chk.vals[i] for i in o)))

    def on_success(self, state: State):
        s = state.active
        chk = state.check
        for src, j, effect, ready, level, ops in self._uses(state, SUCC):
            if "boss_damage" in ops and chk.kind == "boss" and not state.b_dead[chk.boss]:
                if ready or state.b_life[chk.boss] <= 1 or state.setup.bosses[chk.boss]["final"]:
                    return (USE, src, j, -1)
            elif "heal" in ops and ready and state.life[s] < state.max_life[s]:
                return (USE, src, j, -1)
        return (DONE,)

    def on_damage(self, state: State):
        s = state.active
        chk = state.check
        taken = chk.damage - state.mod_sum(s, "dred")   # what lands after the reductions so far
        lethal = taken >= state.life[s]
        heals = []
        for src, j, effect, ready, level, ops in self._uses(state, DMG):
            if "damage_reduce" in ops:
                if ready or lethal:
                    return (USE, src, j, -1)
            elif "refresh_skills" in ops:
                if ready and src == 0 or lethal:
                    return (USE, src, j, -1)
            elif lethal:
                heals.append((src, j, effect, level))
        if not lethal:
            return (DONE,)
        # the damage about to land would kill her (she respawns at S with her skills exhausted and her turn
        # ends): heal first if that saves her, a skill before a one-use sefira
        for src, j, effect, level in sorted(heals, key=lambda u: u[0]):
            if state.life[s] + _heal_amount(state, s, effect, level) > taken:
                return (USE, src, j, -1)
        if state.flower_window(DMG):
            for h in state.flower_targets(DMG):
                ev, _, marks = state.held[h]
                der = state.setup.derived[state.setup.events[ev]["derived"][marks]]
                if state.life[s] + _heal_amount(state, s, der["effect"], 0) > taken:
                    return (FLOWER, h)
        return (DONE,)

    def end(self, state: State):
        use = self.any_use(state, END)
        if use is not None:
            return use
        return (ENDT,)


def _wins_before(p, wins, fails) -> float:
    """P(``wins`` successes of chance ``p`` come before ``fails + 1`` failures), negative binomial."""
    q = 1 - p
    total, term = 0.0, p ** wins
    for f in range(fails + 1):
        total += term
        term *= q * (wins + f) / (f + 1)
    return min(1.0, total)


def _heal_amount(state: State, s: int, effect, level) -> int:
    """The life she would have gained from ``effect`` (heal, heal to full, more max life; capped at her max)."""
    gain, room = 0, state.max_life[s] - state.life[s]
    for op, p in effect:
        if op == "heal":
            gain += _num(state, s, p, level)
        elif op == "heal_full":
            gain += room
        elif op == "max_life":
            n = _num(state, s, p, level)
            room += n
            gain += n
    return min(gain, room)


def _party_low(state: State) -> bool:
    """Is a maiden down to 2 life or less?"""
    return any(state.life[o] <= 2 for o in range(state.n))


def _harsh(effects) -> bool:
    """Does clearing this area lift a threat or a "no ..." effect (a loop: no generator at move choices)?"""
    for e in effects:
        if e.startswith("threat") or e.startswith("no_"):
            return True
    return False


def _mean_chance(actions) -> float:
    """The mean success chance of these (chance, side damage) boss actions (a loop: no generator and sum
    call at every fight judgement)."""
    total = 0.0
    for p, _ in actions:
        total += p
    return total / len(actions)


def _unexplored(state: State, nodes) -> int:
    """How many of these rooms are unexplored (a plain loop: asked at most move choices)."""
    count = 0
    for w in nodes:
        if not state.explored[w]:
            count += 1
    return count


def _exhausted(state: State, s: int) -> int:
    """How many of her skills are exhausted (a plain loop: asked at every move choice)."""
    count = 0
    for sk in state.skills[s]:
        if sk[2]:
            count += 1
    return count


def _colour_index(name) -> int:
    return ("red", "blue", "black", "white").index(name) if name in ("red", "blue", "black", "white") else -1


class RushAgent(HeuristicAgent):
    """Baseline: the shortest path to Urza, fighting whatever blocks it (spec §5.3)."""

    name = "rush_urza"
    rush = True

    def move(self, state: State):
        s = state.active
        use = self.any_use(state, MOVE)
        if use is not None and use[0] != FLOWER:
            return use
        dests = state.destinations()
        if not dests:
            return (SKIP,)
        urza = state.setup.bosses[state.setup.final_boss]["node"]
        dist = _plain_steps(state, s, urza)
        here = dist[state.pos[s]]
        # only the bosses that stand on the way (closer to the throne than she is); never a detour to fight
        moves = [(GO, v, key) for v, key in dests
                 if state.setup.kind[v] != BOSS or dist[v] < here or v == state.pos[s] or v == urza]
        if not moves:
            moves = [(GO, v, key) for v, key in dests]
        return min(moves, key=lambda a: (dist[a[1]], a[2], a[1]))


def _holds_refresh(state: State, s: int) -> bool:
    """Holding a ready "refresh your skills" card, exhausting another skill costs little: treat it as ready
    (one refresh readies them all, even if the refresh card itself is then exhausted)."""
    skills, serial = state.setup.skills, state.turn_serial
    for sk in state.skills[s]:   # (a plain loop: no generator at every skill-use judgement)
        if not sk[2] and sk[3] != serial and "refresh_skills" in skills[sk[0]]["ops"]:
            return True
    return False


def _route_steps(state: State, s: int, origin: int) -> list[int]:
    """``steps_from``, cached for the whole process by everything it depends on (read-only result)."""
    setup = state.setup
    stats = tuple(map(len, state.stacks[s]))
    keyrooms = (state.explored_bits | _key_rooms_open(setup, stats)) & setup.key_room_bits   # explored or open
    key = (origin, state.dead_key, state.opened_key, stats[INS], keyrooms, bool(state.keys[s]))
    return setup_memo(setup, "_route_steps", key, HeuristicAgent.steps_from, state, s, origin)


def _goal_key(state: State, s: int, for_final) -> tuple:
    """What ``_goal_now`` reads besides ``for_final``: defeated bosses, opened passages, her stats (hidden
    passages, key conditions), explored key rooms and whether she holds a key."""
    return (for_final, state.dead_key, state.opened_key, tuple(map(len, state.stacks[s])),
            state.explored_bits & state.setup.key_room_bits, bool(state.keys[s]))


def _boss_actions_key(state: State, s: int, b: int) -> tuple:
    """What ``boss_actions`` reads: the trait and weakness state (whether the trait is on follows from its
    switch and the weakness), the area, danger, criterion, her die size and Pie (by Will and Pie stacks),
    her criterion modifiers and the boss's action modifiers."""
    area = state.setup.bosses[b]["area"]
    return (b, state.b_trait_off[b], state.weakness_revealed(b, s), state.area_active(area), state.danger,
            state.crit, state.stat(s, WIL), state.stat(s, PIE), state.mod_sum(s, "crit"), state.b_mods[b])


def _key_rooms_open(setup: Setup, stats: tuple) -> int:
    """The key rooms whose key condition these stats meet (``State.key_ok``), as bits by room."""
    return setup_memo(setup, "_key_rooms_open", stats, _key_rooms_open_now, setup, stats)


def _key_rooms_open_now(setup: Setup, stats: tuple) -> int:
    return sum(1 << v for v in setup.key_rooms if all(stats[k] >= n for k, n in setup.key_cond[v]))


def _plain_steps(state: State, s: int, origin: int) -> list[int]:
    """Steps ignoring every blocker except closed passages (the rush path); cached (read-only result)."""
    key = (origin, len(state.stacks[s][INS]), state.opened_key)
    return setup_memo(state.setup, "_plain_steps", key, _plain_steps_now, state, s, origin)


def _plain_steps_now(state: State, s: int, origin: int) -> list[int]:
    setup = state.setup
    inf = 1 << 20
    dist = [inf] * len(setup.node_id)
    if origin < 0:
        return dist
    dist[origin] = 0
    dq = deque([origin])
    adj = state.adjacency(s)
    while dq:
        v = dq.popleft()
        for w in adj[v]:
            if dist[w] == inf:
                dist[w] = dist[v] + 1
                dq.append(w)
    return dist


AGENTS = {"heuristic": HeuristicAgent, "greedy": HeuristicAgent, "rush_urza": RushAgent}
