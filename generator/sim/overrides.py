"""``pnp simulate --set PATH=VALUE``: one number or switch of the played tables changed for a run,
so a designer can try a change on the same seeds before editing any file.

A path names a value the content already has (a typo must not add a key no engine reads):

- ``rules.boss_life_bonus.2=3`` -- a key of a mapping table (``rules.yaml``), dotted to any depth;
- ``arts.tsubame_u05.ap=6`` -- a field of the record with that id in a record table;
- ``tsubame_u05.ap=6`` -- the same, when exactly one table has a record with that id.

The value is read as YAML (``3``, ``0.5``, ``false``, ``[1, 2]``, ``two_decks``) and must be of the
kind the content has there (a number for a number, true/false for a switch ...). The changed record
or table is then checked against the game's schema.yaml as its file is (ranges, choices), and the
engine's own checks judge the rest when it compiles the changed tables.
"""
from __future__ import annotations

import copy

import yaml

from ..content.schema import did_you_mean


class OverrideError(ValueError):
    """A ``--set`` that names nothing in the content, or a value of the wrong kind."""


def parse_set(text: str) -> tuple[list[str], object]:
    """``"rules.x.y=3"`` -> ``(["rules", "x", "y"], 3)``."""
    path, sep, raw = text.partition("=")
    keys = [key.strip() for key in path.split(".")]
    if not sep or not all(keys):
        raise OverrideError(f"{text!r}: expected PATH=VALUE, e.g. rules.boss_life_bonus=2 or arts.card_id.ap=6")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError:
        raise OverrideError(f"{text!r}: {raw!r} is not a YAML value") from None
    return keys, value


def apply_sets(tables: dict, sets: list[str], game=None) -> dict:
    """A deep copy of ``tables`` with every ``--set`` applied, in order; with ``game``, every changed
    record (or mapping table) is checked against its schema.yaml type."""
    twin = copy.deepcopy(tables)
    changed = {}
    for text in sets:
        keys, value = parse_set(text)
        parent, key, shown, owner = _target(twin, keys, text)
        _check_kind(parent[key], value, shown, text.partition("=")[2])
        parent[key] = value
        changed[(owner[0], id(owner[1]))] = owner
    if game is not None:
        problems = [line for table, item in changed.values() for line in _schema_problems(game, table, item)]
        if problems:
            raise OverrideError("; ".join(problems))
    return twin


def _schema_problems(game, table: str, item) -> list[str]:
    """What schema.yaml says of a changed record of ``table`` (or of the mapping table ``item``)."""
    from ..content.schema import Context, Spec, validate
    from ..content.yamlload import NodeBudget

    type_name = next((c.schema for c in game.components if c.id == table), None) or \
        next((d.get("schema") for d in game.meta.get("data") or [] if d.get("id") == table), None)
    if type_name not in game.types:
        return []
    node = yaml.compose(yaml.safe_dump(_without_empty(item), allow_unicode=True))
    problems: list = []
    ctx = Context("--set", game.types, problems, NodeBudget("--set"), game_root=game.root,
                  lang=game.meta.get("lang"))
    label = table if not isinstance(item, dict) or "id" not in item else f"{table}.{item['id']}"
    validate(node, Spec(type_name), ctx, label)
    return [f"{p.field}: {p.message}" for p in problems]


def _without_empty(value):
    """A loaded value as its file would say it: an optional field left out is None once loaded."""
    if isinstance(value, dict):
        return {k: _without_empty(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_empty(v) for v in value]
    return value


def _target(tables: dict, keys: list[str], text: str):
    """``(container, key, shown path, (table, changed record or mapping table))`` of the value a
    path names."""
    first, rest = keys[0], keys[1:]
    if first in tables:
        node, walked = tables[first], [first]
    else:
        owners = [name for name, table in tables.items() if _record(table, first) is not None]
        if len(owners) != 1:
            where = f"the tables {', '.join(owners)} all have a record {first!r}: name one, e.g. {owners[0]}.{'.'.join(keys)}" \
                if owners else f"no table or record id {first!r}{did_you_mean(first, list(tables) + _ids(tables))}"
            raise OverrideError(f"{text!r}: {where}")
        node, walked, rest = tables[owners[0]], [owners[0]], keys
    table = walked[0]
    owner = (table, node)  # a mapping table is checked whole; a record table by the record changed
    if not rest:
        raise OverrideError(f"{text!r}: {first!r} is a whole table; name a value in it")
    for i, key in enumerate(rest):
        last = i == len(rest) - 1
        if isinstance(node, list):
            record = _record(node, key)
            if record is None:
                ids = [r.get("id") for r in node if isinstance(r, dict) and isinstance(r.get("id"), str)]
                raise OverrideError(f"{text!r}: {'.'.join(walked)} has no record {key!r}{did_you_mean(key, ids)}")
            if last:
                raise OverrideError(f"{text!r}: {'.'.join(walked + [key])} is a whole record; name a field of it")
            node = record
            if owner[1] is tables[table]:
                owner = (table, record)
        elif isinstance(node, dict):
            key = _dict_key(node, key)
            if key not in node:
                known = [str(k) for k in node]
                raise OverrideError(f"{text!r}: {'.'.join(walked)} has no {key!r}{did_you_mean(key, known)}"
                                    f" (known: {', '.join(known[:12])}{' ...' if len(known) > 12 else ''})")
            if last:
                return node, key, ".".join(walked + [str(key)]), owner
            node = node[key]
        else:
            raise OverrideError(f"{text!r}: {'.'.join(walked)} is a value ({node!r}), not a table")
        walked.append(str(key))
    raise AssertionError("unreachable: the loop returns at the last key")


def _dict_key(node: dict, key: str):
    """``key``, or the number it spells when the mapping is keyed by numbers (per player count)."""
    if key not in node and key.lstrip("-").isdigit() and int(key) in node:
        return int(key)
    return key


def _record(table, record_id: str):
    if not isinstance(table, list):
        return None
    return next((r for r in table if isinstance(r, dict) and r.get("id") == record_id), None)


def _ids(tables: dict) -> list[str]:
    return [r["id"] for table in tables.values() if isinstance(table, list)
            for r in table if isinstance(r, dict) and isinstance(r.get("id"), str)]


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a word"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return "empty"


def _check_kind(old, new, shown: str, raw: str) -> None:
    """The content's kind of value stays (an empty value takes anything; a number takes a whole one)."""
    if old is None or _kind(old) == _kind(new) or (_kind(old), _kind(new)) == ("a number", "a whole number"):
        return
    raise OverrideError(f"{shown}: the content has {_kind(old)} there ({old!r}), got {raw.strip()!r} ({_kind(new)})")


def described(sets: list[str]) -> dict:
    """``{"path": value}`` of the ``--set`` options, for the run's summary."""
    return {".".join(keys): value for keys, value in map(parse_set, sets)}
