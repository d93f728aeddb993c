"""Rendered PDFs: deterministic, embedded font only, faces where the geometry says, clipped."""
import io
import re

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.impose import (Profile, impose, mm, named_size, plan_tiles, render_assembly_page,
                              render_pages, render_tiles)

POKER = named_size("poker")
SCALE = 1.0                     # 72 dpi: 1 px = 1 pt
COLOURS = [(230, 40, 40), (40, 170, 60), (40, 70, 220), (230, 200, 30), (150, 60, 200),
           (30, 200, 200), (240, 130, 20), (120, 120, 120), (200, 90, 150), (100, 50, 20),
           (20, 120, 80)]
TOP = (0, 0, 0)                 # a band along each card's top edge


def colour(index, side):
    r, g, b = COLOURS[index % len(COLOURS)]
    return (r, g, b) if side == "front" else (255 - r // 2, 255 - g // 2, 255 - b // 2)


def face_painter(card_w, card_h):
    def draw_face(c, index, side):
        c.setFillColorRGB(*[v / 255 for v in colour(index, side)])
        c.rect(-200, -200, card_w + 400, card_h + 400, fill=1, stroke=0)   # far past the bleed
        c.setFillColorRGB(0, 0, 0)
        c.rect(-200, card_h - mm(8), card_w + 400, 400, fill=1, stroke=0)  # top band + bleed
    return draw_face


def render(pages, font_name, card=POKER, label="test · poker") -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=font_name)
    render_pages(canvas, pages, face_painter(*card), font_name=font_name, label=label)
    canvas.save()
    return buffer.getvalue()


def images(pdf: bytes, scale=SCALE):
    doc = pdfium.PdfDocument(pdf)
    return [doc[i].render(scale=scale).to_pil().convert("RGB") for i in range(len(doc))]


def pixel(image, page_size, x, y, scale=SCALE):
    """Colour at PDF point (x, y) (origin lower-left)."""
    return image.getpixel((int(x * scale), int((page_size[1] - y) * scale)))


def close(a, b, tol=12):
    return all(abs(u - v) <= tol for u, v in zip(a, b))


def profile(**kw):
    return Profile("t", named_size(kw.pop("paper", "a4")), **kw)


def test_pdf_is_byte_identical_and_embeds_only_the_given_font(font_name):
    pages = impose(11, *POKER, profile(), with_backs=True)
    first, second = render(pages, font_name), render(pages, font_name)
    assert first == second
    assert b"/BaseFont /Helvetica" not in first
    assert re.findall(rb"/BaseFont /(\S+)", first) and all(
        b"IPAexGothic" in name for name in re.findall(rb"/BaseFont /(\S+)", first))
    assert len(pdfium.PdfDocument(first)) == 4


def test_faces_land_in_their_slots_front_and_mirrored_back(font_name):
    prof = profile()
    pages = impose(11, *POKER, prof, with_backs=True)
    for page, image in zip(pages, images(render(pages, font_name))):
        for s in page.slots:
            centre = pixel(image, page.page_size, s.x + s.w / 2, s.y + s.h / 2)
            assert close(centre, colour(s.index, page.side)), (page.number, s.index, centre)
            # the card's top band is at the top of its slot: art upright
            assert close(pixel(image, page.page_size, s.x + s.w / 2, s.y + s.h - mm(2)), TOP)
    # card 9's back is behind its front: top-right instead of top-left
    front, back = pages[2], pages[3]
    f9 = next(s for s in front.slots if s.index == 9)
    b9 = next(s for s in back.slots if s.index == 9)
    assert b9.x == pytest.approx(prof.paper[0] - f9.x - f9.w)


def test_faces_are_clipped_to_their_bleed_boxes(font_name):
    pages = impose(9, *POKER, profile(), with_backs=False)
    (image,) = images(render(pages, font_name))
    size = pages[0].page_size
    a, b = pages[0].slots[3], pages[0].slots[4]         # row 1, shared cut line
    y = a.y + a.h / 2
    assert close(pixel(image, size, a.x + a.w - 2, y), colour(3, "front"))
    assert close(pixel(image, size, b.x + 2, y), colour(4, "front"))
    # 1 mm outside the outer bleed (beyond the grid's left edge) stays paper-white
    assert pixel(image, size, a.x - mm(4), y) == (255, 255, 255)
    assert close(pixel(image, size, a.x - mm(2), y), colour(3, "front"))


def test_rotated_cards_point_up_to_the_left_and_backs_to_the_right(font_name):
    pages = impose(8, *POKER, profile(gutter=mm(6)), with_backs=True)
    front, back = images(render(pages, font_name))
    for page, image, edge in ((pages[0], front, "left"), (pages[1], back, "right")):
        for s in page.slots:
            cy = s.y + s.h / 2
            band_x = s.x + mm(2) if edge == "left" else s.x + s.w - mm(2)
            other_x = s.x + s.w - mm(2) if edge == "left" else s.x + mm(2)
            assert close(pixel(image, page.page_size, band_x, cy), TOP)
            assert close(pixel(image, page.page_size, other_x, cy), colour(s.index, page.side))


def test_crop_marks_are_drawn_black(font_name):
    pages = impose(9, *POKER, profile(mark_width=1.0), with_backs=False)
    (image,) = images(render(pages, font_name), scale=4)
    m = max(pages[0].marks, key=lambda m: m.y0)        # a vertical mark above the grid
    mid = ((m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2)
    assert sum(pixel(image, pages[0].page_size, *mid, scale=4)) < 200


def test_print_shop_pdf_has_4_number_boxes_and_sheets_after_it_have_none(font_name):
    shop = impose(1, *POKER, profile(print_shop=True, bleed=9.0, crop_marks=False), with_backs=True)
    sheet = impose(1, *POKER, profile())
    pdf = render(shop + sheet, font_name)
    for box in (rb"/TrimBox", rb"/BleedBox"):
        found = re.findall(box + rb" \[\s*([-\d.\s]+?)\s*\]", pdf)
        assert len(found) == 2                              # the two print-shop pages only
        assert all(len(f.split()) == 4 for f in found)
    doc = pdfium.PdfDocument(pdf)
    w, h = POKER
    assert doc[0].get_size() == pytest.approx((w + 18, h + 18), abs=0.01)
    assert doc[0].get_trimbox(fallback_ok=False) == pytest.approx((9, 9, 9 + w, 9 + h), abs=0.01)
    assert doc[0].get_bleedbox(fallback_ok=False) == pytest.approx((0, 0, w + 18, h + 18), abs=0.01)
    assert doc[2].get_trimbox(fallback_ok=False) is None


def test_footer_label_text(font_name):
    pages = impose(2, *POKER, profile(), with_backs=True)
    pdf = render(pages, font_name, label=lambda page, total: f"fatal-fight · arts · {page.number}/{total} · {page.side}")
    doc = pdfium.PdfDocument(pdf)
    assert "fatal-fight · arts · 2/2 · back" in doc[1].get_textpage().get_text_range()


def board_painter(bw, bh):
    def draw_board(c):
        c.setFillColorRGB(1, 0, 0)
        c.rect(0, 0, bw / 2, bh, fill=1, stroke=0)
        c.setFillColorRGB(0, 0, 1)
        c.rect(bw / 2, 0, bw / 2, bh, fill=1, stroke=0)
        c.setFillColorRGB(0, 1, 0)
        c.rect(0, bh - mm(50), bw, mm(50), fill=1, stroke=0)     # a green band along the top
    return draw_board


def render_board(plan, font_name) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=font_name)
    render_assembly_page(canvas, plan, font_name=font_name, title="map",
                         draw_board=board_painter(*plan.board))
    render_tiles(canvas, plan, board_painter(*plan.board), font_name=font_name, title="map")
    canvas.save()
    return buffer.getvalue()


def test_tiled_board_pdf_deterministic_and_tiles_show_their_part(font_name):
    bw, bh = named_size("a2")
    plan = plan_tiles(bw, bh, *named_size("a4"), mm(5), mm(10))
    pdf = render_board(plan, font_name)
    assert pdf == render_board(plan, font_name)
    assert b"/BaseFont /Helvetica" not in pdf
    pages = images(pdf)
    assert len(pages) == 1 + len(plan.tiles)
    for tile, image in zip(plan.tiles, pages[1:]):
        for bx, by in ((mm(100), mm(300)), (mm(320), mm(300)), (mm(100), bh - mm(20))):
            sx, sy, sw, sh = tile.src
            if not (sx + mm(12) < bx < sx + sw - mm(12) and sy + mm(12) < by < sy + sh - mm(12)):
                continue
            px, py = tile.to_page(bx, by)
            want = (0, 255, 0) if by > bh - mm(50) else (255, 0, 0) if bx < bw / 2 else (0, 0, 255)
            assert close(pixel(image, plan.page_size, px, py), want), (tile.label, bx, by)
        # outside the tile's printable area the page stays white (the board is clipped)
        x, y, w, h = tile.placement
        assert pixel(image, plan.page_size, x - mm(2), y + h / 2) == (255, 255, 255)
    text = pdfium.PdfDocument(pdf)[2].get_textpage().get_text_range()
    assert "A2 — row A, column 2 · glue under A1's right edge" in text


def test_pdf_is_identical_in_another_process_with_another_hash_seed(font_name, tmp_path):
    import os
    import subprocess
    import sys

    script = tmp_path / "render.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {os.path.dirname(__file__)!r})\n"
        "from conftest import register_font\n"
        "import test_impose_render as t\n"
        "from generator.impose import impose\n"
        "name = register_font()\n"
        "pages = impose(11, *t.POKER, t.profile(gutter=t.mm(4), cut_lines=True), with_backs=True)\n"
        "sys.stdout.buffer.write(t.render(pages, name))\n", encoding="utf-8")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    other = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, check=True).stdout
    pages = impose(11, *POKER, profile(gutter=mm(4), cut_lines=True), with_backs=True)
    assert other == render(pages, font_name)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_slot_frames_print_as_reportlab_transforms_draw_them(font_name, paper, monkeypatch):
    """The slot's save, clip and restore are written as operators; every face, upright or turned
    either way, must be placed and clipped exactly as ReportLab's saveState/clipPath draw it."""
    from generator.impose import render as render_module

    def reference(canvas, slot, side, draw_face):
        canvas.saveState()
        x0, y0, x1, y1 = slot.bleed_box
        path = canvas.beginPath()
        path.rect(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(path, stroke=0, fill=0)
        if slot.rotation == 90:
            canvas.translate(slot.x + slot.w, slot.y)
            canvas.rotate(90)
        elif slot.rotation == 270:
            canvas.translate(slot.x, slot.y + slot.h)
            canvas.rotate(-90)
        else:
            canvas.translate(slot.x, slot.y)
        draw_face(canvas, slot.index, side)
        canvas.restoreState()

    pages = impose(11, *POKER, profile(paper=paper), with_backs=True)
    assert {s.rotation for p in pages for s in p.slots} == ({0} if paper == "a4" else {90, 270})
    written = render(pages, font_name)
    monkeypatch.setattr(render_module, "_draw_slot", reference)
    drawn = render(pages, font_name)
    assert written == drawn  # the very operators, so the very pixels


def test_a_label_too_long_for_the_first_edge_goes_to_another_edge(font_name, monkeypatch):
    """70 mm tiles on A4 leave only 27 mm beside the grid at the bottom and top: a page label that
    needs more even at the smallest size goes to the left edge instead of being cut off at both
    ends; a label that fits stays where it was."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.impose import render as render_module

    tile = (mm(70), mm(70))
    pages = impose(16, *tile, profile(), with_backs=True)
    drawn = []
    real = render_module.draw_label

    def spy(canvas, box, text, font, *args):
        drawn.append((box, text))
        real(canvas, box, text, font, *args)

    monkeypatch.setattr(render_module, "draw_label", spy)
    render(pages, font_name, card=tile,
           label=lambda page, total: f"Valheim（仮題） · マップカード · {page.number}/{total} · 表 (front)")
    assert len(drawn) == len(pages)
    for (x0, y0, x1, y1), text in drawn:
        assert stringWidth(text, font_name, render_module.FOOTER_MIN_SIZE) <= max(x1 - x0, y1 - y0), text
    drawn.clear()
    render(pages, font_name, card=tile, label="short")
    assert [box for box, _ in drawn] == [page.footer for page in pages]


def test_a_label_no_edge_holds_drops_its_leading_parts_until_one_does(font_name):
    """Letter paper with a grid that leaves ~23 mm at most: the full label needs more at 4 pt on
    every edge, so the game's title goes first, then the component; what is printed fits whole."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.impose.render import FOOTER_MIN_SIZE, label_box

    boxes = [(0, 0, mm(23), 7), (0, 0, 7, mm(12))]
    full = "ファタル・ファイト · 各種カウンター · 1/1 · 表 (front)"
    assert stringWidth(full, font_name, FOOTER_MIN_SIZE) > mm(23)
    box, text = label_box(boxes[0], boxes[1:], full, font_name)
    assert text == "各種カウンター · 1/1 · 表 (front)" and box == boxes[0]
    assert stringWidth(text, font_name, FOOTER_MIN_SIZE) <= mm(23)
    box, text = label_box((0, 0, mm(14), 7), (), full, font_name)
    assert text == "1/1 · 表 (front)"
    assert label_box(boxes[0], (), "short", font_name) == (boxes[0], "short")


def test_marks_are_written_as_canvas_lines_writes_them():
    # _draw_lines writes the marks' operators itself (through the number memo): the same code as ReportLab's
    from generator.impose.page import Mark
    from generator.impose.render import _draw_lines

    marks = (Mark(0, 0.0, 12.5, -0.0), Mark(1e-7, 99.123456789, 100, 200.5), Mark(595.2756, 20.0, 595.2756, 8.5))
    ours, theirs = Canvas(io.BytesIO()), Canvas(io.BytesIO())
    for _ in range(2):  # the second time from the memo
        _draw_lines(ours, marks, 0.25)
        theirs.saveState()
        theirs.setStrokeColorCMYK(0, 0, 0, 1)
        theirs.setLineWidth(0.25)
        theirs.setLineCap(0)
        theirs.setDash()
        theirs.lines([(m.x0, m.y0, m.x1, m.y1) for m in marks])
        theirs.restoreState()
    assert ours._code == theirs._code and "0 0 m 12.5 0 l" in ours._code
