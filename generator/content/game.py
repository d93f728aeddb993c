"""``load_game(dir)``: every file of a game parsed, typed and cross-checked.

All problems of all files are collected before anything is raised, so a designer sees
every mistake of an edit at once, each as ``path:line: field: message``.
"""
from __future__ import annotations

import glob as globmod
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

import yaml

from ..errors import ContentError, Location, Problem
from ..units import parse_size
from .tabular import is_editor_lock, is_tabular, open_table, parse_table_file
from .schema import Context, Spec, compile_schema, did_you_mean, field_kind, text_in, unknown_field, validate
from .yamlload import NodeBudget, item_location, mapping_items, node_location, parse_file, parse_items, parse_text


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class Component:
    id: str
    name: object
    kind: str
    files: list
    schema: str
    size_pt: tuple
    shape: str
    layout: str | None
    back: str | None
    back_per_card: bool
    expected: int | None
    records: list
    location: Location
    tiling: dict | None = None
    paper_sized: str | None = None   # full | tiled | fit: a board the size of the paper (sheets.board_mode)
    bleed_reach: float = 0.0         # points its layouts paint past the trim (layout.reach): a round piece's room
    key_locations: dict = field(default_factory=dict, repr=False)  # game.yaml key -> Location

    def at(self, key: str) -> Location:
        """Where a key of this component is written in game.yaml."""
        return self.key_locations.get(key, self.location)

    @property
    def found(self) -> int:
        return sum(copies_of(r) for r in self.records)


def copies_of(record) -> int:
    """How many printed copies a record yields (its `count`, default 1)."""
    count = record.get("count") if isinstance(record, dict) else None
    return count if isinstance(count, int) and not isinstance(count, bool) else 1


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class Game:
    id: str
    root: Path
    meta: dict
    types: dict
    components: list
    tables: dict
    locations: dict = field(default_factory=dict, repr=False)
    warnings: list = field(default_factory=list, repr=False)
    source: object = field(default=None, repr=False)  # the composed game.yaml, to locate its keys
    untranslated: list = field(default_factory=list, repr=False)  # (Location, field path, languages) per text
    languages: Counter = field(default_factory=Counter, repr=False)  # texts by their languages (schema.Context)
    _reparsed: dict = field(default_factory=dict, repr=False)  # record file -> composed node (field_at)

    def at(self, *keys) -> Location:
        """Where a key of game.yaml is written (``game.at("print", "profile")``)."""
        return item_location(self.source, list(keys), str(self.root / "game.yaml"))

    def component(self, component_id: str) -> Component:
        for component in self.components:
            if component.id == component_id:
                return component
        raise KeyError(component_id)

    def cards(self, component_id: str) -> list:
        """Records expanded by ``count`` in file order."""
        return [r for r in self.component(component_id).records for _ in range(copies_of(r))]

    def where(self, record) -> Location | None:
        return self.locations.get(id(record))

    def field_at(self, record, *keys) -> Location | None:
        """Where ``record[keys[0]][keys[1]]...`` is written: the line of the last key found
        (the record's own line if not even the first is written, e.g. a default); None for an
        unknown record.

        Loading keeps one location per record, not per field; a problem about one field is
        rare, so its file is parsed again here (once per file) to find the key.
        """
        where = self.where(record)
        if where is None or not keys:
            return where
        if where.path not in self._reparsed:
            try:
                # (a spreadsheet's cells read as text: only where they are matters here)
                self._reparsed[where.path] = (parse_table_file(where.path, lambda keys: "text")
                                              if is_tabular(where.path) else parse_file(Path(where.path)))
            except ContentError:  # changed since it was loaded: the record's line will do
                self._reparsed[where.path] = None
        node = _mapping_at(self._reparsed[where.path], where.line)
        found = where
        for key in keys:
            if isinstance(key, int) and isinstance(node, yaml.SequenceNode) and 0 <= key < len(node.value):
                node = node.value[key]  # an item of a list: ``field_at(stage, "gimmicks", 0, "text")``
                found = node_location(where.path, node)
                continue
            if not isinstance(node, yaml.MappingNode):
                break
            pair = next(((k, v) for name, k, v in mapping_items(node, where.path, [], "") if name == key), None)
            if pair is None:
                break
            found, node = node_location(where.path, pair[0]), pair[1]
        return found

    @property
    def title(self) -> str:
        return text_in(self.meta["title"], self.meta.get("lang", "ja"))


_SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


@lru_cache(maxsize=None)
def _schema_source(name: str) -> str:
    # next to the package's code (package data), read without importlib.resources: that import
    # alone (tempfile, shutil, zipfile readers) costs a small build a tenth of its start-up
    return (_SCHEMAS / f"{name}.yaml").read_text(encoding="utf-8")


def builtin_types(name: str) -> dict:
    """A schema shipped with the generator (game.yaml, profiles, layouts)."""
    problems: list = []
    path = f"<generator>/schemas/{name}.yaml"
    types = compile_schema(parse_text(_schema_source(name), path), path, problems)
    assert not problems, problems  # a bug in our own schema, not a user error
    return types


class _Loader:
    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []
        self.locations: dict = {}
        self.ids: list = []
        self.refs: list = []
        self.lang: str | None = None      # set once game.yaml is read
        self.written_lang: str | None = None  # game.yaml's lang: as written, whatever the edition
        self.untranslated: list = []      # texts without the game's language (see schema.Context)
        self.languages: Counter = Counter()
        self.unreadable: set = set()      # components and data tables with a file that did not load
        self._cache: dict = {}

    def parse(self, path: Path):
        try:
            return parse_file(path)
        except ContentError as exc:
            self.problems.extend(exc.problems)
            return None

    def check(self, node, spec: Spec, types: dict, path: Path, field_path: str, collect_ids=True, budget=None):
        ctx = Context(str(path), types, self.problems, budget or NodeBudget(str(path)), game_root=self.root,
                      lang=self.lang, written_lang=self.written_lang)
        try:
            value = validate(node, spec, ctx, field_path)
        except ContentError as exc:
            self.problems.extend(exc.problems)
            return None
        self.locations.update(ctx.locations)
        self.untranslated.extend(ctx.untranslated)
        self.languages.update(ctx.languages)
        if collect_ids:
            self.ids.extend(ctx.ids)
        self.refs.extend(ctx.refs)
        return value


def load_game(directory, lang: str | None = None, check_counts: bool = True) -> Game:
    """Load and check a game directory; raise ContentError listing every problem. ``lang`` (two
    letters) prints another edition: it stands for game.yaml's ``lang:`` wherever that is read.
    ``check_counts=False``: a component's found count other than its ``expected`` is left to the
    caller (``pnp manifest`` shows both, which is what a designer wants when they differ)."""
    root = Path(directory)
    game_file = root / "game.yaml"
    if not game_file.is_file():
        raise ContentError([Problem(Location(str(root), 0), "", "not a game directory: no game.yaml here")])
    loader = _Loader(root)
    if _outside(loader, game_file, Location(str(root), 0), "", "game.yaml"):
        raise ContentError(loader.problems)
    game_types = builtin_types("game")
    node = loader.parse(game_file)
    loader.written_lang = _written_lang(node, game_types["game"])
    loader.lang = lang or loader.written_lang  # game.yaml's own texts print in it too
    meta = loader.check(node, game_types["game"], game_types, game_file, "", collect_ids=False) if node else None
    if meta is None:
        raise ContentError(loader.problems or [Problem(Location(str(game_file), 1), "", "game.yaml is empty")])
    if lang:
        meta["lang"] = lang  # the one place the edition is set: every reader of meta["lang"] follows
    loader.lang = meta["lang"]

    schema_file = root / "schema.yaml"
    schema_node = loader.parse(schema_file) if schema_file.is_file() \
        and not _outside(loader, schema_file, Location(str(root), 0), "", "schema.yaml") else None
    if not schema_file.is_file():
        loader.problems.append(Problem(Location(str(root), 0), "", "missing schema.yaml (the game's record types)"))
    types = compile_schema(schema_node, str(schema_file), loader.problems) if schema_node is not None else {}

    # An entry missing a required key (or a missing, empty or misspelt `components:`) was
    # reported by the game.yaml check above; skip it, and a second component of the same id.
    listed = meta.get("components")
    listed = listed if isinstance(listed, list) else []
    repeated = _repeated_component_ids(loader, node, listed)
    components = [_load_component(loader, node, c, i, types) for i, c in enumerate(listed)
                  if _complete(c, game_types["component"]) and i not in repeated]
    components = [c for c in components if c is not None]
    tables = {c.id: c.records for c in components}
    for i, entry in enumerate(meta["data"]):
        if not _complete(entry, game_types["data_file"]):
            continue
        where = item_location(node, ["data", i], str(game_file))
        if entry["id"] in tables:
            loader.problems.append(Problem(where, f"data[{i}].id", f"{entry['id']!r} is already a component id"))
            continue
        tables[entry["id"]] = _load_data(loader, entry, where, f"data[{i}]", types)
        if tables[entry["id"]] is None:
            loader.unreadable.add(entry["id"])

    _check_unique_ids(loader)
    declared = {c.get("id") for c in listed if isinstance(c, dict)}
    _check_refs(loader, tables, unloaded=(declared - set(tables)) | loader.unreadable)
    if check_counts:
        loader.problems.extend(count_problems(components))
    if loader.problems:
        # the run stops here: a misspelt sheet profile, checked only once the game loads, is said now
        # too, not after the designer has fixed everything else
        profile_at = item_location(node, ["print", "profile"], str(game_file))
        loader.problems.extend(_profile_problems(meta, root, profile_at))
        raise ContentError(loader.problems)
    return Game(id=root.resolve().name, root=root, meta=meta, types=types, components=components,
                tables=tables, locations=loader.locations, source=node, untranslated=loader.untranslated,
                languages=loader.languages,
                warnings=untranslated_warnings(loader.untranslated, meta["lang"],
                                               f"--lang {lang}" if lang else f"game.yaml lang: {meta['lang']}")
                + board_back_warnings(listed, components))


def _written_lang(node, spec: Spec) -> str:
    """game.yaml's ``lang:`` as written (else its default), before the file is checked: its title and
    component names are texts in that language as much as the records' (the check says if it is bad)."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "lang" and isinstance(value, yaml.ScalarNode):
                return value.value
    return spec.fields["lang"].default


def written_lang(root) -> str:
    """The ``lang:`` game.yaml is written in (its default when it says none or cannot be read): the
    edition a ``--lang`` other than it makes is another one."""
    try:
        node = parse_file(Path(root) / "game.yaml")
    except ContentError:  # loading the game says what is wrong
        node = None
    return _written_lang(node, builtin_types("game")["game"])


def board_back_warnings(listed: list, components: list) -> list:
    """A board prints one page a copy, front only (``sheets._render_board``): a ``back:`` on it
    would vanish from the print file unsaid (only ``pnp export --png`` draws it)."""
    index = {entry.get("id"): i for i, entry in enumerate(listed) if isinstance(entry, dict)}
    return [Problem(c.key_locations["back"], f"components[{index[c.id]}].back",
                    "a board prints single-sided: the print file and fold sheets have no page for its back"
                    " (only pnp export --png writes it); print the back as a board of its own, or remove 'back:'",
                    "warning")
            for c in components if c.kind == "board" and c.back and c.layout]


def untranslated_warnings(untranslated: list, lang: str, asked: str) -> list:
    """One warning per file whose {ja: ..., en: ...} texts lack the language printed (``asked`` says
    who asked for it: game.yaml or --lang), with how many: they print in another (``text_in``'s
    fallback), which a designer switching ``lang:`` would not expect silently."""
    by_file: dict = {}
    for where, field_path, has in untranslated:
        by_file.setdefault(where.path, []).append((where, field_path, has))
    warnings = []
    for entries in by_file.values():
        where, field_path, has = entries[0]
        shown = text_in({language: language for language in has}, lang)  # the language that prints
        more = f" (and {len(entries) - 1} more text(s) in this file)" if len(entries) > 1 else ""
        warnings.append(Problem(where, field_path, f"no {lang!r} text ({asked}); it prints in {shown!r}{more}",
                                "warning"))
    return warnings


def _complete(entry: dict, spec: Spec) -> bool:
    """Whether ``entry`` has every key its (game.yaml) type requires."""
    return all(name in entry for name, field_spec in spec.fields.items() if field_spec.required)


def leaves_game(path, game_root) -> bool:
    """True for a file named inside the game directory that resolves outside it (a symlink out of
    the game): it is refused like a ``../`` path. A file the path does not name inside the game
    (the shared ``layouts/`` of the project or of the tool) is not the game's and stays allowed."""
    path, root = Path(path), Path(game_root)
    try:
        return path.is_relative_to(root) and not path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symlink loop: not a file inside the game either
        return True


def _outside(loader, path: Path, where: Location, field_path: str, shown: str) -> bool:
    """Record a problem (at ``where``) for a game file that links out of the game directory."""
    if not leaves_game(path, loader.root):
        return False
    loader.problems.append(Problem(where, field_path, f"{shown!r} leaves the game directory (a link to a file outside it)"))
    return True


def _mapping_at(root, line: int):
    """The outermost mapping of a composed file that starts at ``line`` (1-based), or None."""
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen or not node.start_mark.line < line <= node.end_mark.line + 1:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            if node.start_mark.line + 1 == line:
                return node
            children = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            continue
        stack.extend(reversed(children))  # in document order: the first mapping at the line wins
    return None


def _check_where_fields(loader, where: dict, type_name: str, types: dict, location: Location, field_path: str):
    """A `where:` key the record type lacks would keep no record (a typo reads as a wrong count)."""
    fields = types[type_name].fields
    if not fields:  # not a record type: nothing to compare against
        return
    for key in where:
        if key not in fields:
            loader.problems.append(Problem(location, f"{field_path}.{key}",
                                           f"type {type_name!r} has no field {key!r}{did_you_mean(key, fields)}"))


def _repeated_component_ids(loader, game_node, entries: list) -> set[int]:
    """Report each component whose id an earlier one has (layouts, the rulebook and the manifest
    name components by id); the indexes of those repeats."""
    first: dict = {}
    repeated = set()
    for i, entry in enumerate(entries):
        component_id = entry.get("id") if isinstance(entry, dict) else None
        if component_id is None:
            continue
        if component_id in first:
            where = item_location(game_node, ["components", i, "id"], str(loader.root / "game.yaml"))
            loader.problems.append(Problem(where, f"components[{i}].id",
                                           f"duplicate component id {component_id!r} (also components[{first[component_id]}])"))
            repeated.add(i)
        else:
            first[component_id] = i
    return repeated


def _profile_problems(meta, root: Path, where: Location) -> list[Problem]:
    """What is wrong with game.yaml's ``print.profile`` (the check ``pnp validate`` makes of a game that
    loads: profiles.load_profile), for a load that fails anyway."""
    name = (meta.get("print") or {}).get("profile") if isinstance(meta, dict) else None
    if not isinstance(name, str):
        return []
    from ..profiles import load_profile  # profiles reads games: imported when a load has failed anyway

    try:
        load_profile(name, root, None, where)
    except ContentError as exc:
        return exc.problems
    return []


def _resolve_files(loader, spec, where, field_path) -> list[Path]:
    patterns = spec if isinstance(spec, list) else [spec]
    files: list[Path] = []
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern:
            loader.problems.append(Problem(where, field_path, f"expected a file name or glob, got {pattern!r}"))
            continue
        pure = PurePosixPath(pattern)
        if pure.is_absolute() or ".." in pure.parts:
            loader.problems.append(Problem(where, field_path, f"{pattern!r} must be a relative path inside the game directory"))
            continue
        if any(ch in pattern for ch in "*?["):
            matches = sorted(Path(p) for p in globmod.glob(str(loader.root / pattern)))
            if not matches:
                loader.problems.append(Problem(where, field_path, f"no file matches {pattern!r}"))
            files.extend(m for m in matches if not is_editor_lock(m.name)
                         and not _outside(loader, m, where, field_path, m.relative_to(loader.root).as_posix()))
        elif not (loader.root / pattern).is_file():
            loader.problems.append(Problem(where, field_path, f"file {pattern!r} not found"))
        elif not _outside(loader, loader.root / pattern, where, field_path, pattern):
            files.append(loader.root / pattern)
    return files


def _size(loader, value, where, field_path):
    try:
        return parse_size(value)
    except ValueError as exc:
        loader.problems.append(Problem(where, field_path, str(exc)))
        return None


def _records_of(loader, path: Path, type_name: str, types: dict, label: str, sheet: str | None = None):
    """Validate a file of records once per (file, type), even if several components share it
    (a workbook's: per sheet, the one named ``sheet`` if it has one)."""
    key = (str(path), type_name, sheet if path.suffix.lower() == ".xlsx" else None)
    if key not in loader._cache:
        loader._cache[key] = _stream_records(loader, path, type_name, types, label, sheet)
    return loader._cache[key]


def _stream_records(loader, path: Path, type_name: str, types: dict, label: str, sheet: str | None = None):
    """Check a record file item by item (flat memory for large decks); None if unreadable."""
    records = []
    budget = NodeBudget(str(path))  # one alias budget for the whole file
    try:
        if is_tabular(path):
            where, items = open_table(path, _kind_of(type_name, types), sheet,
                                      lambda keys: unknown_field(Spec(type_name), types, keys))
            if where != str(path):  # a workbook's sheet: its rows are `<sheet>[i]`, located as cards.xlsx[arts]:7
                label = where[len(str(path)) + 1:-1]
            path = Path(where)
        else:
            items = parse_items(path, "a record file must be a YAML list of records")
        for i, item in enumerate(items):
            record = loader.check(item, Spec(type_name), types, path, f"{label}[{i}]", budget=budget)
            if isinstance(record, dict):
                records.append(record)
    except ContentError as exc:
        loader.problems.extend(exc.problems)
        return None
    return records


def _kind_of(type_name: str, types: dict):
    """What a spreadsheet column's field is (``tabular``: text-like cells are kept as written)."""
    return lambda keys: field_kind(Spec(type_name), types, keys)


def _load_component(loader, game_node, meta: dict, index: int, types: dict) -> Component | None:
    game_path = str(loader.root / "game.yaml")
    where = item_location(game_node, ["components", index], game_path)

    def at(key):  # problems about one key point at its own line
        return item_location(game_node, ["components", index, key], game_path)

    field_path = f"components[{index}]"
    if meta.get("back") and not meta.get("layout"):
        loader.problems.append(Problem(at("back"), f"{field_path}.back",
                                       "a back needs a front: add 'layout:' (a component without 'layout:' is not printed)"))
    if meta.get("paper_sized") and meta["kind"] != "board":
        loader.problems.append(Problem(at("paper_sized"), f"{field_path}.paper_sized",
                                       f"only a board prints edge to edge, tiled or scaled; a {meta['kind']} is imposed"
                                       " on sheets: remove 'paper_sized:'"))
    if meta["schema"] not in types:
        if types:
            loader.problems.append(Problem(at("schema"), f"{field_path}.schema",
                                           f"no type {meta['schema']!r} in schema.yaml{did_you_mean(meta['schema'], types)}"))
        return None
    size = _size(loader, meta["size"], at("size"), f"{field_path}.size")
    before = len(loader.problems)
    files = _resolve_files(loader, meta["file"], at("file"), f"{field_path}.file")
    countable = len(loader.problems) == before
    records = []
    for path in files:
        loaded = _records_of(loader, path, meta["schema"], types, path.stem, sheet=meta["id"])
        countable = countable and loaded is not None
        if loaded is None:
            loader.unreadable.add(meta["id"])
        records.extend(loaded or [])
    if meta.get("where"):
        _check_where_fields(loader, meta["where"], meta["schema"], types, at("where"), f"{field_path}.where")
        records = [r for r in records if all(r.get(k) == v for k, v in meta["where"].items())]
    if size is None:
        return None
    # A file that did not load, a refused `count:` (`count: -2`) or a refused `expected:` says nothing
    # reliable about the count: don't add a count mismatch to their errors.
    countable = countable and not any(p.field.endswith(".count") for p in loader.problems[before:]) and \
        not any(p.field == f"{field_path}.expected" for p in loader.problems)
    expected = meta.get("expected") if countable else None
    return Component(id=meta["id"], name=meta.get("name") or meta["id"], kind=meta["kind"], files=files,
                     schema=meta["schema"], size_pt=size, shape=meta["shape"], layout=meta.get("layout"),
                     back=meta.get("back"), back_per_card=meta["back_per_card"], expected=expected,
                     records=records, location=at("expected") if "expected" in meta else where, tiling=meta.get("tiling"),
                     paper_sized=meta.get("paper_sized"),
                     key_locations={key: at(key) for key in meta})


def _load_data(loader, entry, where, field_path, types):
    if entry["schema"] not in types:
        if types:
            loader.problems.append(Problem(where, f"{field_path}.schema",
                                           f"no type {entry['schema']!r} in schema.yaml{did_you_mean(entry['schema'], types)}"))
        return None
    files = _resolve_files(loader, entry["file"], where, f"{field_path}.file")
    if not files:
        return None
    node = loader.parse(files[0])
    if node is None:
        loader.problems.append(Problem(Location(str(files[0]), 1), entry["id"], "file is empty"))
        return None
    return loader.check(node, Spec(entry["schema"]), types, files[0], entry["id"])


def _check_unique_ids(loader):
    first: dict = {}
    for value, location, field_path in loader.ids:
        # The same record seen twice (one file loaded by two components) is not a duplicate;
        # a YAML alias of a record (`- *thug`) is: it keeps the anchor's line but not its index.
        if value in first and first[value] != (location, field_path):
            other, other_field = first[value]
            where = f"{other_field} through a YAML alias; use count: for copies" if other == location \
                else f"also at {other.display()}"
            loader.problems.append(Problem(location, field_path, f"duplicate id {value!r} ({where})"))
        first.setdefault(value, (location, field_path))


def _record_ids(table) -> set:
    """Ids a reference may name: records of a list, or of the lists inside a mapping (map.yaml's
    nodes and areas), plus a mapping's own keys."""
    if isinstance(table, list):
        return {r.get("id") for r in table if isinstance(r, dict) and "id" in r}
    if isinstance(table, dict):
        ids = set(table)
        for value in table.values():
            if isinstance(value, list):
                ids |= _record_ids(value)
        return ids
    return set()


def _ref_table(tables, target: str):
    """``to: map.nodes`` names a list inside a data file; ``to: enemies`` a whole table."""
    head, _, rest = target.partition(".")
    table = tables.get(head)
    for key in rest.split(".") if rest else []:
        table = table.get(key) if isinstance(table, dict) else None
    return table


def _check_refs(loader, tables, unloaded=frozenset()):
    """Every reference names a known component or data table and one of its records; references
    into a declared component or table that did not load (a YAML error half-way) are left alone: its
    own problem says why, and "no record 'fox'" of a fox written above the error would only mislead."""
    for use in loader.refs:
        if unloaded.intersection(use.targets):
            continue
        unknown = [t for t in use.targets if _ref_table(tables, t) is None]
        if unknown:
            loader.problems.append(Problem(use.location, use.field,
                                           f"reference to unknown component {unknown[0]!r}{did_you_mean(unknown[0], tables)}"))
            continue
        ids = set().union(*(_record_ids(_ref_table(tables, t)) for t in use.targets))
        if use.value not in ids:
            loader.problems.append(Problem(use.location, use.field,
                                           f"no {'/'.join(use.targets)} record with id {use.value!r}{did_you_mean(use.value, ids)}"))


def count_problems(components) -> list[Problem]:
    """A component whose records yield another count than game.yaml's ``expected``, at that line."""
    return [Problem(c.location, f"{c.id}.expected", f"game.yaml declares {c.expected} but the data yields {c.found}")
            for c in components if c.expected is not None and c.found != c.expected]


def load_checked(path: Path, schema_name: str, type_name: str, root: Path | None = None):
    """Parse and validate one standalone file (a sheet profile, ...) against a built-in schema."""
    loader = _Loader(root or path.parent)
    node = loader.parse(path)
    if node is None and not loader.problems:
        loader.problems.append(Problem(Location(str(path), 1), "", "file is empty"))
    value = loader.check(node, Spec(type_name), builtin_types(schema_name), path, "", collect_ids=False) \
        if node is not None else None
    if loader.problems:
        raise ContentError(loader.problems)
    return value
