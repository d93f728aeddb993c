"""Text too near a print service's cut: the safe zone of an export profile, checked face by face.

A service trims where its own trim falls on the uploaded image, and asks text to keep ``safe`` inside
that line (The Game Crafter and DriveThruCards: 1/8 in). Our faces keep the project's 3 mm, but a face
is scaled and centred onto the service's trim (``raster.fit_frame``) and a layout may put a footer
nearer the edge: the export says so once per layout box, at the box's line, with how near it comes.
"""
from __future__ import annotations

from ..errors import Problem
from ..layout.coverage import painted_order
from ..layout.legibility_check import text_ink_box
from ..units import to_mm


def safe_rect(card: tuple[float, float], trim: tuple[float, float], scale: float, safe: float):
    """The service's safe zone in the card's own coordinates (points, y down from the trim's top-left):
    its trim (centred on the card, in card units ``trim / scale``) less ``safe`` on every side."""
    (cw, ch), (tw, th) = card, trim
    half_w, half_h = (tw / 2 - safe) / scale, (th / 2 - safe) / scale
    return (cw / 2 - half_w, ch / 2 - half_h, cw / 2 + half_w, ch / 2 + half_h)


def _reach(ink, rect) -> float:
    """How far (points, card units) the ink box crosses out of ``rect``; 0 when inside."""
    return max(rect[0] - ink[0], rect[1] - ink[1], ink[2] - rect[2], ink[3] - rect[3], 0.0)


def safe_zone_warnings(jobs, profile) -> list[Problem]:
    """One warning per layout box whose text comes nearer the service's cut than ``profile.safe``.
    ``jobs``: ``(face, frame, trim)`` per exported image."""
    worst: dict = {}   # (component id, side, box id) -> [reach in service points, face, faces with it, op]
    for face, frame, trim in jobs:
        rect = safe_rect(face.component.size_pt, trim, frame.scale, profile.safe)
        for op in painted_order(face.ops()):
            if op.kind != "text":
                continue
            ink = text_ink_box(op)
            reach = _reach(ink, rect) * frame.scale if ink else 0.0
            if reach > 0.05:  # (a hundredth of a millimetre is rounding, not a placement)
                key = (face.component.id, face.side, op.id)
                entry = worst.setdefault(key, [0.0, face, 0, op])
                entry[2] += 1
                if reach > entry[0]:
                    entry[0], entry[1] = reach, face
    problems = []
    for (_cid, side, box_id), (reach, face, count, op) in worst.items():
        component = face.component
        # a box the layout does not name (a generated one) is reported at the component's layout: line
        where = op.box.where if op.box else component.key_locations.get("layout", component.location)
        others = f" and {count - 1} more face{'s' if count > 2 else ''}" if count > 1 else ""
        gap = profile.safe - reach
        near = f"comes {to_mm(gap):.1f} mm from" if gap > 0 else "crosses"
        problems.append(Problem(where, f"{component.id}.{side}",
                                f"box '{box_id}': its text {near} the cut of export profile {profile.name!r}"
                                f" ({face.key}{others}), which asks text to stay {to_mm(profile.safe):g} mm inside"
                                f" its trim (its safe zone): move the box {to_mm(reach):.1f} mm inward or make it"
                                " smaller", "warning"))
    return problems

