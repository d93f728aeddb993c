"""The cells of one sheet of an Excel workbook (.xlsx), as text, with the standard library only.

An .xlsx file is a zip of XML parts: the workbook lists the sheets, each sheet part holds its rows
(``<row r="7"><c r="B7" t="s"><v>3</v></c>...``), and text cells point into the shared strings.
Only values are read (what a formula last computed, not the formula); a number is written as Python
writes it (``3``, ``0.5``), a boolean as ``true``/``false``, so the record loader reads each cell as a
CSV cell. pnp reads records, so a workbook that is not one (a zip of something else, a part too big)
is a located error, never a crash.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from ..errors import ContentError, Location, Problem

MAX_PART_BYTES = 32 * 1024 * 1024  # the uncompressed XML of one part (a zip bomb stops here)
_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
       "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
       "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}
_CELL_REF = re.compile(r"^([A-Z]+)(\d+)$")


def read_sheet(path: Path, prefer: str | None = None) -> tuple[str, list[tuple[int, list[str]]]]:
    """``(sheet name, [(row number, [cell text, ...]), ...])`` of the sheet called ``prefer`` (any
    case) if the workbook has one, else of its first sheet. Empty rows are left out."""
    where = str(path)
    try:
        with zipfile.ZipFile(path) as book:
            sheets = _sheets(book, where)
            if not sheets:
                raise _error(where, "the workbook has no sheet")
            name, part = next(((n, p) for n, p in sheets if prefer and n.lower() == prefer.lower()), sheets[0])
            strings = _shared_strings(book, where)
            return name, _rows(_xml(book, part, where), strings, f"{where}[{name}]")
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, ValueError) as exc:
        raise _error(where, f"not a readable .xlsx workbook ({exc})") from None


def _sheets(book: zipfile.ZipFile, where: str) -> list[tuple[str, str]]:
    """``[(sheet name, part path)]`` in workbook order."""
    workbook = _xml(book, "xl/workbook.xml", where)
    rels = _xml(book, "xl/_rels/workbook.xml.rels", where)
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels.findall("rel:Relationship", _NS)}
    sheets = []
    for sheet in workbook.findall("m:sheets/m:sheet", _NS):
        target = targets.get(sheet.get(f"{{{_NS['r']}}}id"), "")
        part = target.lstrip("/") if target.startswith("/") else str(PurePosixPath("xl") / target)
        sheets.append((sheet.get("name", ""), part))
    return sheets


def _shared_strings(book: zipfile.ZipFile, where: str) -> list[str]:
    if "xl/sharedStrings.xml" not in book.namelist():
        return []
    root = _xml(book, "xl/sharedStrings.xml", where)
    return [_text(item) for item in root.findall("m:si", _NS)]


def _text(item) -> str:
    """A string item's text: its ``<t>``, or its rich-text runs' ``<t>`` joined (the phonetic
    guides Japanese Excel adds, ``<rPh>``, left out)."""
    direct = item.find("m:t", _NS)
    if direct is not None:
        return direct.text or ""
    return "".join(run.findtext("m:t", default="", namespaces=_NS) for run in item.findall("m:r", _NS))


def _rows(sheet, strings: list[str], where: str) -> list[tuple[int, list[str]]]:
    rows = []
    for row in sheet.findall("m:sheetData/m:row", _NS):
        number = int(row.get("r", len(rows) + 1))
        cells: dict[int, str] = {}
        for n, cell in enumerate(row.findall("m:c", _NS)):
            ref = _CELL_REF.match(cell.get("r", ""))
            column = _column(ref.group(1)) if ref else n
            cells[column] = _value(cell, strings, where, number)
        if any(value.strip() for value in cells.values()):
            rows.append((number, [cells.get(i, "") for i in range(max(cells) + 1)]))
    return rows


def _value(cell, strings: list[str], where: str, row: int) -> str:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        found = cell.find("m:is", _NS)
        return _text(found) if found is not None else ""
    v = cell.find("m:v", _NS)
    raw = v.text if v is not None and v.text is not None else ""
    if kind == "s":
        index = int(raw)
        if not 0 <= index < len(strings):
            raise _error(where, f"cell {cell.get('r')} names shared string {index}, which the workbook lacks", row)
        return strings[index]
    if kind == "b":
        return "true" if raw == "1" else "false" if raw == "0" else raw
    if kind == "n" and raw:
        number = float(raw)
        return str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)
    return raw  # str (a formula's text), e (an error such as #N/A), d (an ISO date)


def _column(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - 64
    return index - 1


def _xml(book: zipfile.ZipFile, part: str, where: str):
    info = book.getinfo(part)
    if info.file_size > MAX_PART_BYTES:
        raise _error(where, f"{part} is larger than {MAX_PART_BYTES // (1024 * 1024)} MB")
    return ElementTree.fromstring(book.read(part))


def _error(where: str, message: str, line: int = 0) -> ContentError:
    return ContentError([Problem(Location(where, line), "", message)])
