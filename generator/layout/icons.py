"""Vector icons: small drawings in a view box, defined as YAML data and drawn as paths.

Icons are looked up in ``layouts/common/icons.yaml`` and ``layouts/<game>/icons.yaml``
(the game's win). Every shape is drawn with ReportLab paths, so icons stay crisp at any
zoom. ``currentColor`` in an icon takes the colour of the box or text that uses it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ContentError, Location, Problem
from ..content.game import leaves_game
from ..content.schema import did_you_mean
from ..content.yamlload import NodeBudget, parse_file, to_plain

SHAPE_KEYS = {
    "circle": {"cx", "cy", "r"},
    "rect": {"x", "y", "w", "h", "r"},
    "polygon": {"points"},
    "path": {"d"},
    "line": {"x1", "y1", "x2", "y2"},
    "text": {"x", "y", "text", "size", "align", "bold"},
}
STYLE_KEYS = {"type", "fill", "stroke", "stroke_width"}
#: the keys a shape cannot be drawn without, and those that are numbers (view-box units)
REQUIRED_KEYS = {"circle": ("cx", "cy", "r"), "rect": ("x", "y", "w", "h"), "line": ("x1", "y1", "x2", "y2"),
                 "polygon": ("points",), "path": ("d",), "text": ()}
NUMBER_KEYS = {"cx", "cy", "r", "x", "y", "w", "h", "x1", "y1", "x2", "y2", "size", "stroke_width"}
#: far beyond any view box; a PDF cannot hold a coordinate near 1e30 (a typo, not a drawing)
MAX_COORDINATE = 1e6


@dataclass
class Icon:
    name: str
    label: object
    viewbox: tuple
    shapes: list
    location: Location
    doc: str = ""


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class IconSet:
    icons: dict = field(default_factory=dict)

    def names(self):
        return set(self.icons)

    def get(self, name):
        return self.icons.get(name)


def load_icons(files: list[Path], game_root: Path | None = None) -> IconSet:
    """Later files override earlier ones (a game's icon replaces a common one). A file of the
    game (under ``game_root``) that links out of the game directory is refused."""
    problems: list[Problem] = []
    icons = IconSet()
    for path in files:
        if not path.is_file():
            continue
        if game_root is not None and leaves_game(path, game_root):
            problems.append(Problem(Location(str(game_root), 0), "", f"'{path.relative_to(game_root).as_posix()}' "
                                    "leaves the game directory (a link to a file outside it)"))
            continue
        try:
            node = parse_file(path)
        except ContentError as exc:
            problems.extend(exc.problems)
            continue
        if node is None:
            continue
        data = to_plain(node, str(path), problems, NodeBudget(str(path)))
        lines = {k.value: v.start_mark.line + 1 for k, v in getattr(node.value[0][1], "value", [])} \
            if node.value and getattr(node.value[0][0], "value", None) == "icons" else {}
        if not isinstance(data, dict) or not isinstance(data.get("icons"), dict):
            problems.append(Problem(Location(str(path), 1), "icons", "expected a mapping 'icons: {name: {...}}'"))
            continue
        for name, spec in data["icons"].items():
            where = Location(str(path), lines.get(name, 1))
            icon = _icon(name, spec, where, problems)
            if icon:
                icons.icons[name] = icon
    if problems:
        raise ContentError(problems)
    return icons


def _icon(name, spec, where, problems):
    field_path = f"icons.{name}"
    if not isinstance(spec, dict):
        problems.append(Problem(where, field_path, "expected {label, viewbox, shapes}"))
        return None
    known = ("label", "viewbox", "shapes", "doc")
    for key in sorted(set(spec) - set(known)):
        problems.append(Problem(where, f"{field_path}.{key}",
                                f"unknown key{did_you_mean(key, known)} ({', '.join(known)})"))
    viewbox = spec.get("viewbox", [0, 0, 100, 100])
    if not (isinstance(viewbox, list) and len(viewbox) == 4 and all(_is_coordinate(v) for v in viewbox)
            and viewbox[2] > 0 and viewbox[3] > 0):
        problems.append(Problem(where, f"{field_path}.viewbox", "expected [x, y, width, height] with positive size"))
        return None
    shapes = spec.get("shapes") or []
    for i, shape in enumerate(shapes):
        sub = f"{field_path}.shapes[{i}]"
        kind = shape.get("type") if isinstance(shape, dict) else None
        if not isinstance(kind, str) or kind not in SHAPE_KEYS:
            problems.append(Problem(where, f"{sub}.type",
                                    f"unknown shape {kind!r}{did_you_mean(kind, SHAPE_KEYS)}; one of {', '.join(SHAPE_KEYS)}"))
            continue
        allowed = SHAPE_KEYS[kind] | STYLE_KEYS
        for key in sorted(set(shape) - allowed):
            problems.append(Problem(where, f"{sub}.{key}", f"unknown key for a {kind} shape{did_you_mean(key, allowed)} "
                                                            f"({', '.join(sorted(allowed - {'type'}))})"))
        problems.extend(Problem(where, f"{sub}.{key}", message) for key, message in _shape_value_problems(kind, shape))
        if kind == "path":
            try:
                parse_path(str(shape.get("d", "")))
            except ValueError as exc:
                problems.append(Problem(where, f"{sub}.d", str(exc)))
    return Icon(name, spec.get("label", name), tuple(viewbox), shapes, where, spec.get("doc", ""))


def _shape_value_problems(kind: str, shape: dict):
    """``(key, message)`` for each value the painter could not draw: checked here, with the icon's
    line, so a missing ``r`` or a ``cx: ""`` is a located problem rather than a crash mid-page."""
    for key in REQUIRED_KEYS[kind]:
        if key not in shape:
            yield key, f"a {kind} shape needs '{key}'"
    for key in sorted(NUMBER_KEYS & set(shape)):
        if not _is_coordinate(shape[key]):
            yield key, f"expected a number (view-box units, at most {MAX_COORDINATE:g}), got {shape[key]!r}"
    points = shape.get("points", [])
    if not (isinstance(points, list) and all(isinstance(p, list) and len(p) == 2 and all(map(_is_coordinate, p))
                                             for p in points)):
        yield "points", f"expected a list of [x, y] numbers, got {points!r}"
    for key in ("fill", "stroke"):
        if key in shape and not _is_icon_colour(shape[key]):
            yield key, f"expected a colour ('#rrggbb', a colour name, currentColor or none), got {shape[key]!r}"


def _is_coordinate(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) <= MAX_COORDINATE


def _is_icon_colour(value) -> bool:
    from .instantiate import _colour_of

    if value is None or value in ("currentColor", "none"):
        return True
    try:
        return isinstance(value, str) and bool(_colour_of(value))
    except ValueError:
        return False


_TOKEN = re.compile(r"[MmLlHhVvCcQqZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}


def parse_path(d: str) -> list[tuple]:
    """SVG path data (M L H V C Q Z, absolute and relative) → absolute segments.

    Returns [("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)]; quadratic
    curves become cubics. Arcs are refused (write them as curves).
    """
    leftovers = re.sub(_TOKEN, " ", d).replace(",", " ").strip()
    if leftovers:
        raise ValueError(f"unsupported path data {leftovers[:10]!r} (use M L H V C Q Z)")
    tokens = _TOKEN.findall(d)
    out: list[tuple] = []
    x = y = sx = sy = 0.0
    i, cmd = 0, None
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            if cmd in "Zz":
                out.append(("Z",))
                x, y = sx, sy
                continue
        if cmd is None:
            raise ValueError("path data must start with M")
        n = _ARGS[cmd.upper()]
        args = tokens[i:i + n]
        if len(args) < n or any(a.isalpha() for a in args):
            raise ValueError(f"command {cmd} needs {n} numbers")
        nums = [float(a) for a in args]
        i += n
        rel = cmd.islower()
        up = cmd.upper()
        if up == "H":
            x = nums[0] + (x if rel else 0)
            out.append(("L", x, y))
        elif up == "V":
            y = nums[0] + (y if rel else 0)
            out.append(("L", x, y))
        else:
            pts = [(nums[k] + (x if rel else 0), nums[k + 1] + (y if rel else 0)) for k in range(0, n, 2)]
            if up == "M":
                x, y = sx, sy = pts[0]
                out.append(("M", x, y))
                cmd = "l" if rel else "L"  # further pairs are line-tos
            elif up == "L":
                x, y = pts[0]
                out.append(("L", x, y))
            elif up == "C":
                out.append(("C", *pts[0], *pts[1], *pts[2]))
                x, y = pts[2]
            elif up == "Q":
                (qx, qy), (ex, ey) = pts
                out.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                            ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey))
                x, y = ex, ey
    if out and out[0][0] != "M":
        raise ValueError("path data must start with M")
    return out
