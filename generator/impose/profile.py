"""Sheet profiles: the paper, margins, bleed, gutter, marks and duplex mode of a print run.

A profile is data (``layouts/profiles/<name>.yaml``). The project's located
YAML loader converts lengths to points and calls ``profile_from_mapping``;
``load_profile_plain`` is a small stand-in that does the same with
``yaml.safe_load`` (no line numbers) for tests and scripts.
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, fields
from pathlib import Path

from .errors import ImposeError
from .sizes import fmt_mm, mm, named_size

DUPLEX_MODES = ("long-edge", "short-edge", "none")
FIT_MODES = ("marks", "tightest")
LENGTH_KEYS = ("margin", "bleed", "gutter", "mark_length", "mark_offset", "mark_width", "safe")
BOOL_KEYS = ("crop_marks", "cut_lines", "print_shop", "allow_rotate", "pack")


@dataclass(frozen=True)
class Profile:
    """How cards are laid out on printer sheets. All lengths are PDF points.

    ``gutter`` is the distance between the TRIM edges of neighbouring cards.
    Toward a neighbour a card's bleed is clipped to its own half of the gutter;
    toward the outside of the grid (or an empty cell) it gets the full ``bleed``::

        gutter 0         gutter < 2*bleed     gutter = 2*bleed     gutter > 2*bleed
        ┌────┬────┐      ┌────┐ ┌────┐        ┌────┐  ┌────┐        ┌────┐    ┌────┐
        │ A  │ B  │      │ A  │:│ B  │        │ A  │::│ B  │        │ A  │:  :│ B  │
        └────┴────┘      └────┘ └────┘        └────┘  └────┘        └────┘    └────┘
        one shared       bleeds meet in       bleed boxes           blank paper
        cut line         the gutter middle    just touch            between bleeds

    Bleed boxes never overlap, and nothing but a card's own art is drawn in them.

    ``duplex`` names the paper edge the printer flips on (as in the printer
    dialog): on portrait paper long-edge mirrors the columns and short-edge the
    rows; on landscape paper it is the other way round. Crop marks start
    ``max(mark_offset, bleed)`` beyond the trim, never inside the bleed.
    ``back_offset`` (x, y) is added to every back page's slots (a duplex
    calibration; +x moves backs right as seen on the back page).

    ``fit`` is how the grid is chosen: ``"marks"`` (the default) keeps room on every outer
    side of the grid for the crop marks' offset and at least 2 mm of mark when ``crop_marks``
    is on, even if that puts fewer cards on a sheet; ``"tightest"`` puts the most cards on a
    sheet, and marks that find no room are shortened or left out.

    ``pack`` lets the last, partly filled sheet of a component without backs share its paper
    with the next such components, each in a band of its own grid and marks (``pack.py``).
    """

    name: str
    paper: tuple[float, float]
    margin: float = mm(5)
    bleed: float = mm(3)
    gutter: float = 0.0
    crop_marks: bool = True
    cut_lines: bool = False
    duplex: str = "long-edge"
    back_offset: tuple[float, float] = (0.0, 0.0)
    mark_length: float = mm(5)
    mark_offset: float = mm(3)
    mark_width: float = 0.3
    print_shop: bool = False
    allow_rotate: bool = True
    fit: str = "marks"
    pack: bool = True
    safe: float | None = None   # text keeps this far inside the trim (warned; None: not checked)

    def __post_init__(self):
        _check(self)

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """The printable area ``(x0, y0, x1, y1)``: the paper minus the margin."""
        w, h = self.paper
        return (self.margin, self.margin, w - self.margin, h - self.margin)


def _check(p: Profile) -> None:
    w, h = p.paper
    if not (w > 0 and h > 0):
        raise ImposeError(f"expected a positive paper size, got {fmt_mm(w)}x{fmt_mm(h)} mm", "paper")
    for key in ("margin", "bleed", "gutter"):
        if getattr(p, key) < 0:
            raise ImposeError(f"expected a length >= 0, got {fmt_mm(getattr(p, key))} mm", key)
    if 2 * p.margin >= min(w, h):
        raise ImposeError(
            f"{fmt_mm(p.margin)} mm margins leave nothing printable on a"
            f" {fmt_mm(w)}x{fmt_mm(h)} mm sheet", "margin")
    if p.duplex not in DUPLEX_MODES:
        raise ImposeError(f"expected one of {', '.join(DUPLEX_MODES)}, got {p.duplex!r}", "duplex")
    if any(abs(v) > mm(20) for v in p.back_offset):
        raise ImposeError(
            "a duplex calibration is a few mm; expected offsets within 20 mm, got"
            f" ({fmt_mm(p.back_offset[0])}, {fmt_mm(p.back_offset[1])}) mm", "back_offset")
    if p.fit not in FIT_MODES:
        raise ImposeError(f"expected one of {', '.join(FIT_MODES)}, got {p.fit!r}", "fit")
    if p.mark_length <= 0:
        raise ImposeError(f"expected a length > 0, got {fmt_mm(p.mark_length)} mm", "mark_length")
    if not 0.1 <= p.mark_width <= 2.0:
        raise ImposeError(f"crop marks are hairlines: expected 0.1pt to 2pt, got {p.mark_width:g}pt",
                          "mark_width")
    if p.safe is not None and p.safe < 0:
        raise ImposeError(f"expected a length >= 0, got {fmt_mm(p.safe)} mm", "safe")
    if p.mark_offset < 0:
        raise ImposeError(f"expected a length >= 0, got {fmt_mm(p.mark_offset)} mm", "mark_offset")
    if p.print_shop and p.back_offset != (0.0, 0.0):
        raise ImposeError("print-shop pages are registered by the shop; remove back_offset",
                          "back_offset")


def profile_from_mapping(name: str, mapping) -> Profile:
    """Build a Profile from already-converted values (points, bools, strings).

    Keys are the Profile field names plus ``orientation`` (portrait|landscape) and
    ``description`` (ignored).
    ``paper`` may be ``(w, h)`` in points or a paper name (``"a4"``).
    Unknown keys, wrong types
    and impossible combinations raise ``ImposeError`` with the field name.
    """
    values = dict(mapping)
    known = [f.name for f in fields(Profile) if f.name != "name"] + ["orientation", "description"]
    for key in values:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ImposeError(f"unknown profile key {key!r}{hint}", str(key))
    if "paper" not in values:
        raise ImposeError("missing paper size (for example paper: a4)", "paper")
    values.pop("description", None)
    values["paper"] = _paper(values["paper"], values.pop("orientation", None))
    for key in LENGTH_KEYS:
        if key in values:
            values[key] = _number(values[key], key)
    for key in BOOL_KEYS:
        if key in values and not isinstance(values[key], bool):
            raise ImposeError(f"expected true or false, got {values[key]!r}", key)
    if "duplex" in values and not isinstance(values["duplex"], str):
        raise ImposeError(f"expected one of {', '.join(DUPLEX_MODES)}, got {values['duplex']!r}",
                          "duplex")
    if "fit" in values and not isinstance(values["fit"], str):
        raise ImposeError(f"expected one of {', '.join(FIT_MODES)}, got {values['fit']!r}", "fit")
    if "back_offset" in values:
        values["back_offset"] = _pair(values["back_offset"], "back_offset")
    if values.get("print_shop"):
        for key in ("crop_marks", "cut_lines"):
            if values.get(key):
                raise ImposeError("print-shop pages are one card with its bleed and no margin:"
                                  " there is no room for marks; set it to false", key)
    return Profile(name=name, **values)


def _number(value, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ImposeError(f"expected a length in points, got {value!r}", key)
    return float(value)


def _pair(value, key: str) -> tuple[float, float]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
        raise ImposeError(f"expected two lengths (x, y), got {value!r}", key)
    return (_number(value[0], key), _number(value[1], key))


def _paper(value, orientation) -> tuple[float, float]:
    if orientation not in (None, "portrait", "landscape"):
        raise ImposeError(f"expected portrait or landscape, got {orientation!r}", "orientation")
    if isinstance(value, str):
        try:
            w, h = named_size(value)
        except ImposeError as error:
            raise ImposeError(error.message, "paper") from None
    else:
        w, h = _pair(value, "paper")
    if orientation is None:
        return (w, h)
    short, long_ = sorted((w, h))
    return (short, long_) if orientation == "portrait" else (long_, short)


# -- plain YAML loading (stand-in for the project's located loader) ---------------------------

_LENGTH_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)\s*$")
_UNIT = {"mm": mm(1), "cm": mm(10), "in": 72.0, "pt": 1.0}


def parse_length(text, key: str = "") -> float:
    """``"5mm"`` / ``"0.125in"`` / ``"0.3pt"`` to points; a bare number is an error."""
    if not isinstance(text, str):
        raise ImposeError(f"expected a length like '5mm', got {text!r}", key or None)
    match = _LENGTH_RE.match(text)
    if not match:
        raise ImposeError(f"expected a length like '5mm' (units mm, cm, in, pt), got {text!r}",
                          key or None)
    return float(match.group(1)) * _UNIT[match.group(2)]


def load_profile_plain(path) -> Profile:
    """Load ``layouts/profiles/<name>.yaml`` with ``yaml.safe_load``; the name is the file stem."""
    import yaml

    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise ImposeError(f"cannot read profile: {error}", path=str(path)) from None
    if not isinstance(data, dict):
        raise ImposeError("expected a mapping of profile keys", path=str(path))
    try:
        values = dict(data)
        for key in LENGTH_KEYS:
            if key in values:
                values[key] = parse_length(values[key], key)
        if "back_offset" in values:
            pair = values["back_offset"]
            if not isinstance(pair, list) or len(pair) != 2:
                raise ImposeError(f"expected [x, y] lengths, got {pair!r}", "back_offset")
            values["back_offset"] = tuple(parse_length(v, "back_offset") for v in pair)
        return profile_from_mapping(path.stem, values)
    except ImposeError as error:
        raise ImposeError(error.message, error.field, str(path)) from None
