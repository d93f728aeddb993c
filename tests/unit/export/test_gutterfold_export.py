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
