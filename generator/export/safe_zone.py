"""Text too near the cut: the safe zone of a profile, checked face by face.

A print service trims where its own trim falls on the uploaded image, and asks text to keep ``safe``
inside that line (The Game Crafter and DriveThruCards: 1/8 in). Our faces keep the project's 3 mm, but a
face is scaled and centred onto the service's trim (``raster.fit_frame``) and a layout may put a footer
nearer the edge. The same holds for a print file: a sheet profile that declares ``safe`` (the
print-shop upload) is checked on ``pnp build`` and ``pnp validate``, as each face is made. Either says so
once per layout box, at the box's line, with how near it comes and the card that comes nearest.
"""
from __future__ import annotations

from ..errors import Problem
from ..layout.coverage import painted_order
from ..layout.legibility_check import text_ink_box
from ..units import to_mm

#: A reach under this (points on the service's image) is rounding, not a placement (~0.02 mm).
_ROUNDING = 0.05


def safe_rect(card: tuple[float, float], trim: tuple[float, float], scale: float, safe: float):
    """The service's safe zone in the card's own coordinates (points, y down from the trim's top-left):
    its trim (centred on the card, in card units ``trim / scale``) less ``safe`` on every side."""
    (cw, ch), (tw, th) = card, trim
    half_w, half_h = (tw / 2 - safe) / scale, (th / 2 - safe) / scale
    return (cw / 2 - half_w, ch / 2 - half_h, cw / 2 + half_w, ch / 2 + half_h)


def _reach(ink, rect) -> float:
    """How far (points, card units) the ink box crosses out of ``rect``; 0 when inside."""
    return max(rect[0] - ink[0], rect[1] - ink[1], ink[2] - rect[2], ink[3] - rect[3], 0.0)


class SafeZoneCheck:
    """The text boxes that come nearer a profile's cut than its ``safe`` margin, each said once (per
    component, side and layout box) at the face that comes nearest. ``named``: the profile, as the
    warning names it (``export profile 'png-300'``)."""

    def __init__(self, game, safe: float, named: str):
        self.game, self.safe, self.named = game, safe, named
        self._worst: dict = {}  # (component id, side, box id) -> [reach, component, side, record, faces, op]

    def face(self, component, side: str, record: int, ops, rect, scale: float = 1.0) -> None:
        """One face's text against ``rect`` (``safe_rect``; ``scale``: of the card on the service's image)."""
        for op in painted_order(ops):
            if op.kind != "text":
                continue
            ink = text_ink_box(op)
            reach = _reach(ink, rect) * scale if ink else 0.0
            if reach > _ROUNDING:
                entry = self._worst.setdefault((component.id, side, op.id), [0.0, component, side, record, 0, op])
                entry[4] += 1
                if reach > entry[0]:
                    entry[0], entry[3], entry[5] = reach, record, op

    def watch(self, cards) -> "SafeZoneCheck":
        """Check each face of a print file (cut at its own trim) the first time it is made."""
        for faces in cards.faces:
            size = faces.component.size_pt
            rect = safe_rect(size, size, 1.0, self.safe)
            faces.fronts.observers.append(self._observer(faces.component, "front", rect))
            if faces.backs is not None:
                faces.backs.observers.append(self._observer(faces.component, "back", rect))
        return self

    def _observer(self, component, side: str, rect):
        def observe(index, ops):
            self.face(component, side, index, ops, rect)
        return observe

    def problems(self) -> list[Problem]:
        problems = []
        for reach, component, side, record, count, op in self._worst.values():
            # a box the layout does not name (a generated one) is reported at the component's layout: line
            where = op.box.where if op.box else component.key_locations.get("layout", component.location)
            faces = f", on {count} faces" if count > 1 else ""
            gap = self.safe - reach
            near = f"comes {to_mm(gap):.1f} mm from" if gap > 0 else "crosses"
            card, label = self._card(component, side, record)
            problems.append(Problem(where, f"box '{op.id}'",
                                    f"its text {near} the cut of {self.named}, which asks text to stay"
                                    f" {to_mm(self.safe):g} mm inside its trim (its safe zone){faces}: move the box"
                                    f" {to_mm(reach):.1f} mm inward or make it smaller", "warning",
                                    card=card, card_field=label))
        return problems

    def _card(self, component, side: str, record: int):
        """Where the face that comes nearest is written, and its label: ``tokens[0] 'flower'``."""
        if side == "back" and not component.back_per_card:  # drawn once, for no card
            return component.at("back"), f"{component.id}.back"
        data = component.records[record]
        rid = data.get("id") if isinstance(data, dict) else None
        return (self.game.where(data) or component.location,
                f"{component.id}[{record}]" + (f" '{rid}'" if rid else ""))


def safe_zone_warnings(game, jobs, profile) -> list[Problem]:
    """One warning per layout box whose text comes nearer an export service's cut than ``profile.safe``.
    ``jobs``: ``(face, frame, trim)`` per exported image."""
    check = SafeZoneCheck(game, profile.safe, f"export profile {profile.name!r}")
    for face, frame, trim in jobs:
        check.face(face.component, face.side, face.record, face.ops(),
                   safe_rect(face.component.size_pt, trim, frame.scale, profile.safe), frame.scale)
    return check.problems()


def print_safe_zone(cards, loaded) -> SafeZoneCheck | None:
    """The safe-zone check of a print file on sheet profile ``loaded`` (``profiles.LoadedProfile``),
    watching the faces as they are made; None when the profile declares no ``safe`` margin."""
    safe = loaded.profile.safe
    if safe is None:
        return None
    return SafeZoneCheck(cards.game, safe, f"sheet profile {loaded.profile.name!r}").watch(cards)
