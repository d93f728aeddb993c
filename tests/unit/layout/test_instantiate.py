"""Layout semantics on small layouts: extends merging, when/repeat/filter, nested repeats, units."""
import re
import textwrap

import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.errors import ContentError


def faces_of(tiny, layout_text, record=0):
    (tiny / "layouts" / "tiny" / "probe.yaml").write_text(textwrap.dedent(layout_text), encoding="utf-8")
    game_yaml = tiny / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("layout: tiny/hero", "layout: tiny/probe"))
    game = load_game(tiny)
    problems = []
    faces = CardBuilder(game).component_faces(game.component("heroes"), problems)
    ops = faces.fronts[record]
    return ops, problems


def test_repeat_with_offsets_filter_and_when(tiny):
    ops, problems = faces_of(tiny, """\
        boxes:
          - {id: pip, type: rect, repeat: "card.life", filter: "i % 4 == 0", x: 1mm, dx: 2mm, y: 0, w: 1mm, h: 1mm}
          - {id: never, type: rect, when: "card.life > 100", repeat: "card.missing_field", w: 1mm, h: 1mm}
        """)
    assert problems == []
    pips = [op for op in ops if op.id == "pip"]
    assert [round(op.x / 72 * 25.4, 3) for op in pips] == [1.0, 9.0, 17.0]  # life 12: i = 0, 4, 8


def test_repeated_group_children_and_nested_repeats_see_i_and_item(tiny):
    ops, problems = faces_of(tiny, """\
        boxes:
          - id: row
            type: group
            repeat: "[['a', 'b'], ['c']]"
            y: 0
            dy: 10mm
            boxes:
              - {id: first, type: rect, x: 0, w: 1mm, h: 1mm, fill: "{{ '#ff0000' if item[0] == 'a' else '#00ff00' }}"}
              - {id: cell, type: rect, repeat: "item", x: 0, dx: 3mm, w: 1mm, h: 1mm}
              - {id: after, type: rect, x: "{{ i * 5 }}mm", w: 1mm, h: 1mm}
        """)
    assert problems == []
    rows = [op for op in ops if op.id == "row"]
    assert len(rows) == 2
    assert [c.id for c in rows[0].children] == ["first", "cell", "cell", "after"]
    assert [c.id for c in rows[1].children] == ["first", "cell", "after"]
    assert rows[0].children[0].style["fill"] == "#ff0000" and rows[1].children[0].style["fill"] == "#00ff00"
    # the outer i survives the inner repeat: 'after' of row 1 sits at 5 mm
    assert round(rows[1].children[-1].x / 72 * 25.4, 3) == 5.0


def test_extends_merges_boxes_by_id_and_remove(tiny):
    (tiny / "layouts" / "tiny" / "base.yaml").write_text(textwrap.dedent("""\
        background: "#111111"
        boxes:
          - {id: a, type: rect, x: 1mm, w: 2mm, h: 2mm, fill: "#000000"}
          - {id: b, type: rect, w: 2mm, h: 2mm}
        """))
    ops, problems = faces_of(tiny, """\
        extends: tiny/base
        remove: [b]
        boxes:
          - {id: a, fill: "#ffffff"}
          - {id: c, type: ellipse, w: 1mm, h: 1mm}
        """)
    assert problems == []
    assert [op.id for op in ops] == ["", "a", "c"]  # background, merged a, new c
    assert ops[0].style["fill"] == "#111111"
    assert ops[1].style["fill"] == "#ffffff" and round(ops[1].x / 72 * 25.4, 3) == 1.0


@pytest.mark.parametrize("box, message", [
    ('{id: t, type: rect, w: 5, h: 1mm}', "w: a length needs a unit"),
    ('{id: t, type: rect, w: 1mm, h: 1mm, fill: "#ff000080"}', "is not a colour"),
    ('{id: t, type: rect, repeat: "card.name", w: 1mm, h: 1mm}', "repeat must be a count or a list"),
    ('{id: t, type: rect, repeat: "10000", w: 1mm, h: 1mm}', "outside 0..500"),
    ('{id: t, type: text, w: 9mm, h: 9mm, text: a, font: Mincho}', "font must be regular or bold, got 'Mincho' (the "
     "game's two fonts; another typeface goes in game.yaml's fonts:, docs/content-format.md)"),
    ('{id: t, type: text, w: 9mm, h: 9mm, text: a, font: bld}', "font must be regular or bold, got 'bld' (did you "
     "mean 'bold'?)"),
])
def test_bad_values_are_located_problems(tiny, box, message):
    _ops, problems = faces_of(tiny, f"boxes:\n  - {box}\n")
    assert len(problems) == 1 and message in problems[0].message
    assert problems[0].location.path.endswith("layouts/tiny/probe.yaml") and problems[0].location.line == 2


def test_a_template_error_about_a_card_field_names_that_fields_line(tiny):
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: t, type: text, w: 9mm, h: 9mm, text: "{{ card.life + 'x' }}"}
          - {id: u, type: text, w: 9mm, h: 9mm, text: "{{ 1 + 'x' }}"}
        """, record=0)
    shown = {p.field: p.display() for p in problems}
    assert len(problems) == 2
    assert shown["u"].endswith(f"(card {tiny}/heroes.yaml:1 heroes[0])"), shown["u"]
    assert shown["t"].endswith(f"(card {tiny}/heroes.yaml:3 heroes[0].life)"), shown["t"]


def test_a_box_off_the_card_is_said_once_at_its_line_and_one_wholly_outside_is_an_error(tiny):
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: bleed, type: rect, x: -3mm, y: -3mm, w: 69mm, h: 94mm, fill: "#ffffff"}
          - {id: inside, type: text, x: 3mm, y: 3mm, w: 57mm, h: 10mm, text: "{{ card.name }}"}
          - {id: low, type: text, x: 3mm, y: 80mm, w: 57mm, h: 15mm, text: "{{ card.name }}"}
          - {id: lost, type: rect, x: 3mm, y: 125mm, w: 10mm, h: 10mm, fill: "#000000"}
        """)
    faces = len(load_game(tiny).cards("heroes"))
    assert faces > 1  # said once, not once per card
    shown = sorted((p.field, p.severity, p.location.line, p.message) for p in problems)
    assert shown == [
        ("lost", "error", 5, "box lies wholly outside the card (63 x 88 mm) and its 3 mm bleed: nothing of it prints "
                             "(x and y are measured from the card's top-left corner)"),
        ("low", "warning", 4, "text box reaches 7.0 mm past the card's bottom edge (63 x 88 mm): text there is cut "
                              "off; keep text 3 mm inside the card"),
    ]


def test_a_colour_name_misspelt_gets_the_close_one_in_a_layout_and_in_a_record(tiny):
    _, problems = faces_of(tiny, "boxes:\n  - {id: t, type: rect, w: 1mm, h: 1mm, fill: purpel}\n")
    assert [p.message for p in problems] == [
        "'purpel' is not a colour ('#rrggbb', '#rgb' or a colour name; did you mean 'purple'?)"]
    (tiny / "heroes.yaml").write_text((tiny / "heroes.yaml").read_text().replace("life: 12", "life: 12\n  color: redd"))
    with pytest.raises(ContentError) as info:
        load_game(tiny)
    assert [p.message for p in info.value.problems] == [
        "'redd' is not a colour ('#rrggbb', '#rgb' or a colour name; did you mean 'red'?)"]


@pytest.mark.parametrize("background", ['"#fdf2eg"', "purpel", '"{{ card.name }}"'])
def test_a_background_that_is_not_a_colour_is_a_located_problem(tiny, background):
    ops, problems = faces_of(tiny, f"boxes: []\nbackground: {background}\n")
    assert len(problems) == 1 and "is not a colour" in problems[0].message
    assert problems[0].field == "background"
    assert problems[0].location.path.endswith("layouts/tiny/probe.yaml") and problems[0].location.line == 2
    assert ops == []


def test_a_shared_back_reading_the_card_says_there_is_none_and_how_to_draw_backs_per_card(tiny):
    back = tiny / "layouts" / "tiny" / "back.yaml"
    back.write_text(back.read_text() + '  - {id: who, type: text, w: 9mm, h: 9mm, text: "{{ card.name }}"}\n')
    game = load_game(tiny)
    problems = []
    CardBuilder(game).component_faces(game.component("heroes"), problems).backs[0]
    [problem] = problems
    assert problem.message == ("template '{{ card.name }}': card.name does not exist: a back shared by every card "
                               "is drawn once, for no card; to draw it per card, set back_per_card: true on the component")


def test_a_bad_colour_inherited_from_a_parent_is_located_at_the_parent_line_that_writes_it(tiny):
    """The mutation sweep's find: it was reported at the child's line that overrides the box, in the child."""
    (tiny / "layouts" / "tiny" / "base.yaml").write_text(textwrap.dedent("""\
        boxes:
          - {id: a, type: rect, w: 2mm, h: 2mm,
             stroke: "#12345g"}
        """))
    _, problems = faces_of(tiny, """\
        extends: tiny/base
        boxes:
          - {id: a, fill: "#ffffff"}
        """)
    assert [(p.location.path.rsplit("/", 1)[1], p.location.line, p.field) for p in problems] == [("base.yaml", 3, "a")]


def test_a_problem_of_an_inherited_box_names_the_parent_layout(tiny):
    """The mutation sweep's find: the parent's line was shown in the child's file (probe.yaml:3)."""
    (tiny / "layouts" / "tiny" / "base.yaml").write_text(textwrap.dedent("""\
        boxes:
          - {id: a, type: rect, w: 2mm, h: 2mm}
          - {id: pic, type: image, w: 2mm, h: 2mm, src: art/missing.png}
        """))
    _, problems = faces_of(tiny, "extends: tiny/base\nboxes: []\n")
    assert [(p.location.path.rsplit("/", 1)[1], p.location.line, p.field) for p in problems] == [("base.yaml", 3, "pic")]


def test_a_word_wider_than_its_box_at_the_smallest_size_is_a_located_error_not_a_cut(tiny):
    tag = """\
        boxes:
          - {id: tag, type: text, x: 1mm, y: 1mm, w: 12mm, h: 14mm, font: bold, size: 12pt, min_size: 10pt,
             text: {ja: 支援, en: Support}}
        """
    _, problems = faces_of(tiny, tag)
    assert problems == []  # 支援 fits: the Japanese edition is not concerned
    game = load_game(tiny, lang="en")
    problems = []
    CardBuilder(game, lang="en").component_faces(game.component("heroes"), problems).check_all()
    (problem,) = set(p.message for p in problems)
    assert re.fullmatch(r"'Support' does not fit the width of box 'tag' of .*layouts/tiny/probe.yaml at 10pt "
                        r"\(min_size\): it is cut mid-word", problem), problem
    assert all(p.severity == "error" for p in problems)
    # the fix the message points at: a smaller size for that language alone
    (tiny / "layouts/tiny/probe.yaml").write_text(textwrap.dedent(tag).replace(
        "min_size: 10pt", "min_size: {ja: 10pt, en: 7pt}"), encoding="utf-8")
    problems = []
    faces = CardBuilder(game, lang="en").component_faces(game.component("heroes"), problems)
    (op,) = [op for op in faces.fronts[0] if op.id == "tag"]
    assert problems == []
    assert op.payload.text == "Support" and op.payload.size < 10


@pytest.mark.parametrize("sizes, said", [
    ("size: 8pt", " (the box does not shrink its text: give it a min_size below its size)"),
    ("size: 9pt, min_size: 8pt", "")])
def test_an_overflow_says_when_the_box_has_no_min_size_to_shrink_to(tiny, sizes, said):
    _, problems = faces_of(tiny, f"""\
        boxes:
          - {{id: body, type: text, x: 1mm, y: 1mm, w: 20mm, h: 5mm, {sizes},
             text: "{'狐火' * 30}"}}
        """)
    assert problems and {re.sub(r"by \d+ lines", "by N lines", p.message) for p in problems} == {
        f"overflows box 'body' of {tiny}/layouts/tiny/probe.yaml by N lines at 8pt{said}"}


def test_a_short_hex_colour_is_written_out_long_so_that_it_prints_its_colour(tiny):
    """ReportLab reads '#fff' as the number 0xfff, the blue #000fff: the layout's white printed blue."""
    from reportlab.lib import colors

    ops, problems = faces_of(tiny, """\
        background: "#fff"
        boxes:
          - {id: plate, type: rect, w: 2mm, h: 2mm, fill: "#F80", stroke: "#123456"}
        """)
    assert problems == []
    background, plate = ops[0], next(op for op in ops if op.id == "plate")
    assert (background.style["fill"], plate.style["fill"], plate.style["stroke"]) == ("#ffffff", "#FF8800", "#123456")
    assert colors.toColor(background.style["fill"]).rgb() == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("direction, w, h, text, what", [
    ("horizontal", "3mm", "30mm", "W", "glyph 'W' is 1[01].\\dpt wide"),
    ("horizontal", "3mm", "30mm", ":star:", "icon ':star:' is 24.0pt wide"),  # icon_scale 2 at 12pt
    ("vertical", "30mm", "3mm", ":star:", "icon ':star:' is 24.0pt long"),
])
def test_a_glyph_or_icon_wider_than_its_whole_box_is_a_located_error_naming_it(tiny, direction, w, h, text, what):
    """It sits alone on an overfull line past the box's edge: fits was False and the build said nothing."""
    _, problems = faces_of(tiny, f"""\
        boxes:
          - {{id: cost, type: text, x: 1mm, y: 1mm, w: {w}, h: {h}, size: 12pt, icon_scale: 2,
             direction: {direction}, text: "{text}"}}
        """)
    (message,) = set(p.message for p in problems)  # the same on each card
    assert re.fullmatch(f"{what} at 12pt, more than box 'cost' of .*layouts/tiny/probe.yaml \\(8.5pt\\): "
                        "it prints past the box's edge", message), message
    assert all(p.severity == "error" for p in problems)


def test_another_edition_warns_once_per_layout_file_about_text_boxes_in_the_games_language(tiny):
    """An English edition printed a layout's own Japanese words (**ステージ**) in silence."""
    layout = """\
        boxes:
          - {id: sign, type: rect, w: 2mm, h: 2mm}
          - {id: label, type: text, w: 20mm, h: 5mm,
             text: "**ステージ**"}
          - {id: both, type: text, w: 20mm, h: 5mm, text: {ja: 開始, en: Start}}
          - {id: ja-only, type: text, w: 20mm, h: 5mm, text: {ja: 支援}}
          - {id: sums, type: text, w: 20mm, h: 5mm, text: "+1 3/4 {{ card.name }}"}
          - id: row
            type: group
            boxes:
              - {id: note, type: text, w: 20mm, h: 5mm, text: "{{ card.name }}を置く"}
        """
    _, problems = faces_of(tiny, layout)
    assert problems == []  # the Japanese edition prints them as written
    game = load_game(tiny, lang="en")
    problems = []
    CardBuilder(game, lang="en").component_faces(game.component("heroes"), problems)
    assert [(p.location.path.rsplit("/", 1)[1], p.location.line, p.severity, p.field, p.message)
            for p in problems] == [("probe.yaml", 4, "warning", "boxes.label.text",
                                    "no 'en' text (--lang en); it prints in 'ja' (and 2 more text(s) in this file)")]


def test_box_lengths_read_from_the_memo_of_literals_are_those_parsed_and_templates_stay_per_card(tiny):
    # Literal lengths are parsed once and then read from a memo on every later card; a template's
    # length depends on the card and must be worked out for each one, never served from the memo.
    from generator.layout import instantiate
    from generator.units import parse_length

    layout = """\
        boxes:
          - {id: lit, type: rect, x: " 2.5mm", y: 1cm, w: 7pt, h: 0.5in, repeat: 2, dx: 3mm}
          - {id: tpl, type: rect, x: "{{ card.life }}mm", y: 0, w: 1mm, h: 1mm}
        """
    fronts = [faces_of(tiny, layout, record=k) for k in range(3)]
    for ops, problems in fronts:
        assert problems == []
        lit = [op for op in ops if op.id == "lit"]
        assert [(op.x, op.y, op.w, op.h) for op in lit] == [
            (parse_length("2.5mm") + k * parse_length("3mm"), parse_length("1cm"), 7.0, 36.0) for k in range(2)]
        assert " 2.5mm" in instantiate._POINTS and "{{ card.life }}mm" not in instantiate._POINTS
    lives = [next(op.x for op in ops if op.id == "tpl") for ops, _ in fronts]
    assert lives == [parse_length(f"{life}mm") for life in (12, 8, 9)]


def test_colours_read_from_the_memo_of_spellings_are_those_checked_and_templates_stay_per_card(tiny, monkeypatch):
    # A colour's spelling is checked once and then read from a memo; a template's colour depends on the
    # card (never served by its source), a bad colour is said on every card, and the memo is bounded.
    from generator.layout import instantiate

    layout = """\
        boxes:
          - {id: lit, type: rect, w: 1mm, h: 1mm, fill: "#abc", stroke: none}
          - {id: tpl, type: rect, w: 1mm, h: 1mm, fill: "#{{ card.life }}{{ card.life }}{{ card.life }}"}
          - {id: bad, type: rect, w: 1mm, h: 1mm, fill: "#{{ card.life }}"}
        """
    for _ in range(2):  # the second pass reads what the first one filled
        for record, colour in enumerate(("#121212", "#888888", "#999999")):
            ops, problems = faces_of(tiny, layout, record)
            styles = {op.id: op.style for op in ops}
            assert (styles["lit"]["fill"], styles["lit"]["stroke"], styles["tpl"]["fill"]) == ("#aabbcc", None, colour)
            assert len(problems) == 1 and f"'#{(12, 8, 9)[record]}' is not a colour" in problems[0].message
    assert instantiate._COLOURS["#abc"] == "#aabbcc" and instantiate._COLOURS["#888"] == "#888888"
    assert not [key for key in instantiate._COLOURS if key and "{{" in key]
    monkeypatch.setattr(instantiate, "_COLOURS", {None: None})
    monkeypatch.setattr(instantiate, "MAX_COLOURS", 2)
    faces_of(tiny, layout, 0)
    assert len(instantiate._COLOURS) == 2


@pytest.mark.parametrize("value, message", [("[1, 2]", "w: expected a length"),
                                            ("true", "w: expected a length"), ("3", "w: a length needs a unit")])
def test_a_length_that_is_a_list_a_mapping_or_a_bare_number_is_a_located_problem_on_every_card(tiny, value, message):
    for record in (0, 1):  # the second card reads lengths from the memo the first one filled
        _ops, problems = faces_of(tiny, f"boxes:\n  - {{id: t, type: rect, w: {value}, h: 1mm}}\n", record)
        assert len(problems) == 1 and message in problems[0].message, problems
        assert problems[0].location.line == 2


def test_a_box_that_writes_no_settings_draws_as_one_that_writes_their_defaults(tiny):
    # Unwritten settings take their defaults without being looked up: the same op as writing them out.
    ops, problems = faces_of(tiny, """\
        boxes:
          - {id: bare, type: text, x: 1mm, y: 1mm, w: 40mm, h: 20mm, text: "{{ card.name }}"}
          - {id: full, type: text, x: 1mm, y: 1mm, w: 40mm, h: 20mm, text: "{{ card.name }}", leading: 1.3,
             align: left, valign: top, font: regular, icon_scale: 1.0, direction: horizontal, rotate: 0, opacity: 1}
        """)
    assert problems == []
    bare, full = (next(op for op in ops if op.id == name) for name in ("bare", "full"))
    assert (bare.payload, bare.rotate, bare.opacity, bare.style) == (full.payload, full.rotate, full.opacity, full.style)
    assert (bare.rotate, bare.opacity, bare.payload.size) == (0.0, 1.0, 9.0)
