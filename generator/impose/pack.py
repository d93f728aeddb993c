"""Packing: small components share printer sheets, each in a horizontal band of its own.

``impose`` lays out one component; ``pack`` takes the page lists of consecutive components in
print order and, shelf fashion from the top of the printable area down, puts a component's
first page below the page before it (the previous component's last, often half-empty one)
when it fits::

    ┌──────────────────────────┐ ← printable top
    │  ┊  ┊  ┊  ┊  ┊  ┊  ┊     │   crop marks of band 1, in band 1's strip
    │  ▢  ▢  ▢  ▢  ▢  ▢        │   band 1: component A's last page (one row left)
    │  ┊  ┊  ┊  ┊  ┊  ┊  ┊     │ ← each strip: the band's bleed boxes plus crop_mark_room
    │  ┊   ┊   ┊   ┊           │   above and below, so no mark reaches another band
    │  ◯   ◯   ◯               │   band 2: component B's only page, its own size and grid
    │  ┊   ┊   ┊   ┊           │
    │                          │
    │ label strip              │ ← kept free: the label names every component on the page
    └──────────────────────────┘

A band is a whole page as ``impose`` made it (its grid, rotation, bleed clipping), moved
vertically only: a grid row is never split, cards of different sizes never share a grid, and
components keep their order. Only components without backs pack (their pages are all fronts;
a packed duplex page would have to mirror every band), and a page never holds two pages of one
component. With ``pack`` off or in print-shop mode the pages are returned as they are.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .marks import LABEL_STRIP, crop_marks, cut_lines, footer_boxes
from .page import Band, SheetPage, Slot
from .profile import Profile
from .sheet import crop_mark_room

EPS = 1e-6


def pack(parts: Sequence[Sequence[SheetPage]], profile: Profile, packable: Sequence[bool]) -> list[SheetPage]:
    """The pages of ``parts`` (each one component's pages, in print order) with the pages that
    fit together merged, each page's ``part`` its component's index in ``parts``; ``packable[i]``
    says whether part ``i`` may share a page (it has no backs)."""
    groups = _groups(parts, profile, packable) if profile.pack and not profile.print_shop else \
        [[(part, page)] for part, pages in enumerate(parts) for page in pages]
    return [_packed_page(group, profile) if len(group) > 1 else _own_page(*group[0]) for group in groups]


def band_extent(slots: tuple[Slot, ...], room: float) -> tuple[float, float]:
    """``(bottom, top)`` of the strip a band needs: its bleed boxes and ``room`` above and below."""
    return (min(s.bleed_box[1] for s in slots) - room, max(s.bleed_box[3] for s in slots) + room)


def _groups(parts, profile: Profile, packable) -> list[list[tuple[int, SheetPage]]]:
    """The pages in print order, grouped by the sheet they print on."""
    _, bottom, _, top = profile.printable
    floor, room = bottom + LABEL_STRIP, crop_mark_room(profile)
    groups: list[list[tuple[int, SheetPage]]] = []
    free_to = None  # the lowest band's bottom on the last sheet while it takes more bands
    for part, pages in enumerate(parts):
        if not pages:
            continue
        if not packable[part]:
            groups += [[(part, page)] for page in pages]
            free_to = None
            continue
        first, last = pages[0], pages[-1]  # only these two can share a sheet
        height = _height(first, room)
        if free_to is not None and free_to - height >= floor - EPS:
            groups[-1].append((part, first))
            free_to -= height
        else:
            groups.append([(part, first)])
            free_to = top - height
        groups += [[(part, page)] for page in pages[1:]]
        if len(pages) > 1:
            free_to = top - _height(last, room)
    return groups


def _height(page: SheetPage, room: float) -> float:
    low, high = band_extent(page.slots, room)
    return high - low


def _own_page(part: int, page: SheetPage) -> SheetPage:
    return replace(page, part=part) if part else page


def _packed_page(group: list[tuple[int, SheetPage]], profile: Profile) -> SheetPage:
    """One sheet of the group's pages as bands from the top of the printable area down, each
    band's marks and cut lines kept in its own strip."""
    left, _, right, top = profile.printable
    room = crop_mark_room(profile)
    bands: list[Band] = []
    marks: tuple = ()
    cuts: tuple = ()
    for part, page in group:
        low, high = band_extent(page.slots, room)
        slots = _moved(page.slots, top - high)
        strip = (left, top - (high - low), right, top)
        if profile.crop_marks:
            marks += crop_marks(slots, profile, strip)
        if profile.cut_lines:
            cuts += cut_lines(slots, profile, strip)
        bands.append(Band(part, page.number, slots))
        top -= high - low
    slots = tuple(s for band in bands for s in band.slots)
    footers = footer_boxes(slots, marks + cuts, profile)
    first_part, first = group[0]
    return SheetPage(first.side, first.number, slots, marks, cuts, None, None, profile.paper,
                     footers[0] if footers else None, profile.mark_width, footers[1:],
                     part=first_part, bands=tuple(bands))


def _moved(slots: tuple[Slot, ...], dy: float) -> tuple[Slot, ...]:
    def moved(s: Slot) -> Slot:
        x0, y0, x1, y1 = s.bleed_box
        return replace(s, y=s.y + dy, bleed_box=(x0, y0 + dy, x1, y1 + dy))
    return tuple(moved(s) for s in slots)
