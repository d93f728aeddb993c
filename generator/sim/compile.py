"""Compiling content tables into an engine's setup, with located problems.

Every engine turns plain tables (``game.tables``) into the compact structures it plays with.
What can go wrong there (a rules key the engine needs is missing, an effect op it does not
implement, a value it does not support) is a problem located at the record's YAML line, not
a crash: the validator reports it like any content error.
"""
from __future__ import annotations

from ..errors import Location, Problem


def played_tables(game) -> dict:
    """The tables an engine compiles: the game's tables without ``balance`` (the verdict's bands,
    not content the game is played with)."""
    return {k: v for k, v in game.tables.items() if k != "balance"}


def id_records(tables: dict):
    """Every record with an id in the record tables (the lists) of ``tables``, in table order."""
    for table in tables.values():
        for record in table if isinstance(table, list) else ():
            if isinstance(record, dict) and isinstance(record.get("id"), str):
                yield record


def unique_records(records) -> list:
    """The records of a table (any iterable of them), the first of each id only; what is not a
    record (a stray value the validator reports) is left out."""
    seen, out = set(), []
    for r in records or []:
        if isinstance(r, dict) and r.get("id") not in seen:
            seen.add(r.get("id"))
            out.append(r)
    return out


class GameWhere:
    """The ``where`` pnp gives an engine's ``compile_setup``: ``where(record)`` is the Location the
    loader kept for a record, all the engine contract promises (a designer's engine, or its test,
    may pass any such callable). The shared ``SetupCompiler`` also asks it, when it can, for the line
    of a key within a record (``field_at``) and the file of a whole table (``table_file``), which
    only the loaded game knows. ``copies``: {id(copy): the game's record} for tables that are a
    copy of the game's (``pnp simulate --set``), each copy found at its original's line."""

    def __init__(self, game, copies: dict | None = None):
        self.game, self.copies = game, copies or {}

    def _original(self, record):
        return self.copies.get(id(record), record)

    def __call__(self, record) -> Location | None:
        return self.game.where(self._original(record))

    def field_at(self, record, *keys) -> Location | None:
        field_at = getattr(self.game, "field_at", None)  # a stand-in game (tests) may keep records only
        return field_at(self._original(record), *keys) if field_at is not None else None

    def table_file(self, name: str) -> Location | None:
        component = next((c for c in getattr(self.game, "components", None) or () if c.id == name), None)
        return Location(str(component.files[0])) if component is not None and component.files else None


def where_of(game) -> GameWhere | None:
    """``where`` for compiling ``game``'s own tables; None for a game that keeps no locations."""
    return GameWhere(game) if hasattr(game, "where") else None


class SetupCompiler:
    """Collects located problems while an engine compiles its setup."""

    def __init__(self, where=None, ops=None, nested: dict | None = None):
        self.where = where or (lambda record: None)  # record -> Location (a GameWhere, or any callable)
        self.ops = ops                                 # the effect ops the engine implements
        self.nested = nested or {}                     # op -> param holding an effect list of its own
        self.problems: list[Problem] = []

    def loc(self, *records) -> Location:
        """The location of the first record the loader knows (an op, then its card ...)."""
        for record in records:
            found = self.where(record) if record is not None else None
            if found:
                return found
        return Location("<tables>", 0)

    def problem(self, field_path, message, *records):
        where = self._field_loc(field_path, records) or self.loc(*records)
        if where.path == "<tables>":  # no record: a problem of a whole table ("enemies: no regular enemy card")
            where = self._table_loc(field_path) or where
        self.problems.append(Problem(where, field_path, message))

    def _field_loc(self, field_path, records) -> Location | None:
        """Where ``field_path`` is written in the first record, when it is one of its keys: ``rules.rounds``
        at its own line of rules.yaml, not at the file's first key, which is all a record's location says
        of a mapping file."""
        field_at = getattr(self.where, "field_at", None)  # a GameWhere's; a plain callable has none
        record = records[0] if records else None
        keys = str(field_path).split(".")
        if field_at is None or not isinstance(record, dict) or keys[0] not in record:
            return None
        return field_at(record, *keys)

    def _table_loc(self, field_path) -> Location | None:
        """The file of the component ``field_path`` starts with, for a problem about the whole table."""
        table_file = getattr(self.where, "table_file", None)
        return table_file(str(field_path).split(".")[0]) if table_file is not None else None

    def rule(self, raw: dict, path: str):
        """``rules.yaml`` value at a dotted path; missing -> a located problem and None."""
        node = raw
        for key in path.split("."):
            if not isinstance(node, dict) or key not in node:
                self.problem(path, "missing (the simulator reads it from rules.yaml)", raw)
                return None
            node = node[key]
        return node

    def effect(self, effects, owner, field_path) -> tuple:
        """An ``effect:`` list as ``((op, params), ...)``; ops the engine lacks are problems,
        and params named in ``nested`` (``{"breakable": "reward"}``) are compiled likewise."""
        compiled = []
        for i, item in enumerate(effects or []):
            op = item.get("op") if isinstance(item, dict) else None
            if self.ops is not None and op not in self.ops:
                self.problem(f"{field_path}[{i}].op", f"the simulator does not implement op {op!r}; "
                             f"known ops: {', '.join(sorted(self.ops))}", item, owner)
                continue
            params = {k: v for k, v in item.items() if k != "op"}
            inner = self.nested.get(op)
            if inner:
                params[inner] = self.effect(params.get(inner), owner, f"{field_path}[{i}].{inner}")
            compiled.append((op, params))
        return tuple(compiled)
