"""How far past its trim a layout paints shapes: what a round piece's bleed needs from the imposer.

A round token's layout may paint its bleed as a disc wider than the trim (``x: -3mm, w: 26mm`` on a
20 mm token). On a sheet, a piece's bleed is clipped to half the gutter toward its neighbours, which
a square bleed (a background) does not mind but a disc does: clipped flat where neighbours meet
(``impose.round_piece_profile`` gives such pieces the gutter their disc needs). Only literal
geometry counts (a box placed by an expression differs per card and is not read); a layout's
``background`` fills the square and does not count, nor do strokes (half a line width).
"""
from __future__ import annotations

from ..units import parse_length

SHAPES = {"rect", "roundrect", "ellipse", "polygon", "path", "image", "group"}


def painted_reach(layout, w: float, h: float) -> float:
    """Points past the ``w`` x ``h`` trim (0 if none) that the layout's shape boxes reach."""
    reach = 0.0
    for box in getattr(layout, "boxes", None) or ():
        if not isinstance(box, dict) or box.get("type") not in SHAPES or box.get("repeat"):
            continue
        try:
            x, y, bw, bh = (parse_length(box.get(key, 0)) for key in ("x", "y", "w", "h"))
        except ValueError:  # an expression, or a mistake the layout checks report: not known here
            continue
        reach = max(reach, -x, -y, x + bw - w, y + bh - h)
    return reach


def note_reach(component, layouts) -> None:
    """Keep on a round ``component`` how far its ``layouts`` (front, back; None skipped) paint past
    its trim, for the imposer (``sheets``); a rectangular piece's bleed is square, it needs nothing."""
    if getattr(component, "shape", "rect") == "round":
        component.bleed_reach = max((painted_reach(layout, *component.size_pt) for layout in layouts if layout),
                                    default=0.0)
