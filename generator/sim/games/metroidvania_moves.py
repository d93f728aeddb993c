"""Metroidvania: movement over map.yaml and the room phase (spec §3.3.1-3) as a State mixin.

Costs are a 0-1 BFS (explored rooms 0, unexplored 1) over the passages open to the maiden: hidden
edges by her Ins, sealed ones once opened; unexplored key rooms and undefeated boss rooms end a
path. Adjacency is cached per process by (Ins, opened edges).
"""
from __future__ import annotations

from collections import deque
from typing import Final

from ..state import memo_table, setup_memo
from .metroidvania_checks import Check, Checks
from .metroidvania_flow import ST_DMG, ST_END
from .metroidvania_setup import AGI, BOSS, DANGER, EVENT, INS, KEY, NORMAL, REST, Setup

_INF: Final = 1 << 20   # the cost of a room out of reach


class Movement(Checks):
    __slots__ = ()

    def move_points(self, s: int) -> int:
        play = self.setup.play
        return play.move_base + play.move_per_agi * self.stat(s, AGI) + self.mod_sum(s, "move")

    def distances(self, s: int, origin: int, limit: int = _INF) -> list[int]:
        """0-1 BFS cost from ``origin`` for maiden ``s``: explored rooms cost 0, unexplored 1.

        Nodes that block passage (unexplored key rooms, undefeated boss rooms) get a cost but are
        not expanded; hidden edges need Ins, sealed ones must be open. Costs up to ``limit`` are
        exact; nodes beyond it are not expanded (their cost is above ``limit`` or unknown)."""
        dist, first, passable = self._search_start(s, origin)   # (unpacked: a starred call is a generic one, compiled)
        if self.setup.play.level_costs:
            return self._levels(s, dist, first, passable, limit, [])
        return self._relax(s, dist, first, passable, limit)

    def _search_start(self, s: int, origin: int) -> tuple[list[int], list[int], list[bool]]:
        """``(costs, first, passable)``: the costs so far (the origin 0), the rooms a path enters first
        and per room whether a path may go on through it (the origin is left whatever it is)."""
        setup = self.setup
        dist = [_INF] * len(self.explored)
        dist[origin] = 0
        # an undefeated boss room is left only the way she came in (it blocks the passage, gap 11)
        b = setup.node_boss[origin]
        if origin == self.pos[s] and b >= 0 and not self.b_dead[b] and setup.play.blocked_boss and self.came[s] >= 0:
            first = [self.came[s]]
        else:
            first = self._neighbours(s, origin)
        return dist, first, self._passable(s)

    def _relax(self, s: int, dist: list[int], first: list[int], passable: list[bool], limit: int) -> list[int]:
        """``distances`` for any step costs: a 0-1 BFS that relaxes a room's cost when a cheaper path shows up."""
        play = self.setup.play
        explored = self.explored
        c0, c1 = play.explored_step_cost, play.unexplored_step_cost
        dq: deque = deque()
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

    def _levels(self, s: int, dist: list[int], first: list[int], passable: list[bool], limit: int, reached: list[int],
                ends: bool = False) -> list[int]:
        """``distances`` when explored rooms cost 0 and unexplored ones 1, level by level: a room costs
        what entering it costs, so the level that first reaches a room gives its cost (nothing to relax).
        A room that ends a path gets its cost but is never queued (explored rooms never end one).
        The unexplored rooms of cost up to ``limit`` are appended to ``reached`` (the move's end points:
        a few, where the costs list every room). ``ends``: only the end points and the steps into them are
        wanted (``_moves_now``, ``entry_side``), so the level at ``limit`` is not expanded: it would only cost
        rooms beyond the limit and explored rooms at it, where no move ends (~1/4 of a move search's steps).
        Costs below ``limit`` stay exact; at ``limit`` only the unexplored rooms are given theirs."""
        explored, inf = self.explored, _INF
        adj = self.adjacency(s)
        here: list[int] = []
        later: list[int] = []
        for w in first:
            if dist[w] == inf:
                if explored[w]:
                    dist[w] = 0
                    here.append(w)
                else:
                    dist[w] = 1
                    if limit >= 1:
                        reached.append(w)
                    if passable[w]:
                        later.append(w)
        d = 0
        stop = limit if ends else limit + 1   # (the last level expanded)
        while (here or later) and d < stop:
            while here:   # the rooms at cost d, and the explored rooms they lead to (cost 0 more)
                for w in adj[here.pop()]:
                    if dist[w] == inf:
                        if explored[w]:
                            dist[w] = d
                            here.append(w)
                        else:
                            dist[w] = d + 1
                            if d < limit:
                                reached.append(w)
                            if passable[w]:
                                later.append(w)
            here, later = later, []
            d += 1
        return dist

    def adjacency(self, s: int) -> list[list[int]]:
        """Neighbours over the passages open to maiden ``s`` (hidden ones by her Ins, opened sealed ones)."""
        key = (self.stat(s, INS), self.opened_key)
        found = memo_table(self.setup, "_adj").get(key)   # a hit without setup_memo's call (hits: most asks)
        return found if found is not None else setup_memo(self.setup, "_adj", key, _adjacency_now, self.setup, *key)

    def _passable(self, s: int) -> list[bool]:
        """Per node: may a path go on through it (explored, or passable unexplored)? Cached for the process
        by what it reads, the explored state of the blockers and the pass-key modifier (read-only result)."""
        setup = self.setup
        if not setup.play.pass_through_unexplored:
            return list(self.explored)
        key = (self.explored_bits & setup.blocker_bits, self.has_mod(s, "passkey"))
        found = memo_table(setup, "_passable").get(key)   # a hit without setup_memo's call
        return found if found is not None else setup_memo(setup, "_passable", key, _passable_now, setup, *key)

    def _neighbours(self, s: int, v: int) -> list[int]:
        return self.adjacency(s)[v]

    def key_ok(self, s: int, node: int) -> bool:
        stacks = self.stacks[s]
        for k, v in self.setup.key_cond[node]:
            if len(stacks[k]) < v:
                return False
        return True

    def destinations(self) -> list:
        """Legal (node, spends_key) end points of the turn player's move (§3.3.1)."""
        if self._dest is None:
            s = self.active
            here = self.pos[s]
            # entry_side() reuses these costs (exact below mp, and for the end points: all a move and its entry
            # step can need)
            dist, self._dest = self.moves(s, here)
            self._dist = (s, here, dist)
        return self._dest

    def moves(self, s: int, here: int) -> tuple:
        """``(costs, destinations)`` of maiden ``s`` moving from ``here``, cached for the process by
        everything they read (``_moves_key``; read-only results): a maiden often stands where she stood
        a turn before with the same map open to her (a boss fight, the rooms the others did not open)."""
        key = self._moves_key(s, here)
        found = memo_table(self.setup, "_moves").get(key)   # a hit without setup_memo's call
        return found if found is not None else \
            setup_memo(self.setup, "_moves", key, self._moves_now, s, here, key[1])

    def _moves_key(self, s: int, here: int) -> tuple:
        """What ``_moves_now`` reads: her move points, the explored rooms, her stats (hidden passages by
        Ins, key conditions), opened passages, defeated bosses (and the seal), the pass-key modifier,
        whether she holds a key, and where she came from when she stands in a boss room."""
        seal = self.setup.play.urza_seal_bosses
        came = self.came[s] if here == self.pos[s] and self.setup.node_boss[here] >= 0 else -1
        return (here, self.move_points(s), came, self.explored_bits, tuple(map(len, self.stacks[s])),
                self.opened_key, self.dead_key, bool(seal and len(self.kills) < seal),
                self.has_mod(s, "passkey"), bool(self.keys[s]))

    def _moves_now(self, s: int, here: int, mp: int) -> tuple:
        setup = self.setup
        if setup.play.level_costs:
            # A move ends in an unexplored room or a boss room: the search lists the unexplored rooms in
            # reach, the boss rooms are few; both in room order (the order the agent weighs them in).
            reached: list[int] = []
            dist, first, passable = self._search_start(s, here)
            dist = self._levels(s, dist, first, passable, mp, reached, ends=True)
            explored = self.explored
            for v in setup.boss_rooms:   # (an unexplored one but her own is among the reached rooms)
                if dist[v] <= mp and (explored[v] or v == here):
                    reached.append(v)
            reached.sort()
        else:
            dist = self.distances(s, here, mp)
            reached = [v for v, d in enumerate(dist) if d <= mp]
        out = []
        passkey = self.has_mod(s, "passkey")
        seal = setup.play.urza_seal_bosses
        sealed = seal and len(self.kills) < seal
        kinds, node_boss, bosses, b_dead, explored = setup.kind, setup.node_boss, setup.bosses, self.b_dead, self.explored
        for v in reached:
            kind = kinds[v]
            if kind == BOSS:
                b = node_boss[v]
                if b < 0 or b_dead[b] or (v == here and dist[v] > 0) or (sealed and bosses[b]["final"]):
                    continue
                out.append((v, 0))
            elif not explored[v] and v != here:
                if kind == KEY and not passkey and not self.key_ok(s, v):
                    if self.keys[s]:
                        out.append((v, 1))
                    continue
                out.append((v, 0))
        return dist, out

    def entry_side(self, s: int, origin: int, node: int) -> int:
        """The neighbour she steps into boss room ``node`` from on a cheapest path."""
        cached = self._dist if self._dest is not None else None
        dist = cached[2] if cached is not None and cached[:2] == (s, origin) else self.distances(s, origin)
        passable = self._passable(s)
        cost = self.setup.play.unexplored_step_cost
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
            if self.setup.tag[node] in rules["rest.also_room"]:   # the switch: then the normal room it stands for
                self.push_task(("pick", s, "room", None))
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


def _adjacency_now(setup: Setup, ins: int, opened: tuple | set) -> list[list[int]]:
    opened = set(opened)
    return [plain + [w for w, h, sid in cond if (not h or ins >= h) and (sid < 0 or sid in opened)]
            for plain, cond in zip(setup.plain_adj, setup.cond_adj)]


def _passable_now(setup: Setup, blockers_explored: int, passkey: bool) -> list[bool]:
    play = setup.play
    out = [True] * len(setup.node_id)
    for v in setup.blockers:
        if blockers_explored >> v & 1:
            continue
        if setup.kind[v] == BOSS:
            if play.blocked_boss:
                out[v] = False
        elif play.blocked_key and not passkey:
            out[v] = False
    return out
