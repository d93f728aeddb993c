"""Fatal Fight: the steps of spec §3 that need no decision (S, P, R, E, F, X) as a State mixin.

Each method is one step of the rules, in the spec's order, and logs what it does. The decisions
(A: the action phase, P: shopping) live in ``fatal_fight_actions.py``.
"""
from __future__ import annotations

import random
from typing import Any, Final, Optional

from ...sim.rng import shuffle
from .fatal_fight_combat import group_size, over_cap
from .fatal_fight_setup import Effect, Setup
from .fatal_fight_shop import has_shop_choice

# Final: mypyc compiles them in as constants (plain ints in Python)
ACTIVE: Final = 0
DOWN: Final = 1
RETURNING: Final = 2
SHOP: Final = 0
MAIN: Final = 1
CHAIN: Final = 2
COMBO: Final = 3
TARGET: Final = 4
PICK: Final = 5
DROP: Final = 6
RAGE: Final = 7
OVER: Final = 8
Action = tuple[int, ...]  # a decision (fatal_fight_actions): its kind, then cards, squares or seats


class Flow:
    # The State's attributes (``fatal_fight.State`` sets them in ``new_game``), declared here for the
    # type checker (and mypyc): the steps below and the module functions taking a state read them.
    setup: Setup
    rng: random.Random
    n: int
    chars: list[int]
    deck: list[list[int]]
    hand: list[list[int]]
    discard: list[list[int]]
    played_up: list[list[int]]
    played_down: list[list[int]]
    carry: list[list[int]]
    gauge: list[list[int]]
    upgrades_left: list[list[int]]
    life: list[int]
    max_life: list[int]
    actions: list[int]
    hand_size: list[int]
    max_carry: list[int]
    gold: list[int]
    gold_earned: list[int]
    gp: list[int]
    status: list[int]
    pos: list[int]
    mega_art: list[int]
    taken: list[int]
    stage_deck: list[int]
    boss_deck: list[int]
    enemy_deck: list[int]
    enemy_discard: list[int]
    escaped: list[int]
    elife: list[int]
    egp: list[int]
    xgp: list[int]
    gym_deck: list[int]
    gym: list[int]
    gym_gone: list[int]
    exiled: list[int]
    wound_pool: list[int]
    chain: list[Any]  # (seat, card) pairs (a None placeholder while pending mods apply)
    chain_mods: list[tuple]
    pending_mods: list[tuple]
    partners: list[int]
    shop_queue: list[int]
    picks: list[int]
    log: list[tuple]
    gimmicks: list[Any]
    gauged: list[int]
    chains_this_turn: list[int]
    gifted: list[bool]
    stage: int
    stage_drawn: int
    stage_card: Any
    round_in_stage: int
    round_id: int
    boss_placed: bool
    boss_alive: bool
    groups: list[list[int]]
    obstacles: dict[int, tuple]
    pool: int
    pickups: dict[int, list[tuple]]
    blocked: set[int]
    phase: int
    seat: int
    turn_pos: int
    actions_left: int
    free_moves: int
    chain_ap: int
    chain_flags: int
    chain_hits: int
    grapples: int
    partner_used: dict[int, int]
    strike_target: Optional[int]
    picked_this_stage: bool
    dropping: Any  # None, () (a discard-down is due) or the (phase, seat) a DROP decision interrupted
    rage_to_remove: int
    outcome: Optional[str]
    _legal: Optional[list[Action]]

    # ---- the State's primitives these steps use (defined in ``fatal_fight.State``) -------------------
    def draw(self, s: int, count: int) -> None:
        raise NotImplementedError

    def hurt(self, s: int, n: int, pierce: bool, cause: str) -> None:
        raise NotImplementedError

    def apply_effect(self, effect: Effect, seat: Optional[int], ctx: Any) -> None:
        raise NotImplementedError

    def next_turn(self) -> None:
        raise NotImplementedError

    def add_wound(self, s: int) -> None:
        raise NotImplementedError

    # ---- S, X3, P: stage setup and shopping --------------------------------------------------------
    def begin_stage(self, stage: int) -> None:
        setup, rng, rules = self.setup, self.rng, self.setup.play
        self.stage = stage
        self.log.append(("stage", stage))
        self.stage_deck = list(range(len(setup.stages[stage]["normal"])))
        shuffle(self.stage_deck, rng)
        self.stage_drawn, self.stage_card, self.round_in_stage = 0, None, 0
        self.boss_placed, self.boss_alive = False, True
        boss = setup.bosses[stage]
        self.elife[setup.boss] = boss["life"] + self.boss_bonus(boss)
        # X3 sets up the next boss: the GP the last one's skill gave it does not carry over (a pierce kill
        # leaves it; so far always cleared by a normal round's enemy phase before this boss is placed)
        self.xgp[setup.boss] = 0
        self.boss_deck = list(range(len(boss["skills"])))
        shuffle(self.boss_deck, rng)
        pool = self.enemy_deck + self.enemy_discard
        if rules.escaped_carriers == "next_stage":
            pool += self.escaped
            self.escaped = []
        for g in self.groups:
            if rules.board_enemies_return:
                for e in g:  # a loop, not a generator
                    if e < setup.boss:
                        pool.append(e)
            g.clear()
        del self.elife[setup.boss + 1:], self.egp[setup.boss + 1:], self.xgp[setup.boss + 1:]
        self.obstacles = {}
        pool.extend(e for e in range(len(setup.e_stage)) if setup.e_stage[e] == stage)
        self.enemy_deck, self.enemy_discard = pool, []
        shuffle(self.enemy_deck, rng)
        self.pickups, self.blocked, self.gimmicks = {}, set(), []
        if not rules.n10 and stage > 1:
            self.refresh_gym()
        self.shop_queue = list(range(self.n))
        self.gifted = [False] * self.n
        self.next_shopper()

    def boss_bonus(self, boss) -> int:
        """G2 scaling: boss life (and min_life) + life_per_extra_character per character beyond the minimum."""
        return boss["per_extra"] * max(0, self.n - self.setup.play.min_characters)

    def refresh_gym(self) -> None:
        mode = self.setup.play.gym_refresh
        if mode == "bottom":
            self.gym_deck.extend(self.gym)
            self.gym = []
        elif mode == "discard":
            self.gym_gone.extend(self.gym)
            self.gym = []
        while len(self.gym) < self.setup.play.gym_size and self.gym_deck:
            self.gym.append(self.gym_deck.pop(0))

    def next_shopper(self) -> None:
        """Hand the shop to the next player who can buy something, or move on."""
        setup = self.setup
        while self.shop_queue:
            self.seat = self.shop_queue.pop(0)
            self.phase = SHOP
            self._legal = None
            if has_shop_choice(self):
                self.log.append(("shop_turn", self.seat))
                for inst in self.upgrades_left[self.seat] + self.gym:
                    if setup.c_cost[inst] <= self.gold[self.seat]:
                        self.log.append(("offer", self.seat, inst))
                return
        rules = setup.play
        if rules.n10 and not self.picked_this_stage:
            self.picked_this_stage = True
            count = self.n * rules.n10_per_player + rules.n10_extra
            self.picks = [self.gym_deck.pop(0) for _ in range(min(count, len(self.gym_deck)))]
            for inst in self.picks:
                self.log.append(("offer", -1, inst))
            self.shop_queue = list(range(self.n)) * rules.n10_per_player
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
        if self.stage == self.setup.play.stages and self.final_boss_setup():
            return  # the team chooses which rage cards its gold removes (RAGE), then the round starts
        self.start_round()

    def final_boss_setup(self) -> bool:
        """G1: the final boss deck is its skills plus its rage cards; leftover gold removes rage cards,
        then lowers the final boss's life (to min_life). With final_boss_gold off, gold buys nothing
        and every rage card stays. True when the team must choose the rage cards to remove."""
        rules, boss = self.setup.play, self.setup.bosses[self.stage]
        gold, step = (sum(self.gold) if rules.fb_enabled else 0), rules.fb_step * self.n
        removed = min(len(boss["rage"]), rules.fb_max_rage, gold // step)
        gold -= removed * step
        lowered = min(boss["life"] - boss["min_life"], gold // step)  # the same bonus is added to both
        gold -= lowered * step
        n_skills = len(boss["skills"])
        self.boss_deck.extend(n_skills + i for i in range(len(boss["rage"])))
        self.elife[self.setup.boss] = boss["life"] + self.boss_bonus(boss) - lowered
        spent = (sum(self.gold) - gold) if rules.fb_enabled else 0
        for s in range(self.n):
            take = min(self.gold[s], spent)
            self.gold[s] -= take
            spent -= take
        self.log.append(("final_boss", removed, lowered))
        self.rage_to_remove = removed
        return self.remove_rage()

    def remove_rage(self) -> bool:
        """G1: the rage cards the gold paid for leave the boss deck, chosen by the team (seat 0, first
        in turn order, speaks for it: a RAGE decision) when fewer go than there are and they differ;
        then the deck is shuffled. True while waiting for that choice."""
        boss = self.setup.bosses[self.stage]
        first_rage = len(boss["skills"])
        while self.rage_to_remove:
            rage = [top for top in self.boss_deck if top >= first_rage]
            effects = [boss["rage"][top - first_rage] for top in rage]
            if self.rage_to_remove < len(rage) and any(e != effects[0] for e in effects):  # different cards
                self.phase, self.seat, self._legal = RAGE, 0, None
                return True
            self.rage_out(rage[0])
        shuffle(self.boss_deck, self.rng)
        return False

    def rage_out(self, top: int) -> None:
        self.boss_deck.remove(top)
        self.rage_to_remove -= 1
        self.log.append(("rage_out", top))

    def clear_stage(self) -> None:
        """X: split the pool, win after the last stage, else heal, reshuffle and set up the next."""
        n, rules = self.n, self.setup.play
        self.log.append(("clear", self.stage, self.round_in_stage))
        if self.pool >= n:
            share = self.pool // n
            self.pool -= share * n
        else:
            share = 1  # X1 (L422): at least 1 gold each, from the bank; the pool carries over
        for s in range(n):
            self.gold[s] += share
            self.gold_earned[s] += share
        self.log.append(("split", share, self.pool))
        if self.stage == rules.stages:
            self.finish("win")
            return
        for s in range(n):
            self.discard_played(s)
            deck = self.deck[s]
            for zone in (self.hand, self.discard, self.gauge):
                deck.extend(zone[s])
                zone[s] = []
            shuffle(deck, self.rng)
            self.life[s], self.status[s], self.gp[s] = self.max_life[s], ACTIVE, 0
            self.pos[s] = rules.start_square
        self.chain, self.chain_mods, self.pending_mods = [], [], []
        self.picked_this_stage = False
        self.begin_stage(self.stage + 1)

    # ---- R: round start -----------------------------------------------------------------------------
    def start_round(self) -> None:
        setup, rules = self.setup, self.setup.play
        self.round_in_stage += 1
        self.round_id += 1
        if self.round_in_stage > rules.max_rounds_per_stage:
            self.finish("stall")
            return
        for s in range(self.n):
            if self.status[s] == RETURNING:
                self.status[s] = ACTIVE
            if self.status[s] == ACTIVE:
                self.draw(s, self.hand_size[s] - len(self.hand[s]))
        stage = setup.stages[self.stage]
        first_boss_round = False
        if self.stage_drawn < rules.normal_stage_cards_used and self.stage_deck:
            card = stage["normal"][self.stage_deck.pop(0)]
            self.stage_drawn += 1
        else:
            card = stage["boss"]
            first_boss_round = card is not self.stage_card
        new_card = card is not self.stage_card
        if new_card:
            self.new_stage_card(card)
        self.log.append(("round", self.round_id, self.stage, self.round_in_stage, card["id"]))
        if new_card or rules.boss_stage_repeats:
            extra = card["extra"].get(self.n) if rules.extra_enemies_by_players else None
            for k in range(6):
                count = card["respawn"][k] + (extra[k] if extra else 0)
                if count:
                    self.spawn(k, count)
            for _ in range(extra[6] if extra else 0):
                self.spawn(int(self.rng.random() * 6), 1)
        if first_boss_round and not self.boss_placed:
            k, position = card["boss_spawn"]
            self.boss_placed = True
            self.groups[k].insert(0 if position == "head" else len(self.groups[k]), setup.boss)
            self.log.append(("boss_in", k, self.elife[setup.boss]))  # its life, for the trace
        if rules.pickups and new_card:
            for square, supply, gold in card["pickups"]:
                self.pickups.setdefault(square, []).append((supply, gold))
        self.run_gimmicks("round_start")
        if rules.enemy_guard_refresh or new_card:
            for g in self.groups:
                for e in g:
                    if e < setup.boss:
                        self.egp[e] = setup.e_guard[e]
        if rules.mass_damage_timing == "at_placement":
            self.mass_damage()
        self.turn_pos = -1
        if self.phase != OVER:
            self.next_turn()

    def new_stage_card(self, card) -> None:
        keep = [g for g in self.gimmicks if g[1]] if self.setup.play.stage_card_replaces else self.gimmicks
        self.gimmicks = keep + list(card["gimmicks"])
        if self.setup.play.stage_card_replaces:
            self.pickups, self.blocked = {}, set()
        self.stage_card = card
        for timing, _, effect, key in card["gimmicks"]:
            if timing == "while_active":
                self.apply_effect(effect, None, key)

    def run_gimmicks(self, timing: str) -> None:
        for when, _, effect, key in self.gimmicks:
            if when == timing and self.phase != OVER:
                self.apply_effect(effect, None, key)

    def spawn(self, k: int, count: int) -> None:
        for _ in range(count):
            if not self.enemy_deck:
                if not self.enemy_discard or not self.setup.play.enemy_deck_reshuffle:
                    self.log.append(("empty_pool", k))
                    return
                self.enemy_deck, self.enemy_discard = self.enemy_discard, []
                shuffle(self.enemy_deck, self.rng)
                self.log.append(("reshuffle",))
            e = self.enemy_deck.pop()
            self.groups[k].append(e)
            self.egp[e] = self.setup.e_guard[e]
            self.xgp[e] = 0
            self.log.append(("spawn", k, e))

    # ---- E: enemy phase ------------------------------------------------------------------------------
    def enemy_phase(self) -> None:
        setup = self.setup
        boss = setup.boss
        sizes = []
        for g in self.groups:  # a loop, not a generator (a frame and a resumption per group)
            sizes.append(group_size(self, g))
        self.log.append(("enemy_phase", tuple(sizes)))
        if self.xgp[boss] and self.boss_alive and self.boss_placed:  # the trace shows the boss's GP: it lapses
            self.log.append(("boss_gp", self.xgp[boss] + self.egp[boss], self.egp[boss], "expires"))
        self.xgp = [0] * len(self.xgp)
        self.taken = [0] * self.n
        self.run_gimmicks("enemy_phase")
        if self.boss_alive and self.boss_placed and self.boss_deck and self.phase != OVER:
            top = self.boss_deck.pop(0)
            self.boss_deck.append(top)
            b = setup.bosses[self.stage]
            n_skills = len(b["skills"])
            self.log.append(("boss_skill", top, self.stage))
            self.apply_effect(b["skills"][top] if top < n_skills else b["rage"][top - n_skills], None, None)
        acted = set()
        once = setup.play.enemy_acts_once
        for k in range(6):
            if self.phase == OVER:
                return
            group = self.groups[k]
            if group and group[0] < boss and not (once and group[0] in acted):
                head = group[0]
                acted.add(head)
                if setup.e_skill[head] == "cross":
                    group.pop(0)
                    self.groups[k + 3 if k < 3 else k - 3].append(head)
                    self.log.append(("cross", head, k))
                if setup.e_call[head]:
                    self.spawn(k, setup.e_call[head])
            size = group_size(self, group)
            if size:
                line = k % 3
                for s in range(self.n):
                    if self.status[s] == ACTIVE and self.pos[s] % 3 == line:
                        self.hurt(s, size, pierce=False, cause="combat")
        if setup.play.mass_damage_timing == "after_groups" and self.phase != OVER:
            self.mass_damage()
        if setup.play.n11 and self.phase != OVER:
            for s in range(self.n):
                if self.taken[s] >= setup.play.n11_trigger:
                    self.add_wound(s)

    def mass_damage(self) -> None:
        boss = self.setup.boss
        for k in range(6):
            group = self.groups[k]
            over = over_cap(self, group)
            if over <= 0 or self.phase == OVER:
                continue
            gone, i = 0, 0
            while gone < over and i < len(group):
                if group[i] < boss:
                    self.enemy_discard.append(group.pop(i))
                    gone += 1
                else:
                    i += 1
            self.log.append(("mass", k, gone))
            for s in range(self.n):
                if self.status[s] == ACTIVE:
                    self.hurt(s, gone, pierce=False, cause="mass")

    # ---- F: round end --------------------------------------------------------------------------------
    def end_round(self) -> None:
        setup = self.setup
        self.run_gimmicks("round_end")
        if self.phase == OVER:
            return
        boss, skill = setup.boss, setup.e_skill
        for k, group in enumerate(self.groups):
            gone = []
            for e in group:  # a loop: no comprehension frame for each of six groups a round
                if e < boss and skill[e] == "carrier":
                    gone.append(e)
            if gone:
                self.groups[k] = [e for e in group if e not in gone]
                self.escaped.extend(gone)
                self.log.extend(("escape", e) for e in gone)
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
