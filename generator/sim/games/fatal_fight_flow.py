"""Fatal Fight: the non-decision steps of spec §3 (S, P, R, E, F, X) as a State mixin.

Each method is one step of the rules, in the order of the spec, and logs what it does. The
decision-making steps (A: the action phase, shopping) live in ``fatal_fight.py``.
"""
from __future__ import annotations

from ...sim.rng import shuffle
from .fatal_fight_combat import BOSS

ACTIVE, DOWN, RETURNING = 0, 1, 2
# phases
SHOP, MAIN, CHAIN, COMBO, TARGET, PICK, OVER = range(7)


class Flow:
    # ---- S / X: stages ---------------------------------------------------------------------------
    def begin_stage(self, stage: int) -> None:
        setup, rng = self.setup, self.rng
        self.stage = stage
        self.log.append(("stage", stage))
        normals = list(range(len(setup.stages[stage]["normal"])))
        shuffle(normals, rng)
        self.stage_deck = normals
        self.stage_drawn = 0
        self.stage_card = None
        self.round_in_stage = 0
        self.boss_placed = False
        self.boss_alive = True
        boss = setup.bosses[stage]
        self.boss_life = self.boss_life_max = boss["life"]
        self.boss_gp = 0
        deck = list(range(len(boss["skills"])))
        shuffle(deck, rng)
        self.boss_deck = deck
        fresh = [e for e in range(len(setup.e_stage)) if setup.e_stage[e] == stage]
        pool = self.enemy_deck + self.enemy_discard + self.escaped + fresh
        for g in self.groups:
            pool.extend(e for e in g if e != BOSS)
            g.clear()
        self.enemy_deck, self.enemy_discard, self.escaped = pool, [], []
        shuffle(self.enemy_deck, rng)
        self.pickups = {}
        self.blocked = set()
        if stage > 1:
            self.refresh_gym()
        self.shop_queue = [s for s in range(self.n)]
        self.next_shopper()

    def refresh_gym(self) -> None:
        self.gym_deck.extend(self.gym)
        self.gym = [self.gym_deck.pop(0) for _ in range(min(self.setup.rules["gym_size"], len(self.gym_deck)))]

    def next_shopper(self) -> None:
        """Hand the shop to the next player, or start the stage's first round."""
        setup = self.setup
        while self.shop_queue:
            seat = self.shop_queue.pop(0)
            self.seat = seat
            self.phase = SHOP
            self._legal = None
            if len(self._legal_unsorted()) > 1:
                self.log.append(("shop_turn", seat))
                for inst in self.upgrades_left[seat] + self.gym:
                    if setup.c_cost[inst] <= self.gold[seat]:
                        self.log.append(("offer", seat, inst))
                return
        if self.setup.switches["n10_free_arts"] and not self.picked_this_stage:
            self.picked_this_stage = True
            count = self.n + self.setup.rules["free_arts_extra_cards"]
            self.picks = [self.gym_deck.pop(0) for _ in range(min(count, len(self.gym_deck)))]
            self.shop_queue = list(range(self.n))
            self.next_picker()
            return
        self.after_shopping()

    def next_picker(self) -> None:
        """N10: each player in turn order takes one of the revealed extra arts for free."""
        if self.shop_queue and self.picks:
            self.seat = self.shop_queue.pop(0)
            self.phase = PICK
            self._legal = None
            return
        self.gym_deck.extend(self.picks)
        self.picks = []
        self.after_shopping()

    def after_shopping(self) -> None:
        if self.stage == self.setup.n_stages:
            self.final_boss_setup()
        self.start_round()

    def final_boss_setup(self) -> None:
        """G1: leftover gold removes rage cards (n gold each), then lowers the boss's life."""
        rules, boss = self.setup.rules, self.setup.bosses[self.stage]
        gold = sum(self.gold)
        step = self.n
        removed = min(len(boss["rage"]), gold // step)
        gold -= removed * step
        lowered = min(rules["final_boss_max_life_cut"], gold // step)
        gold -= lowered * step
        rage = [len(boss["skills"]) + i for i in range(removed, len(boss["rage"]))]
        self.boss_deck.extend(rage)
        shuffle(self.boss_deck, self.rng)
        self.boss_life = self.boss_life_max = boss["life"] - lowered
        self.gold = [0] * self.n
        self.log.append(("final_boss", removed, lowered))

    def clear_stage(self) -> None:
        """X: split the pool, win after the last stage, else set up the next stage."""
        n, rules = self.n, self.setup.rules
        self.log.append(("clear", self.stage, self.round_in_stage))
        if self.pool >= n:
            share = self.pool // n
            self.pool -= share * n
        else:
            share = rules["min_gold_share"]
        for s in range(n):
            self.gold[s] += share
            self.gold_earned[s] += share
        self.log.append(("split", share, self.pool))
        if self.stage == self.setup.n_stages:
            self.finish("win")
            return
        for s in range(n):
            self.discard_played(s)
            deck = self.deck[s]
            deck.extend(self.hand[s])
            deck.extend(self.discard[s])
            deck.extend(self.gauge[s])
            self.hand[s], self.discard[s], self.gauge[s] = [], [], []
            shuffle(deck, self.rng)
            self.life[s] = self.max_life[s]
            self.status[s] = ACTIVE
            self.gp[s] = 0
            self.pos[s] = self.setup.rules["start_square"]
        self.chain = []
        self.picked_this_stage = False
        self.begin_stage(self.stage + 1)

    # ---- R: round start ---------------------------------------------------------------------------
    def start_round(self) -> None:
        setup, rules = self.setup, self.setup.rules
        self.round_in_stage += 1
        self.round_id += 1
        if self.round_in_stage > rules["max_rounds_per_stage"]:
            self.finish("stall")
            return
        for s in range(self.n):
            if self.status[s] == RETURNING:
                self.status[s] = ACTIVE
        for s in range(self.n):
            if self.status[s] == ACTIVE:
                self.draw(s, self.hand_size[s] - len(self.hand[s]))
        stage = setup.stages[self.stage]
        if self.stage_drawn < rules["normal_stage_cards_used"] and self.stage_deck:
            card = stage["normal"][self.stage_deck.pop(0)]
            self.stage_drawn += 1
            self.boss_stage = False
        else:
            card = stage["boss"]
            self.boss_stage = True
        if card is not self.stage_card:
            self.pickups, self.blocked = {}, set()
        self.stage_card = card
        self.log.append(("round", self.round_id, self.stage, self.round_in_stage, card["id"]))
        extra = card["extra"].get(self.n)
        for k in range(6):
            count = card["respawn"][k] + (extra[k] if extra else 0)
            if count:
                self.spawn(k, count)
        if self.boss_stage and not self.boss_placed:
            self.boss_placed = True
            self.groups[rules["boss_respawn"] - 1].append(BOSS)
            self.log.append(("boss_in", rules["boss_respawn"] - 1))
        for square, supply in card["pickups"]:
            self.place_pickup(square, supply)
        self.run_gimmicks("round_start")
        egp, e_guard = self.egp, setup.e_guard
        for g in self.groups:
            for e in g:
                if e != BOSS:
                    egp[e] = e_guard[e]
        self.boss_gp = setup.bosses[self.stage]["guard"]
        self.turn_pos = -1
        self.next_turn()

    def run_gimmicks(self, timing: str) -> None:
        card = self.stage_card
        if card is None or self.phase == OVER:
            return
        for when, effect in card["gimmicks"]:
            if when == timing:
                self.apply_effect(effect, None, None)

    def spawn(self, k: int, count: int) -> None:
        for _ in range(count):
            if not self.enemy_deck:
                if not self.enemy_discard:
                    self.log.append(("empty_pool", k))
                    return
                self.enemy_deck, self.enemy_discard = self.enemy_discard, []
                shuffle(self.enemy_deck, self.rng)
                self.log.append(("reshuffle",))
            e = self.enemy_deck.pop()
            self.groups[k].append(e)
            self.egp[e] = self.setup.e_guard[e]
            self.log.append(("spawn", k, e))

    # ---- E: enemy phase ---------------------------------------------------------------------------
    def enemy_phase(self) -> None:
        setup = self.setup
        self.log.append(("enemy_phase", tuple(len(g) for g in self.groups)))
        if self.boss_alive and self.boss_placed and self.boss_deck:
            top = self.boss_deck.pop(0)
            self.boss_deck.append(top)
            boss = setup.bosses[self.stage]
            effect = boss["skills"][top] if top < len(boss["skills"]) else boss["rage"][top - len(boss["skills"])]
            self.log.append(("boss_skill", top))
            self.apply_effect(effect, None, self.boss_group())
            if self.phase == OVER:
                return
        self.run_gimmicks("enemy_phase")
        acted = set()
        for k in range(6):
            group = self.groups[k]
            if not group:
                continue
            head = group[0]
            if head != BOSS and head not in acted:
                acted.add(head)
                skill = setup.e_skill[head]
                if skill == "cross":
                    group.pop(0)
                    dest = k + 3 if k < 3 else k - 3
                    self.groups[dest].append(head)
                    self.log.append(("cross", head, k, dest))
                if setup.e_effect[head]:
                    self.apply_effect(setup.e_effect[head], None, k)
            size = len(group)
            if size:
                line = k % 3
                for s in range(self.n):
                    if self.status[s] == ACTIVE and self.pos[s] % 3 == line:
                        self.hurt(s, size, pierce=False, cause="combat")
            if self.phase == OVER:
                return
        self.mass_damage()

    def mass_damage(self) -> None:
        cap = self.setup.rules["group_cap"]
        for k in range(6):
            group = self.groups[k]
            over = sum(1 for e in group if e != BOSS) - cap
            if over <= 0:
                continue
            gone = 0
            i = 0
            while gone < over:
                if group[i] == BOSS:
                    i += 1
                    continue
                self.enemy_discard.append(group.pop(i))
                gone += 1
            self.log.append(("mass", k, gone))
            for s in range(self.n):
                if self.status[s] == ACTIVE:
                    self.hurt(s, gone, pierce=False, cause="mass")
            if self.phase == OVER:
                return

    # ---- F: round end ------------------------------------------------------------------------------
    def end_round(self) -> None:
        setup = self.setup
        self.run_gimmicks("round_end")
        if self.phase == OVER:
            return
        for k, group in enumerate(self.groups):
            if any(e != BOSS and setup.e_skill[e] == "carrier" for e in group):
                kept = []
                for e in group:
                    if e != BOSS and setup.e_skill[e] == "carrier":
                        self.escaped.append(e)
                        self.log.append(("escape", e))
                    else:
                        kept.append(e)
                self.groups[k] = kept
        for s in range(self.n):
            self.discard_played(s)
            self.gp[s] = 0
        self.start_round()

    def discard_played(self, s: int) -> None:
        c_exile = self.setup.c_exile
        for inst in self.played_up[s]:
            if c_exile[inst]:
                self.exiled.append(inst)
                self.log.append(("exile", s, inst))
            else:
                self.discard[s].append(inst)
        self.discard[s].extend(self.played_down[s])
        self.played_up[s] = []
        self.played_down[s] = []

    def finish(self, outcome: str) -> None:
        self.outcome = outcome
        self.phase = OVER
        self.log.append(("end", outcome))
