"""From a loaded game to drawing ops for every card face, with the fit report.

This is the one place that knows how card data meets layouts: it builds the template
context (localised text, component and game info, every table for look-ups), resolves
each component's front and back layouts, and instantiates them. Painting is elsewhere.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from .content import Game
from .content.game import copies_of, text_in, written_lang
from .content.schema import Spec
from .errors import ContentError, FontError, Problem
from .fonts import FontSet, load_fonts
from .layout.expr import Expressions, NoRecord
from .layout.icons import IconSet, load_icons
from .layout.instantiate import CardContext, Instantiator
from .layout.legibility_check import LegibilityCheck
from .layout.template import LayoutLoader, layout_search_path

DEFAULT_BLEED_PT = 3 * 72 / 25.4
#: The `card` of a back shared by every card of a component (drawn once, for no card).
_SHARED_BACK_CARD = NoRecord("a back shared by every card is drawn once, for no card; to draw it per card, "
                             "set back_per_card: true on the component")


class _LazyOps:
    """Ops per record, instantiated on demand and forgotten soon after.

    Memory stays flat however large the deck: a face is instantiated when it is painted or
    checked, kept in a small cache (copies and duplex backs reuse it), then dropped. Problems
    of a face are reported the first time it is instantiated, never twice.
    """

    def __init__(self, size: int, make, problems: list, cache_size: int = 32):
        self.size, self.make, self.problems, self.cache_size = size, make, problems, cache_size
        self._cache: OrderedDict = OrderedDict()
        self._checked = bytearray(size)  # 1 = instantiated once (its problems are known)
        # Called with (index, ops) the first time a face is made, so a consumer (the print
        # lock's hashes) can use the ops while they exist instead of making them again.
        self.observers: list = []

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int):
        if not 0 <= index < self.size:
            raise IndexError(index)
        ops = self._cache.get(index)
        if ops is None:
            ops, found = self.make(index)
            if not self._checked[index]:
                self._checked[index] = 1
                self.problems.extend(found)
                for observe in self.observers:
                    observe(index, ops)
            self._cache[index] = ops
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(index)
        return ops

    def check_all(self) -> None:
        for index in range(self.size):
            if not self._checked[index]:
                self.make_and_check(index)

    def make_and_check(self, index: int) -> None:
        ops, found = self.make(index)
        self._checked[index] = 1
        self.problems.extend(found)
        for observe in self.observers:
            observe(index, ops)


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class Faces:
    """Drawing ops of one component's faces: ``fronts[i]`` and ``backs[i]`` per record."""

    component: object
    fronts: _LazyOps
    backs: _LazyOps | None       # per record (per-card backs) or one entry (a shared back)
    copies: list                 # record index for every printed card, in order
    # what the faces are drawn from, in the edition's language: (front, back or None) layouts as the
    # cards' loader resolved them, and the records with their texts picked (the print lock hashes these)
    layouts: tuple = (None, None)
    records: list = field(default_factory=list)

    def back_for(self, record_index: int):
        if self.backs is None:
            return None
        return self.backs[record_index if self.component.back_per_card else 0]

    def check_all(self) -> None:
        """Instantiate every face once so all its problems are known (nothing is kept)."""
        self.fronts.check_all()
        if self.backs is not None:
            self.backs.check_all()


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class CardSet:
    game: Game
    fonts: FontSet
    icons: IconSet
    faces: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    bleed: float = DEFAULT_BLEED_PT  # how far past the trim a background fills (impose.bleed_ring beyond)
    unjudged: dict = field(default_factory=dict)  # (layout box location, id) of text whose contrast is not known
    colour_codes: object = None  # (component id) -> its colour-code problems, once all its faces were made

    def check(self, faces: Faces) -> None:
        """Make each face of a component once, so all its problems are known (nothing is kept)."""
        faces.check_all()
        self.problems.extend(self.colour_codes(faces.component.id))

    def check_all(self) -> None:
        for faces in self.faces:
            self.check(faces)


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
            out = {k: localise(v, spec.fields.get(k), types, lang) for k, v in value.items()}
            # a record with nothing to localise is shared, not copied (large decks: half the memory)
            return value if all(out[k] is v for k, v in value.items()) else out
        if spec.kind == "dict":
            return {k: localise(v, spec.values, types, lang) for k, v in value.items()}
        if spec.kind == "tagged":
            variant = spec.variants.get(value.get(spec.options.get("tag", "type")))
            return {k: localise(v, variant.fields.get(k) if variant else None, types, lang) for k, v in value.items()}
    return value


def game_fonts(game: Game) -> FontSet:
    fonts = game.meta.get("fonts") or {}
    paths = {key: game.root / fonts[key] for key in ("regular", "bold") if fonts.get(key)}
    try:
        return load_fonts(paths.get("regular"), paths.get("bold"))
    except FontError as exc:  # a font game.yaml names (CFF, WOFF, corrupt): located at its key
        for key, path in paths.items():
            if exc.path == path:
                raise ContentError([Problem(game.at("fonts", key), f"fonts.{key}", f"{fonts[key]!r}: {exc.reason}")]) from None
        raise


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
        self.layouts = LayoutLoader(self.search, game.root, self.lang, written_lang(game.root))
        self.fonts = game_fonts(game)
        self.icons = load_icons(icon_files(game, self.search), game.root)
        self.expr = Expressions()
        self.tables = self._localised_tables()
        self.legibility = LegibilityCheck()  # contrast and colour-code warnings, each said once per build

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

    def field_location(self, raw: dict, record: dict, name: str):
        """Where field ``name`` of a record is written (``raw`` as loaded, ``record`` localised):
        for a text given per language, the line of the language printed."""
        value = raw.get(name)
        if isinstance(value, dict) and not isinstance(record.get(name), dict):  # a localised text
            lang = next((key for key in (self.lang, "ja", *value) if key in value), None)
            return self.game.field_at(raw, name, lang)
        return self.game.field_at(raw, name)

    def printable(self):
        return [c for c in self.game.components if c.layout]

    def build(self, components=None, check: bool = True) -> CardSet:
        """Faces of every printable component; ``check`` instantiates them all now (validation)."""
        result = CardSet(self.game, self.fonts, self.icons, bleed=self.bleed, unjudged=self.legibility.unknown,
                         colour_codes=self.legibility.colour_code_problems)
        for component in components or self.printable():
            faces = self.component_faces(component, result.problems)
            if faces is not None:
                if check:
                    result.check(faces)
                result.faces.append(faces)
        return result

    def _check_legibility(self, faces: _LazyOps, component, layout, context_of, problems: list) -> None:
        """Contrast (and colour-code) checks of each face the first time it is made, as its fit is."""
        check = self.legibility

        def observe(index, ops):
            problems.extend(check.face(component.id, ops, layout, partial(context_of, index)))

        faces.observers.append(observe)

    def _layout(self, component, key: str, problems: list):
        """The component's front (``layout``) or ``back`` layout, or None with its problems added: both
        are loaded, so a wrong front and a wrong back are said in one run."""
        try:
            return self.layouts.load(getattr(component, key), component.at(key), f"{component.id}.{key}")
        except ContentError as exc:
            problems.extend(exc.problems)
            return None

    def component_faces(self, component, problems: list) -> Faces | None:
        front = self._layout(component, "layout", problems)
        back = self._layout(component, "back", problems) if component.back else None
        problems.extend(self.layouts.untranslated_warnings())
        if front is None or (component.back and back is None):
            return None
        inst = Instantiator(self.fonts, self.icons, self.game.root, component.size_pt, self.bleed, self.expr)
        base = self.base_context(component)
        records = self.tables[component.id]

        def card_context(i: int) -> CardContext:
            where = self.game.where(component.records[i]) or component.location
            return CardContext({**base, "card": {**records[i], "_index": i}}, where, f"{component.id}[{i}]",
                               partial(self.field_location, component.records[i], records[i]))

        def make_front(i: int):
            return inst.instantiate(front, card_context(i))

        def back_context(i: int) -> CardContext:
            if component.back_per_card:
                return card_context(i)
            return CardContext({**base, "card": _SHARED_BACK_CARD}, component.at("back"), f"{component.id}.back")

        def make_back(i: int):
            return inst.instantiate(back, back_context(i))

        fronts = _LazyOps(len(records), make_front, problems)
        self._check_legibility(fronts, component, front, card_context, problems)
        backs = None
        if back is not None:
            backs = _LazyOps(len(records) if component.back_per_card else 1, make_back, problems)
            self._check_legibility(backs, component, back, back_context, problems)
        copies = [i for i, r in enumerate(component.records) for _ in range(copies_of(r))]
        return Faces(component, fronts, backs, copies, (front, back), records)
