"""Metroidvania engine: spec §3 (shared/spec/metroidvania.md) as an OpenSpiel-style State.

A sibling of ``fatal_fight``. Reading order: ``metroidvania_setup`` (tables -> Setup), this module
(the State, its primitives and the module API), then the State's mixins: ``metroidvania_flow``
(rounds, turns and tasks), ``metroidvania_actions`` (decisions: legal actions and their effect),
``metroidvania_moves`` (movement over map.yaml and the room phase), ``metroidvania_checks`` (room
and boss checks, damage, sub-events, death), ``metroidvania_bosses`` and ``metroidvania_powers``
(skills, sefira, flowers); then ``metroidvania_dice`` (plans, the best plan, exact chances; the
fixed-seed estimates it stores in ``metroidvania_estimates``), ``metroidvania_effects`` (the 37
``effect:`` ops), ``metroidvania_agents`` (heuristic, rush_urza), ``metroidvania_report`` (record,
invariants, static map checks, trace) and ``metroidvania_bands`` (the spec §5 bands of balance.yaml).

Decisions are explicit: where to place an action card, which drawn card to keep, where to move,
which skill/sefira/flower to use in each timing window, and after the dice are rolled *which dice
to pair away (ascension) and which become AP* (a ``PLAN`` action). Chance draws only from the
``Random`` the game was dealt with (``self.rng``); ``clone()`` copies it.
"""
from __future__ import annotations

from ...sim.api import TERMINAL, IllegalActionError
from ...sim.rng import sample, shuffle
from ...sim.state import team_returns, twin_of
from .metroidvania_actions import (DONE, ENDT, FLOWER, GO, LEVEL_A, PICK_A, PLACE_A, PLAN, REROLL, ROLL,  # noqa: F401
                                   SKIP, TOP, USE, Decisions)
from .metroidvania_bosses import Bosses
from .metroidvania_checks import Check, Checks  # noqa: F401
from .metroidvania_flow import (DMG, END, LEVEL, MOVE, OVER, PEEK, PHASES, PICK, PLACE, POST, PRE,  # noqa: F401
                                ST_APPLY, ST_DMG, ST_END, ST_MOVE, ST_NEXT, ST_POST, ST_PRE, ST_SUCC, SUCC, TurnFlow)
from .metroidvania_moves import Movement
from .metroidvania_powers import Powers
from .metroidvania_setup import (DIFFICULTIES, AGI, BOSS, DANGER, EVENT, INS, KEY, NORMAL, PIE, REST, START, WHITE, WIL,  # noqa: F401
                                 Setup, compile_setup)  # (module API)

NAME = "metroidvania"
VERSION = "6"   # eng-mv, fid-mv: rules fixes (see git log); 4: the heuristic's spare EASY rest rooms;
# 5: a memory flower is offered mid-check only for a derived event that can change the check;
# 6: a reroll of any dice offers each choice once (dice of the same value and colour are alike)
STAGE_ROUNDS = "rounds per won game"  # M3's "stage" here is the whole crawl, counted in won games only


_LISTS = ("pos", "came", "life", "max_life", "servant", "deaths", "b_dead", "b_life", "b_ptr", "b_start", "b_active",
          "b_delta", "b_skip", "b_trait_off", "b_weak", "b_mods", "explored", "action_deck", "action_disc",
          "skill_deck", "skill_disc", "room_deck", "room_disc", "event_deck", "event_disc", "sefira_deck",
          "sefira_disc", "sefira_area", "order", "tasks", "kills", "log", "area_left", "drawn")
_NESTED = ("stacks", "flowers", "keys", "mods", "unlocked")


_SLOTS = ("setup", "rng", "n", *_LISTS, *_NESTED, "skills", "held", "opened", "round", "crit", "danger",
          "tpos", "seat", "active", "phase", "step", "turn_serial", "check", "outcome", "_legal", "_spec",
          "_usable", "_dest", "_dist", "_judged", "markers_max", "skipped", "built", "explored_bits",
          "opened_key", "dead_key", "marks")


class State(Decisions):  # on TurnFlow, Checks, Movement, Bosses, Powers (see metroidvania_base)
    __slots__ = _SLOTS   # (named: a class compiled by mypyc has no __slots__ to read back)

    # ---- OpenSpiel contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.seat

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return team_returns(self.outcome, self.n)

    def legal_actions(self) -> list:
        if self._legal is None:
            self._legal = self.legal_unsorted()
        return self._legal

    def apply_action(self, action) -> None:
        if not self.is_legal(action):
            raise IllegalActionError(f"{self.action_to_string(action)} is not legal now")
        self.log.append(("act", self.seat, action))
        self._legal = self._spec = self._usable = None
        if action[0] in (USE, FLOWER):  # the only decisions that can change where she may move this turn
            self._dest = None            # or, before a boss roll, the boss action's terms (Checks.roll)
            if self.check is not None:
                self.check.reread = True
        self._apply(action)
        self._advance()
        self._legal = self._spec = None

    def clone(self) -> "State":
        twin = twin_of(self, _LISTS, _NESTED, _SLOTS)
        twin.stacks = [[list(stack) for stack in mine] for mine in self.stacks]
        twin.skills = [[list(sk) for sk in mine] for mine in self.skills]
        twin.held = [list(h) for h in self.held]
        twin.opened = set(self.opened)
        twin.check = self.check.copy() if self.check is not None else None
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
        # min(len(sizes) - 1, min(Will, cap) + step), as conditional expressions: builtin min parses its
        # keyword arguments at every call (~100 calls a turn)
        play = self.setup.play
        sizes, wil, cap = play.die_by_will, len(self.stacks[s][WIL]), play.wil_cap
        i = (wil if wil < cap else cap) + step
        return sizes[i if i < len(sizes) - 1 else len(sizes) - 1]

    def draw_count(self, s: int, deck: str) -> int:
        return 1 + (self.stat(s, INS) if deck in self.setup.play.ins_decks else 0)

    def set_danger(self, value: int) -> None:
        play = self.setup.play
        new = max(play.danger_min, min(play.danger_max, value))
        if new != self.danger:
            self.danger = new
            self.log.append(("danger", new))

    def heal(self, s: int, n: int) -> None:
        missing = self.max_life[s] - self.life[s]
        gained = n if n < missing else missing
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
            self.explored_bits |= 1 << node   # the same rooms as one number: a cheap key (``_moves_key``)
            a = self.setup.area[node]
            if a >= 0 and self.setup.node_boss[node] < 0 and self.setup.kind[node] != START:
                self.area_left[a] -= 1
                if self.area_left[a] == 0 and self.setup.areas[a]["effects"]:
                    self.log.append(("area_clear", a))

    def markers(self) -> int:
        """Exploration markers on the board: rooms, skill levels, event levels, boss pointers. (Asked at every
        turn: the skill and event levels are kept as one count, ``marks``, raised where a level is gained, a thorn
        and a memory flower, the only two; ``check_invariants`` recounts it.)"""
        return self.explored_bits.bit_count() + self.b_active.count(True) + self.marks

    # (most of the time a maiden has no modifier at all: the empty case returns at once; plain loops, no
    # generator per call, for the others)
    def mods_of(self, s: int, kind: str) -> list:
        mods = self.mods[s]
        return [m for m in mods if m[0] == kind] if mods else []

    def mod_sum(self, s: int, kind: str) -> int:
        total = 0
        for m in self.mods[s]:
            if m[0] == kind:
                total += m[1]
        return total

    def has_mod(self, s: int, kind: str) -> bool:
        for m in self.mods[s]:
            if m[0] == kind:
                return True
        return False

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

    def finish(self, outcome: str) -> None:
        if self.outcome is None:
            self.outcome = outcome
            self.phase = OVER
            self.tasks.clear()
            self.log.append(("end", outcome, self.round))


# ---- module API (see generator/sim/api.py) --------------------------------------------------------

def new_game(setup: Setup, players: int, rng) -> State:
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
    s.explored, s.explored_bits = [False] * len(setup.node_id), 0
    s.area_left = [len(a["rooms"]) for a in setup.areas]
    s.stacks = [[[], [], [], []] for _ in range(players)]
    s.flowers, s.keys = [[] for _ in range(players)], [[] for _ in range(players)]
    s.mods = [[] for _ in range(players)]
    s.unlocked = [[False] for _ in range(players)]
    s.skills = [[] for _ in range(players)]
    s.held, s.opened, s.sefira_area, s.kills, s.tasks, s.drawn = [], set(), [], [], [], []
    s.opened_key, s.dead_key = (), tuple(s.b_dead)   # as the caches' keys use them (kept up to date)
    s.log, s.outcome, s.check, s._legal, s._dest, s._dist, s._judged = [], None, None, None, None, None, None
    s._spec = s._usable = None
    s.round, s.turn_serial, s.skipped, s.markers_max, s.built, s.marks = 1, 0, 0, 0, 0, 0
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
from .metroidvania_bands import judge_extra  # noqa: E402,F401
from .metroidvania_report import ablate, cards, check_invariants, describe, static_checks, summarize  # noqa: E402,F401
from .metroidvania_report import map_checks as located_checks  # noqa: E402,F401
