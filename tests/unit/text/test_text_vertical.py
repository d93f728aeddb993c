"""Vertical text (縦書き): column breaking, the position of each class of character, tate-chu-yoko,
column order and placement, the fit policy. Positions are checked as numbers from the laid-out
block and, for what the reader sees, as the ink of the drawn glyphs (rasterized)."""
import io

import pypdfium2 as pdfium
import pytest
from PIL import ImageOps
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.fonts import FontSet
from generator.text import NO_END, NO_START, draw_text_block, layout_text
from generator.text import vertical
from generator.text.vertical import CORNER_SHIFT, SMALL_KANA_SHIFT, VERTICAL_FORMS

from text_engine_samples import CARD_TEXTS

EPS = 1e-6


def tate(text, fonts, *, size=10.0, width=100.0, height=100.0, **kw):
    return layout_text(text, fonts, size=size, width=width, height=height, direction="vertical", **kw)


def ink(text, fonts, size=40.0, scale=4):
    """The ink box (left, top, right, bottom) in points, y down from the cell's top, of ``text`` set
    vertically alone in a box one em wide (so the column's cell is the box)."""
    block = tate(text, fonts, size=size, width=size, height=size * 4)
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(size, size * 4))
    draw_text_block(canvas, block, 0, size * 4, fonts=fonts, draw_icon=lambda *a: None)
    canvas.save()
    page = pdfium.PdfDocument(buf.getvalue())[0]
    image = page.render(scale=scale).to_pil().convert("L")
    left, top, right, bottom = ImageOps.invert(image).point(lambda v: 255 if v > 96 else 0).getbbox()
    return left / scale, top / scale, right / scale, bottom / scale


def test_columns_run_right_to_left_from_the_right_edge(fonts):
    block = tate("一二三四五六七八九十百千", fonts, size=10, width=100, height=30, leading=1.5)
    assert block.text.split("\n") == ["一二三", "四五六", "七八九", "十百千"]
    assert [c.x for c in block.columns] == pytest.approx([95, 80, 65, 50])
    assert block.width_used == pytest.approx(10 + 3 * 15)
    assert all(cell.y == pytest.approx(10 * k) for c in block.columns for k, cell in enumerate(c.cells))


def test_columns_break_by_kinsoku_on_the_column_height(fonts):
    # 3 em columns: 。 may not start a column, so う goes down with it (oidashi, nothing hangs)
    block = tate("あいう。えおかきく", fonts, size=10, height=30)
    assert block.text.split("\n")[:2] == ["あい", "う。え"]
    # 「 may not end a column: it goes down with what it opens
    assert tate("あい「うえ」お", fonts, size=10, height=30).text.split("\n")[0] == "あい"
    # a Latin word stays whole (sideways), moved to the next column
    assert tate("カードをDrawする", fonts, size=10, height=50).text.split("\n") == ["カードを", "Drawする"]


@pytest.mark.parametrize("height", [20, 33, 47, 71])
def test_no_column_starts_or_ends_against_kinsoku_and_none_is_longer_than_the_box(fonts, height):
    for text in CARD_TEXTS:
        block = tate(text, fonts, size=9, width=1000, height=height, icon_names={"guard", "ap", "coin", "attack"})
        if block.forced_breaks:
            continue
        for column in block.columns:
            assert column.length <= height + EPS
            first, last = column.cells[0], column.cells[-1]
            assert not (first.kind != "icon" and first.text[0] in NO_START), column
            assert not (last.kind != "icon" and last.text[-1] in NO_END), column


def test_full_width_characters_stand_upright_one_em_each(fonts):
    (column,) = tate("漢かナＡ１", fonts, size=12).columns
    assert [(c.kind, c.advance, c.dx, c.dy, c.glyphs) for c in column.cells] == [
        ("upright", 12, 0, 0, ch) for ch in "漢かナＡ１"]


@pytest.mark.parametrize("ch", list("、。，．"))
def test_corner_punctuation_sits_in_the_top_right_quadrant(fonts, ch):
    left, top, right, bottom = ink(ch, fonts, size=40)
    assert left >= 20 and right <= 40 and top >= 0 and bottom <= 20


@pytest.mark.parametrize("ch", list("、。，．"))
def test_corner_punctuation_without_a_vertical_form_is_moved_there(fonts, ch, monkeypatch):
    monkeypatch.setattr(FontSet, "has_glyph", lambda self, c, bold=False: not 0xFE10 <= ord(c) <= 0xFE4F)
    (cell,) = tate(ch, fonts, size=10).columns[0].cells
    assert (cell.kind, cell.glyphs, cell.dx, cell.dy) == ("upright", ch, CORNER_SHIFT * 10, -CORNER_SHIFT * 10)
    left, top, right, bottom = ink(ch, fonts, size=40)
    assert left >= 20 and right <= 40 and top >= 0 and bottom <= 20


def test_the_font_has_the_vertical_forms_that_are_used(fonts):
    (column,) = tate("、。，「」（）【】『』…‥", fonts, size=10, height=200).columns
    assert [c.glyphs for c in column.cells] == [VERTICAL_FORMS[c.text] for c in column.cells]
    assert all(c.kind == "upright" and c.dx == c.dy == 0 for c in column.cells)


@pytest.mark.parametrize("ch", list("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"))
def test_small_kana_move_toward_the_top_right(fonts, ch, monkeypatch):
    (cell,) = tate(ch, fonts, size=10).columns[0].cells
    assert (cell.kind, cell.dx, cell.dy) == ("upright", SMALL_KANA_SHIFT * 10, -SMALL_KANA_SHIFT * 10)
    moved = ink(ch, fonts)
    monkeypatch.setattr(vertical, "SMALL_KANA_SHIFT", 0.0)
    still = ink(ch, fonts)
    assert moved[0] - still[0] == pytest.approx(4, abs=0.5) and moved[2] - still[2] == pytest.approx(4, abs=0.5)
    assert moved[1] - still[1] == pytest.approx(-4, abs=0.5)


@pytest.mark.parametrize("ch", list("「」『』（）【】〈〉《》［］｛｝"))
@pytest.mark.parametrize("forms", [True, False])
def test_brackets_lie_across_the_column(fonts, ch, forms, monkeypatch):
    """A bracket opens downward: its ink is wider than tall, in the half of the cell toward
    the text it encloses (vertical form, or the horizontal glyph turned 90° clockwise)."""
    if not forms:
        monkeypatch.setattr(FontSet, "has_glyph", lambda self, c, bold=False: not 0xFE10 <= ord(c) <= 0xFE4F)
        assert tate(ch, fonts).columns[0].cells[0].kind == "turned"
    left, top, right, bottom = ink(ch, fonts)
    assert right - left > bottom - top
    if ch in "「『（【〈《［｛":
        assert top >= 18  # the lower half: the text follows below
    else:
        assert bottom <= 22


@pytest.mark.parametrize("ch", list("ー〜～…‥—–"))
def test_long_marks_dashes_and_ellipses_run_down_the_column(fonts, ch):
    left, top, right, bottom = ink(ch, fonts)
    assert bottom - top > 2 * (right - left)
    assert (left + right) / 2 == pytest.approx(20, abs=3)  # on the column's centre line


def test_glyphs_without_a_vertical_form_are_turned_clockwise(fonts):
    (column,) = tate("ー〜〖", fonts, size=10).columns
    assert [(c.kind, c.glyphs, c.advance) for c in column.cells] == [("turned", ch, 10) for ch in "ー〜〖"]


def test_latin_words_turn_sideways_whole(fonts):
    (column,) = tate("AはDraw it", fonts, size=10).columns
    assert [(c.kind, c.text) for c in column.cells] == [("turned", "A"), ("upright", "は"), ("turned", "Draw it")]
    assert column.cells[2].advance == pytest.approx(stringWidth("Draw it", fonts.regular, 10))
    left, top, right, bottom = ink("Draw", fonts)
    assert bottom - top > 2 * (right - left)  # reads down the column


@pytest.mark.parametrize("text, tcy", [
    ("ライフ12", "12"), ("ライフ3", "3"), ("攻撃+2", "+2"), ("攻撃-1を", "-1"), ("12枚", "12"),
])
def test_one_or_two_digits_stand_upright_in_one_em(fonts, text, tcy):
    cells = tate(text, fonts, size=10).columns[0].cells
    (cell,) = [c for c in cells if c.kind == "tcy"]
    assert cell.text == tcy and cell.advance == 10
    assert stringWidth(tcy, fonts.regular, 10) * cell.squeeze <= 10 + EPS


def test_tate_chu_yoko_ink_fits_one_em_side_by_side(fonts):
    left, top, right, bottom = ink("12", fonts)
    assert right - left <= 40 and right - left > 25  # two digits side by side, squeezed into the em
    assert bottom - top < 40


@pytest.mark.parametrize("text", ["123枚", "AP3", "3/4", "v12"])
def test_longer_numbers_and_words_with_digits_turn_sideways(fonts, text):
    assert all(c.kind != "tcy" for c in tate(text, fonts, size=10).columns[0].cells)


def test_tate_chu_yoko_is_never_split_and_breaks_like_a_character(fonts):
    block = tate("あいライフ12です", fonts, size=10, height=50)
    assert block.text.split("\n") == ["あいライフ", "12です"]


def test_columns_keep_a_katakana_word_and_a_number_with_its_counter_as_lines_do(fonts):
    # 8 em columns: ボスルーム goes down whole (the column keeps 6 em), as on a horizontal line
    assert tate("あいうえおかボスルームへ", fonts, size=10, height=80).text.split("\n") == ["あいうえおか", "ボスルームへ"]
    # an upright number (tate-chu-yoko) stays with its counter
    assert tate("カードを12枚引く", fonts, size=10, height=50).text.split("\n") == ["カードを", "12枚引く"]


def test_bold_runs_and_icons(fonts):
    (column,) = tate("**強打**:guard:を", fonts, size=10, icon_names={"guard"}, icon_scale=1.5).columns
    assert [(c.kind, c.bold) for c in column.cells] == [("upright", True), ("upright", True), ("icon", False),
                                                        ("upright", False)]
    icon = column.cells[2]
    assert (icon.name, icon.y, icon.advance) == ("guard", 20, 15)
    assert column.x == pytest.approx(100 - 15 / 2)  # the column is as thick as its widest icon
    drawn = []
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(100, 100))
    block = tate("**強打**:guard:を", fonts, size=10, icon_names={"guard"}, icon_scale=1.5)
    draw_text_block(canvas, block, 0, 100, fonts=fonts, draw_icon=lambda c, *args: drawn.append(args))
    assert drawn == [("guard", pytest.approx(85), pytest.approx(100 - 20 - 15), 15)]


def test_align_places_text_in_the_column_and_valign_the_block_of_columns(fonts):
    args = dict(size=10, width=100, height=50, leading=1.5)
    assert [c.y for c in tate("一二\n三", fonts, align="center", **args).columns] == [15, 20]
    assert [c.y for c in tate("一二\n三", fonts, align="right", **args).columns] == [30, 40]
    middle = tate("一二\n三", fonts, valign="middle", **args).columns
    assert [c.x for c in middle] == pytest.approx([100 - 37.5 - 5, 100 - 37.5 - 20])
    bottom = tate("一二\n三", fonts, valign="bottom", **args).columns
    assert bottom[-1].x - 5 == pytest.approx(0)  # the last column at the left edge


def test_justify_is_refused(fonts):
    with pytest.raises(ValueError, match="justify"):
        tate("あ", fonts, align="justify")


def test_fit_policy_shrinks_then_counts_overflowing_columns(fonts):
    text = "あ" * 40
    shrunk = tate(text, fonts, size=10, min_size=5, width=40, height=100)
    assert shrunk.fits and shrunk.shrunk and shrunk.size == 8  # 4 columns of 12: 8 + 3 * 10.4 <= 40
    assert shrunk.width_used <= 40 + EPS
    over = tate(text, fonts, size=10, min_size=8, width=25, height=100)
    assert not over.fits and over.size == 8
    # 8pt: 12 per column, 4 columns 10.4pt apart; 25pt holds 2 (8 + 10.4 < 25 < 8 + 2 * 10.4)
    assert len(over.columns) == 4 and over.overflow_lines == 2
    assert [c.overflows for c in over.columns] == [False, False, True, True]
    assert "2 column(s) do not fit" in over.problems[0]


def test_a_sideways_word_longer_than_the_column_is_cut_mid_word(fonts):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    word = "Support"
    column = stringWidth("Supp", fonts.regular, 10)  # a sideways word runs down the column
    block = tate(f"支援{word}", fonts, size=10, height=column, width=200)
    assert block.cut_words == (word,) and not block.fits
    assert any("cut mid-word" in p and repr(word) in p for p in block.problems)
    fits = tate(f"支援{word}", fonts, size=10, height=stringWidth(word, fonts.regular, 10) + 1, width=200)
    assert fits.cut_words == () and fits.fits  # the word moves whole to the next column
