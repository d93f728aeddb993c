"""Metroidvania engine: spec §3 (shared/spec/metroidvania.md) as an OpenSpiel-style State.

A sibling of ``fatal_fight``. Reading order: ``metroidvania_setup`` (tables -> Setup), this module
(the State: setup, rounds and turns, movement over map.yaml, rooms, checks, bosses, level-ups,
death), ``metroidvania_dice`` (plans, the best plan, exact chances), ``metroidvania_effects`` (the
37 ``effect:`` ops), ``metroidvania_agents`` (heuristic, rush_urza) and ``metroidvania_report``
(record, invariants, trace, static map checks, the game's extra balance bands).

Decisions are explicit: where to place an action card, which drawn card to keep, where to move,
which skill/sefira/flower to use in each timing window, and after the dice are rolled *which dice
to pair away (ascension) and which become AP* (a ``PLAN`` action). Chance draws only from the
``Random`` the game was dealt with (``self.rng``); ``clone()`` copies it.
"""
from __future__ import annotations

from collections import deque

from ...sim.api import TERMINAL, IllegalActionError
from ...sim.rng import copy_rng, sample, shuffle
from . import metroidvania_dice as dice
from .metroidvania_effects import OPS, arg_kind
from .metroidvania_setup import (AGI, BOSS, DANGER, EVENT, INS, KEY, NORMAL, PIE, REST, START, WHITE, WIL,  # noqa: F401
                                 compile_setup)  # (module API)

NAME = "metroidvania"
VERSION = "1"

# phases (what the current decision is about)
PLACE, PICK, LEVEL, PEEK, MOVE, PRE, POST, SUCC, DMG, END, OVER = range(11)
PHASES = ("place", "pick", "level", "peek", "move", "pre_roll", "post_roll", "on_success", "on_damage", "end", "over")
# action kinds
USE, FLOWER, GO, SKIP, ROLL, REROLL, PLAN, DONE, ENDT, PLACE_A, PICK_A, LEVEL_A, TOP = range(13)
# turn steps (where the turn continues when no task is pending)
ST_MOVE, ST_PRE, ST_POST, ST_SUCC, ST_DMG, ST_APPLY, ST_END, ST_NEXT = range(8)
# "any" (いつでも) effects are offered in the two free windows of a turn (before moving, after the room):
# the moments where a heal, a danger reduction or a refresh changes anything.
WINDOW = {MOVE: ("move", "any"), PRE: ("pre_roll",), POST: ("post_roll",), SUCC: ("on_success",),
          DMG: ("on_damage",), END: ("any",)}
_STEP_PHASE = {ST_PRE: PRE, ST_SUCC: SUCC, ST_DMG: DMG, ST_END: END}
# effects that only make sense at a given window (others are legal wherever their timing allows)
_POST_OPS = ("ap_bonus", "reroll", "recolour")
_PRE_OPS = ("extra_dice", "die_step", "ignore_slate", "multi_minus", "auto_success")


class Check:
    """The check being resolved (a room card, a boss action, or a danger room's damage)."""

    __slots__ = ("kind", "node", "card", "boss", "action", "d", "multi", "slate", "prompts", "size", "vals", "cols",
                 "rolled", "success", "fail", "side", "damage", "plan", "auto", "sub", "spec", "area", "crit",
                 "threats", "asc", "noskills", "slate_dmg", "tokens")

    def __init__(self, kind, node):
        self.kind, self.node = kind, node
        self.card = self.boss = self.action = -1
        self.d, self.multi, self.slate, self.prompts = 0, 1, -1, ()
        self.size, self.vals, self.cols = 0, [], []
        self.rolled = self.success = self.auto = self.noskills = False
        self.fail = self.side = self.damage = 0
        self.plan, self.spec, self.sub = None, None, 0
        self.area, self.crit, self.threats, self.asc, self.slate_dmg = -1, 0, (), True, 0
        self.tokens = []

    def copy(self) -> "Check":
        twin = Check.__new__(Check)
        for name in Check.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.vals, twin.cols, twin.tokens = list(self.vals), list(self.cols), list(self.tokens)
        return twin


_LISTS = ("pos", "came", "life", "max_life", "servant", "deaths", "b_dead", "b_life", "b_ptr", "b_start", "b_active",
          "b_delta", "b_skip", "b_trait_off", "b_weak", "b_mods", "explored", "action_deck", "action_disc",
          "skill_deck", "skill_disc", "room_deck", "room_disc", "event_deck", "event_disc", "sefira_deck",
          "sefira_disc", "sefira_area", "order", "tasks", "kills", "log", "area_left", "drawn")
_NESTED = ("stacks", "flowers", "keys", "mods", "unlocked")


class State:
    __slots__ = ("setup", "rng", "n", *_LISTS, *_NESTED, "skills", "held", "opened", "round", "crit", "danger",
                 "tpos", "seat", "active", "phase", "step", "turn_serial", "check", "outcome", "_legal", "_dest",
                 "_dist", "_judged", "markers_max", "skipped", "built")

    # ---- OpenSpiel contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.seat

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return [1.0 if self.outcome == "win" else 0.0 if self.outcome is None else -1.0] * self.n

    def legal_actions(self) -> list:
        if self._legal is None:
            self._legal = self._legal_actions()
        return self._legal

    def apply_action(self, action) -> None:
        if not self._is_legal(action):
            raise IllegalActionError(f"{self.action_to_string(action)} is not legal now")
        self.log.append(("act", self.seat, action))
        self._legal = None
        if action[0] in (USE, FLOWER):  # the only decisions that can change where she may move this turn
            self._dest = None
        self._apply(action)
        self._advance()
        self._legal = None

    def clone(self) -> "State":
        twin = State.__new__(State)
        for name in State.__slots__:
            setattr(twin, name, getattr(self, name))
        for name in _LISTS:
            setattr(twin, name, list(getattr(self, name)))
        for name in _NESTED:
            setattr(twin, name, [list(x) for x in getattr(self, name)])
        twin.stacks = [[list(stack) for stack in mine] for mine in self.stacks]
        twin.skills = [[list(sk) for sk in mine] for mine in self.skills]
        twin.held = [list(h) for h in self.held]
        twin.opened = set(self.opened)
        twin.check = self.check.copy() if self.check is not None else None
        twin.rng = copy_rng(self.rng)
        return twin

    def action_to_string(self, action) -> str:
        from .metroidvania_report import action_text
        return action_text(self, action)

    def __str__(self) -> str:
        from .metroidvania_report import state_text
        return state_text(self)

    # ---- stats and small primitives -------------------------------------------------------------
    def stat(self, s: int, k: int) -> int:
        return len(self.stacks[s][k])

    def die_size(self, s: int, step: int = 0) -> int:
        sizes = self.setup.rules["die_by_will"]
        return sizes[min(len(sizes) - 1, min(self.stat(s, WIL), self.setup.rules["stats_cap.wil"]) + step)]

    def draw_count(self, s: int, deck: str) -> int:
        return 1 + (self.stat(s, INS) if deck in self.setup.rules["ins_decks"] else 0)

    def set_danger(self, value: int) -> None:
        r = self.setup.rules
        new = max(r["danger.min"], min(r["danger.max"], value))
        if new != self.danger:
            self.danger = new
            self.log.append(("danger", new))

    def heal(self, s: int, n: int) -> None:
        gained = min(n, self.max_life[s] - self.life[s])
        if gained > 0:
            self.life[s] += gained
            self.log.append(("heal", s, gained))

    def refresh(self, s: int) -> None:
        for sk in self.skills[s]:
            sk[2] = False

    def unlock_second(self, s: int) -> None:
        if not self.unlocked[s][0]:
            self.unlocked[s][0] = True
            self.learn(s, self.setup.servants[self.servant[s]]["second"])

    def learn(self, s: int, skill: int) -> None:
        self.skills[s].append([skill, 0, False, 0])
        self.log.append(("learn", s, skill))

    def push_task(self, task) -> None:
        self.tasks.append(task)

    def area_active(self, area: int) -> bool:
        return area >= 0 and self.area_left[area] > 0

    def mark(self, node: int) -> None:
        if not self.explored[node]:
            self.explored[node] = True
            a = self.setup.area[node]
            if a >= 0 and self.setup.node_boss[node] < 0 and self.setup.kind[node] != START:
                self.area_left[a] -= 1
                if self.area_left[a] == 0 and self.setup.areas[a]["effects"]:
                    self.log.append(("area_clear", a))

    def markers(self) -> int:
        """Exploration markers on the board: rooms, skill levels, event levels, boss pointers."""
        return (sum(self.explored) + sum(sk[1] for mine in self.skills for sk in mine)
                + sum(h[2] for h in self.held) + sum(1 for b in self.b_active if b))

    # (most of the time a maiden has no modifier at all: the empty case returns at once)
    def mods_of(self, s: int, kind: str) -> list:
        mods = self.mods[s]
        return [m for m in mods if m[0] == kind] if mods else []

    def mod_sum(self, s: int, kind: str) -> int:
        mods = self.mods[s]
        return sum(m[1] for m in mods if m[0] == kind) if mods else 0

    def has_mod(self, s: int, kind: str) -> bool:
        mods = self.mods[s]
        return any(m[0] == kind for m in mods) if mods else False

    def expire(self, until: str) -> None:
        for s in range(self.n):
            if self.mods[s]:
                self.mods[s] = [m for m in self.mods[s] if m[3] != until]

    # ---- drawing --------------------------------------------------------------------------------
    def draw(self, deck_name: str, k: int) -> list:
        deck = getattr(self, deck_name + "_deck")
        out = []
        for _ in range(k):
            if not deck:
                disc = getattr(self, deck_name + "_disc")
                if not disc:
                    break
                deck.extend(disc)
                disc.clear()
                shuffle(deck, self.rng)
                self.log.append(("reshuffle", deck_name))
            out.append(deck.pop())
        return out

    # ---- bosses ---------------------------------------------------------------------------------
    def boss_life_now(self, b: int) -> int:
        boss = self.setup.bosses[b]
        return max(1, boss["life"] + self.setup.rules["boss_life_bonus"].get(self.n, 0) + self.b_delta[b])

    def in_room(self, b: int) -> list:
        node = self.setup.bosses[b]["node"]
        return [s for s in range(self.n) if self.pos[s] == node]

    def weakness_revealed(self, b: int, s: int) -> bool:
        weak = self.setup.bosses[b]["weakness"]
        if weak is None:
            return False
        if self.b_weak[b] or any(m[0] == "weak" and m[1] == b for m in self.mods[s]):
            return True
        return any(self.stat(p, INS) >= weak[0] for p in self.in_room(b))

    def trait_active(self, b: int, s: int) -> bool:
        if self.b_trait_off[b]:
            return False
        weak = self.setup.bosses[b]["weakness"]
        if weak and any(op == "forbid_trait" for op, _ in weak[1]) and self.weakness_revealed(b, s):
            return False
        return True

    def boss_action(self, b: int, s: int, index: int) -> tuple:
        """(difficulty, multi, slate) of action ``index`` with derived-event and weakness modifiers."""
        boss = self.setup.bosses[b]
        d, multi, slate = boss["actions"][index]
        mods = self.b_mods[b]
        if boss["weak_mods"] and self.weakness_revealed(b, s):
            mods = mods + boss["weak_mods"]
        for i, dd, mm, rs in mods:
            if i == 0 or i == index + 1:
                d += dd
                multi = max(1, multi - mm)
                if rs:
                    slate = -1
        return d, multi, slate

    def hit_boss(self, b: int, n: int, s: int) -> None:
        self.b_life[b] -= n
        self.log.append(("boss_hit", s, b, n, self.b_life[b]))
        if self.b_life[b] <= 0:
            self.defeat(b, s)

    def defeat(self, b: int, s: int) -> None:
        setup, rules = self.setup, self.setup.rules
        self.b_dead[b] = True
        self.b_active[b] = False
        self.kills.append(b)
        self.log.append(("boss_kill", s, b, self.round))
        if rules["boss.marker_on_defeat"] and setup.bosses[b]["node"] >= 0:
            self.mark(setup.bosses[b]["node"])
        if setup.bosses[b]["final"]:
            self.finish("win")
            return
        if rules["second_servant_skill"] == "event_or_first_boss" and len(self.kills) == 1:
            for p in range(self.n):
                self.unlock_second(p)
        if rules["boss.level_up_all_on_defeat"]:
            for k in range(self.n):
                self.push_task(("place", (s + k) % self.n, None))

    def leave(self, s: int, old: int) -> None:
        """Maiden ``s`` left node ``old``: an emptied boss room resets (§3.5.6)."""
        b = self.setup.node_boss[old]
        if b >= 0 and self.b_active[b] and not self.b_dead[b] and not self.in_room(b):
            if self.setup.rules["boss.reset_when_empty"]:
                self.b_active[b] = False
                self.log.append(("boss_reset", b))

    def relocate(self, s: int, node: int) -> None:
        old = self.pos[s]
        self.pos[s] = node
        if old != node:
            self.leave(s, old)

    def finish(self, outcome: str) -> None:
        if self.outcome is None:
            self.outcome = outcome
            self.phase = OVER
            self.tasks.clear()
            self.log.append(("end", outcome, self.round))

    # ---- skills ---------------------------------------------------------------------------------
    def condition_met(self, s: int, skill: int) -> bool:
        sk = self.setup.skills[skill]
        tops = [0, 0, 0, 0]
        for stack in self.stacks[s]:
            if stack:
                tops[stack[-1]] += 1
        if any(have < need for have, need in zip(tops, sk["tops"])):
            return False
        return all(self.stacks[s][k] and self.stacks[s][k][-1] == t for k, t in sk["stat_tops"])

    def skills_blocked(self, s: int) -> bool:
        """No skills: a no_skills area where she stands, or a boss check under a forbidding trait."""
        a = self.setup.area[self.pos[s]]
        if a >= 0 and "no_skills" in self.setup.areas[a]["effects"] and self.area_active(a):
            return True
        return self.check is not None and self.check.noskills

    def usable(self, phase: int) -> list:
        """(source, index, effect, timing) of every skill and sefira usable by the turn player now."""
        s = self.active
        timings = WINDOW.get(phase, ())
        out = []
        chk = self.check
        if not self.skills_blocked(s):
            for j, (skill, level, exhausted, used) in enumerate(self.skills[s]):
                sk = self.setup.skills[skill]
                if exhausted or used == self.turn_serial or sk["timing"] not in timings:
                    continue
                if self._fits(sk["ops"], phase, chk):
                    out.append((0, j))
        for j, sef in enumerate(self.sefira_area):
            sf = self.setup.sefira[sef]
            if sf["timing"] in timings and self._fits(sf["ops"], phase, chk):
                out.append((1, j))
        return out

    def _fits(self, ops, phase, chk) -> bool:
        """May an effect with these ``ops`` be used in ``phase`` (some only make sense at one window)?"""
        if phase == SUCC:
            return chk is not None and (chk.kind == "boss" or "boss_damage" not in ops)
        if phase == POST and any(op in _POST_OPS for op in ops):
            return True
        if phase == POST:
            return False
        if phase == PRE and "auto_success" in ops:
            return chk is not None and self._single(chk)
        return True

    def _single(self, chk) -> bool:
        """A check needing one AP die (auto_success may replace it)."""
        if chk.prompts:
            return len(chk.prompts) == 1
        return chk.kind != "danger" and max(1, chk.multi - self.mod_sum(self.active, "mminus")) <= 1

    def _args(self, effect) -> list:
        kind = arg_kind(effect)
        if kind is None:
            return [-1]
        if kind == "node":
            for op, p in effect:
                if op == "teleport":
                    to = p.get("to")
                    if to == "start":
                        return [self.setup.start]
                    if to == "ally":
                        return sorted({self.pos[o] for o in range(self.n) if o != self.active}) or [-1]
            return [v for v in range(len(self.explored)) if self.explored[v] and v != self.pos[self.active]] or [-1]
        ctx = self.context_boss()
        if ctx >= 0:
            return [-1]
        return [b for b in range(len(self.b_dead)) if not self.b_dead[b]] or [-1]

    def context_boss(self) -> int:
        if self.check is not None and self.check.boss >= 0:
            return self.check.boss
        b = self.setup.node_boss[self.pos[self.active]]
        return b if b >= 0 and not self.b_dead[b] else -1

    def use(self, src: int, j: int, arg: int) -> None:
        s = self.active
        if src == 0:
            entry = self.skills[s][j]
            skill = entry[0]
            sk = self.setup.skills[skill]
            met = self.condition_met(s, skill)
            entry[3] = self.turn_serial
            if not met:
                entry[2] = True
            self.log.append(("use", s, sk["id"], met))
            self.apply_effect(sk["effect"], s, {"level": entry[1], "boss": self.context_boss(), "arg": arg})
        else:
            sef = self.sefira_area.pop(j)
            self.log.append(("sefira_out", sef))  # used sefira leave the game (§3.11)
            sf = self.setup.sefira[sef]
            self.log.append(("use", s, sf["id"], True))
            self.apply_effect(sf["effect"], s, {"level": 0, "boss": self.context_boss(), "arg": arg})

    def apply_effect(self, effect, user, ctx) -> None:
        for op, params in effect:
            if self.phase == OVER:
                return
            OPS[op](self, user, params, ctx)

    # ---- flowers and events ---------------------------------------------------------------------
    def flower_targets(self) -> list:
        limit = self.setup.rules["flowers_per_event"]
        return [h for h, (ev, holder, marks) in enumerate(self.held) if marks < limit]

    def use_flower(self, h: int) -> None:
        s = self.active
        card = self.flowers[s].pop()
        if card >= 0:
            self.room_disc.append(card)
        entry = self.held[h]
        entry[2] += 1
        ev = self.setup.events[entry[0]]
        d = ev["derived"][entry[2] - 1]
        der = self.setup.derived[d]
        self.log.append(("derived", s, der["id"], ev["id"]))
        self.apply_effect(der["effect"], s, {"level": 0, "boss": -1, "arg": -1, "link": der["link"]})

    # ---- movement -------------------------------------------------------------------------------
    def move_points(self, s: int) -> int:
        r = self.setup.rules
        return r["move.base"] + r["move.per_agi"] * self.stat(s, AGI) + self.mod_sum(s, "move")

    def distances(self, s: int, origin: int, limit: int = 1 << 20) -> list:
        """0-1 BFS cost from ``origin`` for maiden ``s``: explored rooms cost 0, unexplored 1.

        Nodes that block passage (unexplored key rooms, undefeated boss rooms) get a cost but are
        not expanded; hidden edges need Ins, sealed ones must be open. Costs up to ``limit`` are
        exact; nodes beyond it are not expanded (their cost is above ``limit`` or unknown)."""
        setup, r = self.setup, self.setup.rules
        explored = self.explored
        c0, c1 = r["move.explored_step_cost"], r["move.unexplored_step_cost"]
        inf = 1 << 20
        dist = [inf] * len(explored)
        dist[origin] = 0
        # which nodes may be passed through (expanded) besides the origin
        passable = self._passable(s)
        # an undefeated boss room is left only the way she came in (it blocks the passage, gap 11)
        b = setup.node_boss[origin]
        if origin == self.pos[s] and b >= 0 and not self.b_dead[b] and r["blocked_boss"] and self.came[s] >= 0:
            first = [self.came[s]]
        else:
            first = self._neighbours(s, origin)
        dq = deque()
        for w in first:
            nd = c0 if explored[w] else c1
            if nd < dist[w]:
                dist[w] = nd
                dq.append(w)
        if c0 == 0:
            zero = [w for w in dq if dist[w] == 0]
            dq = deque(zero + [w for w in dq if dist[w] != 0])
        adj = self.adjacency(s)
        pop, push, push_front = dq.popleft, dq.append, dq.appendleft
        while dq:
            v = pop()
            dv = dist[v]
            if dv > limit or not passable[v]:
                continue
            for w in adj[v]:
                nd = dv + (c0 if explored[w] else c1)
                if nd < dist[w]:
                    dist[w] = nd
                    if nd == dv:
                        push_front(w)
                    else:
                        push(w)
        return dist

    def adjacency(self, s: int) -> list:
        """Neighbours over the passages open to maiden ``s`` (hidden ones by her Ins, opened sealed ones)."""
        key = (self.stat(s, INS), tuple(sorted(self.opened)))
        cache = self.setup.__dict__.setdefault("_adj", {})
        adj = cache.get(key)
        if adj is None:
            ins, opened = key[0], set(key[1])
            adj = cache[key] = [plain + [w for w, h, sid in cond if (not h or ins >= h) and (sid < 0 or sid in opened)]
                                for plain, cond in zip(self.setup.plain_adj, self.setup.cond_adj)]
        return adj

    def _passable(self, s: int) -> list:
        """Per node: may a path go on through it (explored, or passable unexplored)?"""
        setup, r = self.setup, self.setup.rules
        if not r["move.pass_through_unexplored"]:
            return list(self.explored)
        out = [True] * len(self.explored)
        passkey = self.has_mod(s, "passkey")
        for v in setup.blockers:
            if self.explored[v]:
                continue
            if setup.kind[v] == BOSS:
                if r["blocked_boss"]:
                    out[v] = False
            elif r["blocked_key"] and not passkey:
                out[v] = False
        return out

    def _neighbours(self, s: int, v: int) -> list:
        return self.adjacency(s)[v]

    def key_ok(self, s: int, node: int) -> bool:
        return all(self.stat(s, k) >= v for k, v in self.setup.key_cond[node])

    def destinations(self) -> list:
        """Legal (node, spends_key) end points of the turn player's move (§3.3.1)."""
        if self._dest is not None:
            return self._dest
        s = self.active
        setup, r = self.setup, self.setup.rules
        here = self.pos[s]
        mp = self.move_points(s)
        # entry_side() reuses these costs (exact up to mp: all a move and its entry step can need)
        dist = self.distances(s, here, mp)
        self._dist = (s, here, dist)
        out = []
        passkey = self.has_mod(s, "passkey")
        seal = r["urza_seal_bosses"]
        for v, d in enumerate(dist):
            if d > mp:
                continue
            b = setup.node_boss[v]
            if setup.kind[v] == BOSS:
                if b < 0 or self.b_dead[b] or (v == here and d > 0):
                    continue
                if setup.bosses[b]["final"] and seal and len(self.kills) < seal:
                    continue
                out.append((v, 0))
            elif not self.explored[v] and v != here:
                if setup.kind[v] == KEY and not passkey and not self.key_ok(s, v):
                    if self.keys[s]:
                        out.append((v, 1))
                    continue
                out.append((v, 0))
        self._dest = out
        return out

    def entry_side(self, s: int, origin: int, node: int) -> int:
        """The neighbour she steps into boss room ``node`` from on a cheapest path."""
        cached = self._dist if self._dest is not None else None
        dist = cached[2] if cached is not None and cached[:2] == (s, origin) else self.distances(s, origin)
        passable = self._passable(s)
        cost = self.setup.rules["move.unexplored_step_cost"]
        for w, hidden, sid in self.setup.adj[node]:
            if dist[w] + cost == dist[node] and (w == origin or passable[w]):
                if (not hidden or self.stat(s, INS) >= hidden) and (sid < 0 or sid in self.opened):
                    return w
        return -1

    def go(self, node: int, spend_key: int) -> None:
        s = self.active
        setup = self.setup
        if spend_key:
            card = self.keys[s].pop()
            if card >= 0:
                self.room_disc.append(card)
            self.log.append(("key_used", s, node))
        old = self.pos[s]
        if setup.kind[node] == BOSS and node != old:
            self.came[s] = self.entry_side(s, old, node)
        self.pos[s] = node
        if old != node:
            self.leave(s, old)
        self.log.append(("go", s, node))
        kind = setup.kind[node]
        if kind != BOSS:
            self.mark(node)
        self.enter(node, kind)

    def enter(self, node: int, kind: int) -> None:
        """The room phase of the room just entered (§3.3.3)."""
        s = self.active
        rules = self.setup.rules
        self.step = ST_END
        if kind == NORMAL:
            self.push_task(("pick", s, "room", None))
        elif kind == REST:
            if rules["rest.heal_full"]:
                self.heal(s, self.max_life[s])
            if rules["rest.refresh_skills"]:
                self.refresh(s)
            self.set_danger(self.danger + rules["rest.danger"])
            self.log.append(("rest", s, node))
        elif kind == DANGER:
            self.set_danger(self.danger + rules["danger_room.danger"])
            chk = Check("danger", node)
            chk.area = self.setup.area[node]
            chk.damage = chk.fail = self.danger
            chk.rolled = True
            self.check = chk
            self.step = ST_DMG
        elif kind == EVENT:
            self.push_task(("pick", s, "event", None))
        elif kind == KEY:
            self.push_task(("pick", s, "sefira", None))
        elif kind == BOSS:
            self.start_boss_check(self.setup.node_boss[node])

    # ---- checks ---------------------------------------------------------------------------------
    def start_room_check(self, card: int) -> None:
        room = self.setup.rooms[card]
        chk = Check("room", self.pos[self.active])
        chk.card = card
        chk.d, chk.multi, chk.slate, chk.prompts, chk.sub = room["d"], room["multi"], room["slate"], room["prompts"], \
            room["sub"]
        self._area_rules(chk, "room_checks")
        self.check = chk
        self.step = ST_PRE

    def start_boss_check(self, b: int) -> None:
        s = self.active
        if not self.b_active[b]:
            self.b_active[b] = True
            self.b_life[b] = self.b_start[b] = self.boss_life_now(b)
            self.b_ptr[b] = 0
            self.log.append(("boss_in", s, b, self.b_life[b]))
        n_actions = len(self.setup.bosses[b]["actions"])
        guard = 0
        while self.b_skip[b] >> self.b_ptr[b] & 1 and guard < n_actions:
            self.advance_pointer(b, s)
            guard += 1
        chk = Check("boss", self.pos[s])
        chk.boss, chk.action = b, self.b_ptr[b]
        chk.d, chk.multi, chk.slate = self.boss_action(b, s, chk.action)
        self._area_rules(chk, "boss_checks")
        if self.trait_active(b, s):
            for op, p in self.setup.bosses[b]["trait"]:
                if op == "forbid":
                    if p.get("what") == "ascension":
                        chk.asc = False
                    else:
                        chk.noskills = True
                elif op == "threat":
                    chk.threats = chk.threats + (("red", "blue", "black").index(p.get("colour")),)
                elif op == "criterion":
                    chk.crit += int(p.get("n") or 0)
                elif op == "damage_plus":
                    chk.fail += int(p.get("n") or 0)
        self.check = chk
        self.step = ST_PRE

    def _area_rules(self, chk: Check, scope: str) -> None:
        a = self.setup.area[chk.node]
        chk.area = a
        if a >= 0 and scope in self.setup.rules["scope"] and self.area_active(a):
            effects = self.setup.areas[a]["effects"]
            chk.threats = self.setup.areas[a]["threats"]
            if "no_ascension" in effects:
                chk.asc = False

    def advance_pointer(self, b: int, s: int) -> None:
        n_actions = len(self.setup.bosses[b]["actions"])
        self.b_ptr[b] = (self.b_ptr[b] + 1) % n_actions
        if self.b_ptr[b] == 0 and self.trait_active(b, s):
            for op, p in self.setup.bosses[b]["trait"]:
                if op == "regen" and self.b_life[b] < self.b_start[b]:
                    self.b_life[b] = min(self.b_start[b], self.b_life[b] + int(p.get("n") or 1))
                    self.log.append(("regen", b, self.b_life[b]))

    def criterion_for(self, s: int) -> int:
        return self.crit + self.mod_sum(s, "crit") + (self.check.crit if self.check is not None else 0)

    def roll(self) -> None:
        """Roll the check's dice (§3.4.1-2), or succeed at once under auto_success."""
        s, chk, r = self.active, self.check, self.setup.rules
        chk.rolled = True
        if self.has_mod(s, "auto") and self._single(chk):
            chk.auto = chk.success = True
            chk.side = 0
            self.log.append(("check", s, chk.node, self._source(chk), 0, True, 0))
            self._after_resolution()
            return
        if self.has_mod(s, "noslate"):
            chk.slate = -1
        chk.multi = max(1, chk.multi - self.mod_sum(s, "mminus"))
        step = self.mod_sum(s, "step")
        chk.size = self.die_size(s, step)
        cols = list(r["coloured"]) + [WHITE] * (self.stat(s, PIE) * r["white_dice_per_pie"])
        for m in self.mods_of(s, "xdice"):
            cols += [m[2]] * m[1]
        rand = self.rng.random
        size = chk.size
        chk.cols = cols
        chk.vals = [1 + int(rand() * size) for _ in cols]
        chk.tokens = [(m[1], m[2]) for m in self.mods_of(s, "reroll")]
        self.mods[s] = [m for m in self.mods[s] if m[0] != "reroll"]
        self.log.append(("roll", s, size, tuple(chk.vals), tuple(cols)))
        if chk.kind == "room" and not chk.prompts:
            self.log.append(("checkp", self.setup.rooms[chk.card]["id"], size, len(cols), self.criterion_for(s) + chk.d,
                             chk.multi, chk.slate >= 0, chk.asc, self.stat(s, PIE)))
        self.step = ST_POST

    def spec(self) -> dice.Spec:
        """What the current roll must achieve, with every modifier of the turn player."""
        s, chk, r = self.active, self.check, self.setup.rules
        crit = self.criterion_for(s)
        single, all_b = [], 0
        for m in self.mods_of(s, "apb"):
            if m[2]:
                all_b += m[1]
            else:
                single.append(m[1])
        threats = () if self.has_mod(s, "nothreat") else chk.threats
        prompts = tuple((c, crit + off) for c, off in chk.prompts)
        return dice.Spec(target=crit + chk.d, m=chk.multi, slate=chk.slate, prompts=prompts, asc=chk.asc,
                         pie=self.stat(s, PIE), max_pairs=r["ascension_max_pairs"], single=single, all_bonus=all_b,
                         recolour=[(m[1], m[2]) for m in self.mods_of(s, "recol")], fail=self.danger + chk.fail,
                         slate_dmg=self.danger if r["slate_damage_per_die"] == "danger" else 1,
                         threats=threats, threat_dmg=r["threat.damage"], below=crit,
                         white_prompts=r["ascension_white_dice_in_qte"] == "also_prompts")

    def reroll_options(self) -> list:
        chk = self.check
        if not chk.tokens:
            return []
        n, colour = chk.tokens[0]
        cands = [i for i, c in enumerate(chk.cols) if colour < 0 or c == colour]
        cands.sort(key=lambda i: (chk.vals[i], i))
        out = {(i,) for i in cands}
        for j in range(2, min(n, len(cands)) + 1):
            out.add(tuple(sorted(cands[:j])))
        return sorted(out)

    def do_reroll(self, dice_idx) -> None:
        chk = self.check
        chk.tokens.pop(0)
        rand = self.rng.random
        for i in dice_idx:
            chk.vals[i] = 1 + int(rand() * chk.size)
        self.log.append(("reroll", self.active, tuple(dice_idx), tuple(chk.vals)))

    def resolve(self, plan) -> None:
        s, chk = self.active, self.check
        judged, self._judged = self._judged, None
        if judged is not None and judged[0] is plan:
            spec, result = judged[1], judged[2]
        else:
            spec = self.spec()
            result = dice.outcome(spec, chk.vals, chk.cols, plan)
        success, damage, _ = result
        chk.plan, chk.success = plan, success
        chk.side = damage - (0 if success else spec.fail)
        chk.damage = damage
        self.mods[s] = [m for m in self.mods[s] if not (m[3] == "check" and m[0] in ("apb", "recol"))]
        self.log.append(("check", s, chk.node, self._source(chk), spec.target, success, damage))
        self._after_resolution()

    def _after_resolution(self) -> None:
        chk = self.check
        if chk.success and chk.kind == "boss":   # a double/triple success deals boss.multi_success_damage
            printed_multi = self.setup.bosses[chk.boss]["actions"][chk.action][1]
            self.hit_boss(chk.boss, self.setup.rules["boss.multi_success_damage"] if printed_multi > 1 else 1,
                          self.active)
        self.step = ST_SUCC if chk.success else ST_DMG

    def _source(self, chk) -> str:
        if chk.kind == "boss":
            return f"{self.setup.bosses[chk.boss]['id']}#{chk.action + 1}"
        if chk.kind == "room":
            return self.setup.rooms[chk.card]["id"]
        return "danger"

    def apply_damage(self) -> None:
        """Damage after reductions, then the sub-event, then death (§3.4.9)."""
        s, chk = self.active, self.check
        self.step = ST_END
        taken = max(0, chk.damage - self.mod_sum(s, "dred"))
        if taken > 0:
            self.life[s] -= taken
            self.log.append(("hurt", s, taken, self._cause(chk), chk.node))
        self.mods[s] = [m for m in self.mods[s] if m[3] != "check"]
        if chk.success and chk.sub and chk.kind == "room":
            self.sub_event(s, chk)
        if chk.kind == "boss" and self.outcome is None and not self.b_dead[chk.boss] and self.b_active[chk.boss]:
            self.advance_pointer(chk.boss, s)
        if chk.kind == "room" and chk.card not in self.flowers[s] and chk.card not in self.keys[s]:
            self.room_disc.append(chk.card)
        self.check = None
        if self.life[s] <= 0:
            self.die(s, chk, taken)

    @staticmethod
    def _cause(chk) -> str:
        if chk.kind == "danger":
            return "danger"
        if not chk.success and chk.damage > chk.side:
            return "boss" if chk.kind == "boss" else "room"
        return "slate" if chk.slate >= 0 else "threat"

    def sub_event(self, s: int, chk: Check) -> None:
        sub = chk.sub
        self.log.append(("sub", s, sub))
        if sub == 1:      # thorn
            self.push_task(("level", s))
        elif sub == 2:    # memory flower: keep the room card
            self.flowers[s].append(chk.card)
        elif sub == 3:    # sweets
            self.heal(s, 1)
        elif sub == 4:    # key: keep the room card
            self.keys[s].append(chk.card)
        elif sub == 5:
            self.set_danger(self.danger + 1)
        elif sub == 6:
            self.set_danger(self.danger - 1)

    def die(self, s: int, chk: Check, taken: int) -> None:
        rules = self.setup.rules
        cause = self._death_cause(chk, taken)
        self.deaths[s] += 1
        self.log.append(("death", s, chk.node, cause))
        self.life[s] = rules["death.life"]
        if rules["death.exhaust_skills"]:
            for sk in self.skills[s]:
                sk[2] = True
        self.relocate(s, self.setup.start)
        if rules["death.turn_ends"]:
            self.step = ST_NEXT

    def _death_cause(self, chk: Check, taken: int) -> str:
        """The damage without which she would have lived: slate or threat if that alone killed her."""
        if chk.kind == "danger":
            return "danger"
        life_before = self.life[self.active] + taken
        fail = 0 if chk.success else chk.damage - chk.side
        if chk.side and life_before - (taken - chk.side) > 0:
            return "slate" if chk.slate >= 0 else "threat"
        return ("boss" if chk.kind == "boss" else "room") if fail else ("slate" if chk.slate >= 0 else "threat")

    # ---- the turn machine -----------------------------------------------------------------------
    def _advance(self) -> None:
        """Run forced steps until a decision is needed (or the game ends)."""
        while self.phase != OVER:
            if self.tasks:
                if self._open_task():
                    return
                continue
            step = self.step
            if step == ST_MOVE:
                self.seat = self.active
                if self.tpos == 0 and self.built < self.round:   # builds at the round's first move (after setup)
                    self.built = self.round
                    self.log.append(("build", self.round, tuple((self.stat(p, WIL), self.stat(p, PIE))
                                                                for p in range(self.n))))
                if self.destinations() or self.usable(MOVE) or (self.flowers[self.active] and self.flower_targets()):
                    self.phase = MOVE
                    return
                self.log.append(("skip", self.active))
                self.skipped += 1
                self.step = ST_NEXT
            elif step == ST_PRE:
                self.seat = self.active
                if self.usable(PRE):
                    self.phase = PRE
                    return
                self.roll()
            elif step == ST_POST:
                self.seat = self.active
                self.phase = POST
                return
            elif step == ST_SUCC:
                if self.check.success and self.usable(SUCC):
                    self.seat = self.active
                    self.phase = SUCC
                    return
                self.step = ST_DMG
            elif step == ST_DMG:
                if self.check.damage > 0 and self.usable(DMG):
                    self.seat = self.active
                    self.phase = DMG
                    return
                self.step = ST_APPLY
            elif step == ST_APPLY:
                self.apply_damage()
            elif step == ST_END:
                self.seat = self.active
                if self.usable(END) or (self.flowers[self.active] and self.flower_targets()):
                    self.phase = END
                    return
                self.step = ST_NEXT
            else:
                self.next_turn()

    def _open_task(self) -> bool:
        """Make the oldest task the current decision; False if it resolved by itself."""
        task = self.tasks[0]
        kind, s = task[0], task[1]
        self.seat = s
        if kind == "place":
            if task[2] is None:
                drawn = self.draw("action", self.draw_count(s, "action"))
                if not drawn:
                    self.tasks.pop(0)
                    return False
                self.tasks[0] = ("place", s, drawn)
            self.phase = PLACE
            return True
        if kind == "pick":
            if task[3] is None:
                deck = task[2]
                drawn = self.draw(deck, self.draw_count(s, deck))
                if not drawn:
                    self.tasks.pop(0)
                    self._picked(deck, s, -1)
                    return False
                self.tasks[0] = ("pick", s, deck, drawn)
                self.log.append(("drawn", s, deck, tuple(drawn)))
                if len(drawn) == 1:
                    self.tasks.pop(0)
                    self._picked(deck, s, drawn[0])
                    return False
            self.phase = PICK
            return True
        if kind == "level":
            if not any(sk[1] < self.setup.skills[sk[0]]["max_level"] for sk in self.skills[s]):
                self.tasks.pop(0)
                return False
            self.phase = LEVEL
            return True
        if kind == "peek":
            deck = getattr(self, task[2] + "_deck")
            if len(deck) < 2:
                self.tasks.pop(0)
                return False
            self.phase = PEEK
            return True
        raise AssertionError(kind)

    def _picked(self, deck: str, s: int, card: int) -> None:
        if deck == "room":
            if card >= 0:
                self.start_room_check(card)
            else:
                self.step = ST_END
        elif deck == "event" and card >= 0:
            self.held.append([card, s, 0])
            self.log.append(("event", s, self.setup.events[card]["id"]))
        elif deck == "sefira" and card >= 0:
            self.sefira_area.append(card)
            self.log.append(("sefira", s, self.setup.sefira[card]["id"]))
        elif deck == "skill" and card >= 0:
            self.learn(s, card)

    def begin_round(self) -> None:
        r = self.setup.rules
        self.crit = r["criterion.start"] + (self.round - 1) // r["criterion.every_rounds"]
        tpr = r["turns_per_round"].get(self.n, 1)
        if r["turn_order_2p"] == "consecutive":
            self.order = [s for s in range(self.n) for _ in range(tpr)]
        else:
            self.order = [s for _ in range(tpr) for s in range(self.n)]
        self.tpos = 0
        self.log.append(("round", self.round, self.crit, self.danger))
        self.begin_turn()

    def begin_turn(self) -> None:
        self.turn_serial += 1
        self.active = self.seat = self.order[self.tpos]
        self.check = None
        self._dest = None
        self.step = ST_MOVE
        self.log.append(("turn", self.active, self.danger, self.pos[self.active], self.life[self.active]))
        markers = self.markers()
        if markers > self.markers_max:
            self.markers_max = markers

    def next_turn(self) -> None:
        self.expire("check")
        self.expire("turn")
        self.check = None
        self.tpos += 1
        if self.tpos >= len(self.order):
            self.expire("round")
            if self.round >= self.setup.rules["rounds"]:
                self.finish("loss")
                return
            self.round += 1
            self.begin_round()
        else:
            self.begin_turn()

    # ---- actions --------------------------------------------------------------------------------
    def _legal_actions(self) -> list:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == PLACE:
            drawn = self.tasks[0][2]
            return [(PLACE_A, i, k) for i in range(len(drawn)) for k in range(4)]
        if phase == PICK:
            return [(PICK_A, i) for i in range(len(self.tasks[0][3]))]
        if phase == LEVEL:
            s = self.tasks[0][1]
            return [(LEVEL_A, j) for j, sk in enumerate(self.skills[s])
                    if sk[1] < self.setup.skills[sk[0]]["max_level"]]
        if phase == PEEK:
            deck = getattr(self, self.tasks[0][2] + "_deck")
            k = min(self.tasks[0][3], len(deck))
            return [(TOP, i) for i in range(k)]
        out = []
        if phase == MOVE:
            out = [(GO, v, key) for v, key in self.destinations()]
            if not out:
                out.append((SKIP,))
        elif phase == PRE:
            out = [(ROLL,)]
        elif phase == POST:
            spec = self.spec()
            out = [(PLAN, p) for p in dice.plans(spec, self.check.vals, self.check.cols)]
            out += [(REROLL, d) for d in self.reroll_options()]
        elif phase in (SUCC, DMG):
            out = [(DONE,)]
        elif phase == END:
            out = [(ENDT,)]
        for src, j in self.usable(phase):
            effect = (self.setup.skills[self.skills[self.active][j][0]] if src == 0 else
                      self.setup.sefira[self.sefira_area[j]])["effect"]
            out += [(USE, src, j, arg) for arg in self._args(effect)]
        if phase in (MOVE, END) and self.flowers[self.active]:
            out += [(FLOWER, h) for h in self.flower_targets()]
        return out

    def _is_legal(self, a) -> bool:
        if self.phase == OVER or not isinstance(a, tuple) or not a:
            return False
        kind = a[0]
        if kind == PLAN and self.phase == POST:
            plan = a[1] if len(a) == 2 else None
            if not isinstance(plan, tuple) or len(plan) != 5:
                return False
            spec = self.spec()
            try:
                result = dice.outcome(spec, self.check.vals, self.check.cols, plan)
            except (TypeError, IndexError, ValueError):
                return False
            self._judged = (plan, spec, result)   # resolve() applies this judgement instead of redoing it
            return result is not None
        if kind == GO and self.phase == MOVE:
            return (a[1], a[2]) in self.destinations() if len(a) == 3 else False
        return a in self.legal_actions()

    def _apply(self, a) -> None:
        kind = a[0]
        if kind == PLACE_A:
            task = self.tasks.pop(0)
            s, drawn = task[1], task[2]
            card = drawn[a[1]]
            self.action_disc.extend(c for i, c in enumerate(drawn) if i != a[1])
            self.stacks[s][a[2]].append(card)
            self.log.append(("place", s, card, a[2]))
            if a[2] == AGI:
                self.tasks.insert(0, ("pick", s, "skill", None))
        elif kind == PICK_A:
            task = self.tasks.pop(0)
            s, deck, drawn = task[1], task[2], task[3]
            card = drawn[a[1]]
            getattr(self, deck + "_disc").extend(c for i, c in enumerate(drawn) if i != a[1])
            self._picked(deck, s, card)
        elif kind == LEVEL_A:
            task = self.tasks.pop(0)
            self.skills[task[1]][a[1]][1] += 1
            self.log.append(("thorn", task[1], self.setup.skills[self.skills[task[1]][a[1]][0]]["id"]))
        elif kind == TOP:
            task = self.tasks.pop(0)
            deck = getattr(self, task[2] + "_deck")
            card = deck.pop(len(deck) - 1 - a[1])
            deck.append(card)
        elif kind == USE:
            self.use(a[1], a[2], a[3])
        elif kind == FLOWER:
            self.use_flower(a[1])
        elif kind == GO:
            self.go(a[1], a[2])
        elif kind == SKIP:
            self.log.append(("skip", self.active))
            self.skipped += 1
            self.step = ST_NEXT
        elif kind == ROLL:
            self.roll()
        elif kind == REROLL:
            self.do_reroll(a[1])
        elif kind == PLAN:
            self.resolve(a[1])
        elif kind == DONE:
            self.step = ST_DMG if self.phase == SUCC else ST_APPLY
        elif kind == ENDT:
            self.step = ST_NEXT


# ---- module API (see generator/sim/api.py) --------------------------------------------------------

def new_game(setup, players: int, rng) -> State:
    """Deal a game for ``players`` maidens with servants dealt at random (seeded), each once."""
    r = setup.rules
    if not r["players.min"] <= players <= min(r["players.max"], len(setup.servants)):
        raise ValueError(f"metroidvania supports {r['players.min']}..{r['players.max']} players, got {players}")
    s = State.__new__(State)
    s.setup, s.rng, s.n = setup, rng, players
    s.servant = sample(range(len(setup.servants)), players, rng)
    s.pos = [setup.start] * players
    s.came = [-1] * players
    s.life = [r["life.start"]] * players
    s.max_life = [r["life.max"]] * players
    s.deaths = [0] * players
    nb = len(setup.bosses)
    s.b_dead, s.b_life, s.b_ptr, s.b_start = [False] * nb, [0] * nb, [0] * nb, [0] * nb
    s.b_active, s.b_delta, s.b_skip = [False] * nb, [0] * nb, [0] * nb
    s.b_trait_off, s.b_weak, s.b_mods = [False] * nb, [False] * nb, [()] * nb
    s.explored = [False] * len(setup.node_id)
    s.area_left = [len(a["rooms"]) for a in setup.areas]
    s.stacks = [[[], [], [], []] for _ in range(players)]
    s.flowers, s.keys = [[] for _ in range(players)], [[] for _ in range(players)]
    s.mods = [[] for _ in range(players)]
    s.unlocked = [[False] for _ in range(players)]
    s.skills = [[] for _ in range(players)]
    s.held, s.opened, s.sefira_area, s.kills, s.tasks, s.drawn = [], set(), [], [], [], []
    s.log, s.outcome, s.check, s._legal, s._dest, s._dist, s._judged = [], None, None, None, None, None, None
    s.round, s.turn_serial, s.skipped, s.markers_max, s.built = 1, 0, 0, 0, 0
    s.danger = r["danger.start"]
    s.crit = r["criterion.start"]
    s.order, s.tpos, s.active, s.seat, s.step = [0], 0, 0, 0, ST_MOVE
    s.phase = PLACE
    if r["start_explored"]:
        s.mark(setup.start)
    # decks: each servant's initial action card leaves the action deck (§3.1.1)
    s.action_deck = list(setup.actions)
    initial = []
    for seat in range(players):
        t = setup.servants[s.servant[seat]]["action"]
        if t in s.action_deck:
            s.action_deck.remove(t)
        initial.append(t)
    for name, ids in (("action", None), ("skill", setup.deck_skills), ("room", range(len(setup.rooms))),
                      ("event", range(len(setup.events))), ("sefira", range(len(setup.sefira)))):
        deck = list(ids) if ids is not None else s.action_deck
        shuffle(deck, rng)
        setattr(s, name + "_deck", deck)
        setattr(s, name + "_disc", [])
    s.log.append(("party", tuple(setup.servants[v]["id"] for v in s.servant)))
    for seat in range(players):
        s.learn(seat, setup.servants[s.servant[seat]]["skill"])
    # setup placements: the initial action, then the first level-up, per player (§3.1.3-4)
    for seat in range(players):
        for _ in range(r["setup.initial_actions"]):
            s.tasks.append(("place", seat, [initial[seat]]))
        for _ in range(r["setup.first_level_up"]):
            s.tasks.append(("place", seat, None))
    s.begin_round()
    s._advance()
    return s


from .metroidvania_agents import AGENTS  # noqa: E402,F401
from .metroidvania_report import (ablate, cards, check_invariants, describe, judge_extra, static_checks,  # noqa: E402,F401
                                  summarize)
