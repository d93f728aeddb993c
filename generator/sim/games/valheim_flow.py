"""Valheim: the steps of spec §3 that need no decision, as a State mixin — briefing and draws,
the hidden commit and the reveal, the main phase's action order and AP, round end (raids,
inheritance, reshuffles, level-ups) and the last round's outcome.

Also the decision kinds and phases every other module names. Each step logs what it does; the
decisions themselves are listed by ``valheim_legal`` and applied by ``valheim_actions``.
"""
from __future__ import annotations

from typing import Final

from ...sim.rng import shuffle
from .valheim_base import StateBase
from .valheim_setup import Cost

# decision kinds (Final: mypyc compiles them in as constants; plain ints in Python)
COMMIT: Final = 0
REST: Final = 1
PAY: Final = 2
BASE: Final = 3
MOVE: Final = 4
OPEN: Final = 5
PICK: Final = 6
TAKE: Final = 7
BUY: Final = 8
TRASH: Final = 9
KEEP: Final = 10
DUNGEON: Final = 11
FIGHTER: Final = 12
ORDER: Final = 13
REROLL: Final = 14
NEWBASE: Final = 15
MAKE: Final = 16
LEVEL: Final = 17
DONE: Final = 18
KIND_NAMES = ("commit", "rest", "pay", "base", "move", "open", "pick", "take", "buy", "trash", "keep", "dungeon",
              "fighter", "order", "reroll", "newbase", "make", "level", "done")

# phases
P_COMMIT: Final = 0
P_PAY: Final = 1
P_BASE: Final = 2
P_EXPLORE: Final = 3
P_PICK: Final = 4
P_GATHER: Final = 5
P_TRAIN: Final = 6
P_HUNT: Final = 7
P_FIGHTER: Final = 8
P_ORDER: Final = 9
P_REROLL: Final = 10
P_CRAFT: Final = 11
P_LEVEL: Final = 12
P_OVER: Final = 13
ACTION_PHASE = (P_EXPLORE, P_GATHER, P_TRAIN, P_HUNT, P_CRAFT)  # by action index 0..4 (resolution order)
EXPLORE: Final = 0
GATHER: Final = 1
TRAIN: Final = 2
HUNT: Final = 3
CRAFT: Final = 4
WILD: Final = -1
_DONE = (DONE,)


def seats_table(n: int) -> tuple[tuple[int, ...], ...]:
    """For each mask of ``n`` seats, the seats whose bit is set (who revealed an action), ascending.

    Kept per seat count and read as ``state.seats[mask]``: the hunt and train ask it at most
    decisions, and a look-up costs less than the loop (tuples: shared by every game and clone)."""
    table = _SEATS.get(n)
    if table is None:
        table = _SEATS[n] = tuple(tuple(s for s in range(n) if mask >> s & 1) for mask in range(1 << n))
    return table


_SEATS: dict[int, tuple[tuple[int, ...], ...]] = {}


class Flow(StateBase):
    """Rounds, cycles and actions; the first of the rules' line of classes (``valheim_base``)."""

    __slots__ = ()

    # ---- small queries ---------------------------------------------------------------------------
    def rule(self, key):
        return self.setup.rules[key]

    def bases(self) -> list[int]:
        """The slots holding a base, in slot order (read it, do not change it: the rules keep it)."""
        return self._bases

    def note_bases(self) -> None:
        """List the bases again after a slot became one (asked for at every action: kept, not searched)."""
        self._bases = [k for k, lv in enumerate(self.s_level) if lv >= 0]

    def has(self, cost: Cost) -> bool:
        pool = self.pool
        for r, n in cost:
            if pool[r] < n:
                return False
        return True

    def pay(self, cost, why) -> None:
        pool, supply = self.pool, self.supply
        for r, n in cost:
            pool[r] -= n
            supply[r] += n
            self.log.append(("spend", r, n, why))

    def take_supply(self, r: int, n: int) -> int:
        """Move up to n tokens of r from the supply (limited) into the pool; return how many."""
        if self.unlimited:
            got = n
        else:
            got = min(n, self.supply[r])
            self.supply[r] -= got
        self.pool[r] += got
        return got

    def avatar_strength(self, b: int) -> int:
        """An avatar's printed strength plus its player-count step (rules.hunt.strength_by_players)."""
        return self.setup.boss_strength[b] + self.boss_bonus

    def equip_level(self, s: int) -> int:
        lv = self.setup.r_level
        total = 0
        for r in self.equip[s]:
            if r >= 0:
                total += lv[r]
        return total

    def power(self, s: int, vs: str, base_level: int = 0) -> int:
        """Combat power without the die: hand + equipment (+ base level) + modifiers."""
        setup = self.setup
        p = len(self.hand[s]) if setup.play.power_adds_hand else 0
        if setup.play.power_adds_equipment:
            p += self.equip_level(s)
        if setup.play.combat_adds_base_level:
            p += base_level
        m = self.mods
        if vs == "raid":
            return p + self.fac.p_raid
        p += m.p_all
        p += m.p_boss if vs == "boss" else m.p_enemy
        return p

    def win_prob(self, s: int, strength: int, vs: str, base_level: int = 0) -> float:
        need = strength - self.power(s, vs, base_level)
        sides = self.setup.play.die_sides
        if not self.setup.play.tie_wins:
            need += 1
        return min(1.0, max(0.0, (sides - need + 1) / sides))

    # ---- cards -----------------------------------------------------------------------------------
    def draw_up(self, s: int, limit: int) -> bool:
        """Briefing draw for seat s; False when taking the last marker ended the round."""
        deck, hand = self.deck[s], self.hand[s]
        while len(hand) < limit:
            if not deck:
                if self.discard[s]:
                    deck.extend(self.discard[s])
                    self.discard[s] = []
                    shuffle(deck, self.rng)
                self.log.append(("reshuffle", s, len(deck)))
                if not self.marker[s]:
                    self.marker[s] = True
                    self.markers_left -= 1
                    self.log.append(("marker", s, self.markers_left))
                    if self.markers_left <= 0:
                        return False
                if not deck:
                    return True
            hand.append(deck.pop())
        return True

    # ---- rounds and cycles -----------------------------------------------------------------------
    def start_round(self) -> None:
        setup, rules = self.setup, self.setup.rules
        r = self.round_id
        tier = setup.round_tier[min(r, rules["rounds"]) - 1] if setup.round_tier else self.mtier
        self.log.append(("round", r, setup.tiers[tier] if setup.tiers else None))
        if tier != self.mtier:
            self.change_tier(tier)
        if r > 1:
            self.refill_tiles()
        self.cycle = 0
        self.briefing()

    def change_tier(self, tier: int) -> None:
        old = self.mtier
        self.mtier = tier
        if self.setup.rules["market.tier_change"] == "swap_row":
            self.mout.extend(c for c in self.row if c >= 0)
            self.row = [-1] * len(self.row)
        self.log.append(("tier", old, tier))
        self.refill_row()

    def deal_market(self) -> int:
        pile = self.mpiles[self.mtier]
        if not pile and self.setup.rules["market.empty_tier"] == "next_tier":
            for t in range(self.mtier + 1, len(self.mpiles)):
                if self.mpiles[t]:
                    pile = self.mpiles[t]
                    break
        if not pile:
            return -1
        c = pile.pop()
        self.log.append(("offer", c))
        return c

    def refill_row(self) -> None:
        row = self.row
        for i in range(len(row)):
            if row[i] < 0:
                row[i] = self.deal_market()

    def refill_tiles(self) -> None:
        stack = self.setup.rules["map.refill"] == "stack"
        t_res = self.setup.t_res
        for k, tile in enumerate(self.s_tile):
            tok = self.s_tok[k]
            for r, n in t_res[tile]:
                want = n if stack else n - tok[r]
                if want > 0:
                    got = want if self.unlimited else min(want, self.supply[r])
                    if not self.unlimited:
                        self.supply[r] -= got
                    tok[r] += got

    def hand_limit(self) -> int:
        """The hand a briefing draws up to: the rules' hand size and the facilities' extra cards."""
        return self.setup.play.hand_size + self.fac.hand

    def briefing(self) -> None:
        limit = self.hand_limit()
        for s in range(self.n):
            if not self.draw_up(s, limit):
                self.end_round()
                return
        self.commits = [None] * self.n
        self.seat = -1
        self.phase = P_COMMIT
        self.next_committer()

    def next_committer(self) -> None:
        for s in range(self.seat + 1, self.n):
            if self.hand[s]:
                self.seat = s
                return
            self.commits[s] = ()
        self.reveal()

    def reveal(self) -> None:
        setup = self.setup
        weight, effects = setup.c_weight, setup.c_effect
        n_act = [0] * 5
        p_act = [0] * 5
        played: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        self.played = played
        m = self.fac.copy()
        self.mods = m
        gains, pays = [], []
        for s in range(self.n):
            commit = self.commits[s]
            if not commit:
                continue
            hand = self.hand[s]
            for c, a in commit:
                hand.remove(c)
                played[s].append((c, a))
                n_act[a] += weight[c]
                p_act[a] |= 1 << s
            self.log.append(("reveal", s, commit))
        for s in range(self.n):
            for c, _ in played[s]:
                for op, p in effects[c]:
                    if op == "draw":
                        self.draw_effect(s, p["n"])
                    elif op == "gain":
                        gains.append(p["resources"])
                    elif op == "pay":
                        pays.append((s, c, p))
                    else:
                        m.add(op, p)
        for resources in gains:
            for r, k in resources:
                got = self.take_supply(r, k)
                self.log.append(("gain", r, got))
        self.n_act, self.p_act = n_act, p_act
        self.reroll_left = m.reroll
        self.pays = pays
        self.act = -1
        self.next_pay()

    def draw_effect(self, s: int, k: int) -> None:
        deck = self.deck[s]
        got = min(k, len(deck))
        for _ in range(got):
            self.hand[s].append(deck.pop())
        self.log.append(("draw", s, got))

    def next_pay(self) -> None:
        while self.pays:
            s, c, p = self.pays[0]
            if self.has(p["cost"]):
                self.phase, self.seat = P_PAY, s
                return
            self.pays.pop(0)
        self.next_action()

    def next_action(self) -> None:
        """Resolve the next revealed action in the fixed order, or close the main phase."""
        rules = self.setup.rules
        skip = rules["ap.skip_action_without_cards"]
        if self.act >= 0 and rules["round.played_to_discard"] == "after_each_action":
            self.discard_played(self.act)
        while self.phase != P_OVER:
            self.act += 1
            a = self.act
            if a >= 5:
                self.end_main()
                return
            if skip and not self.n_act[a]:
                continue
            mask = self.p_act[a]
            self.seat = (mask & -mask).bit_length() - 1 if mask else 0  # the lowest seat that revealed it
            bases = self.bases()
            if len(bases) == 1:
                self.begin_action(bases[0])
            else:
                self.phase = P_BASE
            return

    def begin_action(self, base: int) -> None:
        rules = self.setup.rules
        a = self.act
        mask = self.p_act[a]
        p = bin(mask).count("1")
        mult = rules["ap.group_multiplier"] if p >= rules["ap.group_min_players"] else 1
        level = self.s_level[base] if rules["ap.add_base_level"] else 0
        ap = self.n_act[a] * rules["ap.per_card"] * mult + level + self.mods.extra_ap[a]
        self.base, self.ap, self.ap_start = base, ap, ap
        self.free = self.mods.free[a]
        self.log.append(("ap", a, base, ap, self.n_act[a], p))
        if a == EXPLORE:
            self.walker = base
        elif a == GATHER:
            self.yield_left = self.mods.yield_
        elif a == TRAIN:
            self.trash_left = self.mods.trash
        elif a == HUNT:
            self.hunt_begin()
            return
        self.phase = ACTION_PHASE[a]
        self.settle()

    def finish_action(self) -> None:
        if self.ap > 0:
            self.log.append(("waste", self.act, self.ap))
        self.ap = 0
        if self.act == TRAIN and self.setup.rules["market.refill"] == "end_of_action":
            self.refill_row()
        self.next_action()

    def settle(self) -> None:
        """Close the action when nothing affordable is left (AP are lost, seed)."""
        if self.phase in ACTION_PHASE and self.phase != P_HUNT and not self.can_act():
            self.finish_action()

    def discard_played(self, upto: int) -> None:
        for s in range(self.n):
            keep = []
            for c, a in self.played[s]:
                if a <= upto:
                    self.discard[s].append(c)
                else:
                    keep.append((c, a))
            self.played[s] = keep

    def end_main(self) -> None:
        self.discard_played(4)
        self.cycle += 1
        self.log.append(("cycle", self.round_id, self.cycle))
        if self.cycle >= self.setup.rules["round.cycle_cap"]:
            self.log.append(("cap", self.round_id))
            self.end_round()
            return
        self.briefing()

    def end_round(self) -> None:
        rules = self.setup.rules
        self.log.append(("round_end", self.round_id, self.cycle))
        if rules["raids.enabled"]:
            self.raid()
        if rules["inheritance.mode"] == "carry_by_train":
            self.drop_unkept()
        keep_hand = rules["round.hand_kept_at_round_end"]
        for s in range(self.n):
            deck = self.deck[s]
            deck.extend(self.discard[s])
            self.discard[s] = []
            if not keep_hand:
                deck.extend(self.hand[s])
                self.hand[s] = []
            shuffle(deck, self.rng)
            self.marker[s] = False
        self.markers_left = self.n
        top = rules["bases.max_level"]
        if rules["bases.auto_level_per_round"]:
            for k in self.bases():
                if self.s_level[k] < top:
                    self.s_level[k] += 1
                    self.log.append(("level", k, self.s_level[k], 0))
        self.leveled = {}
        self.extra_left = self.fac.extra_level
        self.phase, self.seat = P_LEVEL, 0
        if self.last_round() or not self.level_options():
            self.next_round()  # no level-ups after the last round: the game ends here

    def last_round(self) -> bool:
        """No round follows this one (round 7 without a final battle, or the final battle's last)."""
        rules = self.setup.rules
        last = rules["rounds"]
        if self.round_id < last:
            return False
        if not rules["final_battle.enabled"] or all(self.defeated):
            return True
        return self.round_id >= last + rules["final_battle.extra_rounds"]

    def next_round(self) -> None:
        rules = self.setup.rules
        last = rules["rounds"]
        if self.round_id + 1 > last:
            if self.demon_hp is None:
                alive = [b for b in range(len(self.defeated)) if not self.defeated[b]]
                if not rules["final_battle.enabled"] or not alive:
                    self.finish("loss")
                    return
                self.demon_hp = len(alive)
                self.demon_str = max(self.setup.boss_strength[b] for b in alive) + \
                    rules["final_battle.strength_per_extra_avatar"] * (len(alive) - 1) + \
                    rules["final_battle.strength_by_players"].get(self.n, 0)
                self.log.append(("demon", self.demon_hp, self.demon_str))
            if self.round_id + 1 > last + rules["final_battle.extra_rounds"]:
                self.finish("loss")
                return
        self.round_id += 1
        self.start_round()

    def finish(self, outcome: str) -> None:
        self.outcome = outcome
        self.phase = P_OVER
        self.seat = -1
        self.log.append(("end", outcome, self.round_id))

    def raid(self) -> None:
        """G20 night raid: one enemy; any player reaching its strength repels it."""
        setup = self.setup
        e = self.draw_enemy(regular_only=True)
        if e is None:
            return
        r = min(self.round_id, setup.play.rounds)
        strength = setup.e_strength[e][r - 1]
        sides = setup.play.die_sides
        ok = False
        for s in range(self.n):
            roll = 1 + int(self.rng.random() * sides)
            if self.power(s, "raid") + roll >= strength:
                ok = True
        self.ediscard.append(e)
        self.log.append(("raid", e, strength, ok))
        if not ok:
            lose = setup.rules["raids.discard_on_fail"]
            for s in range(self.n):
                hand = self.hand[s]
                for _ in range(min(lose, len(hand))):
                    c = min(hand, key=lambda x: (setup.c_tier[x], x))  # the players drop basic cards first
                    hand.remove(c)
                    self.discard[s].append(c)
                    self.log.append(("raid_discard", s, c))

    def drop_unkept(self) -> None:
        tier = self.setup.c_tier
        for s in range(self.n):
            for zone in (self.deck, self.hand, self.discard):
                cards = zone[s]
                gone = [c for c in cards if tier[c] >= 0 and c not in self.kept]
                if gone:
                    zone[s] = [c for c in cards if c not in gone]
                    self.exiled.extend(gone)
                    for c in gone:
                        self.log.append(("unkept", s, c))
        self.kept = set()

    # ---- round end: level-ups --------------------------------------------------------------------
    def level_cost(self, k: int):
        """(cost, kind) of levelling base k now, or None."""
        rules = self.setup.rules
        lv = self.s_level[k]
        if lv < 0 or lv >= self.setup.play.max_level or lv >= len(self.setup.level_cost):
            return None
        cost = self.setup.level_cost[lv]
        done = self.leveled.get(k, 0)
        if done < rules["bases.level_ups_per_base_per_round"]:
            return cost, 0
        if done == rules["bases.level_ups_per_base_per_round"]:
            if self.extra_left > 0:
                return cost, 1
            if rules["bases.double_level_up"]:
                return tuple((r, 2 * n) for r, n in cost), 2
        return None

    def level_options(self) -> list[int]:
        out = []
        for k in self.bases():
            c = self.level_cost(k)
            if c is not None and self.has(c[0]):
                out.append(k)
        return out
