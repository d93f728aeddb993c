"""Record files from a spreadsheet: a CSV export or the .xlsx workbook itself, one record a row, the
first row naming the fields.

Rows become the YAML nodes a record file gives (a mapping a record, every node marked with its
row's line), so the schema check, its messages (``cards.csv:7: cards[5].cost: ...``) and
``Game.field_at`` work as for YAML. A header ``sub.guard`` or ``name.en`` fills a nested field.
An empty cell leaves the field out (its default applies); ``""`` is an empty text. A cell of a
text-like field (text, str, id, ref, path, colour) is taken as written; any other cell is read as a
YAML value, so ``3`` is a number, ``true`` a boolean and ``[attack, grapple]`` a list (a cell that is no
YAML value stays text, and the schema says what it expected). An integer field's cell may be a whole
number written as a float (``1.0``, as pandas writes integers in a column with blanks), in a list or
mapping cell too.

A CSV is read as UTF-8 (with or without the BOM Excel writes); failing that as Shift_JIS (cp932),
what Japanese Excel saves as plain "CSV". Its cells are separated by commas, or by semicolons when the
header has semicolons and no comma (Excel in a language whose decimal mark is a comma). A workbook gives the sheet named after the component (any
case; a workbook of one sheet: that one); its problems are located as ``cards.xlsx[arts]:7``: sheet and row.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import yaml

from ..errors import ContentError, Location, Problem
from .schema import DICT_KEY, LIST_ITEM
from .yamlload import MAX_FILE_BYTES, _Loader

#: kinds whose cells are text as written, never a YAML value ("007" stays "007", "a: b" stays text)
TEXT_KINDS = {"text", "str", "id", "ref", "path", "color"}
SUFFIXES = (".csv", ".xlsx")
_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_SHEET = re.compile(r"^(.*\.xlsx)\[(.*)\]$", re.IGNORECASE)


def is_editor_lock(name: str) -> bool:
    """The file Excel (``~$cards.xlsx``) or LibreOffice (``.~lock.cards.xlsx#``) keeps beside a workbook
    while it is open: not content, and no reason to rebuild or to play the game again."""
    return name.startswith(("~$", ".~lock."))


def is_tabular(path) -> bool:
    """A record file from a spreadsheet (also a location of one: ``cards.xlsx[arts]``)."""
    return Path(str(path)).suffix.lower() in SUFFIXES or bool(_SHEET.match(str(path)))


def parse_table_file(where: str, kind_of=None) -> yaml.SequenceNode:
    """The records of a location's file (``cards.csv``, ``cards.xlsx[arts]``) as one sequence node,
    what ``Game.field_at`` reads again."""
    found = _SHEET.match(where)
    path, sheet = (Path(found.group(1)), found.group(2)) if found else (Path(where), None)
    items = list(parse_table_items(path, kind_of, sheet))
    start = _mark(where, 0)
    return yaml.SequenceNode(_SEQ, items, start, items[-1].end_mark if items else start)


def open_table(path: Path, kind_of=None, sheet: str | None = None, unknown=None):
    """``(location, iterator of one mapping node per data row)``: the location is the file, or for a
    workbook the file and sheet (``cards.xlsx[arts]``: the one named ``sheet``, or a workbook's only one).
    ``kind_of(keys)`` names the schema kind of a header's field (``("sub", "guard")`` -> ``"int"``),
    None when unknown; a cell of a text-like kind is a string as written. ``unknown(keys)`` says why a
    header names no field (None when it does): such a header is a problem at the header's line, once,
    and the rows are not read (each would only repeat it, and miss the field it meant)."""
    where, rows = _xlsx_rows(path, sheet) if Path(path).suffix.lower() == ".xlsx" else _csv_rows(path)
    return where, _items(where, rows, kind_of or (lambda keys: None), unknown or (lambda keys: None))


def parse_table_items(path: Path, kind_of=None, sheet: str | None = None):
    return open_table(path, kind_of, sheet)[1]


def _items(where: str, rows, kind_of, unknown):
    header = next(rows, None)
    if header is None:
        return
    columns = _columns(header[1], where, header[0])
    misnamed = [Problem(Location(where, header[0]), ".".join(keys), f"this column names {why}")
                for keys in columns if (why := unknown(keys))]
    if misnamed:
        raise ContentError(misnamed)
    for line, row in rows:
        if not any(cell.strip() for cell in row):
            continue  # a blank row, as spreadsheets leave at the end
        if len(row) > len(columns) and any(cell.strip() for cell in row[len(columns):]):
            raise ContentError([Problem(Location(where, line), "", f"row has {len(row)} cells but the header names"
                                        f" {len(columns)} fields (a cell with a comma needs quotes)")])
        yield _record(row, columns, where, line, kind_of)


def _csv_rows(path: Path):
    """``(location, iterator of (line where the row starts, cells))``: the header first."""
    where = str(path)
    return where, _csv_lines(_decode(path), where)


def _csv_lines(text: str, where: str):
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    line = 1
    try:
        for row in reader:
            yield line, row  # a quoted cell may span lines: the row starts at `line`
            line = reader.line_num + 1
    except csv.Error as exc:
        raise ContentError([Problem(Location(where, reader.line_num), "", f"not a readable CSV file: {exc}")]) from None


def _delimiter(text: str) -> str:
    """``;`` for a CSV whose header has semicolons and no comma (what Excel saves where the decimal
    mark is a comma: French, German...), else ``,``."""
    header = text.split("\n", 1)[0]
    return ";" if ";" in header and "," not in header else ","


def _xlsx_rows(path: Path, sheet: str | None):
    from .xlsx import read_sheet

    name, rows = read_sheet(path, sheet)
    return f"{path}[{name}]", iter(rows)


def _decode(path: Path) -> str:
    data = Path(path).read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise ContentError([Problem(Location(str(path), 0), "", f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")])
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ContentError([Problem(Location(str(path), 0), "", "not UTF-8 or Shift_JIS text: save the sheet as"
                                " \"CSV UTF-8 (comma delimited)\"")])


def _columns(header: list[str], where: str, line: int = 1) -> list[tuple[str, ...]]:
    columns, seen = [], set()
    for n, name in enumerate(header, start=1):
        keys = tuple(part.strip() for part in name.strip().split("."))
        if not all(keys):
            if not any(cell.strip() for cell in header[n - 1:]):
                break  # empty cells after the last column, as a spreadsheet may write
            raise ContentError([Problem(Location(where, line), "", f"header cell {n} ({name!r}) names no field")])
        if keys in seen:
            raise ContentError([Problem(Location(where, line), ".".join(keys), "named twice in the header")])
        parent = next((keys[:i] for i in range(1, len(keys)) if keys[:i] in seen), None)
        if parent:
            raise ContentError([Problem(Location(where, line), ".".join(keys), f"{'.'.join(parent)!r} is a column too:"
                                        f" give each part its own column ({'.'.join(parent)}.en, ...) or only the whole")])
        seen.add(keys)
        columns.append(keys)
    return columns


def _record(row: list[str], columns, where: str, line: int, kind_of) -> yaml.MappingNode:
    tree: dict = {}
    for keys, cell in zip(columns, row):
        if not cell.strip():
            continue
        cell = cell.replace("\r\n", "\n").replace("\r", "\n")  # a line break is \n, as YAML reads one
        node = _cell(cell, keys, kind_of, where, line)
        branch = tree
        for key in keys[:-1]:
            branch = branch.setdefault(key, {})
        branch[keys[-1]] = node
    return _mapping(tree, _mark(where, line), kind_of)


def _cell(cell: str, keys: tuple, kind_of, where: str, line: int) -> yaml.Node:
    mark = _mark(where, line)
    kind = kind_of(keys)
    if kind in TEXT_KINDS or kind is None:  # (None: no schema given, or a key the record check will judge)
        value = cell.strip()  # (as YAML trims a plain scalar; a line break inside stays)
        return yaml.ScalarNode(_STR, "" if value == '""' else value, mark, mark, style='"')
    try:
        node = yaml.compose(cell, Loader=_Loader)
    except yaml.YAMLError:
        node = None
    if node is None:  # not a YAML value: the schema says what it expected ("expected a list, got '[a'")
        return yaml.ScalarNode(_STR, cell, mark, mark, style='"')
    node = _whole_numbers(node, keys, kind_of)
    _remark(node, mark)
    return node


def _whole_numbers(node: yaml.Node, keys: tuple, kind_of) -> yaml.Node:
    """``node`` with every whole float (``1.0``) at an integer field as that integer, inside lists and
    mappings too (``[1.0, 2]``, ``{guard: 1.0}``): a cell is read the same way whatever holds it."""
    if isinstance(node, yaml.SequenceNode):
        node.value = [_whole_numbers(item, (*keys, LIST_ITEM), kind_of) for item in node.value]
    elif isinstance(node, yaml.MappingNode):
        node.value = [(_whole_numbers(key, (*keys, DICT_KEY), kind_of),
                       _whole_numbers(value, (*keys, _name(key)), kind_of)) for key, value in node.value]
    elif kind_of(keys) == "int":
        return _whole_number(node)
    return node


def _name(key: yaml.Node):
    """A mapping key as a step of a field path (a list as a key names no field)."""
    return key.value if isinstance(key, yaml.ScalarNode) else None


def _whole_number(node: yaml.Node) -> yaml.Node:
    """A float cell that is a whole number (``1.0``) as the integer it means: pandas and some exports
    write every integer of a column with blanks that way. ``1.5`` stays a float, for the schema to
    refuse at its row; a YAML file keeps ``1.0`` an error (it is typed by hand)."""
    if not (isinstance(node, yaml.ScalarNode) and node.tag == _FLOAT):
        return node
    try:
        value = float(node.value.replace("_", ""))
    except ValueError:  # .inf, .nan
        return node
    if not value.is_integer():
        return node
    return yaml.ScalarNode(_INT, str(int(value)), node.start_mark, node.end_mark)


def _mapping(tree: dict, mark, kind_of, prefix: tuple = ()) -> yaml.MappingNode:
    """The nested fields of a row; under an open dict whose keys are numbers (``respawn.1``, Fatal
    Fight's ``respawn: {1: 3}``) a header's part is read as one."""
    numeric = kind_of(prefix) == "dict" and kind_of((*prefix, DICT_KEY)) in ("int", "number")
    pairs = [(_key(key, mark, numeric),
              _mapping(value, mark, kind_of, (*prefix, key)) if isinstance(value, dict) else value)
             for key, value in tree.items()]
    return yaml.MappingNode(_MAP, pairs, mark, mark)


def _key(key: str, mark, numeric: bool) -> yaml.ScalarNode:
    if numeric:
        node = _cell(key, (), lambda keys: "int", mark.name, mark.line + 1)
        if isinstance(node, yaml.ScalarNode):
            return node
    return yaml.ScalarNode(_STR, key, mark, mark)


def _remark(node: yaml.Node, mark) -> None:
    """Every node of a composed cell at the row's line (composing saw the cell alone, at line 0)."""
    node.start_mark = node.end_mark = mark
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _remark(item, mark)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _remark(key, mark)
            _remark(value, mark)


def _mark(where: str, line: int):
    return yaml.Mark(where, 0, line - 1, 0, None, None)
