"""Proof mode: trim, bleed and safe-zone lines and a card-id footer drawn over every face.

For checking layouts on paper or screen, never for the final print (``pnp build --proof``
writes ``print-<paper>-proof.pdf`` beside the real print file, which it does not touch).
Drawn in the card's own frame (origin at the trim's lower-left, y up), after the face:

- trim: solid magenta hairline (where the card is cut);
- bleed: dashed cyan line ``bleed`` outside the trim (how far the background must run);
- safe zone: dashed green line ``safe`` inside the trim (text and key art stay inside);
- footer: ``component/id · side`` in a small white box at the bottom, inside the trim.
"""
from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

MM = 72 / 25.4
SAFE_INSET = 3 * MM          # shared/PRINT.md: text and key art 3 mm inside the trim
TRIM_COLOR = (0.90, 0.0, 0.49)
BLEED_COLOR = (0.0, 0.62, 0.88)
SAFE_COLOR = (0.0, 0.62, 0.25)
LINE = 0.4
FOOTER_SIZE = 4.5


def draw_proof(canvas, w: float, h: float, *, bleed: float, label: str, font_name: str,
               safe: float = SAFE_INSET) -> None:
    canvas.saveState()
    canvas.setLineWidth(LINE)
    canvas.setStrokeColorRGB(*BLEED_COLOR)
    canvas.setDash(2, 1.5)
    if bleed > 0:
        canvas.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=0, stroke=1)
    canvas.setStrokeColorRGB(*SAFE_COLOR)
    if 2 * safe < min(w, h):
        canvas.rect(safe, safe, w - 2 * safe, h - 2 * safe, fill=0, stroke=1)
    canvas.setDash()
    canvas.setStrokeColorRGB(*TRIM_COLOR)
    canvas.rect(0, 0, w, h, fill=0, stroke=1)
    size = FOOTER_SIZE
    width = stringWidth(label, font_name, size)
    room = max(w - 2 * safe, 10)
    if width > room:
        size = max(2.5, size * room / width)
        width = stringWidth(label, font_name, size)
    x, y = (w - width) / 2, max(0.6, safe / 2 - size / 2)
    canvas.setFillColorRGB(1, 1, 1, alpha=0.85)
    canvas.rect(x - 1.5, y - 1.0, width + 3, size + 2.0, fill=1, stroke=0)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(font_name, size)
    canvas.drawString(x, y + 0.15 * size, label)
    canvas.restoreState()
