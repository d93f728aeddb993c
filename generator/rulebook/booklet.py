"""Saddle-stitch imposition: the page order of a folded booklet, as arithmetic.

A booklet of N pages is padded with blank pages to a multiple of 4 (T pages). Sheet s
(0-based) carries four pages: on its front, left T-1-2s and right 2s; on its back, left
2s+1 and right T-2-2s (0-based page indexes). Stack the printed sheets in order, fold them
in the middle, and the pages read 1..T. Sheets are printed duplex, flipped on the **short
edge** (the fold is vertical on a landscape sheet).
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, landscape


@dataclass(frozen=True)
class Slot:
    page: int | None               # 0-based page index, None for a blank
    x: float
    y: float
    scale: float


@dataclass(frozen=True)
class Sheet:
    size: tuple
    slots: tuple
    fold_mark: bool = True


def padded(n_pages: int) -> int:
    return max(4, (n_pages + 3) // 4 * 4)


def saddle_sides(n_pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page indexes of each printed side, in printing order (front, back, ...)."""
    total = padded(n_pages)
    sides = []
    for s in range(total // 4):
        for left, right in ((total - 1 - 2 * s, 2 * s), (2 * s + 1, total - 2 - 2 * s)):
            sides.append((left if left < n_pages else None, right if right < n_pages else None))
    return sides


def reading_order(sides: list) -> list:
    """Undo the imposition (fold the stack): the page indexes in reading order (a test oracle)."""
    sheets = [(sides[i], sides[i + 1]) for i in range(0, len(sides), 2)]
    first_half, second_half = [], []
    for (f_left, f_right), (b_left, b_right) in sheets:
        first_half += [f_right, b_left]
        second_half = [b_right, f_left] + second_half
    return first_half + second_half


def sheet_for(paper: tuple) -> tuple:
    """The booklet sheet of a profile's ``paper`` (either orientation): the same paper, landscape
    (the fold is vertical)."""
    return (max(paper), min(paper))


def booklet_sheets(n_pages: int, page_size: tuple, sheet_size: tuple = landscape(A4)) -> list[Sheet]:
    """Two pages side by side on each landscape sheet, scaled to fit a half, centred."""
    pw, ph = page_size
    sw, sh = sheet_for(sheet_size)
    half = sw / 2
    scale = min(half / pw, sh / ph, 1.0)
    w, h = pw * scale, ph * scale
    y = (sh - h) / 2
    sheets = []
    for left, right in saddle_sides(n_pages):
        slots = (Slot(left, half - w, y, scale), Slot(right, half, y, scale))
        sheets.append(Sheet((sw, sh), slots))
    return sheets
