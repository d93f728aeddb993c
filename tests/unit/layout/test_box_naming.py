"""Every per-face check (contrast, colour code, icon over text) names and locates a box the way the
Instantiator does: a box without an id as its place in the layout (``boxes[0][1]``), at its own line,
even when a group's box has the id of another box of the layout."""
import textwrap

from generator.validate import check_content


def _problems(tiny, layout_text):
    (tiny / "layouts" / "tiny" / "probe.yaml").write_text(textwrap.dedent(layout_text), encoding="utf-8")
    game_yaml = tiny / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("layout: tiny/hero", "layout: tiny/probe"))
    _, _, problems = check_content(tiny)
    return [p for p in problems if p.location.path.endswith("probe.yaml")]


def test_boxes_without_ids_are_named_and_located_alike_by_every_check(tiny):
    problems = _problems(tiny, """\
        background: "#ffffff"
        boxes:
          - type: group
            boxes:
              - {type: text, x: 5mm, y: 8mm, w: 40mm, h: 5mm, text: GUARD, size: 10pt, color: "#fefefe"}
              - {type: icon, name: star, x: 12mm, y: 7mm, w: 5mm, h: 5mm}
          - type: rect
            colour_code: true
            x: 0
            y: 40mm
            w: 63mm
            h: 5mm
            fill: "{{ {'knight': '#c0392b', 'mage': '#229954'}.get(card.id, '#1b2a80') }}"
        """)
    found = sorted({(p.location.line, p.field, p.message.split(" ")[0]) for p in problems})  # once or per card
    assert found == [(5, "box 'boxes[0][0]'", "text"),     # contrast: near-white text on white
                     (6, "boxes[0][1]", "icon"),           # the icon painted over that text
                     (7, "box 'boxes[1]'", "colour")], [p.display() for p in problems]


def test_a_warning_is_located_at_the_box_that_draws_it_when_a_group_reuses_an_id(tiny):
    problems = _problems(tiny, """\
        background: "#ffffff"
        boxes:
          - {id: label, type: text, x: 2mm, y: 2mm, w: 20mm, h: 6mm, size: 7pt, text: "x", color: "#fefefe"}
          - type: group
            boxes:
              - {id: label, type: text, x: 2mm, y: 40mm, w: 20mm, h: 6mm, size: 7pt, text: "x", color: "#000000"}
        """)
    # the pale one, on line 3 (not the group's readable box of the same id, which a look-up by id found)
    assert [(p.location.line, p.field) for p in problems] == [(3, "box 'label'")]


def test_the_box_an_op_draws_never_enters_the_print_lock():
    """Where a box is written (a comment line added above it moves it) is not what the card prints."""
    import dataclasses

    from generator.errors import Location
    from generator.export.digest import FileHashes, ops_digest
    from generator.layout.instantiate import LayoutBox, Op

    plain = Op("rect", 0.0, 0.0, 10.0, 10.0, {"fill": "#ff0000"}, id="band")
    boxed = dataclasses.replace(plain, box=LayoutBox(Location("layouts/a.yaml", 3), colour_code=True))
    moved = dataclasses.replace(plain, box=LayoutBox(Location("layouts/a.yaml", 9)))
    assert ops_digest([plain], FileHashes()) == ops_digest([boxed], FileHashes()) == ops_digest([moved], FileHashes())
