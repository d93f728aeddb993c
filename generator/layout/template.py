"""Layout files: located loading, ``extends`` (one or several parents) and box merging.

A child's top-level keys override its parents'; ``vars`` merge by name; ``boxes`` merge
by ``id`` (a child box with a parent's id updates it in place, new boxes are appended,
``remove: [ids]`` drops inherited ones). Parents are applied left to right.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import ContentError, Location, Problem
from ..content.game import leaves_game, text_in, untranslated_warnings
from ..content.schema import LANG, did_you_mean, has_words_of
from ..content.yamlload import NodeBudget, parse_file, to_located

TOP_KEYS = {"extends", "description", "background", "vars", "boxes", "remove", "__line__"}
EVERY_BOX_KEYS = ("id", "type", "x", "y", "w", "h", "dx", "dy", "rotate", "opacity", "when", "repeat", "filter",
                  "colour_code")  # in the order a message lists them
COMMON_BOX_KEYS = {*EVERY_BOX_KEYS, "__line__"}
SHAPE_KEYS = {"fill", "stroke", "stroke_width", "dash"}
BOX_KEYS = {
    "rect": SHAPE_KEYS | {"r"},
    "roundrect": SHAPE_KEYS | {"r"},
    "ellipse": SHAPE_KEYS,
    "line": {"x2", "y2", "stroke", "stroke_width", "dash", "cap"},
    "polygon": SHAPE_KEYS | {"points"},
    "path": SHAPE_KEYS | {"d", "viewbox"},
    "image": {"src", "fit"},
    "icon": {"name", "color"},
    "text": {"text", "font", "size", "min_size", "leading", "align", "valign", "color", "icon_scale",
             "direction"},
    "group": {"boxes", "clip"},
}


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class Layout:
    name: str
    path: Path
    background: object = None
    vars: dict = field(default_factory=dict)
    boxes: list = field(default_factory=list)
    files: tuple = ()  # this file and every ancestor (for change detection)


#: every key some box takes: an override (whose type is its parent's) may use any of them
ANY_BOX_KEYS = COMMON_BOX_KEYS.union(*BOX_KEYS.values())


def layout_search_path(game_root: Path) -> list[Path]:
    """A game's own layouts/ first, then the project's (cwd), then pnp's own: the repository's
    ``layouts/`` in a checkout (or an editable install), the copy of its profiles an installed
    wheel carries as ``generator/builtin_layouts`` (pyproject.toml) otherwise."""
    package = Path(__file__).resolve().parents[1]
    checkout = package.parent / "layouts"
    paths = [game_root / "layouts", Path("layouts"), checkout if checkout.is_dir() else package / "builtin_layouts"]
    unique = []
    for p in paths:
        if p.is_dir() and p.resolve() not in [u.resolve() for u in unique]:
            unique.append(p)
    return unique


def find_layout_file(name: str, search: list[Path]) -> Path | None:
    if not name or ".." in name.split("/") or name.startswith("/"):
        return None
    for root in search:
        candidate = root / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


class LayoutLoader:
    """Loads layouts by name with caching; problems are collected, not raised one by one."""

    def __init__(self, search: list[Path], game_root: Path | None = None, lang: str = "ja",
                 written_lang: str | None = None):
        self.search = search
        self.game_root = game_root  # a layout of the game's own layouts/ must stay inside the game
        self.lang = lang  # the edition's: picks the values written per language
        self.written_lang = written_lang or lang  # game.yaml's: what a layout's plain words are written in
        self._raw: dict = {}
        self._resolved: dict = {}
        self._untranslated: list = []  # (Location, field, languages) of texts read since untranslated_warnings

    def untranslated_warnings(self) -> list:
        """One warning per layout file read since the last call whose text boxes print words of the
        game's own language in another edition (a plain string, or a per-language value without it)."""
        found, self._untranslated = self._untranslated, []
        return untranslated_warnings(found, self.lang, f"--lang {self.lang}")

    def load(self, name: str, referenced_at: Location | None = None, field: str = "layout") -> Layout:
        if name not in self._resolved:
            problems: list[Problem] = []
            resolved = self._resolve(name, [], problems, referenced_at, field)
            self._resolved[name] = ContentError(problems) if problems else in_language(resolved, self.lang)
        result = self._resolved[name]
        if isinstance(result, ContentError):
            raise result
        return result

    def _raw_file(self, name, problems, referenced_at, field):
        path = find_layout_file(name, self.search)
        if path is None:
            where = referenced_at or Location("layouts", 0)
            known = sorted({p.relative_to(root).with_suffix("").as_posix() for root in self.search
                            for p in root.rglob("*.yaml") if "profiles" not in p.parts and p.name != "icons.yaml"})
            hint = _missing_hint(name, known, back=field.endswith(".back"))
            problems.append(Problem(where, field, f"layout {name!r} not found{hint}; searched "
                                                  f"{describe_search_path(self.search, self.game_root)}"))
            return None, None
        if self.game_root is not None and leaves_game(path, self.game_root):
            problems.append(Problem(referenced_at or Location(str(self.game_root), 0), field,
                                    f"layout {name!r} ({path.relative_to(self.game_root).as_posix()}) leaves the game "
                                    "directory (a link to a file outside it)"))
            return None, None
        if path not in self._raw:
            try:
                node = parse_file(path)
                data = to_located(node, str(path), problems, NodeBudget(str(path))) if node is not None else {}
            except ContentError as exc:
                problems.extend(exc.problems)
                data = None
            if data is not None and not isinstance(data, dict):
                problems.append(Problem(Location(str(path), 1), "", "a layout must be a mapping with 'boxes:'"))
                data = None
            self._raw[path] = data
            if data is not None and self.lang != self.written_lang:
                self._untranslated.extend(untranslated_texts(data.get("boxes"), path, self.lang, self.written_lang))
        return path, self._raw[path]

    def _resolve(self, name, chain, problems, referenced_at, field):
        if name in chain:
            cycle = " -> ".join(chain + [name])
            problems.append(Problem(referenced_at or Location("layouts", 0), "extends", f"extends cycle: {cycle}"))
            return None
        path, raw = self._raw_file(name, problems, referenced_at, field)
        if raw is None:
            return None
        self._check_keys(raw, path, problems)
        parents = raw.get("extends") or []
        parents = parents if isinstance(parents, list) else [parents]
        merged = Layout(name=name, path=path)
        files = [path]
        for parent in parents:
            where = Location(str(path), getattr(parent, "location", Location(str(path), 1)).line)
            base = self._resolve(str(parent), chain + [name], problems, where, "extends")
            if base is None:
                continue
            files.extend(base.files)
            merged.background = base.background
            merged.vars.update(base.vars)
            merged.boxes = _merge_boxes(merged.boxes, base.boxes)
        if "background" in raw:
            merged.background = raw["background"]
        vars_ = raw.get("vars") or {}
        if not isinstance(vars_, dict):
            problems.append(Problem(Location(str(path), raw["__line__"]), "vars", "expected a mapping of name: value"))
        else:
            for key, value in vars_.items():
                _check_per_language(value, Location(str(path), raw["__line__"]), f"vars.{key}", problems)
            merged.vars.update({k: v for k, v in vars_.items() if k != "__line__"})
        removed = raw.get("remove") or []
        merged.boxes = [b for b in merged.boxes if b.get("id") not in removed]
        _check_overrides(raw.get("boxes") or [], merged.boxes, path, problems)
        merged.boxes = _merge_boxes(merged.boxes, raw.get("boxes") or [])
        merged.files = tuple(dict.fromkeys(files))
        return merged

    def _check_keys(self, raw, path, problems):
        for key in raw:
            if key not in TOP_KEYS:
                problems.append(Problem(getattr(key, "location", Location(str(path), raw["__line__"])), str(key),
                                        f"unknown layout key{_hint(key, TOP_KEYS - {'__line__'})}"))
        boxes = raw.get("boxes", [])
        if not isinstance(boxes, list):
            problems.append(Problem(Location(str(path), raw["__line__"]), "boxes", "expected a list of boxes"))
            raw["boxes"] = []
            return
        _check_boxes(boxes, path, problems, "boxes")


def is_back_layout(name: str) -> bool:
    """A back layout is named ``back`` or ``<something>-back`` (``tiny/back``, ``valheim/enemy-back``),
    or is a base of backs (``fatal-fight/back-base``)."""
    return "back" in name.rsplit("/", 1)[-1].replace("_", "-").split("-")


def _missing_hint(name: str, known: list[str], back: bool) -> str:
    """The did-you-mean of a layout that is not found: for a component's ``back``, only back
    layouts (the front's own name is never the answer), and when there is none close, the back
    layouts of the same folder, or that it has none; for anything else, any layout but backs."""
    choices = [k for k in known if is_back_layout(k) == back]
    if close := did_you_mean(name, choices):
        return close
    if not back:
        return ""
    folder = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
    mine = [k for k in choices if k.startswith(folder) and "/" not in k[len(folder):]]
    if mine:
        return f" (back layouts in {folder or 'the top folder'}: {', '.join(mine)})"
    return f" (there is no back layout in {folder or 'the top folder'} yet: name one back or <type>-back)"


def describe_search_path(search: list[Path], game_root: Path | None = None) -> str:
    """The layout folders, each with whose it is: ``content/tiny/layouts (the game's), layouts
    (the project's), /opt/pnp/layouts (built in)``; when the project (the working directory) has
    no ./layouts, it says so, since that is where a project's own layouts would go."""
    project = Path("layouts").resolve()
    game = (Path(game_root) / "layouts").resolve() if game_root is not None else None
    parts, has_project = [], False
    for folder in search:
        where = folder.resolve()
        if where == game:
            parts.append(f"{folder} (the game's)")
        elif where == project:
            has_project = True
            parts.append(f"{folder} (the project's)" if str(folder) == "layouts" else f"{folder} (the project's: ./layouts)")
        else:
            parts.append(f"{folder} (built in)")
    text = ", ".join(parts)
    if not has_project:
        text += f"; the project's folder, ./layouts in {Path.cwd()}, does not exist"
    return text


def _hint(word, choices):
    return did_you_mean(word, sorted(choices))  # sorted: the same hint whatever the set's order


def _check_boxes(boxes, path, problems, field):
    for i, box in enumerate(boxes):
        where_field = f"{field}[{i}]"
        if not isinstance(box, dict):
            problems.append(Problem(Location(str(path), 0), where_field, "a box must be a mapping"))
            continue
        where = Location(str(path), box.get("__line__", 0))
        if "id" in box and not isinstance(box["id"], str):
            problems.append(Problem(where, f"{where_field}.id", f"expected a name, got {box['id']!r}"))
            del box["id"]  # (ids index the boxes a child overrides: a list there cannot)
        kind = box.get("type")
        if kind is None and "id" in box:
            # an override of an inherited box: its type is the parent's, so only a key no box takes is wrong
            _check_box_keys(box, ANY_BOX_KEYS, "box", where, where_field, problems)
            continue
        if not isinstance(kind, str) or kind not in BOX_KEYS:
            shown = f"{kind!r}{_hint(kind, BOX_KEYS)}" if not isinstance(kind, (list, dict)) else f"a {type(kind).__name__}"
            problems.append(Problem(where, f"{where_field}.type",
                                    f"unknown box type {shown}; one of {', '.join(BOX_KEYS)}"))
            continue
        _check_box_keys(box, COMMON_BOX_KEYS | BOX_KEYS[kind], f"{kind} box", where, where_field, problems)
        if kind == "group":
            _check_boxes(box.get("boxes") or [], path, problems, f"{where_field}.boxes")


def _check_box_keys(box: dict, allowed: set, what: str, where: Location, where_field: str, problems: list,
                    list_keys: bool = True) -> None:
    for key in box:
        if key not in allowed:
            hint = _hint(key, allowed - {"__line__"}) or (_keys_taken(allowed, what) if list_keys else "")
            problems.append(Problem(getattr(key, "location", where), f"{where_field}.{key}",
                                    f"unknown key for a {what}{hint}"))
        else:
            _check_per_language(box[key], where, f"{where_field}.{key}", problems)


def _keys_taken(allowed: set, what: str) -> str:
    """`` (a rect box takes dash, fill, ...)`` for a key nothing is close to (``width`` for ``w``)."""
    own = sorted(allowed - COMMON_BOX_KEYS)
    if not own or allowed >= ANY_BOX_KEYS:  # an override of an inherited box: any box's key would do
        return ""
    return f" (a {what} takes {', '.join(own)}, and every box's {', '.join(EVERY_BOX_KEYS)})"


# -- values written per language ---------------------------------------------------------------
# A mapping where a layout expects one value (a var, a box's text or colour, the background) is that
# value in several languages, {ja: ..., en: ...}: the edition picks one as it picks a card's texts
# (content.game.text_in), so a layout's own words follow --lang with the same rule and fallback.

def _check_per_language(value, where: Location, field_path: str, problems: list) -> None:
    if not isinstance(value, dict):
        return
    for key in value:
        if key != "__line__" and not (isinstance(key, str) and LANG.fullmatch(key)):
            problems.append(Problem(getattr(key, "location", where), f"{field_path}.{key}",
                                    "a value written per language takes language codes as keys "
                                    "({ja: ..., en: ...})"))


_TEMPLATE_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def untranslated_texts(boxes, path, lang: str, written: str) -> list:
    """``(Location, field, languages)`` of each text box (groups included) whose words, as the ``lang``
    edition prints them, are of the ``written`` language: a plain string, its template tags aside (a
    card's field is the card's concern), or a per-language value without ``lang``. Signs and numbers
    (``+1``, ``3/4``) are no language's."""
    found = []
    for i, box in enumerate(boxes if isinstance(boxes, list) else []):
        if not isinstance(box, dict):
            continue
        value = box.get("text")
        if isinstance(value, dict):
            has = tuple(k for k in value if k != "__line__")
            value = None if lang in has else _pick(value, lang)
        else:
            has = (written,)
        if isinstance(value, str) and has_words_of(_TEMPLATE_TAG.sub("", value), written):
            key = next(k for k in box if k == "text")
            where = getattr(key, "location", None) or Location(str(path), box.get("__line__", 0))
            found.append((where, f"boxes.{box.get('id', i)}.text", has))
        found.extend(untranslated_texts(box.get("boxes"), path, lang, written))
    return found


def _pick(value, lang: str):
    if isinstance(value, dict):
        return text_in({k: v for k, v in value.items() if k != "__line__"}, lang)
    return value


def _boxes_in(boxes: list, lang: str) -> list:
    return [{key: _boxes_in(value, lang) if key == "boxes" and isinstance(value, list) else _pick(value, lang)
             for key, value in box.items()} if isinstance(box, dict) else box
            for box in boxes]


def in_language(layout: Layout, lang: str) -> Layout:
    """The layout with each value written per language in ``lang`` (else ``ja``, else its first)."""
    return replace(layout, background=_pick(layout.background, lang),
                   vars={name: _pick(value, lang) for name, value in layout.vars.items()},
                   boxes=_boxes_in(layout.boxes, lang))


def _check_overrides(boxes: list, inherited: list, path, problems: list) -> None:
    """Keys of an override (a box with an inherited id and no type) that some box takes but not one of
    its parent's type: ``_check_boxes`` could only tell them from keys no box takes."""
    types = {b.get("id"): b.get("type") for b in inherited if isinstance(b, dict) and b.get("id")}
    for i, box in enumerate(boxes):
        if not isinstance(box, dict) or "type" in box or not isinstance(box.get("id"), str):
            continue
        kind = types.get(box["id"])
        if kind not in BOX_KEYS:
            continue
        allowed = COMMON_BOX_KEYS | BOX_KEYS[kind]
        wrong = {k: v for k, v in box.items() if k in ANY_BOX_KEYS and k not in allowed}
        _check_box_keys(wrong, allowed, f"{kind} box (the type of the inherited box {box['id']!r})",
                        Location(str(path), box.get("__line__", 0)), f"boxes[{i}]", problems, list_keys=False)


def _merge_boxes(base: list, overrides: list) -> list:
    result = [dict(b) for b in base]
    index = {b.get("id"): i for i, b in enumerate(result) if b.get("id")}
    for box in overrides:
        if not isinstance(box, dict):
            continue
        box_id = box.get("id")
        if box_id and box_id in index:
            result[index[box_id]] = {**result[index[box_id]], **box}
        else:
            result.append(dict(box))
            if box_id:
                index[box_id] = len(result) - 1
    return result
