"""Valheim: the hunt (spec §3.5.4) and the final battle's fights (§3.7) as a State mixin — the
dungeon, the fighter rotation, enemy draws, an avatar's appearance, dice, rerolls and rewards.

``hunt_continue`` fights with the remaining AP and stops at each real decision (which dungeon,
which fighter, the order of peeked enemies, a reroll); everything else is resolved here.
"""
from __future__ import annotations

from typing import Sequence

from ...sim.rng import shuffle
from .valheim_flow import HUNT, P_FIGHTER, P_HUNT, P_ORDER, P_OVER, P_REROLL
from .valheim_map import Map


class Hunt(Map):
    """Fights; on ``Map`` in the rules' line of classes."""

    __slots__ = ()

    def in_final(self) -> bool:
        return self.demon_hp is not None

    def hunt_begin(self) -> None:
        self.fought = 0
        self.dungeon = -1
        self.peeked = False
        self.dive_bonus = 0
        self.pending = None
        self.foe = None
        final = self.in_final()
        if final and self.setup.rules["final_battle.skip_dungeon_distance"]:
            self.hunt_continue()
            return
        self.phase = P_HUNT
        if not self.dungeon_options():
            self.finish_action()

    def dungeon_options(self) -> list[int]:
        d = self.dist(self.base)
        free, ap = self.free, self.ap
        dungeon = self.setup.t_dungeon
        return [k for k, t in enumerate(self.s_tile) if dungeon[t] and (d[k] - free if d[k] > free else 0) <= ap]

    def enter_dungeon(self, k: int) -> None:
        cost = self.dist(self.base)[k]
        waived = min(self.free, cost)
        self.free -= waived
        self.ap -= cost - waived
        self.dungeon = k
        self.dive_bonus = self.s_dives[k] * self.setup.rules["hunt.dungeon_dive_counter"]
        self.s_dives[k] += 1
        self.log.append(("dungeon", k, cost - waived))
        self.hunt_continue()

    def hunters(self) -> Sequence[int]:
        return self.seats[self.p_act[HUNT]]

    def eligible(self) -> Sequence[int]:  # a tuple of seats_table, or a list
        mask = self.p_act[HUNT]
        if not self.setup.rules["hunt.fighter_rotation"]:
            return self.seats[mask]
        left: Sequence[int] = self.seats[mask & ~self.fought]  # the hunters who have not fought yet
        if not left:  # a new rotation, but still nobody twice in a row (seed 3-4; brainstorm: 2 players alternate)
            self.fought = 0
            hunters = self.seats[mask]
            left = [s for s in hunters if s != self.fighter] or hunters
        return left

    def hunt_continue(self) -> None:
        """Fight with the remaining AP, stopping at each real decision."""
        while self.ap > 0 and self.phase != P_OVER:
            if self.mods.peek and not self.peeked and not self.in_final():
                self.peeked = True
                self.top_up_enemies(self.mods.peek)
                if min(self.mods.peek, len(self.edeck)) >= 2:
                    self.phase = P_ORDER
                    return
            who = self.eligible()
            if not who:
                break
            if self.foe is None and not self.in_final() and not self.reveal_foe():
                self.ap = 0  # no enemy card left to fight
                break
            if len(who) > 1:
                # the enemy is drawn and shown first, then a hunter takes the fight (seed 3-4, spec 3.5.4)
                self.phase, self.seat = P_FIGHTER, who[0]
                return
            if not self.fight(who[0]):
                return
        if self.phase != P_OVER:
            self.phase = P_HUNT
            self.finish_action()

    def top_up_enemies(self, k: int) -> None:
        if len(self.edeck) < k and self.ediscard and self.setup.rules["hunt.enemy_reshuffle"]:
            rest = self.ediscard
            self.ediscard = []
            shuffle(rest, self.rng)
            self.edeck[:0] = rest  # under the current deck

    def draw_enemy(self, regular_only: bool = False):
        while True:
            if not self.edeck:
                if not self.ediscard or not self.setup.rules["hunt.enemy_reshuffle"]:
                    return None
                self.edeck = self.ediscard
                self.ediscard = []
                shuffle(self.edeck, self.rng)
                self.log.append(("enemy_reshuffle",))
            e = self.edeck.pop()
            if regular_only and self.setup.e_boss[e]:
                self.ediscard.append(e)
                continue
            return e

    def reveal_foe(self) -> bool:
        """Draw the next enemy card and lay it face up as ``foe`` (strength, vs, foe record): an
        avatar already defeated is discarded and the next card drawn. False when no card is left."""
        setup, rules = self.setup, self.setup.rules
        while True:
            e = self.draw_enemy()
            if e is None:
                return False
            if setup.e_boss[e]:
                b = setup.t_biome[self.s_tile[self.dungeon]]
                if self.defeated[b]:
                    self.ediscard.append(e)
                    self.log.append(("no_boss", b))
                    continue
                self.foe = (self.avatar_strength(b) + self.dive_bonus, "boss", ("boss", e, b))
            else:
                r = min(self.round_id, rules["rounds"])
                self.foe = (setup.e_strength[e][r - 1] + self.dive_bonus, "enemy", ("enemy", e))
            return True

    def fight(self, s: int) -> bool:
        """One fight by seat s for one AP; False when it waits for a reroll decision."""
        rules = self.setup.rules
        self.fighter = s
        base_level = self.s_level[self.base]
        foe: tuple  # ("demon", -1), or the record of the foe face up (its length varies)
        if self.in_final():
            strength, vs, foe = self.demon_str, "boss", ("demon", -1)
        else:
            strength, vs, foe = self.foe
            self.foe = None
        power = self.power(s, vs, base_level)
        roll = 1 + int(self.rng.random() * rules["hunt.die_sides"])
        self.pending = [foe, strength, power, roll, len(self.hand[s])]
        if not self.beats(power + roll, strength) and self.reroll_left > 0:
            self.phase, self.seat = P_REROLL, s
            return False
        self.settle_fight()
        return True

    def beats(self, total: int, strength: int) -> bool:
        return total >= strength if self.setup.play.tie_wins else total > strength

    def settle_fight(self) -> None:
        setup, rules = self.setup, self.setup.rules
        foe, strength, power, roll, hand = self.pending
        self.pending = None
        s = self.fighter
        win = self.beats(power + roll, strength)
        kind = foe[0]
        self.log.append(("fight", s, kind, foe[1], strength, power, roll, win, hand, foe[2] if kind == "boss" else -1))
        consume = True
        if kind == "demon":
            if win:
                self.demon_hp -= 1
                if self.demon_hp <= 0:
                    self.finish("win")
                    return
        elif kind == "boss":
            self.ediscard.append(foe[1])
            if win:
                self.defeated[foe[2]] = True
                self.log.append(("avatar", foe[2], self.round_id))
                if all(self.defeated):
                    self.finish("win")
                    return
            elif rules["hunt.boss_fail"] == "redraw":
                consume = False
        else:
            self.ediscard.append(foe[1])
            if win:
                for r, n in setup.e_reward[foe[1]]:
                    got = self.take_supply(r, n)
                    self.log.append(("reward", r, got))
        if consume:
            self.ap -= 1
        # else a failed avatar fight draws again for the same AP (seed 「撃退できなかった場合も、同様に
        # エネミー山から引き直してください」); it was a fight all the same, so the card drawn again goes to
        # the rotation like any other: with several hunters, another one fights it (seed 3-4)
        self.fought |= 1 << s
