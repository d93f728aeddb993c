import pytest

from generator.text.markup import Icon, Newline, Text, parse_markup


def test_plain_text_is_one_token():
    assert parse_markup("敵1体に3ダメージ。") == [Text("敵1体に3ダメージ。")]


def test_empty_string():
    assert parse_markup("") == []


def test_bold_span():
    assert parse_markup("通常**太字**通常") == [Text("通常"), Text("太字", True), Text("通常")]


def test_bold_containing_icon_and_newline():
    assert parse_markup("**攻撃:attack:\n強**") == [
        Text("攻撃", True), Icon("attack", True), Newline(), Text("強", True)]


def test_unpaired_bold_marker_is_text():
    assert parse_markup("a**b") == [Text("a**b")]
    assert parse_markup("**a**b**") == [Text("a", True), Text("b**")]


def test_empty_bold_is_text():
    assert parse_markup("a****b") == [Text("a****b")]


def test_single_star_is_text():
    assert parse_markup("2*3") == [Text("2*3")]


def test_icon():
    assert parse_markup(":guard:ガード2") == [Icon("guard"), Text("ガード2")]
    assert parse_markup("a:ap-2_x:b") == [Text("a"), Icon("ap-2_x"), Text("b")]


@pytest.mark.parametrize("source", [
    "AP:3", "HP: 2", "AP:3 HP:4", "コスト：3", "時刻 12:", ":Guard:", ":a b:", "::", ":", "a:",
    ":guard", "guard:", ":ガード:",
])
def test_colons_that_are_not_icons(source):
    assert parse_markup(source) == [Text(source)]


def test_colon_then_icon():
    assert parse_markup("AP::ap:") == [Text("AP:"), Icon("ap")]


def test_escapes():
    assert parse_markup(r"\:guard\:") == [Text(":guard:")]
    assert parse_markup(r"\:guard:") == [Text(":guard:")]
    assert parse_markup(r"\*\*not bold\*\*") == [Text("**not bold**")]
    assert parse_markup(r"a\\b") == [Text("a\\b")]
    assert parse_markup(r"C\d") == [Text("C\\d")]


def test_escaped_star_does_not_pair():
    assert parse_markup(r"**a\**b**") == [Text("a**b", True)]


def test_newlines_real_and_escaped():
    expected = [Text("上"), Newline(), Text("下")]
    assert parse_markup("上\n下") == expected
    assert parse_markup("上\\n下") == expected
    assert parse_markup("上\r\n下") == expected
    assert parse_markup("上\r下") == expected
    assert parse_markup("a\n\nb") == [Text("a"), Newline(), Newline(), Text("b")]


def test_ideographic_space_is_kept():
    assert parse_markup("\u3000攻撃\u3000") == [Text("\u3000攻撃\u3000")]
