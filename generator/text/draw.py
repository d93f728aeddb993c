"""Draw a laid-out :class:`~generator.text.layout.TextBlock` on a ReportLab canvas.

No layout decisions are made here: every run is drawn where the engine placed it.
"""
from __future__ import annotations

from typing import Any, Callable
from weakref import WeakKeyDictionary

from reportlab.lib.colors import Color, toColor
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont

from generator.fonts import FontSet
from generator.fpstr import FP
from generator.text.layout import TextBlock, text_width

__all__ = ["draw_text_block", "IconDrawer"]

_COLORS: dict = {}


def _color(value: str) -> Color:
    parsed = _COLORS.get(value)
    if parsed is None:
        parsed = _COLORS[value] = toColor(value)
    return parsed

#: ``draw_icon(canvas, name, x, y_bottom, size)``: draw icon ``name`` in the square box
#: whose lower-left corner is ``(x, y_bottom)`` (canvas coordinates, y up).
IconDrawer = Callable[[Any, str, float, float, float], None]


def draw_text_block(
    canvas,
    block: TextBlock,
    x: float,
    y_top: float,
    *,
    fonts: FontSet,
    color: Color | str = "black",
    draw_icon: IconDrawer | None = None,
) -> None:
    """Draw ``block`` with its box's top-left corner at ``(x, y_top)`` (y up).

    The baseline of a line is ``y_top - line.baseline_y``. Bold runs use the bold font,
    or — when the font set has none — the regular font in text render mode 2 (fill +
    stroke, stroke width ``fonts.bold_stroke * size``, round joins). All lines are
    drawn, including those the block reports as overflowing. Raises ``ValueError``
    when the block has icons and no ``draw_icon`` is given. A vertical block
    (:class:`~generator.text.vertical.VerticalBlock`) is drawn column by column.
    """
    if block.direction == "vertical":
        _draw_columns(canvas, block, x, y_top, fonts, _color(color) if isinstance(color, str) else color, draw_icon)
        return
    has_icons = any(r.kind == "icon" for line in block.lines for r in line.runs)
    if has_icons and draw_icon is None:
        raise ValueError("the text has inline icons: pass draw_icon to draw them")
    paint = _color(color) if isinstance(color, str) else color
    if not has_icons:
        code = _block_operators(canvas, block, x, y_top, fonts, paint)
        if code is not None:
            if code:
                canvas.addLiteral(code)
            return
    size = block.size
    canvas.saveState()
    try:
        _pen(canvas, paint, fonts, size)
        # One text object for the whole block: far cheaper than a drawString per run.
        text = canvas.beginText()
        font = mode = None
        for line in block.lines:
            baseline = y_top - line.baseline_y
            left = x + line.x
            for run in line.runs:
                if run.kind == "icon":
                    _inline_icon(canvas, draw_icon, run.name, left + run.x, baseline + run.icon_bottom, run.icon_size)
                    continue
                if not run.text:
                    continue
                font, mode = _style(text, fonts, run.bold, size, font, mode)
                text.setTextOrigin(left + run.x, baseline)
                text.textOut(run.text)
        if font is not None:
            canvas.drawText(text)
    finally:
        canvas.restoreState()


def _style(text, fonts: FontSet, bold: bool, size: float, font, mode):
    """Switch the text object to a run's font and render mode (2 strokes a synthetic bold) when they
    differ from the current ``font`` and ``mode``; the new ``(font, mode)``."""
    run_font = fonts.font_for(bold)
    if run_font != font:
        font = run_font
        text.setFont(font, size)
    run_mode = 2 if bold and fonts.synthetic_bold else 0
    if run_mode != mode:
        mode = run_mode
        text.setTextRenderMode(mode)
    return font, mode


def _inline_icon(canvas, draw_icon, name: str, x: float, y: float, size: float) -> None:
    """An icon in a line or column of text, its graphics state its own (the text's pen is kept)."""
    canvas.saveState()
    try:
        draw_icon(canvas, name, x, y, size)
    finally:
        canvas.restoreState()


def _pen(canvas, paint, fonts: FontSet, size: float) -> None:
    """The text colour, and the stroke that thickens a synthetic bold (a font without a bold face)."""
    canvas.setFillColor(paint)
    canvas.setStrokeColor(paint)
    if fonts.synthetic_bold:
        canvas.setLineWidth(fonts.bold_stroke * size)
        canvas.setLineJoin(1)
        canvas.setLineCap(1)


def _draw_columns(canvas, block, x: float, y_top: float, fonts: FontSet, paint, draw_icon) -> None:
    """Draw a vertical block: every glyph is placed on its own, centred on its column's line
    (one text object; a turned run is one sideways string, a tate-chu-yoko pair one squeezed string)."""
    size = block.size
    mid = (fonts.ascent - fonts.descent) / 2 * size  # from the em box's centre down to the baseline
    canvas.saveState()
    try:
        _pen(canvas, paint, fonts, size)
        text = canvas.beginText()
        font = mode = None
        for column in block.columns:
            cx = x + column.x
            for cell in column.cells:
                top = y_top - column.y - cell.y
                if cell.kind == "icon":
                    if draw_icon is None:
                        raise ValueError("the text has inline icons: pass draw_icon to draw them")
                    _inline_icon(canvas, draw_icon, cell.name, cx - cell.advance / 2, top - cell.advance, cell.advance)
                    continue
                if not cell.glyphs.strip():
                    continue
                font, mode = _style(text, fonts, cell.bold, size, font, mode)
                natural = text_width(cell.glyphs, font, size)
                if cell.kind == "turned":  # 90° clockwise: the run goes down, the glyphs' tops face right
                    text.setTextTransform(0, -1, 1, 0, cx - mid, top - (cell.advance - natural) / 2)
                else:
                    baseline = top - cell.advance / 2 - mid - cell.dy
                    text.setTextTransform(cell.squeeze, 0, 0, 1, cx - natural * cell.squeeze / 2 + cell.dx,
                                          baseline)
                text.textOut(cell.glyphs)
        if font is not None:
            canvas.drawText(text)
    finally:
        canvas.restoreState()


def _block_operators(canvas, block: TextBlock, x: float, y_top: float, fonts: FontSet, paint) -> str | None:
    """The content-stream operators that draw an icon-free ``block``, as ReportLab's text
    objects would write them (``q`` ... ``Q``; "" when nothing shows), or None when a font or
    colour needs ReportLab's general path.

    Why: a card's text is most of what a page draws, and a text object per block costs a
    string width per run, a state copy and a font look-up per call; here each run costs its
    position and its encoded bytes. ReportLab's TrueType fonts encode through the document
    (``splitString`` assigns subset codes and registers the font), hence ``canvas._doc``;
    tests check the drawing against ReportLab's text-object path pixel for pixel.
    """
    colour = _colour_operators(paint)
    if colour is None:
        return None
    doc = canvas._doc
    shown_runs = _SHOWN.get(doc)
    if shown_runs is None:
        shown_runs = _SHOWN[doc] = {}
    size = FP[block.size]
    synthetic = fonts.synthetic_bold
    parts = ["q", colour]
    if synthetic:
        parts.append(f"{FP[fonts.bold_stroke * block.size]} w 1 j 1 J")
    parts.append("BT")
    start = len(parts)
    selected = mode = None
    for line in block.lines:
        baseline = y_top - line.baseline_y
        left = x + line.x
        for run in line.runs:
            if not run.text:
                continue
            font = getFont(fonts.font_for(run.bold))
            if not font._dynamicFont:
                return None
            run_mode = 2 if run.bold and synthetic else 0
            if run_mode != mode:
                mode = run_mode
                parts.append(f"{mode} Tr")
            parts.append(f"1 0 0 1 {FP[left + run.x, baseline]} Tm")
            shown = shown_runs.get((font, run.text))
            if shown is None:  # a text not drawn yet in this document: encoded once (and its codes assigned)
                if len(shown_runs) >= SHOWN_RUNS:
                    shown_runs.clear()
                shown = shown_runs[font, run.text] = [(subset, f"({escapePDF(encoded)}) Tj")
                                                      for subset, encoded in font.splitString(run.text, doc)]
            for subset, operator in shown:
                if (font, subset) != selected:
                    selected = (font, subset)
                    parts.append(f"{font.getSubsetInternalName(subset, doc)} {size} Tf")
                parts.append(operator)
    if len(parts) == start:
        return ""
    parts.append("ET Q")
    return "\n".join(parts)


#: document -> {(font, text): [(subset, its ``(...) Tj``)]}: a run's encoding, the same every time once its
#: characters have their subset codes, so a text repeated over cards (costs, keywords, a line of a common
#: sentence) is encoded once per document. Bounded: the many texts drawn once must not pile up.
_SHOWN: WeakKeyDictionary = WeakKeyDictionary()
SHOWN_RUNS = 2048

_COLOUR_OPS: dict = {}


def _colour_operators(paint) -> str | None:
    """``r g b rg r g b RG`` for an opaque RGB colour (None for others: alpha, CMYK)."""
    if type(paint) is not Color or paint.alpha not in (None, 1):
        return None
    key = (paint.red, paint.green, paint.blue)
    ops = _COLOUR_OPS.get(key)
    if ops is None:
        rgb = fp_str(*key)
        ops = _COLOUR_OPS[key] = f"{rgb} rg {rgb} RG"
    return ops
