"""Legibility warnings: text on a ground too close in luminance, and colour codes a red-green colour
blind player cannot tell apart (the tiny game with a probe layout); the colour maths against its sources."""
import textwrap

import pytest

from generator.layout.legibility import (ciede2000, contrast_ratio, delta_e_2000, hex_of, needed_contrast, rgb_of,
                                         simulate)
from generator.validate import check_content


def _problems(tiny, layout_text):
    (tiny / "layouts" / "tiny" / "probe.yaml").write_text(textwrap.dedent(layout_text), encoding="utf-8")
    game_yaml = tiny / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("layout: tiny/hero", "layout: tiny/probe"))
    _, _, problems = check_content(tiny)
    return [p for p in problems if p.field.startswith("box '")]


def test_contrast_and_deficiency_maths_match_their_sources():
    assert contrast_ratio(rgb_of("#ffffff"), rgb_of("#000000")) == pytest.approx(21.0)
    assert contrast_ratio(rgb_of("#777777"), rgb_of("#ffffff")) == pytest.approx(4.48, abs=0.01)  # WCAG's classic
    assert needed_contrast(7, bold=False) == 4.5
    assert needed_contrast(14, bold=True) == needed_contrast(18, bold=False) == 3.0
    assert needed_contrast(14, bold=False) == 4.5
    # Sharma, Wu & Dalal 2005, test pairs 1 and 17
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    # Machado 2009 keeps greys grey and turns a pure red and a pure green to olive tones
    assert hex_of(simulate(rgb_of("#808080"), "deuteranopia")) == "#808080"
    red, green = (simulate(rgb_of(c), "deuteranopia") for c in ("#c0392b", "#229954"))
    assert delta_e_2000(rgb_of("#c0392b"), rgb_of("#229954")) > 50 > delta_e_2000(red, green)


def test_yellow_text_on_white_is_a_warning_at_the_box_once_per_colour_pair(tiny):
    problems = _problems(tiny, """\
        background: "#ffffff"
        boxes:
          - id: plate
            type: rect
            x: 0
            y: 20mm
            w: 63mm
            h: 20mm
            fill: "{{ '#222222' if card.id == 'knight' else '#fafafa' }}"
          - id: cost
            type: text
            x: 2mm
            y: 2mm
            w: 20mm
            h: 6mm
            size: 7pt
            text: "{{ card.life }}"
            color: "#f5d76e"
          - id: title
            type: text
            x: 2mm
            y: 22mm
            w: 40mm
            h: 10mm
            size: 18pt
            text: "{{ card.name }}"
            color: "#dddddd"
        """)
    shown = sorted((p.location.line, p.field, p.message.split(":")[0] + p.message.split(")")[0][-20:],
                    p.card_field) for p in problems)
    assert [(line, field, card) for line, field, _, card in shown] == [
        (10, "box 'cost'", "heroes[0] 'knight'"),     # one warning for four cards
        (19, "box 'title'", "heroes[1] 'mage'")]     # light grey on the light plate, not on the dark one
    cost = next(p for p in problems if p.field == "box 'cost'")
    assert cost.severity == "warning"
    assert "text #f5d76e on #ffffff has contrast 1.4:1 (needs 4.5:1 at 7pt)" in cost.message
    title = next(p for p in problems if p.field == "box 'title'")
    assert "on #fafafa has contrast 1.3:1 (needs 3:1 at 18pt)" in title.message


def test_text_over_an_image_is_not_judged(tiny):
    from PIL import Image

    (tiny / "art").mkdir()
    Image.new("RGB", (300, 300), "white").save(tiny / "art" / "pic.png")
    problems = _problems(tiny, """\
        background: "#ffffff"
        boxes:
          - {id: pic, type: image, x: 0, y: 0, w: 25mm, h: 25mm, src: art/pic.png}
          - {id: caption, type: text, x: 2mm, y: 2mm, w: 20mm, h: 6mm, size: 7pt, text: "x", color: "#fefefe"}
          - {id: below, type: text, x: 2mm, y: 40mm, w: 20mm, h: 6mm, size: 7pt, text: "x", color: "#fefefe"}
        """)
    assert [p.field for p in problems] == ["box 'below'"]


def test_a_red_green_colour_code_is_a_warning_unless_the_colours_differ_in_lightness(tiny):
    problems = _problems(tiny, """\
        background: "#ffffff"
        boxes:
          - id: band
            type: rect
            colour_code: true
            x: 0
            y: 0
            w: 63mm
            h: 5mm
            fill: "{{ {'knight': '#c0392b', 'mage': '#229954', 'thief': '#c0392b'}.get(card.id, '#1b2a80') }}"
          - id: plain
            type: rect
            x: 0
            y: 10mm
            w: 63mm
            h: 5mm
            fill: "{{ {'knight': '#c0392b', 'mage': '#229954'}.get(card.id, '#1b2a80') }}"
        """)
    assert len(problems) == 1, [p.display() for p in problems]  # the pair once; dark blue differs; 'plain' is no code
    problem = problems[0]
    assert (problem.location.line, problem.field, problem.severity) == (3, "box 'band'", "warning")
    assert problem.message.startswith("colour code #c0392b (heroes[0] 'knight') and #229954 (heroes[1] 'mage') "
                                      "look alike with deuteranopia: they become #827525 and #8b8259 (CIEDE2000 9.6")


def test_colour_code_is_a_known_box_key_and_an_unknown_one_still_fails(tiny):
    problems = _problems(tiny, """\
        boxes:
          - {id: band, type: rect, colour_code: true, x: 0, y: 0, w: 1mm, h: 1mm, fill: "#000"}
        """)
    assert problems == []
    (tiny / "layouts" / "tiny" / "probe.yaml").write_text(
        "boxes:\n  - {id: band, type: rect, color_code: true, x: 0, y: 0, w: 1mm, h: 1mm}\n", encoding="utf-8")
    _, _, problems = check_content(tiny)
    assert [p.display() for p in problems if "color_code" in p.display()] == [
        f"{tiny}/layouts/tiny/probe.yaml:2: boxes[0].color_code: unknown key for a rect box (did you mean "
        f"'colour_code'?)"]


def test_vertical_text_on_a_round_tab_and_a_watermark_repeating_the_title_are_not_warned(tiny):
    """Two false positives the shipped games showed: a vertical lane name was judged by its whole box,
    whose corners lie outside the tab's rounded corners (white on the board, 1.2:1); a round's big faint
    number under the title that says it is decoration."""
    problems = _problems(tiny, """\
        background: "#fffaf0"
        boxes:
          - {id: tab, type: roundrect, x: 2mm, y: 2mm, w: 11mm, h: 60mm, r: 2mm, fill: "#1b1b1f"}
          - {id: lane, type: text, x: 2mm, y: 2mm, w: 11mm, h: 60mm, text: 上段, font: bold, size: 15pt,
             direction: vertical, align: center, valign: middle, color: "#ffffff"}
          - {id: title, type: text, x: 20mm, y: 2mm, w: 40mm, h: 8mm, size: 9pt, text: "Round {{ card.life }}"}
          - {id: watermark, type: text, x: 20mm, y: 12mm, w: 40mm, h: 30mm, size: 72pt, text: "{{ card.life }}",
             color: "#efe9dd"}
          - {id: small, type: text, x: 20mm, y: 50mm, w: 40mm, h: 8mm, size: 9pt, text: "{{ card.life }}",
             color: "#efe9dd"}
        """)
    assert [p.field for p in problems] == ["box 'small'"]  # faint and small: still said


def test_validate_lists_text_over_an_image_as_unknown_for_v(tiny):
    from PIL import Image

    from generator.validate import validate_game

    (tiny / "art").mkdir()
    Image.new("RGB", (300, 300), "white").save(tiny / "art" / "pic.png")
    _problems(tiny, """\
        boxes:
          - {id: pic, type: image, x: 0, y: 0, w: 25mm, h: 25mm, src: art/pic.png}
          - {id: caption, type: text, x: 2mm, y: 2mm, w: 20mm, h: 6mm, size: 7pt, text: "x", color: "#fefefe"}
        """)
    result = validate_game(tiny, balance=False)
    assert [line.split(": ", 1)[1] for line in result.unjudged] == [
        "box 'caption': contrast unknown (over an image, an icon or a path): not checked"]
    assert result.unjudged[0].split(": ")[0].endswith("layouts/tiny/probe.yaml:3")
