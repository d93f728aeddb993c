"""Where each card's back goes: the mirror image of its front under the printer's flip.

A duplex printer turns the sheet over about the edge named in its dialog. On a
portrait sheet the long edge is vertical, so a long-edge flip sends page
``x`` to ``W - x`` (columns mirrored: front ``A B C`` becomes back ``C B A``,
rows unchanged) and a short-edge flip sends ``y`` to ``H - y`` (rows mirrored).
On a landscape sheet the long edge is horizontal, so the two swap. Reflecting
the slot rectangle (not its column number) keeps a partial last page right: the
back of every card lands behind its front.

Each back is turned so that the cut card, turned over about its own vertical
axis (as a player turns a card over), shows its back upright: the card's top
edge is the same edge on both sides, whatever the flip. Under a flip that
mirrors columns an upright card's back is upright on the back page and a card
turned 90° is turned the other way (270°); under a flip that mirrors rows
(short-edge on portrait paper, long-edge on landscape) an upright card's back
is turned 180° and a turned card's back keeps its turn, as on a horizontal
gutterfold. (Backs printed upright under a row flip came out upside down
against their fronts.) ``duplex: none`` backs are not mirrored (they print on
sheets of their own, for folding or gluing).
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


def turned_over(axis: str, rotation: int) -> int:
    """The turn of a back on the page, for a front turned ``rotation`` and a sheet flipped
    (or folded) mirroring columns (``"x"``) or rows (``"y"``): the card's top edge is the same
    edge on both sides once the card is turned over about its own vertical axis."""
    return (360 - rotation) % 360 if axis == "x" else (180 - rotation) % 360


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
        rotation = turned_over(axis, s.rotation) if axis else s.rotation
        backs.append(replace(s, x=x + dx, y=y + dy, rotation=rotation,
                             bleed_box=(bx0 + dx, by0 + dy, bx1 + dx, by1 + dy)))
    return tuple(backs)
