"""Registry: game name -> engine module.

To add an engine, write ``generator/sim/games/<name>.py`` following ``fatal_fight.py`` (the
model: setup compiled from plain tables, an OpenSpiel-style State, agents, ``summarize``) and add
one line below. A game without an engine gets a clear "no simulator" answer, never a crash. A
designer's own game keeps its engine in its directory instead (``engine: sim.py``, ``..local``).
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
    """The engine a worker process is handed by name: a module of pnp's, or a game's own
    (its ``__pnp_key__``, see ``local``: loaded from its file)."""
    from .. import local  # a game's own engine only (and traceback, difflib with it): not at every build

    if module.startswith(local.KEY_PREFIX):
        return local.load_key(module)
    return importlib.import_module(module)


def is_local(value: str) -> bool:
    """Whether balance.yaml's ``engine:`` value is a path (``sim.py``, ``sim/``, ``engines/dice``)
    rather than the name of a simulator pnp ships."""
    return value.endswith((".py", "/")) or "/" in value or "\\" in value
