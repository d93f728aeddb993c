"""Valheim engine: spec §3 (shared/spec/valheim.md) as an OpenSpiel-style State.

A co-operative exploration deckbuilder: each player commits hidden cards from a personal deck,
the revealed cards become one shared AP pool per action, resolved in the fixed order
explore -> gather -> train -> hunt -> craft from a chosen base; the map grows by laying tiles
through their printed edges; five avatars hide in the biomes' dungeons, and after round 7 the
survivors merge into the demon lord.

Reading order (the sibling of ``fatal_fight``): ``valheim_setup`` (tables -> Setup),
this module (the State, the module API), ``valheim_rules`` (the rules as a resumable state
machine, put together from ``valheim_flow``, ``valheim_map``, ``valheim_hunt``, ``valheim_legal``,
``valheim_actions`` and ``valheim_effects``), ``valheim_agents`` (the team planner, the all-seeing
planner), ``valheim_report`` (record, invariants, static checks, trace) and ``valheim_bands`` (the
spec §6 bands of balance.yaml).

Chance draws only from the ``Random`` the game was dealt with (``self.rng``); ``clone()`` copies
it, so a clone replays the same future for the same actions. Team decisions (how shared AP are
spent) are taken by the lowest seat that revealed the action; every agent of a team runs the same
public-information planner, so who decides does not change the play.
"""
from __future__ import annotations

from ...sim.api import TERMINAL, IllegalActionError
from ...sim.rng import shuffle
from ...sim.state import team_returns, twin_of
from .valheim_rules import HANDLERS, P_COMMIT, P_OVER, Mods, Rules, seats_table
from .valheim_setup import compile_setup  # noqa: F401  (module API)

NAME = "valheim"
VERSION = "7"  # 2: the enemy is shown before the fighter is chosen; 3: nobody fights twice in a row;
# 4: not even the card drawn again after a failed avatar fight; the Cart keeps the free steps it would waste;
# the planner picks its fighter by the odds against the card face up; 5: the oracle commits for the whole team;
# 6: the planner plans again after a craft that replaced equipment; 7: the planner's pace setter holds back
# what its deck cannot refill (one more main phase for the team)
STAGE_ROUNDS = "cycles per round"  # M3's "stage" here is a round, its length the cycles it takes (report.py)

_LISTS = ("pool", "supply", "marker", "commits", "exiled", "s_tile", "s_pos", "s_rot", "s_level", "s_dives", "row",
          "mout", "edeck", "ediscard", "defeated", "facilities", "r_left", "n_act", "p_act", "pays", "drawn", "log",
          "_bases")
_NESTED = ("deck", "hand", "discard", "played", "s_tok", "piles", "mpiles", "equip")


_SLOTS = ("setup", "rng", "n", "people", "outcome", "phase", "seat", "round_id", "cycle", "markers_left", "kept",
          "unlimited", "grid", "_dist", "mtier", "demon_hp", "demon_str", "fac", "mods", "act", "base", "ap",
          "ap_start", "free", "walker", "yield_left", "trash_left", "reroll_left", "open_ctx", "fought",
          "dungeon", "peeked", "dive_bonus", "pending", "foe", "fighter", "leveled", "extra_left", "boss_bonus",
          "seats", "_legal", "memo", *_LISTS, *_NESTED)


class State(Rules):
    # ``memo`` is scratch space for agents (caches of their own reading); the rules never read it.
    __slots__ = _SLOTS  # (named: a class compiled by mypyc has no __slots__ to read back; types: valheim_base)

    # ---- OpenSpiel contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == P_OVER:
            return TERMINAL
        return self.seat if self.people > 1 else 0  # solo (G1): one person runs both decks

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def returns(self) -> list[float]:
        return team_returns(self.outcome, self.people)

    def legal_actions(self) -> list[tuple]:
        if self._legal is None:
            self._legal = sorted(self.legal_unsorted()) if self.phase != P_OVER else []
        return self._legal

    def apply_action(self, action: tuple) -> None:
        handler = HANDLERS.get(action[0]) if isinstance(action, tuple) and action else None
        if handler is None or not (action in self._legal if self._legal is not None else self.is_legal(action)):
            raise IllegalActionError(f"{self.action_to_string(action)} is not legal now")
        self._legal = None
        handler(self, action)
        self._legal = None

    def clone(self) -> "State":
        twin = twin_of(self, _LISTS, _NESTED, _SLOTS)
        twin.grid = dict(self.grid)
        twin.kept = set(self.kept)
        twin.leveled = dict(self.leveled)
        twin._dist = {}
        twin.memo = {}
        twin.fac = self.fac.copy()
        twin.mods = self.mods.copy()
        twin.pending = list(self.pending) if self.pending is not None else None
        return twin

    def action_to_string(self, action) -> str:
        from .valheim_report import action_text
        return action_text(self, action)

    def __str__(self) -> str:
        from .valheim_report import state_text
        return state_text(self)


# ---- module API (see generator/sim/api.py) --------------------------------------------------------

def seats_for(setup, players: int) -> int:
    """Decks in play: solo (G1) runs two decks when the rules allow it."""
    rules = setup.rules
    if players == 1 and rules["players.solo_variant"] == "two_decks":
        return 2
    if not max(1, rules["players.min"]) <= players <= min(rules["players.max"], len(setup.sets)):
        solo = " or 1 (solo_variant: two_decks)" if rules["players.solo_variant"] == "two_decks" else ""
        raise ValueError(f"valheim supports {rules['players.min']}..{rules['players.max']} players{solo} "
                         f"({len(setup.sets)} card sets), got {players}")
    return players


def new_game(setup, players: int, rng) -> State:
    """Deal a game: decks, the start tile, biome piles, market tiers and the enemy deck (spec 3.2)."""
    rules = setup.rules
    n = seats_for(setup, players)
    s = State.__new__(State)
    s.setup, s.rng, s.n, s.people = setup, rng, n, players
    s.seats = seats_table(n)
    s.log, s.outcome, s._legal, s.memo = [], None, None, {}
    s.deck = [list(setup.sets[i]) for i in range(n)]
    for deck in s.deck:
        shuffle(deck, rng)
    s.hand = [[] for _ in range(n)]
    s.discard = [[] for _ in range(n)]
    s.played = [[] for _ in range(n)]
    s.commits = [None] * n
    s.exiled, s.kept = [], set()
    s.marker, s.markers_left = [False] * n, n
    s.unlimited = rules["tokens.supply"] == "unlimited"
    s.supply = list(setup.supply)
    s.pool = [0] * len(setup.res)
    # the map: the start tile with its base at (0, 0)
    s.grid, s._dist = {}, {}
    s.s_tile, s.s_pos, s.s_rot, s.s_tok, s.s_level, s.s_dives = [], [], [], [], [], []
    start = setup.start_tile
    s.grid[(0, 0)] = 0
    s.s_tile.append(start)
    s.s_pos.append((0, 0))
    s.s_rot.append(0)
    s.s_level.append(setup.start_level)
    s.s_dives.append(0)
    s.note_bases()
    tok = [0] * len(setup.res)
    for r, k in setup.t_res[start]:
        got = k if s.unlimited else min(k, s.supply[r])
        if not s.unlimited:
            s.supply[r] -= got
        tok[r] += got
    s.s_tok.append(tok)
    s.piles = [list(p) for p in setup.piles]
    for pile in s.piles:
        shuffle(pile, rng)
    # the market: each tier shuffled, 6 face up from the initial tier (G5)
    s.mpiles = [list(m) for m in setup.market]
    for pile in s.mpiles:
        shuffle(pile, rng)
    s.mout = []
    s.mtier = setup.tiers.index(rules["market.initial_tier"])
    s.row = [-1] * rules["market.row_size"]
    s.edeck = list(range(len(setup.e_id)))
    shuffle(s.edeck, rng)
    s.ediscard = []
    s.defeated = [False] * len(setup.biomes)
    s.demon_hp = s.demon_str = None
    s.boss_bonus = rules["hunt.strength_by_players"].get(n, 0)  # decks in play (solo: 2)
    s.facilities = []
    s.r_left = list(setup.r_copies)
    s.equip = [[-1] * len(setup.slots) for _ in range(n)]
    s.fac, s.mods = Mods(), Mods()
    s.n_act, s.p_act, s.pays, s.drawn = [0] * 5, [0] * 5, [], []
    s.act, s.base, s.ap, s.ap_start, s.free, s.walker = -1, 0, 0, 0, 0, 0
    s.yield_left = s.trash_left = s.reroll_left = 0
    s.open_ctx = None
    s.fought, s.dungeon, s.peeked, s.dive_bonus, s.pending, s.fighter = 0, -1, False, 0, None, -1
    s.foe = None
    s.leveled, s.extra_left = {}, 0
    s.phase, s.seat, s.cycle = P_COMMIT, 0, 0
    s.log.append(("setup", n, tuple(setup.set_names[:n])))
    s.refill_row()
    s.round_id = 1
    s.start_round()
    return s


from .valheim_agents import AGENTS  # noqa: E402,F401
from .valheim_bands import judge_extra  # noqa: E402,F401
from .valheim_report import (ablate, cards, check_invariants, describe, fixtures, static_checks,  # noqa: E402,F401
                             summarize)
