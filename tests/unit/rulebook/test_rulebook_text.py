"""Rulebook paragraphs go through the project's kinsoku breaker and keep their styles."""
import pytest

from generator.fonts import load_fonts
from generator.rulebook.text import Span, Style, layout_spans, plain_text
from generator.text.kinsoku import NO_END, NO_START

TEXT = ("各プレイヤーは、最大手札枚数になるよう、デッキからカードを引いて手札に加えます（デッキが尽きたら、"
        "捨て札をシャッフルして新しいデッキを作ります）。「コンビネーション」では、AP:3の攻撃に続けて"
        "AP1【範囲】をプレイできます…。")


@pytest.fixture(scope="module")
def fonts():
    return load_fonts()


@pytest.mark.parametrize("width", [60, 90, 123.4, 200, 333])
def test_kinsoku_and_nothing_lost(fonts, width):
    spans = [Span(TEXT[:30]), Span(TEXT[30:60], Style(bold=True)), Span(TEXT[60:], Style(link="h-x"))]
    lines = layout_spans(spans, fonts, 9.0, width)
    assert "".join(line.text for line in lines) == TEXT
    for line in lines[1:]:
        assert line.text[0] not in NO_START
    for line in lines[:-1]:
        assert line.text[-1] not in NO_END
        assert line.width == pytest.approx(width, abs=0.01) or line.width <= width   # justified or ragged
    assert all(line.width <= width + 1e-6 for line in lines)
    assert "AP:3" in "".join(line.text for line in lines) and not any(
        line.text.endswith("AP") or line.text.startswith(":3") for line in lines)


def test_styles_survive_line_breaks(fonts):
    spans = [Span("前文" * 10), Span("リンク先の見出しへ" * 3, Style(link="h-setup")), Span("後文" * 10)]
    lines = layout_spans(spans, fonts, 9.0, 80)
    styled = "".join(p.text for line in lines for p in line.items if p.style.link == "h-setup")
    assert styled == "リンク先の見出しへ" * 3


def test_icons_and_hard_breaks(fonts):
    spans = [Span("ガード"), Span(icon="guard"), Span("2"), Span(newline=True), Span("次の行")]
    lines = layout_spans(spans, fonts, 9.0, 300)
    assert [line.text for line in lines] == ["ガード:guard:2", "次の行"]
    assert plain_text(spans) == "ガード2\n次の行"


def test_justified_lines_spread_only_between_break_opportunities(fonts):
    spans = [Span("あいうえお" * 8 + " English words stay whole " + "かきくけこ" * 8)]
    lines = layout_spans(spans, fonts, 9.0, 100)
    for line in lines:
        for item in line.items:
            if item.char_space:   # extra space after every glyph: never inside a Latin word
                assert not any(a.isascii() and a.isalpha() and b.isascii() and b.isalpha()
                               for a, b in zip(item.text, item.text[1:]))


def test_a_justified_paragraph_keeps_a_katakana_word_whole_only_when_its_line_stays_nine_tenths_full(fonts):
    # Fatal Fight's rulebook printed 「敵 を 倒 し て … ジ ム で」 a fifth of an em apart to keep
    # エキストラアーツ whole: a justified line gives up at most a tenth of its width for a word
    text = "あいうえおかきくけこボスルーム"
    assert [line.text for line in layout_spans([Span(text)], fonts, 10.0, 120)] == ["あいうえおかきくけこボス", "ルーム"]
    left = layout_spans([Span(text)], fonts, 10.0, 120, align="left")
    assert [line.text for line in left] == ["あいうえおかきくけこ", "ボスルーム"]
    long_line = "あいうえおかきくけこさしすせそたちつて" + "ボスルーム"   # 19 of 20 em kept: moved whole
    assert [line.text for line in layout_spans([Span(long_line)], fonts, 10.0, 200)] == [long_line[:19], "ボスルーム"]


def test_bold_next_to_cjk_punctuation_is_paired_on_the_line():
    from generator.rulebook.markdown import BOLD_CLOSE, BOLD_OPEN, protect_bold

    src = "入れず、**【携帯】**して、使ったら**【追放】**する。`a**b**` \\**x"
    out = protect_bold(src)
    assert out == (f"入れず、{BOLD_OPEN}【携帯】{BOLD_CLOSE}して、使ったら{BOLD_OPEN}【追放】{BOLD_CLOSE}する。"
                   "`a**b**` \\**x")
    assert protect_bold("```\n**raw**\n```") == "```\n**raw**\n```"
