"""Saddle-stitch imposition as arithmetic: every page once, folded stack reads in order."""
import pytest
from reportlab.lib.pagesizes import A4, A5, LETTER, landscape

from generator.rulebook.booklet import booklet_sheets, padded, reading_order, saddle_sides, sheet_for


def test_padding_to_a_multiple_of_four():
    assert [padded(n) for n in (1, 2, 3, 4, 5, 8, 9, 13, 16, 17)] == [4, 4, 4, 4, 8, 8, 12, 16, 16, 20]


def test_eight_pages_known_order():
    # sheet 1: front 8|1, back 2|7; sheet 2: front 6|3, back 4|5 (1-based)
    assert saddle_sides(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]


def test_blank_padding_goes_to_the_end():
    assert saddle_sides(5) == [(None, 0), (1, None), (None, 2), (3, 4)]


@pytest.mark.parametrize("n", range(1, 41))
def test_every_page_once_and_the_folded_stack_reads_in_order(n):
    sides = saddle_sides(n)
    total = padded(n)
    assert len(sides) == total // 2                      # 2 sides per sheet, 4 pages per sheet
    pages = [p for side in sides for p in side if p is not None]
    assert sorted(pages) == list(range(n))
    assert reading_order(sides) == [p if p < n else None for p in range(total)]
    for left, right in sides:                            # facing pages across the fold add up
        if left is not None and right is not None:
            assert left + right == total - 1


def test_a5_pages_fill_the_halves_of_a4_landscape():
    sheets = booklet_sheets(6, A5)
    assert len(sheets) == 4
    w, h = landscape(A4)
    for sheet in sheets:
        assert sheet.size == (w, h)
        left, right = sheet.slots
        assert left.scale == pytest.approx(1.0, abs=1e-3)
        assert left.x == pytest.approx(w / 2 - A5[0]) and right.x == pytest.approx(w / 2)
        assert left.y == pytest.approx((h - A5[1]) / 2, abs=0.5)


def test_a4_pages_are_scaled_into_the_halves():
    sheet = booklet_sheets(4, A4)[0]
    w, h = landscape(A4)
    left, right = sheet.slots
    assert left.scale == pytest.approx(min(w / 2 / A4[0], h / A4[1]))
    assert left.x + A4[0] * left.scale == pytest.approx(w / 2)    # pages meet at the fold


def test_a_booklet_sheet_is_the_profile_paper_turned_landscape():
    assert sheet_for(LETTER) == landscape(LETTER) and sheet_for(landscape(LETTER)) == landscape(LETTER)
    assert booklet_sheets(4, A5, LETTER)[0].size == landscape(LETTER)


def test_a5_pages_on_letter_landscape_are_scaled_into_the_halves_and_meet_at_the_fold():
    w, h = landscape(LETTER)                           # 792 x 612 pt: halves of 396 x 612
    sheets = booklet_sheets(6, A5, LETTER)
    assert [(a.page, b.page) for a, b in (s.slots for s in sheets)] == saddle_sides(6)
    for sheet in sheets:
        assert sheet.size == (w, h)
        left, right = sheet.slots
        scale = min(w / 2 / A5[0], h / A5[1])          # 396 / 419.5: the width decides
        assert left.scale == right.scale == pytest.approx(scale) and scale < 1
        assert left.x + A5[0] * scale == pytest.approx(w / 2) and right.x == pytest.approx(w / 2)
        assert left.y == right.y == pytest.approx((h - A5[1] * scale) / 2)


def test_a_booklet_on_other_paper_than_the_games_is_named_after_it(tmp_path):
    from generator.rulebook import booklet_file_name, stale_booklet_note

    assert booklet_file_name("a4", "a4") == "rulebook-booklet.pdf"
    assert booklet_file_name("letter", "a4") == "rulebook-booklet-letter.pdf"
    assert booklet_file_name("a4", "letter") == "rulebook-booklet-a4.pdf"
    assert stale_booklet_note(tmp_path) is None
    for name in ("rulebook-booklet.pdf", "rulebook-booklet-letter.pdf", "rulebook.pdf"):
        (tmp_path / name).write_bytes(b"%PDF")
    lines = stale_booklet_note(tmp_path).splitlines()
    assert [line.split()[1].rsplit("/", 1)[-1] for line in lines] == ["rulebook-booklet-letter.pdf",
                                                                      "rulebook-booklet.pdf"]
    assert lines[0].endswith("run pnp rulebook --booklet --sheet PROFILE (a letter profile) to make a new one")
    assert lines[1].endswith("run pnp rulebook --booklet to make a new one")
    assert stale_booklet_note(tmp_path, "rulebook-booklet.pdf") == lines[0]
