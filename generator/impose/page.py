"""The pages imposition produces, as data: slots, marks and page boxes.

One slot, in page coordinates (PDF points, origin at the page's lower-left)::

                 │                            │     ← crop marks continue the trim
                 │                            │       lines, mark_length long,
                                                      from mark_offset (>= bleed)
          ┌───────────────────────────────────────┐   beyond the trim corner
          │ bleed: background only, cut away      │ ← bleed box: art is clipped here
          │      ┌────────────────────────────┐   │ ← trim box x, y, w, h: the cut
          │      │   ┌────────────────────┐   │   │
          │      │   │ safe zone: text    │   │   │ ← the layout's safe inset
          │      │   │ and key art        │   │   │   (3 mm by default)
          │      │   └────────────────────┘   │   │
          │      └────────────────────────────┘   │
          │    (x, y)                             │
          └───────────────────────────────────────┘
           ◀────▶ bleed

The page knows trim and bleed; the safe zone belongs to the card layout.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple


class TrimGeometry:
    """Boxes derived from a face's trim ``x, y, w, h`` and nominal ``bleed`` (page points)."""

    __slots__ = ()  # subclasses keep theirs (a large deck has a slot object per card and side)

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    @property
    def nominal_bleed_box(self) -> tuple[float, float, float, float]:
        b = self.bleed
        return (self.x - b, self.y - b, self.x + self.w + b, self.y + self.h + b)

    def to_page(self, u: float, v: float) -> tuple[float, float]:
        """Where the card's own point ``(u, v)`` (trim lower-left origin, y up) lies on the page,
        the card turned by ``rotation`` (counter-clockwise) as the renderers turn it."""
        if self.rotation == 0:
            return (self.x + u, self.y + v)
        if self.rotation == 90:        # the card's up points to the page's left
            return (self.x + self.w - v, self.y + u)
        if self.rotation == 180:
            return (self.x + self.w - u, self.y + self.h - v)
        return (self.x + v, self.y + self.h - u)   # 270: up points to the page's right


@dataclass(frozen=True, slots=True)
class Slot(TrimGeometry):
    """One card on a page.

    ``x, y, w, h``: the trim box on the page (``w, h`` as the card lies on the
    page, so a rotated poker card has ``w = 88 mm``). ``rotation`` is 0, 90, 180
    or 270 degrees counter-clockwise (180 only for a back, ``duplex.back_slots``;
    ``rotated`` means turned a quarter); the card draws upright in its own frame of
    ``card_size``. ``bleed`` is the nominal bleed; ``bleed_box`` is the area the
    card may actually paint (``(x0, y0, x1, y1)`` on the page): the full bleed
    outside the grid, its own half of the gutter toward a neighbour.
    """

    index: int
    x: float
    y: float
    w: float
    h: float
    rotated: bool = False
    bleed: float = 0.0
    rotation: int | None = None
    bleed_box: tuple[float, float, float, float] | None = None

    def __post_init__(self):
        if self.rotation is None:
            object.__setattr__(self, "rotation", 90 if self.rotated else 0)
        if self.rotation not in (0, 90, 180, 270) or self.rotated != (self.rotation in (90, 270)):
            raise ValueError(f"slot rotation {self.rotation} does not match rotated={self.rotated}")
        if self.bleed_box is None:
            object.__setattr__(self, "bleed_box", self.nominal_bleed_box)

    @property
    def card_size(self) -> tuple[float, float]:
        """The card's own (upright) trim size."""
        return (self.h, self.w) if self.rotated else (self.w, self.h)


@dataclass(frozen=True, slots=True)
class Mark:
    """A straight hairline from (x0, y0) to (x1, y1): a crop mark or a cut line."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)


class Band(NamedTuple):
    """One component's cards on a page several components share (``pack.py``): ``part`` is the
    component's place in the packed run, ``number`` the page's number among that component's own
    pages (the n of its label's n/total). A named tuple: every build imports this module, and a
    frozen dataclass costs six times as much to create (about 0.8 ms)."""

    part: int
    number: int
    slots: tuple[Slot, ...]


@dataclass(frozen=True)
class SheetPage:
    """One output page. ``trim_box``/``bleed_box`` are set only in print-shop mode.

    ``footer`` is a free rectangle ``(x0, y0, x1, y1)`` for the page label, clear
    of every mark and bleed box (``None`` when there is no room);
    ``footer_alternatives`` are the other edges' such rectangles, for a label
    that does not fit ``footer`` even at the smallest label size.

    ``part`` says which component of a packed run (``pack``) the slots are from; a page shared
    by several has their ``bands`` (and ``slots`` holds all of theirs).
    """

    side: str
    number: int
    slots: tuple[Slot, ...]
    marks: tuple[Mark, ...]
    cut_lines: tuple[Mark, ...]
    trim_box: tuple[float, float, float, float] | None
    bleed_box: tuple[float, float, float, float] | None
    page_size: tuple[float, float]
    footer: tuple[float, float, float, float] | None = None
    mark_width: float = 0.3
    footer_alternatives: tuple[tuple[float, float, float, float], ...] = ()
    part: int = 0
    bands: tuple[Band, ...] = ()

    def groups(self) -> tuple[tuple[int, tuple[Slot, ...]], ...]:
        """``(part, slots)`` of each component on the page."""
        if self.bands:
            return tuple((band.part, band.slots) for band in self.bands)
        return ((self.part, self.slots),)
