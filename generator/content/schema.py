"""Closed, declarative record types (``schema.yaml``) and their validation.

A game declares its record types as data; this module compiles those declarations
(reporting mistakes in them with their lines) and validates YAML nodes against them,
returning plain values and appending located problems. It knows nothing of any game.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml

from ..colours import normal_colour, not_a_colour
from ..errors import Location, Problem
from ..units import parse_length
from .yamlload import NodeBudget, mapping_items, node_location, scalar_value, to_plain

SCALAR_KINDS = {"id", "str", "text", "int", "number", "bool", "enum", "length", "color", "ref", "path", "any"}
CONTAINER_KINDS = {"list", "map", "dict", "tagged"}
_COMMON = {"type", "doc", "default", "optional"}
_OPTIONS = {
    "id": set(), "str": {"min_len", "max_len", "pattern"}, "text": {"min_len", "max_len", "restates"},
    "int": {"min", "max"}, "number": {"min", "max"}, "bool": set(), "enum": {"values"},
    "length": {"min", "max"}, "color": set(), "ref": {"to"}, "path": {"exts"}, "any": set(),
    "list": {"items", "min_len", "max_len", "unique"}, "map": {"fields"}, "dict": {"keys", "values"},
    "tagged": {"tag", "variants"},
}
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
LANG = re.compile(r"[a-z]{2}")  # a language code: game.yaml's lang, a text's keys, --lang (fullmatch)
MISSING = object()


@dataclass
class Spec:
    """A compiled type spec. ``kind`` is a built-in kind or a named type."""

    kind: str
    options: dict = field(default_factory=dict)
    fields: dict = field(default_factory=dict)      # map: name -> Spec
    items: "Spec | None" = None                     # list
    keys: "Spec | None" = None                      # dict
    values: "Spec | None" = None                    # dict
    variants: dict = field(default_factory=dict)    # tagged: name -> Spec(kind="map")
    doc: str = ""
    default: object = MISSING
    optional: bool = False
    location: Location | None = None

    @property
    def required(self) -> bool:
        return self.default is MISSING and not self.optional


def _unknown_option(key, kind: str, allowed) -> str:
    """An option the type does not take; when other types take it (``restates`` on a ``str``), say which."""
    owners = [name for name, options in _OPTIONS.items() if key in options]
    if owners:
        return f"{key!r} is an option of type {' or '.join(owners)}, not of {kind!r}{did_you_mean(key, allowed)}"
    return f"unknown option for type {kind!r}{did_you_mean(key, allowed)}"


def _option_problem(kind: str, key: str, value) -> str:
    """Why the checks cannot use a type's option ('' when they can): a ``max_len: many`` or a
    ``min: [1, 2]`` would crash the comparison with the first record's value."""
    if key in ("min_len", "max_len"):
        # a text's limit may be per language (English needs about twice the characters of Japanese)
        per_lang = kind == "text" and isinstance(value, dict) and value and all(isinstance(k, str) and LANG.fullmatch(k)
                                                                                 for k in value)
        counts = value.values() if per_lang else [value]
        if not all(_is_number(n) and isinstance(n, int) and n >= 0 for n in counts):
            per = " (or, for a text, one per language: {ja: 60, en: 120})" if kind == "text" else ""
            return f"expected a whole number of 0 or more{per}, got {value!r}"
    if key in ("min", "max"):
        if kind == "length" and isinstance(value, str):
            try:
                parse_length(value)
            except ValueError as exc:
                return str(exc)
        elif not _is_number(value):
            return f"expected {'a length' if kind == 'length' else 'a number'}, got {value!r}"
    if key == "pattern":
        try:
            re.compile(value) if isinstance(value, str) else re.compile(None)
        except (re.error, TypeError):
            return f"expected a regular expression, got {value!r}"
    if key in ("to", "exts") and not all(isinstance(n, str) for n in (value if isinstance(value, list) else [value])):
        return f"expected a name or a list of names, got {value!r}"
    if key == "tag" and not isinstance(value, str):
        return f"expected a name, got {value!r}"
    return ""


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def did_you_mean(word, choices, cutoff=0.6) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=cutoff)
    return f" (did you mean '{close[0]}'?)" if close else ""


def file_hint(root: Path, relative: PurePosixPath) -> str:
    """`` (did you mean 'art/fox.jpeg'?)`` for a file not found: the file of its folder written the same
    but for case (found on Windows and macOS, missing on Linux and at a print shop), then one of the
    same name with another extension (``.jpg`` for ``.jpeg``), then a close spelling."""
    folder = root.joinpath(*relative.parent.parts)
    if not folder.is_dir():
        return f" (no folder {relative.parent.as_posix()!r} in {root})" if relative.parent.parts else ""
    names = sorted(entry.name for entry in folder.iterdir() if entry.is_file())
    wanted = relative.name.lower()
    stem = PurePosixPath(wanted).stem
    found = ([n for n in names if n.lower() == wanted] or [n for n in names if PurePosixPath(n.lower()).stem == stem]
             or difflib.get_close_matches(relative.name, names, n=1, cutoff=0.8))
    return f" (did you mean '{(relative.parent / found[0]).as_posix()}'?)" if found else ""


# ---------------------------------------------------------------------------------------------
# Compiling schema.yaml


class SchemaCompiler:
    """Turns type-spec nodes into Specs, reporting mistakes with their lines."""

    def __init__(self, path: str, problems: list, known_types: set[str]):
        self.path, self.problems, self.known_types = path, problems, known_types

    def _problem(self, node, field_path, message):
        self.problems.append(Problem(node_location(self.path, node), field_path, message))

    def compile(self, node: yaml.Node, field_path: str) -> Spec | None:
        if isinstance(node, yaml.ScalarNode):  # shorthand: `life: int`
            return self._named_or_kind(node, scalar_value(node), field_path, {})
        if not isinstance(node, yaml.MappingNode):
            self._problem(node, field_path, "a type spec must be a mapping such as {type: int}")
            return None
        items = {k: (kn, vn) for k, kn, vn in mapping_items(node, self.path, self.problems, field_path)}
        if "fields" in items and "type" not in items:
            kind = "map"
        elif "type" in items:
            kind = scalar_value(items["type"][1]) if isinstance(items["type"][1], yaml.ScalarNode) else None
        else:
            self._problem(node, field_path, "a type spec needs 'type:' (or 'fields:' for a record)")
            return None
        return self._named_or_kind(node, kind, field_path, items)

    def _named_or_kind(self, node, kind, field_path, items) -> Spec | None:
        if kind not in SCALAR_KINDS | CONTAINER_KINDS and kind not in self.known_types:
            known = sorted(SCALAR_KINDS | CONTAINER_KINDS | self.known_types)
            self._problem(node, f"{field_path}.type", f"unknown type {kind!r}{did_you_mean(kind, known)}")
            return None
        spec = Spec(kind=kind, location=node_location(self.path, node))
        allowed = _COMMON | _OPTIONS.get(kind, set())
        for key, (key_node, value_node) in items.items():
            sub = f"{field_path}.{key}"
            if key not in allowed:
                self._problem(key_node, sub, _unknown_option(key, kind, allowed))
                continue
            if key == "type":
                continue
            if key == "doc":
                spec.doc = str(scalar_value(value_node)) if isinstance(value_node, yaml.ScalarNode) else ""
            elif key == "default":
                spec.default = to_plain(value_node, self.path, self.problems, NodeBudget(self.path))
            elif key == "optional":
                spec.optional = bool(scalar_value(value_node)) if isinstance(value_node, yaml.ScalarNode) else False
            elif key == "fields":
                spec.fields = self._fields(value_node, sub)
            elif key == "items" or (key in ("keys", "values") and kind == "dict"):
                setattr(spec, key, self.compile(value_node, sub))
            elif key == "variants":
                spec.variants = self._variants(value_node, sub)
            else:
                value = to_plain(value_node, self.path, self.problems, NodeBudget(self.path))
                problem = _option_problem(kind, key, value)
                if problem:
                    self._problem(value_node, sub, problem)
                else:
                    spec.options[key] = value
        self._check_required_options(node, spec, field_path)
        return spec

    def _fields(self, node, field_path) -> dict:
        if not isinstance(node, yaml.MappingNode):
            self._problem(node, field_path, "'fields' must be a mapping of field name to type spec")
            return {}
        result = {}
        for key, _kn, value_node in mapping_items(node, self.path, self.problems, field_path):
            spec = self.compile(value_node, f"{field_path}.{key}")
            # A broken spec is reported here; keep the field (untyped, optional) so that records
            # using it do not add an "unknown field" for every card.
            result[str(key)] = spec if spec is not None else Spec(kind="any", optional=True,
                                                                   location=node_location(self.path, value_node))
        for key, spec in result.items():
            self._check_restates(key, spec, result, f"{field_path}.{key}")
        return result

    def _check_restates(self, key: str, spec: Spec, siblings: dict, field_path: str) -> None:
        """``restates: [effect, sub]`` on a text field names fields of the same record: what the
        printed text says in words (``generator/export/restates.py`` warns when one side changes
        alone)."""
        named = spec.options.get("restates")
        if named is None:
            return
        where = spec.location or Location(self.path)
        if not (isinstance(named, list) and named and all(isinstance(n, str) for n in named)):
            self.problems.append(Problem(where, f"{field_path}.restates", "expected a list of field names of this record"))
            spec.options.pop("restates")
            return
        others = [n for n in siblings if n != key]
        for name in named:
            if name == key:
                self.problems.append(Problem(where, f"{field_path}.restates", f"{name!r} is this text itself:"
                                             " name the fields it puts into words"))
            elif name not in others:
                self.problems.append(Problem(where, f"{field_path}.restates",
                                             f"no field {name!r} in this record{did_you_mean(name, others)}"))
        spec.options["restates"] = [n for n in named if n in others]

    def _variants(self, node, field_path) -> dict:
        if not isinstance(node, yaml.MappingNode):
            self._problem(node, field_path, "'variants' must map each tag value to {doc, fields}")
            return {}
        result = {}
        for key, _kn, value_node in mapping_items(node, self.path, self.problems, field_path):
            sub = f"{field_path}.{key}"
            if isinstance(value_node, yaml.ScalarNode) and scalar_value(value_node) is None:
                result[str(key)] = Spec(kind="map", location=node_location(self.path, value_node))
                continue
            spec = self.compile(value_node, sub) if isinstance(value_node, yaml.MappingNode) and (
                "fields" in {k.value for k, _ in value_node.value}) else None
            if spec is None and isinstance(value_node, yaml.MappingNode):
                spec = Spec(kind="map", location=node_location(self.path, value_node))
                for k, kn, vn in mapping_items(value_node, self.path, self.problems, sub):
                    if k == "doc":
                        spec.doc = str(scalar_value(vn))
                    else:
                        self._problem(kn, f"{sub}.{k}", "a variant takes only 'doc' and 'fields'")
            if spec is not None:
                result[str(key)] = spec
        return result

    def _check_required_options(self, node, spec, field_path):
        need = {"enum": "values", "ref": "to", "list": "items", "tagged": "variants"}
        if spec.kind in need and need[spec.kind] not in spec.options and not (
                spec.kind == "list" and spec.items) and not (spec.kind == "tagged" and spec.variants):
            self._problem(node, field_path, f"type {spec.kind!r} needs '{need[spec.kind]}:'")
        if spec.kind == "tagged":
            spec.options.setdefault("tag", "type")
        if spec.kind == "dict" and (spec.keys is None or spec.values is None):
            self._problem(node, field_path, "type 'dict' needs 'keys:' and 'values:'")
        if spec.kind == "enum" and not isinstance(spec.options.get("values"), list):
            self._problem(node, field_path, "'values' must be a list")


def compile_schema(node: yaml.Node | None, path: str, problems: list) -> dict[str, Spec]:
    """``schema.yaml`` → {type name: Spec}."""
    if node is None or not isinstance(node, yaml.MappingNode):
        problems.append(Problem(Location(path, 1), "", "schema must be a mapping with 'types:'"))
        return {}
    top = {k: (kn, vn) for k, kn, vn in mapping_items(node, path, problems, "")}
    for key, (key_node, _) in top.items():
        if key != "types":
            problems.append(Problem(node_location(path, key_node), str(key), f"unknown key{did_you_mean(key, ['types'])}"))
    if "types" not in top or not isinstance(top["types"][1], yaml.MappingNode):
        problems.append(Problem(node_location(path, node), "types", "missing 'types:' mapping"))
        return {}
    type_nodes = mapping_items(top["types"][1], path, problems, "types")
    compiler = SchemaCompiler(path, problems, {str(k) for k, _, _ in type_nodes})
    types = {}
    for name, _kn, value_node in type_nodes:
        spec = compiler.compile(value_node, f"types.{name}")
        if spec is not None:
            types[str(name)] = spec
    return types


# ---------------------------------------------------------------------------------------------
# Validating values


@dataclass
class RefUse:
    targets: tuple[str, ...]
    value: str
    location: Location
    field: str


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class Context:
    """What validation needs besides the node: types, where we are, and what we collect."""

    path: str
    types: dict
    problems: list
    budget: NodeBudget
    game_root: Path | None = None
    refs: list = field(default_factory=list)
    ids: list = field(default_factory=list)     # (id, Location, field)
    locations: dict = field(default_factory=dict)  # id(plain container) -> Location
    lang: str | None = None                        # the game's language: texts without it are noted
    written_lang: str | None = None                # game.yaml's own lang: what plain strings are written in
    untranslated: list = field(default_factory=list)  # (Location, field path, the languages it has)
    languages: Counter = field(default_factory=Counter)  # texts by their languages: (ja, en), () if a plain string

    def problem(self, node, field_path, message):
        self.problems.append(Problem(node_location(self.path, node), field_path, message))


def _describe(node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return repr(scalar_value(node))
    return "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"


def validate(node: yaml.Node, spec: Spec, ctx: Context, field_path: str):
    """Validate ``node`` against ``spec``; return the plain value (None when invalid)."""
    ctx.budget.spend(node)
    kind = spec.kind
    if kind in ctx.types:
        named = ctx.types[kind]
        return validate(node, named, ctx, field_path)
    checker = _CHECKERS[kind]
    return checker(node, spec, ctx, field_path)


def _scalar(node, ctx, field_path, expected):
    if not isinstance(node, yaml.ScalarNode):
        ctx.problem(node, field_path, f"expected {expected}, got {_describe(node)}")
        return MISSING
    return scalar_value(node)


def _check_range(value, spec, ctx, node, field_path, shown=None):
    lo, hi = spec.options.get("min"), spec.options.get("max")
    if isinstance(lo, str):
        lo = parse_length(lo)
    if isinstance(hi, str):
        hi = parse_length(hi)
    shown = shown if shown is not None else value
    if lo is not None and value < lo:
        ctx.problem(node, field_path, f"{shown} is below the minimum {spec.options['min']}")
    elif hi is not None and value > hi:
        ctx.problem(node, field_path, f"{shown} is above the maximum {spec.options['max']}")


def _numeric(kinds: tuple, label: str):
    """A checker for integers (``kinds=(int,)``) or any number; booleans are refused."""
    def check(node, spec, ctx, field_path):
        value = _scalar(node, ctx, field_path, label)
        if value is MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, kinds):
            ctx.problem(node, field_path, f"expected {label}, got {value!r}")
            return None
        _check_range(value, spec, ctx, node, field_path)
        return value
    return check


_check_int = _numeric((int,), "an integer")
_check_number = _numeric((int, float), "a number")


def _check_bool(node, spec, ctx, field_path):
    value = _scalar(node, ctx, field_path, "true or false")
    if value is MISSING:
        return None
    if not isinstance(value, bool):
        ctx.problem(node, field_path, f"expected true or false, got {value!r}")
        return None
    return value


def _check_len(value, spec, ctx, node, field_path, what="characters", lang=None, printed=False):
    """``printed``: a card text's length as it prints (``**`` and escapes are not characters, an icon
    is one), so that making a word bold or naming an icon does not push a text over its limit."""
    lo, hi = (_limit_in(spec.options.get(key), lang) for key in ("min_len", "max_len"))
    if lo is None and hi is None:
        return
    n = printed_length(value) if printed else len(value)
    if lo is not None and n < lo:
        ctx.problem(node, field_path, f"has {n} {what}; at least {lo} required")
    if hi is not None and n > hi:
        ctx.problem(node, field_path, f"has {n} {what}; at most {hi} allowed")


def printed_length(value: str) -> int:
    """The characters a card text prints: its markup's text, an inline icon counted as one, a line
    break as none."""
    from ..text.markup import Icon, Text, parse_markup

    return sum(len(t.text) if isinstance(t, Text) else 1 if isinstance(t, Icon) else 0 for t in parse_markup(value))


def text_in(value, lang: str = "ja", fallback: str = "ja"):
    """The string of a text field in ``lang`` (falling back), or the value unchanged."""
    if isinstance(value, dict):
        for key in (lang, fallback, *value):
            if key in value:
                return value[key]
        return ""
    return value


def _limit_in(limit, lang):
    """A length limit for a text in ``lang``: a per-language limit picks as a text does (that
    language's, else ja's, else the first)."""
    return text_in(limit, lang or "ja")


def _check_str(node, spec, ctx, field_path, lang=None, printed=False):
    value = _scalar(node, ctx, field_path, "a string")
    if value is MISSING:
        return None
    if not isinstance(value, str):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(node.value)  # `version: 1.0` is meant as text
        else:
            ctx.problem(node, field_path, f"expected a string, got {value!r}")
            return None
    _check_len(value, spec, ctx, node, field_path, lang=lang, printed=printed)
    pattern = spec.options.get("pattern")
    if pattern and not re.fullmatch(pattern, value):  # the spec's doc says it in words
        ctx.problem(node, field_path, f"{value!r} does not match the pattern {pattern}"
                                      + (f" ({spec.doc})" if spec.doc else ""))
    return value


def _check_text(node, spec, ctx, field_path):
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key, key_node, value_node in mapping_items(node, ctx.path, ctx.problems, field_path):
            sub = f"{field_path}.{key}"
            if not isinstance(key, str) or not LANG.fullmatch(key):
                ctx.problem(key_node, sub, "text languages are two-letter codes such as 'ja' or 'en'")
                continue
            value = _check_str(value_node, Spec("str", options=spec.options), ctx, sub, lang=key, printed=True)
            if value is not None:
                result[key] = value
        if ctx.lang and result and ctx.lang not in result:
            ctx.untranslated.append((node_location(ctx.path, node), field_path, tuple(result)))
        if result:
            ctx.languages[tuple(sorted(result))] += 1
        return result
    value = _scalar(node, ctx, field_path, "text (a string or {ja: ..., en: ...})")
    if value is MISSING:
        return None
    if value is None or isinstance(value, (bool, list, dict)):
        ctx.problem(node, field_path, f"expected text (a string or {{ja: ..., en: ...}}), got {value!r}")
        return None
    value = value if isinstance(value, str) else str(node.value)
    _check_len(value, spec, ctx, node, field_path, lang=ctx.written_lang, printed=True)
    ctx.languages[()] += 1
    if ctx.lang and ctx.written_lang and ctx.lang != ctx.written_lang and has_words_of(value, ctx.written_lang):
        # another edition prints it as written: right, but not in silence
        ctx.untranslated.append((node_location(ctx.path, node), field_path, (ctx.written_lang,)))
    return value


_CJK_LANGS = frozenset({"ja", "zh", "ko"})


def has_words_of(text: str, lang: str) -> bool:
    """Whether a plain string reads as words of ``lang``, the language it was written in: a letter of
    any script, for a game written in Japanese, Chinese or Korean a wide one (kana, kanji, hangul), so
    that ``AP+2``, ``3/4`` or ``—`` in such a game count as no language's."""
    if lang in _CJK_LANGS:
        return any(ch.isalpha() and unicodedata.east_asian_width(ch) in ("W", "F") for ch in text)
    return any(ch.isalpha() for ch in text)


def _check_id(node, spec, ctx, field_path):
    value = _scalar(node, ctx, field_path, "an id")
    if value is MISSING:
        return None
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        ctx.problem(node, field_path, f"{value!r} is not a valid id (lowercase letters, digits, '_' and '-')")
        return None
    ctx.ids.append((value, node_location(ctx.path, node), field_path))
    return value


def _check_enum(node, spec, ctx, field_path):
    values = spec.options.get("values") or []
    value = _scalar(node, ctx, field_path, f"one of {values}")
    if value is MISSING:
        return None
    if value not in values:
        ctx.problem(node, field_path, f"{value!r} is not one of {', '.join(map(str, values))}{did_you_mean(value, values)}")
        return None
    return value


def _check_length(node, spec, ctx, field_path):
    value = _scalar(node, ctx, field_path, "a length")
    if value is MISSING:
        return None
    try:
        points = parse_length(value)
    except ValueError as exc:
        ctx.problem(node, field_path, str(exc))
        return None
    _check_range(points, spec, ctx, node, field_path, shown=value)
    return points


def _check_color(node, spec, ctx, field_path):
    value = _scalar(node, ctx, field_path, "a colour")
    if value is MISSING:
        return None
    try:
        return normal_colour(value) if isinstance(value, str) else normal_colour("")
    except ValueError:
        ctx.problem(node, field_path, not_a_colour(value))
        return None


def _check_ref(node, spec, ctx, field_path):
    value = _scalar(node, ctx, field_path, "an id")
    if value is MISSING:
        return None
    if value is None:
        return None if spec.optional or spec.default is None else value
    targets = spec.options.get("to")
    targets = tuple(targets) if isinstance(targets, list) else (targets,)
    ctx.refs.append(RefUse(targets, value, node_location(ctx.path, node), field_path))
    return value


def _check_path(node, spec, ctx, field_path):
    value = _scalar(node, ctx, field_path, "a file path")
    if value is MISSING or value is None:
        return None
    if not isinstance(value, str):
        ctx.problem(node, field_path, f"expected a file path, got {value!r}")
        return None
    pure = PurePosixPath(value.replace("\\", "/"))
    if pure.is_absolute() or ".." in pure.parts or re.match(r"^[A-Za-z]:", value):
        ctx.problem(node, field_path, f"{value!r} must be a relative path inside the game directory")
        return None
    exts = spec.options.get("exts")
    if exts and pure.suffix.lower().lstrip(".") not in exts:
        listed = " or ".join(filter(None, [", ".join("." + e for e in exts[:-1]), "." + exts[-1]]))
        ctx.problem(node, field_path, f"{value!r} is not a {listed} file: name one by its path in the game directory")
        return None
    if ctx.game_root is not None:
        full = (ctx.game_root / pure).resolve()
        if not full.is_relative_to(ctx.game_root.resolve()):
            ctx.problem(node, field_path, f"{value!r} leaves the game directory")
            return None
        if not full.is_file():
            hint = file_hint(ctx.game_root, pure)
            ctx.problem(node, field_path, f"file {value!r} not found in {ctx.game_root}{hint}")
            return None
    return str(pure)


def _check_any(node, spec, ctx, field_path):
    return to_plain(node, ctx.path, ctx.problems, ctx.budget, field_path)


def _check_list(node, spec, ctx, field_path):
    if not isinstance(node, yaml.SequenceNode):
        if isinstance(node, yaml.ScalarNode) and scalar_value(node) is None:
            ctx.problem(node, field_path, "expected a list, got nothing (write [] for an empty list)")
        else:
            ctx.problem(node, field_path, f"expected a list, got {_describe(node)}")
        return None
    result = []
    for i, item in enumerate(node.value):
        value = validate(item, spec.items, ctx, f"{field_path}[{i}]") if spec.items else to_plain(
            item, ctx.path, ctx.problems, ctx.budget)
        result.append(value)
    _check_len(result, spec, ctx, node, field_path, what="items")
    if spec.options.get("unique"):
        seen = set()
        for i, value in enumerate(result):
            key = repr(value)
            if key in seen:
                ctx.problem(node.value[i], f"{field_path}[{i}]", f"{value!r} is listed twice")
            seen.add(key)
    return result


def _check_map(node, spec, ctx, field_path, extra_allowed=()):
    if not isinstance(node, yaml.MappingNode):
        ctx.problem(node, field_path, f"expected a mapping, got {_describe(node)}")
        return None
    result = {}
    allowed = list(spec.fields) + list(extra_allowed)
    for key, key_node, value_node in mapping_items(node, ctx.path, ctx.problems, field_path):
        sub = f"{field_path}.{key}" if field_path else str(key)
        if key in extra_allowed:
            continue
        if key not in spec.fields:
            ctx.problem(key_node, sub, f"unknown field{did_you_mean(key, allowed) or _declared_where(spec)}")
            continue
        result[key] = validate(value_node, spec.fields[key], ctx, sub)
    for name, field_spec in spec.fields.items():
        if name in result or name in extra_allowed:
            continue
        if field_spec.required:
            ctx.problem(node, f"{field_path}.{name}" if field_path else name, "missing required field")
        else:
            result[name] = None if field_spec.default is MISSING else _default(field_spec, ctx.types)
    ctx.locations[id(result)] = node_location(ctx.path, node)
    return result


def _declared_where(spec: Spec) -> str:
    """For a field no close name explains: where the game's own record type is, to declare it there
    (a newcomer adding a field to the cards edits schema.yaml first)."""
    if spec.location is None or Path(spec.location.path).name != "schema.yaml":
        return ""
    return (f" (not among the fields declared at {spec.location.display()}: {', '.join(spec.fields)}; "
            "add it there to give the records one, docs/content-format.md)")


def resolved(spec: Spec | None, types: dict) -> Spec | None:
    """A named type's own spec (``{type: special}`` -> the ``special`` record), else ``spec``."""
    seen = 0
    while spec is not None and spec.kind in types and seen < 32:  # (a type naming itself is no schema)
        spec, seen = types[spec.kind], seen + 1
    return spec


def field_kind(spec: Spec, types: dict, keys) -> str | None:
    """The kind of the field ``keys`` leads to from a record spec (``("sub", "guard")`` -> ``"int"``);
    a key under a text (``("name", "en")``) is text; None for a field the type does not have."""
    for key in keys:
        spec = resolved(spec, types)
        if spec is None:
            return None
        if spec.kind == "text":
            return "text"
        spec = _member(spec, key)
    spec = resolved(spec, types)
    return spec.kind if spec is not None else None


#: ``field_kind(spec, types, (*keys, DICT_KEY))``: the kind of the keys of the open dict at ``keys``
DICT_KEY = object()
#: ``field_kind(spec, types, (*keys, LIST_ITEM))``: the kind of the items of the list at ``keys``
LIST_ITEM = object()


def _member(spec: Spec, key) -> Spec | None:
    """The spec of ``key`` inside a map, a list (its items, for ``LIST_ITEM``), an open dict (its values,
    or its keys for ``DICT_KEY``) or a tagged union (its tag, or the field of the first variant that has
    it: a spreadsheet column serves every row, whatever its tag)."""
    if spec.kind == "dict":
        return spec.keys if key is DICT_KEY else spec.values
    if spec.kind == "list":
        return spec.items if key is LIST_ITEM else None
    if spec.kind == "tagged":
        if key == spec.options.get("tag", "type"):
            return Spec("str")
        return next((v.fields[key] for v in spec.variants.values() if key in v.fields), None)
    return spec.fields.get(key)


def unknown_field(spec: Spec, types: dict, keys) -> str | None:
    """Why ``keys`` (a spreadsheet header, ``("sub", "gaurd")``) names no field of a record spec, with a
    did-you-mean; None when it does, or when only the record check can tell (an open dict, a text)."""
    for depth, key in enumerate(keys):
        spec = resolved(spec, types)
        if spec is None or spec.kind not in ("map", "tagged"):
            return None
        member = _member(spec, key)
        if member is None:
            names = spec.fields if spec.kind == "map" else \
                [spec.options.get("tag", "type"), *(name for v in spec.variants.values() for name in v.fields)]
            return f"no field of {'.'.join(keys[:depth]) if depth else 'the record'}{did_you_mean(key, names)}"
        spec = member
    return None


def _default(spec: Spec, types: dict):
    """A default as the field's own values look after checking (lengths in points)."""
    value = _copy(spec.default)
    while spec.kind in types:
        spec = types[spec.kind]
    if spec.kind == "length" and isinstance(value, str):
        return parse_length(value)
    if spec.kind == "list" and spec.items is not None and isinstance(value, list):
        return [_default(Spec(spec.items.kind, default=v), types) if spec.items.kind in ("length",) or
                spec.items.kind in types else v for v in value]
    return value


def _copy(value):
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _check_dict(node, spec, ctx, field_path):
    if not isinstance(node, yaml.MappingNode):
        ctx.problem(node, field_path, f"expected a mapping, got {_describe(node)}")
        return None
    result = {}
    for key, key_node, value_node in mapping_items(node, ctx.path, ctx.problems, field_path):
        sub = f"{field_path}.{key}"
        key_value = validate(key_node, spec.keys, ctx, f"{sub} (key)")
        result[key if key_value is None else key_value] = validate(value_node, spec.values, ctx, sub)
    return result


def _check_tagged(node, spec, ctx, field_path):
    tag = spec.options.get("tag", "type")
    if not isinstance(node, yaml.MappingNode):
        ctx.problem(node, field_path, f"expected a mapping with '{tag}:', got {_describe(node)}")
        return None
    tag_node = next((vn for kn, vn in node.value if isinstance(kn, yaml.ScalarNode) and kn.value == tag), None)
    if tag_node is None:
        ctx.problem(node, f"{field_path}.{tag}", f"missing '{tag}:' (one of {', '.join(spec.variants)})")
        return None
    name = scalar_value(tag_node) if isinstance(tag_node, yaml.ScalarNode) else None
    if name not in spec.variants:
        ctx.problem(tag_node, f"{field_path}.{tag}",
                    f"unknown {tag} {name!r}{did_you_mean(name, spec.variants)}; known: {', '.join(spec.variants)}")
        return None
    result = _check_map(node, spec.variants[name], ctx, field_path, extra_allowed=(tag,))
    if result is not None:
        result = {tag: name, **result}
        ctx.locations[id(result)] = node_location(ctx.path, node)
    return result


_CHECKERS = {
    "id": _check_id, "str": _check_str, "text": _check_text, "int": _check_int, "number": _check_number,
    "bool": _check_bool, "enum": _check_enum, "length": _check_length, "color": _check_color,
    "ref": _check_ref, "path": _check_path, "any": _check_any, "list": _check_list, "map": _check_map,
    "dict": _check_dict, "tagged": _check_tagged,
}
