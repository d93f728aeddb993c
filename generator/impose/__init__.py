"""Imposition: card faces on printer sheets, and boards tiled over several pages.

Geometry (pure numbers, unit-tested as arithmetic): ``plan_grid``, ``impose``,
``board_pages``, ``plan_tiles``, ``pack`` (several components' pages on shared sheets).
Drawing through callbacks: ``render_pages``, ``render_tiles``, ``render_assembly_page``. Units are PDF points; sizes are stored once, in mm
(``sizes.py``).
"""
from .errors import ImposeError
from .pack import pack
from .page import Band, Mark, SheetPage, Slot
from .profile import Profile, load_profile_plain, parse_length, profile_from_mapping
from .render import render_pages
from .sheet import Grid, board_pages, impose, plan_grid, round_piece_profile
from .sizes import CARD, CARD_MM, PAPER, PAPER_MM, mm, named_size, to_mm

# Boards larger than a sheet are rare: their tiling is imported when first asked for, so that a
# build of cards does not pay for it at start-up.
_LAZY = {"Tile": ".tiling", "TilePlan": ".tiling", "plan_tiles": ".tiling",
         "render_assembly_page": ".tiling_render", "render_tiles": ".tiling_render"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Band", "CARD", "CARD_MM", "PAPER", "PAPER_MM", "Grid", "ImposeError", "Mark", "Profile", "SheetPage",
    "Slot", "Tile", "TilePlan", "board_pages", "impose", "load_profile_plain", "mm", "named_size",
    "pack", "parse_length", "plan_grid", "plan_tiles", "profile_from_mapping", "render_assembly_page", "render_pages",
    "round_piece_profile",
    "render_tiles", "to_mm",
]
