"""How far past its trim a face paints shapes: what a round piece's bleed needs from the imposer.

A round token's layout may paint its bleed as a disc wider than the trim (``x: -3mm, w: 26mm`` on a
20 mm token). On a sheet, a piece's bleed is clipped to half the gutter toward its neighbours, which
a square bleed (a background) does not mind but a disc does: clipped flat where neighbours meet
(``impose.round_piece_profile`` gives such pieces the gutter their disc needs). The reach is read
from the instantiated faces, so a box placed by an expression or inside a group counts where it is
painted (a clipping group no further than its clip, a turned box by its whole turned extent); the
layout's ``background`` fills the square and does not count, nor do strokes (half a line width),
lines, icons or text.
"""
from __future__ import annotations

import math

from ..units import mm

SHAPES = {"rect", "roundrect", "ellipse", "polygon", "path", "image"}
#: less than this past the trim is the rounding of an expression (``w: "{{ W | round(2) }}pt"`` is
#: 0.005 pt wider than a 14 mm token), not a disc: such a piece is imposed as a square-bleed one
ROUNDING = mm(0.01)


def painted_reach(ops, w: float, h: float) -> float:
    """Points past the ``w`` x ``h`` trim (0 if none) that the shapes of a face's ``ops`` paint."""
    extent = _extent(ops)
    if extent is None:
        return 0.0
    x0, y0, x1, y1 = extent
    reach = max(-x0, -y0, x1 - w, y1 - h)
    return reach if reach >= ROUNDING else 0.0


def note_reach(faces) -> None:
    """Keep on a round piece's component how far its ``faces`` (``cards.Faces``) paint past its trim,
    for the imposer (``sheets``); a rectangular piece's bleed is square, it needs nothing. Every face is
    made here if it was not yet, as painting would make it (its problems are said with the painted ones)."""
    component = faces.component
    if getattr(component, "shape", "rect") != "round":
        return
    sides = (faces.fronts,) if faces.backs is None else (faces.fronts, faces.backs)
    component.bleed_reach = max((painted_reach(side[index], *component.size_pt) for side in sides
                                 for index in range(len(side))), default=0.0)


def _extent(ops):
    """``(x0, y0, x1, y1)`` around the shapes ``ops`` paint, in card points; None when they paint none."""
    boxes = [box for box in map(_op_extent, ops) if box is not None]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _op_extent(op):
    if op.box is None:  # the background: it fills the square bleed every slot has
        return None
    if op.kind == "group":
        extent = _extent(op.children)
        if extent is not None and op.style.get("clip"):
            extent = _within(extent, (op.x, op.y, op.x + op.w, op.y + op.h))
    elif op.kind == "polygon":  # its points, not its box (which it need not have)
        xs, ys = [op.x + px for px, _ in op.payload], [op.y + py for _, py in op.payload]
        extent = (min(xs), min(ys), max(xs), max(ys))
    elif op.kind in SHAPES:
        extent = (op.x, op.y, op.x + op.w, op.y + op.h)
    else:
        return None
    if extent is None or not op.rotate:
        return extent
    return _turned(extent, op.rotate, (op.x + op.w / 2, op.y + op.h / 2))  # as the painter turns it


def _within(extent, clip):
    x0, y0, x1, y1 = max(extent[0], clip[0]), max(extent[1], clip[1]), min(extent[2], clip[2]), min(extent[3], clip[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _turned(extent, degrees: float, centre):
    """The box around ``extent`` turned by ``degrees`` about ``centre``."""
    turn = math.radians(degrees)
    cos, sin = math.cos(turn), math.sin(turn)
    cx, cy = centre
    corners = [(cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
               for x in (extent[0], extent[2]) for y in (extent[1], extent[3])]
    return (min(x for x, _ in corners), min(y for _, y in corners), max(x for x, _ in corners),
            max(y for _, y in corners))
