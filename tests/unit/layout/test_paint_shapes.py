"""Simple shapes repeated across cards are written once by ReportLab and replayed: the pages
must print exactly as when every shape goes through ReportLab, and a colour's own transparency
must stay with its shape."""
import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.fonts import load_fonts
from generator.layout import paint
from generator.layout.instantiate import Op
from generator.layout.paint import Painter

CARD = (180.0, 250.0)


def _card(colour):
    return [Op("rect", -8, -8, 196, 266, {"fill": colour}),
            Op("roundrect", 8, 8, 164, 234, {"fill": "#ffffff", "stroke": colour, "stroke_width": 1.5, "r": 8}),
            Op("ellipse", 14, 14, 25, 25, {"fill": colour, "stroke": None, "stroke_width": 0.5}),
            Op("rect", 40, 120, 100, 40, {"fill": "transparent", "stroke": "#000000", "stroke_width": 2}),
            Op("rect", 60, 180, 60, 40, {"fill": "#2471a3"})]


def _pages(cards) -> tuple[bytes, list[bytes]]:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=CARD, invariant=1, pageCompression=0)
    painter = Painter(load_fonts(), None, CARD[1])
    for ops in cards:
        painter.paint(c, ops)
        c.showPage()
    c.save()
    pdf = buf.getvalue()
    return pdf, [page.render(scale=1).to_pil().convert("RGB").tobytes() for page in pdfium.PdfDocument(pdf)]


def test_replayed_shapes_print_as_reportlab_draws_them(monkeypatch):
    cards = [_card(c) for c in ("#c0392b", "#2471a3", "#c0392b", "#2471a3", "#c0392b")]
    cached_pdf, cached = _pages(cards)
    monkeypatch.setattr(paint, "_SHAPE_CACHE_SIZE", 0)
    plain_pdf, plain = _pages(cards)
    assert cached == plain
    assert cached_pdf == plain_pdf  # the very operators ReportLab writes


def test_a_transparent_fill_does_not_fade_the_shapes_after_it():
    _, pages = _pages([_card("#c0392b")] * 2)
    for page in pages:
        width = int(CARD[0])
        x, y = 90, 200  # inside the last, opaque blue rect (y down in the image)
        offset = 3 * (y * width + x)
        assert tuple(page[offset:offset + 3]) == (0x24, 0x71, 0xA3)
        x, y = 90, 140  # inside the transparent rect: the white panel shows through
        offset = 3 * (y * width + x)
        assert tuple(page[offset:offset + 3]) == (255, 255, 255)


@pytest.mark.parametrize("limit", [0, 1])
def test_the_replay_store_is_bounded(monkeypatch, limit):
    monkeypatch.setattr(paint, "_SHAPE_CACHE_SIZE", limit)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=CARD)
    painter = Painter(load_fonts(), None, CARD[1])
    painter.paint(c, _card("#c0392b") + _card("#2471a3"))
    assert len(painter._shapes) == limit
