"""Metroidvania: skills, sefira and memory flowers (spec §3.6-3.8) as a State mixin.

What the turn player may use in each timing window, the arguments a use needs (a boss or a node),
and the use itself: the ``effect:`` ops run through ``metroidvania_effects.OPS``.
"""
from __future__ import annotations

from typing import Final

from .metroidvania_bosses import Bosses
from .metroidvania_effects import OPS, arg_kind
from .metroidvania_flow import DMG, END, MOVE, OVER, POST, PRE, SUCC

# "any" (いつでも: 自分の手番中ならいつでも) effects are offered in the two free windows of a turn (before
# moving, after the room) and, mid-check, only where using one there can change the check (``_fits_any``):
# before the roll a weakness reveal on a boss check; after the roll (the dice seen, before AP is chosen)
# a danger or criterion cut or a threat ward; before damage lands a heal that saves her from dying (heal
# later otherwise: never worse); in each window a refresh that readies a skill of that window's timing.
WINDOW: Final = {MOVE: ("move", "any"), PRE: ("pre_roll", "any"), POST: ("post_roll", "any"), SUCC: ("on_success",),
          DMG: ("on_damage", "any"), END: ("any",)}
_ANY_MID: Final = {PRE: frozenset(("reveal_weakness", "refresh_skills")),
            POST: frozenset(("danger", "criterion", "ignore_threat", "refresh_skills")),
            DMG: frozenset(("heal", "heal_full", "max_life", "refresh_skills"))}
_TIMING: Final = {PRE: "pre_roll", POST: "post_roll", DMG: "on_damage"}
# effects that only make sense after the roll
_POST_OPS: Final = ("ap_bonus", "reroll", "recolour")


class Powers(Bosses):
    __slots__ = ()

    def condition_met(self, s: int, skill: int) -> bool:
        sk = self.setup.skills[skill]
        stacks = self.stacks[s]
        tops = [0, 0, 0, 0]
        for stack in stacks:
            if stack:
                tops[stack[-1]] += 1
        for t, need in sk["needs"]:   # (plain loops: this runs for every usable skill at every window)
            if tops[t] < need:
                return False
        for k, t in sk["stat_tops"]:
            if not stacks[k] or stacks[k][-1] != t:
                return False
        return True

    def skills_blocked(self, s: int) -> bool:
        """No skills: a no_skills area where she stands, or a fight under a forbidding trait (b06 時計仕掛けの結界
        “この戦闘中、スキルを使えない”): its checks, and her whole turn while she is in that boss's room."""
        node = self.pos[s]
        a = self.setup.area[node]
        if a >= 0 and "no_skills" in self.setup.areas[a]["effects"] and self.area_active(a):
            return True
        if self.check is not None and self.check.noskills:
            return True
        b = self.setup.node_boss[node]
        return b >= 0 and self.b_active[b] and not self.b_dead[b] and self.setup.bosses[b]["forbids_skills"] \
            and self.trait_active(b, s)

    def usable(self, phase: int) -> list:
        """(source, index) of every skill and sefira usable by the turn player now (read-only result).

        Remembered for the decision at hand: the turn machine asks before stopping for a window, then the
        agent and the legality check ask again. Forgotten at each step of ``_advance`` and before an action
        changes anything (``apply_action``), so a remembered answer is always about the state as it is."""
        memo = self._usable
        if memo is not None and memo[0] == phase:
            return memo[1]
        out = self._usable_now(phase)
        self._usable = (phase, out)
        return out

    def _usable_now(self, phase: int) -> list:
        s = self.active
        timings = WINDOW.get(phase, ())
        out = []
        chk = self.check
        skills, serial = self.setup.skills, self.turn_serial
        blocked = None   # asked once a skill fits the window (most windows of most turns: none does)
        for j, (skill, level, exhausted, used) in enumerate(self.skills[s]):
            if exhausted or used == serial:
                continue
            sk = skills[skill]
            timing = sk["timing"]
            if timing not in timings:
                continue
            if blocked is None:
                blocked = self.skills_blocked(s)
            if blocked:
                break
            if self._fits_any(sk["ops"], phase, chk) if timing == "any" else self._fits(sk["ops"], phase, chk):
                out.append((0, j))
        for j, sef in enumerate(self.sefira_area):
            sf = self.setup.sefira[sef]
            if sf["timing"] in timings and (self._fits_any(sf["ops"], phase, chk) if sf["timing"] == "any" else
                                            self._fits(sf["ops"], phase, chk)):
                out.append((1, j))
        return out

    def _fits_any(self, ops, phase, chk) -> bool:
        """May an "any" effect with these ``ops`` be used in ``phase``? Always in the free windows; mid-check
        only where it can change the check (``WINDOW``)."""
        mid = _ANY_MID.get(phase)
        if mid is None:
            return True
        if chk is None or ops.isdisjoint(mid):
            return False
        if "refresh_skills" in ops and self._refreshable(_TIMING[phase]):
            return True
        if phase == PRE:
            return "reveal_weakness" in ops and chk.boss >= 0 and not self.weakness_revealed(chk.boss, self.active) \
                and self.setup.bosses[chk.boss]["weakness"] is not None
        if phase == DMG:
            return not ops.isdisjoint(("heal", "heal_full", "max_life")) and self.lethal_now()
        return not ops.isdisjoint(("danger", "criterion", "ignore_threat"))

    def _refreshable(self, timing: str) -> bool:
        """Has she an exhausted skill of this timing not used this turn (a refresh would ready it now)?"""
        skills, serial = self.setup.skills, self.turn_serial
        for sk in self.skills[self.active]:
            if sk[2] and sk[3] != serial and skills[sk[0]]["timing"] == timing:
                return True
        return False

    def lethal_now(self) -> bool:
        """Would the damage about to land (after the reductions so far) kill her?"""
        chk, s = self.check, self.active
        return chk is not None and chk.damage > 0 and chk.damage - self.mod_sum(s, "dred") >= self.life[s]

    def flower_window(self, phase: int) -> bool:
        """May she use a memory flower now (自分の手番中であれば好きなタイミング)? Offered before moving and at the
        end of the turn; mid-check (before or after the roll, before damage lands) only for a derived event
        that can change the check there, as an 「いつでも」 effect (``_fits_any``): any other is as good at
        the end of the turn, and offering it would only add a decision."""
        return bool(self.flowers[self.active]) and bool(self.flower_targets(phase))

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
            self.log.append(("use", s, sk["id"], met))
            self.apply_effect(sk["effect"], s, {"level": entry[1], "boss": self.context_boss(), "arg": arg})
            if not met:   # 使用すると消耗: turned sideways by the use, so a refresh (sk024) does not ready itself
                entry[2] = True
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

    def flower_targets(self, phase: int | None = None) -> list:
        """The held event cards a flower may go on (``phase``: only those whose next derived event fits
        that window, see ``flower_window``)."""
        setup = self.setup
        limit = setup.play.flowers_per_event
        out = [h for h, (ev, holder, marks) in enumerate(self.held) if marks < limit]
        if phase in _ANY_MID:
            events, derived, chk = setup.events, setup.derived, self.check
            out = [h for h in out if self._fits_any(derived[events[self.held[h][0]]["derived"][self.held[h][2]]]["ops"],
                                                     phase, chk)]
        return out

    def use_flower(self, h: int) -> None:
        s = self.active
        card = self.flowers[s].pop()
        if card >= 0:
            self.room_disc.append(card)
        entry = self.held[h]
        entry[2] += 1
        self.marks += 1   # an event level is a marker (``markers``)
        ev = self.setup.events[entry[0]]
        d = ev["derived"][entry[2] - 1]
        der = self.setup.derived[d]
        self.log.append(("derived", s, der["id"], ev["id"]))
        self.apply_effect(der["effect"], s, {"level": 0, "boss": -1, "arg": -1, "link": der["link"]})
