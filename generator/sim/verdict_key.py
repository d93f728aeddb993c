"""What a kept balance verdict depends on: what the engine plays with, nothing only the printer reads.

A simulator pnp ships sees a game only through its tables (``played_tables``), which its
``compile_setup`` reads (every worker and every variant compiles the tables the same way), and
balance.yaml. So its verdict is keyed on the tables ``compile_setup`` reads, as played
(``played_views``: texts that restate played fields left out), on the list of table names when it
walks them, and on balance.yaml's bytes (its lines locate the verdict's problems). The tables are the
records as loaded, so whatever decides them counts too (game.yaml's ``where:`` and ``file:``, a
schema default); icons.yaml, layouts, fonts, art, a README and the components the engine never reads
do not. When what ``compile_setup`` reads cannot be told (it fails), every table counts.

A game's own engine (a .py of the game folder) may open any file: it keeps the file-based key
(``verdict.keyed_files``).
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from . import games as registry
from .compile import played_tables, where_of


def is_shipped(name: str) -> bool:
    """Whether ``name`` (``static.engine_of``'s) is a simulator pnp ships, which reads only tables."""
    return name in registry.ENGINES


class _Reading(Mapping):
    """The tables, noting which ones are looked at (``get``, ``[]``, ``in``) and whether the names
    are walked (``sorted(tables)``, ``.items()``)."""

    def __init__(self, tables: dict):
        self.tables, self.read, self.listed = tables, set(), False

    def __getitem__(self, name):
        self.read.add(name)
        return self.tables[name]

    def __contains__(self, name):
        self.read.add(name)
        return name in self.tables

    def __iter__(self):
        self.listed = True
        return iter(self.tables)

    def __len__(self):
        self.listed = True
        return len(self.tables)


def tables_read(engine, tables: dict, where=None) -> tuple[set, bool]:
    """``(names of the tables the engine's compile_setup reads, whether it walks the names)``; every
    table when it fails (what it would have read once fixed cannot be told)."""
    reading = _Reading(tables)
    try:
        engine.compile_setup(reading, where)
    except Exception:  # noqa: BLE001 - a content error or an engine's own: in doubt, everything counts
        return set(tables), True
    return reading.read, reading.listed


def played_inputs(game, engine, views: dict) -> dict:
    """``{input: digest}`` of what a shipped engine's verdict depends on (see the module docstring)."""
    from ..export.digest import data_digest

    tables = played_tables(game)
    read, listed = tables_read(engine, tables, where_of(game))
    inputs = {f"table:{name}": data_digest(_as_played(tables.get(name), views)) for name in read}
    if listed:
        inputs["tables"] = data_digest(sorted(map(str, tables)))
    inputs["balance"] = data_digest((getattr(game, "tables", None) or {}).get("balance"))
    balance = Path(game.root) / "balance.yaml"
    inputs["balance.yaml"] = hashlib.sha256(balance.read_bytes()).hexdigest() if balance.is_file() else None
    return {str(k): v for k, v in inputs.items()}


def _as_played(table, views: dict):
    if isinstance(table, list):
        return [views.get(id(record), record) for record in table]
    return table
