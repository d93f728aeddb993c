"""Content hashes of card faces: what a face is made of, reduced to a few hex digits.

A face's hash covers everything that decides how it prints:

- ``record``: the card's own data (its ``count`` too), its texts in the edition's language;
- ``layout``: its layout as resolved (every file it ``extends`` merged in), its values written per
  language in the edition's: what the layout says, not how its file is spelt (a comment is nothing);
- ``assets``: the bytes of every image it draws, the definitions of the icons it uses, the
  fonts (by content);
- ``ops``: the instantiated drawing operations, numbers rounded, images by content, so data
  the card reads from elsewhere (``by_id`` look-ups, ``rules``) counts too.

So an edition's hashes depend only on what that edition prints and what decides it: adding an
English text (to a record or a layout) leaves the Japanese edition's hashes as they were.

Absolute paths never enter a hash (a game copied elsewhere hashes the same), and neither do
Python's per-process set orders or hash seeds.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import marshal
from json.encoder import encode_basestring
from pathlib import Path

from ..errors import Location

DIGITS = 16


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:DIGITS]


class FileHashes:
    """File contents hashed once per run (images and layouts are shared by many faces)."""

    def __init__(self):
        self._cache: dict = {}
        # assets hash per (icon set, images, icon names): nearly every face of a deck uses the
        # same few, so each is serialised and hashed once per run
        self.assets: dict = {}

    def __call__(self, path) -> str:
        key = str(Path(path).resolve())
        value = self._cache.get(key)
        if value is None:
            try:
                value = sha(Path(path).read_bytes())
            except OSError:
                value = "missing"
            self._cache[key] = value
        return value

    def image(self, path) -> str:
        """An image's hash with how pnp redraws it, if it does (``drawn_as``): a face whose file is unchanged
        but now prints otherwise (upright, its greys in 8 bits) is re-exported and listed as changed."""
        key = ("drawn", str(Path(path).resolve()))
        value = self._cache.get(key)
        if value is None:
            from ..layout.images import drawn_as

            try:
                note = drawn_as(Path(path))
            except OSError:
                note = ""
            value = self._cache[key] = f"{self(path)}:{note}" if note else self(path)
        return value


def canonical(value, files: FileHashes, icons: set | None = None):
    """A JSON-able, order-stable form of ops (dataclasses, dicts, sets, paths, floats)."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return round(value, 4) + 0.0          # -0.0 -> 0.0
    if isinstance(value, Path):
        return {"file": files(value)}
    if isinstance(value, Location):        # where a definition was written is not what it draws
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = getattr(value, "kind", None)
        if icons is not None and kind == "icon":
            name = getattr(value, "payload", None) if hasattr(value, "payload") else getattr(value, "name", "")
            if isinstance(name, str) and name:
                icons.add(name)
        out = {"@": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = canonical(getattr(value, f.name), files, icons)
        return out
    if isinstance(value, dict):
        return {str(k): canonical(v, files, icons) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v, files, icons) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [canonical(v, files, icons) for v in value]
    return repr(value)


# check_circular off: forms are trees built here (same output, no id bookkeeping per list)
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str,
                            check_circular=False)


def _dumps(value) -> bytes:
    return _ENCODER.encode(value).encode("utf-8")


#: an op's form, as ``marshal`` writes it -> the form's JSON. The frame, the panel and the discs of a
#: deck's faces make the same forms card after card, and JSON spends most of a face's hash writing
#: floats. Keyed by marshal's bytes, not by the form: equal bytes are the same values of the same types
#: (``==`` would take ``True`` for ``1`` and ``1.0``, which JSON writes apart). Cleared when full.
_ENCODED: dict = {}
MAX_ENCODED = 4096


def _form_json(form) -> str:
    """The JSON of an op's form: ``(kind, id, x, y, w, h, style, payload, rotate, opacity, children)``.
    A text's words change from card to card and its box does not: its payload is written each time,
    the rest of it from the memo (a tuple's JSON is its items' joined by "," in brackets)."""
    if form[0] == "text":
        return f"{_memo_json(form[:7])[:-1]},{_ENCODER.encode(form[7])},{_memo_json(form[8:])[1:]}"
    return _memo_json(form)


def _memo_json(form) -> str:
    try:
        key = marshal.dumps(form)
    except ValueError:  # a type marshal does not write (a layout's located string): encoded each time
        return _ENCODER.encode(form)
    text = _ENCODED.get(key)
    if text is None:
        if len(_ENCODED) >= MAX_ENCODED:
            _ENCODED.clear()
        text = _ENCODED[key] = _ENCODER.encode(form)
    return text


def _forms_dumps(forms: list) -> bytes:
    """``_dumps(forms)``, each form's JSON from the memo (a list's JSON is its items' joined by ",")."""
    return f"[{','.join([_form_json(form) for form in forms])}]".encode("utf-8")


class _Rounded(dict):
    """``_R[value]``: ``value`` to 4 decimals (-0.0 -> 0.0). Memoised: a deck repeats the same
    coordinates on every card, a correctly rounded ``round`` costs three times a dict look-up, and a
    hit is a subscript in C (a function wrapping ``dict.get`` cost a Python call per value)."""

    def __missing__(self, value):
        if len(self) > 65536:
            self.clear()
        rounded = self[value] = round(value, 4) + 0.0
        return rounded


_R = _Rounded()


def _op_form(op, files: FileHashes, icons: set, images: set):
    """A compact, order-stable form of one op (a hot path: every face of every build)."""
    payload = op.payload
    if op.kind == "image":
        payload = files.image(payload)
        images.add(payload)
    elif op.kind == "icon":
        icons.add(payload)
    elif op.kind == "text":
        if payload.direction == "vertical":
            payload = _columns_form(payload, icons)
        else:
            lines = []
            for line in payload.lines:
                runs = []
                for run in line.runs:
                    if run.kind == "icon":
                        icons.add(run.name)
                        runs.append(("i", run.name, _R[run.x], _R[run.icon_size], _R[run.icon_bottom]))
                    else:
                        runs.append(("t", run.text, run.bold, _R[run.x]))
                lines.append((_R[line.baseline_y], _R[line.x], runs))
            payload = (_R[payload.size], lines)
    elif op.kind == "path":
        segments, viewbox = payload
        payload = ([tuple(_R[v] if isinstance(v, float) else v for v in seg) for seg in segments],
                   [_R[v] for v in viewbox])
    elif isinstance(payload, (list, tuple)):
        payload = [[_R[v] for v in point] if isinstance(point, (list, tuple)) else _R[point] for point in payload]
    style = sorted((k, _R[v] if isinstance(v, float) else v) for k, v in op.style.items())
    children = [_op_form(child, files, icons, images) for child in op.children]
    return (str(op.kind), op.id, _R[op.x], _R[op.y], _R[op.w], _R[op.h], style, payload, _R[op.rotate],
            _R[op.opacity], children)


def _columns_form(block, icons: set):
    """A vertical text block's compact form: every cell's place, glyphs and how it stands."""
    columns = []
    for column in block.columns:
        cells = []
        for cell in column.cells:
            if cell.kind == "icon":
                icons.add(cell.name)
            cells.append((cell.kind, cell.glyphs or cell.name, cell.bold, _R[cell.y], _R[cell.advance],
                          _R[cell.dx], _R[cell.dy], _R[cell.squeeze]))
        columns.append((_R[column.x], _R[column.y], cells))
    return ("vertical", _R[block.size], columns)


def ops_digest(ops, files: FileHashes, icon_set=None) -> tuple[str, str]:
    """``(ops hash, assets hash)`` of one face's ops; assets = images and icon definitions used."""
    icons: set = set()
    image_set: set = set()
    form = [_op_form(op, files, icons, image_set) for op in ops or []]
    key = (id(icon_set), tuple(sorted(image_set)), tuple(sorted(icons)))
    assets = files.assets.get(key)
    if assets is None:
        definitions = {}
        if icon_set is not None:
            for name in key[2]:
                icon = icon_set.get(name)
                definitions[name] = canonical(icon, files) if icon is not None else None
        assets = files.assets[key] = sha(_dumps({"images": list(key[1]), "icons": definitions}))
    return sha(_forms_dumps(form)), assets


def _image_hashes(form):
    if isinstance(form, dict):
        if set(form) == {"file"}:
            yield form["file"]
        for v in form.values():
            yield from _image_hashes(v)
    elif isinstance(form, list):
        for v in form:
            yield from _image_hashes(v)


def data_digest(record, files: FileHashes | None = None) -> str:
    return sha(_dumps(canonical(record, files or FileHashes())))


#: values one build's record digests keep at most (cleared when full): a 5,400-card deck's unique
#: texts are not all kept until its lock is written
MAX_VALUES = 4096


def record_digests(record, files: FileHashes, memo: dict) -> tuple[str, dict | None]:
    """``(data_digest(record), {field: data_digest(value)[:8]})``: a record's digest and its top-level
    fields' (the print lock's ``fields``; None when the record is not a mapping), each field's JSON
    written once for both. ``memo`` (one build's) keeps each value's JSON and digest: a deck repeats a
    cost, a colour, a kind on card after card, and a SHA-256 call costs more than the JSON it hashes.
    A str is its own key; another value is keyed by ``marshal``'s bytes (equal bytes are the same
    values of the same types: ``==`` would take ``True`` for ``1`` and ``1.0``, which JSON writes
    apart); a value marshal does not write (a path, a located string) is written each time."""
    if not isinstance(record, dict) or any(type(key) is not str for key in record):
        fields = {str(k): data_digest(v, files)[:8] for k, v in record.items()} if isinstance(record, dict) else None
        return data_digest(record, files), fields
    fields, members = {}, []
    for key in sorted(record):  # as the encoder's sort_keys orders a mapping's str keys
        text, digest = _value_json(record[key], files, memo)
        fields[key] = digest
        members.append(f"{encode_basestring(key)}:{text}")
    return sha(f"{{{','.join(members)}}}".encode("utf-8")), {key: fields[key] for key in record}


def _value_json(value, files: FileHashes, memo: dict) -> tuple[str, str]:
    """A field value's JSON as the record's JSON writes it, and its 8-digit digest."""
    if type(value) is str:
        key = value
    else:
        try:
            key = marshal.dumps(value)
        except ValueError:
            key = None
    known = memo.get(key) if key is not None else None
    if known is None:
        # a str's form is itself and its JSON encode_basestring's, as JSONEncoder.encode writes a str
        text = encode_basestring(value) if key is value else _ENCODER.encode(canonical(value, files))
        known = (text, sha(text.encode("utf-8"))[:8])
        if key is not None:
            if len(memo) >= MAX_VALUES:
                memo.clear()
            memo[key] = known
    return known


def resolved_layout_digest(layout, files: FileHashes | None = None) -> str:
    """A resolved ``layout.template.Layout``'s content; where each value was written (its YAML line,
    its file) is left out: moving a box down a line draws the same card."""
    content = {"background": layout.background, "vars": layout.vars, "boxes": layout.boxes}
    return data_digest(_without_lines(content), files)


def _without_lines(value):
    if isinstance(value, dict):
        return {k: _without_lines(v) for k, v in value.items() if k != "__line__"}
    if isinstance(value, list):
        return [_without_lines(v) for v in value]
    return value


def combine(**parts) -> str:
    return sha(_dumps(parts))
