"""A layout + one card's data → a list of positioned drawing operations.

Everything that can go wrong with a card (a template typo, a bad length, text that does
not fit, an unknown icon, a glyph the font lacks) is found here, before anything is
painted, and reported against the card's YAML line and the layout file.
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..colours import normal_colour
from ..errors import Location, Problem
from ..units import parse_length
from .coverage import covered_text
from .expr import ExprError, Expressions, is_template
from .icons import parse_path
from .images import GOOD_DPI, HUGE_PIXELS, MAX_COVER_CUT, MIN_DPI, cover_cut, pixel_size, printed_dpi, unreadable
from .template import Layout

__all__ = ["Op", "LayoutBox", "CardContext", "Instantiator", "box_location"]

_VAR_NAME = re.compile(r"\bv\.([A-Za-z_][A-Za-z0-9_]*)")
_CARD_FIELD = re.compile(r"card\.([A-Za-z_][A-Za-z0-9_]*)|card\[['\"]([^'\"]+)['\"]\]")
MAX_REPEAT = 500
MM = 72 / 25.4
OFF_CARD_SLACK = 0.5  # points a text box may pass the trim by (a rounding in mm), not said
_UNSET = object()
TEXT_CACHE_SIZE = 512


@dataclass(frozen=True, slots=True)
class LayoutBox:
    """The layout box an op draws, as the per-face checks report it: where the box is written and
    whether it is a colour code. One per box, shared by the ops of every card it draws."""

    where: Location
    colour_code: bool = False


@dataclass
class Op:
    """One thing to draw, in card coordinates: points, origin at the trim's top-left, y down."""

    kind: str
    x: float
    y: float
    w: float
    h: float
    style: dict = field(default_factory=dict)
    payload: object = None       # text block, points, path segments, image path, icon name
    rotate: float = 0.0
    opacity: float = 1.0
    children: list = field(default_factory=list)
    id: str = ""                 # the layout box's id (tests and exports find boxes by it)
    box: LayoutBox | None = None  # the box it draws (None: the background); never printed nor hashed


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class CardContext:
    """What a template may read, and where problems about this card are reported."""

    values: dict                 # card, component, game, data, ... (localised plain values)
    location: Location           # the card's record in its YAML file
    field_prefix: str            # e.g. "enemies[3]"
    field_location: object = None  # a card field's name -> where it is written (None: the record's line)

    def at(self, card_field: str | None) -> Location:
        """Where a problem about ``card.<card_field>`` is reported: that field's line if known."""
        if card_field and self.field_location is not None:
            return self.field_location(card_field) or self.location
        return self.location


@dataclass(eq=False)  # never compared by value: no __eq__ to generate at import
class _Scope:
    ctx: CardContext
    layout: Layout
    problems: list
    values: dict


class Instantiator:
    """Turns layouts into ops. One per build: it caches templates, icons and images."""

    def __init__(self, fonts, icons, game_root: Path, size_pt: tuple, bleed: float,
                 expressions: Expressions | None = None, layout_text=None):
        from ..text import layout_text as default_layout_text

        self.fonts, self.icons, self.game_root = fonts, icons, game_root
        self.w, self.h = size_pt
        self.bleed = bleed
        self.expr = expressions or Expressions()
        self.layout_text = layout_text or default_layout_text
        self.icon_names = frozenset(icons.names())
        self._text_cache: dict = {}
        self._images_ok: dict = {}  # path -> "" or why it cannot be read (checked once per build)
        self._image_pixels: dict = {}  # path -> its (width, height) as printed
        self._cuts_told: set = set()  # (path, box) whose fit: cover crop was warned of: once, not every card
        self._off_card_told: set = set()  # (layout line, box) said to print past the card: once, not every card
        self._layout_boxes: dict = {}  # id(box dict) -> (the dict, its layout's path, its LayoutBox)

    def instantiate(self, layout: Layout, ctx: CardContext) -> tuple[list[Op], list[Problem]]:
        problems: list[Problem] = []
        values = dict(ctx.values)
        values.update(W=self.w, H=self.h)
        scope = _Scope(ctx, layout, problems, values)
        values["v"] = self._vars(layout, scope)
        ops: list[Op] = []
        background = layout.background
        if background is not None:
            color = self._background(background, scope, layout)
            if color:
                b = self.bleed
                ops.append(Op("rect", -b, -b, self.w + 2 * b, self.h + 2 * b, {"fill": color}))
        self._boxes(layout.boxes, scope, ops, "boxes")
        self._check_covered_text(ops, scope)
        return ops, problems

    # -- helpers --------------------------------------------------------------------------
    def _background(self, background, scope: _Scope, layout: Layout) -> str | None:
        """The background's colour, or None after reporting it at the line it was written on
        (a parent layout's line when inherited)."""
        where = getattr(background, "location", None) or Location(str(layout.path), 1)
        try:
            return self._color(background, scope, "background", where)
        except ValueError as exc:
            self._report(scope, where, "background", str(exc))
            return None

    def _layout_box(self, scope: _Scope, box: dict) -> LayoutBox:
        """The box's LayoutBox, made once per build (every card draws the same boxes)."""
        known = self._layout_boxes.get(id(box))
        if known is None or known[0] is not box or known[1] != scope.layout.path:
            made = LayoutBox(box_location(scope.layout.path, box), bool(box.get("colour_code")))
            known = self._layout_boxes[id(box)] = (box, scope.layout.path, made)
        return known[2]

    def _report(self, scope: _Scope, location: Location | None, box_id: str, message: str, source="",
                severity="error"):
        where = location or Location(str(scope.layout.path), 0)
        card_field = _card_field(source) if source else None  # a template naming card.<field>: that field's line
        card = f"{scope.ctx.field_prefix}.{card_field}" if card_field else scope.ctx.field_prefix
        scope.problems.append(Problem(where, box_id, message, severity=severity, card=scope.ctx.at(card_field),
                                      card_field=card))

    def _vars(self, layout: Layout, scope: _Scope) -> dict:
        result: dict = {}
        scope.values["v"] = result
        for name, source in layout.vars.items():
            try:
                result[name] = self.expr.evaluate(source, scope.values)
            except ExprError as exc:
                self._report(scope, exc.location or Location(str(layout.path), 0), f"vars.{name}", exc.message,
                             exc.source)
                result[name] = None
        return result

    def _value(self, box, key, scope, default=None):
        raw = box.get(key, default)
        if isinstance(raw, str) and ("{{" in raw or "{%" in raw):  # is_template, inline: every setting of every box
            return self.expr.render(raw, scope.values)
        return raw

    def _length(self, box, key, scope, default=0.0):
        raw = box.get(key)
        if raw is None:
            return default
        try:
            points = _POINTS.get(raw)  # a literal seen before: no parse
        except TypeError:  # a list or a mapping: said below
            points = None
        if points is not None:
            return points
        literal = not is_template(raw)
        if not literal:
            raw = self.expr.render(raw, scope.values)
            if raw is None:
                return default
        try:
            points = _length_of(raw.strip()) if isinstance(raw, str) else parse_length(raw)
        except ValueError as exc:  # say which of its keys, at the key's value's line
            raise _BadValue(f"{key}: {exc}", raw) from None
        if literal and isinstance(raw, str) and len(_POINTS) < MAX_POINTS:
            _POINTS[raw] = points
        return points

    def _color(self, raw, scope, label, where):
        colour = _COLOURS.get(raw, _UNSET) if isinstance(raw, str) else _UNSET
        if colour is not _UNSET:  # a spelling seen before (a template never is: it does not enter)
            return colour
        try:
            value = self.expr.render(raw, scope.values) if is_template(raw) else raw
        except ExprError as exc:
            self._report(scope, exc.location or where, label, exc.message, exc.source)
            return None
        if isinstance(value, str):  # a template's value, e.g. "#229954", is a spelling too
            colour = _COLOURS.get(value, _UNSET)
            if colour is not _UNSET:
                return colour
        if value in (None, "", "none", "None"):
            colour = None
        else:
            try:
                colour = normal_colour(str(value).strip())
            except ValueError as exc:  # at the literal's own line: a parent layout's, for an inherited colour
                raise _BadValue(str(exc), raw) from None
        if isinstance(value, str) and len(_COLOURS) < MAX_COLOURS and not is_template(value):
            _COLOURS[str(value)] = colour  # a plain str: a layout's LocatedStr would keep its location
        return colour

    # -- boxes ----------------------------------------------------------------------------
    def _boxes(self, boxes: list, scope: _Scope, out: list, field_path: str, origin=(0.0, 0.0)):
        for i, box in enumerate(boxes):
            if not isinstance(box, dict):
                continue
            box_id = str(box.get("id") or f"{field_path}[{i}]")
            layout_box = self._layout_box(scope, box)
            where = layout_box.where
            try:
                if box.get("type") is None:
                    self._report(scope, where, box_id, "box has no type and overrides no inherited box")
                    continue
                if "when" in box and not self.expr.evaluate(box["when"], scope.values):
                    continue  # `when` guards the whole box, repeat included
                repeat = self.expr.evaluate(box["repeat"], scope.values) if "repeat" in box else None
                if repeat is None:
                    self._box(box, scope, out, box_id, layout_box, origin, 0)
                    continue
                # A repeat sets i/item for its box and everything inside it; an outer
                # repeat's values come back afterwards (nested repeats work).
                saved = (scope.values.get("i", _UNSET), scope.values.get("item", _UNSET))
                try:
                    for n, item in enumerate(self._repeat_items(repeat)):
                        scope.values["i"], scope.values["item"] = n, item
                        if self._kept(box, scope):  # `filter` drops single repetitions
                            self._box(box, scope, out, box_id, layout_box, origin, n)
                finally:
                    for key, value in zip(("i", "item"), saved):
                        if value is _UNSET:
                            scope.values.pop(key, None)
                        else:
                            scope.values[key] = value
            except ExprError as exc:
                self._report(scope, exc.location or where, box_id, exc.message, exc.source)
            except ValueError as exc:  # a literal's own line if it has one, else the box's first line
                self._report(scope, getattr(exc, "location", None) or where, box_id, str(exc),
                             getattr(exc, "source", ""))

    def _check_covered_text(self, ops, scope: _Scope):
        """A warning at the icon box that paints over a text of the same face: the text fits its box,
        yet prints with a word or an icon of it hidden (the fit check cannot see it)."""
        seen = set()
        for icon, text in covered_text(ops):
            if (icon.id, text.id) in seen:
                continue
            seen.add((icon.id, text.id))
            words = text.payload.text.replace("\n", " ")
            words = words if len(words) <= 24 else words[:23] + "…"
            self._report(scope, icon.box.where, icon.id,
                         f"icon ':{icon.payload}:' is painted over the text of box '{text.id}' ({words!r}) "
                         f"of {_display_path(scope.layout.path)}: that part of the text is hidden; "
                         f"move the icon or leave it room in the text box", severity="warning")

    def _kept(self, box, scope) -> bool:
        return "filter" not in box or bool(self.expr.evaluate(box["filter"], scope.values))

    def _repeat_items(self, repeat):
        if repeat is None:
            return [None]
        if isinstance(repeat, bool):
            raise ValueError(f"repeat must be a count or a list, got {repeat!r}")
        if isinstance(repeat, int):
            if not 0 <= repeat <= MAX_REPEAT:
                raise ValueError(f"repeat count {repeat} is outside 0..{MAX_REPEAT}")
            return list(range(repeat))
        if isinstance(repeat, (list, tuple)):
            return list(repeat)[:MAX_REPEAT]
        if isinstance(repeat, dict):
            return list(repeat.items())[:MAX_REPEAT]
        raise ValueError(f"repeat must be a count or a list, got {repeat!r}")

    def _box(self, box, scope, out, box_id, layout_box, origin, n):
        where = layout_box.where
        kind = box["type"]
        # Every box of every card: its literal lengths are read from _POINTS directly (6 look-ups, no call);
        # a template, a new spelling or a bad value takes _length, which also reports it.
        points, get = _POINTS.get, box.get
        try:
            x, dx, y, dy, w, h = (points(get("x")), points(get("dx")), points(get("y")), points(get("dy")),
                                  points(get("w")), points(get("h")))
        except TypeError:  # an unhashable value (a list): _length says what is wrong with it
            x = None
        if x is None or dx is None or y is None or dy is None or w is None or h is None:
            x, dx = self._length(box, "x", scope), self._length(box, "dx", scope)
            y, dy = self._length(box, "y", scope), self._length(box, "dy", scope)
            w, h = self._length(box, "w", scope), self._length(box, "h", scope)
        x = origin[0] + x + n * dx
        y = origin[1] + y + n * dy
        # most boxes set neither: their defaults without a look-up
        rotate = float(self._value(box, "rotate", scope, 0) or 0) if "rotate" in box else 0.0
        opacity = float(self._value(box, "opacity", scope, 1) or 0) if "opacity" in box else 1.0
        if not 0 <= opacity <= 1:
            raise ValueError(f"opacity {opacity} is outside 0..1")
        op = Op(kind, x, y, w, h, rotate=rotate, opacity=opacity, id=box_id, box=layout_box)
        if not rotate and kind != "line":
            self._check_on_card(kind, x, y, w, h, scope, where, box_id)
        if kind in ("rect", "roundrect", "ellipse", "polygon", "path", "line"):
            op.style = self._shape_style(box, scope, where, box_id)
            if kind in ("rect", "roundrect"):
                op.style["r"] = self._length(box, "r", scope)
            elif kind == "line":  # the end point moves with the repeat offset like the start
                op.payload = (self._length(box, "x2", scope) + x - self._length(box, "x", scope),
                              self._length(box, "y2", scope) + y - self._length(box, "y", scope))
                op.style["cap"] = self._value(box, "cap", scope, "butt")
            elif kind == "polygon":
                op.payload = self._points(box, scope)
            elif kind == "path":
                op.payload = (parse_path(str(self._value(box, "d", scope, ""))), self._viewbox(box, scope, w, h))
        elif kind == "image":
            op.payload = self._image(box, scope)
            op.style["fit"] = self._value(box, "fit", scope, "contain")
            if op.style["fit"] not in ("contain", "cover", "stretch"):
                raise ValueError(f"fit must be contain, cover or stretch, got {op.style['fit']!r}")
            self._check_resolution(op, box, scope, where, box_id)
            if op.style["fit"] == "cover":
                self._check_cover_cut(op, box, scope, where, box_id)
        elif kind == "icon":
            name = str(self._value(box, "name", scope, "")).strip()
            if name not in self.icon_names:
                raise ValueError(f"unknown icon {name!r}{self._unknown_icon_hint(name)}")
            op.payload = name
            op.style["color"] = self._color(box.get("color", "#000000"), scope, box_id, where)
        elif kind == "text":
            op.payload = self._text(box, scope, where, box_id, w, h)
            op.style["color"] = self._color(box.get("color", "#000000"), scope, box_id, where)
            if op.payload is None:
                return
        elif kind == "group":
            op.style["clip"] = bool(self._value(box, "clip", scope, False))
            self._boxes(box.get("boxes") or [], scope, op.children, box_id, origin=(x, y))
        out.append(op)

    def _shape_style(self, box, scope, where, box_id):
        style = {"fill": self._color(box.get("fill"), scope, box_id, where),
                 "stroke": self._color(box.get("stroke"), scope, box_id, where),
                 "stroke_width": self._length(box, "stroke_width", scope, 0.5)}
        dash = box.get("dash")
        if isinstance(dash, str):
            dash = self.expr.evaluate(dash, scope.values)
        if dash:
            if not isinstance(dash, (list, tuple)):
                raise ValueError(f"dash must be a list of lengths such as [2mm, 1mm], got {dash!r}")
            style["dash"] = [_length_of(str(d).strip()) if isinstance(d, str) else parse_length(d) for d in dash]
        return style

    def _points(self, box, scope):
        raw = box.get("points")
        raw = self.expr.evaluate(raw, scope.values) if isinstance(raw, str) else raw
        if not isinstance(raw, list) or len(raw) < 2:
            raise ValueError("points must be a list of at least two [x, y] pairs")
        points = []
        for pair in raw:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ValueError(f"each point must be [x, y], got {pair!r}")
            points.append(tuple(parse_length(self.expr.render(p, scope.values) if is_template(p) else p) for p in pair))
        return points

    def _viewbox(self, box, scope, w, h):
        viewbox = box.get("viewbox")
        if viewbox is None:
            return (0.0, 0.0, w or 1.0, h or 1.0)
        if not (isinstance(viewbox, list) and len(viewbox) == 4 and viewbox[2] > 0 and viewbox[3] > 0):
            raise ValueError("viewbox must be [x, y, width, height] numbers")
        return tuple(float(v) for v in viewbox)

    def _image(self, box, scope):
        source = str(box.get("src", ""))
        src = str(self._value(box, "src", scope, "")).strip()
        if src in ("", "None") and is_template(source):  # Jinja writes a card's missing value as 'None'
            raise _BadValue(f"image src {source!r} gives no file for this card{_guard_hint(source)}", None,
                            source=source)
        pure = PurePosixPath(src)
        if not src or pure.is_absolute() or ".." in pure.parts:
            raise ValueError(f"image src {src!r} must be a relative path inside the game directory")
        path = (self.game_root / pure).resolve()
        if not path.is_relative_to(self.game_root.resolve()) or not path.is_file():
            from ..content.schema import file_hint

            raise _BadValue(f"image {src!r} not found in {self.game_root}{file_hint(self.game_root, pure)}",
                            None, source=source)
        if path not in self._images_ok:
            self._images_ok[path] = unreadable(path)
        if self._images_ok[path]:
            raise _BadValue(f"image {src!r} cannot be read: {self._images_ok[path]}", None, source=source)
        return path

    def _check_resolution(self, op, box, scope, where, box_id):
        """A warning at the card's art field (or the box) when the art has too few pixels for its box (a
        sketch or a web thumbnail prints soft) or so many that Pillow calls it a decompression bomb (every
        pixel goes into the print file): nothing else would say so before paper, or a very slow build."""
        path = op.payload
        if path not in self._image_pixels:
            self._image_pixels[path] = pixel_size(path)
        pixels = self._image_pixels[path]
        dpi = printed_dpi(pixels, op.w, op.h, op.style["fit"])
        if MIN_DPI <= round(dpi) and pixels[0] * pixels[1] <= HUGE_PIXELS:
            return  # the usual case, every card: nothing more to work out
        need = "x".join(str(round(side / 72 * GOOD_DPI)) for side in (op.w, op.h))
        src = str(self._value(box, "src", scope, "")).strip()
        size = f"image {src!r} is {pixels[0]}x{pixels[1]} px"
        if round(dpi) < MIN_DPI:  # as the message writes it: art made for 150 dpi is not 149.97
            message = (f"{size}: {dpi:.0f} dpi in this {op.w / 72 * 25.4:.0f}x{op.h / 72 * 25.4:.0f} mm box "
                       f"(fit {op.style['fit']}), blurry below {MIN_DPI} dpi; "
                       f"{need} px print it sharp at {GOOD_DPI} dpi")
        else:  # more pixels than HUGE_PIXELS
            message = (f"{size} ({pixels[0] * pixels[1] / 1e6:.0f} megapixels), {dpi:.0f} dpi here: every pixel goes "
                       f"into the print file (a slow build, a large PDF); {need} px print it at {GOOD_DPI} dpi")
        self._report(scope, where, box_id, message, source=str(box.get("src", "")), severity="warning")

    def _check_cover_cut(self, op, box, scope, where, box_id):
        """A warning, once per file and box, when ``fit: cover`` cuts a lot off a picture: a portrait in a
        landscape box loses its head and feet without a word, on paper only."""
        told = (op.payload, box_id, where)
        if told in self._cuts_told:
            return
        pixels = self._image_pixels[op.payload]  # (measured by _check_resolution)
        across, down = cover_cut(pixels, op.w, op.h)
        if max(across, down) <= MAX_COVER_CUT:
            return
        self._cuts_told.add(told)
        src = str(self._value(box, "src", scope, "")).strip()
        side, cut = ("width", across) if across > down else ("height", down)
        message = (f"image {src!r} is {pixels[0]}x{pixels[1]} px: fit cover cuts {cut:.0%} of its {side} off to "
                   f"fill this {op.w / 72 * 25.4:.0f}x{op.h / 72 * 25.4:.0f} mm box (the wrong picture or box? "
                   f"fit contain shows it whole)")
        self._report(scope, where, box_id, message, source=str(box.get("src", "")), severity="warning")

    def _check_on_card(self, kind, x, y, w, h, scope, where, box_id):
        """Once per box: an error when a box lies wholly beyond the bleed (it prints nothing: a slip of a
        number, ``y: 125mm`` on a 120 mm card, that would print every card without it), a warning when a
        text box reaches past the trim (its text is cut off there)."""
        # every box of every card comes here: the plain comparisons first, the rest only for a box to tell of
        outside = x >= self.w + self.bleed or y >= self.h + self.bleed or x + w <= -self.bleed or y + h <= -self.bleed
        if not outside and (kind != "text" or max(-x, -y, x + w - self.w, y + h - self.h) <= OFF_CARD_SLACK):
            return
        told = (where, box_id)
        if told in self._off_card_told:
            return
        past = {"left": -x, "top": -y, "right": x + w - self.w, "bottom": y + h - self.h}
        side = max(past, key=past.get)
        self._off_card_told.add(told)
        card = f"{self.w / MM:.0f} x {self.h / MM:.0f} mm"
        if outside:
            message = (f"box lies wholly outside the card ({card}) and its {self.bleed / MM:.0f} mm bleed: nothing "
                       f"of it prints (x and y are measured from the card's top-left corner)")
        else:
            message = (f"text box reaches {past[side] / MM:.1f} mm past the card's {side} edge ({card}): text there "
                       f"is cut off; keep text 3 mm inside the card")
        self._report(scope, where, box_id, message, severity="error" if outside else "warning")

    def _text(self, box, scope, where, box_id, w, h):
        source = box.get("text", "")
        text = self.expr.render(source, scope.values) if is_template(source) else str(source or "")
        if not text.strip():
            return None
        size = self._length(box, "size", scope, 9.0)
        min_size = self._length(box, "min_size", scope, size)
        # settings a box does not write take their defaults without a look-up (most boxes write few)
        leading = float(self._value(box, "leading", scope, 1.3)) if "leading" in box else 1.3
        align = _one_of("align", self._value(box, "align", scope, "left"), ("left", "center", "right", "justify")) \
            if "align" in box else "left"
        valign = _one_of("valign", self._value(box, "valign", scope, "top"), ("top", "middle", "bottom")) \
            if "valign" in box else "top"
        font = _one_of("font", self._value(box, "font", scope, "regular"), ("regular", "bold"),
                       " (the game's two fonts; another typeface goes in game.yaml's fonts:, docs/content-format.md)") \
            if "font" in box else "regular"
        direction = _one_of("direction", self._value(box, "direction", scope), ("horizontal", "vertical")) \
            if "direction" in box else "horizontal"
        if w <= 0 or h <= 0:
            raise ValueError("a text box needs a positive w and h")
        markup = f"**{text}**" if font == "bold" else text
        icon_scale = float(self._value(box, "icon_scale", scope, 1.0)) if "icon_scale" in box else 1.0
        # Many faces repeat a text (backs, costs, names of copies): lay each out once per build.
        key = (markup, size, w, h, leading, min_size, align, valign, icon_scale, direction)
        block = self._text_cache.get(key)
        if block is None:
            block = self.layout_text(markup, self.fonts, size=size, width=w, height=h, leading=leading,
                                     min_size=min_size, align=align, valign=valign, icon_names=self.icon_names,
                                     icon_scale=icon_scale, direction=direction)
            if len(self._text_cache) >= TEXT_CACHE_SIZE:  # bounded: unique texts must not pile up
                self._text_cache.pop(next(iter(self._text_cache)))
            self._text_cache[key] = block
        self._text_problems(block, scope, source, box_id, min_size < size, text)
        return block

    def _unknown_icon_hint(self, name: str) -> str:
        """A close name, else where a game's icons are defined and which it has (a newcomer's first
        ``:blade:`` is not a typo but an icon not drawn yet)."""
        close = _close(name, self.icon_names)
        if close:
            return close
        known = sorted(self.icon_names)
        listed = ", ".join(known) if len(known) <= ICONS_LISTED else f"{len(known)} of them"
        return (f" (define it under icons: in {Location(str(self.game_root / 'icons.yaml')).display()}, "
                f"docs/layouts.md \"Icons\"; the icons known: {listed or 'none'})")

    def _text_problems(self, block, scope, source, box_id, shrinks, text=""):
        if block.fits and not block.unknown_icons and not block.missing_glyphs:
            return
        card_field = _card_field(source) or _field_printing(scope.ctx.values.get("card"), text, block.unknown_icons,
                                                            _var_sources(source, scope.layout.vars))
        field_path = f"{scope.ctx.field_prefix}.{card_field}" if card_field else scope.ctx.field_prefix
        layout_name = _display_path(scope.layout.path)
        where = scope.ctx.at(card_field)
        if block.overflow_lines:
            lines = ("line" if block.direction == "horizontal" else "column") + \
                ("" if block.overflow_lines == 1 else "s")
            fixed = "" if shrinks else " (the box does not shrink its text: give it a min_size below its size)"
            scope.problems.append(Problem(where, field_path,
                                          f"overflows box '{box_id}' of {layout_name} by {block.overflow_lines} "
                                          f"{lines} at {block.size:g}pt{fixed}"))
        if block.cut_words:
            scope.problems.append(Problem(where, field_path, _cut_message(block, box_id, layout_name, shrinks)))
        for what, length in dict.fromkeys(block.overfull):
            scope.problems.append(Problem(where, field_path, _overfull_message(block, what, length, box_id,
                                                                              layout_name)))
        for name in block.unknown_icons:
            scope.problems.append(Problem(where, field_path,
                                          f"unknown icon ':{name}:' in box '{box_id}'{self._unknown_icon_hint(name)}"))
        if block.missing_glyphs:
            chars = "".join(sorted(block.missing_glyphs))
            scope.problems.append(Problem(where, field_path,
                                          f"the font has no glyph for {chars!r} (box '{box_id}' of {layout_name})"))


def box_location(layout_path, box) -> Location:
    """A box's first line, in the layout that writes it: an inherited box's line is its parent's."""
    if not isinstance(box, dict):
        return Location(str(layout_path), 0)
    written = getattr(box.get("id"), "location", None) or getattr(box.get("type"), "location", None)
    return Location(written.path if written else str(layout_path), box.get("__line__", 0))


def _cut_message(block, box_id, layout_name, shrinks) -> str:
    """A word wider than its box at the smallest size allowed prints split over two lines, as badly as
    text that overflows: said the same way, with what to change."""
    words = list(dict.fromkeys(block.cut_words))
    one = len(words) == 1
    side = "width" if block.direction == "horizontal" else "height"
    floor = "min_size" if shrinks else "no min_size to shrink to"
    return (f"{', '.join(repr(w) for w in words)} {'does' if one else 'do'} not fit the {side} of box "
            f"'{box_id}' of {layout_name} at {block.size:g}pt ({floor}): {'it is' if one else 'they are'} "
            f"cut mid-word")


ICONS_LISTED = 12  # more known icons than this are counted in an unknown icon's message, not listed


def _overfull_message(block, what, length, box_id, layout_name) -> str:
    """A glyph or icon wider than the whole box sits alone on its line and prints past the box's edge:
    no break or shrinking helped (it is measured at the smallest size tried)."""
    side, box_side = ("wide", block.width) if block.direction == "horizontal" else ("long", block.height)
    return (f"{what} is {length:.1f}pt {side} at {block.size:g}pt, more than box '{box_id}' of {layout_name} "
            f"({box_side:.1f}pt): it prints past the box's edge")


#: a literal length's spelling -> points, filled as lengths are parsed; no value (None) is 0 pt, the default
#: of x, y, w, h, dx and dy. Templates never enter it: their value depends on the card.
_POINTS: dict = {None: 0.0}
MAX_POINTS = 4096  # literals come from layout files; the bound only guards a long `pnp watch`


@lru_cache(maxsize=4096)
def _length_of(text: str) -> float:
    """Lengths repeat across thousands of faces: parse each spelling once."""
    return parse_length(text)


#: a colour's spelling -> its one spelling for the painters (``normal_colour``; None for none), filled as
#: literals and templates' values are read: ~8 colours a face, a handful of spellings a deck. Templates
#: never enter it (a value that is itself a template neither): what they give depends on the card.
_COLOURS: dict = {None: None}
_colour_of = lru_cache(maxsize=1024)(normal_colour)  # icons' colours
MAX_COLOURS = 4096  # as _POINTS: values come from layouts and records; the bound guards a long `pnp watch`


def _guard_hint(source) -> str:
    """How to draw an image box only on the cards that name a file, for a src read from a card field."""
    card_field = _card_field(source)
    return f' (draw the box only on cards that have one: when: "card.{card_field}")' if card_field else ""


def _var_sources(source, layout_vars) -> list[str]:
    """The sources of the layout vars a box's template reads (``{{ v.body }}`` -> ``card.text``)."""
    return [str(layout_vars[name]) for name in _VAR_NAME.findall(str(source)) if name in layout_vars]


def _field_printing(card, text: str, icons=(), var_sources=()) -> str | None:
    """The card field a text box prints when its template names none (Valheim's ``{{ v.body }}``, a var
    that reads ``card.text``; its typeline's ``'「' ~ card.title ~ '」'``): the field a var it reads
    names, when the box's text shows that field's value; else the field whose value is the text, else
    the one holding its unknown icon. So the problem is said at that field's line, as for a box that
    names ``card.text`` itself."""
    if not isinstance(card, dict):
        return None
    named = (_card_field(var) for var in var_sources)
    fields = [(key, value) for key, value in card.items() if isinstance(key, str) and isinstance(value, str) and value]
    return next((key for key in named if key and isinstance(card.get(key), str) and card[key]
                 and card[key] in text), None) or \
        next((key for key, value in fields if value == text), None) or \
        next((key for name in icons for key, value in fields if f":{name}:" in value), None)


def _card_field(source) -> str | None:
    match = _CARD_FIELD.search(str(source))
    return (match.group(1) or match.group(2)) if match else None


def _display_path(path) -> str:
    return Location(str(path)).display()


def _close(name, names) -> str:
    from ..content.schema import did_you_mean

    return did_you_mean(name, sorted(names))  # sorted: the same hint whatever the set's order


def _one_of(key: str, value, choices: tuple, otherwise: str = ""):
    """``value`` if it is one of ``choices``, else the located error's message (British 'centre' gets
    'center' offered; ``otherwise``: what to do when no choice is close)."""
    if value in choices:
        return value
    listed = ", ".join(choices[:-1]) + f" or {choices[-1]}"
    raise _BadValue(f"{key} must be {listed}, got {value!r}{_close(str(value), choices) or otherwise}", value)


class _BadValue(ValueError):
    """A box value that is not allowed, located at the line a literal was written on (a template's
    result, a number, a default has no line of its own: the box's line is used)."""

    def __init__(self, message: str, value, source: str = ""):
        super().__init__(message)
        self.location = getattr(value, "location", None)
        self.source = source  # the template that gave the value: a card field it reads locates the card
