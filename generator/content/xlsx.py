"""The cells of one sheet of an Excel workbook (.xlsx), as text, with the standard library only.

An .xlsx file is a zip of XML parts: the workbook lists the sheets, each sheet part holds its rows
(``<row r="7"><c r="B7" t="s"><v>3</v></c>...``), and text cells point into the shared strings.
Only values are read (what a formula last computed, not the formula); a number is written as Python
writes it (``3``, ``0.5``), a date as ISO (``2026-11-30``, the cell's number format says it is one), a
boolean as ``true``/``false``, so the record loader reads each cell as a CSV cell. A formula's error
(``#N/A``) or a formula never computed (a file a script wrote) is a located problem: printed, it would be
a card that says ``#N/A``, or miss the value. pnp reads records, so a workbook that is not one (a zip of something else, a part too big)
is a located error, never a crash.
"""
from __future__ import annotations

import datetime
import re
import zipfile
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from ..errors import ContentError, Location, Problem
from .schema import did_you_mean

MAX_PART_BYTES = 32 * 1024 * 1024  # the uncompressed XML of one part (a zip bomb stops here)
_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
       "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
       "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}
#: Excel's "Strict Open XML Spreadsheet" namespaces, read as the usual (transitional) ones they mirror
_STRICT = ((b"http://purl.oclc.org/ooxml/spreadsheetml/main", _NS["m"].encode()),
           (b"http://purl.oclc.org/ooxml/officeDocument/relationships", _NS["r"].encode()))
_CELL_REF = re.compile(r"^([A-Z]+)(\d+)$")
#: the built-in number formats that show a date or time (Excel's list, with the Japanese-locale ones)
_DATE_FORMAT_IDS = {*range(14, 23), *range(27, 37), *range(45, 48), *range(50, 59)}
#: a custom format shows a date when a date or time code is left after its quoted text, escapes and [colours]
_FORMAT_NOISE = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]')
_DATE_CODES = re.compile(r"[ymdhs]", re.IGNORECASE)  # (not e: 0.00E+00 is a number)


def read_sheet(path: Path, prefer: str | None = None) -> tuple[str, list[tuple[int, list[str]]]]:
    """``(sheet name, [(row number, [cell text, ...]), ...])`` of the sheet called ``prefer`` (any
    case), else of a workbook's only sheet (or of its first, without ``prefer``). Empty rows are left out.

    A workbook of several sheets, none called ``prefer``, is an error: reading its first sheet would be a
    guess, and a misnamed sheet (``Villain`` for ``villains``) would give another component's cards."""
    where = str(path)
    try:
        with zipfile.ZipFile(path) as book:
            sheets = _sheets(book, where)
            if not sheets:
                raise _error(where, "the workbook has no sheet")
            named = [(n, p) for n, p in sheets if prefer and n.lower() == prefer.lower()]
            if prefer and not named and len(sheets) > 1:
                names = [n for n, _ in sheets]
                raise _error(where, f"no sheet named {prefer!r}{did_you_mean(prefer, names)} among {', '.join(names)}:"
                                    f" name the sheet of these records {prefer!r}, like the component")
            name, part = (named or sheets)[0]
            cells = _Cells(_shared_strings(book, where), _date_styles(book, where), _epoch(book, where))
            return name, _rows(_xml(book, part, where), cells, f"{where}[{name}]")
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


class _Cells:
    """What a cell's value needs from the rest of the workbook: the shared strings, which styles show
    a date, and the date system's day 0."""

    def __init__(self, strings: list[str], date_styles: set[int], epoch: datetime.datetime):
        self.strings, self.date_styles, self.epoch = strings, date_styles, epoch


def _rows(sheet, cells_of: _Cells, where: str) -> list[tuple[int, list[str]]]:
    """The rows with a value; every bad cell of the sheet is reported at once."""
    rows, problems = [], []
    for row in sheet.findall("m:sheetData/m:row", _NS):
        number = int(row.get("r", len(rows) + 1))
        cells: dict[int, str] = {}
        for n, cell in enumerate(row.findall("m:c", _NS)):
            ref = _CELL_REF.match(cell.get("r", ""))
            column = _column(ref.group(1)) if ref else n
            try:
                cells[column] = _value(cell, cells_of, where, number)
            except ContentError as exc:
                problems.extend(exc.problems)
        if any(value.strip() for value in cells.values()):
            rows.append((number, [cells.get(i, "") for i in range(max(cells) + 1)]))
    if problems:
        raise ContentError(problems)
    return rows


def _value(cell, cells_of: _Cells, where: str, row: int) -> str:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        found = cell.find("m:is", _NS)
        return _text(found) if found is not None else ""
    v = cell.find("m:v", _NS)
    raw = v.text if v is not None and v.text is not None else ""
    if kind == "e":
        raise _error(where, f"cell {cell.get('r')} shows the formula error {raw}: correct the formula or clear the cell", row)
    if not raw and kind != "str" and cell.find("m:f", _NS) is not None:
        raise _error(where, f"cell {cell.get('r')} has a formula that was never computed (a program, not a"
                            " spreadsheet, saved the file): open and save it in Excel or LibreOffice", row)
    if kind == "s":
        index = int(raw)
        if not 0 <= index < len(cells_of.strings):
            raise _error(where, f"cell {cell.get('r')} names shared string {index}, which the workbook lacks", row)
        return cells_of.strings[index]
    if kind == "b":
        return "true" if raw == "1" else "false" if raw == "0" else raw
    if kind == "n" and raw:
        number = float(raw)
        if int(cell.get("s", 0)) in cells_of.date_styles:
            return _date(number, cells_of.epoch)
        return str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)
    return raw  # str (a formula's text), d (an ISO date)


def _date(serial: float, epoch: datetime.datetime) -> str:
    """A date cell as ISO text, ``2026-11-30`` (with `` 09:30`` when it has a time of day; ``09:30``
    alone for a time)."""
    moment = epoch + datetime.timedelta(seconds=round(serial * 86400))  # (to the second: 0.1 day is no float)
    time = moment.strftime("%H:%M:%S" if moment.second else "%H:%M")
    if serial < 1:
        return time
    return moment.date().isoformat() + ("" if serial.is_integer() else " " + time)


def _date_styles(book: zipfile.ZipFile, where: str) -> set[int]:
    """The indexes of the cell styles (``<c s="3">``) whose number format shows a date or time."""
    if "xl/styles.xml" not in book.namelist():
        return set()
    styles = _xml(book, "xl/styles.xml", where)
    custom = {int(f.get("numFmtId", -1)): f.get("formatCode", "") for f in styles.findall("m:numFmts/m:numFmt", _NS)}

    def shows_date(format_id: int) -> bool:
        if format_id in custom:
            return bool(_DATE_CODES.search(_FORMAT_NOISE.sub("", custom[format_id])))
        return format_id in _DATE_FORMAT_IDS

    return {n for n, xf in enumerate(styles.findall("m:cellXfs/m:xf", _NS)) if shows_date(int(xf.get("numFmtId", 0)))}


def _epoch(book: zipfile.ZipFile, where: str) -> datetime.datetime:
    """Day 0 of the workbook's dates: 1899-12-30 (Excel's 1900 system, counting its phantom 29 February
    1900, so the serials of every date since March 1900 come out right), or 1904-01-01 (old Mac Excel)."""
    properties = _xml(book, "xl/workbook.xml", where).find("m:workbookPr", _NS)
    date1904 = properties is not None and properties.get("date1904", "0").lower() in ("1", "true")
    return datetime.datetime(1904, 1, 1) if date1904 else datetime.datetime(1899, 12, 30)


def _column(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - 64
    return index - 1


def _xml(book: zipfile.ZipFile, part: str, where: str):
    info = book.getinfo(part)
    if info.file_size > MAX_PART_BYTES:
        raise _error(where, f"{part} is larger than {MAX_PART_BYTES // (1024 * 1024)} MB")
    data = book.read(part)
    for strict, transitional in _STRICT:  # a workbook saved as "Strict Open XML" names the same elements
        data = data.replace(strict, transitional)
    return ElementTree.fromstring(data)


def _error(where: str, message: str, line: int = 0) -> ContentError:
    return ContentError([Problem(Location(where, line), "", message)])
