"""Grid fitting and slot placement, as arithmetic in mm (1 mm = 72/25.4 pt)."""
import pytest

from generator.impose import ImposeError, Profile, impose, mm, named_size, plan_grid, to_mm

POKER = named_size("poker")


def profile(paper="a4", **kw) -> Profile:
    kw.setdefault("mark_offset", mm(3))
    return Profile("test", named_size(paper), **kw)


# printable area A4 portrait: 200 x 287 mm; Letter portrait: 205.9 x 269.4 mm
# n cards fit in L when n*card + (n-1)*gutter + 2*bleed <= L
@pytest.mark.parametrize("paper, gutter, expected", [
    # A4, shared cut lines: 3*63+6 = 195 <= 200, 3*88+6 = 270 <= 287 -> 3x3 upright
    ("a4", 0, (3, 3, False)),
    # A4, bleeds abut (gutter 6): upright 2x3 = 6 (3*63+2*6+6 = 207 > 200);
    # rotated 88x63: 2*88+6+6 = 188 <= 200, 4*63+3*6+6 = 276 <= 287 -> 2x4 = 8
    ("a4", 6, (2, 4, True)),
    # Letter, shared cut lines: upright 3x2 = 6 (3*88+6 = 270 > 269.4); rotated 2x4 = 8
    ("letter", 0, (2, 4, True)),
    # Letter, gutter 6: upright 2x2 = 4; rotated 2x3 = 6 (4*63+3*6+6 = 276 > 269.4)
    ("letter", 6, (2, 3, True)),
])
def test_poker_grid_on_a4_and_letter(paper, gutter, expected):
    grid = plan_grid(*POKER, profile(paper, gutter=mm(gutter)))
    assert (grid.cols, grid.rows, grid.rotated) == expected


def test_poker_3x3_on_a4_is_centred_with_shared_cut_lines():
    grid = plan_grid(*POKER, profile("a4"))
    # grid trim 189 x 264 mm centred on 210 x 297 mm
    assert to_mm(grid.origin[0]) == pytest.approx(10.5)
    assert to_mm(grid.origin[1]) == pytest.approx(16.5)
    assert [to_mm(v) for v in grid.pitch] == pytest.approx([63, 88])
    assert grid.per_sheet == 9


def test_gutter_6_pitch_and_origin():
    grid = plan_grid(*POKER, profile("a4", gutter=mm(6)))
    assert [to_mm(v) for v in grid.cell] == pytest.approx([88, 63])
    assert [to_mm(v) for v in grid.pitch] == pytest.approx([94, 69])
    # trim block 2*88+6 = 182 wide, 4*63+3*6 = 270 high
    assert [to_mm(v) for v in grid.origin] == pytest.approx([14, 13.5])


def test_card_that_only_fits_rotated():
    card = (mm(250), mm(150))            # needs 256 x 156 upright, 156 x 256 rotated
    grid = plan_grid(*card, profile("a4"))
    assert (grid.cols, grid.rows, grid.rotated) == (1, 1, True)
    with pytest.raises(ImposeError) as info:
        plan_grid(*card, profile("a4", allow_rotate=False))
    assert str(info.value) == (
        "card 250x150 mm does not fit on A4 portrait with 5 mm margins: with its 3 mm bleed it"
        " needs 256x156 mm, the printable area is 200x287 mm (it would fit rotated, but"
        " allow_rotate is off)")


def test_card_that_fits_nowhere_has_an_exact_message():
    with pytest.raises(ImposeError) as info:
        plan_grid(mm(300), mm(400), profile("a4"))
    assert str(info.value) == (
        "card 300x400 mm does not fit on A4 portrait with 5 mm margins: with its 3 mm bleed it"
        " needs 306x406 mm, the printable area is 200x287 mm (not even rotated)")


def test_a_row_that_fits_exactly_counts_its_gutters_between_cards_only():
    # 3*62 + 2*4 (gutters between cards, none outside) + 2*3 bleed = 200 mm = the printable width
    # (the tightest fit: the arithmetic of the grid alone, no room kept for crop marks)
    grid = plan_grid(mm(62), mm(88), profile("a4", gutter=mm(4), fit="tightest"))
    assert (grid.cols, grid.rows, grid.rotated) == (3, 3, False)
    assert [to_mm(v) for v in grid.origin] == pytest.approx([8, 12.5])   # 194 x 272 mm of trim, centred
    # 0.1 mm wider and the third column no longer fits: rotated 2x4 holds more than upright 2x3
    grid = plan_grid(mm(62.1), mm(88), profile("a4", gutter=mm(4), fit="tightest"))
    assert (grid.cols, grid.rows, grid.rotated) == (2, 4, True)


def test_upright_wins_a_tie():
    # 45x80 on A4: upright 4x3 = 12, rotated 2x6 = 12
    grid = plan_grid(mm(45), mm(80), profile("a4"))
    assert (grid.cols, grid.rows, grid.rotated) == (4, 3, False)


def test_rotation_only_when_it_fits_more():
    # mini-us 41x63 on A4: upright 4x4 = 16, rotated 3x6 = 18
    grid = plan_grid(*named_size("mini-us"), profile("a4"))
    assert (grid.cols, grid.rows, grid.rotated) == (3, 6, True)
    grid = plan_grid(*named_size("mini-us"), profile("a4", allow_rotate=False))
    assert (grid.cols, grid.rows, grid.rotated) == (4, 4, False)


CASES = [(paper, card, gutter, bleed)
         for paper in ("a4", "a4-landscape", "letter", "letter-landscape")
         for card in ("poker", "bridge", "mini-euro", "mini-us", "euro", "tarot", "square", "big-square")
         for gutter, bleed in ((0, 3), (6, 3), (4, 3), (10, 3), (0, 0))]


@pytest.mark.parametrize("paper, card, gutter, bleed", CASES)
def test_every_bleed_box_is_inside_the_printable_area(paper, card, gutter, bleed):
    prof = profile(paper, gutter=mm(gutter), bleed=mm(bleed))
    x0, y0, x1, y1 = prof.printable
    pages = impose(20, *named_size(card), prof, with_backs=True)
    assert sorted(s.index for p in pages if p.side == "front" for s in p.slots) == list(range(20))
    for page in pages:
        for s in page.slots:
            for box in (s.bleed_box, s.nominal_bleed_box):
                assert box[0] >= x0 - 1e-6 and box[1] >= y0 - 1e-6
                assert box[2] <= x1 + 1e-6 and box[3] <= y1 + 1e-6
            assert sorted((s.w, s.h)) == pytest.approx(sorted(named_size(card)))


@pytest.mark.parametrize("paper, card, gutter, bleed", CASES)
def test_bleed_boxes_never_overlap(paper, card, gutter, bleed):
    prof = profile(paper, gutter=mm(gutter), bleed=mm(bleed))
    for page in impose(20, *named_size(card), prof, with_backs=True):
        boxes = [s.bleed_box for s in page.slots]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap_w = min(a[2], b[2]) - max(a[0], b[0])
                overlap_h = min(a[3], b[3]) - max(a[1], b[1])
                assert overlap_w <= 1e-6 or overlap_h <= 1e-6


def test_shared_cut_line_clips_inner_bleed_to_zero():
    page = impose(9, *POKER, profile("a4"))[0]
    a, b = page.slots[0], page.slots[1]                 # neighbours in row 0
    assert a.bleed_box[2] == pytest.approx(a.x + a.w)  # clipped at the shared trim
    assert b.bleed_box[0] == pytest.approx(b.x)
    assert a.x + a.w == pytest.approx(b.x)
    assert a.bleed_box[0] == pytest.approx(a.x - mm(3))  # full bleed outside the grid
    assert a.bleed_box[3] == pytest.approx(a.y + a.h + mm(3))


def test_narrow_gutter_gives_each_card_half():
    page = impose(9, *named_size("mini-euro"), profile("a4", gutter=mm(4)))[0]
    a, b = page.slots[0], page.slots[1]
    assert b.x - (a.x + a.w) == pytest.approx(mm(4))
    assert a.bleed_box[2] == pytest.approx(a.x + a.w + mm(2))
    assert b.bleed_box[0] == pytest.approx(b.x - mm(2))


def test_partial_page_gives_full_bleed_toward_empty_cells():
    pages = impose(11, *POKER, profile("a4"))
    last = pages[-1].slots                              # cards 9 and 10 in row 0
    assert [s.index for s in last] == [9, 10]
    right = last[1]
    assert right.bleed_box[2] == pytest.approx(right.x + right.w + mm(3))
    assert right.bleed_box[1] == pytest.approx(right.y - mm(3))
    assert last[0].bleed_box[2] == pytest.approx(last[0].x + last[0].w)


def test_fronts_fill_in_reading_order():
    page = impose(9, *POKER, profile("a4"))[0]
    xs = [round(to_mm(s.x), 3) for s in page.slots]
    ys = [round(to_mm(s.y), 3) for s in page.slots]
    assert xs == [10.5, 73.5, 136.5] * 3
    assert ys == [192.5] * 3 + [104.5] * 3 + [16.5] * 3


def test_page_numbers_and_sides_without_backs():
    pages = impose(20, *POKER, profile("a4"))
    assert [(p.number, p.side, len(p.slots)) for p in pages] == [
        (1, "front", 9), (2, "front", 9), (3, "front", 2)]
    assert impose(0, *POKER, profile("a4")) == []


def test_rotated_slots_report_the_upright_card_size():
    page = impose(8, *POKER, profile("a4", gutter=mm(6)))[0]
    s = page.slots[0]
    assert s.rotated and s.rotation == 90
    assert [to_mm(v) for v in (s.w, s.h)] == pytest.approx([88, 63])
    assert [to_mm(v) for v in s.card_size] == pytest.approx([63, 88])


def test_partial_lower_row_keeps_half_gutter_right_of_its_last_card():
    page = impose(13, *POKER, profile("a4"))[1]          # 9, 10, 11 / 12
    by_index = {s.index: s for s in page.slots}
    last = by_index[12]
    assert last.bleed_box[2] == pytest.approx(last.x + last.w)        # card 10 bleeds down there
    assert last.bleed_box[1] == pytest.approx(last.y - mm(3))         # nothing below: full bleed
    above_empty = by_index[10]
    assert above_empty.bleed_box[1] == pytest.approx(above_empty.y - mm(3))


def _disc_face(reach_mm):
    """The ops of a 20 mm round token's face painting a bleed disc ``reach_mm`` past its trim (and a
    face and a background, which reach no further for the imposer)."""
    from generator.errors import Location
    from generator.layout.instantiate import LayoutBox, Op

    box, d = LayoutBox(Location("disc.yaml", 1)), mm(20 + 2 * reach_mm)
    return [Op("rect", -mm(3), -mm(3), mm(26), mm(26), {"fill": "#ffcc00"}),  # the background (no box)
            Op("ellipse", -mm(reach_mm), -mm(reach_mm), d, d, id="bleed-disc", box=box),
            Op("text", -mm(10), mm(2), mm(40), mm(16), id="value", box=box)]  # text: no bleed


def test_a_round_piece_painting_a_bleed_disc_keeps_its_whole_bleed_toward_its_neighbours():
    """A 3 mm bleed disc on 20 mm tokens imposed with a shared cut line (gutter 0) was clipped to the
    square cell: flat on four sides where neighbours meet (seen at 150 dpi on a tiny game's coins)."""
    from types import SimpleNamespace

    from generator.layout.reach import note_reach, painted_reach
    from generator.sheets import piece_profile

    assert to_mm(painted_reach(_disc_face(3), mm(20), mm(20))) == pytest.approx(3)
    coin = SimpleNamespace(shape="round", size_pt=(mm(20), mm(20)), bleed_reach=0.0)
    note_reach(SimpleNamespace(component=coin, fronts=[_disc_face(3), _disc_face(1)], backs=None))
    a4 = profile("a4", bleed=mm(3), gutter=0)
    pages = impose(20, mm(20), mm(20), piece_profile(coin, a4))
    slots = pages[0].slots
    first, right = slots[0], slots[1]
    # toward its right neighbour, the first coin's bleed box reaches the whole 3 mm past its trim ...
    assert to_mm(first.bleed_box[2] - (first.x + first.w)) == pytest.approx(3)
    # ... and the neighbour's box begins where it ends: no disc paints over another
    assert first.bleed_box[2] <= right.bleed_box[0] + 1e-6
    # a token whose bleed is its square background (the shipped ones) is imposed as before
    square = SimpleNamespace(shape="round", size_pt=(mm(20), mm(20)), bleed_reach=0.0)
    note_reach(SimpleNamespace(component=square, fronts=[_disc_face(0)], backs=None))
    assert piece_profile(square, a4) is a4
    # and a rectangular piece never changes
    assert piece_profile(SimpleNamespace(shape="rect", bleed_reach=mm(3)), a4) is a4
