"""Card grids at a page end: shrink a little to stay on the page rather than leave it half empty."""
from types import SimpleNamespace

import pytest

from generator.rulebook.flowables import MIN_FIGURE_SHRINK, CardGrid

WIDTH = 300.0


class Fig:
    """A card figure as CardGrid sees it: a size, a scale, a fixed caption."""

    def __init__(self, w, h, scale=1.0, caption=10.0):
        self.base, self.scale, self.caption = (w, h), scale, caption
        self.w, self.h = w * scale, h * scale

    def scaled(self, factor):
        return Fig(*self.base, self.scale * factor, self.caption)

    def caption_height(self, width):
        return self.caption


ENV = SimpleNamespace(theme=SimpleNamespace(body=9.0))


def grid(n=2, w=90.0, h=110.0):
    return CardGrid([Fig(w, h) for _ in range(n)], ENV, gap=10.0)


def test_a_grid_a_little_too_tall_shrinks_onto_the_page():
    g = grid()
    assert g.wrap(WIDTH, 500)[1] == pytest.approx(120)        # 110 card + 10 caption
    [shrunk] = g.split(WIDTH, 100)                            # 90 / 110 of the card: 0.81
    assert shrunk.figures[0].scale == pytest.approx(0.81)
    assert shrunk.wrap(WIDTH, 100)[1] <= 100
    assert (shrunk.spaceBefore, shrunk.spaceAfter) == (g.spaceBefore, g.spaceAfter)


def test_a_grid_that_would_need_more_than_the_minimum_shrink_moves_to_the_next_page():
    need = 110 * MIN_FIGURE_SHRINK + 10
    assert grid().split(WIDTH, need - 1) == []
    [shrunk] = grid().split(WIDTH, need + 0.01)
    assert shrunk.figures[0].scale == pytest.approx(MIN_FIGURE_SHRINK)


def test_rows_that_fit_still_split_between_rows_at_full_size():
    g = grid(n=6)                                             # 3 per row (90 + 10 + 90 + 10 + 90)
    first, second = g.split(WIDTH, 200)
    assert [f.scale for f in first.figures] == [1.0] * 3 and len(second.figures) == 3


def rows_of(g, width=WIDTH):
    g.wrap(width, 1e6)
    return [len(r) for r in g._rowlist]


def test_figures_are_spread_evenly_over_the_rows_they_need():
    # 3 fit a row: 4 print as 2 + 2 (Metroidvania's action cards were 3 + a lone ガード),
    # 7 as 3 + 2 + 2; a grid that fits one row keeps it
    assert rows_of(grid(n=4)) == [2, 2]
    assert rows_of(grid(n=7)) == [3, 2, 2]
    assert rows_of(grid(n=3)) == [3]


def test_unequal_figures_keep_the_greedy_rows_when_an_even_spread_would_not_fit():
    narrow, wide = Fig(40, 110), Fig(280, 110)
    g = CardGrid([narrow, narrow, narrow, wide], ENV, gap=10.0)     # 2 + 2 would need 40 + 10 + 280
    assert rows_of(g) == [3, 1]


def test_a_grid_that_fits_whole_a_little_smaller_is_not_split_over_two_pages():
    # Fatal Fight's four characters under their table (rulebook p.32): 2 cards there, 2 alone
    # on the next page; at 0.84 the four fit one row on the page
    g = grid(n=4, w=80.0)                                     # 3 fit a row at full size, 4 at 0.84
    assert g.wrap(WIDTH, 1e6)[1] > 150
    [whole] = g.split(WIDTH, 150)
    assert [f.scale for f in whole.figures] == [pytest.approx(0.84)] * 4
    assert rows_of(whole) == [4] and whole.wrap(WIDTH, 150)[1] <= 150
