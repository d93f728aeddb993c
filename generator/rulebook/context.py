"""What a rulebook's Markdown can read: the game's data, counts, and generated blocks.

Everything handed to Jinja2 is *strict*: reading a field, component or card that does not
exist raises :class:`RefError` (with a "did you mean"), which the renderer turns into a
problem at the ``.md`` file and line. Generated blocks (card images, the component table,
the keyword glossary) are returned as one-line placeholders and replaced by flowables when
the Markdown is converted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import partial

from ..cards import CardBuilder
from ..content.game import Game, copies_of, text_in
from ..content.schema import did_you_mean
from ..errors import ContentError, Problem
from ..layout.instantiate import CardContext, Instantiator
from ..units import to_mm
from .source import RefError

BLOCK_OPEN, BLOCK_CLOSE = "\ue010", "\ue011"
BLOCK_RE = re.compile(f"{BLOCK_OPEN}(\\d+){BLOCK_CLOSE}")
ICON_RE = re.compile(r":([a-z0-9_-]+):")


# --- strict views ------------------------------------------------------------------------------

def strict(value, label: str):
    if isinstance(value, StrictMap):
        return value
    if isinstance(value, dict):
        return StrictMap(value, label)
    if isinstance(value, list):
        return [strict(v, f"{label}[{i}]") for i, v in enumerate(value)]
    return value


class StrictMap:
    """A read-only mapping whose missing keys are errors, readable as ``m.key`` or ``m['key']``."""

    __slots__ = ("_data", "_label")

    def __init__(self, data: dict, label: str):
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_label", label)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, key):
        data = self._data
        if key not in data:
            if isinstance(key, int) and str(key) in data:
                key = str(key)
            elif isinstance(key, str) and key.isdigit() and int(key) in data:
                key = int(key)
            else:
                raise RefError(f"{self._label} has no {key!r}{did_you_mean(key, data)}"
                               f" (known: {', '.join(map(str, list(data)[:12]))}{' ...' if len(data) > 12 else ''})")
        return strict(data[key], f"{self._label}.{key}")

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def keys(self):
        return list(self._data)

    def values(self):
        return [self[k] for k in self._data]

    def items(self):
        return [(k, self[k]) for k in self._data]

    def get(self, key, default=None):
        return self[key] if key in self._data else default

    def __str__(self):
        return str(self._data)

    def __setattr__(self, name, value):
        raise TypeError("rulebook data is read-only")


# --- blocks ------------------------------------------------------------------------------------

@dataclass
class Block:
    kind: str                      # cards | component_table | glossary | icon_legend
    args: dict = field(default_factory=dict)


@dataclass
class CardRef:
    component: object              # generator.content.game.Component
    index: int                     # record index in the component
    caption: str | None


class RulebookData:
    """The game as the rulebook sees it, plus the registry of generated blocks."""

    def __init__(self, game: Game, builder: CardBuilder | None = None, config: dict | None = None):
        self.game = game
        self.builder = builder or CardBuilder(game)
        self.lang = self.builder.lang
        self.tables = self.builder.tables
        self.config = config or {}
        self.blocks: list[Block] = []
        self.warnings: list[Problem] = []
        self._faces: dict = {}
        self._instantiators: dict = {}
        self._layout_failed: set = set()
        self._used_icons: dict | None = None
        self._drawn_icons: dict | None = None

    # -- look-ups ---------------------------------------------------------------------------
    def component(self, component_id: str):
        ids = [c.id for c in self.game.components]
        for c in self.game.components:
            if c.id == component_id:
                return c
        raise RefError(f"unknown component {component_id!r}{did_you_mean(component_id, ids)}"
                       f" (components: {', '.join(ids)})")

    def record_index(self, component, record_id: str) -> int:
        ids = [r.get("id") for r in component.records if isinstance(r, dict)]
        for i, rid in enumerate(ids):
            if rid == record_id:
                return i
        raise RefError(f"no card {record_id!r} in component {component.id!r}{did_you_mean(record_id, ids)}")

    def name_of(self, component) -> str:
        return text_in(component.name, self.lang) if component.name else component.id

    def card_name(self, component, index: int) -> str:
        record = self.tables[component.id][index]
        for key in ("name", "title"):
            value = record.get(key)
            if isinstance(value, str) and value:
                return value
        return str(record.get("id", ""))

    def _filtered(self, component, filters: dict) -> list[int]:
        records = self.tables[component.id]
        for key in filters:
            if not any(isinstance(r, dict) and key in r for r in records):
                keys = sorted({k for r in records if isinstance(r, dict) for k in r})
                raise RefError(f"records of {component.id!r} have no field {key!r}{did_you_mean(key, keys)}")
        return [i for i, r in enumerate(records)
                if all(r.get(k) == v for k, v in filters.items())]

    # -- Jinja context ----------------------------------------------------------------------
    def context(self) -> dict:
        game = self.game
        components = {}
        for c in game.components:
            w, h = c.size_pt
            components[c.id] = {
                "id": c.id, "name": self.name_of(c), "kind": c.kind, "found": c.found,
                "count": c.found, "expected": c.expected, "records": len(c.records),
                "size_mm": [round(to_mm(w), 1), round(to_mm(h), 1)],
            }
        data = {k: v for k, v in self.tables.items()}
        return {
            "game": StrictMap({"id": game.id, "title": game.title, "version": game.meta.get("version")}, "game"),
            "components": StrictMap(components, "components"),
            "rules": strict(self.tables.get("rules") or {}, "rules"),
            "data": StrictMap(data, "data"),
            "total_cards": sum(c.found for c in game.components if c.kind == "card"),
            "card": self._card,
            "cards": self._cards,
            "component_table": self._component_table,
            "glossary": self._glossary,
            "icon_legend": self._icon_legend,
            "count": self._count,
            "records": self._records,
            "record": self._record,
            "icon": self._icon,
            "icon_label": self._icon_label,
        }

    def _block(self, block: Block) -> str:
        self.blocks.append(block)
        return f"{BLOCK_OPEN}{len(self.blocks) - 1}{BLOCK_CLOSE}"

    def card_ref(self, component_id: str, record_id: str, caption=True) -> CardRef:
        component = self.component(component_id)
        if not component.layout:
            raise RefError(f"component {component_id!r} has no layout: it is not printed, so it has no card image")
        index = self.record_index(component, record_id)
        text = self.card_name(component, index) if caption is True else (caption or None)
        return CardRef(component, index, text)

    @staticmethod
    def _checked(caption, width, limit=None, columns=None):
        """Block function arguments that would otherwise fail (or draw nothing) at layout time."""
        if not (isinstance(caption, (bool, str)) or caption is None):
            raise RefError(f"caption must be True, False or a text, not {caption!r}")
        if width is not None and (isinstance(width, bool) or not isinstance(width, (int, float)) or width <= 0):
            raise RefError(f"width must be a positive number of mm, not {width!r}")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise RefError(f"limit must be a whole number of cards (1 or more), not {limit!r}")
        if columns is not None and (isinstance(columns, bool) or not isinstance(columns, int) or columns < 1):
            raise RefError(f"columns must be a whole number (1 or more), not {columns!r}")

    def _card(self, component_id, record_id, caption=True, width=None):
        self._checked(caption, width)
        return self._block(Block("cards", {"refs": [self.card_ref(component_id, record_id, caption)],
                                           "width": width}))

    def _cards(self, component_id, *ids, where=None, limit=None, caption=True, width=None, **filters):
        self._checked(caption, width, limit=limit)
        component = self.component(component_id)
        if ids:
            refs = [self.card_ref(component_id, i, caption) for i in ids]
        else:
            if not component.layout:
                raise RefError(f"component {component_id!r} has no layout: it has no card images")
            indexes = self._filtered(component, {**(where or {}), **filters})
            if limit is not None:
                indexes = indexes[:int(limit)]
            if not indexes:
                raise RefError(f"no card of {component_id!r} matches {where or filters}")
            refs = [CardRef(component, i, self.card_name(component, i) if caption is True else (caption or None))
                    for i in indexes]
        return self._block(Block("cards", {"refs": refs, "width": width}))

    def _component_table(self, images=True):
        return self._block(Block("component_table", {"images": bool(images)}))

    def _glossary(self):
        return self._block(Block("glossary", {}))

    def _icon_legend(self, columns=3, exclude=(), text_icons=True):
        """Icons drawn on the cards (text icons and layout icons); ``exclude`` takes glob patterns;
        ``text_icons=False`` leaves out the icons the keyword glossary already explains."""
        if isinstance(exclude, str):
            exclude = [exclude]
        self._checked(None, None, columns=columns)
        return self._block(Block("icon_legend", {"columns": int(columns), "exclude": tuple(exclude),
                                                 "text_icons": bool(text_icons)}))

    def _count(self, component_id, where=None, **filters):
        component = self.component(component_id)
        indexes = self._filtered(component, {**(where or {}), **filters})
        return sum(copies_of(component.records[i]) for i in indexes)

    def _records(self, component_id, where=None, **filters):
        component = self.component(component_id) if component_id in {c.id for c in self.game.components} else None
        if component is None:
            table = self.tables.get(component_id)
            if table is None:
                known = sorted(self.tables)
                raise RefError(f"unknown component or data {component_id!r}{did_you_mean(component_id, known)}")
            filters = {**(where or {}), **filters}
            if filters:
                if not isinstance(table, list):
                    raise RefError(f"{component_id!r} is not a list of records: it cannot be filtered")
                for key in filters:
                    if not any(isinstance(r, dict) and key in r for r in table):
                        keys = sorted({k for r in table if isinstance(r, dict) for k in r})
                        raise RefError(f"records of {component_id!r} have no field {key!r}{did_you_mean(key, keys)}")
                table = [r for r in table if isinstance(r, dict) and all(r.get(k) == v for k, v in filters.items())]
            return strict(table, component_id)
        indexes = self._filtered(component, {**(where or {}), **filters})
        return [strict({**self.tables[component.id][i], "copies": copies_of(component.records[i])},
                       f"{component_id}[{self.tables[component.id][i].get('id', i)}]") for i in indexes]

    def _record(self, component_id, record_id):
        if component_id not in {c.id for c in self.game.components}:
            table = self.tables.get(component_id)
            if isinstance(table, list):
                for r in table:
                    if isinstance(r, dict) and r.get("id") == record_id:
                        return strict(r, f"{component_id}[{record_id}]")
                ids = [r.get("id") for r in table if isinstance(r, dict)]
                raise RefError(f"no record {record_id!r} in {component_id!r}{did_you_mean(record_id, ids)}")
            self.component(component_id)  # raises with the list of components
        component = self.component(component_id)
        i = self.record_index(component, record_id)
        return strict({**self.tables[component.id][i], "copies": copies_of(component.records[i])},
                      f"{component_id}[{record_id}]")

    def _icon(self, name):
        # an unknown name is warned about (at its line) when the Markdown it lands in is read
        return f":{name}:"

    def _icon_label(self, name):
        icon = self.builder.icons.get(name)
        if icon is None:
            known = sorted(self.builder.icons.names())
            raise RefError(f"icon {name!r} is not defined in the layouts' icons.yaml{did_you_mean(name, known)}")
        return text_in(icon.label, self.lang) if icon.label else name

    # -- card faces -------------------------------------------------------------------------
    def faces(self, ref: CardRef):
        """Front ops of one record (or None when its layout cannot be used yet)."""
        component = ref.component
        key = (component.id, ref.index)
        if key in self._faces:
            return self._faces[key]
        ops = None
        if component.id not in self._layout_failed:
            b = self.builder
            try:
                front = b.layouts.load(component.layout, component.at("layout"), f"{component.id}.layout")
            except ContentError as exc:
                self._layout_failed.add(component.id)
                self.warnings.extend(_as_warnings(exc.problems))
            else:
                inst = self._instantiators.get(component.id)
                if inst is None:
                    inst = self._instantiators[component.id] = Instantiator(
                        b.fonts, b.icons, b.game.root, component.size_pt, b.bleed, b.expr)
                record = b.tables[component.id][ref.index]
                raw = component.records[ref.index]
                ctx = CardContext({**b.base_context(component), "card": {**record, "_index": ref.index}},
                                  b.game.where(raw) or component.location, f"{component.id}[{ref.index}]",
                                  partial(b.field_location, raw, record))
                ops, found = inst.instantiate(front, ctx)
                self.warnings.extend(_as_warnings(found))
        self._faces[key] = ops
        return ops

    # -- icons the cards use ----------------------------------------------------------------
    def used_icons(self) -> dict:
        """Icon name -> number of printed cards whose text uses it, in order of first use."""
        if self._used_icons is None:
            used: dict = {}
            for c in self.game.components:
                for i, record in enumerate(self.tables[c.id]):
                    names = set()
                    _scan_icons(record, names)
                    for name in sorted(names, key=lambda n: _first_pos(record, n)):
                        used[name] = used.get(name, 0) + copies_of(c.records[i])
            self._used_icons = used
        return self._used_icons

    def drawn_icons(self) -> dict:
        """Icon name -> number of printed cards that show it (in their text or drawn by the layout)."""
        if self._drawn_icons is None:
            shown: dict = {}
            for c in self.game.components:
                for i, record in enumerate(self.tables[c.id]):
                    names: list = []
                    text_names: set = set()
                    _scan_icons(record, text_names)
                    names.extend(sorted(text_names, key=lambda n: _first_pos(record, n)))
                    if c.layout:
                        for name in _icon_ops(self.faces(CardRef(c, i, None)) or []):
                            if name not in names:
                                names.append(name)
                    for name in dict.fromkeys(names):
                        shown[name] = shown.get(name, 0) + copies_of(c.records[i])
            self._drawn_icons = shown
        return self._drawn_icons


def _icon_ops(ops):
    for op in ops:
        if op.kind == "icon":
            yield op.payload
        if op.children:
            yield from _icon_ops(op.children)


def _scan_icons(value, names: set) -> None:
    if isinstance(value, str):
        names.update(ICON_RE.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in ("id", "effect"):
                _scan_icons(v, names)
    elif isinstance(value, list):
        for v in value:
            _scan_icons(v, names)


def _first_pos(record, name) -> int:
    text = str(record)
    pos = text.find(f":{name}:")
    return pos if pos >= 0 else len(text)


def _as_warnings(problems) -> list:
    return [replace(p, severity="warning") for p in problems]
