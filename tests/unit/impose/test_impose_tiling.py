"""Board tiling: full coverage, exact overlaps, reading-order labels, crosses on both sheets."""
import itertools

import pytest

from generator.impose import ImposeError, mm, named_size, plan_tiles

A2 = named_size("a2")           # 420 x 594 mm
A4 = named_size("a4")


@pytest.fixture
def plan():
    return plan_tiles(*A2, *A4, mm(5), mm(10))


def mm_rect(r):
    return tuple(round(v / mm(1), 3) for v in r)


def test_a2_on_a4_takes_landscape_pages(plan):
    # printable 200 x 287 (portrait) or 287 x 200 (landscape); n tiles cover n*a - (n-1)*10
    # portrait: cols ceil(410/190) = 3, rows ceil(584/277) = 3 -> 9 pages
    # landscape: cols ceil(410/277) = 2, rows ceil(584/190) = 4 -> 8 pages
    assert (plan.cols, plan.rows, len(plan.tiles), plan.landscape) == (2, 4, 8, True)
    assert plan.page_size == pytest.approx(named_size("a4-landscape"))


def test_labels_in_reading_order(plan):
    assert [t.label for t in plan.tiles] == ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2"]
    a1 = plan.tile("A1")
    assert a1.src[0] == 0 and a1.src[1] + a1.src[3] == pytest.approx(A2[1])   # top-left
    d2 = plan.tile("D2")
    assert d2.src[1] == pytest.approx(0) and d2.src[0] + d2.src[2] == pytest.approx(A2[0])


def test_equal_tiles_exact_sizes(plan):
    # width (420 + 10) / 2 = 215, height (594 + 3*10) / 4 = 156
    assert {mm_rect(t.src)[2:] for t in plan.tiles} == {(215.0, 156.0)}
    assert mm_rect(plan.tile("A2").src) == (205.0, 438.0, 215.0, 156.0)
    assert mm_rect(plan.tile("B1").src) == (0.0, 292.0, 215.0, 156.0)


def test_neighbours_overlap_by_exactly_the_overlap(plan):
    by = {(t.col, t.row): t for t in plan.tiles}
    for (c, r), t in by.items():
        if (c + 1, r) in by:
            right = by[c + 1, r].src
            assert t.src[0] + t.src[2] - right[0] == pytest.approx(mm(10))
            assert (right[1], right[3]) == pytest.approx((t.src[1], t.src[3]))
        if (c, r + 1) in by:
            below = by[c, r + 1].src
            assert below[1] + below[3] - t.src[1] == pytest.approx(mm(10))


def test_visible_parts_partition_the_board(plan):
    area = 0.0
    for t in plan.tiles:
        x, y, w, h = t.visible
        sx, sy, sw, sh = t.src
        assert sx - 1e-6 <= x and x + w <= sx + sw + 1e-6 and sy - 1e-6 <= y and y + h <= sy + sh + 1e-6
        area += w * h
    assert area == pytest.approx(A2[0] * A2[1])
    for a, b in itertools.combinations(plan.tiles, 2):
        ax, ay, aw, ah = a.visible
        bx, by, bw, bh = b.visible
        assert min(ax + aw, bx + bw) - max(ax, bx) <= 1e-6 or min(ay + ah, by + bh) - max(ay, by) <= 1e-6


def test_tiles_sit_inside_the_printable_area(plan):
    pw, ph = plan.page_size
    for t in plan.tiles:
        x, y, w, h = t.placement
        assert (w, h) == pytest.approx(t.src[2:])
        assert x >= mm(5) - 1e-6 and y >= mm(5) - 1e-6
        assert x + w <= pw - mm(5) + 1e-6 and y + h <= ph - mm(5) + 1e-6


def seam_lines(plan):
    xs = {round(t.visible[0], 4) for t in plan.tiles if t.col}
    ys = {round(t.visible[1] + t.visible[3], 4) for t in plan.tiles if t.row}
    return xs, ys


def test_crosses_sit_on_the_diagram_seams(plan):
    """Crosses are the visible-region corners (what the assembly page draws) on a seam."""
    xs, ys = seam_lines(plan)
    corners = {(round(x, 4), round(y, 4)) for t in plan.tiles
               for x in (t.visible[0], t.visible[0] + t.visible[2])
               for y in (t.visible[1], t.visible[1] + t.visible[3])}
    expected = {p for p in corners if p[0] in xs or p[1] in ys}
    assert {(round(x, 4), round(y, 4)) for x, y in plan.crosses} == expected
    # the column seam meets the board top, 3 row seams and the bottom: 5; each row seam ends at
    # the board's left and right edges: 3 * 2
    assert len(expected) == 5 + 3 * 2


def test_each_cross_prints_on_every_tile_that_holds_it(plan):
    for point in plan.crosses:
        holders = [t for t in plan.tiles
                   if t.src[0] - 1e-6 <= point[0] <= t.src[0] + t.src[2] + 1e-6
                   and t.src[1] - 1e-6 <= point[1] <= t.src[1] + t.src[3] + 1e-6]
        assert len(holders) >= 2          # a seam point is on both sheets it joins
        for t in holders:
            assert any(t.to_board(*c) == pytest.approx(point) for c in t.crosses)
    for t in plan.tiles:
        for c in t.crosses:
            assert any(t.to_board(*c) == pytest.approx(p) for p in plan.crosses)


def test_glue_line_is_where_the_neighbour_edge_lands(plan):
    a1, a2, b1 = plan.tile("A1"), plan.tile("A2"), plan.tile("B1")
    (line,) = a2.glue_lines
    assert a2.to_board(line.x0, line.y0)[0] == pytest.approx(a1.src[0] + a1.src[2])
    (line,) = b1.glue_lines
    assert b1.to_board(line.x0, line.y0)[1] == pytest.approx(a1.src[1])
    assert a1.glue_lines == () and len(plan.tile("B2").glue_lines) == 2
    # A1 is trimmed on its right and bottom, D2 nowhere
    assert len(a1.cut_edges) == 2 and plan.tile("D2").cut_edges == ()


def test_captions(plan):
    assert plan.tile("A1").caption == "A1 — row A, column 1 · lies on top: trim along the solid edges"
    assert plan.tile("A2").caption == "A2 — row A, column 2 · glue under A1's right edge"
    assert plan.tile("B2").caption == \
        "B2 — row B, column 2 · glue under B1's right edge and A2's bottom edge"


def test_captions_in_japanese_for_a_japanese_game(plan):
    assert plan.tile("A1").caption_in("ja") == "A1 — A行 1列 · いちばん上に重ねる：実線で切る"
    assert plan.tile("B2").caption_in("ja") == "B2 — B行 2列 · B1の右端とA2の下端の下に貼る"
    assert plan.tile("B2").caption_in("de") == plan.tile("B2").caption   # other languages: English


def test_a_japanese_games_tiled_board_prints_its_instructions_in_japanese(monkeypatch):
    """The sheet renderer hands the game's lang to the tiles and the assembly page."""
    from types import SimpleNamespace

    from generator import impose, sheets

    said = []
    monkeypatch.setattr(impose, "render_assembly_page", lambda *a, lang=None, **k: said.append(("page", lang)))
    monkeypatch.setattr(impose, "render_tiles", lambda *a, lang=None, **k: said.append(("tiles", lang)))
    monkeypatch.setattr(sheets, "board_mode", lambda component, profile: "tiled")
    component = SimpleNamespace(id="board", size_pt=(mm(420), mm(297)), name="ボード", tiling=None, kind="board")
    faces = SimpleNamespace(component=component, copies=[0], fronts=[[]])
    cards = SimpleNamespace(fonts=SimpleNamespace(regular="Helvetica"), icons=None, bleed=mm(3),
                            game=SimpleNamespace(meta={"lang": "ja"}))
    profile = SimpleNamespace(paper=A4, margin=mm(5), bleed=mm(3))
    sheets._render_board(object(), cards, faces, profile, "題", False, sheets.SharedFaces())
    assert said == [("page", "ja"), ("tiles", "ja")]


def test_small_board_is_one_tile():
    plan = plan_tiles(mm(150), mm(150), *A4, mm(5), mm(10))
    assert len(plan.tiles) == 1 and plan.crosses == ()
    assert plan.tiles[0].src == (0, 0, mm(150), mm(150))


def test_portrait_kept_when_it_needs_fewer_pages():
    plan = plan_tiles(mm(380), mm(560), *A4, mm(5), mm(10))     # 2 x 2 portrait, 2 x 3 landscape
    assert (plan.cols, plan.rows, plan.landscape) == (2, 2, False)


def test_impossible_overlap_is_an_error():
    with pytest.raises(ImposeError, match="a 300 mm overlap leaves no room on a page of 200x287 mm"):
        plan_tiles(*A2, *A4, mm(5), mm(300))


def test_the_gutterfold_instruction_follows_the_language():
    from generator.impose.wording import gutterfold_instruction

    assert gutterfold_instruction("vertical", "ja") == "縦折り：破線で折り、貼ってから切る"
    assert gutterfold_instruction("horizontal", "en") == "horizontal fold: fold on the dashed line, glue, then cut"
