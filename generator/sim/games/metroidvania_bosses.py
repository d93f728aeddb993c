"""Metroidvania: bosses (spec §3.5: life, pointer, weakness, trait, defeat, reset) as a State mixin."""
from __future__ import annotations

from .metroidvania_moves import Movement
from .metroidvania_setup import INS


class Bosses(Movement):
    __slots__ = ()

    def boss_life_now(self, b: int) -> int:
        boss = self.setup.bosses[b]
        life = boss["life"] + self.setup.rules["boss_life_bonus"].get(self.n, 0) + self.b_delta[b]
        return life if life > 1 else 1   # max(1, ...) without a builtin call

    def in_room(self, b: int) -> list:
        node, out = self.setup.bosses[b]["node"], []
        for s, at in enumerate(self.pos):   # (a loop: no comprehension frame at every boss step)
            if at == node:
                out.append(s)
        return out

    def weakness_revealed(self, b: int, s: int) -> bool:
        weak = self.setup.bosses[b]["weakness"]
        if weak is None:
            return False
        if self.b_weak[b] or (self.mods[s] and any(m[0] == "weak" and m[1] == b for m in self.mods[s])):
            return True
        node, need = self.setup.bosses[b]["node"], weak[0]   # a maiden in its room with the Ins it asks
        for p, at in enumerate(self.pos):
            if at == node and len(self.stacks[p][INS]) >= need:
                return True
        return False

    def trait_active(self, b: int, s: int) -> bool:
        if self.b_trait_off[b]:
            return False
        weak = self.setup.bosses[b]["weakness"]
        if weak:
            for op, _ in weak[1]:   # (a loop: no generator at every boss action)
                if op == "forbid_trait":
                    return not self.weakness_revealed(b, s)
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
        self.dead_key = tuple(self.b_dead)
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

    def advance_pointer(self, b: int, s: int) -> None:
        n_actions = len(self.setup.bosses[b]["actions"])
        self.b_ptr[b] = (self.b_ptr[b] + 1) % n_actions
        if self.b_ptr[b] == 0 and self.trait_active(b, s):
            for op, p in self.setup.bosses[b]["trait"]:
                if op == "regen" and self.b_life[b] < self.b_start[b]:
                    self.b_life[b] = min(self.b_start[b], self.b_life[b] + int(p.get("n") or 1))
                    self.log.append(("regen", b, self.b_life[b]))
