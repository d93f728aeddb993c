"""The contract between engines, agents and the runner (after OpenSpiel's ``State``).

An *engine* is a module under ``generator.sim.games`` that exposes::

    NAME: str                      # the game directory name, e.g. "fatal-fight"
    VERSION: str                   # bump when rules change (part of the verdict cache key)
    AGENTS: dict[str, factory]     # name -> factory(setup, seat) -> Agent ("random" is generic)
    compile_setup(tables, where=None) -> setup      # plain tables -> precomputed, picklable setup;
                                                    # raises ProblemsError for data it cannot run
    new_game(setup, players, rng) -> State          # the deal draws from ``rng`` only
    summarize(state) -> dict                        # per-game record, computed from ``state.log``
    check_invariants(state) -> list[str]            # broken invariants (empty when fine)
    describe(state, event) -> str                   # one readable trace line per event
    static_checks(setup, players) -> list[str]      # M8: setups that cannot be won, found statically
    located_checks(setup) -> list[Problem]          # optional, M8: problems at their YAML line, found
                                                    # without playing (Metroidvania's map.yaml)
    ablate(tables, card_id) -> tables               # M5: the same content with one card neutralised
    cards(setup) -> list[str]                       # card ids whose use the validator tracks

A ``State`` follows OpenSpiel's method set. Chance never reads the global ``random``: the state
keeps the ``Random`` it was dealt with and ``clone()`` copies it.
"""
from __future__ import annotations

import random
from typing import Protocol

from ..errors import GeneratorError

TERMINAL = -4  # current_player() of a finished game (OpenSpiel's value)


class SimulationError(GeneratorError):
    """A simulation could not run for a reason the user can fix (unknown game, agent, ...)."""


class IllegalActionError(Exception):
    """An agent chose an action that is not legal here: a bug in the agent, never user error."""


class State(Protocol):
    log: list

    def current_player(self) -> int: ...
    def legal_actions(self) -> list: ...
    def apply_action(self, action) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def clone(self) -> "State": ...
    def action_to_string(self, action) -> str: ...


class Agent(Protocol):
    name: str

    def choose(self, state: State, rng: random.Random): ...
