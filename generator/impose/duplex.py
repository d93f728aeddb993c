"""Where each card's back goes: the mirror image of its front under the printer's flip.

A duplex printer turns the sheet over about the edge named in its dialog. On a
portrait sheet the long edge is vertical, so a long-edge flip sends page
``x`` to ``W - x`` (columns mirrored: front ``A B C`` becomes back ``C B A``,
rows unchanged) and a short-edge flip sends ``y`` to ``H - y`` (rows mirrored).
On a landscape sheet the long edge is horizontal, so the two swap. Reflecting
the slot rectangle (not its column number) keeps a partial last page right: the
back of every card lands behind its front.

Art stays upright on the back page. A card turned 90° on the front is turned
the other way (270°) on the back, so front and back relate exactly as they do
for upright cards in the same mode. ``duplex: none`` backs are not mirrored
(they print on sheets of their own, for folding or gluing).
"""
from __future__ import annotations

from dataclasses import replace

from .page import Slot
from .profile import Profile


def flip_axis(paper: tuple[float, float], duplex: str) -> str | None:
    """``"x"`` if the flip mirrors columns, ``"y"`` if rows, ``None`` for no duplex."""
    if duplex == "none":
        return None
    portrait = paper[0] <= paper[1]
    return "x" if (duplex == "long-edge") == portrait else "y"


def back_slots(fronts: tuple[Slot, ...], profile: Profile) -> tuple[Slot, ...]:
    """The back page's slots for a front page's slots, with ``back_offset`` applied."""
    axis = flip_axis(profile.paper, profile.duplex)
    pw, ph = profile.paper
    dx, dy = profile.back_offset
    backs = []
    for s in fronts:
        x, y = s.x, s.y
        bx0, by0, bx1, by1 = s.bleed_box
        if axis == "x":
            x, bx0, bx1 = pw - s.x - s.w, pw - bx1, pw - bx0
        elif axis == "y":
            y, by0, by1 = ph - s.y - s.h, ph - by1, ph - by0
        rotation = 270 if (s.rotated and axis) else s.rotation
        backs.append(replace(s, x=x + dx, y=y + dy, rotation=rotation,
                             bleed_box=(bx0 + dx, by0 + dy, bx1 + dx, by1 + dy)))
    return tuple(backs)
