"""Draws instantiated ops on a ReportLab canvas. No layout decisions are made here.

The canvas origin is the card's trim lower-left corner (y up), as set up by imposition;
ops use layout coordinates (origin top-left, y down), so ``y_pdf = card_h - y``.
"""
from __future__ import annotations

from weakref import WeakKeyDictionary

from reportlab.lib import colors
from reportlab.lib.utils import ImageReader

from .images import drawable, pixel_size, embed_key
from .instantiate import Op

_COLORS: dict = {}
_SHAPE_CACHE_SIZE = 4096  # distinct shapes kept per component (data-sized bars would be endless)
#: canvas -> {embed_key: the file drawn for those bytes}. ReportLab embeds a file once per name,
#: so two files of the same bytes were embedded twice; all the component painters of a PDF share it.
_FILE_OF_BYTES: WeakKeyDictionary = WeakKeyDictionary()


def color(value):
    """A ReportLab Color for a colour string, parsed once per build (it is asked thousands of times)."""
    parsed = _COLORS.get(value)
    if parsed is None:
        parsed = _COLORS[value] = colors.toColor(value)
    return parsed


class Painter:
    """Paints ops for cards of one size; images are read once and embedded once."""

    def __init__(self, fonts, icons, card_h: float, draw_text_block=None):
        from ..text import draw_text_block as default_draw

        self.fonts, self.icons, self.card_h = fonts, icons, card_h
        self.draw_text_block = draw_text_block or default_draw
        self._images: dict = {}  # path -> (what drawImage takes, its pixel size), see _embeddable
        self._embed_keys: dict = {}  # path -> embed_key
        # The operators ReportLab wrote for each opaque simple shape, replayed when the same shape
        # comes again: a card's frame, panel and discs sit at the same place on every card of a
        # component, and ReportLab's path objects cost more than the rest of the card.
        self._shapes: dict = {}

    def paint(self, canvas, ops: list[Op]) -> None:
        for op in ops:
            self._op(canvas, op)

    # -- one op ------------------------------------------------------------------------------
    def _op(self, c, op: Op):
        if op.kind in ("rect", "roundrect", "ellipse") and not op.rotate and op.opacity >= 1 \
                and not op.style.get("dash"):
            self._simple(c, op)  # the bulk of a card: no state to save and restore
            return
        if op.kind == "text" and not op.rotate:
            self._text(c, op)  # the text block saves and restores the state itself
            return
        c.saveState()
        if op.rotate:
            cx, cy = op.x + op.w / 2, self.card_h - (op.y + op.h / 2)
            c.translate(cx, cy)
            c.rotate(-op.rotate)  # layout angles turn clockwise, like the y-down frame they live in
            c.translate(-cx, -cy)
        getattr(self, f"_{op.kind}")(c, op)
        c.restoreState()

    def _simple(self, c, op):
        style = op.style
        fill, stroke = style.get("fill"), style.get("stroke")
        key = (op.kind, op.x, op.y, op.w, op.h, style.get("r"), fill, stroke, style.get("stroke_width"))
        code = self._shapes.get(key)
        if code is not None:
            c.addLiteral(code)
            return
        translucent = _translucent(fill) or _translucent(stroke)
        if translucent:
            c.saveState()  # a colour's own alpha stays with this shape
        start = len(c._code)
        if fill:
            c.setFillColor(color(fill))
        if stroke:
            c.setStrokeColor(color(stroke))
            c.setLineWidth(style.get("stroke_width", 0.5))
        getattr(self, f"_{op.kind}")(c, op, styled=True)
        if translucent:
            c.restoreState()
        elif len(self._shapes) < _SHAPE_CACHE_SIZE:
            self._shapes[key] = "\n".join(c._code[start:])

    def _style(self, c, style, opacity: float = 1.0) -> tuple[bool, bool]:
        fill, stroke = style.get("fill"), style.get("stroke")
        # setFillColor resets the alpha, so the opacity goes with each colour.
        alpha = opacity if opacity < 1 else None
        if fill:
            c.setFillColor(color(fill), alpha=alpha)
        if stroke:
            c.setStrokeColor(color(stroke), alpha=alpha)
            c.setLineWidth(style.get("stroke_width", 0.5))
            if style.get("dash"):
                c.setDash(style["dash"])
        return bool(fill), bool(stroke)

    def _rect(self, c, op, styled=False):
        fill, stroke = (bool(op.style.get("fill")), bool(op.style.get("stroke"))) if styled \
            else self._style(c, op.style, op.opacity)
        y = self.card_h - op.y - op.h
        r = op.style.get("r") or 0
        if r > 0:
            c.roundRect(op.x, y, op.w, op.h, min(r, op.w / 2, op.h / 2), fill=fill, stroke=stroke)
        else:
            c.rect(op.x, y, op.w, op.h, fill=fill, stroke=stroke)

    _roundrect = _rect

    def _ellipse(self, c, op, styled=False):
        fill, stroke = (bool(op.style.get("fill")), bool(op.style.get("stroke"))) if styled \
            else self._style(c, op.style, op.opacity)
        y = self.card_h - op.y - op.h
        c.ellipse(op.x, y, op.x + op.w, y + op.h, fill=fill, stroke=stroke)

    def _line(self, c, op):
        self._style(c, {**op.style, "fill": None}, op.opacity)
        c.setLineCap({"butt": 0, "round": 1, "square": 2}.get(op.style.get("cap"), 0))
        x2, y2 = op.payload
        c.line(op.x, self.card_h - op.y, x2, self.card_h - y2)

    def _polygon(self, c, op):
        fill, stroke = self._style(c, op.style, op.opacity)
        path = c.beginPath()
        for k, (px, py) in enumerate(op.payload):
            x, y = op.x + px, self.card_h - (op.y + py)
            path.moveTo(x, y) if k == 0 else path.lineTo(x, y)
        path.close()
        c.drawPath(path, fill=fill, stroke=stroke)

    def _path(self, c, op):
        fill, stroke = self._style(c, op.style, op.opacity)
        segments, viewbox = op.payload
        vx, vy, vw, vh = viewbox
        sx, sy = (op.w / vw if op.w else 1.0), (op.h / vh if op.h else 1.0)
        c.drawPath(self._path_object(c, segments, lambda px, py: (op.x + (px - vx) * sx,
                                                                 self.card_h - (op.y + (py - vy) * sy))),
                   fill=fill, stroke=stroke, fillMode=1)

    @staticmethod
    def _path_object(c, segments, to_pdf):
        path = c.beginPath()
        for seg in segments:
            if seg[0] == "M":
                path.moveTo(*to_pdf(seg[1], seg[2]))
            elif seg[0] == "L":
                path.lineTo(*to_pdf(seg[1], seg[2]))
            elif seg[0] == "C":
                path.curveTo(*to_pdf(seg[1], seg[2]), *to_pdf(seg[3], seg[4]), *to_pdf(seg[5], seg[6]))
            else:
                path.close()
        return path

    def _image(self, c, op):
        source, (iw, ih) = self._images.get(op.payload) or self._embeddable(op.payload)
        if isinstance(source, str):  # a redrawn picture is a reader, which ReportLab names by its pixels
            source = _FILE_OF_BYTES.setdefault(c, {}).setdefault(self._embed_key(op.payload), source)
        fit = op.style.get("fit", "contain")
        w, h, x, y = op.w, op.h, op.x, op.y
        if fit != "stretch":
            scale = (min if fit == "contain" else max)(op.w / iw, op.h / ih)
            w, h = iw * scale, ih * scale
            x, y = op.x + (op.w - w) / 2, op.y + (op.h - h) / 2
        if fit == "cover":
            path = c.beginPath()
            path.rect(op.x, self.card_h - op.y - op.h, op.w, op.h)
            c.clipPath(path, stroke=0, fill=0)
        c.drawImage(source, x, self.card_h - y - h, w, h, mask="auto")

    def _embed_key(self, path):
        key = self._embed_keys.get(path)
        if key is None:
            key = self._embed_keys[path] = embed_key(path)
        return key

    def _embeddable(self, path):
        """``(what drawImage takes, pixel size)``, kept per file. A file embedded as it is goes by its name:
        ReportLab then embeds it once and keeps no decoded pixels (an ImageReader kept here held every
        picture of a deck in memory, a 1500x2000 px one 9 MB, and hashed all its pixels at every draw)."""
        drawn = drawable(path)
        if isinstance(drawn, str):
            entry = (drawn, pixel_size(path))
        else:  # redrawn (turned upright, 8-bit): a reader, as rare as such files
            reader = ImageReader(drawn)
            entry = (reader, reader.getSize())
        self._images[path] = entry
        return entry

    def _icon(self, c, op):
        self.draw_icon_at(c, op.payload, op.x, self.card_h - op.y - op.h, op.w, op.h, op.style.get("color"),
                          alpha=op.opacity if op.opacity < 1 else None)

    def draw_icon_at(self, c, name, x, y_bottom, w, h, ink, alpha=None):
        """Draw icon ``name`` into the PDF rectangle (x, y_bottom, w, h), keeping its aspect."""
        icon = self.icons.get(name)
        vx, vy, vw, vh = icon.viewbox
        scale = min(w / vw, h / vh)
        ox, oy = x + (w - vw * scale) / 2, y_bottom + (h - vh * scale) / 2
        top = oy + vh * scale

        def to_pdf(px, py):
            return ox + (px - vx) * scale, top - (py - vy) * scale

        for shape in icon.shapes:
            c.saveState()
            fill = _current(shape.get("fill"), ink)
            stroke = _current(shape.get("stroke"), ink)
            if fill:
                c.setFillColor(color(fill), alpha=alpha)
            if stroke:
                c.setStrokeColor(color(stroke), alpha=alpha)
                c.setLineWidth(float(shape.get("stroke_width", 1)) * scale)
                c.setLineJoin(1)
                c.setLineCap(1)
            kind = shape["type"]
            if kind == "circle":
                cx, cy = to_pdf(shape["cx"], shape["cy"])
                c.circle(cx, cy, shape["r"] * scale, fill=bool(fill), stroke=bool(stroke))
            elif kind == "rect":
                rx, ry = to_pdf(shape["x"], shape["y"] + shape["h"])
                r = shape.get("r", 0) * scale
                rw, rh = shape["w"] * scale, shape["h"] * scale
                if r:
                    c.roundRect(rx, ry, rw, rh, r, fill=bool(fill), stroke=bool(stroke))
                else:
                    c.rect(rx, ry, rw, rh, fill=bool(fill), stroke=bool(stroke))
            elif kind == "polygon":
                path = c.beginPath()
                for k, (px, py) in enumerate(shape["points"]):
                    path.moveTo(*to_pdf(px, py)) if k == 0 else path.lineTo(*to_pdf(px, py))
                path.close()
                c.drawPath(path, fill=bool(fill), stroke=bool(stroke))
            elif kind == "path":
                from .icons import parse_path
                c.drawPath(self._path_object(c, parse_path(shape["d"]), to_pdf), fill=bool(fill),
                           stroke=bool(stroke), fillMode=1)
            elif kind == "line":
                c.line(*to_pdf(shape["x1"], shape["y1"]), *to_pdf(shape["x2"], shape["y2"]))
            elif kind == "text":
                self._icon_text(c, shape, to_pdf, scale, fill or ink)
            c.restoreState()

    def _icon_text(self, c, shape, to_pdf, scale, ink_value):
        from reportlab.pdfbase.pdfmetrics import stringWidth

        size = float(shape.get("size", 40)) * scale
        tx, ty = to_pdf(shape.get("x", 50), shape.get("y", 50))
        text = str(shape.get("text", ""))
        font = self.fonts.regular
        width = stringWidth(text, font, size)
        tx -= {"left": 0, "right": width}.get(shape.get("align", "center"), width / 2)
        ink = color(ink_value or "#000000")
        t = c.beginText(tx, ty)
        t.setFont(font, size)
        t.setFillColor(ink)
        if shape.get("bold"):  # IPAexGothic has no bold face: fill + stroke the outline
            t.setStrokeColor(ink)
            c.setLineWidth(size * 0.04)
            t.setTextRenderMode(2)
        t.textOut(text)
        c.drawText(t)

    def _text(self, c, op):
        block = op.payload

        def draw_icon(canvas, name, x, y_bottom, size):
            self.draw_icon_at(canvas, name, x, y_bottom, size, size, op.style.get("color"))

        self.draw_text_block(c, block, op.x, self.card_h - op.y, fonts=self.fonts,
                             color=op.style.get("color") or "#000000", draw_icon=draw_icon)

    def _group(self, c, op):
        if op.style.get("clip"):
            path = c.beginPath()
            path.rect(op.x, self.card_h - op.y - op.h, op.w, op.h)
            c.clipPath(path, stroke=0, fill=0)
        for child in op.children:
            self._op(c, child)


def _translucent(value) -> bool:
    alpha = getattr(color(value), "alpha", None) if value else None
    return alpha is not None and alpha < 1


def _current(value, ink):
    if value in (None, "none"):
        return None
    return ink if value == "currentColor" else value
