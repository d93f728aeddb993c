"""Lengths with units. One internal unit: PDF points (1/72 in), floats.

Sizes are stored once, in millimetres, and converted here; a bare number where a
length is expected is an error (the caller turns the ValueError into a located problem).
"""
from __future__ import annotations

import re

PT_PER_MM = 72.0 / 25.4
_UNITS = {"mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": 72.0, "pt": 1.0}
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt)\s*$")


def mm(value: float) -> float:
    return value * PT_PER_MM


def to_mm(points: float) -> float:
    return points / PT_PER_MM


def parse_length(value) -> float:
    """``"63mm"`` → 178.58 pt. Raises ValueError with a message fit for the user."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError(f"expected a length such as '3mm' or '9pt', got {value!r}")
    if isinstance(value, (int, float)):
        if value == 0:
            return 0.0
        raise ValueError(f"a length needs a unit (mm, cm, in, pt): write '{value}mm' or '{value}pt'")
    match = _LENGTH.match(value)
    if not match:
        raise ValueError(f"expected a length such as '3mm' or '9pt', got {value!r}")
    return float(match.group(1)) * _UNITS[match.group(2)]


# Named sizes in millimetres (trim), width x height; landscape variants derived.
CARD_SIZES_MM = {
    "poker": (63, 88),
    "bridge": (57, 89),
    "mini-euro": (44, 68),
    "mini-us": (41, 63),
    "euro": (59, 92),
    "tarot": (70, 120),
    "square": (70, 70),
    "big-square": (89, 89),
}
PAPER_SIZES_MM = {
    "a2": (420, 594),
    "a3": (297, 420),
    "a4": (210, 297),
    "a5": (148, 210),
    "letter": (215.9, 279.4),
}


def named_size(name: str) -> tuple[float, float]:
    """A named card or paper size in points; ``-landscape`` swaps the sides."""
    base, landscape = (name[: -len("-landscape")], True) if name.endswith("-landscape") else (name, False)
    table = {**CARD_SIZES_MM, **PAPER_SIZES_MM}
    if base not in table:
        names = ", ".join(sorted(table) + [f"{p}-landscape" for p in sorted(PAPER_SIZES_MM)])
        raise ValueError(f"unknown size {name!r}; known sizes: {names}")
    w, h = table[base]
    if landscape:
        w, h = h, w
    return mm(w), mm(h)
