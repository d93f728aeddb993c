"""Valheim: what the State holds, with types, and the methods its mixins call across each other.

The rules' mixins (``valheim_flow``, ``valheim_map``, ``valheim_hunt``, ``valheim_legal``) form one line
of classes on top of ``StateBase`` (Flow <- Map <- Hunt <- Legal <- Rules <- State; no method is defined
twice, so each name resolves as it did with the mixins side by side) so that a type checker (and mypyc,
which compiles a class with typed attributes into a native one and allows one native base class) knows
every attribute of the State and every method one mixin calls in another. The methods below are only
their signatures: each is defined once, in the mixin or the State that owns it, which overrides it here.
Nothing here runs in a game.
"""
from __future__ import annotations

import random
from typing import Any, Optional, Sequence

from .valheim_effects import Mods
from .valheim_setup import Cost, Setup

_NO_SLOTS: tuple = ()   # (a name: mypy would take a literal () for all the slots the State has)


class StateBase:
    __slots__ = _NO_SLOTS

    setup: Setup
    rng: random.Random
    n: int
    people: int
    outcome: Optional[str]
    phase: int
    seat: int
    round_id: int
    cycle: int
    markers_left: int
    kept: set[int]
    unlimited: bool
    grid: dict[tuple[int, int], int]
    _dist: dict[Any, Any]   # origin (or -1 - origin) -> distances, "adj" -> adjacency, None -> the frontier
    mtier: int
    demon_hp: Any           # None, then the demon lord's hit points in the final battle
    demon_str: Any          # None, then its strength
    fac: Mods
    mods: Mods
    act: int
    base: int
    ap: int
    ap_start: int
    free: int
    walker: int
    yield_left: int
    trash_left: int
    reroll_left: int
    open_ctx: Any           # (direction, pile, cost) of the edge being opened
    fought: int
    dungeon: int
    peeked: bool
    dive_bonus: int
    pending: Any            # [foe, strength, power, roll, hand] of the fight waiting for a reroll, or None
    foe: Any                # (strength, vs, foe record) face up, or None
    fighter: int
    leveled: dict[int, int]
    extra_left: int
    boss_bonus: int
    seats: tuple[tuple[int, ...], ...]  # mask -> the seats in it (``valheim_flow.seats_table``)
    _legal: Optional[list[tuple]]
    memo: dict[Any, Any]
    # the flat lists (``valheim._LISTS``)
    pool: list[int]
    supply: list[int]
    marker: list[bool]
    commits: list[Any]      # seat -> its commit (a tuple of (card, action)), () or None
    exiled: list[int]
    s_tile: list[int]
    s_pos: list[tuple[int, int]]
    s_rot: list[int]
    s_level: list[int]
    s_dives: list[int]
    row: list[int]
    mout: list[int]
    edeck: list[int]
    ediscard: list[int]
    defeated: list[bool]
    facilities: list[int]
    r_left: list[int]
    n_act: list[int]
    p_act: list[int]
    pays: list[tuple]
    drawn: list[int]
    log: list[tuple]
    _bases: list[int]
    # the nested ones (``valheim._NESTED``)
    deck: list[list[int]]
    hand: list[list[int]]
    discard: list[list[int]]
    played: list[list[tuple[int, int]]]
    s_tok: list[list[int]]
    piles: list[list[int]]
    mpiles: list[list[int]]
    equip: list[list[int]]

    # ---- defined in the mixins (signatures only) -------------------------------------------------
    def bases(self) -> list[int]: raise NotImplementedError
    def has(self, cost: Cost) -> bool: raise NotImplementedError
    def power(self, s: int, vs: str, base_level: int = 0) -> int: raise NotImplementedError
    def finish_action(self) -> None: raise NotImplementedError
    def settle(self) -> None: raise NotImplementedError
    def finish(self, outcome: str) -> None: raise NotImplementedError
    def take_supply(self, r: int, n: int) -> int: raise NotImplementedError
    def avatar_strength(self, b: int) -> int: raise NotImplementedError
    def level_cost(self, k: int) -> Any: raise NotImplementedError
    def level_options(self) -> list[int]: raise NotImplementedError
    def dist(self, origin: int, links: bool = True) -> list[int]: raise NotImplementedError
    def edge_at(self, k: int, d: int) -> Any: raise NotImplementedError
    def edge_raw(self, k: int, d: int) -> Any: raise NotImplementedError
    def map_grew(self, k: int, walker: int = -1) -> dict: raise NotImplementedError
    def hunt_begin(self) -> None: raise NotImplementedError
    def draw_enemy(self, regular_only: bool = False) -> Optional[int]: raise NotImplementedError
    def dungeon_options(self) -> list[int]: raise NotImplementedError
    def eligible(self) -> Sequence[int]: raise NotImplementedError
    def can_act(self) -> bool: raise NotImplementedError
    def legal_unsorted(self) -> list[tuple]: raise NotImplementedError
    def legal_actions(self) -> list[tuple]: raise NotImplementedError
    def is_legal(self, action: Any) -> bool: raise NotImplementedError
    def action_to_string(self, action: Any) -> str: raise NotImplementedError
