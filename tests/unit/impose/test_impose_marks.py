"""Crop marks, cut lines and the footer rectangle: never over art, always printable."""
import math

import pytest

from generator.impose import Profile, impose, mm, named_size

POKER = named_size("poker")


def profile(paper="a4", **kw) -> Profile:
    return Profile("test", named_size(paper), **kw)


def inside_open(px, py, box, eps=1e-6):
    return box[0] + eps < px < box[2] - eps and box[1] + eps < py < box[3] - eps


def segment_hits_box(m, box, steps=200):
    return any(inside_open(m.x0 + (m.x1 - m.x0) * t / steps, m.y0 + (m.y1 - m.y0) * t / steps, box)
               for t in range(steps + 1))


def corners(page):
    return [(x, y) for s in page.slots for x in (s.x, s.x + s.w) for y in (s.y, s.y + s.h)]


PROFILES = [
    dict(paper="a4"), dict(paper="a4", gutter=mm(6)), dict(paper="a4", gutter=mm(10), cut_lines=True),
    dict(paper="letter", gutter=mm(4), cut_lines=True), dict(paper="a4-landscape", cut_lines=True),
    dict(paper="a4", bleed=mm(4), mark_offset=mm(2), back_offset=(mm(1.5), mm(-1))),
]


@pytest.mark.parametrize("kw", PROFILES)
@pytest.mark.parametrize("n", [1, 2, 4, 9, 11])
def test_marks_never_touch_art_and_stay_printable(kw, n):
    prof = profile(**kw)
    x0, y0, x1, y1 = prof.printable
    offset = max(prof.mark_offset, prof.bleed)
    for page in impose(n, *POKER, prof, with_backs=True):
        assert page.marks
        trims = [v for s in page.slots for v in (s.x, s.x + s.w)]
        trims_y = [v for s in page.slots for v in (s.y, s.y + s.h)]
        for m in page.marks + page.cut_lines:
            for s in page.slots:
                assert not segment_hits_box(m, s.nominal_bleed_box)
            for x, y in ((m.x0, m.y0), (m.x1, m.y1)):
                assert x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6
            assert m.length >= mm(1) - 1e-6
        for m in page.marks:
            assert m.length <= prof.mark_length + 1e-6
            # on a trim line, starting at least mark_offset (and the bleed) from every trim corner
            assert (m.x0 == m.x1 and any(abs(m.x0 - t) < 1e-6 for t in trims)) or \
                   (m.y0 == m.y1 and any(abs(m.y0 - t) < 1e-6 for t in trims_y))
            near = min(math.dist(end, c) for end in ((m.x0, m.y0), (m.x1, m.y1)) for c in corners(page))
            assert near >= offset - 1e-6


def test_3x3_a4_marks_exact():
    page = impose(9, *POKER, profile("a4"))[0]
    vertical = sorted({round(m.x0 / mm(1), 3) for m in page.marks if m.x0 == m.x1})
    horizontal = sorted({round(m.y0 / mm(1), 3) for m in page.marks if m.y0 == m.y1})
    assert vertical == [10.5, 73.5, 136.5, 199.5]            # shared cut lines: 4, not 6
    assert horizontal == [16.5, 104.5, 192.5, 280.5]
    assert len(page.marks) == 16
    top = [m for m in page.marks if m.x0 == m.x1 and m.y0 > mm(280)]
    assert {(round(m.y0 / mm(1), 3), round(m.y1 / mm(1), 3)) for m in top} == {(283.5, 288.5)}
    left = [m for m in page.marks if m.y0 == m.y1 and m.x1 < mm(10.5)]
    # 10.5 - 3 = 7.5 mm start, clipped at the 5 mm margin
    assert {(round(m.x0 / mm(1), 3), round(m.x1 / mm(1), 3)) for m in left} == {(5.0, 7.5)}


def test_cut_lines_run_through_a_blank_gutter():
    page = impose(9, *named_size("mini-euro"), profile("a4", gutter=mm(10), cut_lines=True))[0]
    longest = max(m.length for m in page.cut_lines)
    assert longest >= mm(200)                       # the whole printable height, between bleeds
    grid_left = min(s.x for s in page.slots)
    xs = sorted({round(m.x0, 6) for m in page.cut_lines if m.x0 == m.x1})
    assert xs[0] == pytest.approx(grid_left)        # outer trim
    a, b = sorted({s.x for s in page.slots})[:2]
    assert xs[1] == pytest.approx((a + page.slots[0].w + b) / 2)   # gutter middle


def test_no_marks_when_disabled():
    page = impose(9, *POKER, profile("a4", crop_marks=False))[0]
    assert page.marks == () and page.cut_lines == ()


@pytest.mark.parametrize("kw", PROFILES)
def test_footer_is_clear_of_marks_and_art(kw):
    prof = profile(**kw)
    for page in impose(11, *POKER, prof, with_backs=True):
        assert page.footer is not None
        fx0, fy0, fx1, fy1 = page.footer
        x0, y0, x1, y1 = prof.printable
        assert x0 - 1e-6 <= fx0 < fx1 <= x1 + 1e-6 and y0 - 1e-6 <= fy0 < fy1 <= y1 + 1e-6
        grown = (fx0 - mm(1) + 1e-3, fy0 - mm(1) + 1e-3, fx1 + mm(1) - 1e-3, fy1 + mm(1) - 1e-3)
        for m in page.marks + page.cut_lines:
            assert not segment_hits_box(m, grown)
        for s in page.slots:
            b = s.nominal_bleed_box
            assert min(b[2], fx1) <= max(b[0], fx0) or min(b[3], fy1) <= max(b[1], fy0)


@pytest.mark.parametrize("kw", [dict(paper="a4", cut_lines=True), dict(paper="letter", cut_lines=True)])
def test_sheets_with_the_same_slots_share_their_marks_and_each_page_gets_its_own(kw):
    """Marks, cut lines and footer are worked out once per slot arrangement (a large deck would
    otherwise hold one copy per sheet), and are still exactly those of each page's slots."""
    from generator.impose.marks import crop_marks, cut_lines

    prof = profile(**kw)
    pages = impose(37, *POKER, prof, with_backs=True)  # full sheets, then a partial one
    fronts = [p for p in pages if p.side == "front"]
    assert fronts[0].marks is fronts[1].marks and fronts[0].cut_lines is fronts[1].cut_lines
    assert fronts[-1].marks != fronts[0].marks  # the partial sheet has fewer cards
    for page in pages:
        assert page.marks == crop_marks(page.slots, prof)
        assert page.cut_lines == cut_lines(page.slots, prof)
