"""Fatal Fight engine: spec §3 (shared/spec/fatal-fight.md) as an OpenSpiel-style State.

The model for other engines. Reading order: ``fatal_fight_setup`` (tables -> Setup),
this module (State: the decisions of the action phase and the shop), ``fatal_fight_flow``
(round, enemy phase, stage clear), ``fatal_fight_combat`` (targets and damage),
``fatal_fight_effects`` (the ``effect:`` ops), ``fatal_fight_agents`` (greedy, nocombo) and
``fatal_fight_report`` (per-game record and trace text).

Actions are small tuples of ints, so ``legal_actions()`` sorts deterministically:

    (END,)  (PLAY, card)  (MOVE, square)  (PAID_MOVE, square, card)  (ITEM, card)
    (SAVE, seat, card, card)  (GAUGE, card)  (MEGA,)  (FINISH,)  (JOIN, card)  (PASS,)
    (TARGET, k)  (NO_TARGET,)  (UPGRADE, card)  (BUY, card)  (CURE, card)  (DONE,)  (PICK, card)

Forced steps with a single possible outcome (closing a chain when no action is left, a turn
with nothing left to do) are applied by the engine, so every decision an agent sees is real.
"""
from __future__ import annotations

from ...sim.api import IllegalActionError, TERMINAL
from ...sim.rng import copy_rng, sample, shuffle
from . import fatal_fight_actions as actions
from . import fatal_fight_combat as combat
from .fatal_fight_actions import END, HANDLERS
from .fatal_fight_effects import OPS
from .fatal_fight_flow import ACTIVE, DOWN, MAIN, OVER, SHOP, Flow
from .fatal_fight_setup import compile_setup  # noqa: F401  (module API)

NAME = "fatal-fight"
VERSION = "1"
_LISTS = ("deck", "hand", "discard", "played_up", "played_down", "carry", "gauge", "upgrades_left")


class State(Flow):
    __slots__ = ("setup", "rng", "n", "chars", "life", "max_life", "actions", "hand_size", "max_carry",
                 "deck", "hand", "discard", "played_up", "played_down", "carry", "gauge", "upgrades_left",
                 "gold", "gold_earned", "gp", "status", "pos", "stage", "stage_deck", "stage_drawn",
                 "stage_card", "boss_stage", "round_in_stage", "round_id", "boss_placed", "boss_alive",
                 "boss_life", "boss_life_max", "boss_gp", "boss_deck", "enemy_deck", "enemy_discard", "escaped",
                 "groups", "egp", "pool", "gym_deck", "gym", "exiled", "debuff_pool", "pickups", "blocked",
                 "phase", "seat", "turn_pos", "actions_left", "free_moves", "gauged", "chain", "chain_ap",
                 "chain_flags", "grapples", "partners", "partner_used", "shop_queue", "picks",
                 "picked_this_stage", "outcome", "log", "_legal")

    # ---- OpenSpiel contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.seat

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        value = 1.0 if self.outcome == "win" else 0.0 if self.outcome is None else -1.0
        return [value] * self.n

    def clone(self) -> "State":
        twin = State.__new__(State)
        for name in State.__slots__:
            setattr(twin, name, getattr(self, name))
        for name in _LISTS:
            setattr(twin, name, [list(x) for x in getattr(self, name)])
        for name in ("life", "max_life", "gold", "gold_earned", "gp", "status", "pos", "stage_deck", "boss_deck",
                     "enemy_deck", "enemy_discard", "escaped", "egp", "gym_deck", "gym", "exiled", "debuff_pool",
                     "chain", "partners", "shop_queue", "picks", "log", "actions", "hand_size", "gauged"):
            setattr(twin, name, list(getattr(self, name)))
        twin.groups = [list(g) for g in self.groups]
        twin.partner_used = dict(self.partner_used)
        twin.pickups = {k: list(v) for k, v in self.pickups.items()}
        twin.blocked = set(self.blocked)
        twin.rng = copy_rng(self.rng)
        return twin

    def legal_actions(self) -> list[tuple]:
        if self._legal is None:
            self._legal = sorted(self._legal_unsorted()) if self.phase != OVER else []
        return self._legal

    def apply_action(self, action: tuple) -> None:
        self._legal = None
        kind = action[0]
        handler = HANDLERS.get((self.phase, kind))
        if handler is None or action not in self.legal_actions():
            raise IllegalActionError(f"{self.action_to_string(action)} is not legal now")
        self.log.append(("act", self.seat, action))
        handler(self, action)
        self._legal = None

    def action_to_string(self, action: tuple) -> str:
        from .fatal_fight_report import action_text
        return action_text(self, action)

    def __str__(self) -> str:
        from .fatal_fight_report import state_text
        return state_text(self)

    # ---- primitives used by rules and effect ops ------------------------------------------------
    def active_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.status[s] == ACTIVE]

    def boss_group(self):
        for k, g in enumerate(self.groups):
            if combat.BOSS in g:
                return k
        return None

    def draw(self, s: int, count: int) -> None:
        deck, hand = self.deck[s], self.hand[s]
        for _ in range(count):
            if not deck:
                if not self.discard[s]:
                    return
                deck.extend(self.discard[s])
                self.discard[s] = []
                shuffle(deck, self.rng)
            inst = deck.pop()
            hand.append(inst)
            self.log.append(("draw", s, inst))

    def heal(self, s: int, n: int) -> None:
        if self.status[s] == ACTIVE and n > 0:
            gained = min(n, self.max_life[s] - self.life[s])
            if gained > 0:
                self.life[s] += gained
                self.log.append(("heal", s, gained))

    def gain_gp(self, s: int, n: int) -> None:
        if n > 0:
            self.gp[s] += n
            self.log.append(("gp", s, n))

    def hurt(self, s: int, n: int, pierce: bool, cause: str) -> None:
        if self.status[s] != ACTIVE or n <= 0:
            return
        absorbed = 0 if pierce else min(self.gp[s], n)
        self.gp[s] -= absorbed
        taken = n - absorbed
        self.life[s] -= taken
        self.log.append(("hurt", s, taken, absorbed, cause))
        if self.life[s] <= 0:
            self.status[s] = DOWN
            self.log.append(("down", s))
            if not any(st != DOWN for st in self.status):
                self.finish("loss")

    def add_gold(self, n: int, why: str) -> None:
        if n > 0:
            self.pool += n
            self.log.append(("gold", n, why))

    def defeated(self, k: int, e: int, seat: int) -> None:
        self.log.append(("kill", k, e, seat))
        if e == combat.BOSS:
            self.boss_alive = False
            return
        self.enemy_discard.append(e)
        if self.setup.e_skill[e] == "carrier":
            self.add_gold(self.setup.rules["carrier_gold"], "carrier")

    def give_supply(self, s: int, supply_id: str) -> None:
        pool = [i for i in self.setup.supplies.get(supply_id, []) if i not in self.exiled and
                all(i not in c for c in self.carry)]
        if pool and len(self.carry[s]) < self.max_carry[s]:
            self.carry[s].append(pool[0])
            self.log.append(("supply", s, pool[0]))

    def place_pickup(self, square, supply_id: str) -> None:
        sq = square if isinstance(square, int) else "LCR".index(square[0]) * 3 + "UMD".index(square[2])
        self.pickups.setdefault(sq, []).append(supply_id)

    def block_square(self, square) -> None:
        self.blocked.add("LCR".index(square[0]) * 3 + "UMD".index(square[2]))

    def add_debuff(self, s: int) -> None:
        if self.debuff_pool:
            inst = self.debuff_pool.pop()
            self.discard[s].append(inst)
            self.log.append(("debuff", s, inst))

    def discard_from_hand(self, s: int, n: int) -> None:
        for _ in range(min(n, len(self.hand[s]))):
            self.discard[s].append(self.hand[s].pop())

    def blast(self, seat, n: int, scope: str) -> None:
        if seat is None:
            return
        line = self.pos[seat] % 3
        for k in (line, line + 3):
            killed = combat.damage_plan(self, k, n, False, True)
            for i in reversed(killed):
                e = self.groups[k].pop(i)
                self.defeated(k, e, seat)
        if not self.boss_alive:
            self.clear_stage()

    def apply_effect(self, effect, seat, source) -> None:
        for op, params in effect:
            OPS[op](self, seat, params, source)
            if self.phase == OVER:
                return

    # ---- turns ----------------------------------------------------------------------------------
    def next_turn(self) -> None:
        """Give the turn to the next active player in turn order, or run the enemy phase."""
        self.chain = []
        for pos in range(self.turn_pos + 1, self.n):
            if self.status[pos] == ACTIVE:
                self.turn_pos = pos
                self.seat = pos
                self.phase = MAIN
                self.actions_left = self.actions[pos]
                self.free_moves = self.setup.rules["free_moves_per_turn"]
                self.gauged = [0] * self.n
                self.log.append(("turn", pos))
                self._settle()
                return
        self.enemy_phase()
        if self.phase != OVER:
            self.end_round()

    def _settle(self) -> None:
        """End the turn by itself when ending it is the only thing left to do (a forced step)."""
        self._legal = None
        if self.phase == MAIN and len(self._legal_unsorted()) == 1:
            self.log.append(("act", self.seat, (END,)))
            self.next_turn()

    _legal_unsorted = actions.legal_unsorted


# ---- module API (see generator/sim/api.py) --------------------------------------------------------

def new_game(setup, players: int, rng) -> State:
    """Deal a game for ``players`` characters chosen at random (seeded) from the roster."""
    if not 1 <= players <= len(setup.characters):
        raise ValueError(f"fatal-fight supports 1..{len(setup.characters)} characters, got {players}")
    state = State.__new__(State)
    state.setup, state.rng, state.n = setup, rng, players
    party = sorted(sample(range(len(setup.characters)), players, rng))
    state.chars = party
    rules = setup.rules
    roster = [setup.characters[c] for c in party]
    state.life = [c["life"] for c in roster]
    state.max_life = list(state.life)
    state.actions = [c["actions"] for c in roster]
    state.hand_size = [c["hand_size"] for c in roster]
    state.max_carry = [c["max_carry"] for c in roster]
    state.deck = [list(c["initial"]) for c in roster]
    for deck in state.deck:
        shuffle(deck, rng)
    for name in ("hand", "discard", "played_up", "played_down", "carry", "gauge"):
        setattr(state, name, [[] for _ in range(players)])
    state.upgrades_left = [list(c["upgrades"]) for c in roster]
    state.gold = [rules["start_gold_per_player"]] * players
    state.gold_earned = [0] * players
    state.gp = [0] * players
    state.status = [ACTIVE] * players
    state.pos = [rules["start_square"]] * players
    state.groups = [[] for _ in range(6)]
    state.egp = [0] * len(setup.e_id)
    state.enemy_deck, state.enemy_discard, state.escaped, state.exiled = [], [], [], []
    state.pool = 0
    state.gym_deck = list(setup.extra_arts)
    shuffle(state.gym_deck, rng)
    state.gym = []
    state.debuff_pool = list(setup.debuffs)
    state.round_id = 0
    state.log = []
    state.outcome = None
    state.chain, state.partners, state.partner_used = [], [], {}
    state.chain_ap = state.chain_flags = state.grapples = 0
    state.actions_left = state.free_moves = 0
    state.gauged = [0] * players
    state.turn_pos = -1
    state.seat = 0
    state.picks, state.picked_this_stage = [], False
    state.stage_card = None
    state.boss_stage = False
    state.phase = SHOP
    state._legal = None
    state.log.append(("party", tuple(setup.characters[c]["id"] for c in party)))
    state.refresh_gym()
    state.begin_stage(1)
    return state


from .fatal_fight_agents import AGENTS  # noqa: E402,F401
from .fatal_fight_report import ablate, cards, check_invariants, describe, static_checks, summarize  # noqa: E402,F401
