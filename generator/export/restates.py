"""Printed text that restates played fields: warn when one side changed since the last build alone.

The simulator plays a card's data (``effect``, ``sub``...); the printed card shows its ``text``.
A schema says which fields a text puts into words (``text: {type: text, restates: [effect, sub]}``)
and the print lock keeps, per card, a digest of each side (``restated``). When a card's text
changed since the last build and what it restates did not, or the other way round, the printed
card and the simulated one may no longer agree: a located warning names the side that changed,
until a build records the new pair.
"""
from __future__ import annotations

from pathlib import Path

from ..content.game import text_in
from ..content.schema import resolved as _resolved
from ..errors import BuildError, Problem
from .digest import data_digest
from .faces import record_id


def restated_digests(game) -> dict[str, dict[str, list]]:
    """``{"component/id": {"special.text": [text digest, {restated field: digest}], ...}}`` for every
    card whose record type has a text field with ``restates`` (paths through nested maps and lists).
    A text is digested as the edition prints it (its language's string): adding a translation is no drift."""
    result: dict = {}
    lang = (getattr(game, "meta", None) or {}).get("lang", "ja")
    for component, spec, types in _restating(game):
        for i, record in enumerate(component.records):
            pairs: dict = {}
            _collect(record, spec, types, "", pairs, lang)
            if pairs:
                result[f"{component.id}/{record_id(component, i)}"] = pairs
    return result


def played_views(game) -> dict[int, object]:
    """``{id(record): the record as the simulator plays it}`` for the components whose type has a text
    that restates played fields: those texts left out (editing one plays no differently; the drift
    check below says when it and what it restates part ways). Other records are not listed."""
    return {id(record): _without_restating(record, spec, types)
            for component, spec, types in _restating(game) for record in component.records}


def _restating(game):
    """``(component, record spec, types)`` of each component whose type has a text that restates
    played fields (a game the simulator's tests hand over as tables alone has none)."""
    types = getattr(game, "types", None) or {}
    for component in getattr(game, "components", None) or ():
        spec = types.get(component.schema)
        if spec is not None and _has_restates(spec, types, set()):
            yield component, spec, types


def _without_restating(value, spec, types):
    spec = _shape(spec, value, types)
    if spec is None:
        return value
    if spec.kind == "map" and isinstance(value, dict):
        out = {}
        for name, item in value.items():
            field_spec = _resolved(spec.fields.get(name), types)
            if field_spec is not None and field_spec.options.get("restates"):
                continue
            out[name] = _without_restating(item, spec.fields.get(name), types)
        return out
    if spec.kind == "list" and isinstance(value, list) and spec.items is not None:
        return [_without_restating(item, spec.items, types) for item in value]
    return value


def drift_since_last_build(game, out_dir: Path, digests: dict | None = None) -> list[Problem]:
    """``drift_problems`` against the print lock the last build left in ``out_dir`` (none, or one
    that cannot be read: nothing to compare, no warning)."""
    from .lock import LOCK_NAME, read_lock

    from ..outputs import other_source

    digests = restated_digests(game) if digests is None else digests
    path = Path(out_dir) / LOCK_NAME
    if not digests or not path.is_file():  # a game no text of which restates anything reads no lock
        return []
    if other_source(out_dir, game.root) is not None:  # another folder's copy of the game built there last
        return []
    try:
        old = read_lock(path)
    except BuildError:
        return []
    return drift_problems(game, old, digests)


def drift_problems(game, old_lock: dict | None, digests: dict) -> list[Problem]:
    """A warning for each text or restated side that changed alone since ``old_lock`` (the last
    build's print.lock.json; nothing without one, or for a card it did not record)."""
    if not old_lock or old_lock.get("format", 1) < 2:  # format 1 digested texts in every language
        return []
    if old_lock.get("lang", "ja") != (getattr(game, "meta", None) or {}).get("lang", "ja"):
        return []  # another edition's lock: its texts are in another language
    old_cards = old_lock.get("cards") or {}
    records = {f"{c.id}/{record_id(c, i)}": (c, i, r) for c in game.components for i, r in enumerate(c.records)}
    problems = []
    for key, pairs in digests.items():
        before = (old_cards.get(key) or {}).get("restated") or {}
        component, index, record = records[key]
        for path, (text, said) in pairs.items():
            old = before.get(path)
            if not (isinstance(old, list) and len(old) == 2 and isinstance(old[1], dict)):
                continue  # not recorded (or by an older pnp)
            changed = [name for name in said if old[1].get(name) != said[name]]
            if (old[0] != text) == bool(changed):
                continue  # unchanged, or both sides changed together
            if old[0] != text:
                fields = list(said)
                unchanged = (f"{fields[0]} did not" if len(fields) == 1 else f"neither {fields[0]} nor {fields[1]} did"
                             if len(fields) == 2 else f"none of {_names(fields)} did")
                message = (f"changed since the last build, but {unchanged}: the simulator plays"
                           f" {'that field' if len(fields) == 1 else 'those fields'}, so check the card still"
                           " does what its text says (a build records it)")
            else:
                message = (f"{_names(changed, 'and')} changed since the last build, but this text, which says"
                           f" {'it' if len(changed) == 1 else 'them'} in words, did not: the printed card may"
                           " still tell the old rule (a build records it)")
            where = game.field_at(record, *_keys(path)) or game.where(record) or component.location
            problems.append(Problem(where, f"{component.id}[{index}].{path}", message, "warning"))
    return problems


def _shape(spec, value, types):
    """The spec that names ``value``'s fields: a named type's own, and for a tagged union (an effect)
    the variant of the value's tag."""
    spec = _resolved(spec, types)
    if spec is not None and spec.kind == "tagged" and isinstance(value, dict):
        return _resolved(spec.variants.get(value.get(spec.options.get("tag", "type"))), types)
    return spec


def _collect(value, spec, types, path: str, pairs: dict, lang: str) -> None:
    spec = _shape(spec, value, types)
    if spec is None:
        return
    if spec.kind == "map" and isinstance(value, dict):
        for name, field_spec in spec.fields.items():
            resolved = _resolved(field_spec, types)
            restated = resolved.options.get("restates") if resolved is not None else None
            if restated:
                pairs[path + name] = [data_digest(text_in(value.get(name), lang)),
                                      {n: data_digest(value.get(n)) for n in restated}]
            elif name in value:
                _collect(value[name], field_spec, types, f"{path}{name}.", pairs, lang)
    elif spec.kind == "list" and isinstance(value, list) and spec.items is not None:
        base = path[:-1]
        for i, item in enumerate(value):
            _collect(item, spec.items, types, f"{base}[{i}].", pairs, lang)


def _has_restates(spec, types, seen: set) -> bool:
    spec = _resolved(spec, types)
    if spec is None or id(spec) in seen:
        return False
    seen.add(id(spec))
    if spec.options.get("restates"):
        return True
    return any(_has_restates(s, types, seen) for s in (*spec.fields.values(), *spec.variants.values(), spec.items))


def _keys(path: str) -> list:
    """``"gimmicks[0].text"`` -> ``["gimmicks", 0, "text"]``."""
    keys: list = []
    for part in path.split("."):
        name, _, rest = part.partition("[")
        keys.append(name)
        if rest:
            keys.append(int(rest.rstrip("]")))
    return keys


def _names(fields: list[str], conjunction: str = "or") -> str:
    """``effect``, ``effect or sub``, ``sub, effect and life_cost``."""
    return fields[0] if len(fields) == 1 else ", ".join(fields[:-1]) + f" {conjunction} " + fields[-1]
