"""Board tiling as geometry: a board larger than the paper split over several pages.

Board coordinates are PDF points with the origin at the board's lower-left
corner. Tiles are named like a spreadsheet, read like a page: rows A, B, ...
from the top, columns 1, 2, ... from the left (A1 is the top-left tile).

All tiles have the same size, at most the printable area (paper minus
margins), and are centred on their page. Neighbouring tiles share a strip
``overlap`` wide. Assembly: every tile is trimmed along its right and bottom edges (where
a neighbour follows) and laid on top of the next tile's strip; the strip is
glued under it. So the strip at a tile's left and top is glue area, and what
stays visible of each tile (``visible``) partitions the board::

        A1 (top, on top)      A2
      ┌──────────────────┬─┬────────────┐
      │                  │:│            │   ':' = A2's glue strip, under A1;
      │     visible      │:│  visible   │   A1's cut right edge lands on
      │                  │:│            │   A2's dashed line
      ├─ ─ ─ ─ ─ ─ ─ ─ ─ ┼─┼ ─ ─ ─ ─ ─ ─┤   ← B1/B2's glue strips, under row A
      │  B1              │:│  B2        │
      └──────────────────┴─┴────────────┘

Alignment crosses sit at the corners of the visible regions on every seam;
each is printed on every tile that contains it, so A1's trimmed edge and A2's
crosses line up.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import ImposeError
from .page import Mark
from .sizes import fmt_mm
from .wording import tile_caption

_EPS = 1e-6
Rect = tuple[float, float, float, float]     # x, y, w, h
Point = tuple[float, float]


def row_letter(row: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    text = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board.

    ``src`` and ``visible`` are board rectangles ``(x, y, w, h)``; ``placement``
    is where ``src`` lands on the page (same size). ``glue_lines`` (dashed: the
    neighbour's edge goes here), ``cut_edges`` (trim here) and ``crosses``
    (alignment cross centres) are in page coordinates.
    """

    label: str
    col: int
    row: int
    src: Rect
    placement: Rect
    visible: Rect
    glue_lines: tuple[Mark, ...]
    cut_edges: tuple[Mark, ...]
    crosses: tuple[Point, ...]
    glue_under: tuple[tuple[str, str], ...]     # (neighbour label, its edge): ("A1", "right")

    def to_page(self, x: float, y: float) -> Point:
        return (x - self.src[0] + self.placement[0], y - self.src[1] + self.placement[1])

    def to_board(self, x: float, y: float) -> Point:
        return (x - self.placement[0] + self.src[0], y - self.placement[1] + self.src[1])

    @property
    def caption(self) -> str:
        """``"A2 — row A, column 2 · glue under A1's right edge"`` (``caption_in`` for a language)."""
        return self.caption_in("en")

    def caption_in(self, lang: str | None) -> str:
        return tile_caption(self, row_letter(self.row), lang)


@dataclass(frozen=True)
class TilePlan:
    """All tiles of one board, in reading order (A1, A2, ..., B1, ...)."""

    board: tuple[float, float]
    page_size: tuple[float, float]
    margin: float
    overlap: float
    cols: int
    rows: int
    tiles: tuple[Tile, ...]
    crosses: tuple[Point, ...]          # board coordinates

    @property
    def landscape(self) -> bool:
        return self.page_size[0] > self.page_size[1]

    def tile(self, label: str) -> Tile:
        for tile in self.tiles:
            if tile.label == label:
                return tile
        raise KeyError(label)


def _count(length: float, avail: float, overlap: float) -> int | None:
    if length <= avail + _EPS:
        return 1
    if avail - overlap <= _EPS:
        return None
    return math.ceil((length - overlap) / (avail - overlap) - _EPS)


def plan_tiles(board_w: float, board_h: float, paper_w: float, paper_h: float,
               margin: float, overlap: float) -> TilePlan:
    """Split a ``board_w`` x ``board_h`` board into overlapping page tiles.

    Tries the paper both ways round and keeps the one needing fewer pages
    (then fewer seams, then the orientation given). Raises ``ImposeError`` for
    impossible sizes.
    """
    if not (board_w > 0 and board_h > 0):
        raise ImposeError(f"expected a positive board size, got {fmt_mm(board_w)}x{fmt_mm(board_h)} mm")
    if not (paper_w > 0 and paper_h > 0) or margin < 0 or 2 * margin >= min(paper_w, paper_h):
        raise ImposeError(f"{fmt_mm(margin)} mm margins leave nothing printable on a"
                          f" {fmt_mm(paper_w)}x{fmt_mm(paper_h)} mm sheet", "margin")
    if overlap < 0:
        raise ImposeError(f"expected an overlap >= 0, got {fmt_mm(overlap)} mm", "overlap")
    best = None
    for pw, ph in ((paper_w, paper_h), (paper_h, paper_w)):
        cols = _count(board_w, pw - 2 * margin, overlap)
        rows = _count(board_h, ph - 2 * margin, overlap)
        if cols and rows:
            key = (cols * rows, cols + rows)
            if best is None or key < best[0]:
                best = (key, pw, ph, cols, rows)
    if best is None:
        raise ImposeError(f"a {fmt_mm(overlap)} mm overlap leaves no room on a page of"
                          f" {fmt_mm(paper_w - 2 * margin)}x{fmt_mm(paper_h - 2 * margin)} mm",
                          "overlap")
    _, pw, ph, cols, rows = best
    return _layout(board_w, board_h, pw, ph, margin, overlap, cols, rows)


def _layout(board_w, board_h, pw, ph, margin, overlap, cols, rows) -> TilePlan:
    # equal tiles: no sliver of a last tile; each at most the printable area
    tw = min(pw - 2 * margin, (board_w + (cols - 1) * overlap) / cols)
    th = min(ph - 2 * margin, (board_h + (rows - 1) * overlap) / rows)
    step_x, step_y = tw - overlap, th - overlap
    seams_x = [c * step_x + overlap for c in range(1, cols)]
    seams_y = [board_h - (r * step_y + overlap) for r in range(1, rows)]
    frames = []
    for row in range(rows):
        for col in range(cols):
            x, top = col * step_x, row * step_y
            w, h = min(tw, board_w - x), min(th, board_h - top)
            src = (x, board_h - top - h, w, h)
            vis_x = x + (overlap if col else 0.0)
            vis_top = top + (overlap if row else 0.0)
            visible = (vis_x, src[1], x + w - vis_x, board_h - vis_top - src[1])
            frames.append((col, row, src, visible))
    corners = {(round(vx, 6), round(vy, 6))
               for _, _, _, (x, y, w, h) in frames for vx in (x, x + w) for vy in (y, y + h)}
    crosses = tuple(sorted((x, y) for x, y in corners
                           if any(abs(x - s) < 1e-4 for s in seams_x)
                           or any(abs(y - s) < 1e-4 for s in seams_y)))
    tiles = tuple(_tile(col, row, src, visible, (pw, ph), margin, overlap, cols, rows, crosses)
                  for col, row, src, visible in frames)
    return TilePlan((board_w, board_h), (pw, ph), margin, overlap, cols, rows, tiles, crosses)


def _tile(col, row, src, visible, page, margin, overlap, cols, rows, crosses) -> Tile:
    x, y, w, h = src
    placement = ((page[0] - w) / 2, (page[1] - h) / 2, w, h)
    px, py = placement[0], placement[1]
    glue, cuts, under = [], [], []
    if col:
        glue.append(Mark(px + overlap, py, px + overlap, py + h))
        under.append((f"{row_letter(row)}{col}", "right"))
    if row:
        glue.append(Mark(px, py + h - overlap, px + w, py + h - overlap))
        under.append((f"{row_letter(row - 1)}{col + 1}", "bottom"))
    if col < cols - 1:
        cuts.append(Mark(px + w, py, px + w, py + h))
    if row < rows - 1:
        cuts.append(Mark(px, py, px + w, py))
    inside = tuple((cx - x + px, cy - y + py) for cx, cy in crosses
                   if x - _EPS <= cx <= x + w + _EPS and y - _EPS <= cy <= y + h + _EPS)
    return Tile(f"{row_letter(row)}{col + 1}", col, row, src, placement, visible,
                tuple(glue), tuple(cuts), inside, tuple(under))
