"""Back pages: mirrored under the printer's flip, art upright, calibration offset on backs only."""
import pytest

from generator.impose import Profile, impose, mm, named_size, plan_grid
from generator.impose.duplex import flip_axis

POKER = named_size("poker")


def profile(paper="a4", **kw) -> Profile:
    return Profile("test", named_size(paper), **kw)


def cell(grid, slot):
    """(col, row) of a slot, row 0 at the top."""
    col = round((slot.x - grid.origin[0]) / grid.pitch[0])
    row = grid.rows - 1 - round((slot.y - grid.origin[1]) / grid.pitch[1])
    return col, row


def pairs(pages):
    """(front page, back page) pairs in print order."""
    fronts = [p for p in pages if p.side == "front"]
    backs = [p for p in pages if p.side == "back"]
    return list(zip(fronts, backs))


def test_duplex_pages_alternate_front_and_back():
    pages = impose(20, *POKER, profile(), with_backs=True)
    assert [(p.number, p.side) for p in pages] == [
        (1, "front"), (2, "back"), (3, "front"), (4, "back"), (5, "front"), (6, "back")]


def test_long_edge_mirrors_columns():
    prof = profile(duplex="long-edge")
    grid = plan_grid(*POKER, prof)
    for front, back in pairs(impose(9, *POKER, prof, with_backs=True)):
        where = {s.index: cell(grid, s) for s in back.slots}
        for s in front.slots:
            col, row = cell(grid, s)
            assert where[s.index] == (grid.cols - 1 - col, row)


def test_short_edge_mirrors_rows():
    prof = profile(duplex="short-edge")
    grid = plan_grid(*POKER, prof)
    for front, back in pairs(impose(9, *POKER, prof, with_backs=True)):
        where = {s.index: cell(grid, s) for s in back.slots}
        for s in front.slots:
            col, row = cell(grid, s)
            assert where[s.index] == (col, grid.rows - 1 - row)


def test_partial_last_page_backs_land_behind_their_fronts():
    prof = profile()
    pages = impose(11, *POKER, prof, with_backs=True)
    front, back = pages[-2], pages[-1]
    assert [s.index for s in front.slots] == [9, 10]
    grid = plan_grid(*POKER, prof)
    assert [cell(grid, s) for s in front.slots] == [(0, 0), (1, 0)]
    assert [cell(grid, s) for s in back.slots] == [(2, 0), (1, 0)]
    # physically: flipping the sheet about its vertical axis puts each back on its front
    width = prof.paper[0]
    for f, b in zip(front.slots, back.slots):
        assert width - (b.x + b.w) == pytest.approx(f.x) and b.y == pytest.approx(f.y)
        assert b.bleed_box == pytest.approx((width - f.bleed_box[2], f.bleed_box[1],
                                             width - f.bleed_box[0], f.bleed_box[3]))


def test_short_edge_partial_last_page_backs_land_behind_their_fronts():
    prof = profile(duplex="short-edge")
    front, back = impose(11, *POKER, prof, with_backs=True)[-2:]
    grid = plan_grid(*POKER, prof)
    assert [cell(grid, s) for s in back.slots] == [(0, 2), (1, 2)]
    # physically: flipping the sheet about its horizontal axis puts each back on its front
    height = prof.paper[1]
    for f, b in zip(front.slots, back.slots):
        assert height - (b.y + b.h) == pytest.approx(f.y) and b.x == pytest.approx(f.x)
        assert b.bleed_box == pytest.approx((f.bleed_box[0], height - f.bleed_box[3],
                                             f.bleed_box[2], height - f.bleed_box[1]))


def test_landscape_long_edge_flips_about_the_horizontal_axis():
    assert flip_axis(named_size("a4"), "long-edge") == "x"
    assert flip_axis(named_size("a4"), "short-edge") == "y"
    assert flip_axis(named_size("a4-landscape"), "long-edge") == "y"
    assert flip_axis(named_size("a4-landscape"), "short-edge") == "x"
    assert flip_axis(named_size("a4"), "none") is None


def test_back_offset_shifts_back_slots_only():
    plain = impose(11, *POKER, profile(), with_backs=True)
    shifted = impose(11, *POKER, profile(back_offset=(mm(1.5), mm(-2))), with_backs=True)
    for a, b in zip(plain, shifted):
        for sa, sb in zip(a.slots, b.slots):
            if a.side == "front":
                assert sb == sa
            else:
                assert sb.x - sa.x == pytest.approx(mm(1.5))
                assert sb.y - sa.y == pytest.approx(mm(-2))
                assert [v - u for u, v in zip(sa.bleed_box, sb.bleed_box)] == pytest.approx(
                    [mm(1.5), mm(-2)] * 2)
        if a.side == "front":
            assert b.marks == a.marks


def test_duplex_none_puts_unmirrored_backs_after_all_fronts():
    pages = impose(11, *POKER, profile(duplex="none"), with_backs=True)
    assert [p.side for p in pages] == ["front", "front", "back", "back"]
    for front, back in ((pages[0], pages[2]), (pages[1], pages[3])):
        assert [(s.index, s.x, s.y, s.rotation) for s in front.slots] == \
               [(s.index, s.x, s.y, s.rotation) for s in back.slots]


def test_rotated_backs_turn_the_other_way_under_a_flip():
    prof = profile(gutter=mm(6))                       # poker rotated 2x4
    front, back = impose(8, *POKER, prof, with_backs=True)
    assert {s.rotation for s in front.slots} == {90}
    assert {s.rotation for s in back.slots} == {270}
    none = impose(8, *POKER, profile(gutter=mm(6), duplex="none"), with_backs=True)
    assert {s.rotation for s in none[1].slots} == {90}


def turned_over_sheet(paper, axis):
    """The paper model of a duplex flip: where a back page's point lies on the front page."""
    w, h = paper
    return (lambda x, y: (w - x, y)) if axis == "x" else (lambda x, y: (x, h - y))


@pytest.mark.parametrize("paper, duplex, rotate", [
    (paper, duplex, rotate) for paper in ("a4", "a4-landscape", "letter")
    for duplex in ("long-edge", "short-edge") for rotate in (False, True)])
def test_every_back_lies_behind_its_front_and_reads_upright_once_the_card_is_turned_over(paper, duplex, rotate):
    """Flip the sheet as the printer does, cut the card out and turn it over about its own vertical
    axis: the back is upright exactly when each back point (u, v) lies on the front point (w - u, v).
    Backs printed upright on the page under a row flip (short-edge portrait, long-edge landscape)
    came out upside down against their fronts: an upright card's back must turn 180 degrees."""
    prof = profile(paper, duplex=duplex, allow_rotate=rotate, gutter=mm(6) if rotate else 0.0)
    pages = impose(11, *POKER, prof, with_backs=True)
    turned = {s.rotation for p in pages if p.side == "front" for s in p.slots}
    assert turned == ({90} if rotate and paper != "a4-landscape" else {0})   # both kinds of front are checked
    onto_front = turned_over_sheet(prof.paper, flip_axis(prof.paper, duplex))
    checked = 0
    for front, back in pairs(pages):
        backs = {s.index: s for s in back.slots}
        for f in front.slots:
            b = backs[f.index]
            w, h = f.card_size
            assert b.card_size == pytest.approx((w, h))
            for u, v in [(0, 0), (w, 0), (0, h), (w * 0.3, h * 0.8), (w * 0.9, h * 0.1)]:
                assert onto_front(*b.to_page(u, v)) == pytest.approx(f.to_page(w - u, v)), (f, b)
            checked += 1
    assert checked == 11


def test_print_shop_one_card_per_page_with_4_tuple_boxes():
    prof = profile(print_shop=True, bleed=9.0, crop_marks=False)
    pages = impose(2, *POKER, prof, with_backs=True)
    assert [(p.number, p.side, p.slots[0].index) for p in pages] == [
        (1, "front", 0), (2, "back", 0), (3, "front", 1), (4, "back", 1)]
    w, h = POKER
    for p in pages:
        assert p.page_size == pytest.approx((w + 18, h + 18))
        assert len(p.trim_box) == 4 and len(p.bleed_box) == 4
        assert p.trim_box == pytest.approx((9, 9, 9 + w, 9 + h))
        assert p.bleed_box == pytest.approx((0, 0, w + 18, h + 18))
        s = p.slots[0]
        assert (s.x, s.y, s.rotated) == (9, 9, False)
        assert p.marks == () and p.cut_lines == () and p.footer is None
    assert len(impose(3, *POKER, prof)) == 3


def test_sheet_pages_have_no_page_boxes():
    for p in impose(3, *POKER, profile(), with_backs=True):
        assert p.trim_box is None and p.bleed_box is None
        assert p.page_size == named_size("a4")
