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


def make_agent(engine, name: str, setup, seat: int):
    factories = {"random": RandomAgent, **getattr(engine, "AGENTS", {})}
    try:
        factory = factories[name]
    except KeyError:
        raise SimulationError(
            f"unknown agent {name!r} for {engine.NAME}; expected one of: {', '.join(agent_names(engine))}"
        ) from None
    return factory(setup, seat)
