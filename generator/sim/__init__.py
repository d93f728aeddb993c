"""Simulated play: engines per game, seeded runners, statistics and the balance verdict.

Layout (each module small and single-purpose):

- ``api``      the State / Agent contract every engine follows (OpenSpiel-style)
- ``rng``      seeds: game *i* of a run is ``Random(f"{seed}/{i}")``; stable shuffles
- ``agents``   generic agents (random) and the agent lookup
- ``runner``   play one game, play many on any concurrent.futures-style executor
- ``stats``    Wilson intervals, percentiles, sequential looks
- ``metrics``  the validator's metrics (shared/VALIDATOR.md) from per-game records
- ``verdict``  ``check_balance`` and ``cached_verdict`` against ``balance.yaml``
- ``report``   balance.json and balance.pdf
- ``trace``    a readable replay of one game
- ``games``    the registry: game name -> engine module (``games/fatal_fight.py`` is the model)
- ``accelerate`` compiled engines (opt in, ``pnp accelerate``): the import hook installed here, before
  any engine module or the ``state``/``rng`` they share can be imported
"""
from . import accelerate as _accelerate

_accelerate.install()
