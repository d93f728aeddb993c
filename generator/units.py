"""Lengths with units. One internal unit: PDF points (1/72 in), floats.

Sizes are stored once, in millimetres, and converted here; a bare number where a
length is expected is an error (the caller turns the ValueError into a located problem).
"""
from __future__ import annotations

import re

from .impose.sizes import POINTS_PER_MM as PT_PER_MM, UnknownSizeError, mm, to_mm
from .impose.sizes import named_size as _named_size

__all__ = ["PT_PER_MM", "mm", "named_size", "parse_length", "parse_size", "to_mm"]  # mm, to_mm: from impose.sizes

_UNITS = {"mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": 72.0, "pt": 1.0}
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt)\s*$")


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


def named_size(name: str) -> tuple[float, float]:
    """A named card or paper size in points (tables in ``impose.sizes``); ValueError if unknown."""
    try:
        return _named_size(name)
    except UnknownSizeError as exc:
        raise ValueError(str(exc)) from None


def parse_size(value, examples: str = "poker, square, a4-landscape") -> tuple[float, float]:
    """A named size (``named_size``) or ``[width, height]`` with units, in points. Raises
    ValueError with a message fit for the user, naming ``examples`` of sizes."""
    if isinstance(value, str):
        try:
            return named_size(value)
        except ValueError as exc:  # '40mm x 40mm': say how a size of one's own is written
            raise ValueError(f"{exc}; or [width, height] with units, e.g. [40mm, 40mm]") from None
    if isinstance(value, list) and len(value) == 2:
        w, h = (parse_length(v) for v in value)
        if w > 0 and h > 0:
            return (w, h)
    raise ValueError(f"expected a named size ({examples} ...) or [width, height], got {value!r}")
