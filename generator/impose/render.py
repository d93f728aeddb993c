"""Draw imposed pages on a ReportLab canvas; the card faces come from a callback.

This is the only drawing in sheet imposition: every position comes from
``SheetPage`` data. ``draw_face(canvas, index, side)`` draws one card upright
with (0, 0) at its trim's lower-left corner, in its own frame of
``slot.card_size``; it may paint anywhere in ``-bleed .. size + bleed`` and is
clipped to its slot's bleed box.
"""
from __future__ import annotations

from typing import Callable, Sequence, Union

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..fpstr import FP
from .page import Mark, SheetPage, Slot

DrawFace = Callable[[object, int, str], None]
Label = Union[str, Callable[[SheetPage, int], str], None]

FOOTER_SIZE = 6.0
FOOTER_MIN_SIZE = 4.0


def render_pages(canvas, pages: list[SheetPage], draw_face: Union[DrawFace, Sequence[DrawFace]], *,
                 font_name: str, label: Label = None) -> None:
    """Draw ``pages`` on ``canvas``, one ``showPage`` each.

    ``draw_face`` draws one component's faces, or is a sequence with one such function per
    component of a packed run (``pack``), indexed by the page's (or band's) ``part``.

    Per page: the page size (and TrimBox/BleedBox as 4-tuples in print-shop
    mode, cleared otherwise), every slot's face, then crop marks and cut lines
    as 100 % K hairlines and a footer label in ``font_name`` (a registered,
    embedded font). ``label`` is a prefix (``"fatal-fight · arts"`` gives
    ``"fatal-fight · arts · 3/16 · front"``) or ``label(page, total) -> str``.
    """
    total = len(pages)
    draw_faces = draw_face if isinstance(draw_face, Sequence) else (draw_face,)
    for page in pages:
        canvas.setPageSize(page.page_size)
        canvas.setTrimBox(_box(page.trim_box))
        canvas.setBleedBox(_box(page.bleed_box))
        for part, slots in page.groups():
            draw = draw_faces[part]
            for slot in slots:
                _draw_slot(canvas, slot, page.side, draw)
        _draw_lines(canvas, page.marks + page.cut_lines, page.mark_width)
        text = _label_text(label, page, total)
        if text and page.footer:
            box, text = label_box(page.footer, page.footer_alternatives, text, font_name)
            draw_label(canvas, box, text, font_name)
        canvas.showPage()


def _box(box):
    if box is None:
        return None
    if len(box) != 4:  # a 2-tuple silently writes an invalid box (shared/PRINT.md)
        raise ValueError(f"page boxes are (x0, y0, x1, y1), got {box!r}")
    return tuple(float(v) for v in box)


def _draw_slot(canvas, slot: Slot, side: str, draw_face: DrawFace) -> None:
    # q/clip/Q written as the operators ReportLab would write: a sheet repeats this for every
    # card, and ReportLab's saveState copies its whole Python-side state each time. The face
    # leaves nothing behind that matters: what it changes without its own save/restore (colours,
    # line width) is PDF state the Q undoes, and ReportLab only skips writing deduplicated
    # settings (cap, join, alpha) that faces always change inside a save/restore.
    canvas.addLiteral("q")
    x0, y0, x1, y1 = slot.bleed_box
    canvas.addLiteral(f"n {FP[x0, y0, x1 - x0, y1 - y0]} re W* n")
    if slot.rotation == 90:        # card's up points to the page's left
        canvas.translate(slot.x + slot.w, slot.y)
        canvas.rotate(90)
    elif slot.rotation == 270:     # card's up points to the page's right
        canvas.translate(slot.x, slot.y + slot.h)
        canvas.rotate(-90)
    elif slot.rotation == 180:     # a back under a flip that mirrors rows (duplex.turned_over)
        canvas.translate(slot.x + slot.w, slot.y + slot.h)
        canvas.rotate(180)
    else:
        canvas.translate(slot.x, slot.y)
    draw_face(canvas, slot.index, side)
    canvas.addLiteral("Q")


def _draw_lines(canvas, lines: tuple[Mark, ...], width: float) -> None:
    if not lines:
        return
    canvas.saveState()
    canvas.setStrokeColorCMYK(0, 0, 0, 1)   # black ink only, never "registration"
    canvas.setLineWidth(width)
    canvas.setLineCap(0)
    canvas.setDash()
    # canvas.lines' operators, one code entry a line as it writes them, the numbers through the memo:
    # every page of a sheet repeats the same marks
    add = canvas.addLiteral
    add("n")
    for m in lines:
        add(f"{FP[m.x0, m.y0]} m {FP[m.x1, m.y1]} l")
    add("S")
    canvas.restoreState()


def _label_text(label: Label, page: SheetPage, total: int) -> str:
    if callable(label):
        return label(page, total)
    tail = f"{page.number}/{total} · {page.side}"
    return f"{label} · {tail}" if label else tail


def label_box(box, alternatives, text: str, font_name: str) -> tuple[tuple, str]:
    """``(box, text)``: ``box``, or else the first of ``alternatives`` that holds ``text`` at
    ``FOOTER_MIN_SIZE`` (``draw_label`` would cut it off). When no edge holds the whole label,
    its leading ``" · "`` parts (the game's title first) are dropped until one does: a page
    number and side that print whole beat a full label cut off at both ends."""
    parts = text.split(" · ")
    for first in range(len(parts)):
        shorter = " · ".join(parts[first:])
        width = stringWidth(shorter, font_name, FOOTER_MIN_SIZE)
        for candidate in (box, *alternatives):
            x0, y0, x1, y1 = candidate
            if width <= max(x1 - x0, y1 - y0):
                return candidate, shorter
    return box, text


def draw_label(canvas, box, text: str, font_name: str, size: float = FOOTER_SIZE) -> None:
    """Centre one line of ``text`` in ``box``, shrinking to 4 pt, clipped to the box.

    A box taller than wide gets the text turned 90° (reading upward).
    """
    x0, y0, x1, y1 = box
    upright = (x1 - x0) >= (y1 - y0)
    length, depth = (x1 - x0, y1 - y0) if upright else (y1 - y0, x1 - x0)
    width = stringWidth(text, font_name, size)
    if width > length:
        size = max(FOOTER_MIN_SIZE, size * length / width)
        width = stringWidth(text, font_name, size)
    size = min(size, depth)
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.setFont(font_name, size)
    if upright:
        canvas.translate(x0, y0)
    else:
        canvas.translate(x1, y0)
        canvas.rotate(90)
    canvas.drawString((length - width) / 2, (depth - size) / 2 + 0.15 * size, text)
    canvas.restoreState()
