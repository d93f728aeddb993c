"""Generic agents and the lookup of an engine's agents by name."""
from __future__ import annotations

import random

from .api import SimulationError


class RandomAgent:
    """Uniformly random over the legal actions (the "does the game play itself?" control)."""

    name = "random"

    def __init__(self, setup=None, seat: int = 0):
        self.seat = seat

    def choose(self, state, rng: random.Random):
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]


def agent_names(engine) -> list[str]:
    return sorted({"random", *getattr(engine, "AGENTS", {})})


def same_player(engine, name: str, other: str) -> bool:
    """Whether two of the engine's agent names are one player (Metroidvania's ``greedy`` is its
    ``heuristic``): the same factory plays the same games under either name."""
    agents = getattr(engine, "AGENTS", {})
    return name in agents and agents[name] is agents.get(other)


def _listed(engine) -> str:
    """The valid agent names, another name of a player said as such: ``greedy (= heuristic)``, the
    player's own name being its class's ``name``."""
    agents = getattr(engine, "AGENTS", {})

    def said(name):
        own = getattr(agents.get(name), "name", name)
        return f"{name} (= {own})" if own != name and same_player(engine, name, own) else name
    return ", ".join(map(said, agent_names(engine)))


def make_agent(engine, name: str, setup, seat: int):
    factories = {"random": RandomAgent, **getattr(engine, "AGENTS", {})}
    try:
        factory = factories[name]
    except KeyError:
        raise SimulationError(
            f"unknown agent {name!r} for {engine.NAME}; expected one of: {_listed(engine)}"
        ) from None
    return factory(setup, seat)
