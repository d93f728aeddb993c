"""From a loaded game to drawing ops for every card face, with the fit report.

This is the one place that knows how card data meets layouts: it builds the template
context (localised text, component and game info, every table for look-ups), resolves
each component's front and back layouts, and instantiates them. Painting is elsewhere.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .content import Game
from .content.game import copies_of, text_in
from .content.schema import Spec
from .errors import ContentError, Location, Problem
from .fonts import FontSet, load_fonts
from .layout.expr import Expressions
from .layout.icons import IconSet, load_icons
from .layout.instantiate import CardContext, Instantiator
from .layout.template import LayoutLoader, layout_search_path

DEFAULT_BLEED_PT = 3 * 72 / 25.4


@dataclass
class Faces:
    """Instantiated ops of one component: one entry per record (copies share them)."""

    component: object
    fronts: list                 # ops per record
    backs: list | None           # ops per record (per-card backs) or a single-item list (shared back)
    copies: list                 # record index for every printed card, in order
    layout_files: tuple = ()

    def back_for(self, record_index: int):
        if self.backs is None:
            return None
        return self.backs[record_index] if len(self.backs) > 1 or self.component.back_per_card else self.backs[0]


@dataclass
class CardSet:
    game: Game
    fonts: FontSet
    icons: IconSet
    faces: list = field(default_factory=list)
    problems: list = field(default_factory=list)


def localise(value, spec: Spec | None, types: dict, lang: str):
    """Resolve every ``text`` field of a value to one language, guided by its schema."""
    if spec is None:
        return value
    while spec.kind in types:
        spec = types[spec.kind]
    if spec.kind == "text":
        return text_in(value, lang)
    if isinstance(value, list) and spec.items is not None:
        return [localise(v, spec.items, types, lang) for v in value]
    if isinstance(value, dict):
        if spec.kind == "map":
            return {k: localise(v, spec.fields.get(k), types, lang) for k, v in value.items()}
        if spec.kind == "dict":
            return {k: localise(v, spec.values, types, lang) for k, v in value.items()}
        if spec.kind == "tagged":
            variant = spec.variants.get(value.get(spec.options.get("tag", "type")))
            return {k: localise(v, variant.fields.get(k) if variant else None, types, lang) for k, v in value.items()}
    return value


def game_fonts(game: Game) -> FontSet:
    fonts = game.meta.get("fonts") or {}
    regular = game.root / fonts["regular"] if fonts.get("regular") else None
    bold = game.root / fonts["bold"] if fonts.get("bold") else None
    return load_fonts(regular, bold)


def icon_files(game: Game, search: list[Path]) -> list[Path]:
    prefixes = {name.split("/")[0] for c in game.components for name in (c.layout, c.back) if name and "/" in name}
    files = []
    for root in reversed(search):  # the game's own layouts/ last, so it wins
        files.append(root / "common" / "icons.yaml")
        files.extend(root / p / "icons.yaml" for p in sorted(prefixes))
    files.append(game.root / "icons.yaml")
    return files


class CardBuilder:
    """Instantiates every face of every printable component of a game."""

    def __init__(self, game: Game, lang: str | None = None, bleed: float = DEFAULT_BLEED_PT):
        self.game = game
        self.lang = lang or game.meta.get("lang", "ja")
        self.bleed = bleed
        self.search = layout_search_path(game.root)
        self.layouts = LayoutLoader(self.search)
        self.fonts = game_fonts(game)
        self.icons = load_icons(icon_files(game, self.search))
        self.expr = Expressions()
        self.tables = self._localised_tables()

    def _localised_tables(self) -> dict:
        game, types = self.game, self.game.types
        tables = {}
        for c in game.components:
            tables[c.id] = [localise(r, Spec(c.schema), types, self.lang) for r in c.records]
        for entry in game.meta.get("data", []):
            tables[entry["id"]] = localise(game.tables.get(entry["id"]), Spec(entry["schema"]), types, self.lang)
        return tables

    def base_context(self, component) -> dict:
        def by_id(table: str, record_id: str):
            for record in self.tables.get(table) or []:
                if isinstance(record, dict) and record.get("id") == record_id:
                    return record
            raise KeyError(f"no record {record_id!r} in {table!r}")

        w, h = component.size_pt
        return {
            "game": {"id": self.game.id, "title": text_in(self.game.meta["title"], self.lang),
                     "version": self.game.meta.get("version")},
            "component": {"id": component.id, "name": text_in(component.name, self.lang), "kind": component.kind,
                          "count": component.found, "w": w, "h": h},
            "data": self.tables,
            "by_id": by_id,
            "lang": self.lang,
        }

    def printable(self):
        return [c for c in self.game.components if c.layout]

    def build(self, components=None) -> CardSet:
        result = CardSet(self.game, self.fonts, self.icons)
        for component in components or self.printable():
            faces = self.component_faces(component, result.problems)
            if faces is not None:
                result.faces.append(faces)
        return result

    def component_faces(self, component, problems: list) -> Faces | None:
        try:
            front = self.layouts.load(component.layout, component.at("layout"), f"{component.id}.layout")
            back = self.layouts.load(component.back, component.at("back"), f"{component.id}.back") \
                if component.back else None
        except ContentError as exc:
            problems.extend(exc.problems)
            return None
        inst = Instantiator(self.fonts, self.icons, self.game.root, component.size_pt, self.bleed, self.expr)
        base = self.base_context(component)
        records = self.tables[component.id]
        fronts, backs = [], [] if back else None
        for i, record in enumerate(records):
            raw = component.records[i]
            ctx = CardContext({**base, "card": {**record, "_index": i}},
                              self.game.where(raw) or component.location, f"{component.id}[{i}]")
            ops, found = inst.instantiate(front, ctx)
            fronts.append(ops)
            problems.extend(found)
            if back and (component.back_per_card or i == 0):
                card = {**record, "_index": i} if component.back_per_card else {}
                back_ctx = CardContext({**base, "card": card}, ctx.location if component.back_per_card
                                       else component.location, ctx.field_prefix if component.back_per_card
                                       else f"{component.id}.back")
                ops, found = inst.instantiate(back, back_ctx)
                backs.append(ops)
                problems.extend(found)
        copies = [i for i, r in enumerate(component.records) for _ in range(copies_of(r))]
        files = tuple(front.files) + (tuple(back.files) if back else ())
        return Faces(component, fronts, backs, copies, files)
