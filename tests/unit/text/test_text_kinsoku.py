import re

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.text.kinsoku import break_lines, break_text, can_break, char_class, wrap
from generator.text.markup import Icon, Newline, Text, parse_markup

from text_engine_samples import CARD_TEXTS

# The lists of PRINT.md, written out here (not imported) so that the tests catch a
# character dropped from the module's sets.
FORBIDDEN_START = set(
    "、。，．・：；？！ー…‥）」』】〕］｝〉》%％"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
    "々ゝゞヽヾ"
)
OPENING = set("（「『【〔［｛〈《")

SIZE = 10.0
ICON_W = SIZE  # icon scale 1


@pytest.fixture(scope="module")
def measure(fonts):
    def m(tok):
        if isinstance(tok, Icon):
            return ICON_W
        return stringWidth(tok.text, fonts.regular, SIZE)
    return m


def line_string(tokens):
    """Plain string of a line, icons as U+FFFC."""
    return "".join(t.text if isinstance(t, Text) else "\ufffc" for t in tokens)


def paragraphs(source):
    """The input paragraphs as plain strings (icons as U+FFFC)."""
    out = [""]
    for tok in parse_markup(source):
        if isinstance(tok, Newline):
            out.append("")
        else:
            out[-1] += tok.text if isinstance(tok, Text) else "\ufffc"
    return out


def width_of(tokens, measure):
    return sum(measure(t) for t in tokens)


WIDTHS_EM = [5, 6, 7, 8, 9, 10, 12, 15, 19, 24]


@pytest.mark.parametrize("text", CARD_TEXTS)
@pytest.mark.parametrize("em", WIDTHS_EM)
def test_card_texts_follow_kinsoku(text, em, measure):
    width = em * SIZE
    wrapped = wrap(parse_markup(text), measure, width)
    lines = [line_string(line.tokens()) for line in wrapped.lines]
    # realistic texts never need an emergency break at these widths
    assert wrapped.forced_breaks == 0, lines
    # joined lines == input (no ASCII spaces in these texts)
    assert "".join(lines) == "".join(paragraphs(text))
    for k, line in enumerate(wrapped.lines):
        s = lines[k]
        assert s, f"empty line in {lines}"
        assert width_of(line.tokens(), measure) <= width + 1e-6, (s, width)  # oidashi: nothing hangs
        if k > 0:
            assert s[0] not in FORBIDDEN_START, f"line {k} starts with {s[0]!r}: {lines}"
        if k < len(lines) - 1:
            assert s[-1] not in OPENING, f"line {k} ends with {s[-1]!r}: {lines}"
            # prefer not to break right after an icon
            assert s[-1] != "\ufffc", f"line {k} ends with an icon: {lines}"
    # Latin words and digit runs are never split (they are all shorter than 4 em)
    joined = "".join(lines)
    cuts = set()
    pos = 0
    for s in lines[:-1]:
        pos += len(s)
        cuts.add(pos)
    for m in re.finditer(r"[A-Za-z0-9+/０-９Ａ-Ｚａ-ｚ＋－＝]+", joined):
        inside = set(range(m.start() + 1, m.end()))
        assert not (inside & cuts), f"{m.group()!r} split: {lines}"


def test_samples_do_break_at_small_widths(measure):
    # guard against a vacuous property test: the texts really wrap
    for text in CARD_TEXTS:
        assert len(break_lines(parse_markup(text), measure, 6 * SIZE)) >= 3


def em_measure(s):
    """Every character 1 em wide (= 10 pt): makes positions easy to reason about."""
    return 10.0 * len(s)


def test_oidashi_pushes_the_previous_character_down():
    # 5 em line: "あいうえお" fills it exactly, "。" may not start the next line
    assert break_text("あいうえお。かき", em_measure, 50) == ["あいうえ", "お。かき"]
    assert break_text("あいうえお、かき", em_measure, 50) == ["あいうえ", "お、かき"]
    assert break_text("あいうえお，かき", em_measure, 50) == ["あいうえ", "お，かき"]
    assert break_text("あいうえお．かき", em_measure, 50) == ["あいうえ", "お．かき"]
    # with one more em, it fits
    assert break_text("あいうえお。かき", em_measure, 60) == ["あいうえお。", "かき"]


def test_oidashi_with_real_metrics_never_exceeds_width(fonts):
    m = lambda s: stringWidth(s, fonts.regular, 10)
    text = "あいうえお。" * 8
    for width in (50, 55, 60, 61, 70, 99.9):
        lines = break_text(text, m, width)
        assert "".join(lines) == text
        assert all(m(s) <= width + 1e-6 for s in lines)
        assert all(s[0] != "。" for s in lines)


def test_closing_bracket_and_small_kana_not_at_line_start():
    for ch in "」ッーっ々：！":
        assert break_text("あいう" + ch + "え", em_measure, 30) == ["あい", "う" + ch + "え"], ch


def test_run_of_forbidden_starts_pushes_further():
    assert break_text("あいう」。えお", em_measure, 40) == ["あい", "う」。え", "お"]


def test_opening_bracket_not_at_line_end():
    assert break_text("あいう「えお」", em_measure, 40) == ["あいう", "「えお」"]
    assert break_text("あいう（えお）", em_measure, 40) == ["あいう", "（えお）"]
    # the bracket moves down even when the following text must break again
    assert break_text("あい（うえ）", em_measure, 30) == ["あい", "（う", "え）"]


def test_a_plus_sign_stays_with_what_it_modifies():
    # Fatal Fight's stage card printed "①+1 ②+1 ③" / "+1 ④+1": the +1 of ③ began the next line
    assert break_text("①+1②+1③+1④+1", em_measure, 80) == ["①+1②+1", "③+1④+1"]
    assert break_text("ライフ＋1", em_measure, 40) == ["ライ", "フ＋1"]
    # the same with an icon in the text (the general path rather than the plain-text one)
    with_icon = wrap(parse_markup(":die:②+1③+1"), lambda t: 10.0 if isinstance(t, Icon) else em_measure(t.text), 60)
    assert [line_string(line.tokens()) for line in with_icon.lines] == ["\ufffc②+1", "③+1"]
    # nor does a sum end a line before its last term (Metroidvania's skill card printed "+1+" / ":lv:。")
    sum_then_icon = wrap(parse_markup("あいう+1+:die:。"), lambda t: 10.0 if isinstance(t, Icon) else em_measure(t.text), 60)
    assert [line_string(line.tokens()) for line in sum_then_icon.lines] == ["あい", "う+1+\ufffc。"]
    # a line too narrow for "う+1" still breaks before the sign rather than inside "+1"
    assert break_text("あいう+1えお", em_measure, 20) == ["あい", "う", "+1", "えお"]


def test_a_last_line_of_one_character_takes_more_from_the_line_before():
    # Fatal Fight's supply card printed "★AP2 ⊕発射の攻撃を1回行" / "う。"
    assert break_text("攻撃を1回行う。", em_measure, 60) == ["攻撃を1回", "行う。"]
    assert break_text("センター中段：ヘルメット", em_measure, 110) == ["センター中段：ヘル", "メット"]
    # both paths, and an icon counts as a character
    icon_m = lambda t: 10.0 if isinstance(t, Icon) else em_measure(t.text)
    assert [line_string(x) for x in break_lines(parse_markup("あいうえお:ap:"), icon_m, 50)] == ["あいうえ", "お\ufffc"]
    # nothing to give: the line before would keep fewer than two characters, or the last would not fit
    assert break_text("あい。う", em_measure, 30) == ["あい。", "う"]
    assert break_text("ABCDEう", em_measure, 50) == ["ABCDE", "う"]


def _both_paths(text, width):
    """The lines of ``text`` on the plain path and, behind an icon, on the general one (icon dropped)."""
    plain = break_text(text, em_measure, width)
    general = [line.text for line in wrap([Icon("ap"), Text("\u3000" + text)], _em_or_icon, width + 20).lines]
    return plain, [general[0][1:]] + general[1:]


def test_a_katakana_word_moves_down_whole_when_the_line_stays_full():
    # Metroidvania's room cards printed "…ボ" / "スルーム…": the line keeps 6 of 8 em with the word moved
    assert _both_paths("あいうえおかボスルームへ", 80) == (["あいうえおか", "ボスルームへ"],) * 2
    # a number and the katakana word after it move together, when the line keeps 2/3 of the width
    assert _both_paths("あいうえおか2ダメージ", 90) == (["あいうえおか", "2ダメージ"],) * 2


def test_a_katakana_word_is_still_broken_where_a_normal_break_would_leave_the_line_short():
    # before ス the line would keep 2 of 8 em: the word breaks where the line is full, as before
    assert _both_paths("あいスーパーボスルームです", 80) == (["あいスーパーボス", "ルームです"],) * 2
    # a run longer than the line breaks inside (not a forced break: no cut-word error)
    wrapped = wrap([Text("ファイアーボールアロー")], lambda t: em_measure(t.text), 50)
    assert [line.text for line in wrapped.lines] == ["ファイアー", "ボール", "アロー"]
    assert wrapped.forced_breaks == 0


def test_a_katakana_word_is_not_broken_to_leave_one_of_its_letters_alone():
    # Valheim's market card printed 'マップカー' / 'ド', Metroidvania's skill cards 'スレー' / 'ト'
    # and 'デンジャーレベ' / 'ル−1': another break inside the word, else the one before it
    assert _both_paths("このフェイズでマップカードを引く", 120) == (["このフェイズでマップ", "カードを引く"],) * 2
    assert _both_paths("あいうえスレートを", 70) == (["あいうえ", "スレートを"],) * 2
    assert _both_paths("あいうえスレートを", 60) == (["あいうえ", "スレートを"],) * 2      # nor 'ス' / 'レート'
    # before a known word (a katakana counter: レベル, ダメージ ...) rather than the last break inside
    assert _both_paths("あいうえおデンジャーレベルを上げる", 120) == (["あいうえおデンジャー", "レベルを上げる"],) * 2
    # the same after a space (the plain path took the last break inside the word there: 'デンジャーレ' / 'ベル')
    assert _both_paths("あい デンジャーレベルを上げる", 90) == (["あい デンジャー", "レベルを上げる"],) * 2
    # the last other break inside the word is often where a compound's words meet
    assert _both_paths("あいうえおかきくけこボスステージカードを", 180) == (["あいうえおかきくけこボスステージ", "カードを"],) * 2
    # a lone letter is still better than a cut: the only break left
    wrapped = wrap([Text("カード")], lambda t: em_measure(t.text), 20)
    assert [line.text for line in wrapped.lines] == ["カー", "ド"] and wrapped.forced_breaks == 0


def test_a_number_stays_with_its_counter():
    assert _both_paths("カードを2枚引く", 50) == (["カードを", "2枚引く"],) * 2
    assert _both_paths("山札の上から１０個", 80) == (["山札の上から", "１０個"],) * 2
    assert _both_paths("あいうえ3マスすすむ", 60) == (["あいうえ", "3マスすすむ"],) * 2
    # a word that only starts like a counter is no counter: 2 / ター is a normal break ("ターゲット")
    assert break_text("あいうえお2ターゲット", em_measure, 60) == ["あいうえお2", "ターゲット"]


def test_every_print_md_forbidden_start_is_respected():
    for ch in FORBIDDEN_START:
        lines = break_text("あいう" + ch + "え", em_measure, 30)
        assert all(s[0] != ch for s in lines[1:]), (ch, lines)


def test_every_opening_bracket_is_respected():
    for ch in OPENING:
        lines = break_text("あい" + ch + "うえ", em_measure, 30)
        assert all(s[-1] != ch for s in lines[:-1]), (ch, lines)


def test_can_break():
    assert can_break("あ", "い")
    assert not can_break("あ", "。")
    assert not can_break("「", "あ")
    assert not can_break("A", "P")
    assert not can_break("2", "A")
    assert can_break("あ", "A")
    assert can_break(" ", "A")
    assert not can_break("A", " ")


def test_only_full_width_letters_and_digits_are_word_characters():
    for o in range(0xFF01, 0xFF5F):
        ch = chr(o)
        # ０-９ Ａ-Ｚ ａ-ｚ and the signs of a digit run; punctuation is not
        expected = "word" if ch.isalnum() or ch in "＋－＝" else "cjk"
        assert char_class(ch) == expected, (ch, hex(o))
    assert not can_break("Ｈ", "Ｐ") and not can_break("１", "０") and not can_break("＋", "1")
    assert can_break("C", "（") and can_break("：", "３") and can_break("Ａ", "／") and can_break("！", "ａ")
    # "ABC（" was one word: the forced break then put 'ー' at a line start
    assert break_text("wordABC（くー「え", em_measure, 80) == ["wordABC", "（くー「え"]


@pytest.mark.parametrize("word", ["+1", "2AP", "3/4", "AP:3", "HP-2", "12", "Attack", "ＨＰ１０", "＋1", "3＋2＝5"])
def test_latin_words_and_digit_runs_stay_whole(word):
    text = "あいう" + word + "えお"
    for width in range(20, 90, 5):
        lines = break_text(text, em_measure, width)
        if width >= 10 * len(word):
            assert any(word in s for s in lines), (width, lines)
        assert "".join(lines) == text


def test_word_longer_than_line_is_broken_by_characters(fonts):
    m = lambda tok: stringWidth(tok.text, fonts.regular, 10)
    word = "Supercalifragilisticexpialidocious"
    wrapped = wrap([Text("あ" + word)], m, 40)
    lines = [w.text for w in wrapped.lines]
    assert "".join(lines) == "あ" + word
    # a break after あ is allowed; the word itself is then cut where each line is full
    assert lines == ["あ", "Superca", "lifragilist", "icexpiali", "docious"]
    assert all(stringWidth(s, fonts.regular, 10) <= 40 + 1e-6 for s in lines)
    assert [w.forced for w in wrapped.lines] == [False, True, True, True, False]
    assert wrapped.forced_breaks == 3 and wrapped.overfull_lines == 0


@pytest.mark.parametrize("bold", [False, True])   # the one-style path and the general one
def test_a_hyphenated_word_wider_than_the_line_breaks_after_its_hyphen(bold):
    """The English Fatal Fight rulebook's character table printed 'Rapid' / '-combo kicker' and
    'Throw-and' / '-pierce powerhouse': the URL rule (before a sign) broke plain words too."""
    from generator.text.kinsoku import wrapped_cut_words

    def m(tok):
        return em_measure(tok.text) if isinstance(tok, Text) else 10.0

    def lines(text, width):
        toks = [Text(text[:1], bold), Text(text[1:])] if bold else [Text(text)]
        wrapped = wrap(toks, m, width)
        assert wrapped_cut_words(wrapped.lines) == []         # no word was cut: no warning
        return [w.text for w in wrapped.lines]

    assert lines("Rapid-combo kicker", 60) == ["Rapid-", "combo", "kicker"]
    assert lines("Throw-and-pierce powerhouse", 100) == ["Throw-and-", "pierce", "powerhouse"]
    assert lines("Throw-and-pierce.", 100) == ["Throw-and-", "pierce."]   # a full stop makes no path
    # a URL or path still breaks before its signs, a hyphen included
    assert lines("example.com/print-and-play", 120) == ["example.com", "/print-and", "-play"]


def test_spaces_break_and_are_dropped_at_line_ends():
    lines = break_text("Attack the nearest enemy", em_measure, 100)
    assert lines == ["Attack the", "nearest", "enemy"]
    assert all(s == s.strip(" ") for s in lines)
    # many spaces between words: all dropped at the break
    assert break_text("abc    def", em_measure, 50) == ["abc", "def"]


def test_spaces_inside_a_line_are_kept():
    assert break_text("ab  cd", em_measure, 100) == ["ab  cd"]


def test_indentation_at_paragraph_start_is_kept():
    assert break_text("  abc", em_measure, 100) == ["  abc"]


def test_ideographic_space_is_a_character():
    text = "\u3000攻撃\u3000防御\u3000"
    lines = break_text(text, em_measure, 30)
    assert "".join(lines) == text
    assert lines[0].startswith("\u3000")
    assert lines[-1].endswith("\u3000")


def test_explicit_newlines(measure):
    lines = break_lines(parse_markup("攻撃\n防御\n\n回復"), measure, 100)
    assert [line_string(x) for x in lines] == ["攻撃", "防御", "", "回復"]
    assert break_text("攻撃\n防御", em_measure, 1000) == ["攻撃", "防御"]


def test_icon_is_a_glyph_box_that_sticks_to_the_next_character():
    def m(tok):
        return 10.0 if isinstance(tok, Icon) else 10.0 * len(tok.text)
    # "あいう" + icon fill 4 em; the icon moves down with "ガ" instead of ending the line
    lines = break_lines(parse_markup("あいう:guard:ガード"), m, 40)
    assert [line_string(x) for x in lines] == ["あいう", "\ufffcガード"]
    assert isinstance(lines[1][0], Icon) and lines[1][0].name == "guard"


def test_break_after_icon_only_when_nothing_else_fits():
    def m(tok):
        return 10.0 if isinstance(tok, Icon) else 10.0 * len(tok.text)
    wrapped = wrap(parse_markup(":ap:ABCD"), m, 30)
    assert [line_string(w.tokens()) for w in wrapped.lines] == ["\ufffc", "ABC", "D"]
    assert wrapped.lines[0].forced is False  # breaking after the icon was allowed


def test_icon_break_before_is_allowed():
    def m(tok):
        return 10.0 if isinstance(tok, Icon) else 10.0 * len(tok.text)
    lines = break_lines(parse_markup("あいう:ap:え"), m, 30)
    assert [line_string(x) for x in lines] == ["あいう", "\ufffcえ"]


def test_bold_and_regular_runs_of_one_word_stay_together():
    lines = break_text("あいう", em_measure, 30)
    assert lines == ["あいう"]
    lines = break_lines(parse_markup("あい**AP**3え"), lambda t: 10.0 * len(t.text), 30)
    assert [line_string(x) for x in lines] == ["あい", "AP3", "え"]


def test_glyph_wider_than_line_is_overfull():
    wrapped = wrap([Text("あい")], lambda t: 10.0 * len(t.text), 5)
    assert [w.text for w in wrapped.lines] == ["あ", "い"]
    assert wrapped.overfull_lines == 2


def test_combining_mark_stays_with_its_base():
    text = "あいか\u3099き"  # か + combining dakuten
    lines = break_text(text, lambda s: 10.0 * sum(1 for c in s if c != "\u3099"), 30)
    assert all(not s.startswith("\u3099") for s in lines)
    assert "".join(lines) == text


def _em_or_icon(tok):
    return 10.0 if isinstance(tok, Icon) else em_measure(tok.text)


def test_a_double_dash_is_never_split_on_either_path():
    # plain text takes the fast path; an icon in the paragraph sends it down the general path
    assert break_text("あいう——えお", em_measure, 40) == ["あいう", "——えお"]
    assert break_text("あいう――えお", em_measure, 40) == ["あいう", "――えお"]
    lines = wrap([Icon("guard"), Text("あい——えお")], _em_or_icon, 40).lines
    assert [line.text for line in lines] == ["あい", "——えお"]


def test_spaces_after_an_atom_wider_than_the_line_do_not_start_the_next_line():
    # every character is wider than the 5 pt line: each sits alone on an overfull line
    assert break_text("あ い", em_measure, 5) == ["あ", "い"]
    lines = wrap([Text("あ"), Icon("guard"), Text(" い")], _em_or_icon, 5).lines
    assert [(line.text, line.overfull) for line in lines] == [("あ", True), ("", True), ("い", True)]
    assert [len(line.pieces) for line in lines] == [1, 1, 1]


def test_a_kanji_word_moves_down_whole_when_the_line_stays_full():
    # Metroidvania's skill card printed "この判" / "定で受ける", "自" / "分と同じ"; Valheim's "施" / "設"
    assert _both_paths("あいうえおこの判定で", 80) == (["あいうえおこの", "判定で"],) * 2
    assert _both_paths("あいうえおか自分と同じ", 70) == (["あいうえおか", "自分と同じ"],) * 2
    # a kanji run longer than the line still breaks inside (no cut-word error), and a normal break
    # that would leave the line short gives way to one inside the word, as for katakana
    wrapped = wrap([Text("全体攻撃力上昇効果")], lambda t: em_measure(t.text), 40)
    assert [line.text for line in wrapped.lines] == ["全体攻撃", "力上昇", "効果"] and wrapped.forced_breaks == 0
    assert _both_paths("あ攻撃力上昇効果", 60) == (["あ攻撃力上昇", "効果"],) * 2
