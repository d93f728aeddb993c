"""The ring between a face's painted bleed and a profile's wider bleed, filled with the face's edge stretched."""
import pytest

from generator.impose import mm
from generator.impose.bleed_ring import OVERLAP, SOURCE, bleed_ring

W, H, PAINTED, SHOP = mm(63), mm(88), mm(3), mm(3.175)


def _inside(box, x, y):
    x0, y0, x1, y1 = box
    return x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9


@pytest.mark.parametrize("bleed", [PAINTED, PAINTED + 0.001, mm(2), 0.0])
def test_no_ring_where_the_face_paints_the_whole_bleed(bleed):
    """A home print (3 mm, as painted, up to rounding) or a narrower bleed gets nothing more drawn."""
    assert bleed_ring(W, H, PAINTED, bleed) == []


def test_the_pieces_cover_the_ring_and_reach_under_the_face_but_not_into_it():
    pieces = bleed_ring(W, H, PAINTED, SHOP)
    assert len(pieces) == 8
    # corners first: the sides are drawn over their ends
    assert [p.sx == 1 or p.sy == 1 for p in pieces] == [False] * 4 + [True] * 4
    outer = (-SHOP, -SHOP, W + SHOP, H + SHOP)
    painted = (-PAINTED, -PAINTED, W + PAINTED, H + PAINTED)
    steps = 40
    for i in range(steps + 1):
        for j in range(steps + 1):
            x, y = -SHOP + (W + 2 * SHOP) * i / steps, -SHOP + (H + 2 * SHOP) * j / steps
            if not _inside(painted, x, y):  # every point of the ring is covered
                assert any(_inside(p.clip, x, y) for p in pieces), (x, y)
    for piece in pieces:
        x0, y0, x1, y1 = piece.clip
        assert _inside(outer, x0, y0) and _inside(outer, x1, y1)
        inner = (-PAINTED + OVERLAP, -PAINTED + OVERLAP, W + PAINTED - OVERLAP, H + PAINTED - OVERLAP)
        assert not (x0 > inner[0] and x1 < inner[2] and y0 > inner[1] and y1 < inner[3])


def test_each_piece_stretches_a_thin_strip_just_inside_the_painted_edge_it_extends():
    """What a piece shows is the face within ``SOURCE`` of the line ``OVERLAP`` inside its painted
    edge, on its own side (an art box drawn to -3 mm on one side runs on there only)."""
    for piece in bleed_ring(W, H, PAINTED, SHOP):
        x0, y0, x1, y1 = piece.clip
        for start, end, size, scale, offset in ((x0, x1, W, piece.sx, piece.tx), (y0, y1, H, piece.sy, piece.ty)):
            lo, hi = sorted(((start - offset) / scale, (end - offset) / scale))  # the face shown there
            if scale == 1:   # along the side: the face as it is
                assert (lo, hi) == pytest.approx((-PAINTED, size + PAINTED))
                continue
            edge = -PAINTED + OVERLAP if start < 0 else size + PAINTED - OVERLAP  # its own side's edge
            assert scale < -1  # stretched and flipped: the strip's edge side meets the face's edge
            assert hi - lo == pytest.approx(SOURCE)
            assert (lo if start < 0 else hi) == pytest.approx(edge)
