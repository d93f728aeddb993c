"""Valheim: the rules (spec §3) as a resumable state machine — briefing, hidden commit and reveal,
the main phase in the fixed order explore -> gather -> train -> hunt -> craft, round end with base
level-ups, and the final battle against the merged demon lord.

Decisions are small tuples ``(KIND, ...)``; ``legal_actions()`` lists them for the phase at hand
and ``HANDLERS`` apply them. Everything between two decisions (draws, dice, refills, forced steps)
runs from the state's own ``rng``. A step with only one possible outcome is taken automatically,
so every decision an agent sees has a real choice or is the one "done" of an open-ended action.

One concern per module, each a mixin of ``Rules`` (or plain functions):
``valheim_flow`` (the steps that need no decision; decision kinds and phases),
``valheim_map`` (distances, the frontier, laying tiles), ``valheim_hunt`` (fights),
``valheim_legal`` (options, costs, the legality check), ``valheim_actions`` (the handlers) and
``valheim_effects`` (what cards and facilities add to a main phase). This module puts them
together and is where the engine, the agents, the report and the tests import the names from.
"""
from __future__ import annotations

from .valheim_actions import HANDLERS  # noqa: F401
from .valheim_effects import Mods  # noqa: F401
from .valheim_flow import (ACTION_PHASE, BASE, BUY, COMMIT, CRAFT, DONE, DUNGEON, EXPLORE,  # noqa: F401
                           FIGHTER, GATHER, HUNT, KEEP, KIND_NAMES, LEVEL, MAKE, MOVE, NEWBASE, OPEN, ORDER,
                           P_BASE, P_COMMIT, P_CRAFT, P_EXPLORE, P_FIGHTER, P_GATHER, P_HUNT, P_LEVEL, P_ORDER,
                           P_OVER, P_PAY, P_PICK, P_REROLL, P_TRAIN, PAY, PICK, REROLL, REST, TAKE, TRAIN, TRASH,
                           WILD, _DONE, Flow, seats_table)
from .valheim_hunt import Hunt  # noqa: F401
from .valheim_legal import Legal, gather_waive  # noqa: F401
from .valheim_map import INF, Map, place_tile  # noqa: F401


class Rules(Legal):  # on Hunt, Map, Flow and valheim_base.StateBase, one line of classes
    """The rules; the base of ``valheim.State`` (which holds the slots)."""

    __slots__ = ()
