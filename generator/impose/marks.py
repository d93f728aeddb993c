"""Crop marks, cut lines and the footer's place, as line segments and rectangles.

Everything stays in the printable area (paper minus margin) and outside every
card's nominal bleed box, so no mark is ever drawn over art and every mark that
is drawn actually prints.

- **Crop marks** continue each distinct trim line beyond the block of cards:
  vertical ones above and below it, horizontal ones left and right of it,
  starting ``max(mark_offset, bleed)`` beyond the outermost trim and
  ``mark_length`` long, shortened at the printable edge (dropped under 1 mm). Below the cards
  they stop above the page label's strip when they keep ``MIN_FIT_MARK`` there: a page filled
  to its edges still gets its label.
- **Cut lines** run the whole printable width or height along the outer trims
  and along the middle of each gutter, broken wherever they would cross a
  bleed box. With bleeds that abut (gutter <= 2 * bleed) only their ends in the
  margin remain; with blank paper between the bleeds they run through it.
"""
from __future__ import annotations

from .page import Mark, Slot
from .profile import Profile
from .sizes import mm

MIN_MARK = mm(1)
#: the least crop mark the auto-fit keeps room for (longer ones are shortened at the printable
#: edge); 3x3 poker cards on A4 portrait keep their 2.5 mm side marks
MIN_FIT_MARK = mm(2)
FOOTER_HEIGHT = 7.0          # pt: room for 6 pt text
FOOTER_MIN_WIDTH = mm(20)
CLEARANCE = mm(1)
#: the foot of the printable area a page label takes: its height and the marks' clearance
LABEL_STRIP = FOOTER_HEIGHT + CLEARANCE
_EPS = 1e-6


def _distinct(values) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > _EPS:
            out.append(v)
    return out


def crop_marks(slots: tuple[Slot, ...], profile: Profile, area=None) -> tuple[Mark, ...]:
    """Crop marks for the cards on one page, inside ``area`` (``(x0, y0, x1, y1)``, the printable
    area unless given: a band of a packed page keeps its marks in its own strip)."""
    if not slots:
        return ()
    px0, py0, px1, py1 = area or profile.printable
    left, right = min(s.x for s in slots), max(s.x + s.w for s in slots)
    bottom, top = min(s.y for s in slots), max(s.y + s.h for s in slots)
    off, length = max(profile.mark_offset, profile.bleed), profile.mark_length
    foot = py0 if area else _above_label_strip(bottom - off, py0)
    marks = []
    for x in _distinct([s.x for s in slots] + [s.x + s.w for s in slots]):
        if not px0 - _EPS <= x <= px1 + _EPS:
            continue
        for a, b in ((top + off, min(top + off + length, py1)),
                     (max(bottom - off - length, foot), bottom - off)):
            if b - a >= MIN_MARK:
                marks.append(Mark(x, a, x, b))
    for y in _distinct([s.y for s in slots] + [s.y + s.h for s in slots]):
        if not py0 - _EPS <= y <= py1 + _EPS:
            continue
        for a, b in ((max(left - off - length, px0), left - off),
                     (right + off, min(right + off + length, px1))):
            if b - a >= MIN_MARK:
                marks.append(Mark(a, y, b, y))
    return tuple(marks)


def _above_label_strip(mark_top: float, py0: float) -> float:
    """Where marks running down from ``mark_top`` stop: above the label strip at the foot of the
    printable area if they keep ``MIN_FIT_MARK`` there, else at its edge (``py0``)."""
    strip_top = py0 + LABEL_STRIP
    return strip_top if mark_top - strip_top >= MIN_FIT_MARK - _EPS else py0


def _cut_positions(intervals: list[tuple[float, float]]) -> list[float]:
    """Outer trims plus the middle of every gap between neighbouring cards."""
    spans = []
    for a, b in sorted(intervals):
        if not spans or a - spans[-1][0] > _EPS:
            spans.append((a, b))
    positions = [spans[0][0]]
    positions += [(prev[1] + nxt[0]) / 2 for prev, nxt in zip(spans, spans[1:])]
    return positions + [spans[-1][1]]


def _free(lo: float, hi: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Parts of [lo, hi] outside every blocked interval."""
    out, at = [], lo
    for a, b in sorted(blocked):
        if a > at:
            out.append((at, min(a, hi)))
        at = max(at, b)
        if at >= hi:
            break
    if at < hi:
        out.append((at, hi))
    return [(a, b) for a, b in out if b - a > _EPS]


def cut_lines(slots: tuple[Slot, ...], profile: Profile, area=None) -> tuple[Mark, ...]:
    """Cut-line segments for the cards on one page, inside ``area`` (as for ``crop_marks``)."""
    if not slots:
        return ()
    px0, py0, px1, py1 = area or profile.printable
    boxes = [s.nominal_bleed_box for s in slots]
    lines = []
    for x in _cut_positions([(s.x, s.x + s.w) for s in slots]):
        blocked = [(b[1], b[3]) for b in boxes if b[0] - _EPS <= x <= b[2] + _EPS]
        lines += [Mark(x, a, x, b) for a, b in _free(py0, py1, blocked) if b - a >= MIN_MARK]
    for y in _cut_positions([(s.y, s.y + s.h) for s in slots]):
        blocked = [(b[0], b[2]) for b in boxes if b[1] - _EPS <= y <= b[3] + _EPS]
        lines += [Mark(a, y, b, y) for a, b in _free(px0, px1, blocked) if b - a >= MIN_MARK]
    return tuple(lines)


def footer_box(slots: tuple[Slot, ...], lines: tuple[Mark, ...],
               profile: Profile) -> tuple[float, float, float, float] | None:
    """A rectangle for the page label along an edge of the printable area.

    Tried in order: bottom, top, left, right; the widest free stretch along
    that edge wins. It touches no mark or line (1 mm clearance) and no bleed
    box. A box taller than wide (left or right edge) takes text turned 90°.
    ``None`` when no edge has room.
    """
    boxes = footer_boxes(slots, lines, profile)
    return boxes[0] if boxes else None


def footer_boxes(slots: tuple[Slot, ...], lines: tuple[Mark, ...],
                 profile: Profile) -> tuple[tuple[float, float, float, float], ...]:
    """Every edge's box for the page label, in ``footer_box``'s order (its choice first), so a
    label too long for the first can go to the next edge instead of being cut off."""
    found = []
    px0, py0, px1, py1 = profile.printable
    boxes = [s.nominal_bleed_box for s in slots]
    segments = [(min(m.x0, m.x1), min(m.y0, m.y1), max(m.x0, m.x1), max(m.y0, m.y1)) for m in lines]
    obstacles = [(b, 0.0) for b in boxes] + [(seg, CLEARANCE) for seg in segments]
    h = FOOTER_HEIGHT
    for horizontal, (a0, a1), (c0, c1) in (
            (True, (px0, px1), (py0, py0 + h)), (True, (px0, px1), (py1 - h, py1)),
            (False, (py0, py1), (px0, px0 + h)), (False, (py0, py1), (px1 - h, px1))):
        # a: along the edge, c: across it
        blocked = []
        for (x0, y0, x1, y1), pad in obstacles:
            along0, along1, across0, across1 = (x0, x1, y0, y1) if horizontal else (y0, y1, x0, x1)
            if across0 < c1 + pad - _EPS and across1 > c0 - pad + _EPS:  # touching is clear
                blocked.append((along0 - pad, along1 + pad))
        gaps = _free(a0, a1, blocked)
        if not gaps:
            continue
        middle = (a0 + a1) / 2
        g0, g1 = max(gaps, key=lambda g: (round(g[1] - g[0], 3), -abs((g[0] + g[1]) / 2 - middle)))
        if g1 - g0 >= FOOTER_MIN_WIDTH:
            found.append((g0, c0, g1, c1) if horizontal else (c0, g0, c1, g1))
    return tuple(found)
