"""``pnp export GAME --tts``: Tabletop Simulator deck sheets and a saved-object JSON.

Per component (cards, tiles and tokens; boards are not exported here), the distinct fronts
go on deck sheets of at most 10 x 7 cells; the last cell of every sheet is the "hidden"
image (the card back), so a sheet holds at most 69 cards. Sheets stay within 4096 x 4096 px
(cells are sized for that, at most ``max_dpi``), are RGB PNGs, and show every card cropped
to its trim. A shared back is one image; per-card backs go on back sheets with the same grid
(``UniqueBack``). A component without a back prints single-sided (the home print gives it fronts
only): its back is the blank paper, a white image, and its deck lies face up (nothing to hide).
``<game>.json`` is a saved object: one deck per component (``CustomDeck`` entries, ``DeckIDs``,
``ContainedObjects`` with every printed copy; ``SidewaysCard`` for a landscape component); an export of some components (``--component``)
writes ``<game>-<components>.json`` and leaves ``<game>.json`` as it was.

Image references are relative file names (``enemies-1.png``) unless ``base_url`` is given:
TTS loads images from URLs, so upload the PNGs and re-export with ``--tts-base-url``
(``https://host/path/`` or ``file:///C:/path/to/tts/``), or search-and-replace in the JSON.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from ..content.game import text_in
from ..outputs import write_atomic
from .faces import copies, record_id, record_name
from .raster import faces_pdf, png_bytes, rasterize, trim_frame
from .result import ExportResult, left_out_notes, load_checked_cards

MAX_COLS, MAX_ROWS = 10, 7
MAX_SHEET_PX = 4096
MAX_CARDS = MAX_COLS * MAX_ROWS - 1          # the last cell is the hidden-card image
DEFAULT_MAX_DPI = 300
KINDS = ("card", "tile", "token")
PAPER = (255, 255, 255)                      # the back of a single-sided print
CARD_TYPE = {"round": 4}                     # TTS CustomDeck Type: 0 rounded rectangle, 4 circle
POKER_WIDTH_MM = 63.0


def tts_grid(cells: int, card_pt: tuple[float, float] | None = None,
             max_dpi: float = DEFAULT_MAX_DPI) -> tuple[int, int]:
    """Columns x rows for ``cells`` cells (cards + the hidden cell): with ``card_pt``, the grid
    that gives the largest cells within 4096 px first (a 10 x 2 sheet of 19 crafts shrinks each
    card to 409 px where 5 x 4 keeps 733); then the fewest cells, then the fewest rows; at least
    2 x 2 (TTS's deck importer offers 2..10 x 2..7)."""
    if not 1 <= cells <= MAX_COLS * MAX_ROWS:
        raise ValueError(f"a TTS sheet holds 1..{MAX_COLS * MAX_ROWS} cells, not {cells}")
    best = None
    for rows in range(2, MAX_ROWS + 1):
        for cols in range(2, MAX_COLS + 1):
            if cols * rows >= cells:
                area = 0
                if card_pt is not None:
                    w, h = cell_px(card_pt, cols, rows, max_dpi)
                    area = w * h
                key = (-area, cols * rows, rows)
                if best is None or key < best[0]:
                    best = (key, cols, rows)
    return best[1], best[2]


def cell_px(card_pt: tuple[float, float], cols: int, rows: int, max_dpi: float) -> tuple[int, int]:
    """Cell size in pixels: the card's aspect, at most ``max_dpi``, sheet within 4096 px."""
    w_in, h_in = card_pt[0] / 72.0, card_pt[1] / 72.0
    dpi = min(max_dpi, MAX_SHEET_PX / (cols * w_in), MAX_SHEET_PX / (rows * h_in))
    return (max(1, math.floor(w_in * dpi)), max(1, math.floor(h_in * dpi)))


@dataclass
class Sheet:
    deck_id: int
    records: list                   # record indices, cell k shows records[k]
    cols: int
    rows: int
    cell: tuple[int, int]
    face_file: str = ""
    back_file: str = ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.cols * self.cell[0], self.rows * self.cell[1])


@dataclass
class Deck:
    component: object
    faces: object
    sheets: list = field(default_factory=list)
    back_file: str = ""             # shared back (UniqueBack false)


def plan_decks(cards, max_dpi: float, components=None, first_deck_id: int = 1) -> list[Deck]:
    """Which record goes on which sheet and cell, deck ids, grids and cell sizes (no drawing)."""
    decks, deck_id = [], first_deck_id
    wanted = set(components) if components else None
    for faces in cards.faces:
        component = faces.component
        if component.kind not in KINDS or (wanted is not None and component.id not in wanted):
            continue
        deck = Deck(component, faces)
        records = list(range(len(component.records)))
        for start in range(0, len(records), MAX_CARDS):
            chunk = records[start:start + MAX_CARDS]
            cols, rows = tts_grid(len(chunk) + 1, component.size_pt, max_dpi)
            deck.sheets.append(Sheet(deck_id, chunk, cols, rows, cell_px(component.size_pt, cols, rows, max_dpi)))
            deck_id += 1
        decks.append(deck)
    return decks


def _remove_stale_sheets(target: Path, decks, written: set) -> list:
    """Sheets an exported component had before but not now (a deck that got smaller, a shared back
    that became per-card backs): left behind, they would look like part of the export."""
    removed = []
    for deck in decks:
        mine = re.compile(rf"{re.escape(deck.component.id)}-(?:\d+(?:-back)?|back)\.png")
        for file in sorted(target.glob(f"{deck.component.id}-*.png")):
            if mine.fullmatch(file.name) and file not in written:
                file.unlink()
                removed.append(file)
    return removed


def export_tts(path: Path, out_dir: Path, *, max_dpi: float | None = None, base_url: str = "",
               components=None, cards_in=None, progress=None) -> ExportResult:
    """``progress(done, total)``: called after each deck drawn (a bar on a terminal)."""
    result = ExportResult()
    game, cards = load_checked_cards(path, result, cards_in)
    if cards is None:
        return result
    target = Path(out_dir) / "tts"
    lang = game.meta.get("lang", "ja")
    decks = plan_decks(cards, max_dpi or DEFAULT_MAX_DPI, components)
    for done, deck in enumerate(decks, 1):
        result.written += _render_deck(cards, deck, target)
        if progress:
            progress(done, len(decks))
    result.removed += _remove_stale_sheets(target, decks, set(result.written))
    result.notes += left_out_notes(cards, KINDS, components, "exported to TTS", "use the print PDF or a PNG export")
    saved = saved_object(game, decks, base_url, lang)
    # A partial export (--component) is a saved object of its own: <game>.json keeps every deck.
    name = "-".join([game.id, *sorted(components)]) if components else game.id
    result.written.append(write_atomic(target / f"{name}.json",
                                       json.dumps(saved, ensure_ascii=False, indent=1) + "\n"))
    if not base_url:  # file names alone: Tabletop Simulator finds no image
        result.notes.append(f"{name}.json names its images by file name, which Tabletop Simulator cannot load: upload "
                            f"{target}/*.png and export again with --tts-base-url URL of their folder (README, "
                            f"\"Tabletop Simulator\")")
    return result


def _render_deck(cards, deck: Deck, target: Path) -> list:
    component, faces = deck.component, deck.faces
    cid = component.id
    card = component.size_pt
    written = []
    shared_back = faces.backs is not None and not component.back_per_card
    if shared_back or faces.backs is None:
        largest = max((s.cell for s in deck.sheets), key=lambda c: c[0] * c[1])
        if shared_back:
            back = _render(cards, [(faces, faces.back_for(0))], card, largest)[0]
        else:
            back = Image.new("RGB", largest, PAPER)
        deck.back_file = f"{cid}-back.png"
        written.append(write_atomic(target / deck.back_file, png_bytes(back)))
    for n, sheet in enumerate(deck.sheets, start=1):
        fronts = _render(cards, [(faces, faces.fronts[i]) for i in sheet.records], card, sheet.cell)
        if faces.backs is not None:
            hidden = _render(cards, [(faces, faces.back_for(sheet.records[0]))], card, sheet.cell)[0]
        else:
            hidden = Image.new("RGB", sheet.cell, PAPER)
        sheet.face_file = f"{cid}-{n}.png"
        written.append(write_atomic(target / sheet.face_file, png_bytes(_compose(sheet, fronts, hidden))))
        if faces.backs is not None and component.back_per_card:
            backs = _render(cards, [(faces, faces.back_for(i)) for i in sheet.records], card, sheet.cell)
            sheet.back_file = f"{cid}-{n}-back.png"
            written.append(write_atomic(target / sheet.back_file, png_bytes(_compose(sheet, backs, hidden))))
        else:
            sheet.back_file = deck.back_file
    return written


def _render(cards, items, card, px):
    frame = trim_frame(card, px)
    pdf = faces_pdf(cards, [(faces, ops, frame) for faces, ops in items], title="tts cells")
    return list(rasterize(pdf, [px] * len(items)))


def _compose(sheet: Sheet, images, hidden) -> Image.Image:
    out = Image.new("RGB", sheet.size, (255, 255, 255))
    cw, ch = sheet.cell
    for k, image in enumerate(images):
        out.paste(image, ((k % sheet.cols) * cw, (k // sheet.cols) * ch))
    last = sheet.cols * sheet.rows - 1
    out.paste(hidden, ((last % sheet.cols) * cw, (last // sheet.cols) * ch))
    return out


def _guid(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]


def _transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, face_down: bool = True) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def custom_deck_entry(deck: Deck, sheet: Sheet, base_url: str) -> dict:
    return {
        "FaceURL": base_url + sheet.face_file,
        "BackURL": base_url + (sheet.back_file or deck.back_file),
        "NumWidth": sheet.cols,
        "NumHeight": sheet.rows,
        "BackIsHidden": True,
        "UniqueBack": bool(deck.faces.backs is not None and deck.component.back_per_card),
        "Type": CARD_TYPE.get(getattr(deck.component, "shape", ""), 0),
    }


def saved_object(game, decks: list[Deck], base_url: str = "", lang: str = "ja") -> dict:
    """The saved-object JSON: one deck (or single card) per component, laid out in a row."""
    if base_url and not base_url.endswith(("/", "\\")):  # a folder: https://host/pnp -> https://host/pnp/x.png
        base_url += "/"
    objects = []
    for position, deck in enumerate(decks):
        component = deck.component
        # TTS draws a card upright at a poker card's shape, a sideways one turned: either way its short
        # side is the poker card's width
        scale = round(min(component.size_pt) / 72 * 25.4 / POKER_WIDTH_MM, 3)
        # a landscape card's image is wider than tall: TTS shows it upright only as a sideways card
        sideways = {"SidewaysCard": True} if component.size_pt[0] > component.size_pt[1] else {}
        face_down = deck.faces.backs is not None  # a blank back hides nothing: show the fronts
        entries = {str(s.deck_id): custom_deck_entry(deck, s, base_url) for s in deck.sheets}
        contained, ids = [], []
        for sheet in deck.sheets:
            for cell, index in enumerate(sheet.records):
                card_id = sheet.deck_id * 100 + cell
                for copy in range(copies(component, index)):
                    ids.append(card_id)
                    contained.append({
                        "Name": "Card",
                        "GUID": _guid(f"{game.id}/{component.id}/{index}/{copy}"),
                        "Nickname": record_name(component, index, lang),
                        "Description": f"{component.id}/{record_id(component, index)}",
                        "CardID": card_id,
                        **sideways,
                        "Transform": _transform(scale=scale, face_down=face_down),
                        "CustomDeck": {str(sheet.deck_id): entries[str(sheet.deck_id)]},
                    })
        name = text_in(component.name, lang) if component.name else component.id
        x = position * 3.0 * max(1.0, scale)
        if len(contained) == 1:
            single = dict(contained[0], Transform=_transform(x, 0.0, scale, face_down))
            objects.append(single)
            continue
        objects.append({
            "Name": "DeckCustom",
            "GUID": _guid(f"{game.id}/{component.id}"),
            "Nickname": name,
            "Description": f"{game.id}/{component.id}: {len(contained)} cards",
            "Transform": _transform(x, 0.0, scale, face_down),
            **sideways,
            "DeckIDs": ids,
            "CustomDeck": entries,
            "ContainedObjects": contained,
        })
    return {
        "SaveName": text_in(game.meta["title"], lang),
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": objects,
    }
