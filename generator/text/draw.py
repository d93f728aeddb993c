"""Draw a laid-out :class:`~generator.text.layout.TextBlock` on a ReportLab canvas.

No layout decisions are made here: every run is drawn where the engine placed it.
"""
from __future__ import annotations

from typing import Any, Callable

from reportlab.lib.colors import Color, toColor

from generator.fonts import FontSet
from generator.text.layout import TextBlock

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
    when the block has icons and no ``draw_icon`` is given.
    """
    if draw_icon is None and any(r.kind == "icon" for line in block.lines for r in line.runs):
        raise ValueError("the text has inline icons: pass draw_icon to draw them")
    paint = _color(color) if isinstance(color, str) else color
    size = block.size
    canvas.saveState()
    try:
        canvas.setFillColor(paint)
        canvas.setStrokeColor(paint)
        if fonts.synthetic_bold:
            canvas.setLineWidth(fonts.bold_stroke * size)
            canvas.setLineJoin(1)
            canvas.setLineCap(1)
        # One text object for the whole block: far cheaper than a drawString per run.
        text = canvas.beginText()
        font = mode = None
        for line in block.lines:
            baseline = y_top - line.baseline_y
            left = x + line.x
            for run in line.runs:
                if run.kind == "icon":
                    canvas.saveState()
                    try:
                        draw_icon(canvas, run.name, left + run.x, baseline + run.icon_bottom, run.icon_size)
                    finally:
                        canvas.restoreState()
                    continue
                if not run.text:
                    continue
                run_font = fonts.font_for(run.bold)
                if run_font != font:
                    font = run_font
                    text.setFont(font, size)
                run_mode = 2 if run.bold and fonts.synthetic_bold else 0
                if run_mode != mode:
                    mode = run_mode
                    text.setTextRenderMode(mode)
                text.setTextOrigin(left + run.x, baseline)
                text.textOut(run.text)
        if font is not None:
            canvas.drawText(text)
    finally:
        canvas.restoreState()
