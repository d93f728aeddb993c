"""Icons painted over a card's own text.

The fit checker proves a text fits its box; it cannot see an icon box that a layout places on
top of the words (a badge at a cell's edge over the last enemy of a crowded respawn): the card
prints with a word or an icon of the text hidden, and nothing failed. An icon drawn after a text
(so painted over it) whose square crosses the ink of a run of that text is reported here.
"""
from __future__ import annotations

from typing import Iterable, Iterator

__all__ = ["covered_text", "painted_order"]

# The band of a line that its glyphs ink, as fractions of the size around the baseline: CJK
# glyphs fill ~0.88 em above it, Latin descenders ~0.2 below. A touch at the band's edge
# (an icon just above a cap) is not a cover: both sides must cross by MIN_CROSS points.
INK_ABOVE = 0.8
INK_BELOW = 0.1
MIN_CROSS = 1.0


def painted_order(ops) -> list:
    """Ops in painting order, a group's children in its place (their coordinates are the card's)."""
    flat = []
    for op in ops:
        if op.kind == "group":
            flat.extend(painted_order(op.children))
        else:
            flat.append(op)
    return flat


def _ink(op) -> Iterator[tuple[float, float, float, float]]:
    """The rectangles (x0, y0, x1, y1) that a horizontal text op's runs ink."""
    block = op.payload
    if getattr(block, "direction", "horizontal") != "horizontal" or op.rotate:
        return
    size = block.size
    for line in block.lines:
        top, bottom = op.y + line.baseline_y - INK_ABOVE * size, op.y + line.baseline_y + INK_BELOW * size
        for run in line.runs:
            if run.kind == "text" and not run.text.strip():
                continue  # spaces ink nothing
            x0 = op.x + line.x + run.x
            yield x0, top, x0 + run.width, bottom


def _crosses(a, b) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) >= MIN_CROSS
            and min(a[3], b[3]) - max(a[1], b[1]) >= MIN_CROSS)


def covered_text(ops: Iterable) -> list[tuple[object, object]]:
    """(icon op, text op) for each icon painted over inked text drawn before it on the same face."""
    found = []
    texts = []  # [op, its ink rectangles or None until an icon comes], in painting order
    for op in painted_order(ops):
        if op.kind == "text":
            texts.append([op, None])  # inked only when an icon follows: most faces draw none over text
        elif op.kind == "icon" and not op.rotate and op.opacity > 0:
            square = (op.x, op.y, op.x + op.w, op.y + op.h)
            for entry in texts:
                if entry[1] is None:
                    entry[1] = list(_ink(entry[0]))
                if any(_crosses(square, rect) for rect in entry[1]):
                    found.append((op, entry[0]))
    return found
