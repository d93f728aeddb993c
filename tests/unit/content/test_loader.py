"""The loader: line numbers, exact schema messages, references, counts, hostile input."""
import textwrap

import pytest

from generator.content import load_game
from generator.content.yamlload import MAX_FILE_BYTES, parse_text, to_plain, NodeBudget
from generator.errors import ContentError


def problems_of(path):
    with pytest.raises(ContentError) as info:
        load_game(path)
    return [(p.location.path.split("/")[-1], p.location.line, p.field, p.message) for p in info.value.problems]


def write(path, text):
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_tiny_game_loads_with_defaults_and_locations(tiny):
    game = load_game(tiny)
    mage = game.tables["heroes"][1]
    assert mage["name"] == {"ja": "魔法使い", "en": "Mage"}
    assert mage["color"] == "#3366cc" and mage["count"] == 1
    assert game.tables["rules"] == {"start_life": 10, "hand_size": 5}
    assert [(c.id, c.found, c.expected) for c in game.components] == [("heroes", 4, 4), ("coins", 6, 6)]
    assert game.where(game.tables["heroes"][2]).line == 13
    assert [r["id"] for r in game.cards("heroes")] == ["knight", "knight", "mage", "thief"]


def test_a_short_hex_colour_field_is_written_out_long(tiny):
    """A layout printing card.color took '#fff' to ReportLab, which reads it as the blue #000fff."""
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("  life: 8\n", "  life: 8\n  color: '#fA0'\n", 1))
    assert load_game(tiny).tables["heroes"][1]["color"] == "#ffAA00"


def test_wrong_type_is_located_with_field_path(tiny):
    text = (tiny / "heroes.yaml").read_text().replace("life: 12", 'life: "three"')
    (tiny / "heroes.yaml").write_text(text)
    assert problems_of(tiny) == [("heroes.yaml", 3, "heroes[0].life", "expected an integer, got 'three'")]


def test_unknown_key_missing_key_and_did_you_mean(tiny):
    text = (tiny / "heroes.yaml").read_text().replace("  life: 9\n", "  lfe: 9\n")
    (tiny / "heroes.yaml").write_text(text)
    assert problems_of(tiny) == [
        ("heroes.yaml", 13, "heroes[2].life", "missing required field"),
        ("heroes.yaml", 15, "heroes[2].lfe", "unknown field (did you mean 'life'?)"),
    ]


def test_a_misspelt_components_key_is_a_problem_not_a_crash(tiny):
    text = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(text.replace("components:", "compnents:"))
    line = text[:text.index("components:")].count("\n") + 1
    assert problems_of(tiny) == [
        ("game.yaml", 1, "components", "missing required field"),
        ("game.yaml", line, "compnents", "unknown field (did you mean 'components'?)"),
    ]
    for value in ("", "heroes.yaml"):  # empty, or a file name where the list belongs
        (tiny / "game.yaml").write_text(text[:text.index("components:")] + f"components: {value}\n")
        assert [p[2] for p in problems_of(tiny)] == ["components"]


def test_an_unknown_component_size_says_how_to_write_a_size_of_ones_own(tiny):
    text = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(text.replace("size: poker", "size: 63mm x 88mm", 1))
    [message] = [message for _file, _line, field, message in problems_of(tiny) if field.endswith(".size")]
    assert message.startswith("unknown size '63mm x 88mm'; expected a paper")
    assert message.endswith("; or [width, height] with units, e.g. [40mm, 40mm]")


def test_two_components_with_one_id_is_a_problem(tiny):
    text = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(text.replace("- id: coins", "- id: heroes"))
    line = text[:text.index("- id: coins")].count("\n") + 1
    assert problems_of(tiny) == [("game.yaml", line, "components[1].id", "duplicate component id 'heroes' (also components[0])")]


def test_a_where_filter_on_a_field_the_type_lacks_is_named(tiny):
    text = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(text.replace("    schema: coin\n", "    schema: coin\n    where: {vaule: 1}\n"))
    found = problems_of(tiny)
    assert ("game.yaml", 18, "components[1].where.vaule", "type 'coin' has no field 'vaule' (did you mean 'value'?)") in found


def test_a_pattern_mismatch_says_in_words_what_the_pattern_wants(tiny):
    text = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(text.replace("- id: coins", "- id: Coins"))
    assert ("game.yaml", 14, "components[1].id",
            "'Coins' does not match the pattern [a-z0-9][a-z0-9_-]* (lowercase letters, digits, - and _)") in problems_of(tiny)


def test_a_component_that_does_not_load_brings_no_follow_on_reference_problems(tiny):
    text = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(text.replace("size: poker", "size: pokr", 1))
    assert [p[2] for p in problems_of(tiny)] == ["components[0].size"], "heroes.yaml's friend: heroes stays quiet"


def test_range_enum_ref_and_tagged_messages(tiny):
    write(tiny / "heroes.yaml", """\
        - id: knight
          name: 騎士
          life: 99
          friend: mgae
          effect: [{op: heel, n: 2}, {op: draw}]
        - id: mage
          name: 魔法使い
          life: 8
        """)
    found = problems_of(tiny)
    assert ("heroes.yaml", 3, "heroes[0].life", "99 is above the maximum 20") in found
    assert ("heroes.yaml", 4, "heroes[0].friend", "no heroes record with id 'mgae' (did you mean 'mage'?)") in found
    assert ("heroes.yaml", 5, "heroes[0].effect[0].op", "unknown op 'heel' (did you mean 'heal'?); known: heal, draw") in found
    assert ("heroes.yaml", 5, "heroes[0].effect[1].n", "missing required field") in found
    assert ("game.yaml", 13, "heroes.expected", "game.yaml declares 4 but the data yields 2") in found


def test_duplicate_keys_and_ids(tiny):
    write(tiny / "coins.yaml", """\
        - {id: coin1, value: 1, count: 4}
        - id: coin1
          value: 5
          value: 6
          count: 2
        """)
    found = problems_of(tiny)
    assert ("coins.yaml", 4, "coins[1].value", "duplicate key (first at line 3)") in found
    assert any(f == "coins[1].id" and m.startswith("duplicate id 'coin1' (also at ") for _, _, f, m in found)


def test_a_record_repeated_through_a_yaml_alias_is_a_duplicate_id(tiny):
    (tiny / "coins.yaml").write_text("- &c {id: coin1, value: 1, count: 3}\n- *c\n")
    assert problems_of(tiny) == [
        ("coins.yaml", 1, "coins[1].id", "duplicate id 'coin1' (coins[0].id through a YAML alias; use count: for copies)")]


def test_yaml_syntax_error_is_located(tiny):
    (tiny / "coins.yaml").write_text("- {id: coin1, value: 1\n- {id: x}\n")
    found = problems_of(tiny)
    assert found[0][0] == "coins.yaml" and found[0][1] == 2 and found[0][3].startswith("YAML syntax error")


def test_a_tab_in_the_indentation_is_named(tiny):
    (tiny / "coins.yaml").write_text("- {id: coin1, value: 1}\n\t- {id: coin5, value: 5}\n")
    [found] = problems_of(tiny)
    assert found[:2] == ("coins.yaml", 2)
    assert found[3].endswith(": a tab character; YAML indents with spaces only"), found


def test_an_unclosed_brace_names_the_line_it_was_opened_on_not_only_where_the_next_line_begins(tiny):
    (tiny / "coins.yaml").write_text("- {id: coin1, value: 1, count: 3\n- {id: coin5, value: 5}\n")
    [found] = problems_of(tiny)
    assert found[:2] == ("coins.yaml", 2)
    assert found[3].endswith(": the '{' of line 1 is still open here (a '}' missing at the end of a line, "
                             "or a ',' between two values)"), found


@pytest.mark.parametrize("text", [
    "- id: coin1\n  value: 1\n   count: 3\n",          # a key one space deeper than its neighbours
    "- id: coin1\n  value: 1\n  name: Coin: gold\n",   # ': ' inside an unquoted text
])
def test_mapping_values_not_allowed_says_what_a_designer_wrote_to_get_it(tiny, text):
    (tiny / "coins.yaml").write_text(text)
    [found] = problems_of(tiny)
    assert found[:2] == ("coins.yaml", 3)
    assert found[3].endswith(": a key indented more than the keys beside it, or a text with ': ' in it not quoted "
                             '(write it in "...")'), found


def test_a_new_field_not_yet_in_schema_yaml_says_where_the_record_type_declares_its_fields(tiny):
    (tiny / "coins.yaml").write_text("- {id: coin1, value: 1, count: 6, metal: gold}\n")
    [found] = problems_of(tiny)
    assert found == ("coins.yaml", 1, "coins[0].metal",  # schema.yaml:13 is the coin's `fields:`
                     f"unknown field (not among the fields declared at {tiny / 'schema.yaml'}:13: id, value, count; "
                     "add it there to give the records one, docs/content-format.md)")


def test_every_problem_is_collected_across_files(tiny):
    (tiny / "rules.yaml").write_text("start_life: 0\n")
    (tiny / "coins.yaml").write_text("- {id: coin1, value: -1, count: 6}\n")
    found = problems_of(tiny)
    assert ("rules.yaml", 1, "rules.start_life", "0 is below the minimum 1") in found
    assert ("coins.yaml", 1, "coins[0].value", "-1 is below the minimum 1") in found


def test_alias_bomb_is_refused_quickly():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 9):
        prev = chr(ord("a") + i - 1)
        cur = chr(ord("a") + i)
        bomb += f"{cur}: &{cur} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
    node = parse_text(bomb, "bomb.yaml")
    with pytest.raises(ContentError) as info:
        to_plain(node, "bomb.yaml", [], NodeBudget("bomb.yaml"))
    assert "alias bomb" in info.value.problems[0].message


def test_oversized_file_is_refused(tiny):
    (tiny / "coins.yaml").write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    found = problems_of(tiny)
    assert found == [("coins.yaml", 0, "", f"file is {(MAX_FILE_BYTES + 1) // 1024} KiB; the limit is {MAX_FILE_BYTES // 1024} KiB")]


def test_non_utf8_text_and_nul_bytes_are_located_at_their_line(tiny):
    (tiny / "coins.yaml").write_bytes(b"- {id: coin1, value: 1, count: 4}\n- {id: coin5, value: 5, count: 2}\n# caf\xe9\n")
    assert problems_of(tiny) == [("coins.yaml", 3, "", "not UTF-8 text (invalid continuation byte at byte 73)")]
    # libyaml counts the position in UTF-8 bytes: the Japanese before the NUL must not move the line
    (tiny / "coins.yaml").write_text("- {id: coin1, value: 1, count: 4}\n- {id: コイン, value: 5, count: 2}\n# a\x00\n")
    assert problems_of(tiny) == [
        ("coins.yaml", 3, "", "YAML error: unacceptable character #x0000: control characters are not allowed")]
    (tiny / "schema.yaml").write_text("# スキーマ\ntypes:\n  hero: \x00\n")
    assert ("schema.yaml", 3, "", "YAML error: unacceptable character #x0000: control characters are not allowed") \
        in problems_of(tiny)


def test_paths_outside_the_game_are_refused(tiny):
    text = (tiny / "game.yaml").read_text().replace("file: coins.yaml", "file: ../coins.yaml")
    (tiny / "game.yaml").write_text(text)
    found = problems_of(tiny)
    assert ("game.yaml", 16, "components[1].file", "'../coins.yaml' must be a relative path inside the game directory") in found


def test_a_font_named_instead_of_its_file_is_told_which_files_are_fonts(tiny):
    text = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(text.replace('version: "1"\n', 'version: "1"\nfonts: {regular: Kaisho}\n', 1))
    assert ("game.yaml", 3, "fonts.regular",
            "'Kaisho' is not a .ttf, .otf or .ttc file: name one by its path in the game directory") in problems_of(tiny)


def test_a_yaml_error_half_way_through_a_file_is_its_only_problem_not_every_reference_into_it(tiny):
    """A text with ': ' unquoted at the end of heroes.yaml: the records above it were read, then dropped;
    a coin naming one of them was "no heroes record with id 'knight'"."""
    schema = (tiny / "schema.yaml").read_text(encoding="utf-8")
    (tiny / "schema.yaml").write_text(schema.replace(
        "      value: {type: int, min: 1}\n",
        "      value: {type: int, min: 1}\n      hero: {type: ref, to: heroes, optional: true}\n"), encoding="utf-8")
    coins = (tiny / "coins.yaml").read_text(encoding="utf-8")
    (tiny / "coins.yaml").write_text(coins.replace("- {id: coin1, ", "- {id: coin1, hero: knight, "), encoding="utf-8")
    assert "hero: knight" in (tiny / "coins.yaml").read_text(encoding="utf-8")
    with open(tiny / "heroes.yaml", "a", encoding="utf-8") as records:
        records.write("- id: fox\n  name: 狐\n  life: 3\n  text: 効果: 1点\n")
    found = problems_of(tiny)
    assert [(name, field) for name, _line, field, _message in found] == [("heroes.yaml", "")], found
    assert found[0][3].startswith("YAML syntax error: mapping values are not allowed in this context")


def test_yaml_11_booleans_stay_strings(tiny):
    node = parse_text("mode: off\nflag: true\n", "x.yaml")
    assert to_plain(node, "x.yaml", [], NodeBudget("x.yaml")) == {"mode": "off", "flag": True}


def test_bare_number_where_length_expected(tiny):
    text = (tiny / "game.yaml").read_text().replace("size: [20mm, 20mm]", "size: [20, 20mm]")
    (tiny / "game.yaml").write_text(text)
    found = problems_of(tiny)
    assert ("game.yaml", 18, "components[1].size", "a length needs a unit (mm, cm, in, pt): write '20mm' or '20pt'") in found


def test_schema_mistakes_are_located(tiny):
    text = (tiny / "schema.yaml").read_text().replace("life: {type: int, min: 1, max: 20}", "life: {type: integr, mn: 1}")
    (tiny / "schema.yaml").write_text(text)
    found = problems_of(tiny)
    assert ("schema.yaml", 7, "types.hero.fields.life.type", "unknown type 'integr' (did you mean 'int'?)") in found


def test_a_record_file_must_be_a_list(tiny):
    (tiny / "coins.yaml").write_text("id: coin1\nvalue: 1\n")
    assert problems_of(tiny) == [("coins.yaml", 1, "", "a record file must be a YAML list of records")]


def test_a_second_document_is_refused(tiny):
    (tiny / "coins.yaml").write_text("- {id: coin1, value: 1, count: 6}\n---\n- {id: coin2, value: 2}\n")
    assert problems_of(tiny) == [("coins.yaml", 2, "", "expected a single document (found a second '---')")]


def test_field_at_gives_the_line_of_a_records_field_nested_key_merge_or_default(tiny):
    write(tiny / "heroes.yaml", """\
        - &base
          id: knight
          name: 騎士
          life: 12
          count: 2
        - id: mage
          name:
            ja: 魔法使い
            en: Mage
          life: 8

          text: "カードを**2枚**引く。"
        - <<: *base
          id: thief
          count: 1
        """)
    game = load_game(tiny)
    knight, mage, thief = game.component("heroes").records
    assert game.where(mage).line == 6
    assert game.field_at(mage, "text").line == 12
    assert game.field_at(mage, "name").line == 7
    assert game.field_at(mage, "name", "en").line == 9
    assert game.field_at(mage, "color").line == 6, "a default is not written: the record's line"
    assert game.field_at(thief, "id").line == 14
    assert game.field_at(thief, "life").line == 4, "merged from the anchor: the anchor's line"
    assert game.field_at(knight, "count").line == 5
    assert game.field_at({"not": "loaded"}, "name") is None


@pytest.mark.parametrize("text, expected", [
    ("- {id: a, n: 1}\n- &x {id: b}\n- *x\n- [1, 2]\n", [("a", 1), ("b", 2), ("b", 2), (None, 4)]),
    ("", []),
    ("id: a\n", "1: a record file must be a YAML list of records"),
    ("- {id: a}\n---\n- {id: b}\n", "2: expected a single document (found a second '---')"),
    ("- {id: a}\n- {id: [b}\n", "YAML syntax error"),
    ("- {id: a}\n- \x00\n", "2: YAML error: unacceptable character #x0000"),
])
def test_record_files_read_at_once_or_streamed_give_the_same_items_and_problems(tmp_path, monkeypatch, text,
                                                                                  expected):
    """Small record files are composed by libyaml at once, large ones item by item (STREAM_CHARS): the
    same nodes at the same lines, the same located problems."""
    from generator.content import yamlload

    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    seen = []
    for limit in (yamlload.STREAM_CHARS, 0):   # at once, then streamed
        monkeypatch.setattr(yamlload, "STREAM_CHARS", limit)
        try:
            items = [(next((v.value for k, v in n.value if k.value == "id"), None) if n.id == "mapping" else None,
                      n.start_mark.line + 1)
                     for n in yamlload.parse_items(path, "a record file must be a YAML list of records")]
            seen.append(items)
        except ContentError as exc:
            (problem,) = exc.problems
            seen.append(f"{problem.location.line}: {problem.message}")
    assert seen[0] == seen[1]
    assert seen[0] == expected if isinstance(expected, list) else expected in seen[0]


def test_texts_without_the_games_language_are_warned_about_once_per_file(tiny):
    """A {ja: ..., en: ...} text missing game.yaml's lang prints in another language: one warning per
    file, at the first such text, counting the rest; plain strings are language-neutral."""
    game_file = tiny / "game.yaml"
    assert load_game(tiny).warnings == []                                   # lang ja: every text has ja
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("name: 盗賊", "name: {ja: 盗賊}"), encoding="utf-8")
    game_file.write_text("lang: fr\n" + game_file.read_text(encoding="utf-8"), encoding="utf-8")
    warnings = load_game(tiny).warnings
    assert [(w.location.path.split("/")[-1], w.location.line, w.field, w.severity) for w in warnings] == [
        ("game.yaml", 2, "title", "warning"), ("heroes.yaml", 8, "heroes[1].name", "warning")]  # (title: {ja, en})
    assert warnings[1].message == "no 'fr' text (game.yaml lang: fr); it prints in 'ja' (and 1 more text(s) in this file)"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    (warning,) = load_game(tiny).warnings
    assert (warning.location.line, warning.message) == (14, "no 'en' text (game.yaml lang: en); it prints in 'ja'")


def test_an_edition_in_another_language_counts_the_plain_strings_it_prints_as_written(tiny):
    """--lang en of a game written in ja: a plain string prints as written, in ja; one warning per file at
    the first, counting the rest; a plain string with no words of the game's language (AP+2) is none's."""
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace('text: "カードを**2枚**引く。"', 'text: "AP+2"'),
                      encoding="utf-8")
    assert load_game(tiny).warnings == []  # the game's own language: plain strings are what it is written in
    warnings = load_game(tiny, lang="en").warnings
    shown = [(w.location.path.split("/")[-1], w.location.line, w.field, w.message) for w in warnings]
    assert shown == [
        ("game.yaml", 6, "components[0].name", "no 'en' text (--lang en); it prints in 'ja'"),
        ("heroes.yaml", 2, "heroes[0].name", "no 'en' text (--lang en); it prints in 'ja' (and 2 more text(s) in this file)"),
    ]  # heroes: 騎士, its text, 盗賊 (no text); not Mage (it has en), not AP+2
    listed = [(where.line, field, has) for where, field, has in load_game(tiny, lang="en").untranslated
              if where.path.endswith("heroes.yaml")]
    assert listed == [(2, "heroes[0].name", ("ja",)), (5, "heroes[0].text", ("ja",)), (14, "heroes[2].name", ("ja",))]


def test_a_refused_count_or_expected_adds_no_count_mismatch(tiny):
    """`count: -2` is the error; 'declares 4 but the data yields 0' (its sum) would only mislead."""
    text = (tiny / "heroes.yaml").read_text(encoding="utf-8")
    (tiny / "heroes.yaml").write_text(text.replace("count: 2", "count: -2", 1), encoding="utf-8")
    assert [p[2:] for p in problems_of(tiny)] == [("heroes[0].count", "-2 is below the minimum 1")]
    (tiny / "heroes.yaml").write_text(text, encoding="utf-8")
    game = (tiny / "game.yaml").read_text(encoding="utf-8")
    (tiny / "game.yaml").write_text(game.replace("expected: 4", "expected: -1", 1), encoding="utf-8")
    assert [p[2:] for p in problems_of(tiny)] == [("components[0].expected", "-1 is below the minimum 0")]


def test_game_yamls_own_texts_are_warned_about_like_the_records(tmp_path):
    """A component's name in game.yaml prints in the rulebook's component table: with ``lang: fr`` and
    only {ja, en} names, it printed Japanese without a word."""
    from generator.newgame import new_game

    new_game("fox", tmp_path, lang="en")
    game_file = tmp_path / "content/fox/game.yaml"
    assert load_game(game_file.parent).warnings == []
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("lang: en", "lang: fr"), encoding="utf-8")
    (warning,) = load_game(game_file.parent).warnings
    assert (warning.location.path, warning.location.line, warning.field) == (str(game_file), 8, "components[0].name")
    assert warning.message == "no 'fr' text (game.yaml lang: fr); it prints in 'ja'"


def test_a_schema_option_the_checks_cannot_use_is_located_in_schema_yaml(tiny):
    """The mutation sweep's finds: each crashed comparing the first record's value with the option."""
    schema = tiny / "schema.yaml"
    text = schema.read_text(encoding="utf-8")
    schema.write_text(text.replace("max_len: 12", "max_len: many").replace("min: 1, max: 20", 'min: [1, 2], max: ""'),
                      encoding="utf-8")
    assert [p for p in problems_of(tiny) if p[0] == "schema.yaml"] == [
        ("schema.yaml", 5, "types.hero.fields.name.max_len",
         "expected a whole number of 0 or more (or, for a text, one per language: {ja: 60, en: 120}), got 'many'"),
        ("schema.yaml", 7, "types.hero.fields.life.max", "expected a number, got ''"),
        ("schema.yaml", 7, "types.hero.fields.life.min", "expected a number, got [1, 2]")]


def test_a_texts_length_limit_may_be_given_per_language(tiny):
    """English needs about twice the characters of Japanese: `max_len: {ja: 12, en: 24}` checks each
    language's text against its own limit (a plain string against game.yaml's lang's), where one
    number held the English of a Japanese game to the Japanese count."""
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace(
        "name: 盗賊", "name: {ja: 盗賊, en: Thief of the Night Market}").replace("name: 騎士", "name: 騎士団"),
        encoding="utf-8")
    assert problems_of(tiny) == [("heroes.yaml", 14, "heroes[2].name.en", "has 25 characters; at most 12 allowed")]
    schema = tiny / "schema.yaml"
    schema.write_text(schema.read_text(encoding="utf-8").replace("max_len: 12", "max_len: {ja: 3, en: 25}"),
                      encoding="utf-8")
    assert [p[1:] for p in problems_of(tiny)] == [(8, "heroes[1].name.ja", "has 4 characters; at most 3 allowed")]  # 騎士団 (3) is plain ja
    schema.write_text(schema.read_text(encoding="utf-8").replace("{ja: 3, en: 25}", "{ja: 12, en: many}"),
                      encoding="utf-8")
    assert [p for p in problems_of(tiny) if p[0] == "schema.yaml"] == [
        ("schema.yaml", 5, "types.hero.fields.name.max_len",
         "expected a whole number of 0 or more (or, for a text, one per language: {ja: 60, en: 120}), got {'ja': 12, 'en': 'many'}")]


def test_a_texts_length_limit_counts_what_prints(tiny):
    """``**`` around a word and an icon's name made a text "longer" than it prints: a designer who made
    one word bold saw "has 14 characters; at most 12" for a name of 10 printed characters."""
    heroes = tiny / "heroes.yaml"
    text = heroes.read_text(encoding="utf-8")
    heroes.write_text(text.replace("name: 盗賊", "name: \"**夜市**の盗賊団:coin:の頭目\""), encoding="utf-8")
    load_game(tiny)  # no problem: 10 printed (the icon is one), 16 as written
    heroes.write_text(text.replace("name: 盗賊", "name: {ja: 盗賊, en: \"**Thief** of the Market\"}"),
                      encoding="utf-8")
    assert problems_of(tiny) == [("heroes.yaml", 14, "heroes[2].name.en", "has 19 characters; at most 12 allowed")]
