"""Named paper and card sizes, stored once in millimetres.

Every other unit is derived: ``mm(63)`` is 63 mm in PDF points. Sizes are
(width, height) in portrait orientation (width <= height).

>>> named_size("poker") == (mm(63), mm(88))
True
>>> named_size("a4-landscape") == (mm(297), mm(210))
True
"""
from __future__ import annotations

import difflib

from .errors import ImposeError

POINTS_PER_MM = 72.0 / 25.4

#: paper sizes in mm, portrait
PAPER_MM: dict[str, tuple[float, float]] = {
    "a5": (148.0, 210.0),
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "a2": (420.0, 594.0),
    "a1": (594.0, 841.0),
    "letter": (215.9, 279.4),    # 8.5 x 11 in
    "legal": (215.9, 355.6),     # 8.5 x 14 in
    "tabloid": (279.4, 431.8),   # 11 x 17 in
}

#: card trim sizes in mm, portrait (shared/PRINT.md)
CARD_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini-euro": (44.0, 68.0),
    "mini-us": (41.0, 63.0),
    "euro": (59.0, 92.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "big-square": (89.0, 89.0),
}

_DISPLAY = {"letter": "Letter", "legal": "Legal", "tabloid": "Tabloid"}


def mm(value: float) -> float:
    """Millimetres to PDF points."""
    return value * POINTS_PER_MM


def to_mm(points: float) -> float:
    """PDF points to millimetres."""
    return points / POINTS_PER_MM


def fmt_mm(points: float) -> str:
    """A length in points shown in mm for messages: ``63``, ``63.5``, ``215.9``."""
    text = f"{to_mm(points):.1f}"
    return text[:-2] if text.endswith(".0") else text


PAPER: dict[str, tuple[float, float]] = {k: (mm(w), mm(h)) for k, (w, h) in PAPER_MM.items()}
CARD: dict[str, tuple[float, float]] = {k: (mm(w), mm(h)) for k, (w, h) in CARD_MM.items()}


def size_names() -> list[str]:
    """Every name ``named_size`` accepts without an orientation suffix, sorted."""
    return sorted([*PAPER_MM, *CARD_MM])


def named_size(name: str) -> tuple[float, float]:
    """``(w, h)`` in points of a named paper or card size.

    A ``-portrait`` or ``-landscape`` suffix orients it (``a4-landscape``);
    without one the size is portrait. Case and ``_``/``-`` do not matter.
    Raises ``UnknownSizeError`` (a ``GeneratorError`` and a ``KeyError``) that
    lists the known names.
    """
    key = str(name).strip().lower().replace("_", "-")
    orientation = "portrait"
    for suffix in ("-portrait", "-landscape"):
        if key.endswith(suffix):
            key, orientation = key[: -len(suffix)], suffix[1:]
    table = {**PAPER_MM, **CARD_MM}
    if key not in table:
        raise UnknownSizeError(name)
    w, h = sorted(table[key])
    return (mm(h), mm(w)) if orientation == "landscape" else (mm(w), mm(h))


def paper_name(paper: tuple[float, float]) -> str:
    """``"A4 portrait"`` for a known paper size in points, else ``"a 200x300 mm sheet"``."""
    w, h = paper
    for key, (pw, ph) in PAPER_MM.items():
        if abs(w - mm(pw)) < 0.01 and abs(h - mm(ph)) < 0.01:
            return f"{_DISPLAY.get(key, key.upper())} portrait"
        if abs(w - mm(ph)) < 0.01 and abs(h - mm(pw)) < 0.01:
            return f"{_DISPLAY.get(key, key.upper())} landscape"
    return f"a {fmt_mm(w)}x{fmt_mm(h)} mm sheet"


class UnknownSizeError(ImposeError, KeyError):
    """A size name that is neither a known paper nor a known card size."""

    def __init__(self, name):
        self.name = name
        close = difflib.get_close_matches(str(name).lower(), size_names(), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        papers = ", ".join(sorted(PAPER_MM))
        cards = ", ".join(sorted(CARD_MM))
        super().__init__(
            f"unknown size {name!r}{hint}; expected a paper ({papers}) or a card size ({cards}),"
            " optionally with -portrait or -landscape"
        )

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message
