"""Record files from a spreadsheet (CSV, .xlsx): the same records and located problems as a YAML record file."""
import shutil
from pathlib import Path

import pytest

from generator.content import load_game
from generator.errors import ContentError
from generator.newgame import new_game


@pytest.fixture
def fox(tmp_path) -> Path:
    """The `pnp new` game; its records come from cards.csv once a test writes one (or cards.xlsx)."""
    new_game("fox", tmp_path, lang="en")
    root = tmp_path / "content/fox"
    game_yaml = root / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.yaml ", "file: cards.csv  "))
    return root


def _write(root: Path, text: str, encoding: str = "utf-8") -> Path:
    path = root / "cards.csv"
    path.write_bytes(text.encode(encoding))
    return path


def _problems(root: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_game(root)
    return [p.display() for p in caught.value.problems]


def test_a_csv_gives_the_records_its_yaml_twin_gives(fox):
    _write(fox, "id,name,count,cost,text\n"
                "kitsunebi,Foxfire,2,1,Look at one card in an opponent's hand. :fire: 1.\n"
                "inari,Offering,,0,Draw a card.\n")
    (fox / "cards.yaml").write_text("- {id: kitsunebi, name: Foxfire, count: 2, cost: 1,"
                                    " text: \"Look at one card in an opponent's hand. :fire: 1.\"}\n"
                                    "- {id: inari, name: Offering, cost: 0, text: Draw a card.}\n")
    from_csv = load_game(fox).component("cards").records
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.csv  ", "file: cards.yaml "))
    assert from_csv == load_game(fox).component("cards").records
    assert [r["count"] for r in from_csv] == [2, 1]


def test_cells_take_the_kind_of_their_field(fox):
    schema = fox / "schema.yaml"
    schema.write_text(schema.read_text().replace(
        "      text:  {type: text}",
        "      text:  {type: text}\n      tags:  {type: list, items: {type: str}, default: []}\n"
        "      stats: {type: map, optional: true, fields: {guard: {type: int, default: 0}, fast: {type: bool, default: false}}}"))
    _write(fox, 'id,name.en,name.ja,count,cost,text,tags,stats.guard,stats.fast\n'
                '007,"Lucky: 7",七,3,2,"Draw 7 cards,\nthen discard 6.","[a, b]",1,true\n'
                'plain,Plain,,,0,"""""",,,\n')
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("expected: 3", "expected: 4"))
    lucky, plain = load_game(fox).component("cards").records
    assert lucky["id"] == "007" and lucky["name"] == {"en": "Lucky: 7", "ja": "七"}
    assert lucky["count"] == 3 and lucky["cost"] == 2 and lucky["text"] == "Draw 7 cards,\nthen discard 6."
    assert lucky["tags"] == ["a", "b"] and lucky["stats"] == {"guard": 1, "fast": True}
    assert plain["count"] == 1 and plain["text"] == "" and plain["tags"] == [] and plain["stats"] is None


def test_problems_are_located_at_the_row_even_after_a_cell_of_several_lines(fox):
    path = _write(fox, 'id,name,cost,text,count\n'
                       'a,A,1,"two\nlines",\n'
                       'b,B,zero,t,\n'
                       'c,C,[1,t,-1\n')
    shown = _problems(fox)
    assert f"{path}:4: cards[1].cost: expected an integer, got 'zero'" in shown
    assert f"{path}:5: cards[2].count: -1 is below the minimum 1" in shown
    assert f"{path}:5: cards[2].cost: expected an integer, got '[1'" in shown


def test_a_header_that_names_no_field_is_one_problem_at_the_header_not_one_a_row(fox):
    """A typo in a column name would otherwise say "unknown field" and "missing required field" on
    every row of the sheet, the header's line nowhere."""
    rows = "".join(f"c{n},C,1,t,x\n" for n in range(50))
    path = _write(fox, "id,name,cots,text,stats.gaurd\n" + rows)
    schema = fox / "schema.yaml"
    schema.write_text(schema.read_text().replace(
        "      text:  {type: text}", "      text:  {type: text}\n"
        "      stats: {type: map, optional: true, fields: {guard: {type: int, default: 0}}}"))
    assert _problems(fox) == [f"{path}:1: cots: this column names no field of the record (did you mean 'cost'?)",
                              f"{path}:1: stats.gaurd: this column names no field of stats (did you mean 'guard'?)"]


def test_a_row_longer_than_the_header_and_a_repeated_header_are_located(fox):
    path = _write(fox, "id,name,cost,text\na,A,1,t,extra\n")
    assert f"{path}:2: row has 5 cells but the header names 4 fields (a cell with a comma needs quotes)" in _problems(fox)
    path = _write(fox, "id,name,cost,name\n")
    assert f"{path}:1: name: named twice in the header" in _problems(fox)
    path = _write(fox, "id,name,name.ja,cost\n")
    assert (f"{path}:1: name.ja: 'name' is a column too: give each part its own column (name.en, ...) or only"
            " the whole") in _problems(fox)


def test_excel_files_in_utf_8_with_a_bom_or_in_shift_jis_read_the_same(fox):
    text = "id,name,cost,text\nkitsunebi,狐火,1,相手の手札を1枚見る。\n"
    _write(fox, "\ufeff" + text)
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("expected: 3", "expected: 1"))
    with_bom = load_game(fox).component("cards").records
    _write(fox, text, encoding="cp932")
    assert load_game(fox).component("cards").records == with_bom
    assert with_bom[0]["id"] == "kitsunebi" and with_bom[0]["name"] == "狐火"


def test_field_at_finds_a_csv_records_row(fox):
    _write(fox, 'id,name,count,cost,text\nfoxfire,Foxfire,2,1,"a\nb"\noffering,Offering,1,0,Draw a card.\n')
    game = load_game(fox)
    second = game.component("cards").records[1]
    assert game.field_at(second, "cost").line == 4


def test_the_format_docs_example_loads_as_it_says(fox):
    doc = (Path(__file__).resolve().parents[3] / "docs/content-format.md").read_text(encoding="utf-8")
    block = doc.split("```csv\n", 1)[1].split("```", 1)[0]
    _write(fox, block)
    schema = fox / "schema.yaml"
    schema.write_text(schema.read_text().replace(
        "      text:  {type: text}",
        "      text:  {type: text}\n      attributes: {type: list, items: {type: str}, default: []}\n"
        "      sub: {type: map, optional: true, fields: {guard: {type: int, default: 0}}}"))
    kitsunebi, inari = load_game(fox).component("cards").records
    assert kitsunebi["name"] == {"ja": "狐火", "en": "Foxfire"} and kitsunebi["text"] == "相手の手札を1枚見る。:fire:1点。"
    assert kitsunebi["attributes"] == ["attack", "grapple"] and kitsunebi["sub"] == {"guard": 1}
    assert inari["count"] == 1 and inari["attributes"] == [] and inari["sub"] is None


SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets"


def _workbook_game(fox: Path) -> Path:
    """fox with its cards in tests/data/sheets/cards.xlsx (written by XlsxWriter, as Excel writes one:
    a notes sheet first, then "Cards" with a rich-text cell, a formula, a boolean and an empty row)."""
    shutil.copy(SHEETS / "cards.xlsx", fox / "cards.xlsx")
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.csv  ", "file: cards.xlsx ")
                         .replace("expected: 3", "expected: 4"))
    schema = fox / "schema.yaml"
    schema.write_text(schema.read_text().replace(
        "      text:  {type: text}",
        "      text:  {type: text}\n      tags:  {type: list, items: {type: str}, default: []}\n"
        "      stats: {type: map, optional: true, fields: {guard: {type: int, default: 0}, fast: {type: bool, default: false}}}"))
    return fox


def test_a_workbook_gives_the_sheet_named_after_the_component(fox):
    kitsunebi, inari, lucky = load_game(_workbook_game(fox)).component("cards").records
    assert kitsunebi["name"] == {"ja": "狐火", "en": "Foxfire"} and kitsunebi["count"] == 2
    assert kitsunebi["tags"] == ["attack", "grapple"] and kitsunebi["stats"] == {"guard": 1, "fast": True}
    assert inari["count"] == 1 and inari["cost"] == 0 and inari["stats"] is None
    assert lucky["id"] == "007" and lucky["name"]["ja"] == "幸運の7" and lucky["cost"] == 3  # rich text, a formula's value
    assert lucky["text"] == "7枚引き、\n6枚捨てる。"


def test_a_workbooks_problems_name_the_sheet_and_row(fox):
    game = _workbook_game(fox)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("expected: 4", "expected: 3"))
    schema = game / "schema.yaml"
    schema.write_text(schema.read_text().replace("cost:  {type: int, min: 0, max: 5}", "cost:  {type: int, min: 0, max: 2}"))
    shown = _problems(game)
    assert f"{game / 'cards.xlsx'}[Cards]:5: Cards[2].cost: 3 is above the maximum 2" in shown, shown
    schema.write_text(schema.read_text().replace("max: 2}", "max: 5}"))
    game_yaml.write_text(game_yaml.read_text().replace("expected: 3", "expected: 4"))
    loaded = load_game(game)
    lucky = loaded.component("cards").records[2]
    assert loaded.field_at(lucky, "cost").line == 5


def test_a_workbook_of_several_sheets_none_named_after_the_component_is_an_error(fox):
    """Reading the first sheet (the notes, or another component's cards) would be a guess."""
    game = _workbook_game(fox)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("- id: cards", "- id: card"))
    assert _problems(game) == [f"{game / 'cards.xlsx'}: no sheet named 'card' (did you mean 'Cards'?) among notes,"
                               " Cards: name the sheet of these records 'card', like the component"]


def test_a_workbook_of_one_sheet_gives_it_whatever_its_name(fox):
    shutil.copy(SHEETS / "saved-by-a-script.xlsx", fox / "cards.xlsx")  # one sheet, "Cards"
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.csv  ", "file: cards.xlsx ")
                         .replace("- id: cards", "- id: deck"))
    assert any(s.startswith(f"{fox / 'cards.xlsx'}[Cards]:2: ") for s in _problems(fox))


def test_a_file_that_is_no_workbook_is_a_located_problem(fox):
    (fox / "cards.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.csv  ", "file: cards.xlsx "))
    shown = _problems(fox)
    assert any(s.startswith(f"{fox / 'cards.xlsx'}: not a readable .xlsx workbook") for s in shown), shown


def test_the_lock_file_of_an_open_workbook_is_not_content(fox, tmp_path):
    """Excel keeps ``~$cards.xlsx`` beside an open workbook: a glob does not read it, the verdict's key
    and watch mode do not see it."""
    from generator.export.watch import snapshot
    from generator.sim.verdict import played_file_hashes

    game = _workbook_game(fox)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.xlsx ", "file: '*.xlsx'  "))
    before = (played_file_hashes(game), set(snapshot([game])))
    (game / "~$cards.xlsx").write_bytes(b"\x00owner")
    (game / ".~lock.cards.xlsx#").write_text("owner")
    assert len(load_game(game).component("cards").records) == 3
    assert (played_file_hashes(game), set(snapshot([game]))) == before


def test_a_date_cell_reads_as_the_date_it_shows_not_as_its_serial_number():
    """dates-and-errors.xlsx (XlsxWriter): a custom yyyy-mm-dd, the built-in short date, a date and time,
    a time alone; then numbers whose format is no date (scientific, percent) stay numbers."""
    from generator.content.xlsx import read_sheet

    name, rows = read_sheet(SHEETS / "dates-and-errors.xlsx", "cards")
    assert rows[1] == (2, ["kitsunebi", "2026-11-30", "1999-03-01", "2026-12-01 09:30", "18:45", "12000", "0.25"])


def test_a_formula_error_or_a_formula_never_computed_is_located_not_printed(fox):
    """Printed, ``#N/A`` would be a card's text; a formula a script wrote has no value at all."""
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.csv  ", "file: cards.xlsx "))
    shutil.copy(SHEETS / "dates-and-errors.xlsx", fox / "cards.xlsx")
    game_yaml.write_text(game_yaml.read_text().replace("- id: cards", "- id: broken"))
    shown = _problems(fox)
    at = f"{fox / 'cards.xlsx'}[Broken]:2: cell"
    assert f"{at} B2 shows the formula error #DIV/0!: correct the formula or clear the cell" in shown, shown
    assert f"{at} C2 shows the formula error #N/A: correct the formula or clear the cell" in shown, shown
    shutil.copy(SHEETS / "saved-by-a-script.xlsx", fox / "cards.xlsx")  # written by openpyxl: =1+2, no value
    assert any(s.startswith(f"{fox / 'cards.xlsx'}[Cards]:2: cell B2 has a formula that was never computed")
               for s in _problems(fox))


def test_columns_into_a_tagged_union_or_an_open_dict_take_their_fields_kind(fox):
    """``power.n`` is the int of the variant that has it (it was read as the text '2'), ``odds.fire`` a dict's
    value; a column no variant has is named at the header."""
    schema = fox / "schema.yaml"
    schema.write_text(schema.read_text().replace("      text:  {type: text}\n", (
        "      text:  {type: text}\n      power: {type: power, optional: true}\n"
        "      odds:  {type: dict, keys: {type: str}, values: {type: int}, default: {}}\n"
        "  power:\n    type: tagged\n    tag: op\n    variants:\n"
        "      draw: {fields: {n: {type: int}, says: {type: text}}}\n      skip: {fields: {}}\n")))
    _write(fox, "id,name,cost,text,power.op,power.n,power.says,odds.fire\n"
                "foxfire,Foxfire,1,t,skip,,,\n"
                "offering,Offering,0,Draw.,draw,2,007,1\n"
                "lucky,Lucky,0,t,,,,\n")
    foxfire, offering, _ = load_game(fox).component("cards").records
    assert foxfire["power"] == {"op": "skip"}
    assert offering["power"] == {"op": "draw", "n": 2, "says": "007"} and offering["odds"] == {"fire": 1}
    path = _write(fox, "id,name,cost,text,power.op,power.sayz\n")
    assert _problems(fox) == [f"{path}:1: power.sayz: this column names no field of power (did you mean 'says'?)"]


def test_a_csv_separated_by_semicolons_as_french_excel_saves_it_reads_the_same(fox):
    """Where the decimal mark is a comma, Excel's "CSV" separates cells with ';': the header was one
    field named 'id;name;cost;text'."""
    text = "id,name,cost,text\nfoxfire,Foxfire,1,\"Look, then burn.\"\n"
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("expected: 3", "expected: 1"))
    _write(fox, text)
    with_commas = load_game(fox).component("cards").records
    _write(fox, "\ufeff" + text.replace(",", ";").replace('"Look; then burn."', '"Look, then burn."'))
    assert load_game(fox).component("cards").records == with_commas


def test_a_line_break_inside_a_cell_is_the_one_yaml_gives_whatever_the_files_line_ends(fox):
    """Excel writes a CSV with CRLF, inside quoted cells too: '\\r\\n' in a text made the record differ from
    its YAML twin (a changed card in the print lock, for nothing)."""
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("expected: 3", "expected: 1"))
    _write(fox, 'id,name,cost,text\r\nfoxfire,Foxfire,1,"Look.\r\nThen burn."\r\n')
    assert load_game(fox).component("cards").records[0]["text"] == "Look.\nThen burn."


def test_a_workbook_saved_as_strict_open_xml_reads_the_same(fox):
    """Excel's "Strict Open XML Spreadsheet" writes the same parts under other namespaces."""
    import zipfile

    game = _workbook_game(fox)
    transitional = load_game(game).component("cards").records
    strict = game / "strict.xlsx"
    with zipfile.ZipFile(game / "cards.xlsx") as source, zipfile.ZipFile(strict, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            data = data.replace(b"http://schemas.openxmlformats.org/spreadsheetml/2006/main",
                                b"http://purl.oclc.org/ooxml/spreadsheetml/main")
            data = data.replace(b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
                                b"http://purl.oclc.org/ooxml/officeDocument/relationships")
            target.writestr(item, data)
    strict.replace(game / "cards.xlsx")
    assert load_game(game).component("cards").records == transitional


def test_a_column_into_a_dict_with_number_keys_gives_a_number_key(fox):
    """Fatal Fight's respawn: {1: 3, 4: 1} as columns respawn.1, respawn.4 (a dict with text keys keeps them text)."""
    schema = fox / "schema.yaml"
    schema.write_text(schema.read_text().replace(
        "      text:  {type: text}",
        "      text:  {type: text}\n"
        "      respawn: {type: dict, keys: {type: int}, values: {type: int}, default: {}}\n"
        "      tags: {type: dict, keys: {type: str}, values: {type: int}, default: {}}"))
    _write(fox, "id,name,cost,text,respawn.1,respawn.4,tags.7\n"
                "kitsunebi,Foxfire,1,t,3,1,2\ninari,Offering,0,t,,,\n")
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("expected: 3", "expected: 2"))
    kitsunebi, inari = load_game(fox).component("cards").records
    assert kitsunebi["respawn"] == {1: 3, 4: 1} and kitsunebi["tags"] == {"7": 2}
    assert inari["respawn"] == {}


def test_an_integer_written_as_a_whole_float_reads_as_that_integer_and_a_fraction_stays_an_error(fox):
    """pandas (and some exports) write every integer of a column with blanks as ``1.0``: 3 copies, as expected."""
    path = _write(fox, "id,name,count,cost,text\n"
                       "a,A,2.0,1.0,t\n"
                       "b,B,,0.0,t\n")
    a, b = load_game(fox).component("cards").records
    assert (a["count"], a["cost"], b["count"], b["cost"]) == (2, 1, 1, 0)
    assert type(a["count"]) is int and type(a["cost"]) is int
    _write(fox, "id,name,count,cost,text\na,A,1.5,1,t\nb,B,1,2.5,t\n")
    shown = _problems(fox)
    assert f"{path}:2: cards[0].count: expected an integer, got 1.5" in shown
    assert f"{path}:3: cards[1].cost: expected an integer, got 2.5" in shown


def test_a_whole_float_inside_a_list_or_mapping_cell_reads_as_an_integer_as_a_plain_cell_does(fox):
    """``[1.0, 2]`` in a list of integers, ``{guard: 1.0}`` in a map of them (an error before); a ``1.5``
    there stays the error a plain cell gives, at its row and item."""
    schema = fox / "schema.yaml"
    schema.write_text(schema.read_text().replace(
        "      text:  {type: text}",
        "      text:  {type: text}\n      dice:  {type: list, items: {type: int}, default: []}\n"
        "      odds:  {type: list, items: {type: number}, default: []}\n"
        "      stats: {type: map, optional: true, fields: {guard: {type: int, default: 0}, "
        "rolls: {type: list, items: {type: int}, default: []}}}"))
    path = _write(fox, 'id,name,count,cost,text,dice,odds,stats\n'
                       'a,A,3,1,t,"[1.0, 2]","[1.0, 0.5]","{guard: 2.0, rolls: [3.0]}"\n')
    [a] = load_game(fox).component("cards").records
    assert a["dice"] == [1, 2] and type(a["dice"][0]) is int
    assert a["odds"] == [1.0, 0.5] and type(a["odds"][0]) is float    # a number field keeps its float
    assert a["stats"] == {"guard": 2, "rolls": [3]} and type(a["stats"]["rolls"][0]) is int
    _write(fox, 'id,name,count,cost,text,dice,stats\na,A,3,1,t,"[1.0, 1.5]","{guard: 2.5}"\n')
    shown = _problems(fox)
    assert f"{path}:2: cards[0].dice[1]: expected an integer, got 1.5" in shown
    assert f"{path}:2: cards[0].stats.guard: expected an integer, got 2.5" in shown


def test_a_yaml_record_file_keeps_an_integer_written_as_a_float_an_error(fox):
    game_yaml = fox / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("file: cards.csv  ", "file: cards.yaml "))
    (fox / "cards.yaml").write_text("- {id: a, name: A, count: 3, cost: 1.0, text: t}\n")
    assert f"{fox / 'cards.yaml'}:1: cards[0].cost: expected an integer, got 1.0" in _problems(fox)
