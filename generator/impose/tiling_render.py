"""Draw a tiled board: one page per tile, plus an assembly diagram page.

``draw_board(canvas)`` draws the whole board in board coordinates (origin at
its lower-left corner); each page clips it to the tile's printable area. All
positions come from the ``TilePlan`` (``tiling.py``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from reportlab.pdfbase.pdfmetrics import stringWidth

from .marks import CLEARANCE, crop_marks, cut_lines
from .page import Mark, Slot
from .render import _draw_lines, draw_label
from .wording import assembly_heading, assembly_steps, glue_under, page_of
from .sizes import mm
from .tiling import TilePlan

DrawBoard = Callable[[object], None]

CROSS_ARM = mm(4)
LINE_WIDTH = 0.4
HALO_WIDTH = 1.4


def render_tiles(canvas, plan: TilePlan, draw_board: DrawBoard, *, font_name: str,
                 title: str | None = None, profile=None, lang: str | None = "en") -> None:
    """One page per tile in reading order: board part, glue and cut lines, crosses, caption.

    The caption (``"A2 — row A, column 2 · glue under A1's right edge"``,
    prefixed by ``title``) sits just under the tile; when the tile fills the
    printable area that is the bottom margin, which some printers cannot reach.

    With a sheet ``profile`` the board's own edges are finished as a card's: the art runs
    ``profile.bleed`` past them (as far as the printable area allows) and the profile's crop
    marks and cut lines continue every edge the tile is trimmed along (``tile_marks``).
    """
    pw, ph = plan.page_size
    for number, tile in enumerate(plan.tiles, start=1):
        canvas.setPageSize(plan.page_size)
        canvas.setTrimBox(None)
        canvas.setBleedBox(None)
        px, py, w, h = tile.placement
        canvas.saveState()
        _clip(canvas, _art_box(plan, tile, profile.bleed if profile is not None else 0.0))
        canvas.translate(px - tile.src[0], py - tile.src[1])
        draw_board(canvas)
        canvas.restoreState()

        canvas.saveState()       # marks may run past the tile onto blank printable paper
        _clip(canvas, (plan.margin, plan.margin, pw - plan.margin, ph - plan.margin))
        _glue_text(canvas, tile, plan.overlap, font_name, lang)
        _stroke(canvas, [(m.x0, m.y0, m.x1, m.y1) for m in tile.glue_lines], dash=(4, 3))
        _stroke(canvas, [seg for cx, cy in tile.crosses for seg in _cross(cx, cy, CROSS_ARM)])
        canvas.restoreState()
        _stroke(canvas, [(m.x0, m.y0, m.x1, m.y1) for m in tile.cut_edges], halo=False)
        marks = tile_marks(plan, tile, profile) if profile is not None else ()
        if marks:
            _draw_lines(canvas, marks, profile.mark_width)

        caption = f"{tile.caption_in(lang)} · {page_of(number, len(plan.tiles), lang)}"
        if title:
            caption = f"{title} · {caption}"
        # between the marks below the tile's corners, when there are any
        x0, x1 = (px + CLEARANCE, px + w - CLEARANCE) if marks else (plan.margin, pw - plan.margin)
        band = (x0, max(1.0, py - 10), x1, py - 2)
        if band[3] - band[1] >= 4:
            draw_label(canvas, band, caption, font_name)
        canvas.showPage()


def _outer_edges(plan: TilePlan, tile) -> dict:
    """Which edges of ``tile`` are the board's own (not a seam with a neighbour)."""
    return {"left": tile.col == 0, "right": tile.col == plan.cols - 1,
            "bottom": tile.row == plan.rows - 1, "top": tile.row == 0}


def _art_box(plan: TilePlan, tile, bleed: float):
    """Where the tile's art is drawn (page coordinates): the tile, plus ``bleed`` beyond the board's
    own edges, within the printable area."""
    px, py, w, h = tile.placement
    pw, ph = plan.page_size
    m = plan.margin
    outer = _outer_edges(plan, tile)
    return (max(m, px - bleed) if outer["left"] else px, max(m, py - bleed) if outer["bottom"] else py,
            min(pw - m, px + w + bleed) if outer["right"] else px + w,
            min(ph - m, py + h + bleed) if outer["top"] else py + h)


def tile_marks(plan: TilePlan, tile, profile) -> tuple[Mark, ...]:
    """The profile's crop marks (and cut lines, if it asks for them) for one tile: around the tile
    as around a card (``marks.crop_marks``), on the paper of the plan, along every edge the tile
    is trimmed along: the board's own edges and the seams it lies on top of (right and bottom).
    Its left and top seam edges, glue strips under a neighbour, are never cut: no mark there."""
    px, py, w, h = tile.placement
    turned = replace(profile, paper=plan.page_size, margin=plan.margin)
    slot = Slot(0, px, py, w, h, False, profile.bleed)
    found = (crop_marks((slot,), turned) if profile.crop_marks else ()) + \
        (cut_lines((slot,), turned) if profile.cut_lines else ())
    glue_x = px if tile.col else None
    glue_y = py + h if tile.row else None
    return tuple(m for m in found
                 if not (m.x0 == m.x1 and glue_x is not None and abs(m.x0 - glue_x) < 1e-6)
                 and not (m.y0 == m.y1 and glue_y is not None and abs(m.y0 - glue_y) < 1e-6))


def _clip(canvas, box) -> None:
    x0, y0, x1, y1 = box
    path = canvas.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    canvas.clipPath(path, stroke=0, fill=0)


def _cross(x: float, y: float, arm: float):
    return [(x - arm, y, x + arm, y), (x, y - arm, x, y + arm)]


def _stroke(canvas, segments, dash=None, halo=True, width=LINE_WIDTH) -> None:
    """Black (100 % K) lines, over a white halo so they show on dark art."""
    if not segments:
        return
    canvas.saveState()
    canvas.setLineCap(0)
    if halo:
        canvas.setStrokeColorCMYK(0, 0, 0, 0)
        canvas.setLineWidth(HALO_WIDTH)
        canvas.setDash()
        canvas.lines(segments)
    canvas.setStrokeColorCMYK(0, 0, 0, 1)
    canvas.setLineWidth(width)
    if dash:
        canvas.setDash(*dash)
    canvas.lines(segments)
    canvas.restoreState()


def _glue_text(canvas, tile, overlap: float, font_name: str, lang: str | None = "en") -> None:
    """'glue under A1' inside each glue strip (hidden once assembled)."""
    size = min(6.0, overlap * 0.5)
    if size < 3.5:
        return
    px, py, w, h = tile.placement
    canvas.setFillColorCMYK(0, 0, 0, 0.6)
    canvas.setFont(font_name, size)
    for text, (x, y, angle) in zip(
            [glue_under(label, lang) for label, _ in tile.glue_under],
            _strip_anchors(tile, overlap, size)):
        canvas.saveState()
        canvas.translate(x, y)
        canvas.rotate(angle)
        canvas.drawCentredString(0, 0, text)
        canvas.restoreState()


def _strip_anchors(tile, overlap, size):
    px, py, w, h = tile.placement
    if tile.col:
        yield (px + overlap / 2 + size * 0.35, py + h / 2, 90)
    if tile.row:
        yield (px + w / 2, py + h - overlap / 2 - size * 0.35, 0)


def render_assembly_page(canvas, plan: TilePlan, *, font_name: str, title: str | None = None,
                         draw_board: DrawBoard | None = None, lang: str | None = "en") -> None:
    """One page: the board to scale with every tile, its glue strips, crosses and labels.

    With ``draw_board`` the board itself is drawn underneath as a thumbnail.
    """
    bw, bh = plan.board
    pw, ph = sorted(plan.page_size, reverse=bw > bh)     # the page turned like the board
    m = plan.margin
    header, footer = 28.0, 46.0
    avail_w, avail_h = pw - 2 * m, ph - 2 * m - header - footer
    scale = min(avail_w / bw, avail_h / bh)
    ox = m + (avail_w - bw * scale) / 2
    oy = m + footer + (avail_h - bh * scale) / 2

    def at(x, y):
        return (ox + x * scale, oy + y * scale)

    canvas.setPageSize((pw, ph))
    canvas.setTrimBox(None)
    canvas.setBleedBox(None)
    if draw_board is not None:
        canvas.saveState()
        _clip(canvas, (ox, oy, ox + bw * scale, oy + bh * scale))
        canvas.translate(ox, oy)
        canvas.scale(scale, scale)
        draw_board(canvas)
        canvas.restoreState()

    strips, outlines = [], []
    for tile in plan.tiles:
        x, y, w, h = tile.src
        vx, vy, vw, vh = tile.visible
        (x0, y0), (x1, y1) = at(x, y), at(x + w, y + h)
        strips += _box_lines(x0, y0, x1, y1)
        (x0, y0), (x1, y1) = at(vx, vy), at(vx + vw, vy + vh)
        outlines += _box_lines(x0, y0, x1, y1)
    _stroke(canvas, strips, dash=(2, 2), width=0.3)
    _stroke(canvas, outlines, width=0.8)
    _stroke(canvas, [seg for cx, cy in plan.crosses for seg in _cross(*at(cx, cy), mm(2))])

    canvas.setFillColorCMYK(0, 0, 0, 1)
    for tile in plan.tiles:
        vx, vy, vw, vh = tile.visible
        cx, cy = at(vx + vw / 2, vy + vh / 2)
        size = max(6.0, min(24.0, vw * scale / 4, vh * scale / 3))
        canvas.setFont(font_name, size)
        canvas.drawCentredString(cx, cy - size * 0.35, tile.label)

    name = f"{title} — " if title else ""
    heading = assembly_heading(name, plan, bw, bh, lang)
    draw_label(canvas, (m, ph - m - header + 6, pw - m, ph - m), heading, font_name, size=11)
    for i, line in enumerate(assembly_steps(lang)):
        size = 8.0
        while size > 5 and stringWidth(line, font_name, size) > avail_w:
            size -= 0.5
        canvas.setFont(font_name, size)
        canvas.drawString(m, m + footer - 14 - i * 12, line)
    canvas.showPage()


def _box_lines(x0, y0, x1, y1):
    return [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]
