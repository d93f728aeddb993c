"""Warnings about faces a player cannot read: text too close in luminance to what it is painted on,
and colour codes (boxes marked ``colour_code: true``) whose colours look alike to a player with
protanopia or deuteranopia. Runs on the ops of each face as it is instantiated (the fit check's
pass), so it costs a walk over a face's shapes per text box; the colour maths is in legibility.py.
"""
from __future__ import annotations

import math
from itertools import combinations

from ..errors import Problem
from .coverage import painted_order
from .legibility import (DEFICIENCIES, LARGE_TEXT_CONTRAST, NORMAL_TEXT_CONTRAST, contrast_ratio, delta_e_2000, hex_of,
                         rgb_of, simulate)

__all__ = ["LegibilityCheck", "COLOUR_CODE_MIN_DELTA_E"]

#: Two colours of a code closer than this (CIEDE2000) under a simulated deficiency are reported: about
#: 10 is where two flat patches on separate cards stop being told apart at a glance (1 is the smallest
#: difference seen side by side).
COLOUR_CODE_MIN_DELTA_E = 10.0
#: Text from this size up that repeats another text of its face is a watermark (see _watermark).
WATERMARK_MIN_PT = 36.0
PAPER = "#ffffff"  # what a face with no background is printed on
_SHAPES = ("rect", "roundrect", "ellipse", "polygon")
_UNKNOWN = object()  # an image, icon or path under the text: what it is painted on is not known


class LegibilityCheck:
    """One per build: says each problem once (per layout box and colour pair, not per card).

    Cheap per face: where each text sits (which shape is its ground) depends only on the face's
    geometry, which most cards of a component share, so it is worked out once per layout and geometry
    (a plan); a face then costs a look-up of its colours."""

    def __init__(self):
        self._told: set = set()
        self._plans: dict = {}  # (layout, geometry) -> see _plan
        self._inks: dict = {}  # id(text block) -> (the block, its ink box relative to the op)
        self._ratios: dict = {}  # (text colour, ground colour) -> contrast ratio
        self._codes: dict = {}  # (component id, box location, box id) -> {colour: (card location, card label)}
        self.unknown: dict = {}  # (location, box id) of text over an image, an icon or a path (-v)

    def face(self, component_id, ops, layout, context_of) -> list:
        """Problems of one face's ops; ``context_of()`` gives its CardContext (made only to report)."""
        flat = painted_order(ops)
        # what decides which shape a text sits on (not the colours, which each face looks up); inline:
        # it is the one thing done for every op of every face
        key = (layout, tuple([(op.kind, op.id, op.x, op.y, op.w, op.h, op.rotate, op.opacity, op.style.get("r"),
                               not op.style.get("fill"), tuple(op.payload) if op.kind == "polygon" else None)
                              for op in flat]))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._plan(flat)
        texts, codes, by_ink = plan
        problems = []
        for k, ground_plan in texts:
            if ground_plan is None:  # what it sits on depends on where its glyphs are
                ground_plan = self._ink_plan(flat, k, by_ink)
                if ground_plan is _UNKNOWN:
                    self.unknown[flat[k].box.where, flat[k].id] = None
                    continue
            problem = self._contrast(flat, k, ground_plan, context_of)
            if problem is not None:
                problems.append(problem)
        for k in codes:
            self._note_code(component_id, flat[k], context_of)
        return problems

    def _ink_plan(self, flat, k, by_ink):
        op = flat[k]
        block = op.payload
        ink = self._inks.get(id(block))
        if ink is None or ink[0] is not block:
            if len(self._inks) > 4096:  # unique texts must not pile up
                self._inks.clear()
            ink = self._inks[id(block)] = (block, _ink(block))
        rect = _ink_rect(op, ink[1])
        if rect is None:
            return _UNKNOWN
        ground_plan = by_ink.get((k, rect))
        if ground_plan is None:
            ground_plan = by_ink[k, rect] = _ground_plan(flat, k, rect)
        return ground_plan

    @staticmethod
    def _plan(flat):
        """The face's text ops (their indices in ``flat``), each with its ground plan when the whole box
        decides it (None when where its glyphs are does), and its colour-code ops."""
        texts, codes = [], []
        for k, op in enumerate(flat):
            if op.box is None:  # the background
                continue
            if op.box.colour_code:
                codes.append(k)
            if op.kind == "text":
                texts.append((k, _box_plan(flat, k)))
        return texts, codes, {}

    def _contrast(self, flat, k, ground_plan, context_of):
        op = flat[k]
        where = op.box.where
        ground = _ground_colour(flat, ground_plan)
        text = op.style.get("color") or "#000000"
        block = op.payload
        size = block.size
        # WCAG: large is 18 pt, or 14 pt bold (only then is it worth reading the runs)
        need = LARGE_TEXT_CONTRAST if size >= 18 or (size >= 14 and _bold(block)) else NORMAL_TEXT_CONTRAST
        told = (where, op.id, text, ground, need)
        if told in self._told:
            return None
        self._told.add(told)  # judged: not again
        ratio = self._ratios.get((text, ground))
        if ratio is None:
            ratio = self._ratios[text, ground] = contrast_ratio(rgb_of(text), rgb_of(ground))
        if ratio >= need or _watermark(flat, op):
            return None
        ctx = context_of()
        bold = _bold(block)
        shown = math.floor(ratio * 10) / 10  # 4.46 is not "4.5:1" when 4.5 is needed
        message = (f"text {_hex(text)} on {_hex(ground)} has contrast {shown:.1f}:1 (needs {need:g}:1 at "
                   f"{size:g}pt{' bold' if bold else ''}): hard to read on paper, darken or lighten one")
        return Problem(where, f"box '{op.id}'", message, "warning", card=ctx.location, card_field=_card_label(ctx))

    def _note_code(self, component_id, op, context_of):
        colour = op.style.get("fill") or op.style.get("color") or op.style.get("stroke")
        if not colour:
            return
        seen = self._codes.setdefault((component_id, op.box.where, op.id), {})
        colour = _hex(colour)
        if colour not in seen:
            ctx = context_of()
            seen[colour] = (ctx.location, _card_label(ctx))

    def colour_code_problems(self, component_id) -> list:
        """After every face of a component was made: pairs of its coded colours that a protanope or a
        deuteranope cannot tell apart (each pair once, under the deficiency that makes them closest)."""
        problems = []
        for (component, where, box_id), seen in self._codes.items():
            if component != component_id:
                continue
            for (a, (card_a, label_a)), (b, (_, label_b)) in combinations(seen.items(), 2):
                close = _closest_under_deficiency(a, b)
                if close is None:
                    continue
                deficiency, delta, seen_a, seen_b = close
                message = (f"colour code {a} ({label_a}) and {b} ({label_b}) look alike with {deficiency}: "
                           f"they become {seen_a} and {seen_b} (CIEDE2000 {delta:.1f}, under "
                           f"{COLOUR_CODE_MIN_DELTA_E:g}); print a distinguishing text or icon too, or pick "
                           f"colours further apart in lightness")
                problems.append(Problem(where, f"box '{box_id}'", message, "warning", card=card_a,
                                        card_field=label_a))
        return problems


def _box_plan(flat, k):
    """The ground plan of text op ``flat[k]`` when its whole box decides it: every shape over the box
    holds all of it (so it holds the glyphs wherever they are). None when a shape covers only part of
    the box: the glyphs, which differ from card to card, then decide (see _ground_plan)."""
    op = flat[k]
    box = _turned_box(op) if op.rotate else (op.x, op.y, op.x + op.w, op.y + op.h)
    plan = _ground_plan(flat, k, box)
    if plan is _UNKNOWN:
        return None
    bottom = plan[-1] if plan[-1] is not None else -1
    for g in range(bottom + 1, k):
        other = flat[g]
        if other.kind not in ("text", "line") and g not in plan and _overlaps(other, box):
            return None
    return plan


def _closest_under_deficiency(a: str, b: str):
    """``(deficiency, ΔE, a as seen, b as seen)`` when the two look alike under one, else None."""
    worst = None
    for deficiency in DEFICIENCIES:
        seen_a, seen_b = simulate(rgb_of(a), deficiency), simulate(rgb_of(b), deficiency)
        delta = delta_e_2000(seen_a, seen_b)
        if delta < COLOUR_CODE_MIN_DELTA_E and (worst is None or delta < worst[1]):
            worst = (deficiency, delta, hex_of(seen_a), hex_of(seen_b))
    return worst


def _watermark(flat, op) -> bool:
    """Display-size text that another text of the face also says (a round's big faint number behind
    its marker spot, under the title "Round 1"): a decoration, not what the player reads."""
    said = op.payload.text.strip()
    return op.payload.size >= WATERMARK_MIN_PT and bool(said) and any(
        other is not op and other.kind == "text" and said in other.payload.text for other in flat)


def _bold(block) -> bool:
    """Whether all of a block's text is bold (WCAG's 14 pt threshold is for bold text)."""
    if block.direction == "vertical":
        return all(cell.bold for column in block.columns for cell in column.cells if cell.kind != "icon")
    return all(run.bold for line in block.lines for run in line.runs if run.kind == "text")


def _hex(colour: str) -> str:
    return hex_of(rgb_of(colour))


def _card_label(ctx) -> str:
    card = ctx.values.get("card")
    name = card.get("id") if isinstance(card, dict) else None
    return f"{ctx.field_prefix} '{name}'" if name else ctx.field_prefix


def _ink(block):
    """(x0, y0, x1, y1) the glyphs cover, relative to the box's top-left: the lines' extent (a vertical
    block's columns, each one em wide about its centre line), or None for a block without text."""
    if block.direction == "vertical":
        columns = [column for column in block.columns if column.cells]
        if not columns:
            return None
        half = block.size / 2
        return (min(c.x for c in columns) - half, min(c.y for c in columns),
                max(c.x for c in columns) + half, max(c.y + c.length for c in columns))
    lines = [line for line in block.lines if line.runs]
    if not lines:
        return None
    return (min(line.x for line in lines), lines[0].baseline_y - block.ascent_pt,
            max(line.x + line.width for line in lines), lines[-1].baseline_y + block.descent_pt)


def text_ink_box(op):
    """The box on the card (points, y down) that a text op's glyphs ink, or None without text."""
    return _ink_rect(op, _ink(op.payload))


def _ink_rect(op, ink):
    """The ink box on the card (a turned box's whole turned rectangle)."""
    if ink is None:
        return None
    if op.rotate:
        return _turned_box(op)
    return (op.x + ink[0], op.y + ink[1], op.x + ink[2], op.y + ink[3])


def _turned_box(op):
    """The rectangle a box covers, turned by its rotation about its centre (exact for quarter turns)."""
    cx, cy = op.x + op.w / 2, op.y + op.h / 2
    turn = math.radians(op.rotate)
    half_w = (abs(math.cos(turn)) * op.w + abs(math.sin(turn)) * op.h) / 2
    half_h = (abs(math.sin(turn)) * op.w + abs(math.cos(turn)) * op.h) / 2
    return (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


def _ground_plan(flat, k, ink):
    """Which ops make the colour under the ink rectangle of text op ``flat[k]``: indices of translucent
    shapes (topmost first) down to the topmost opaque filled shape painted before it that holds the whole
    rectangle (None: the paper). Shapes that only touch the rectangle are frames and rules, left out;
    _UNKNOWN when an image, icon or path covers part of it."""
    plan = []
    for g in range(k - 1, -1, -1):
        op = flat[g]
        if op.kind in ("text", "line") or not _overlaps(op, ink):
            continue
        if op.kind not in _SHAPES or (op.rotate % 90):
            return _UNKNOWN
        if not op.style.get("fill") or not _holds(op, ink):
            continue
        plan.append(g)
        if op.opacity >= 1 and rgb_of(op.style["fill"])[3] >= 1:
            return tuple(plan)
    return tuple(plan) + (None,)


def _ground_colour(flat, plan) -> str:
    """The colour a ground plan gives on this face (translucent layers blended over the ground)."""
    if len(plan) == 1 and plan[0] is not None:  # the usual case: one opaque shape
        return flat[plan[0]].style["fill"]
    below = plan[-1]
    colour = rgb_of(PAPER if below is None else flat[below].style["fill"])[:3]
    for g in reversed(plan[:-1]):  # bottom up
        r, gr, b, alpha = rgb_of(flat[g].style["fill"])
        alpha *= flat[g].opacity
        colour = tuple(alpha * top + (1 - alpha) * under for top, under in zip((r, gr, b), colour))
    return hex_of(colour)


def _overlaps(op, ink) -> bool:
    x0, y0, x1, y1 = _turned_box(op) if op.rotate else (op.x, op.y, op.x + op.w, op.y + op.h)
    if op.kind == "polygon":
        xs = [op.x + px for px, _ in op.payload]
        ys = [op.y + py for _, py in op.payload]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    return x0 < ink[2] and ink[0] < x1 and y0 < ink[3] and ink[1] < y1


def _holds(op, ink) -> bool:
    """Whether a shape covers all four corners of the rectangle ``ink`` (for convex shapes, all of it)."""
    corners = ((ink[0], ink[1]), (ink[2], ink[1]), (ink[0], ink[3]), (ink[2], ink[3]))
    if op.kind == "polygon":
        points = [(op.x + px, op.y + py) for px, py in op.payload]
        return all(_in_polygon(x, y, points) for x, y in corners)
    x0, y0, x1, y1 = _turned_box(op) if op.rotate else (op.x, op.y, op.x + op.w, op.y + op.h)
    if op.kind == "ellipse":
        cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        return rx > 0 and ry > 0 and all(((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1 for x, y in corners)
    r = min(op.style.get("r") or 0, (x1 - x0) / 2, (y1 - y0) / 2)
    return all(_in_round_rect(x, y, x0, y0, x1, y1, r) for x, y in corners)


def _in_round_rect(x, y, x0, y0, x1, y1, r) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    if r <= 0:
        return True
    dx = max(x0 + r - x, 0, x - (x1 - r))
    dy = max(y0 + r - y, 0, y - (y1 - r))
    return dx * dx + dy * dy <= r * r


def _in_polygon(x, y, points) -> bool:
    """Even-odd ray casting; a point on an edge counts as inside."""
    inside = False
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
        if (ay > y) != (by > y):
            cross = ax + (y - ay) * (bx - ax) / (by - ay)
            if x == cross:
                return True
            if x < cross:
                inside = not inside
    return inside


def unjudged_lines(unknown) -> list:
    """Lines for -v: text boxes whose ground is unknown (LegibilityCheck.unknown), so not judged."""
    return [f"{where.display()}: box '{box_id}': contrast unknown (over an image, an icon or a path): not checked"
            for where, box_id in sorted(unknown, key=lambda known: (known[0].path, known[0].line, known[1]))]

