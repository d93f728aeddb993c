"""A print-shop page (1/8 in bleed) has no white at its edge where the face's painted edge (3 mm) is not white."""
import numpy as np
import pypdfium2 as pdfium
import pytest

from generator import sheets
from generator.profiles import load_profile
from generator.validate import check_content

DPI = 300  # the ring (0.175 mm) is about 2 px: px 0 and 1 lie in it, px 3 in what the face paints


@pytest.fixture(scope="module")
def shop_pages(tiny_checked):
    game, cards = tiny_checked
    profile = load_profile("print-shop", game.root, "long-edge").profile
    pdf = sheets.render_print_pdf(cards, profile, title=game.title)
    return [np.asarray(page.render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
            for page in pdfium.PdfDocument(pdf)]


def _edges(img):
    """``(outermost px, the px 3 in)`` for the two outer rows and columns on each side."""
    return [(img[:, k], img[:, 3]) for k in (0, 1)] + [(img[:, -1 - k], img[:, -4]) for k in (0, 1)] + \
        [(img[k], img[3]) for k in (0, 1)] + [(img[-1 - k], img[-4]) for k in (0, 1)]


def _white(px):
    return (px >= 250).all(axis=-1)


def test_no_page_edge_is_white_where_the_face_edge_is_not(shop_pages):
    assert len(shop_pages) == 4 * 2 + 6  # heroes front and back, coins
    coloured = 0
    for number, img in enumerate(shop_pages, 1):
        for outer, inner in _edges(img):
            coloured += int((~_white(inner)).sum())
            assert not (_white(outer) & ~_white(inner)).any(), f"page {number}: white at the edge"
    assert coloured > 10_000  # backs and coins are coloured to the edge: the check checked something


def test_the_ring_carries_on_the_colour_at_the_face_edge(shop_pages):
    """A hero's band (another colour on one side than the white of the others) and the back's
    colour run on to the page edge, as painted 3 px in."""
    for img in shop_pages:
        for outer, inner in _edges(img):
            assert np.abs(outer - inner).max(axis=-1).mean() < 8


def test_what_a_layout_paints_past_3mm_is_printed_over_the_ring(tiny):
    """The stretched edge lies under the face: a box a layout draws from -5 mm to the painted
    edge (none of it in the strip the ring stretches) prints as drawn, over the ring."""
    coin = tiny / "layouts" / "tiny" / "coin.yaml"
    coin.write_text(coin.read_text(encoding="utf-8") + "  - {id: tab, type: rect, x: -5mm, y: 0mm, w: 2mm, h: 20mm,"
                    " fill: \"#ff0000\"}\n", encoding="utf-8")
    game, cards, problems = check_content(tiny, check_faces=False)
    assert not problems
    profile = load_profile("print-shop", game.root, "long-edge").profile
    coins = [c.id for c in game.components if c.id == "coins"]
    pdf = sheets.render_print_pdf(cards, profile, title=game.title, components=coins)
    img = np.asarray(pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
    middle = img.shape[0] // 2
    assert img[middle, 0].tolist() == [255, 0, 0]   # the tab, not the coin's gold stretched
    assert img[middle, 3].tolist() != [255, 0, 0]   # 3 px in: the coin
    assert _white(img[:, -1]).sum() == 0
