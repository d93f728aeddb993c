"""Fatal Fight engine: spec §3 (shared/spec/fatal-fight.md) as an OpenSpiel-style State.

The model for other engines. Reading order: ``fatal_fight_setup`` (tables -> Setup), this
module (the State, its primitives and the module API), ``fatal_fight_actions`` (decisions:
legal actions and their effects; the stage-start ones in ``fatal_fight_shop``), ``fatal_fight_flow``
(round, enemy phase, stage clear), ``fatal_fight_combat`` (targets and damage),
``fatal_fight_effects`` (the ``effect:`` ops), ``fatal_fight_agents`` (greedy, nocombo; what they
know of cards and attacks in ``fatal_fight_preview``) and ``fatal_fight_report`` (record,
invariants, static checks, trace and variants). It has no bands of its own (no ``judge_extra``).

Chance draws only from the ``Random`` the game was dealt with (``self.rng``); ``clone()`` copies
it, so a clone replays the same future for the same actions.
"""
from __future__ import annotations

from typing import Any, Optional

from ...sim.api import TERMINAL, IllegalActionError
from ...sim.rng import sample, shuffle
from ...sim.state import team_returns, twin_of
from . import fatal_fight_actions as actions
from . import fatal_fight_combat as combat
from .fatal_fight_effects import OPS
from .fatal_fight_flow import ACTIVE, DOWN, MAIN, OVER, RETURNING, SHOP, Action, Flow
from .fatal_fight_setup import SQUARES, Effect, compile_setup  # noqa: F401  (module API)

NAME = "fatal-fight"
VERSION = "7"  # 2: chain Specials apply to the chain that triggers them; 3: items during an open chain (G16);
#   4: gold pickups need no carry room (N3/G25); the final boss keeps its rage cards with final_boss_gold off (G1);
#      N8 mega arts can be upgraded, and a non-attack mega is no chain; 5: HIT+N counts for a 3HIT condition;
#   6: over max_carry the player takes the supply and discards down by choice (G3); no target, no combo
#      bonus (L316-319); the team chooses the rage cards its gold removes (G1); gold gifts at stage start (G21);
#      N8 gauging ends the turn; 7: the rage choice offers each distinct rage card once (G1)
SEATS = "characters"  # a run's player count counts characters (one player may run several)
_NESTED = ("deck", "hand", "discard", "played_up", "played_down", "carry", "gauge", "upgrades_left")
_LISTS = ("life", "max_life", "actions", "hand_size", "max_carry", "gold", "gold_earned", "gp", "status", "pos",
         "mega_art", "taken", "stage_deck", "boss_deck", "enemy_deck", "enemy_discard", "escaped", "elife", "egp",
         "xgp", "gym_deck", "gym", "gym_gone", "exiled", "wound_pool", "chain", "chain_mods", "pending_mods",
         "partners", "shop_queue", "picks", "log", "gimmicks", "gauged", "chains_this_turn", "gifted")


_SLOTS = ("setup", "rng", "n", "chars", *_NESTED, *_LISTS, "stage", "stage_drawn", "stage_card",
          "round_in_stage", "round_id", "boss_placed", "boss_alive", "groups", "obstacles", "pool",
          "pickups", "blocked", "phase", "seat", "turn_pos", "actions_left", "free_moves", "chain_ap",
          "chain_flags", "chain_hits", "grapples", "partner_used", "strike_target", "picked_this_stage",
          "dropping", "rage_to_remove", "outcome", "_legal")


class State(Flow):
    __slots__ = _SLOTS  # compiled (mypyc), a native class with the attributes Flow declares: no __slots__

    # ---- OpenSpiel contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.seat

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return team_returns(self.outcome, self.n)

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = sorted(self.legal_unsorted()) if self.phase != OVER else []
        return self._legal

    def legal_unsorted(self) -> list[Action]:
        return actions.legal_unsorted(self)

    def is_legal(self, action: Action) -> bool:
        return actions.is_legal(self, action)

    def apply_action(self, action: Action) -> None:
        handler = actions.HANDLERS_BY_PHASE[self.phase].get(action[0])
        if handler is None or not actions.is_legal(self, action):
            raise IllegalActionError(f"{self.action_to_string(action)!s} is not legal now")
        self._legal = None
        self.log.append(("act", self.seat, action))
        handler(self, action)
        if self.dropping == () and self.phase != OVER:
            actions.discard_down(self)
        self._legal = None

    def clone(self) -> "State":
        twin = twin_of(self, _LISTS, _NESTED, _SLOTS)
        twin.groups = [list(g) for g in self.groups]
        twin.partner_used = dict(self.partner_used)
        twin.obstacles = dict(self.obstacles)
        twin.pickups = {k: list(v) for k, v in self.pickups.items()}
        twin.blocked = set(self.blocked)
        return twin

    def action_to_string(self, action: Action) -> str:
        from .fatal_fight_report import action_text
        return action_text(self, action)

    def __str__(self) -> str:
        from .fatal_fight_report import state_text
        return state_text(self)

    # ---- primitives used by the rules and the effect ops -----------------------------------------
    def active_seats(self) -> list[int]:
        seats = []
        for s in range(self.n):  # a loop: no comprehension frame
            if self.status[s] == ACTIVE:
                seats.append(s)
        return seats

    def is_down(self, s: int) -> bool:
        return self.status[s] == DOWN

    def boss_group(self) -> Optional[int]:
        if not self.boss_placed:  # the boss enters the board only in its first boss round (Flow.start_round)
            return None
        boss = self.setup.boss
        for k, g in enumerate(self.groups):
            if boss in g:
                return k
        return None

    def respawn_index(self, respawn) -> int:
        return int(self.rng.random() * 6) if respawn == "d6" else int(respawn) - 1

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
        gained = min(n, self.max_life[s] - self.life[s]) if self.status[s] == ACTIVE else 0
        if gained > 0:
            self.life[s] += gained
            self.log.append(("heal", s, gained))

    def gain_gp(self, s: int, n: int) -> None:
        self.gp[s] += n
        self.log.append(("gp", s, n))

    def hurt(self, s: int, n: int, pierce: bool, cause: str) -> None:
        if self.status[s] != ACTIVE or n <= 0:
            return
        gp = self.gp[s]
        absorbed = 0 if pierce else gp if gp < n else n  # not min(): builtin min parses keywords at every call
        self.gp[s] -= absorbed
        taken = n - absorbed
        self.life[s] -= taken
        self.taken[s] += taken
        self.log.append(("hurt", s, taken, absorbed, cause))
        if self.life[s] <= 0:
            self.status[s] = DOWN
            self.log.append(("down", s))
            if all(st == DOWN for st in self.status):
                self.finish("loss")

    def revive(self, saver: Optional[int], t: int) -> None:
        rules = self.setup.play
        self.status[t] = RETURNING
        self.life[t] = min(self.max_life[t], rules.revive_life + (self.life[t] if rules.revive_mode == "add"
                                                                       else 0))
        self.life[t] = max(self.life[t], 1)
        self.log.append(("save", saver if saver is not None else t, t))

    def add_gold(self, n: int, why: str) -> None:
        if n > 0:
            self.pool += n
            self.log.append(("gold", n, why))

    def defeated(self, k: int, e: int, seat: int) -> None:
        setup = self.setup
        self.log.append(("kill", k, e, seat))
        if e == setup.boss:
            self.boss_alive = False
        elif e > setup.boss:
            reward = self.obstacles.pop(e)[0]
            self.apply_effect(reward, self.turn_pos, None)
        else:
            self.enemy_discard.append(e)
            if setup.e_skill[e] == "carrier":
                self.add_gold(setup.play.carrier_gold, "carrier")
                self.special(seat, "defeat_carrier")

    def special(self, seat: int, trigger: str) -> None:
        char = self.setup.characters[self.chars[seat]]
        if char["trigger"] == trigger and self.phase != OVER:
            self.log.append(("special", seat, trigger))
            self.apply_effect(char["special"], seat, None)

    def chain_mod(self, mod) -> None:
        """A chain_ap / chain_sub / add_hits: unconditional ones apply at once (launch must be
        known before targeting); ``when`` ones wait for the target. Without an open chain they
        wait for the turn player's next chain this turn."""
        if not self.chain:
            self.pending_mods.append(mod)
        elif mod[2] != "always":
            self.chain_mods.append(mod)
        elif mod[0] == "ap":
            self.chain_ap += mod[1]
        elif mod[0] == "flags":
            self.chain_flags |= mod[1]
        else:
            self.chain_hits += mod[1]

    def strike(self, seat: Optional[int], ap: int, flags: int) -> None:
        k = self.strike_target
        if seat is not None and k is not None and k >= 0 and self.groups[k]:
            killed = combat.resolve(self, seat, k, ap, flags, 0)
            self.log.append(("strike", seat, ap, k, killed))

    def give_supply(self, s: int, supply_id: str) -> None:
        """The player gets the supply even with a full carry; over ``max_carry`` they discard down
        to it (G3), at the end of the action that gave it (``actions.discard_down``)."""
        taken = set(self.exiled).union(*self.carry)
        free = [i for i in self.setup.supplies.get(supply_id, []) if i not in taken]
        if free:
            self.carry[s].append(free[0])
            self.log.append(("supply", s, free[0]))
            if len(self.carry[s]) > self.max_carry[s] and self.dropping is None:
                self.dropping = ()

    def block_square(self, square: str) -> None:
        sq = SQUARES.index(square)
        if sq != self.setup.play.start_square:
            self.blocked.add(sq)
            for s in range(self.n):
                if self.pos[s] == sq:
                    self.pos[s] = self.setup.play.start_square

    def place_obstacle(self, k: int, life: int, reward, key) -> None:
        if any(v[1] == key for v in self.obstacles.values()):
            return  # it stays until broken (persistent implied): one per gimmick
        e = len(self.elife)
        self.elife.append(life)
        self.egp.append(0)
        self.xgp.append(0)
        self.obstacles[e] = (reward, key)
        self.groups[k].insert(0, e)
        self.log.append(("obstacle", k, life))

    def boss_move(self) -> None:
        k = self.boss_group()
        if k is None:
            return
        counts = [sum(1 for s in self.active_seats() if self.pos[s] % 3 == line) for line in range(3)]
        line = max((1, 0, 2), key=lambda ln: counts[ln])
        self.groups[k].remove(self.setup.boss)
        self.groups[3 + line].insert(0, self.setup.boss)
        self.log.append(("boss_move", 3 + line))

    def discard_from_hand(self, s: int, n: int) -> None:
        ap = self.setup.c_ap
        for _ in range(min(n, len(self.hand[s]))):
            c = min(self.hand[s], key=lambda x: (ap[x], x))
            self.hand[s].remove(c)
            self.discard[s].append(c)
            self.log.append(("discard", s, c))

    def add_wound(self, s: int) -> None:
        mine = sum(1 for z in (self.deck, self.hand, self.discard) for c in z[s] if self.setup.c_kind[c] == "wound")
        if self.wound_pool and mine < self.setup.play.n11_max:
            c = self.wound_pool.pop()
            self.discard[s].append(c)
            self.log.append(("wound", s, c))

    def apply_effect(self, effect: Effect, seat: Optional[int], ctx: Any) -> None:
        for op, params in effect:
            if self.phase == OVER:
                return
            OPS[op](self, seat, params, ctx)

    # ---- turns ----------------------------------------------------------------------------------
    def next_turn(self) -> None:
        """Give the turn to the next active player in turn order, or run the enemy phase."""
        while True:
            self.chain, self.chain_mods, self.pending_mods = [], [], []
            for seat in range(self.turn_pos + 1, self.n):
                if self.status[seat] == ACTIVE:
                    self.turn_pos = self.seat = seat
                    self.phase = MAIN
                    self.actions_left = self.actions[seat]
                    self.free_moves = self.setup.play.free_moves_per_turn
                    self.chains_this_turn = [0]
                    self.gauged[seat] = 0
                    self.log.append(("turn", seat))
                    if actions.has_choice(self):
                        return
                    self.log.append(("auto", seat, (actions.END,)))
                    self.end_turn()
                    if self.phase != MAIN:
                        return
                    break
            else:
                self.enemy_phase()
                if self.phase != OVER:
                    self.end_round()
                return

    def end_turn(self) -> None:
        """Turn end: the Special's turn_end trigger, then the next player (G4)."""
        seat = self.seat
        self.special(seat, "turn_end")
        if self.phase == MAIN and not self.boss_alive:
            self.clear_stage()

    def settle(self) -> None:
        """End the turn by itself when ending it is the only thing left to do (a forced step)."""
        self._legal = None
        if self.phase == MAIN and not actions.has_choice(self):
            self.log.append(("auto", self.seat, (actions.END,)))
            self.end_turn()
            if self.phase == MAIN:
                self.next_turn()


# ---- module API (see generator/sim/api.py) --------------------------------------------------------

def new_game(setup, players: int, rng) -> State:
    """Deal a game for ``players`` characters chosen at random (seeded) from the roster."""
    lo, hi = setup.play.min_characters, min(setup.play.max_characters, len(setup.characters))
    if not lo <= players <= hi:  # rules.yaml's team sizes: a count outside them is not the game
        raise ValueError(f"fatal-fight supports {lo}..{hi} characters (rules.yaml min_characters, "
                         f"max_characters), got {players}")
    s = State.__new__(State)
    s.setup, s.rng, s.n = setup, rng, players
    rules = setup.play
    s.chars = sorted(sample(range(len(setup.characters)), players, rng))
    roster = [setup.characters[c] for c in s.chars]
    for name in ("life", "actions", "hand_size", "max_carry"):
        setattr(s, name, [c[name] for c in roster])
    s.max_life = list(s.life)
    s.mega_art = [-1] * players
    s.deck = [list(c["initial"]) for c in roster]
    if rules.n8:
        for seat, deck in enumerate(s.deck):
            megas = [c for c in deck if setup.c_mega[c]]
            if megas:
                s.mega_art[seat] = megas[0]
                deck.remove(megas[0])
    for deck in s.deck:
        shuffle(deck, rng)
    for name in ("hand", "discard", "played_up", "played_down", "carry", "gauge"):
        setattr(s, name, [[] for _ in range(players)])
    s.upgrades_left = [list(c["upgrades"]) for c in roster]
    s.gold = [rules.start_gold_per_player] * players
    s.gifted = [False] * players
    s.gold_earned, s.gp, s.taken, s.gauged = [0] * players, [0] * players, [0] * players, [0] * players
    s.status = [ACTIVE] * players
    s.pos = [rules.start_square] * players
    s.groups = [[] for _ in range(6)]
    s.elife = list(setup.e_life) + [0]
    s.egp, s.xgp = [0] * (setup.boss + 1), [0] * (setup.boss + 1)
    s.obstacles, s.pickups, s.blocked, s.gimmicks = {}, {}, set(), []
    s.enemy_deck, s.enemy_discard, s.escaped, s.exiled, s.gym_gone = [], [], [], [], []
    s.pool = s.round_id = 0
    s.gym_deck = list(setup.extra_arts)
    shuffle(s.gym_deck, rng)
    s.gym = []
    s.wound_pool = list(setup.wounds)
    s.log, s.outcome = [], None
    s.chain, s.chain_mods, s.pending_mods, s.partners, s.partner_used = [], [], [], [], {}
    s.chain_ap = s.chain_flags = s.chain_hits = s.grapples = 0
    s.actions_left = s.free_moves = 0
    s.chains_this_turn = [0]
    s.turn_pos, s.seat, s.strike_target = -1, 0, None
    s.picks, s.shop_queue, s.picked_this_stage = [], [], False
    s.dropping, s.rage_to_remove = None, 0
    s.stage_card, s.phase, s._legal = None, SHOP, None
    s.log.append(("party", tuple(c["id"] for c in roster)))
    if not rules.n10:
        s.refresh_gym()
    s.begin_stage(1)
    return s


from .fatal_fight_agents import AGENTS  # noqa: E402,F401
from .fatal_fight_report import ablate, cards, check_invariants, describe, static_checks, summarize  # noqa: E402,F401
