"""Tabletop Simulator sheets: grid arithmetic, sheet sizes, the saved object's decks."""
import json

import pytest
from PIL import Image

from generator.export.tts import (MAX_CARDS, MAX_SHEET_PX, cell_px, export_tts, plan_decks, tts_grid)
from generator.impose import named_size
from generator.validate import check_content


@pytest.mark.parametrize("cells", range(1, 71))
def test_grid_holds_the_cells_within_10_by_7(cells):
    cols, rows = tts_grid(cells)
    assert 2 <= cols <= 10 and 2 <= rows <= 7 and cols * rows >= cells
    # no smaller grid would do
    assert not any(c * r >= cells and c * r < cols * rows for c in range(2, 11) for r in range(2, 8))


@pytest.mark.parametrize("size", ["poker", "square", "tarot", "mini-us"])
def test_the_grid_gives_the_largest_cells_any_grid_allows(size):
    """The fewest-cells-then-fewest-rows grid put 19 crafts on 10 x 2 at 409 px per card (each
    sheet stays within 4096 px) where 5 x 4 keeps 733 px; Fatal Fight's 28 stages went 10 x 3."""
    card = named_size(size)
    for cells in range(1, 71):
        cols, rows = tts_grid(cells, card, 300)
        assert cols * rows >= cells
        w, h = cell_px(card, cols, rows, 300)
        for c in range(2, 11):
            for r in range(2, 8):
                if c * r >= cells:
                    a, b = cell_px(card, c, r, 300)
                    assert a * b <= w * h, (cells, (cols, rows), (c, r))
    if size == "poker":
        assert tts_grid(20, card, 300) == (5, 4) and cell_px(card, 5, 4, 300) == (733, 1024)
        assert tts_grid(20, card, 24) == tts_grid(20), "at a low dpi cap every grid ties: fewest cells"


def test_grid_refuses_more_than_70_cells():
    with pytest.raises(ValueError):
        tts_grid(71)


@pytest.mark.parametrize("size", ["poker", "tarot", "square", "mini-us"])
@pytest.mark.parametrize("dpi", [300, 1200])
def test_cells_keep_the_sheet_within_4096(size, dpi):
    for cols, rows in [(10, 7), (2, 2), (5, 3)]:
        w, h = cell_px(named_size(size), cols, rows, dpi)
        assert cols * w <= MAX_SHEET_PX and rows * h <= MAX_SHEET_PX
        card_w, card_h = named_size(size)
        assert abs(w / h - card_w / card_h) < 0.01
    assert cell_px(named_size("poker"), 10, 7, 300) == (409, 572)      # PRINT.md: ~409 x 585 at 10 x 7


def test_tiny_export_matches_the_data(tiny, tmp_path):
    game, cards, problems = check_content(tiny)
    assert not problems
    result = export_tts(tiny, tmp_path, max_dpi=40, cards_in=(game, cards))
    assert result.ok
    saved = json.loads((tmp_path / "tts" / "tiny.json").read_text())
    decks = {o["Nickname"]: o for o in saved["ObjectStates"]}
    heroes = decks["ヒーロー"]
    assert heroes["Name"] == "DeckCustom"
    assert len(heroes["ContainedObjects"]) == 4                       # knight x2, mage, thief
    assert heroes["DeckIDs"] == [c["CardID"] for c in heroes["ContainedObjects"]] == [100, 100, 101, 102]
    entry = heroes["CustomDeck"]["1"]
    assert (entry["NumWidth"], entry["NumHeight"], entry["UniqueBack"], entry["BackIsHidden"]) == (2, 2, False, True)
    assert entry["FaceURL"] == "heroes-1.png" and entry["BackURL"] == "heroes-back.png"
    sheet = Image.open(tmp_path / "tts" / entry["FaceURL"])
    back = Image.open(tmp_path / "tts" / entry["BackURL"])
    assert sheet.mode == "RGB" and sheet.size == (2 * back.size[0], 2 * back.size[1])
    # the last cell is the hidden image: the back
    cw, ch = back.size
    hidden = sheet.crop((cw, ch, 2 * cw, 2 * ch))
    assert hidden.tobytes() == back.tobytes()
    coins = decks["coins"]
    assert coins["CustomDeck"]["2"]["Type"] == 4, "round tokens are circles"
    assert sum(1 for c in coins["ContainedObjects"]) == 6


def test_a_base_url_without_a_final_slash_still_names_the_folder(tiny, tmp_path):
    """--tts-base-url https://example.org/pnp gave https://example.org/pnpheroes-1.png."""
    game, cards, problems = check_content(tiny)
    assert not problems
    export_tts(tiny, tmp_path, max_dpi=20, base_url="https://example.org/pnp", cards_in=(game, cards))
    saved = json.loads((tmp_path / "tts" / "tiny.json").read_text())
    entry = saved["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.org/pnp/heroes-1.png"
    assert entry["BackURL"] == "https://example.org/pnp/heroes-back.png"


def test_an_export_without_a_base_url_says_how_tts_finds_the_images(tiny, tmp_path):
    game, cards, problems = check_content(tiny)
    assert not problems
    without = export_tts(tiny, tmp_path, max_dpi=20, cards_in=(game, cards))
    assert without.notes == [
        f"tiny.json names its images by file name, which Tabletop Simulator cannot load: upload {tmp_path / 'tts'}/*.png"
        " and export again with --tts-base-url URL of their folder (README, \"Tabletop Simulator\")"]
    assert export_tts(tiny, tmp_path, max_dpi=20, base_url="https://example.org/pnp/", cards_in=(game, cards)).notes == []


def test_big_decks_split_into_sheets_of_69(tiny):
    records = "\n".join(f"- {{id: h{i:03d}, name: H{i}, life: 1}}" for i in range(150))
    (tiny / "heroes.yaml").write_text(records + "\n")
    text = (tiny / "game.yaml").read_text().replace("expected: 4", "expected: 150")
    (tiny / "game.yaml").write_text(text)
    game, cards, problems = check_content(tiny, check_faces=False)
    decks = plan_decks(cards, 300)
    sheets = decks[0].sheets
    assert [len(s.records) for s in sheets] == [MAX_CARDS, MAX_CARDS, 12]
    assert [(s.cols, s.rows) for s in sheets] == [(10, 7), (10, 7), (5, 3)]   # 5 x 3: full 744 px cells
    assert [s.deck_id for s in sheets] == [1, 2, 3] and decks[1].sheets[0].deck_id == 4
    assert all(s.size[0] <= MAX_SHEET_PX and s.size[1] <= MAX_SHEET_PX for s in sheets)


def test_a_component_without_a_back_is_single_sided_as_printed_blank_back_and_face_up(tiny, tmp_path):
    """The home print gives the coins fronts only: in TTS their back is the blank paper (it was a
    grey placeholder) and their deck lies face up; the heroes, with a back, stay face down."""
    game, cards, problems = check_content(tiny)
    assert not problems
    export_tts(tiny, tmp_path, max_dpi=40, cards_in=(game, cards))
    saved = json.loads((tmp_path / "tts" / "tiny.json").read_text())
    decks = {o["Nickname"]: o for o in saved["ObjectStates"]}
    coins, heroes = decks["coins"], decks["ヒーロー"]
    entry = coins["CustomDeck"]["2"]
    assert entry["BackURL"] == "coins-back.png" and not entry["UniqueBack"] and entry["BackIsHidden"]
    back = Image.open(tmp_path / "tts" / entry["BackURL"])
    assert back.mode == "RGB" and back.getcolors() == [(back.size[0] * back.size[1], (255, 255, 255))]
    sheet = Image.open(tmp_path / "tts" / entry["FaceURL"])
    cw, ch = back.size
    last = entry["NumWidth"] * entry["NumHeight"] - 1
    x, y = (last % entry["NumWidth"]) * cw, (last // entry["NumWidth"]) * ch
    assert sheet.crop((x, y, x + cw, y + ch)).tobytes() == back.tobytes(), "the hidden cell is the back"
    assert [o["Transform"]["rotZ"] for o in [coins, *coins["ContainedObjects"]]] == [0.0] * 7
    assert [o["Transform"]["rotZ"] for o in [heroes, *heroes["ContainedObjects"]]] == [180.0] * 5


def test_a_landscape_component_exports_as_sideways_cards_sized_by_their_short_side(tiny):
    """A landscape card's sheet cells are wider than tall, but TTS drew every card upright at the
    poker card's shape (its image squeezed) and 1.4x too large (scaled by its long side): it now
    exports with SidewaysCard, on the deck and on each card, and the poker scale of its short side."""
    from generator.export.tts import saved_object

    text = (tiny / "game.yaml").read_text(encoding="utf-8")
    assert "    size: [20mm, 20mm]\n    shape: round\n" in text
    (tiny / "game.yaml").write_text(text.replace("    size: [20mm, 20mm]\n    shape: round\n",
                                                 "    size: [30mm, 20mm]\n    shape: rect\n"), encoding="utf-8")
    game, cards, problems = check_content(tiny, check_faces=False)
    assert not problems
    saved = saved_object(game, plan_decks(cards, 40))
    decks = {o["Nickname"]: o for o in saved["ObjectStates"]}
    coins, heroes = decks["coins"], decks["ヒーロー"]
    assert coins["SidewaysCard"] is True
    assert [card["SidewaysCard"] for card in coins["ContainedObjects"]] == [True] * 6
    assert coins["Transform"]["scaleX"] == coins["Transform"]["scaleZ"] == round(20 / 63, 3)
    assert "SidewaysCard" not in heroes and not any("SidewaysCard" in c for c in heroes["ContainedObjects"])
    assert heroes["Transform"]["scaleX"] == 1.0                       # poker: as before
