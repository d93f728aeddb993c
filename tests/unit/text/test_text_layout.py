import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.fonts import load_fonts
from generator.text.layout import layout_text

from text_engine_samples import CARD_TEXTS

ICONS = {"guard", "ap", "coin", "attack"}
EPS = 1e-6


def box_for_lines(fonts, size, n, leading=1.3):
    """Height that holds exactly n lines at this size."""
    return (fonts.ascent + fonts.descent) * size + (n - 1) * leading * size


def test_runs_are_measured_with_the_font(fonts):
    block = layout_text("敵1体に3ダメージ、AP+2。", fonts, size=9, width=200, height=50)
    assert block.fits and len(block.lines) == 1
    (run,) = block.lines[0].runs
    assert run.kind == "text" and run.text == "敵1体に3ダメージ、AP+2。"
    assert run.width == pytest.approx(stringWidth(run.text, fonts.regular, 9))
    assert block.lines[0].width == pytest.approx(run.width)


def test_first_baseline_and_leading(fonts):
    block = layout_text("一\n二\n三", fonts, size=10, width=100, height=100, leading=1.5)
    assert [line.baseline_y for line in block.lines] == pytest.approx([
        fonts.ascent * 10, fonts.ascent * 10 + 15, fonts.ascent * 10 + 30])
    assert block.leading_pt == pytest.approx(15)
    assert block.height_used == pytest.approx(fonts.ascent * 10 + 30 + fonts.descent * 10)


@pytest.mark.parametrize("text", CARD_TEXTS)
def test_lines_stay_inside_the_box(text, fonts):
    block = layout_text(text, fonts, size=8, width=150, height=200, icon_names=ICONS)
    assert block.fits, block.problems
    for line in block.lines:
        for run in line.runs:
            assert line.x + run.x >= -EPS
            assert line.x + run.x + run.width <= 150 + EPS
        assert line.baseline_y + block.descent_pt <= 200 + EPS


def test_no_shrink_by_default_reports_overflow(fonts):
    text = "\n".join("一二三" for _ in range(10))
    block = layout_text(text, fonts, size=10, width=100, height=box_for_lines(fonts, 10, 3))
    assert block.size == 10
    assert len(block.lines) == 10  # nothing clipped
    assert block.overflow_lines == 7
    assert not block.fits
    assert [line.overflows for line in block.lines] == [False] * 3 + [True] * 7
    assert block.problems and "7 line(s)" in block.problems[0]


def test_shrinks_to_the_largest_size_that_fits(fonts):
    text = CARD_TEXTS[0] + CARD_TEXTS[3]
    width, height = 120.0, 80.0
    full = layout_text(text, fonts, size=10, width=width, height=height)
    assert not full.fits  # precondition: too long at 10 pt
    block = layout_text(text, fonts, size=10, min_size=5, width=width, height=height)
    assert block.fits and block.overflow_lines == 0
    assert 5 <= block.size < 10
    assert block.shrunk and block.requested_size == 10
    # one step larger does not fit
    bigger = layout_text(text, fonts, size=block.size + 0.25, width=width, height=height)
    assert not bigger.fits
    assert block.height_used <= height + EPS
    # sizes are on the shrink_step grid counted from size
    assert ((10 - block.size) / 0.25) == pytest.approx(round((10 - block.size) / 0.25))


def test_shrink_step_is_honoured(fonts):
    text = CARD_TEXTS[0] + CARD_TEXTS[3]
    block = layout_text(text, fonts, size=10, min_size=5, width=120, height=80, shrink_step=1)
    assert block.size in (9, 8, 7, 6, 5)


def test_overflow_at_min_size_counts_exact_lines(fonts):
    text = "\n".join(f"{k}行目" for k in range(12))
    height = box_for_lines(fonts, 6, 4)  # 4 lines fit at 6 pt
    block = layout_text(text, fonts, size=10, min_size=6, width=100, height=height)
    assert block.size == 6
    assert len(block.lines) == 12
    assert block.overflow_lines == 8
    assert not block.fits


def test_overflow_with_wrapped_text_counts_lines(fonts):
    text = CARD_TEXTS[0] * 3
    height = box_for_lines(fonts, 8, 2) + 1.0  # room for 2 lines (+1 pt, not a third)
    block = layout_text(text, fonts, size=8, width=100, height=height)
    # every line past the second overflows (15: kanji words such as 攻撃 are kept whole where the line stays full)
    assert len(block.lines) == 15 and block.overflow_lines == 13 and not block.fits


def test_word_wider_than_line_triggers_shrinking(fonts):
    word = "Supercalifragilistic"
    w10 = stringWidth(word, fonts.regular, 10)
    block = layout_text(word, fonts, size=10, min_size=6, width=w10 * 0.85, height=100)
    assert block.size < 10
    assert len(block.lines) == 1 and block.forced_breaks == 0
    # at min size it is broken by characters: all of it prints, but cut mid-word, which does not fit
    block = layout_text(word, fonts, size=10, width=w10 * 0.6, height=100)
    assert block.size == 10 and block.forced_breaks == 1
    assert ["".join(r.text for r in line.runs) for line in block.lines] == ["Supercalifr", "agilistic"]
    assert "".join(r.text for line in block.lines for r in line.runs) == word
    assert not block.fits and block.cut_words == (word,)
    assert block.problems == [f"cut mid-word at 10pt (wider than the box's width of {w10 * 0.6:.2f}pt): {word!r}"]


def test_a_word_cut_twice_is_named_once_whole_and_words_beside_it_are_not(fonts):
    w = stringWidth("Supercal", fonts.regular, 10)
    block = layout_text("a Supercalifragilistic **bo**ld 1", fonts, size=10, width=w, height=200)
    assert block.forced_breaks >= 2  # the long word spans three lines
    assert block.cut_words == ("Supercalifragilistic",)
    assert not block.fits


def test_a_word_cut_in_the_general_path_is_found_across_styles(fonts):
    w = stringWidth("Suppo", fonts.font_for(True), 10)
    block = layout_text(":guard: **Sup**port", fonts, size=10, width=w, height=200, icon_names=ICONS)
    assert block.cut_words == ("Support",) and not block.fits


def test_an_emergency_break_in_a_run_of_kinsoku_characters_cuts_no_word(fonts):
    # a run of characters that may not start a line has no allowed break: cut by characters, as before
    text = "ー" * 12
    block = layout_text(text, fonts, size=10, width=45, height=200)
    assert block.forced_breaks >= 1 and block.cut_words == () and block.fits


def test_unknown_icon_is_reported_and_shown_as_text(fonts):
    block = layout_text(":guard:ガード:gaurd:2", fonts, size=9, width=200, height=40, icon_names=ICONS)
    assert block.unknown_icons == ["gaurd"]
    kinds = [(r.kind, r.name or r.text) for r in block.lines[0].runs]
    assert kinds == [("icon", "guard"), ("text", "ガード:gaurd:2")]
    assert any("gaurd" in p for p in block.problems)


def test_icons_without_names_are_all_unknown(fonts):
    block = layout_text(":ap::ap::coin:", fonts, size=9, width=200, height=40)
    assert block.unknown_icons == ["ap", "coin"]


def test_missing_glyph_is_reported(fonts):
    assert not fonts.has_glyph("\U0001F600")
    assert fonts.has_glyph("\U0002000B")  # IPAexGothic does cover this Ext-B character
    block = layout_text("敵に😀ダメージ𠀋\n次", fonts, size=9, width=200, height=40)
    assert block.missing_glyphs == {"\U0001F600"}
    assert any("U+1F600" in p for p in block.problems)
    assert block.fits  # a missing glyph is reported separately


def test_icon_box_is_centred_on_the_cap_band(fonts):
    block = layout_text("敵に:attack:3", fonts, size=10, width=200, height=40, icon_names=ICONS, icon_scale=1.2)
    icon = [r for r in block.lines[0].runs if r.kind == "icon"][0]
    assert icon.width == pytest.approx(12) and icon.icon_size == pytest.approx(12)
    centre = icon.icon_bottom + icon.icon_size / 2
    assert centre == pytest.approx(fonts.cap_height * 10 / 2)
    # text after the icon starts after its box
    after = block.lines[0].runs[-1]
    assert after.x == pytest.approx(icon.x + icon.width)
    # the block's top leaves room for the icon box
    assert block.lines[0].baseline_y >= icon.icon_bottom + icon.icon_size - EPS


def test_synthetic_bold_measures_like_regular(fonts):
    assert fonts.bold is None and fonts.synthetic_bold
    a = layout_text("**攻撃ABC123、連携**", fonts, size=9, width=300, height=40)
    b = layout_text("攻撃ABC123、連携", fonts, size=9, width=300, height=40)
    assert a.lines[0].runs[0].bold and not b.lines[0].runs[0].bold
    assert a.lines[0].width == pytest.approx(b.lines[0].width)


def test_separate_bold_font_measures_bold_runs(dejavu_fonts):
    fonts = dejavu_fonts
    block = layout_text("Attack **Attack**", fonts, size=10, width=300, height=40)
    runs = block.lines[0].runs
    assert [r.bold for r in runs] == [False, True]
    assert runs[1].width == pytest.approx(stringWidth("Attack", fonts.bold, 10))
    assert runs[1].width > stringWidth("Attack", fonts.regular, 10)


@pytest.fixture(scope="module")
def dejavu_fonts():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.find_spec("matplotlib")
    base = Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"
    if not (base / "DejaVuSans-Bold.ttf").exists():
        pytest.skip("matplotlib's DejaVu fonts not present")
    return load_fonts(base / "DejaVuSans.ttf", base / "DejaVuSans-Bold.ttf")


@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_alignment(align, fonts):
    block = layout_text("攻撃\n防御する", fonts, size=10, width=100, height=100, align=align)
    for line in block.lines:
        free = 100 - line.width
        expected = {"left": 0, "center": free / 2, "right": free}[align]
        assert line.x == pytest.approx(expected)


def test_justify_fills_all_but_the_last_line(fonts):
    text = CARD_TEXTS[0]
    block = layout_text(text, fonts, size=9, width=101, height=300, align="justify")
    assert len(block.lines) == 5
    for line in block.lines[:-1]:
        right = line.x + line.runs[-1].x + line.runs[-1].width
        assert right == pytest.approx(101), [r.text for r in line.runs]
    last = block.lines[-1]
    assert last.x + last.runs[-1].x + last.runs[-1].width < 101 - 1
    # justification keeps the text and its order
    assert "".join(r.text for line in block.lines for r in line.runs) == text


def test_justified_text_keeps_a_katakana_word_whole_only_when_its_line_stays_nine_tenths_full(fonts):
    def lines(text, width, align):
        block = layout_text(text, fonts, size=10, width=width, height=100, align=align)
        return ["".join(r.text for r in line.runs) for line in block.lines], block.lines[0]
    # 19 of 20 em kept: the word moves down whole and the line is still justified to the box
    text = "あいうえおかきくけこさしすせそたちつてボスルーム"
    (first, rest), line = lines(text, 200, "justify")
    assert (first, rest) == (text[:19], "ボスルーム")
    assert line.runs[-1].x + line.runs[-1].width == pytest.approx(200)
    # 10 of 12 em: left-aligned text moves the word down, justified text would space that line a fifth
    # of an em apart, so the word breaks where the line is full
    assert lines("あいうえおかきくけこボスルーム", 120, "left")[0] == ["あいうえおかきくけこ", "ボスルーム"]
    assert lines("あいうえおかきくけこボスルーム", 120, "justify")[0] == ["あいうえおかきくけこボス", "ルーム"]


def test_justify_does_not_stretch_paragraph_ends(fonts):
    block = layout_text("攻撃する。\n防御", fonts, size=9, width=200, height=100, align="justify")
    assert all(len(line.runs) == 1 for line in block.lines)


@pytest.mark.parametrize("valign", ["top", "middle", "bottom"])
def test_valign(valign, fonts):
    block = layout_text("攻撃", fonts, size=10, width=100, height=100, valign=valign)
    top = block.lines[0].baseline_y - block.ascent_pt
    free = 100 - block.height_used
    assert top == pytest.approx({"top": 0, "middle": free / 2, "bottom": free}[valign])


def test_overflowing_block_is_top_aligned(fonts):
    text = "\n".join("行" for _ in range(10))
    block = layout_text(text, fonts, size=10, width=100, height=30, valign="bottom")
    assert block.lines[0].baseline_y == pytest.approx(block.ascent_pt)


def test_trailing_newline_is_ignored(fonts):
    block = layout_text("攻撃する\n", fonts, size=10, width=100, height=100)
    assert len(block.lines) == 1


def test_empty_text(fonts):
    block = layout_text("", fonts, size=10, width=100, height=10)
    assert block.lines == [] and block.fits and block.height_used == 0


def test_ideographic_space_is_laid_out(fonts):
    block = layout_text("\u3000攻撃", fonts, size=10, width=100, height=100)
    assert block.lines[0].runs[0].text == "\u3000攻撃"
    assert block.lines[0].width == pytest.approx(30)


def test_text_property_round_trip(fonts):
    block = layout_text("攻撃:ap:\n**防御**", fonts, size=10, width=100, height=100, icon_names=ICONS)
    assert block.text == "攻撃:ap:\n防御"


@pytest.mark.parametrize("kwargs", [
    dict(size=0), dict(min_size=12), dict(width=0), dict(align="middle"), dict(valign="center"),
    dict(shrink_step=0), dict(icon_scale=0),
])
def test_bad_arguments(kwargs, fonts):
    args = dict(size=10, width=100, height=100)
    args.update(kwargs)
    with pytest.raises(ValueError):
        layout_text("攻撃", fonts, **args)


def test_widest_unbroken_is_the_widest_word_across_cuts_not_a_line_or_a_phrase():
    from generator.text.kinsoku import widest_unbroken, wrap
    from generator.text.markup import Text

    def measure(tok):
        return 5.0 * len(tok.text)
    lines = wrap([Text("a Choirmistress b 回復する", False), Text("Gravekeeper", True)], measure, 5.0).lines
    assert widest_unbroken(lines) == 5.0 * len("Choirmistress")  # not 5.0: the word is cut on every line
    glued = wrap([Text("of Grave", False), Text("keeper", True)], measure, 5.0).lines  # no break between styles
    assert widest_unbroken(glued) == 5.0 * len("Gravekeeper")
