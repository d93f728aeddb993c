"""Metroidvania: what the State holds, with types, and the methods its mixins call across each other.

The State's mixins (``metroidvania_flow`` ... ``metroidvania_actions``) form one line of classes on top of
``StateBase`` so that a type checker (and mypyc, which compiles a class with typed attributes into a native
one) knows every attribute of the State and every method one mixin calls in another. The methods below are
only their signatures: each is defined once, in the mixin or the State that owns it, which overrides it here.
Nothing here runs in a game.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from . import metroidvania_dice as dice
from .metroidvania_setup import Setup

if TYPE_CHECKING:
    from .metroidvania_checks import Check


_NO_SLOTS: tuple = ()   # (a name: mypy would take a literal () for all the slots the State has)


class StateBase:
    __slots__ = _NO_SLOTS

    setup: Setup
    rng: random.Random
    n: int
    pos: list[int]
    came: list[int]
    life: list[int]
    max_life: list[int]
    servant: list[int]
    deaths: list[int]
    b_dead: list[bool]
    b_life: list[int]
    b_ptr: list[int]
    b_start: list[int]
    b_active: list[bool]
    b_delta: list[int]
    b_skip: list[int]
    b_trait_off: list[bool]
    b_weak: list[bool]
    b_mods: list[tuple]
    explored: list[bool]
    action_deck: list[int]
    action_disc: list[int]
    skill_deck: list[int]
    skill_disc: list[int]
    room_deck: list[int]
    room_disc: list[int]
    event_deck: list[int]
    event_disc: list[int]
    sefira_deck: list[int]
    sefira_disc: list[int]
    sefira_area: list[int]
    order: list[int]
    tasks: list[tuple]
    kills: list[int]
    log: list[tuple]
    area_left: list[int]
    drawn: list
    stacks: list[list[list[int]]]
    flowers: list[list[int]]
    keys: list[list[int]]
    mods: list[list[tuple]]
    unlocked: list[list[bool]]
    skills: list[list[list]]
    held: list[list[int]]
    opened: set[int]
    round: int
    crit: int
    danger: int
    tpos: int
    seat: int
    active: int
    phase: int
    step: int
    turn_serial: int
    check: Check | None
    outcome: str | None
    _legal: list | None
    _spec: dice.Spec | None
    _usable: tuple | None
    _dest: list | None
    _dist: tuple | None
    _judged: tuple | None
    markers_max: int
    skipped: int
    built: int
    explored_bits: int
    opened_key: tuple
    dead_key: tuple
    marks: int

    # ---- defined in the mixins and the State (signatures only) ----------------------------------
    def _advance(self) -> None: raise NotImplementedError
    def _picked(self, deck: str, s: int, card: int) -> None: raise NotImplementedError
    def legal_unsorted(self) -> list: raise NotImplementedError
    def is_legal(self, a: Any) -> bool: raise NotImplementedError
    def _apply(self, a: Any) -> None: raise NotImplementedError
    def destinations(self) -> list: raise NotImplementedError
    def go(self, node: int, spend_key: int) -> None: raise NotImplementedError
    def start_room_check(self, card: int) -> None: raise NotImplementedError
    def start_boss_check(self, b: int) -> None: raise NotImplementedError
    def roll(self) -> None: raise NotImplementedError
    def spec(self) -> dice.Spec: raise NotImplementedError
    def reroll_options(self) -> list: raise NotImplementedError
    def do_reroll(self, dice_idx: Any) -> None: raise NotImplementedError
    def resolve(self, plan: Any) -> None: raise NotImplementedError
    def apply_damage(self) -> None: raise NotImplementedError
    def boss_life_now(self, b: int) -> int: raise NotImplementedError
    def weakness_revealed(self, b: int, s: int) -> bool: raise NotImplementedError
    def trait_active(self, b: int, s: int) -> bool: raise NotImplementedError
    def boss_action(self, b: int, s: int, index: int) -> tuple: raise NotImplementedError
    def hit_boss(self, b: int, n: int, s: int) -> None: raise NotImplementedError
    def leave(self, s: int, old: int) -> None: raise NotImplementedError
    def relocate(self, s: int, node: int) -> None: raise NotImplementedError
    def advance_pointer(self, b: int, s: int) -> None: raise NotImplementedError
    def usable(self, phase: int) -> list: raise NotImplementedError
    def flower_window(self, phase: int) -> bool: raise NotImplementedError
    def _single(self, chk: Any) -> bool: raise NotImplementedError
    def _args(self, effect: Any) -> list: raise NotImplementedError
    def use(self, src: int, j: int, arg: int) -> None: raise NotImplementedError
    def flower_targets(self, phase: int | None = None) -> list: raise NotImplementedError
    def use_flower(self, h: int) -> None: raise NotImplementedError
    def legal_actions(self) -> list: raise NotImplementedError
    def stat(self, s: int, k: int) -> int: raise NotImplementedError
    def die_size(self, s: int, step: int = 0) -> int: raise NotImplementedError
    def draw_count(self, s: int, deck: str) -> int: raise NotImplementedError
    def set_danger(self, value: int) -> None: raise NotImplementedError
    def heal(self, s: int, n: int) -> None: raise NotImplementedError
    def refresh(self, s: int) -> None: raise NotImplementedError
    def unlock_second(self, s: int) -> None: raise NotImplementedError
    def learn(self, s: int, skill: int) -> None: raise NotImplementedError
    def push_task(self, task: Any) -> None: raise NotImplementedError
    def area_active(self, area: int) -> bool: raise NotImplementedError
    def mark(self, node: int) -> None: raise NotImplementedError
    def markers(self) -> int: raise NotImplementedError
    def mods_of(self, s: int, kind: str) -> list: raise NotImplementedError
    def mod_sum(self, s: int, kind: str) -> int: raise NotImplementedError
    def has_mod(self, s: int, kind: str) -> bool: raise NotImplementedError
    def expire(self, until: str) -> None: raise NotImplementedError
    def draw(self, deck_name: str, k: int) -> list: raise NotImplementedError
    def finish(self, outcome: str) -> None: raise NotImplementedError
