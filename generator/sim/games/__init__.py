"""Registry: game name -> engine module.

To add an engine, write ``generator/sim/games/<name>.py`` following ``fatal_fight.py`` (the
model: setup compiled from plain tables, an OpenSpiel-style State, agents, ``summarize``) and add
one line below. A game without an engine gets a clear "no simulator" answer, never a crash.
"""
from __future__ import annotations

import importlib

ENGINES = {
    "fatal-fight": "generator.sim.games.fatal_fight",
    "metroidvania": "generator.sim.games.metroidvania",
    "valheim": "generator.sim.games.valheim",
}


def engine_for(game_name: str):
    """The engine module for ``game_name``, or ``None`` when no simulator exists yet."""
    module = ENGINES.get(game_name)
    return importlib.import_module(module) if module else None


def engine_by_module(module: str):
    return importlib.import_module(module)
