"""Metroidvania card frames sit inside the safe zone, so a home cut that misses the trim by 1-2 mm
leaves the gold frame even and its corner studs whole.

The frame is the panel's gold border and the studs rivet its corners (layouts/metroidvania/card.yaml
and everything extending it, and boss.yaml). Read from the ops the layouts make, not the YAML, so a
child layout that moves the panel or the studs is checked too.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.export.proof import SAFE_INSET

GAME = Path(__file__).resolve().parents[2] / "content" / "metroidvania"

pytestmark = pytest.mark.skipif(not (GAME / "game.yaml").is_file(), reason="metroidvania content not present")


def framed_fronts():
    """(component id, card size, first front's ops) of every component whose front has a framed panel."""
    builder = CardBuilder(load_game(GAME))
    for component in builder.printable():
        problems = []
        faces = builder.component_faces(component, problems)
        assert not problems, problems
        ops = faces.fronts[0]
        if any(op.id == "panel" for op in ops):
            yield component.id, component.size_pt, ops


def extent(op) -> tuple[float, float, float, float]:
    """What the op paints (x0, y0, x1, y1), card points: a stroke reaches half its width outside."""
    if op.kind == "polygon":
        xs = [op.x + px for px, _ in op.payload]
        ys = [op.y + py for _, py in op.payload]
        return min(xs), min(ys), max(xs), max(ys)
    half = (op.style.get("stroke_width") or 0) / 2 if op.style.get("stroke") else 0
    return op.x - half, op.y - half, op.x + op.w + half, op.y + op.h + half


def inset(op, size) -> float:
    """The smallest distance from the op's painted extent to the trim."""
    x0, y0, x1, y1 = extent(op)
    return min(x0, y0, size[0] - x1, size[1] - y1)


def test_frame_and_studs_stay_inside_the_safe_zone():
    checked = set()
    for component, size, ops in framed_fronts():
        frame = [op for op in ops if op.id in ("panel", "stud")]
        assert sum(op.id == "stud" for op in frame) == 4, component
        for op in frame:
            assert inset(op, size) >= SAFE_INSET, (component, op.id)
        checked.add(component)
    assert {"actions", "rooms", "skills", "bosses"} <= checked  # the poker frame and the boss frame

