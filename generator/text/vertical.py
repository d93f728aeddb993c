"""Vertical Japanese text (縦書き): columns read top to bottom, the first at the right.

The columns are broken by the same kinsoku rules as horizontal lines (:mod:`generator.text.kinsoku`),
on the column's height; the fit policy (shrink, then count what overflows) is
:func:`generator.text.layout.layout_tokens`'s. What changes is how a character sits in its column:

- full-width characters (kana, kanji, full-width letters and signs) stand **upright**, one em each;
- ``、。，．`` use the font's vertical presentation forms (U+FE10–FE12, drawn in the top-right
  quadrant of the cell) or, when the font lacks them, the horizontal glyph moved there;
- small kana move a little toward the top-right;
- brackets, long-vowel marks, dashes and ellipses use their vertical presentation forms
  (U+FE30–FE4F, U+FE19) when the font has them, else turn 90° clockwise;
- half-width Latin letters, words and numbers turn 90° clockwise (sideways), kept whole;
- one or two ASCII digits, optionally signed (``12``, ``+2``), stand upright side by side in one
  em (縦中横, tate-chu-yoko), squeezed horizontally when wider than the em;
- an inline icon stands upright in a cell of its own size.

Coordinates: points; a column's ``x`` is its centre line, from the box's left edge; ``y`` and a
cell's ``y`` go *down*, from the box's top and from the column's top.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar, Literal

from generator.fonts import FontSet
from generator.text.kinsoku import (EPS, WORD, WrappedLine, overfull_atoms, paragraph_atoms, wrap_atoms,
                                   wrapped_cut_words)
from generator.text.layout import cut_word_problems, glyph_problems, text_width
from generator.text.markup import Icon

__all__ = ["Cell", "Column", "VerticalBlock", "layout_columns", "VERTICAL_FORMS", "TCY"]

#: The atom kind of a tate-chu-yoko run (breaks like a CJK character: never inside).
TCY = "tcy"
_TCY_RUN = re.compile(r"[+-]?[0-9]{1,2}")

#: Vertical presentation forms, used when the font has the glyph.
VERTICAL_FORMS = {
    "，": "\ufe10", "、": "\ufe11", "。": "\ufe12", "…": "\ufe19", "‥": "\ufe30", "—": "\ufe31",
    "–": "\ufe32", "（": "\ufe35", "）": "\ufe36", "｛": "\ufe37", "｝": "\ufe38", "〔": "\ufe39",
    "〕": "\ufe3a", "【": "\ufe3b", "】": "\ufe3c", "《": "\ufe3d", "》": "\ufe3e", "〈": "\ufe3f",
    "〉": "\ufe40", "「": "\ufe41", "」": "\ufe42", "『": "\ufe43", "』": "\ufe44", "［": "\ufe47",
    "］": "\ufe48", "〖": "\ufe17", "〗": "\ufe18",
}
#: Punctuation set in the top-right quadrant when the font has no vertical form.
_CORNER_PUNCTUATION = frozenset("、。，．")
#: How far (em) such punctuation moves right and up: the distance between IPAexGothic's 、 and ︑.
CORNER_SHIFT = 0.65
_SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ")
#: How far (em) small kana move right and up, as vertical fonts draw them.
SMALL_KANA_SHIFT = 0.1
#: Full-width characters turned 90° clockwise when the font has no vertical form.
_TURNED = frozenset("「」『』（）【】〈〉《》［］｛｝〔〕〖〗ー〜…‥—–―～")


@dataclass(frozen=True)
class Cell:
    """One placed piece of a column.

    ``kind``: ``"upright"`` (one character), ``"turned"`` (90° clockwise: a Latin run or a
    character without a vertical form), ``"tcy"`` (digits side by side, squeezed by ``squeeze``)
    or ``"icon"`` (``name``). ``text`` is the source text, ``glyphs`` what is drawn (a vertical
    presentation form may replace it). ``dx``/``dy`` move an upright glyph right/down (em × size).
    """

    kind: Literal["upright", "turned", "tcy", "icon"]
    y: float  # top of the cell, down from the column's top
    advance: float  # length down the column
    text: str = ""
    glyphs: str = ""
    bold: bool = False
    dx: float = 0.0
    dy: float = 0.0
    squeeze: float = 1.0
    name: str = ""


@dataclass(frozen=True)
class Column:
    x: float  # centre line, from the box's left edge
    y: float  # top of the first cell, down from the box's top
    length: float
    cells: tuple[Cell, ...]
    overflows: bool = False  # (partly) left of the box
    ends_paragraph: bool = True


@dataclass(frozen=True)
class VerticalBlock:
    """Vertical text laid out in a box; the fit fields mean what they mean on a horizontal
    :class:`~generator.text.layout.TextBlock`, a line being a column."""

    direction: ClassVar[str] = "vertical"
    size: float
    leading_pt: float  # from one column's centre to the next
    columns: list[Column]
    overflow_lines: int  # columns that do not fit the width
    unknown_icons: list[str]
    missing_glyphs: set[str]
    fits: bool
    width_used: float  # from the right of the first column to the left of the last
    width: float = 0.0
    height: float = 0.0
    forced_breaks: int = 0
    overfull_lines: int = 0  # columns longer than the box (one piece longer than the column)
    shrunk: bool = False
    requested_size: float = 0.0
    problems: list[str] = field(default_factory=list)
    cut_words: tuple[str, ...] = ()  # Latin words longer than the column, cut mid-word
    overfull: tuple[tuple[str, float], ...] = ()  # (glyph 'X' / icon ':name:', its length) longer than the column

    @property
    def text(self) -> str:
        """The laid-out text, columns joined with newlines (icons as ``:name:``)."""
        return "\n".join("".join(c.text if c.kind != "icon" else f":{c.name}:" for c in column.cells)
                         for column in self.columns)


def layout_columns(tokens, fonts: FontSet, size, width, height, leading, align, valign, icon_scale,
                   unknown, missing, requested) -> VerticalBlock:
    """Lay out prepared tokens at one size (``layout_tokens`` applies the fit policy).

    ``align`` places text within a column (left/center/right: top/middle/bottom), ``valign`` the
    block of columns within the box (top/middle/bottom: right/centre/left), as they would turn with
    the text."""
    icon_size = size * icon_scale
    has_icons = any(isinstance(tok, Icon) for tok in tokens)
    thickness = max(size, icon_size) if has_icons else size
    lead = size * leading
    wrapped = _wrap_columns(tokens, fonts, size, height, icon_size)

    n = len(wrapped.lines)
    fit_count = 0 if width + EPS < thickness else min(n, int((width + EPS - thickness) / lead + 1e-9) + 1)
    overflow = n - fit_count
    used = thickness + (n - 1) * lead if n else 0.0
    free = width - used if overflow == 0 else 0.0
    first_x = width - thickness / 2 - {"top": 0.0, "middle": free / 2, "bottom": free}[valign]

    columns = [_column(wl, first_x - k * lead, height, align, fonts, size, k >= fit_count)
               for k, wl in enumerate(wrapped.lines)]
    overfull = wrapped.overfull_lines
    overfull_pieces = tuple(overfull_atoms(wrapped.lines))
    cut = tuple(wrapped_cut_words(wrapped.lines)) if wrapped.forced_breaks else ()
    problems = []
    if overflow:
        problems.append(f"{overflow} column(s) do not fit (text at {size:g}pt needs {used:.2f}pt, "
                        f"box is {width:.2f}pt wide)")
    if overfull:
        problems.append(f"{overfull} column(s) longer than the box (a glyph or icon longer than {height:.2f}pt)")
    problems.extend(cut_word_problems(cut, "height", height, size))
    problems.extend(glyph_problems(unknown, missing))
    return VerticalBlock(
        size=size, leading_pt=lead, columns=columns, overflow_lines=overflow, unknown_icons=list(unknown),
        missing_glyphs=set(missing), fits=overflow == 0 and overfull == 0 and not cut, width_used=used, width=width,
        height=height, forced_breaks=wrapped.forced_breaks, overfull_lines=overfull,
        shrunk=size < requested - 1e-9, requested_size=requested, problems=problems, cut_words=cut,
        overfull=overfull_pieces,
    )


def _wrap_columns(tokens, fonts: FontSet, size, height, icon_size):
    """Kinsoku breaking on the column height, each atom measured by its advance down the column."""
    paragraphs = [_merge_tcy(atoms) for atoms in paragraph_atoms(tokens)] if tokens else []
    for atoms in paragraphs:
        for atom in atoms:
            if isinstance(atom.token, Icon):
                atom.width = icon_size
            elif atom.kind == TCY or _upright(atom.text[0]):
                atom.width = size
            else:  # turned sideways: its horizontal width runs down the column
                atom.width = float(text_width(atom.text, fonts.font_for(atom.token.bold), size))
    return wrap_atoms(paragraphs, height)


def _merge_tcy(atoms: list) -> list:
    """Each whole word of one or two digits (``12``, ``+2``) made one atom of kind :data:`TCY`."""
    out, k, n = [], 0, len(atoms)
    while k < n:
        end = k
        while end < n and atoms[end].kind == WORD:
            end += 1
        if end == k:
            out.append(atoms[k])
            k += 1
            continue
        run = atoms[k:end]
        text = "".join(a.text for a in run)
        if _TCY_RUN.fullmatch(text) and all(a.token.bold == run[0].token.bold for a in run):
            first = run[0]
            first.kind, first.text = TCY, text
            out.append(first)
        else:
            out.extend(run)
        k = end
    return out


@lru_cache(maxsize=4096)
def _upright(ch: str) -> bool:
    """Full-width and wide characters stand upright; narrow ones (Latin, ASCII) turn sideways."""
    if ch in _TURNED:
        return True  # measured as one em: a vertical form or a turned full-width glyph
    eaw = unicodedata.east_asian_width(ch)
    return eaw in ("W", "F", "H") or (eaw == "A" and ord(ch) >= 0x2000)


def _column(wl: WrappedLine, x, height, align, fonts: FontSet, size, overflows) -> Column:
    cells: list[Cell] = []
    y = 0.0
    for piece in wl.pieces:
        tok = piece.token
        if isinstance(tok, Icon):
            cells.append(Cell("icon", y, piece.width, name=tok.name))
        elif piece.kind == TCY:
            natural = text_width(tok.text, fonts.font_for(tok.bold), size)
            cells.append(Cell("tcy", y, piece.width, tok.text, tok.text, tok.bold,
                              squeeze=min(1.0, size / natural) if natural else 1.0))
        elif not _upright(tok.text[0]):  # Latin, ASCII digits and spaces
            last = cells[-1] if cells else None
            if last is not None and last.kind == "turned" and last.bold == tok.bold and last.text[-1] not in _TURNED:
                cells[-1] = Cell("turned", last.y, last.advance + piece.width, last.text + tok.text,
                                 last.glyphs + tok.text, tok.bold)  # a Latin word is one sideways run
            else:
                cells.append(Cell("turned", y, piece.width, tok.text, tok.text, tok.bold))
        else:
            cells.append(_upright_cell(tok.text, tok.bold, y, piece.width, fonts, size))
        y += piece.width
    free = height - y
    top = 0.0 if free <= 0 else {"left": 0.0, "center": free / 2, "right": free}[align]
    return Column(x, top, y, tuple(cells), overflows, wl.ends_paragraph)


def _upright_cell(text: str, bold: bool, y: float, advance: float, fonts: FontSet, size) -> Cell:
    """A full-width character in its vertical position: a presentation form if the font has one,
    else moved (corner punctuation, small kana) or turned (brackets, dashes)."""
    ch = text[0]
    form = VERTICAL_FORMS.get(ch)
    if form is not None and fonts.has_glyph(form, bold):
        return Cell("upright", y, advance, text, form + text[1:], bold)
    if ch in _CORNER_PUNCTUATION:
        shift = CORNER_SHIFT * size
        return Cell("upright", y, advance, text, text, bold, dx=shift, dy=-shift)
    if ch in _SMALL_KANA:
        shift = SMALL_KANA_SHIFT * size
        return Cell("upright", y, advance, text, text, bold, dx=shift, dy=-shift)
    if ch in _TURNED:
        return Cell("turned", y, advance, text, text, bold)
    return Cell("upright", y, advance, text, text, bold)
