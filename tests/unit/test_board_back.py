"""A board prints one page a copy, front only: a ``back:`` on a board printed nothing and said
nothing (the PNG export alone wrote the back). Validate and build now warn at its line."""
import pypdfium2 as pdfium

from generator import build
from generator.validate import check_content

BOARD = """  - id: map
    kind: board
    file: coins.yaml
    schema: coin
    size: [180mm, 130mm]
    layout: tiny/coin
    back: tiny/back
    expected: 6
"""


def _with_board(tiny):
    game_yaml = tiny / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    text = text.replace("data:\n", BOARD + "data:\n")
    game_yaml.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    return len(lines) - lines[::-1].index("    back: tiny/back")     # the board's 'back:' (the last one)


def test_a_board_with_a_back_is_warned_at_the_back_line_and_prints_fronts_only(tiny, tmp_path):
    back_line = _with_board(tiny)
    _game, _cards, problems = check_content(tiny, check_faces=False)
    warnings = [p for p in problems if p.field == "components[2].back"]
    assert len(warnings) == 1, [p.display() for p in problems]
    (warning,) = warnings
    assert warning.severity == "warning" and warning.location.line == back_line
    assert warning.message.startswith("a board prints single-sided")
    result = build.build_game(tiny, tmp_path, validate=False)
    assert result.ok
    labels = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(tmp_path / "print-a4.pdf")]
    board_pages = [text for text in labels if "map" in text]
    assert len(board_pages) == 6, "one page a copy (6 coins' worth), and none for the back the warning speaks of"


def test_a_board_without_a_back_is_not_warned(tiny):
    _with_board(tiny)
    game_yaml = tiny / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(BOARD, BOARD.replace("    back: tiny/back\n", "")), encoding="utf-8")
    _game, _cards, problems = check_content(tiny, check_faces=False)
    assert not [p for p in problems if p.field.startswith("components[2]")]
