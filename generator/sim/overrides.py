"""``pnp simulate --set PATH=VALUE``: one number or switch of the played tables changed for a run,
so a designer can try a change on the same seeds before editing any file (``--sweep PATH=V1,V2,...``
or ``PATH=A..B``: several values of one path, each read as a ``--set`` value).

A path names a value the content already has (a typo must not add a key no engine reads):

- ``rules.boss_life_bonus.2=3`` -- a key of a mapping table (``rules.yaml``), dotted to any depth;
- ``arts.tsubame_u05.ap=6`` -- a field of the record with that id in a record table (or in a list
  of records inside a mapping: ``map.nodes.a1-02.kind=rest``);
- ``tsubame_u05.ap=6`` -- the same, when exactly one table has a record with that id.

The value is written as in the YAML file (``3``, ``0.5``, ``false``, ``25mm``, ``[1, 2]``) and is
checked, and converted (a length to points), by the field's type in the game's schema.yaml, as the
file's value was; where the schema says nothing of the field it must be of the kind the content has
there. The engine's own checks judge the rest when it compiles the changed tables.
"""
from __future__ import annotations

import copy

import yaml

from ..content.schema import Context, Spec, did_you_mean, validate
from ..content.yamlload import NodeBudget
from .compile import id_records


class OverrideError(ValueError):
    """A ``--set`` that names nothing in the content, or a value the content cannot take."""


def parse_set(text: str) -> tuple[list[str], str]:
    """``"rules.x.y=3"`` -> ``(["rules", "x", "y"], "3")`` (the value as written)."""
    path, sep, raw = text.partition("=")
    keys = [key.strip() for key in path.split(".")]
    if not sep or not all(keys):
        raise OverrideError(f"{text!r}: expected PATH=VALUE, e.g. rules.boss_life_bonus=2 or arts.card_id.ap=6")
    return keys, raw.strip()


def apply_sets(tables: dict, sets: list[str], game=None) -> dict:
    """A deep copy of ``tables`` with every ``--set`` applied, in order; with ``game``, each value is
    checked and converted by its field's schema.yaml type."""
    twin = copy.deepcopy(tables)
    for text in sets:
        keys, raw = parse_set(text)
        try:
            value = yaml.safe_load(raw) if raw else None
        except yaml.YAMLError:
            raise OverrideError(f"{text!r}: {raw!r} is not a YAML value") from None
        parent, key, shown, steps = _target(twin, keys, text)
        spec = _field_spec(game, steps) if game is not None else None
        if spec is not None:
            value = _checked(game, spec, raw, shown)
        else:
            _check_kind(parent[key], value, shown, raw)
        parent[key] = value
    return twin


def described(sets: list[str]) -> dict:
    """``{"path": value}`` of the ``--set`` options (read as YAML), for the run's summary."""
    out = {}
    for keys, raw in map(parse_set, sets):
        try:
            out[".".join(keys)] = yaml.safe_load(raw) if raw else None
        except yaml.YAMLError:
            out[".".join(keys)] = raw
    return out


SWEEP_MAX = 12  # values in one sweep: each is a whole run of --games games


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``"rules.x=0..3"`` -> ``("rules.x", ["0", "1", "2", "3"])``, ``"p=10,12"`` -> ``("p", ["10", "12"])``:
    the path and its values as written (each then read as a ``--set`` value is)."""
    path, sep, written = text.partition("=")
    if not sep:
        raise OverrideError(f"{text!r}: expected PATH=V1,V2,... or PATH=A..B, e.g. rules.boss_life_bonus.2=0..3")
    written = written.strip()
    values = _whole_range(text, written) if ".." in written else _listed(text, written)
    if len(values) > SWEEP_MAX:
        raise OverrideError(f"{text!r}: {len(values)} values, at most {SWEEP_MAX} in one sweep")
    return path.strip(), [str(value) for value in values]


def _listed(text: str, written: str) -> list[str]:
    values = [value.strip() for value in written.split(",")]
    if not all(values):
        raise OverrideError(f"{text!r}: {'an empty value' if written else 'no values'}; expected V1,V2,... or A..B")
    return values


def _whole_range(text: str, written: str) -> range:
    """The whole numbers ``A..B`` spans, both ends included (counted before any is listed)."""
    first, _, last = (end.strip() for end in written.partition(".."))
    if not all(end.lstrip("-").isdigit() for end in (first, last)):
        raise OverrideError(f"{text!r}: a range A..B takes whole numbers, got {written!r}")
    if int(last) < int(first):
        raise OverrideError(f"{text!r}: the range {written} is reversed; write {last}..{first}")
    return range(int(first), int(last) + 1)


def value_at(tables: dict, text: str):
    """The value the path of a ``--set`` text (``PATH=VALUE``) names in ``tables``."""
    keys, _raw = parse_set(text)
    parent, key, _shown, _steps = _target(tables, keys, text)
    return parent[key]


# ---- which value a path names --------------------------------------------------------------------

def same_value(a, b) -> bool:
    """Equal and of one kind (``true`` is not ``1``): whether a set value changes the content."""
    return type(a) is type(b) and a == b


def _target(tables: dict, keys: list[str], text: str):
    """``(container, key, shown path, steps)`` of the value a path names; ``steps`` is the way there
    from the table: ``[("table", name), ("record", id) | ("field", key), ...]``."""
    first, rest = keys[0], keys[1:]
    if first not in tables:
        owners = [name for name, table in tables.items() if _record(table, first) is not None]
        if len(owners) != 1:
            where = f"the tables {', '.join(owners)} all have a record {first!r}: name one, e.g. {owners[0]}.{'.'.join(keys)}" \
                if owners else f"no table or record id {first!r}{did_you_mean(first, list(tables) + _ids(tables))}"
            raise OverrideError(f"{text!r}: {where}")
        first, rest = owners[0], keys
    node, walked, steps = tables[first], [first], [("table", first)]
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
            node, step = record, ("record", key)
        elif isinstance(node, dict):
            key = _dict_key(node, key)
            if key not in node:
                known = [str(k) for k in node]
                raise OverrideError(f"{text!r}: {'.'.join(walked)} has no {key!r}{did_you_mean(key, known)}"
                                    f" (known: {', '.join(known[:12])}{' ...' if len(known) > 12 else ''})")
            steps.append(("field", key))
            if last:
                return node, key, ".".join(walked + [str(key)]), steps
            node, step = node[key], None
        else:
            raise OverrideError(f"{text!r}: {'.'.join(walked)} is a value ({node!r}), not a table")
        if step is not None:
            steps.append(step)
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
    return [record["id"] for record in id_records(tables)]


# ---- what the schema says of it ------------------------------------------------------------------

def _field_spec(game, steps) -> Spec | None:
    """The schema.yaml type of the value at the end of ``steps``, or None where the schema does not
    say (a table no type describes, a tagged or free-form value on the way)."""
    table = steps[0][1]
    component = next((c for c in game.components if c.id == table), None)
    if component is not None:  # a record table: a list of records of the component's type
        spec = Spec("list", items=Spec(component.schema))
    else:
        data = next((d for d in game.meta.get("data") or [] if d.get("id") == table), None)
        if data is None:
            return None
        spec = Spec(data["schema"])
    for kind, key in steps[1:]:
        spec = _resolved(game.types, spec)
        if kind == "record" and spec.kind == "list" and spec.items is not None:
            spec = spec.items
        elif kind == "field" and spec.kind == "map" and key in spec.fields:
            spec = spec.fields[key]
        elif kind == "field" and spec.kind == "dict" and spec.values is not None:
            spec = spec.values
        else:
            return None
    return _resolved(game.types, spec)


def _resolved(types: dict, spec: Spec) -> Spec:
    while spec.kind in types:
        spec = types[spec.kind]
    return spec


def _checked(game, spec: Spec, raw: str, shown: str):
    """The value as the file's loader would have made it (a length in points ...), or the
    schema's complaint as an ``OverrideError``."""
    try:
        node = yaml.compose(raw if raw else "null")
    except yaml.YAMLError:
        raise OverrideError(f"{shown}: {raw!r} is not a YAML value") from None
    problems: list = []
    ctx = Context("--set", game.types, problems, NodeBudget("--set"), game_root=game.root,
                  lang=game.meta.get("lang"))
    value = validate(node, spec, ctx, shown)
    if problems:
        raise OverrideError("; ".join(f"{p.field}: {p.message}" for p in problems))
    return value


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
    """Where no schema type says: the content's kind of value stays (an empty value takes anything;
    a number takes a whole one)."""
    if old is None or _kind(old) == _kind(new) or (_kind(old), _kind(new)) == ("a number", "a whole number"):
        return
    raise OverrideError(f"{shown}: the content has {_kind(old)} there ({old!r}), got {raw!r} ({_kind(new)})")
