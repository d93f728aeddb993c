"""Gutterfold geometry, checked with a paper model: fold the sheet, turn the card over, look."""
import itertools
import math

import pytest

from generator.impose import Profile, mm, named_size
from generator.impose.errors import ImposeError
from generator.impose.gutterfold import (FOLD_GAP, back_rotation, fold_paper, fold_point, impose_gutterfold,
                                         plan_gutterfold, render_gutterfold)

SIZES = ["poker", "bridge", "mini-euro", "square", "tarot"]


def profile(**kw) -> Profile:
    return Profile("test", named_size("a4"), **kw)


def close(p, q, tol=1e-6):
    return math.hypot(p[0] - q[0], p[1] - q[1]) < tol


def folded_onto_front(page, back, front):
    """The paper model: fold the back half onto the front half, then turn the finished card
    over about its own vertical axis. The back is upright there exactly when every point
    (u, v) of the back lies on the front's point (w - u, v)."""
    fold = fold_point(page.fold, page.fold_line.x0 if page.fold == "vertical" else page.fold_line.y0)
    w, h = front.card_size
    for u, v in [(0, 0), (w, 0), (0, h), (w, h), (w * 0.3, h * 0.8), (w * 0.9, h * 0.1)]:
        if not close(fold(*back.to_page(u, v)), front.to_page(w - u, v)):
            return False
    return True


@pytest.mark.parametrize("fold, size, rotate", list(itertools.product(("vertical", "horizontal"), SIZES, (True, False))))
def test_every_back_lands_on_its_front_upright(fold, size, rotate):
    w, h = named_size(size)
    pages = impose_gutterfold(13, w, h, profile(allow_rotate=rotate), fold)
    assert sum(len(p.fronts) for p in pages) == 13
    for page in pages:
        fronts = {s.index: s for s in page.fronts}
        assert sorted(fronts) == sorted(s.index for s in page.backs)
        for back in page.backs:
            assert back.card_size == pytest.approx(fronts[back.index].card_size)
            assert folded_onto_front(page, back, fronts[back.index]), (fold, size, back)


def test_the_paper_model_catches_a_wrong_rotation():
    """The check above fails for the unturned back of a horizontal fold (it would be upside down)."""
    page = impose_gutterfold(3, *named_size("poker"), profile(allow_rotate=False), "horizontal")[0]
    front = page.fronts[0]
    back = page.backs[0]
    assert back.rotation == 180 and folded_onto_front(page, back, front)
    from dataclasses import replace
    assert not folded_onto_front(page, replace(back, rotation=0), front)
    vpage = impose_gutterfold(3, *named_size("poker"), profile(allow_rotate=False), "vertical")[0]
    assert not folded_onto_front(vpage, replace(vpage.backs[0], rotation=180), vpage.fronts[0])


def test_print_md_rules_vertical_upright_horizontal_180():
    poker = named_size("poker")
    v = impose_gutterfold(4, *poker, profile(allow_rotate=False), "vertical")[0]
    assert v.page_size[0] > v.page_size[1], "vertical fold on a landscape sheet"
    assert {s.rotation for s in v.backs} == {0}
    h = impose_gutterfold(3, *poker, profile(allow_rotate=False), "horizontal")[0]
    assert h.page_size[0] < h.page_size[1], "horizontal fold on a portrait sheet"
    assert {s.rotation for s in h.backs} == {180}
    assert back_rotation("vertical", 90) == 270 and back_rotation("horizontal", 90) == 90


@pytest.mark.parametrize("fold", ["vertical", "horizontal"])
def test_bleed_keeps_5mm_from_the_fold_and_stays_printable(fold):
    prof = profile(gutter=mm(4), cut_lines=True)
    for size in SIZES:
        for page in impose_gutterfold(20, *named_size(size), prof, fold):
            at = page.fold_line.x0 if fold == "vertical" else page.fold_line.y0
            pw, ph = page.page_size
            for s in page.slots:
                x0, y0, x1, y1 = s.nominal_bleed_box
                lo, hi = (x0, x1) if fold == "vertical" else (y0, y1)
                gap = at - hi if s.side == ("front" if fold == "vertical" else "back") else lo - at
                assert gap >= FOLD_GAP - 1e-6, (size, s)
                assert x0 >= prof.margin - 1e-6 and y0 >= prof.margin - 1e-6
                assert x1 <= pw - prof.margin + 1e-6 and y1 <= ph - prof.margin + 1e-6
            boxes = [s.bleed_box for s in page.slots]
            for a, b in itertools.combinations(boxes, 2):
                overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
                assert min(overlap) <= 1e-6, "bleed boxes never overlap"


def test_a_card_too_big_for_half_a_sheet_is_an_error_naming_the_fold():
    with pytest.raises(ImposeError, match="horizontal fold"):
        plan_gutterfold(mm(150), mm(200), profile(), "horizontal")
    with pytest.raises(ImposeError, match="fold"):
        plan_gutterfold(*named_size("poker"), profile(), "diagonal")


def test_fold_paper_turns_the_sheet():
    a4 = named_size("a4")
    assert fold_paper(a4, "vertical") == (a4[1], a4[0])
    assert fold_paper((a4[1], a4[0]), "horizontal") == a4


class RecordingCanvas:
    """Just enough of a canvas to follow the transforms the renderer applies to each face."""

    def __init__(self):
        self.matrix = (1, 0, 0, 1, 0, 0)
        self.stack = []
        self.faces = []

    def _apply(self, a, b, c, d, e, f):
        A, B, C, D, E, F = self.matrix
        self.matrix = (A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d, A * e + C * f + E, B * e + D * f + F)

    def translate(self, x, y):
        self._apply(1, 0, 0, 1, x, y)

    def rotate(self, angle):
        r = math.radians(angle)
        self._apply(math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)

    def saveState(self):
        self.stack.append(self.matrix)

    def restoreState(self):
        self.matrix = self.stack.pop()

    def point(self, u, v):
        a, b, c, d, e, f = self.matrix
        return (a * u + c * v + e, b * u + d * v + f)

    def __getattr__(self, name):        # drawing calls we do not follow
        return lambda *a, **k: _Path()


class _Path:
    def __getattr__(self, name):
        return lambda *a, **k: None


@pytest.mark.parametrize("fold, rotate", list(itertools.product(("vertical", "horizontal"), (True, False))))
def test_the_renderer_draws_each_face_where_the_geometry_says(fold, rotate):
    pages = impose_gutterfold(5, *named_size("poker"), profile(allow_rotate=rotate), fold)
    canvas = RecordingCanvas()
    slots = {(s.index, s.side): s for p in pages for s in p.slots}

    def draw_face(c, index, side):
        slot = slots[(index, side)]
        w, h = slot.card_size
        for u, v in [(0, 0), (w, 0), (0, h), (w * 0.25, h * 0.6)]:
            assert close(c.point(u, v), slot.to_page(u, v), 1e-6)
        canvas.faces.append((index, side))

    render_gutterfold(canvas, pages, draw_face, font_name="Helvetica")
    assert sorted(canvas.faces) == sorted(slots)


def test_rendered_sheet_folds_onto_itself(tmp_path):
    """A raster paper test: paint each front's top-left corner red and each back's top-left
    corner (as seen on the back) blue, rasterize, fold the image about the fold line: behind
    each front's top-RIGHT corner (the top-left seen from behind) there must be blue."""
    import io

    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    for fold in ("vertical", "horizontal"):
        prof = profile(allow_rotate=True)
        pages = impose_gutterfold(4, *named_size("poker"), prof, fold)
        slots = {(s.index, s.side): s for s in pages[0].slots}
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=pages[0].page_size)

        def draw_face(c, index, side):
            w, h = slots[(index, side)].card_size
            c.setFillColorRGB(*((1, 0, 0) if side == "front" else (0, 0, 1)))
            c.rect(0, h - h / 4, w / 4, h / 4, stroke=0, fill=1)

        render_gutterfold(canvas, pages, draw_face, font_name="Helvetica")
        canvas.save()
        scale = 30 / 72
        image = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=scale).to_pil().convert("RGB")
        pw, ph = pages[0].page_size
        at = pages[0].fold_line.x0 if fold == "vertical" else pages[0].fold_line.y0
        fold_map = fold_point(fold, at)
        for front in pages[0].fronts:
            w, h = front.card_size
            x, y = front.to_page(w - w / 8, h - h / 8)   # inside the front's top-right quarter
            assert image.getpixel((int(x * scale), int((ph - y) * scale)))[:3] != (0, 0, 255)
            bx, by = fold_map(x, y)                      # the same paper point on the back half
            r, g, b = image.getpixel((int(bx * scale), int((ph - by) * scale)))[:3]
            assert b > 200 and r < 80, (fold, front.index, (r, g, b))
