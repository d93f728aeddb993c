"""Packing: small components' pages share sheets as bands, as arithmetic."""
import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.impose import Profile, impose, mm, named_size, pack, render_pages
from generator.impose.pack import LABEL_STRIP, band_extent
from generator.impose.sheet import crop_mark_room

POKER = named_size("poker")
TOKEN = (mm(20), mm(20))
MARKER = (mm(12), mm(12))
BOSS = (mm(70), mm(120))


def profile(paper="a4", **kw) -> Profile:
    return Profile("test", named_size(paper), **kw)


def parts_of(runs, prof):
    """``[(n, (w, h)), ...]`` -> each component's own pages."""
    return [impose(n, w, h, prof) for n, (w, h) in runs]


def overlaps(a, b, eps=1e-6):
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def segment_box(m):
    return (min(m.x0, m.x1), min(m.y0, m.y1), max(m.x0, m.x1), max(m.y0, m.y1))


def band_of(page, slot):
    return next(band for band in page.bands if slot in band.slots)


# Valheim's small parts: a partial sheet of tokens, then strips of markers of other sizes.
RUNS = [
    [(13, POKER), (8, TOKEN), (3, TOKEN), (1, MARKER), (5, (mm(25), mm(25)))],
    [(3, BOSS), (1, POKER), (4, (mm(16), mm(16))), (120, MARKER), (24, (mm(14), mm(14)))],
    [(160, (mm(18), mm(18))), (4, TOKEN), (8, (mm(22), mm(22))), (8, (mm(14), mm(14))), (1, (mm(22), mm(22)))],
]
PROFILES = [dict(), dict(paper="letter", gutter=mm(4), cut_lines=True), dict(paper="a4-landscape"),
            dict(fit="tightest"), dict(crop_marks=False, cut_lines=True), dict(mark_offset=mm(5))]


@pytest.mark.parametrize("kw", PROFILES)
@pytest.mark.parametrize("runs", RUNS)
def test_packed_pages_hold_every_card_once_in_print_order(runs, kw):
    prof = profile(**kw)
    parts = parts_of(runs, prof)
    pages = pack(parts, prof, [True] * len(parts))
    seen = [(part, slot.index) for page in pages for part, slots in page.groups() for slot in slots]
    assert seen == [(part, k) for part, (n, _) in enumerate(runs) for k in range(n)]
    assert len(pages) <= sum(map(len, parts))


@pytest.mark.parametrize("kw", PROFILES)
@pytest.mark.parametrize("runs", RUNS)
def test_bands_fit_the_printable_area_above_the_label_strip_and_never_overlap(runs, kw):
    prof = profile(**kw)
    room = crop_mark_room(prof)
    px0, py0, px1, py1 = prof.printable
    packed = [page for page in pack(parts_of(runs, prof), prof, [True] * len(runs)) if page.bands]
    assert packed, "these runs share at least one sheet"
    for page in packed:
        strips = [band_extent(band.slots, room) for band in page.bands]
        assert strips[0][1] <= py1 + 1e-6
        assert strips[-1][0] >= py0 + LABEL_STRIP - 1e-6
        for (low, _), (_, high) in zip(strips, strips[1:]):
            assert high <= low + 1e-6  # each band below the one before, in print order
        parts = [band.part for band in page.bands]
        assert parts == sorted(set(parts))  # one band per component, in order
        for a in page.slots:
            for b in page.slots:
                assert a is b or not overlaps(a.bleed_box, b.bleed_box)
            assert px0 - 1e-6 <= a.bleed_box[0] and a.bleed_box[2] <= px1 + 1e-6


@pytest.mark.parametrize("kw", PROFILES)
@pytest.mark.parametrize("runs", RUNS)
def test_marks_stay_in_their_band_and_clear_of_every_bleed_box(runs, kw):
    prof = profile(**kw)
    room = crop_mark_room(prof)
    for page in pack(parts_of(runs, prof), prof, [True] * len(runs)):
        for mark in page.marks + page.cut_lines:
            box = segment_box(mark)
            assert not any(overlaps(box, s.bleed_box) for s in page.slots)
            if page.bands and mark in page.marks:
                # a crop mark lies in the strip of one band
                assert any(band_extent(b.slots, room)[0] - 1e-6 <= box[1] and
                           box[3] <= band_extent(b.slots, room)[1] + 1e-6 for b in page.bands)


def test_each_band_keeps_its_grid_and_marks_moved_only_up_or_down():
    prof = profile()
    parts = parts_of(RUNS[0], prof)
    page = next(page for page in pack(parts, prof, [True] * len(parts)) if page.bands)
    for band in page.bands:
        own = parts[band.part][band.number - 1].slots
        dy = {round(moved.y - s.y, 6) for moved, s in zip(band.slots, own)}
        assert len(dy) == 1
        assert [(s.index, s.x, s.w, s.h, s.rotation) for s in band.slots] == \
            [(s.index, s.x, s.w, s.h, s.rotation) for s in own]
        assert all(moved.bleed_box[0::2] == s.bleed_box[0::2] for moved, s in zip(band.slots, own))


def test_every_crop_mark_of_a_band_prints_at_least_two_millimetres():
    prof = profile()
    page = next(page for page in pack(parts_of(RUNS[1], prof), prof, [True] * 5) if page.bands)
    assert page.marks and min(m.length for m in page.marks) >= mm(2) - 1e-6


def test_valheim_tokens_go_from_seven_pages_to_one_after_the_partial_sheet():
    prof = profile()
    runs = [(160, (mm(18), mm(18))), (4, TOKEN), (8, (mm(22), mm(22))), (8, (mm(14), mm(14))),
            (1, (mm(22), mm(22))), (5, (mm(25), mm(25))), (1, (mm(16), mm(16)))]
    parts = parts_of(runs, prof)
    pages = pack(parts, prof, [True] * len(parts))
    assert [len(p) for p in parts] == [2, 1, 1, 1, 1, 1, 1]
    assert len(pages) == 2
    assert [(b.part, b.number) for b in pages[1].bands] == [(0, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]


@pytest.mark.parametrize("kw", [dict(pack=False), dict(print_shop=True, margin=0.0, crop_marks=False)])
def test_switched_off_or_print_shop_gives_each_component_its_own_pages_unchanged(kw):
    prof = profile(**kw)
    parts = parts_of(RUNS[0], prof)
    pages = pack(parts, prof, [True] * len(parts))
    own = [page for pages_ in parts for page in pages_]
    assert len(pages) == len(own)
    for got, want, part in zip(pages, own, [i for i, p in enumerate(parts) for _ in p]):
        assert got.bands == () and got.part == part
        assert (got.slots, got.marks, got.cut_lines, got.footer, got.number) == \
            (want.slots, want.marks, want.cut_lines, want.footer, want.number)


def test_a_component_with_backs_neither_joins_nor_takes_a_band():
    prof = profile()
    parts = [impose(3, *TOKEN, prof), impose(2, *TOKEN, prof, with_backs=True), impose(3, *TOKEN, prof)]
    pages = pack(parts, prof, [True, False, True])
    assert [page.bands for page in pages] == [()] * 4
    assert [(page.part, page.side) for page in pages] == [(0, "front"), (1, "front"), (1, "back"), (2, "front")]


def test_a_full_first_page_that_does_not_fit_starts_a_sheet_and_later_pages_stay_alone():
    prof = profile()
    parts = parts_of([(4, POKER), (20, POKER), (1, TOKEN)], prof)
    pages = pack(parts, prof, [True] * 3)
    # 4 poker cards (two rows) leave no room for a full sheet of 9; the token joins the last partial
    assert [(page.part, page.number, len(page.bands)) for page in pages] == [(0, 1, 0), (1, 1, 0), (1, 2, 0), (1, 3, 2)]
    assert [(b.part, b.number) for b in pages[-1].bands] == [(1, 3), (2, 1)]


def test_the_page_count_of_a_single_component_is_untouched():
    prof = profile()
    parts = parts_of([(540, POKER)], prof)
    assert pack(parts, prof, [True]) == parts[0]


def _draw(rgb):
    def draw_face(c, index, side):
        c.setFillColorRGB(*rgb)
        c.rect(-50, -50, 400, 400, fill=1, stroke=0)  # far past the bleed: the slot clips it
    return draw_face


def test_a_packed_page_draws_each_band_with_its_component_and_names_them_all(font_name):
    prof = profile()
    parts = parts_of([(11, POKER), (3, TOKEN)], prof)
    pages = pack(parts, prof, [True, True])
    totals = [len(p) for p in parts]

    def label(page, _total):
        groups = page.bands or ()
        return "game · " + " · ".join(f"{'ab'[b.part]} {b.number}/{totals[b.part]}" for b in groups) + " · front"
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=font_name)
    render_pages(canvas, pages, [_draw((1, 0, 0)), _draw((0, 0, 1))], font_name=font_name, label=label)
    canvas.save()
    doc = pdfium.PdfDocument(buffer.getvalue())
    assert len(doc) == 2
    assert "game · a 2/2 · b 1/1 · front" in doc[1].get_textpage().get_text_range()
    image = doc[1].render(scale=1).to_pil().convert("RGB")
    height = prof.paper[1]
    for part, rgb in ((0, (255, 0, 0)), (1, (0, 0, 255))):
        s = pages[1].bands[part].slots[0]
        assert image.getpixel((int(s.x + s.w / 2), int(height - (s.y + s.h / 2)))) == rgb


@pytest.mark.parametrize("spare, shared", [(LABEL_STRIP + mm(0.5), True), (LABEL_STRIP - mm(0.5), False)])
def test_a_band_joins_only_if_it_leaves_the_label_strip_free(spare, shared):
    prof = profile()
    room = crop_mark_room(prof)
    low, high = band_extent(impose(1, *POKER, prof)[0].slots, room)
    free = prof.printable[3] - (high - low) - prof.printable[1]  # below a lone poker card's band
    side = free - spare - 2 * (prof.bleed + room)  # a square token whose band leaves ``spare``
    pages = pack(parts_of([(1, POKER), (1, (side, side))], prof), prof, [True, True])
    assert len(pages) == (1 if shared else 2)
    if shared:
        x0, y0, x1, y1 = pages[0].footer
        assert y0 == pytest.approx(prof.printable[1]) and x1 - x0 > mm(100)
