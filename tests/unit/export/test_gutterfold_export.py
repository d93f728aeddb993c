"""``pnp export --gutterfold`` of a game whose components do not all have a back."""
import pypdfium2 as pdfium

from generator.export.run import run_export
from generator.impose.wording import gutterfold_instruction


def _labels(pdf) -> list[str]:
    document = pdfium.PdfDocument(str(pdf))
    return [document[i].get_textpage().get_text_range().strip().splitlines()[-1] for i in range(len(document))]


def test_components_without_a_back_print_fronts_only_packed_as_in_the_home_print(tiny, tmp_path):
    """The tiny game's heroes have a back and fold; its coins, and a second token component, have none:
    no empty back half with crop marks, but one sheet of fronts holding both, as the home print packs
    them, on the fold's landscape paper."""
    game_yaml = tiny / "game.yaml"
    coins = game_yaml.read_text().split("  - id: coins\n")[1].split("data:")[0]
    game_yaml.write_text(game_yaml.read_text().replace("data:", "  - id: gems\n" + coins + "data:"))
    result = run_export(tiny, tmp_path, gutterfold="vertical")
    assert result.ok, result.problems
    pdf = tmp_path / "gutterfold-vertical-a4.pdf"
    fold = gutterfold_instruction("vertical", "ja")
    assert _labels(pdf) == [f"ちいさなゲーム · ヒーロー · 1/1 · {fold}",
                            "ちいさなゲーム · coins 1/1 · gems 1/1 · 表 (front)"]
    document = pdfium.PdfDocument(str(pdf))
    sizes = {tuple(round(v) for v in document[i].get_size()) for i in range(len(document))}
    assert sizes == {(842, 595)}  # A4 landscape, as the fold sheets


def test_a_component_without_a_back_alone_gets_its_sheet_of_fronts(tiny, tmp_path):
    result = run_export(tiny, tmp_path, gutterfold="horizontal", components=["coins"])
    assert result.ok, result.problems
    assert _labels(tmp_path / "gutterfold-horizontal-a4.pdf") == ["ちいさなゲーム · coins · 1/1 · 表 (front)"]


def test_a_board_left_off_the_fold_sheets_is_said(tiny, tmp_path):
    """Boards are not folded: the fold sheets had no page for one and the export said nothing (a designer
    printing single-sided fold sheets lost the board); it now says so, as the TTS export does."""
    game_yaml = tiny / "game.yaml"
    board = ("  - id: map\n    kind: board\n    file: coins.yaml\n    schema: coin\n    size: [180mm, 130mm]\n"
             "    layout: tiny/coin\n    expected: 6\n")
    game_yaml.write_text(game_yaml.read_text().replace("data:", board + "data:"))
    result = run_export(tiny, tmp_path, gutterfold="vertical")
    assert result.ok, result.problems
    assert result.notes == ["map: a board is not on fold sheets (boards are not folded: print its pages from the"
                            " print file, pnp build)"]
    assert not any("map" in label for label in _labels(tmp_path / "gutterfold-vertical-a4.pdf"))
    only_heroes = run_export(tiny, tmp_path / "heroes", gutterfold="vertical", components=["heroes"])
    assert only_heroes.notes == []   # a board not asked for is not spoken of
