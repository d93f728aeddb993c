"""Metroidvania card frames sit inside the safe zone, so a home cut that misses the trim by 1-2 mm
leaves the gold frame even and its corner studs whole.

On fronts the frame is the panel's gold border and the studs rivet its corners (layouts/metroidvania/
card.yaml and everything extending it, and boss.yaml); backs have a double frame (back.yaml). Read
from the ops the layouts make, not the YAML, so a child layout that moves them is checked too.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.export.proof import SAFE_INSET

GAME = Path(__file__).resolve().parents[2] / "content" / "metroidvania"

pytestmark = pytest.mark.skipif(not (GAME / "game.yaml").is_file(), reason="metroidvania content not present")


def faces(side: str, framed_by: str):
    """(component id, card size, first face's ops) of every component whose ``side`` (fronts or
    backs) has a ``framed_by`` box."""
    builder = CardBuilder(load_game(GAME))
    for component in builder.printable():
        problems = []
        made = builder.component_faces(component, problems)
        assert not problems, problems
        ops = (getattr(made, side) or [None])[0] or []
        if any(op.id == framed_by for op in ops):
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
    for component, size, ops in faces("fronts", "panel"):
        frame = [op for op in ops if op.id in ("panel", "stud")]
        assert sum(op.id == "stud" for op in frame) == 4, component
        for op in frame:
            assert inset(op, size) >= SAFE_INSET - 1e-9, (component, op.id)
        checked.add(component)
    assert {"actions", "rooms", "skills", "bosses"} <= checked  # the poker frame and the boss frame


def test_the_backs_frames_and_studs_stay_inside_the_safe_zone():
    """A duplex shift adds to the cut's error on a back: its double frame and studs keep 3 mm too."""
    checked = set()
    for component, size, ops in faces("backs", "frame_outer"):
        frame = [op for op in ops if op.id in ("frame_outer", "frame_inner", "stud")]
        assert sum(op.id == "stud" for op in frame) == 4, component
        for op in frame:
            assert inset(op, size) >= SAFE_INSET - 1e-9, (component, op.id)
        checked.add(component)
    assert {"actions", "rooms", "derived_events"} <= checked



def test_the_derived_event_number_disc_stays_inside_the_safe_zone():
    """The numbered disc in a derived event's top-right corner (its ring included) keeps 3 mm too."""
    discs = [(size, op) for component, size, ops in faces("fronts", "num_disc") if component == "derived_events"
             for op in ops if op.id == "num_disc"]
    assert discs
    for size, op in discs:
        assert inset(op, size) >= SAFE_INSET - 1e-9


def test_a_japanese_title_prints_on_one_line():
    """A title without spaces has no word gap to break at: it shrinks onto one line, where the old
    two-line box cut 割れたステンドグ|ラス and 忘れられた子供|部屋 (card.yaml's title box)."""
    builder = CardBuilder(load_game(GAME))
    titles = {}
    for component in builder.printable():
        made = builder.component_faces(component, [])
        for ops in (made.fronts[i] for i in range(len(component.records))):
            for op in ops:
                if op.id == "title" and op.kind == "text":
                    titles[op.payload.text.replace("\n", "")] = len(op.payload.lines)
    assert "割れたステンドグラス" in titles and "忘れられた子供部屋" in titles
    assert {text: lines for text, lines in titles.items() if lines > 1} == {}
