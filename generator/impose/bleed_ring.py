"""The ring between the bleed a face paints and a wider bleed a profile asks for, filled by
stretching the face's edge over it.

Faces paint ``painted`` past their trim (3 mm); a profile may cut the page ``bleed`` past it
(1/8 in for many print shops). As a prepress tool extends a bleed, the ring between repeats the
colour at the face's painted edge: each side's strip is a hair-thin strip just inside that edge,
stretched outward (flipped, so the two meet where they touch); each corner the face's corner,
stretched both ways. Whatever reaches the painted edge (a background, an art box drawn to -3 mm, a
stripe of another colour on one side, a diagonal) runs on straight to the page edge, and nothing
of the face itself changes (its ops, hence the print lock's hashes, are the same).

        ┌───┬─────────────┬───┐ ← bleed
        │ ▪ │  stretched  │ ▪ │   ▪ corners: stretched in x and y
        ├───┼─────────────┼───┤ ← painted edge
        │ s │             │ s │
        │ i │    face     │ i │
        │ d │             │ d │
        ├───┼─────────────┼───┤
        │ ▪ │             │ ▪ │
        └───┴─────────────┴───┘
"""
from __future__ import annotations

from typing import NamedTuple

# Below this (points) a profile's bleed is the painted one: "3mm" written in a profile and the
# painted 3 mm may differ by rounding, and a home print must not gain a ring of nothing.
_SAME = 0.01
# Each piece reaches this far (points) under its inner neighbour and stretches what lies as far in,
# so its edge lies on solid colour: two anti-aliased edges that merely meet render as a pale seam.
OVERLAP = 0.5
# The width (points) of the strip a side stretches: thin, so its colour is the edge's in that row,
# a diagonal at the edge running on almost square to it rather than turning in the ring.
SOURCE = 0.1


class RingPiece(NamedTuple):
    """Where to draw (``clip``: x0, y0, x1, y1 in the face's frame) the face transformed by
    ``x' = sx * x + tx``, ``y' = sy * y + ty``."""

    clip: tuple[float, float, float, float]
    sx: float
    tx: float
    sy: float
    ty: float


def bleed_ring(w: float, h: float, painted: float, bleed: float) -> list[RingPiece]:
    """The eight pieces of the ring around a ``w`` x ``h`` face from ``painted`` to ``bleed``
    past its trim, corners first (the sides are drawn over their ends); none when ``bleed`` is no
    wider than what the face paints."""
    if bleed - painted <= _SAME:
        return []
    pieces = [RingPiece((x0, y0, x1, y1), sx, tx, sy, ty)
              for x0, x1, sx, tx in _bands(w, painted, bleed)
              for y0, y1, sy, ty in _bands(h, painted, bleed)
              if sx != 1 or sy != 1]  # not the face itself
    return sorted(pieces, key=lambda piece: piece.sx == 1 or piece.sy == 1)


def _bands(size: float, painted: float, bleed: float):
    """Along one axis, as ``(start, end, scale, offset)``: the low strip (from the page edge to
    ``OVERLAP`` inside the painted edge, showing the ``SOURCE`` strip just inside it flipped and
    stretched over it: ``x' = low - k (x - low)``), the face (as it is), the high strip."""
    low, high = -painted + OVERLAP, size + painted - OVERLAP
    k = (bleed - painted + OVERLAP) / SOURCE
    return ((-bleed, low, -k, (1 + k) * low),
            (-painted, size + painted, 1.0, 0.0),
            (high, size + bleed, -k, (1 + k) * high))
