"""Jinja2 rendering of rulebook sources: line tracking through expansions, located errors."""
import pytest

from generator.rulebook.context import StrictMap
from generator.rulebook.source import (RefError, add_markers, protect_heading_ids, render_file,
                                       strip_markers)


def render(tmp_path, text, context=None):
    path = tmp_path / "03-setup.md"
    path.write_text(text, encoding="utf-8")
    problems = []
    result = render_file(path, "content/g/rulebook/03-setup.md", context or {}, problems)
    return result, problems


def test_lines_map_back_to_the_source_through_loops(tmp_path):
    src = "# 見出し\n\n{% for i in [1, 2, 3] %}\n- 項目{{ i }}\n{% endfor %}\n\n最後の行\n"
    result, problems = render(tmp_path, src)
    assert not problems
    lines = result.text.split("\n")
    assert lines[:6] == ["# 見出し", "", "- 項目1", "- 項目2", "- 項目3", ""]
    assert [result.line_map[i] for i in range(len(lines)) if lines[i].startswith("- ")] == [4, 4, 4]
    assert result.line_map[lines.index("最後の行")] == 7
    assert "\ue000" not in result.text


def test_multi_line_tags_keep_later_lines_in_place(tmp_path):
    src = "a\n{{ 1 +\n 2 }}\nb\n{# a\ncomment #}\nc\n"
    result, problems = render(tmp_path, src)
    assert not problems
    lines = result.text.split("\n")
    assert lines[:4] == ["a", "3", "b", "c"]
    assert result.line_map[:4] == [1, 3, 4, 7]


def test_markers_skip_statement_lines_so_trim_blocks_works():
    marked = add_markers("{% if true %}\nx\n{% endif %}\n")
    assert marked.startswith("{% if true %}\n")
    text, line_map = strip_markers(marked)
    assert line_map[1] == 2


def test_heading_ids_do_not_open_jinja_comments(tmp_path):
    assert protect_heading_ids("## ラウンド {#round}\n") == "## ラウンド { #round }\n"
    result, problems = render(tmp_path, "## ラウンド {#round}\n本文 {# コメント #}です\n")
    assert not problems
    assert result.text.splitlines() == ["## ラウンド { #round }", "本文 です"]


def test_a_heading_id_with_other_attributes_does_not_open_a_jinja_comment(tmp_path):
    # "{#id -}" was "template syntax: Missing end of comment tag"
    assert protect_heading_ids("## 付録 {#appendix -}\n") == "## 付録 { #appendix - }\n"
    assert protect_heading_ids("## 付録 {#appendix .unnumbered}\n") == "## 付録 { #appendix .unnumbered }\n"
    result, problems = render(tmp_path, "## 付録 {#appendix -}\n")
    assert not problems and result.text == "## 付録 { #appendix - }\n"


def test_a_misspelt_filter_is_located_with_the_close_one(tmp_path):
    _result, problems = render(tmp_path, "# 準備\n\n手札は{{ [1, 2] | lenght }}枚。\n")
    assert [(p.location.line, p.message) for p in problems] == [
        (3, "template syntax: No filter named 'lenght'. (did you mean 'length'?)")]


def test_unknown_field_is_located_with_a_suggestion(tmp_path):
    ctx = {"rules": StrictMap({"start_gold_per_player": 3}, "rules")}
    _, problems = render(tmp_path, "一行目\n\n開始時に{{ rules.start_gold }}金。\n", ctx)
    assert len(problems) == 1
    p = problems[0]
    assert (p.location.path, p.location.line) == ("content/g/rulebook/03-setup.md", 3)
    assert "start_gold" in p.message and "did you mean 'start_gold_per_player'" in p.message


def test_helper_errors_are_located(tmp_path):
    def card(component, card_id):
        raise RefError(f"no card {card_id!r} in component {component!r}")

    _, problems = render(tmp_path, "a\nb\n\n{{ card('enemies', 'e9') }}\n", {"card": card})
    assert [(p.location.line, p.message) for p in problems] == [(4, "no card 'e9' in component 'enemies'")]


def test_every_wrong_reference_of_a_chapter_is_reported_at_once(tmp_path):
    """A renamed card named in several places of one chapter: every place, not one per validate."""
    def card(component, card_id):
        if card_id != "e1":
            raise RefError(f"no card {card_id!r} in component {component!r}")
        return "E1"

    src = "a\n{{ card('enemies', 'e9') }}\n{{ card('enemies', 'e1') }}\n{% for i in [1] %}\n{{ card('enemies', 'e8') }}\n" \
          "{% endfor %}\n"
    _, problems = render(tmp_path, src, {"card": card})
    assert [(p.location.line, p.message) for p in problems] == [(2, "no card 'e9' in component 'enemies'"),
                                                                 (5, "no card 'e8' in component 'enemies'")]
    _, problems = render(tmp_path, "{% for c in card('enemies', 'e7') %}\nx\n{% endfor %}\n{{ nothing }}\n",
                         {"card": card})
    assert [p.location.line for p in problems] == [1]  # leaving the loop's line out breaks the block: stop there


def test_syntax_and_undefined_errors(tmp_path):
    _, problems = render(tmp_path, "a\n{% for x in %}\n")
    assert problems[0].location.line == 2 and "syntax" in problems[0].message
    _, problems = render(tmp_path, "a\n\n{{ nothing }}\n")
    assert problems[0].location.line == 3 and "nothing" in problems[0].message


def test_the_sandbox_refuses_unsafe_access(tmp_path):
    _, problems = render(tmp_path, "{{ ''.__class__.__mro__ }}\n")
    assert problems and problems[0].location.line == 1


def test_a_huge_repetition_is_a_located_problem(tmp_path):
    _, problems = render(tmp_path, "ok {{ '-' * 3 }}\n{{ ('x' * 10**8) | length }}\n")
    assert [(p.location.line, p.message) for p in problems] == [(2, "'*' would repeat to 100000000 items (at most 10000)")]


def test_strict_map_reads_and_refuses():
    m = StrictMap({"a": {"b": [1, {"c": 2}]}, 3: "three"}, "rules")
    assert m.a.b[1].c == 2 and m["a"]["b"][0] == 1 and m[3] == "three" and m["3"] == "three"
    with pytest.raises(RefError, match=r"rules.a has no 'x'"):
        m.a.x
    with pytest.raises(TypeError):
        m.a = 1


def test_a_huge_padding_or_join_is_a_located_problem(tmp_path):
    _, problems = render(tmp_path, "ok\n\n{{ 'x' | center(10**9) }}\n{{ range(99999) | join('-' * 5000) }}\n")
    assert [(p.location.line, p.message) for p in problems] == [(3, "center width 1000000000 is too large (at most 10000)")]
    _, problems = render(tmp_path, "ok {{ 'x' | center(5) }}\n{{ range(99999) | join('-' * 5000) }}\n")
    assert [(p.location.line, p.message) for p in problems] == [
        (2, "join would make 500478885 characters (at most 1000000)")]
