"""Pieces every engine's ``State`` shares: the cooperative result, the hand-written clone and
memos kept on the compiled setup.

The three games are cooperative, so every seat gets the team's result; a clone shares what never
changes in play (setup, tuples, numbers) and copies what does, one or two levels deep.
"""
from __future__ import annotations

from itertools import islice

from .rng import copy_rng


def team_returns(outcome, seats: int) -> list[float]:
    """OpenSpiel ``returns()``: 1 for every seat on a win, -1 on a loss, 0 while playing."""
    return [1.0 if outcome == "win" else 0.0 if outcome is None else -1.0] * seats


def twin_of(state, flat=(), nested=(), slots=None):
    """A new state of the same slotted class: every slot shared, the lists named in ``flat``
    copied, those in ``nested`` copied two levels deep, and its own random generator (same
    position). The engine then copies whatever else it mutates in place (dicts, sets).
    ``slots``: the class's slots when it cannot tell them (compiled by mypyc)."""
    cls = type(state)
    twin = cls.__new__(cls)
    for name in cls.__slots__ if slots is None else slots:
        setattr(twin, name, getattr(state, name))
    for name in flat:
        setattr(twin, name, list(getattr(state, name)))
    for name in nested:
        setattr(twin, name, [list(x) for x in getattr(state, name)])
    twin.rng = copy_rng(state.rng)
    return twin


def kept_on_setup(setup, name: str, compute):
    """``compute(setup)``, computed on first use and kept on the compiled ``setup`` as ``name``: a
    table derived from the data alone (card worths, an agent's traits), which lives as long as the
    data and which worker processes keep across games."""
    memos = _memos(setup)
    value = memos.get(name)
    if value is None:
        value = memos[name] = compute(setup)
    return value


def _memos(setup) -> dict:
    """Where ``setup`` keeps its memos: its ``memos`` table if it has one (a setup class compiled as a
    native class has no ``__dict__``), else its ``__dict__``."""
    memos = getattr(setup, "memos", None)
    return memos if memos is not None else setup.__dict__


MEMO_LIMIT = 4096


def memo_table(setup, name: str) -> dict:
    """The table ``setup_memo`` keeps as ``name`` on ``setup``: the same dict for the setup's life
    (entries are only added and forgotten), so a hot caller may keep it and read its hits
    directly, calling ``setup_memo`` on a miss."""
    memos = _memos(setup)
    table = memos.get(name)
    if table is None:
        table = memos[name] = {}
    return table


def setup_memo(setup, name: str, key, compute, *args):
    """``compute(*args)``, remembered on the compiled ``setup`` (it lives as long as the data the
    value derives from, and worker processes keep it across games) in the table ``name`` under
    ``key``, which must name everything ``compute`` reads besides the setup. Values are shared:
    never change one. A table that reaches ``MEMO_LIMIT`` entries forgets its older half rather than
    grow (starting over would also drop what the games of the moment keep asking for)."""
    table = memo_table(setup, name)
    found = table.get(key)
    if found is None:
        if len(table) >= MEMO_LIMIT:
            for old in list(islice(table, MEMO_LIMIT // 2)):  # dicts keep insertion order: oldest first
                del table[old]
        found = table[key] = compute(*args)
    return found
