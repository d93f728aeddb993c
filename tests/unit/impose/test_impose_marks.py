"""Crop marks, cut lines and the footer rectangle: never over art, always printable."""
import math
from pathlib import Path

import pytest

from generator.impose import Profile, impose, load_profile_plain, mm, named_size, plan_grid, to_mm
from generator.impose.marks import LABEL_STRIP, MIN_FIT_MARK
from generator.impose.sheet import mark_room

PROFILES_DIR = Path(__file__).resolve().parents[3] / "layouts" / "profiles"

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


# -- the auto-fit keeps room for the crop marks (fit: marks, the default) ----------------------

SHIPPED_PROFILES = ("a4-portrait", "a4-landscape", "letter-portrait", "letter-landscape", "a3-portrait",
                    "a3-landscape")
# every card, tile and token size of the shipped games (mm)
SHIPPED_SIZES = [(63, 88), (70, 120), (70, 70), (25, 45)] + [(d, d) for d in (12, 14, 16, 18, 20, 22, 25)]


def _trim_lines(page):
    xs = sorted({round(v, 6) for s in page.slots for v in (s.x, s.x + s.w)})
    ys = sorted({round(v, 6) for s in page.slots for v in (s.y, s.y + s.h)})
    return xs, ys


def _assert_every_trim_line_has_both_marks(page, least):
    xs, ys = _trim_lines(page)
    top = max(s.y + s.h for s in page.slots)
    left = min(s.x for s in page.slots)
    for x in xs:
        marks = [m for m in page.marks if m.x0 == m.x1 and abs(m.x0 - x) < 1e-4]
        above = [m for m in marks if m.y0 > top]
        assert len(marks) == 2 and len(above) == 1, f"column line at {to_mm(x):.1f} mm: {marks}"
        assert min(m.length for m in marks) >= least - 1e-6
    for y in ys:
        marks = [m for m in page.marks if m.y0 == m.y1 and abs(m.y0 - y) < 1e-4]
        before = [m for m in marks if m.x1 < left]
        assert len(marks) == 2 and len(before) == 1, f"row line at {to_mm(y):.1f} mm: {marks}"
        assert min(m.length for m in marks) >= least - 1e-6


@pytest.mark.parametrize("name", SHIPPED_PROFILES)
@pytest.mark.parametrize("size", SHIPPED_SIZES)
def test_shipped_profiles_leave_room_for_every_crop_mark(name, size):
    prof = load_profile_plain(PROFILES_DIR / f"{name}.yaml")
    page = impose(500, mm(size[0]), mm(size[1]), prof)[0]
    _assert_every_trim_line_has_both_marks(page, MIN_FIT_MARK)


def test_fatal_fight_counters_keep_their_column_marks():
    # 20 mm counters on A4 portrait: 14 rows (280 + 2 x 3 mm bleed = 286 of 287 mm) left no room
    # for the column marks; 13 rows leave 3.5 mm of mark above and below
    prof = load_profile_plain(PROFILES_DIR / "a4-portrait.yaml")
    grid = plan_grid(mm(20), mm(20), prof)
    assert (grid.cols, grid.rows) == (9, 13)
    page = impose(124, mm(20), mm(20), prof)[0]
    _assert_every_trim_line_has_both_marks(page, mm(3.5))


def test_fit_tightest_puts_the_most_cards_on_a_sheet():
    prof = profile("a4", fit="tightest")
    assert (plan_grid(mm(20), mm(20), prof).cols, plan_grid(mm(20), mm(20), prof).rows) == (9, 14)
    page = impose(126, mm(20), mm(20), prof)[0]
    assert not [m for m in page.marks if m.x0 == m.x1]        # no room above or below: dropped


def test_without_crop_marks_no_room_is_kept():
    grid = plan_grid(mm(20), mm(20), profile("a4", crop_marks=False))
    assert (grid.cols, grid.rows) == (9, 14)


def test_room_is_offset_plus_at_least_min_fit_mark():
    assert mark_room(profile("a4", mark_offset=mm(3))) == pytest.approx(mm(2))
    assert mark_room(profile("a4", mark_offset=mm(5))) == pytest.approx(mm(4))
    assert mark_room(profile("a4", mark_offset=mm(3), mark_length=mm(1))) == pytest.approx(mm(1))
    assert mark_room(profile("a4", mark_offset=mm(3), fit="tightest")) == 0


def test_a_card_that_fits_only_without_mark_room_still_imposes():
    # 200 x 280 mm + 3 mm bleed fills A4's 200 x 287 mm printable area (upright, no room for marks)
    # would raise if the room were required; it gets the tight grid and loses only its marks
    grid = plan_grid(mm(194), mm(280), profile("a4", allow_rotate=False))
    assert (grid.cols, grid.rows) == (1, 1)


def test_letter_portrait_turns_poker_cards_to_keep_the_marks():
    # 3 upright rows leave 0.7 mm for the column marks on Letter portrait (4 mm margins): 8 turned
    # cards keep every mark; fit: tightest gives the 9 upright without the column marks
    prof = load_profile_plain(PROFILES_DIR / "letter-portrait.yaml")
    grid = plan_grid(*POKER, prof)
    assert (grid.cols, grid.rows, grid.rotated) == (2, 4, True)
    tight = plan_grid(*POKER, Profile(**{**prof.__dict__, "fit": "tightest"}))
    assert (tight.cols, tight.rows, tight.rotated) == (3, 3, False)


def test_a_sheet_filled_to_its_edges_keeps_a_label_strip_below_its_marks():
    # Valheim's resource tokens: 10 x 15 of 18 mm on A4 leave 3.5 mm below the marks' room, and
    # a 5 mm mark used to run down to the printable edge at every column: no room for the label.
    prof = profile("a4")
    page = impose(150, mm(18), mm(18), prof)[0]
    py0 = prof.printable[1]
    below = [m for m in page.marks if m.x0 == m.x1 and m.y1 < page.slots[-1].y]
    assert below and all(m.length >= MIN_FIT_MARK - 1e-6 and min(m.y0, m.y1) >= py0 + LABEL_STRIP - 1e-6
                         for m in below)
    fx0, fy0, fx1, fy1 = page.footer
    assert fy0 == pytest.approx(py0) and fx1 - fx0 > mm(150)


def test_marks_that_would_fall_under_two_millimetres_keep_running_to_the_printable_edge():
    prof = profile("a4", fit="tightest", margin=mm(1.5), gutter=mm(6))  # the render bench's sheet
    page = impose(9, *POKER, prof)[0]
    assert page.footer is not None
    py0 = prof.printable[1]
    below = [m for m in page.marks if m.x0 == m.x1 and max(m.y0, m.y1) < min(s.y for s in page.slots)]
    prof_short = profile("a4", fit="tightest", margin=mm(1.5), gutter=mm(6), mark_offset=mm(6))
    short = impose(9, *POKER, prof_short)[0]
    short_below = [m for m in short.marks if m.x0 == m.x1 and max(m.y0, m.y1) < min(s.y for s in short.slots)]
    assert below and min(min(m.y0, m.y1) for m in below) >= py0 + LABEL_STRIP - 1e-6
    # 6 mm offset: 3 mm of mark above the printable edge, too few to give up a label strip
    assert short_below and min(min(m.y0, m.y1) for m in short_below) == pytest.approx(py0)
