"""Imposition as geometry: which card goes where on which printer sheet.

Nothing here draws. ``plan_grid`` fits a grid of cards on the paper,
``impose`` turns a run of n cards into pages of ``Slot``s with crop marks, cut
lines and duplex backs, all as numbers (PDF points, origin at the page's
lower-left corner), so every rule is tested as arithmetic. ``render.py`` draws
the result.

The data classes (Slot, Mark, SheetPage) live in ``page.py``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .duplex import back_slots
from .errors import ImposeError
from .marks import MIN_FIT_MARK, crop_marks, cut_lines, footer_boxes
from .page import SheetPage, Slot
from .profile import Profile
from .sizes import fmt_mm, paper_name

EPS = 1e-6


@dataclass(frozen=True)
class Grid:
    """Cards in ``cols`` x ``rows``, centred on the paper.

    ``origin`` is the lower-left trim corner of the bottom-left cell, ``pitch``
    the step from one cell's trim corner to the next (``cell + gutter``), ``cell``
    the trim size as the card lies on the page. Row 0 is the top row.
    """

    cols: int
    rows: int
    rotated: bool
    origin: tuple[float, float]
    pitch: tuple[float, float]
    cell: tuple[float, float]
    bleed: float
    gutter: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def trim_corner(self, col: int, row: int) -> tuple[float, float]:
        """Lower-left trim corner of the cell in column ``col``, row ``row`` (0 = top)."""
        return (self.origin[0] + col * self.pitch[0],
                self.origin[1] + (self.rows - 1 - row) * self.pitch[1])

    def slot(self, index: int, position: int, count: int | None = None) -> Slot:
        """The slot of card ``index`` at ``position`` (reading order) on a sheet of ``count`` cards.

        Toward an occupied neighbour the bleed is clipped to half the gutter;
        toward the grid's outside or an empty cell it is the full bleed, except
        that the last card of a partial lower row keeps half the gutter on its
        right (the card above-right already bleeds down into that corner).
        """
        count = self.per_sheet if count is None else count
        col, row = position % self.cols, position // self.cols
        x, y = self.trim_corner(col, row)
        w, h = self.cell
        inner = min(self.bleed, self.gutter / 2)
        has_right = col < self.cols - 1 and (position + 1 < count or row > 0)
        has_below = row < self.rows - 1 and position + self.cols < count
        left = inner if col > 0 else self.bleed
        right = inner if has_right else self.bleed
        top = inner if row > 0 else self.bleed
        bottom = inner if has_below else self.bleed
        box = (x - left, y - bottom, x + w + right, y + h + top)
        return Slot(index, x, y, w, h, self.rotated, self.bleed, bleed_box=box)


def round_piece_profile(profile: Profile, reach: float) -> Profile:
    """The profile a round piece is imposed with when it paints ``reach`` past its trim (a bleed disc,
    ``layout.reach``): a gutter of twice that (up to the bleed), so that toward a neighbour, where the
    slot's bleed is half the gutter, the disc keeps its whole bleed instead of being clipped flat. Two
    circles share no cut line, so the room costs no cut; a piece that reaches no further than half the
    profile's gutter (a token whose square background is its bleed) is imposed as before."""
    needed = 2 * min(reach, profile.bleed)
    return replace(profile, gutter=needed) if needed > profile.gutter + EPS else profile


def _count(avail: float, cell: float, bleed: float, gutter: float, room: float = 0.0) -> int:
    """How many cells of trim ``cell`` fit in ``avail`` with outer bleed (and ``room`` beyond it
    on both sides) and gutters."""
    return max(0, math.floor((avail - 2 * (bleed + room) + gutter) / (cell + gutter) + EPS))


def mark_room(profile: Profile) -> float:
    """What the auto-fit keeps clear beyond the outer bleed on every side of the grid:
    ``crop_mark_room``, unless the profile asks for ``fit: tightest`` (then 0)."""
    return 0.0 if profile.fit == "tightest" else crop_mark_room(profile)


def crop_mark_room(profile: Profile) -> float:
    """The crop marks' offset past the bleed and ``min(mark_length, MIN_FIT_MARK)`` of mark when
    ``crop_marks`` is on, else 0: the least room beyond a bleed box in which every mark prints."""
    if not profile.crop_marks:
        return 0.0
    offset = max(profile.mark_offset, profile.bleed)
    return offset - profile.bleed + min(profile.mark_length, MIN_FIT_MARK)


def best_fit(aw: float, ah: float, card_w: float, card_h: float, profile: Profile):
    """``(rotated, cols, rows, cell w, cell h)`` holding the most cards in ``aw`` x ``ah`` with the
    profile's bleed and gutter, turned 90° only if that fits more (and ``allow_rotate``); None if
    not one card fits.

    The grid leaves ``mark_room`` around it so that every crop mark prints, even if that
    fits fewer cards; only a card that fits no other way gets a grid without that room (its
    marks are shortened or left out, see ``marks.crop_marks``)."""
    room = mark_room(profile)
    best = _best_fit(aw, ah, card_w, card_h, profile, room)
    if best is None and room:
        best = _best_fit(aw, ah, card_w, card_h, profile, 0.0)
    return best


def _best_fit(aw, ah, card_w, card_h, profile: Profile, room: float):
    b, g = profile.bleed, profile.gutter
    options = [(False, card_w, card_h)]
    if profile.allow_rotate and abs(card_w - card_h) > EPS:
        options.append((True, card_h, card_w))
    best = None
    for rotated, cw, ch in options:
        cols, rows = _count(aw, cw, b, g, room), _count(ah, ch, b, g, room)
        if cols * rows and (best is None or cols * rows > best[1] * best[2]):
            best = (rotated, cols, rows, cw, ch)
    return best


def plan_grid(card_w: float, card_h: float, profile: Profile) -> Grid:
    """The grid with the most cards per sheet; upright wins ties.

    Every card's outer bleed box lies inside the paper minus the margin, and with crop
    marks on the grid leaves room for them (``best_fit``). Cards are turned 90° when that
    fits more (or is the only fit) and ``profile.allow_rotate``. Raises ``ImposeError`` when
    nothing fits.
    """
    if not (card_w > 0 and card_h > 0):
        raise ImposeError(f"expected a positive card size, got {fmt_mm(card_w)}x{fmt_mm(card_h)} mm")
    b, g = profile.bleed, profile.gutter
    if profile.print_shop:
        return Grid(1, 1, False, (b, b), (card_w + 2 * b, card_h + 2 * b), (card_w, card_h), b, g)
    x0, y0, x1, y1 = profile.printable
    aw, ah = x1 - x0, y1 - y0
    best = best_fit(aw, ah, card_w, card_h, profile)
    if best is None:
        raise ImposeError(_no_fit_message(card_w, card_h, profile, aw, ah))
    rotated, cols, rows, cw, ch = best
    pw, ph = profile.paper
    grid_w, grid_h = cols * cw + (cols - 1) * g, rows * ch + (rows - 1) * g
    origin = ((pw - grid_w) / 2, (ph - grid_h) / 2)
    return Grid(cols, rows, rotated, origin, (cw + g, ch + g), (cw, ch), b, g)


def _no_fit_message(card_w, card_h, profile, aw, ah) -> str:
    b = profile.bleed
    rotated_fits = _count(aw, card_h, b, 0) and _count(ah, card_w, b, 0)
    if profile.allow_rotate:
        tail = "not even rotated"
    elif rotated_fits:
        tail = "it would fit rotated, but allow_rotate is off"
    else:
        tail = "rotation is off"
    return (f"card {fmt_mm(card_w)}x{fmt_mm(card_h)} mm does not fit on {paper_name(profile.paper)}"
            f" with {fmt_mm(profile.margin)} mm margins: with its {fmt_mm(b)} mm bleed it needs"
            f" {fmt_mm(card_w + 2 * b)}x{fmt_mm(card_h + 2 * b)} mm, the printable area is"
            f" {fmt_mm(aw)}x{fmt_mm(ah)} mm ({tail})")


def impose(n_cards: int, card_w: float, card_h: float, profile: Profile,
           with_backs: bool = False) -> list[SheetPage]:
    """Pages for cards ``0 .. n_cards-1`` of one size, in print order.

    Fronts fill each sheet in reading order. With backs and duplex, each front
    page is followed by its back page, each back in the mirror position of its
    front (see ``duplex.back_slots``) shifted by ``back_offset``. With backs and
    ``duplex: none``, the back pages follow all fronts, not mirrored. In print-shop
    mode each card is its own page (trim + 2 * bleed), front then back.
    """
    if n_cards < 0:
        raise ImposeError(f"expected a card count >= 0, got {n_cards}")
    grid = plan_grid(card_w, card_h, profile)
    if profile.print_shop:
        return _print_shop_pages(n_cards, card_w, card_h, profile, with_backs)
    per = grid.per_sheet
    sheets = []
    for start in range(0, n_cards, per):
        count = min(per, n_cards - start)
        sheets.append(tuple(grid.slot(start + k, k, count) for k in range(count)))
    sides: list[tuple[str, tuple[Slot, ...]]] = []
    if with_backs and profile.duplex != "none":
        for fronts in sheets:
            sides += [("front", fronts), ("back", back_slots(fronts, profile))]
    else:
        sides += [("front", fronts) for fronts in sheets]
        if with_backs:
            sides += [("back", back_slots(fronts, profile)) for fronts in sheets]
    furniture: dict = {}
    return [_sheet_page(side, number, slots, profile, furniture)
            for number, (side, slots) in enumerate(sides, start=1)]


def _sheet_page(side: str, number: int, slots: tuple[Slot, ...], profile: Profile, furniture: dict) -> SheetPage:
    # Marks, cut lines and footer depend on where the slots are, not on which cards they hold:
    # every full sheet of a side shares one set (a 5,400-card deck would hold 1,200 copies).
    where = tuple((s.x, s.y, s.w, s.h, s.bleed, s.rotation, s.bleed_box) for s in slots)
    found = furniture.get(where)
    if found is None:
        marks = crop_marks(slots, profile) if profile.crop_marks else ()
        cuts = cut_lines(slots, profile) if profile.cut_lines else ()
        found = furniture[where] = (marks, cuts, footer_boxes(slots, marks + cuts, profile))
    marks, cuts, footers = found
    return SheetPage(side, number, slots, marks, cuts, None, None, profile.paper, footers[0] if footers else None,
                     profile.mark_width, footers[1:])


def board_pages(n_copies: int, board_w: float, board_h: float, profile: Profile) -> list[SheetPage]:
    """Pages for ``n_copies`` copies of a board that fits the printable area, one a page.

    Each copy is one slot (its ``index`` the copy's number) centred on the paper turned like the
    board (landscape for a wide one), with the crop marks and cut lines of the profile around it,
    as a sheet's cards have them, and a footer box. The paper each page has is the page's
    ``page_size``. In print-shop mode each copy is a page of its own size, as a card's.
    """
    if profile.print_shop:
        return _print_shop_pages(n_copies, board_w, board_h, profile, False)
    paper = tuple(sorted(profile.paper, reverse=board_w > board_h))
    turned = replace(profile, paper=paper)
    slot = Slot(0, (paper[0] - board_w) / 2, (paper[1] - board_h) / 2, board_w, board_h, False, profile.bleed)
    furniture: dict = {}
    return [_sheet_page("front", number, (replace(slot, index=number - 1),), turned, furniture)
            for number in range(1, n_copies + 1)]


def _print_shop_pages(n_cards, card_w, card_h, profile, with_backs) -> list[SheetPage]:
    b = profile.bleed
    page = (card_w + 2 * b, card_h + 2 * b)
    trim = (b, b, b + card_w, b + card_h)
    bleed = (0.0, 0.0, page[0], page[1])
    sides = ("front", "back") if with_backs else ("front",)
    pages = []
    for index in range(n_cards):
        for side in sides:
            slot = Slot(index, b, b, card_w, card_h, False, b)
            pages.append(SheetPage(side, len(pages) + 1, (slot,), (), (), trim, bleed, page,
                                   None, profile.mark_width))
    return pages
