"""A round token's bleed reach, read from its faces as instantiated (``layout.reach``): a disc placed by an
expression or inside a group counts as it is painted, so the imposer gives it the gutter it needs."""
import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.layout.reach import note_reach
from generator.units import to_mm

FACE = """
  - id: value
    type: text
    x: 2mm
    y: 2mm
    w: 16mm
    h: 16mm
    text: "{{ card.value }}"
    size: 16pt
    align: center
    valign: middle
"""

# every disc is 26 mm on the 20 mm coins: 3 mm past the trim on every side, where it is painted whole
BY_EXPRESSION = """
  - id: disc
    type: ellipse
    x: "{{ -0.6 * card.value }}mm"
    y: "{{ -0.6 * card.value }}mm"
    w: "{{ 20 + 1.2 * card.value }}mm"
    h: "{{ 20 + 1.2 * card.value }}mm"
    fill: "#c0392b"
"""
IN_A_GROUP = """
  - id: rim
    type: group
    x: 0
    y: 0
    w: 20mm
    h: 20mm
    boxes:
      - {id: disc, type: ellipse, x: -3mm, y: -3mm, w: 26mm, h: 26mm, fill: "#c0392b"}
"""
CLIPPED = IN_A_GROUP.replace("    boxes:", "    clip: true\n    boxes:")
TURNED = """
  - id: diamond
    type: rect
    x: 2mm
    y: 2mm
    w: 16mm
    h: 16mm
    rotate: 45
    fill: "#c0392b"
"""


def _coins(tiny, boxes: str, count: int = 4):
    """The tiny game with its coin layout painting ``boxes`` under its value, ``count`` coins of 1."""
    layout = tiny / "layouts/tiny/coin.yaml"
    layout.write_text(f'background: "#e8c547"\nboxes:{boxes}{FACE}', encoding="utf-8")
    coins = tiny / "coins.yaml"
    coins.write_text(coins.read_text().replace("count: 4", f"count: {count}"))
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("expected: 6", f"expected: {count + 2}"))
    return tiny


def _coins_reach(root) -> float:
    """The reach kept on the coins once their faces are measured, as the print file's planning does."""
    cards = CardBuilder(load_game(root)).build(check=False)
    coins = next(faces for faces in cards.faces if faces.component.id == "coins")
    note_reach(coins)
    return coins.component.bleed_reach


@pytest.mark.parametrize("boxes, reach_mm", [
    (BY_EXPRESSION, 3.0),          # the 5 coin's disc; the 1 coin's reaches 0.6 mm
    (IN_A_GROUP, 3.0),             # the group's own box is the trim: its disc was not seen
    (CLIPPED, 0.0),                # painted no further than the group's clip
    (TURNED, 16 * 2 ** 0.5 / 2 - 10),  # a 16 mm square on its corner: 1.3 mm past each edge
])
def test_a_round_tokens_reach_is_what_its_faces_paint(tiny, boxes, reach_mm):
    assert to_mm(_coins_reach(_coins(tiny, boxes))) == pytest.approx(reach_mm, abs=1e-6)


def test_a_measured_tokens_mistake_is_said_with_the_decks_not_alone(tiny, tmp_path):
    """The faces measured before painting keep their problems for the painting: said as they were, a
    token's unknown icon stopped the build before the deck's own mistakes were found."""
    from generator.build import build_game

    _coins(tiny, BY_EXPRESSION + "  - {id: mark, type: icon, name: nope, x: 2mm, y: 2mm, w: 4mm, h: 4mm}\n")
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace(":guard:", ":gaurd:", 1))
    result = build_game(tiny, tmp_path / "out", validate=False)
    said = [p.display() for p in result.problems]
    assert any("unknown icon 'nope'" in line for line in said), said         # the token's
    assert any("unknown icon ':gaurd:'" in line for line in said), said      # and the deck's


def test_the_manifest_counts_the_pages_the_print_file_has_for_a_disc_in_a_group(tiny, tmp_path):
    """A disc the manifest's own reading missed gave it the page count of coins imposed without
    the gutter (1 page of coins where the print file has 2)."""
    import pypdfium2

    from generator.build import build_game
    from generator.manifest import manifest_of

    root = _coins(tiny, IN_A_GROUP, count=100)
    result = build_game(root, tmp_path / "out", validate=False)
    assert result.ok, [p.display() for p in result.problems]
    printed = len(pypdfium2.PdfDocument(str(tmp_path / "out" / "print-a4.pdf")))
    manifest = manifest_of(root)
    assert manifest["print_pages"] == printed
    coins = next(c for c in manifest["components"] if c["id"] == "coins")
    heroes = next(c for c in manifest["components"] if c["id"] == "heroes")
    assert coins["pages"] == printed - heroes["pages"] == 2


def test_a_token_whose_faces_paint_within_the_trim_reaches_nothing(tiny):
    """The rounding of an expression (``{{ W | round(2) }}pt`` is 0.005 pt wider than a 14 mm trim) is
    no disc: the shipped markers' cut rings would otherwise move every token on its sheet."""
    ring = """
  - id: cut_ring
    type: ellipse
    x: 0
    y: 0
    w: "{{ (W + 0.005) | round(3) }}pt"
    h: "{{ H | round(2) }}pt"
    stroke: "#000000"
"""
    assert _coins_reach(_coins(tiny, ring)) == 0.0


def test_the_fold_sheets_give_a_disc_in_a_group_its_gutter_too(tiny, tmp_path):
    """The coins (no back) are printed on the fold's paper as in the home print, measured as there."""
    import pypdfium2

    from generator.export.run import run_export

    result = run_export(_coins(tiny, IN_A_GROUP, count=100), tmp_path, gutterfold="vertical", components=["coins"])
    assert result.ok, result.problems
    assert len(pypdfium2.PdfDocument(str(tmp_path / "gutterfold-vertical-a4.pdf"))) == 2


def test_the_manifest_counts_pages_of_a_game_whose_font_a_build_would_refuse(tiny):
    """The round pieces are measured with the build's card builder, which reads the fonts: a font it
    cannot read is the build's to say, the manifest still counts (as it did before it measured faces)."""
    from generator.manifest import manifest_of

    (tiny / "bad.ttf").write_bytes(b"not a font")
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace('version: "1"', 'version: "1"\nfonts: {regular: bad.ttf}'))
    assert manifest_of(tiny)["print_pages"] == 3
