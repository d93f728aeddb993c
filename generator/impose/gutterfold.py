"""Gutterfold: fronts and backs on one side of the sheet, folded along a line, glued, then cut.

Single-sided printing, no duplex registration. Geometry as numbers (``impose_gutterfold``)
and drawing through a callback (``render_gutterfold``), like sheet imposition.

- **Vertical fold** (landscape sheet): the fold is the vertical middle line; fronts fill the
  left half, each back sits at the column mirrored about the fold, upright.
- **Horizontal fold** (portrait sheet): the fold is the horizontal middle line; fronts fill
  the top half, each back sits at the row mirrored about the fold, turned 180°.

A card turned 90° to fit more per half gets its back turned 270° (vertical fold) or 90°
(horizontal fold). The rule behind all four cases, checked by a paper-model test: after
folding, the back's point ``(u, v)`` (card frame, y up) lies on the front's point
``(card_w - u, v)``; that is, the finished card turned over about its own vertical axis
shows its back upright. Every bleed box keeps ``FOLD_GAP`` (5 mm) or more from the fold.

::

     vertical fold (landscape)              horizontal fold (portrait)
    ┌──────────┬┬──────────┐              ┌──────────────────────┐
    │ [A] [B]  ┆┆  [B] [A] │              │   [A]  [B]  [C]      │  fronts
    │ [C] [D]  ┆┆  [D] [C] │              ├┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┤  fold
    └──────────┴┴──────────┘              │   [C'] [B'] [A']     │  backs, 180°
      fronts  fold  backs                 └──────────────────────┘
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .duplex import turned_over
from .errors import ImposeError
from .marks import crop_marks, cut_lines, footer_box
from .page import Mark, TrimGeometry
from .profile import Profile
from .render import _draw_lines, draw_label
from .sheet import Grid, best_fit
from .sizes import fmt_mm, mm

FOLDS = ("vertical", "horizontal")
FOLD_GAP = mm(5)          # fold line to the nearest bleed edge, at least (shared/PRINT.md)
FOLD_LINE_WIDTH = 0.5
FOLD_DASH = (6, 3)


@dataclass(frozen=True)
class FoldSlot(TrimGeometry):
    """One face on a gutterfold sheet (PDF points, page origin lower-left).

    ``x, y, w, h`` is the trim box as the card lies on the page; ``rotation`` (0, 90, 180
    or 270, counter-clockwise) turns the card's upright frame of ``card_size`` onto it.
    ``bleed_box`` is where the face may paint (clipped toward neighbours, as in a sheet).
    Duck-types ``Slot`` for the crop-mark and cut-line arithmetic.
    """

    index: int
    side: str                 # "front" | "back"
    x: float
    y: float
    w: float
    h: float
    rotation: int
    bleed: float
    bleed_box: tuple[float, float, float, float]

    @property
    def card_size(self) -> tuple[float, float]:
        return (self.h, self.w) if self.rotation in (90, 270) else (self.w, self.h)


@dataclass(frozen=True)
class FoldPage:
    number: int
    fold: str
    slots: tuple[FoldSlot, ...]          # fronts then backs
    fold_line: Mark
    marks: tuple[Mark, ...]
    cut_lines: tuple[Mark, ...]
    page_size: tuple[float, float]
    footer: tuple[float, float, float, float] | None
    mark_width: float

    @property
    def fronts(self) -> tuple[FoldSlot, ...]:
        return tuple(s for s in self.slots if s.side == "front")

    @property
    def backs(self) -> tuple[FoldSlot, ...]:
        return tuple(s for s in self.slots if s.side == "back")


@dataclass(frozen=True)
class FoldPlan:
    fold: str
    page_size: tuple[float, float]
    fold_at: float                       # x of a vertical fold, y of a horizontal one
    grid: Grid                           # the fronts' grid

    @property
    def per_sheet(self) -> int:
        return self.grid.per_sheet


def fold_paper(paper: tuple[float, float], fold: str) -> tuple[float, float]:
    """The sheet turned for the fold: landscape for a vertical fold, portrait for a horizontal one."""
    short, long_ = sorted(paper)
    return (long_, short) if fold == "vertical" else (short, long_)


def fold_point(fold: str, at: float):
    """The page map of folding about the line at ``at``: sends a point of one half onto the other."""
    if fold == "vertical":
        return lambda x, y: (2 * at - x, y)
    return lambda x, y: (x, 2 * at - y)


def back_rotation(fold: str, front_rotation: int) -> int:
    """How the back is turned on the page so that it reads upright once folded and turned over."""
    return turned_over("x" if fold == "vertical" else "y", front_rotation)


def plan_gutterfold(card_w: float, card_h: float, profile: Profile, fold: str = "vertical",
                    gap: float = FOLD_GAP) -> FoldPlan:
    """The fronts' grid in their half of the sheet; upright wins ties, 90° only if it fits more."""
    if fold not in FOLDS:
        raise ImposeError(f"expected a fold of {' or '.join(FOLDS)}, got {fold!r}", "fold")
    if not (card_w > 0 and card_h > 0):
        raise ImposeError(f"expected a positive card size, got {fmt_mm(card_w)}x{fmt_mm(card_h)} mm")
    pw, ph = fold_paper(profile.paper, fold)
    m, b, g = profile.margin, profile.bleed, profile.gutter
    if fold == "vertical":
        at = pw / 2
        region = (m, m, at - gap, ph - m)            # x0, y0, x1, y1 the fronts' bleed may use
    else:
        at = ph / 2
        region = (m, at + gap, pw - m, ph - m)
    aw, ah = region[2] - region[0], region[3] - region[1]
    best = best_fit(aw, ah, card_w, card_h, profile)
    if best is None:
        raise ImposeError(
            f"card {fmt_mm(card_w)}x{fmt_mm(card_h)} mm with its {fmt_mm(b)} mm bleed does not fit in"
            f" half a sheet for a {fold} fold: {fmt_mm(aw)}x{fmt_mm(ah)} mm is left after the"
            f" {fmt_mm(m)} mm margin and {fmt_mm(gap)} mm from the fold")
    rotated, cols, rows, cw, ch = best
    grid_w, grid_h = cols * cw + (cols - 1) * g, rows * ch + (rows - 1) * g
    origin = (region[0] + (aw - grid_w) / 2, region[1] + (ah - grid_h) / 2)
    grid = Grid(cols, rows, rotated, origin, (cw + g, ch + g), (cw, ch), b, g)
    return FoldPlan(fold, (pw, ph), at, grid)


def _mirror(slot: FoldSlot, plan: FoldPlan) -> FoldSlot:
    bx0, by0, bx1, by1 = slot.bleed_box
    at = plan.fold_at
    rotation = back_rotation(plan.fold, slot.rotation)
    if plan.fold == "vertical":
        return FoldSlot(slot.index, "back", 2 * at - slot.x - slot.w, slot.y, slot.w, slot.h, rotation,
                        slot.bleed, (2 * at - bx1, by0, 2 * at - bx0, by1))
    return FoldSlot(slot.index, "back", slot.x, 2 * at - slot.y - slot.h, slot.w, slot.h, rotation,
                    slot.bleed, (bx0, 2 * at - by1, bx1, 2 * at - by0))


def impose_gutterfold(n_cards: int, card_w: float, card_h: float, profile: Profile,
                      fold: str = "vertical", with_backs: bool = True,
                      gap: float = FOLD_GAP) -> list[FoldPage]:
    """Pages for cards ``0 .. n_cards-1``: fronts in reading order, each back mirrored about the fold.

    ``profile`` gives paper, margin, bleed, gutter and marks; its orientation and duplex
    mode are ignored (the fold decides the orientation; nothing is printed on the reverse).
    """
    if n_cards < 0:
        raise ImposeError(f"expected a card count >= 0, got {n_cards}")
    plan = plan_gutterfold(card_w, card_h, profile, fold, gap)
    grid, per = plan.grid, plan.per_sheet
    pw, ph = plan.page_size
    m = profile.margin
    line = Mark(plan.fold_at, m, plan.fold_at, ph - m) if fold == "vertical" else \
        Mark(m, plan.fold_at, pw - m, plan.fold_at)
    # crop marks and cut lines are computed on a profile with the fold's paper
    sheet_profile = _with_paper(profile, plan.page_size)
    pages = []
    for number, start in enumerate(range(0, n_cards, per), start=1):
        count = min(per, n_cards - start)
        fronts = []
        for k in range(count):
            s = grid.slot(start + k, k, count)
            fronts.append(FoldSlot(s.index, "front", s.x, s.y, s.w, s.h, 90 if grid.rotated else 0,
                                   s.bleed, s.bleed_box))
        backs = [_mirror(s, plan) for s in fronts] if with_backs else []
        slots = tuple(fronts + backs)
        marks = crop_marks(slots, sheet_profile) if profile.crop_marks else ()
        cuts = cut_lines(slots, sheet_profile) if profile.cut_lines else ()
        footer = footer_box(slots, marks + cuts + (line,), sheet_profile)
        pages.append(FoldPage(number, fold, slots, line, marks, cuts, plan.page_size, footer,
                              profile.mark_width))
    return pages


def _with_paper(profile: Profile, paper: tuple[float, float]) -> Profile:
    from dataclasses import replace
    return replace(profile, paper=paper, duplex="none", back_offset=(0.0, 0.0), print_shop=False)


DrawFace = Callable[[object, int, str], None]


def render_gutterfold(canvas, pages: list[FoldPage], draw_face: DrawFace, *, font_name: str,
                      label=None) -> None:
    """Draw gutterfold pages: faces (clipped to their bleed boxes), marks, the dashed fold line
    and a footer. ``draw_face(canvas, index, side)`` draws one card upright in its own frame."""
    total = len(pages)
    for page in pages:
        canvas.setPageSize(page.page_size)
        canvas.setTrimBox(None)
        canvas.setBleedBox(None)
        for slot in page.slots:
            _draw_slot(canvas, slot, draw_face)
        _draw_lines(canvas, page.marks + page.cut_lines, page.mark_width)
        _draw_fold(canvas, page.fold_line)
        text = label(page, total) if callable(label) else \
            f"{label + ' · ' if label else ''}{page.number}/{total} · fold on the dashed line, glue, then cut"
        if text and page.footer:
            draw_label(canvas, page.footer, text, font_name)
        canvas.showPage()


def _draw_slot(canvas, slot: FoldSlot, draw_face: DrawFace) -> None:
    canvas.saveState()
    x0, y0, x1, y1 = slot.bleed_box
    path = canvas.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    canvas.clipPath(path, stroke=0, fill=0)
    ox, oy = slot.to_page(0, 0)
    canvas.translate(ox, oy)
    canvas.rotate(slot.rotation)
    draw_face(canvas, slot.index, slot.side)
    canvas.restoreState()


def _draw_fold(canvas, line: Mark) -> None:
    canvas.saveState()
    canvas.setStrokeColorCMYK(0, 0, 0, 0.6)
    canvas.setLineWidth(FOLD_LINE_WIDTH)
    canvas.setDash(*FOLD_DASH)
    canvas.line(line.x0, line.y0, line.x1, line.y1)
    canvas.restoreState()
