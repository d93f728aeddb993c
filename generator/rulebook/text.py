"""Rulebook paragraphs: styled inline spans broken into lines by the project's kinsoku breaker.

The card text engine (:mod:`generator.text`) knows two styles (regular and bold). A rulebook
paragraph needs more (links, code, emphasis colour), so the spans are handed to
:func:`generator.text.kinsoku.wrap` as plain tokens and the styles are mapped back onto the
wrapped pieces by position: the breaker keeps every atom in order and only drops ASCII
spaces at line breaks, so walking the source characters alongside the pieces is exact.

Lines are justified like printed Japanese (the extra space of a non-final line is spread
over the break opportunities, never inside a Latin word), and drawn with ReportLab's
character spacing so that a line of N characters is a handful of PDF operators, not N.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..text.kinsoku import JUSTIFIED_WORD_KEEP, WORD_KEEP, widest_unbroken, wrap, wrapped_cut_words
from ..text.markup import Icon, Newline, Text

__all__ = ["Style", "Span", "Line", "Placed", "layout_spans", "draw_lines", "plain_text"]

#: ``Style.link`` values with this prefix are web addresses; others are internal destinations.
URL_PREFIX = "url:"
#: Inline icons are drawn this much larger than the text's em box.
ICON_SCALE = 1.05
#: Justification never widens one gap by more than this many ems (the line stays ragged).
MAX_JUSTIFY_EM = 0.5


@dataclass(frozen=True)
class Style:
    bold: bool = False
    color: str | None = None       # None: the paragraph's colour
    link: str | None = None        # internal destination name
    code: bool = False


PLAIN = Style()


@dataclass(frozen=True)
class Span:
    """A piece of inline content: text in one style, an icon, or a hard line break."""

    text: str = ""
    style: Style = PLAIN
    icon: str | None = None
    newline: bool = False
    where: object = field(default=None, compare=False)  # the Markdown line it comes from (None: generated)


@dataclass
class Placed:
    """Consecutive pieces of one line drawn with one string operator."""

    x: float
    text: str
    style: Style
    char_space: float = 0.0
    icon: str | None = None
    width: float = 0.0


@dataclass
class Line:
    width: float                   # natural width of the content
    items: list = field(default_factory=list)   # Placed
    ends_paragraph: bool = True

    @property
    def text(self) -> str:
        return "".join(p.text if p.icon is None else f":{p.icon}:" for p in self.items)


@lru_cache(maxsize=131072)
def _width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def plain_text(spans) -> str:
    return "".join("\n" if s.newline else (s.text if s.icon is None else "") for s in spans)


def layout_spans(spans, fonts, size: float, width: float, *, align: str = "justify",
                 cut: list | None = None) -> list[Line]:
    """Break styled spans into lines no wider than ``width`` (kinsoku, oidashi, no hanging); the
    words wider than the line, cut mid-word, are added to ``cut`` when it is given."""
    wrapped, stream = _wrapped(spans, fonts, size, width, JUSTIFIED_WORD_KEEP if align == "justify" else WORD_KEEP)
    if cut is not None and wrapped.forced_breaks:
        cut.extend(wrapped_cut_words(wrapped.lines))
    lines: list[Line] = []
    k = 0
    for wl in wrapped.lines:
        pieces = []                # (text|None, style|None, icon|None, width, gap_before)
        for piece in wl.pieces:
            tok = piece.token
            if isinstance(tok, Icon):
                while k < len(stream) and stream[k][0] is not None:
                    k += 1         # dropped spaces before an icon
                pieces.append((None, None, tok.name, piece.width, piece.gap_before))
                k += 1
                continue
            text = tok.text
            while k < len(stream) and "".join(
                    c if c is not None else "\0" for c, _ in stream[k:k + len(text)]) != text:
                k += 1             # spaces the breaker dropped at a line break
            style = stream[k][1] if k < len(stream) else PLAIN
            pieces.append((text, style, None, piece.width, piece.gap_before))
            k += len(text)
        lines.append(_place(pieces, wl.width, wl.ends_paragraph, width, size, align))
    return lines


def min_width(spans, fonts, size: float) -> float:
    """The narrowest width the spans break into lines at without cutting a word: their widest word
    (or run of characters that may not be broken, or icon)."""
    narrowest = max((line.width for line in _wrapped(spans, fonts, size, size * 0.5)[0].lines), default=0.0)
    # wrapped as narrow as its widest character allows, a break that cuts a word is told from one at a
    # space (narrower, every line is overfull and looks cut)
    return widest_unbroken(_wrapped(spans, fonts, size, narrowest + 1e-6)[0].lines)


def _wrapped(spans, fonts, size: float, width: float, word_keep: float = WORD_KEEP):
    """The spans wrapped at ``width`` and, in source order, each character's (or icon's)
    ``(char or None, style or icon name)``."""
    tokens: list = []
    stream: list = []
    for span in spans:
        if span.newline:
            tokens.append(Newline())
            continue
        if span.icon is not None:
            tok = Icon(span.icon)
            tokens.append(tok)
            stream.append((None, span.icon))
            continue
        if not span.text:
            continue
        tokens.append(Text(span.text, span.style.bold))
        stream.extend((ch, span.style) for ch in span.text)

    icon_size = size * ICON_SCALE

    def measure(tok):
        if isinstance(tok, Icon):
            return icon_size
        return _width(tok.text, fonts.font_for(tok.bold), size)

    return wrap(tokens, measure, width, word_keep=word_keep), stream


def _place(pieces, natural: float, ends: bool, width: float, size: float, align: str) -> Line:
    gaps = sum(1 for p in pieces[1:] if p[4])
    extra = 0.0
    if align == "justify" and not ends and gaps:
        free = width - natural
        if free > 1e-6 and free / gaps <= MAX_JUSTIFY_EM * size:
            extra = free / gaps
    offset = 0.0
    if align == "center":
        offset = max(0.0, (width - natural) / 2)
    elif align == "right":
        offset = max(0.0, width - natural)
    items: list[Placed] = []
    x = offset
    current: Placed | None = None
    mode = None                    # inside `current`: True = every boundary is a gap
    for i, (text, style, icon, w, gap) in enumerate(pieces):
        if i and gap:
            x += extra
        if icon is not None:
            items.append(Placed(x, "", PLAIN, icon=icon, width=w))
            current = None
            x += w
            continue
        if current is not None and current.style == style and (mode is None or mode == gap):
            if mode is None:
                mode = gap
                current.char_space = extra if gap else 0.0
            current.text += text
            current.width = x + w - current.x
        else:
            current = Placed(x, text, style, width=w)
            items.append(current)
            mode = None
        x += w
    if extra == 0.0:
        for p in items:
            p.char_space = 0.0
    return Line(natural if extra == 0.0 else width, items, ends)


def draw_lines(canvas, lines, x: float, y_top: float, *, fonts, size: float, leading: float,
               color, draw_icon, link_color=None, first_baseline: float | None = None,
               links: bool = True) -> None:
    """Draw lines with the first baseline at ``y_top - first_baseline`` (default: the ascent)."""
    from reportlab.lib.colors import toColor

    base = toColor(color) if isinstance(color, str) else color
    first = fonts.ascent * size if first_baseline is None else first_baseline
    icon_size = size * ICON_SCALE
    icon_bottom = fonts.cap_height * size / 2.0 - icon_size / 2.0
    for n, line in enumerate(lines):
        baseline = y_top - first - n * leading
        for item in line.items:
            left = x + item.x
            if item.icon is not None:
                canvas.saveState()
                draw_icon(canvas, item.icon, left, baseline + icon_bottom, icon_size)
                canvas.restoreState()
                continue
            style = item.style
            ink = toColor(style.color) if style.color else base
            canvas.saveState()
            canvas.setFillColor(ink)
            canvas.setStrokeColor(ink)
            if style.code:
                canvas.setFillColor(toColor("#eeeae2"))
                canvas.rect(left - 0.8, baseline - fonts.descent * size - 0.4, item.width + 1.6,
                            (fonts.ascent + fonts.descent) * size + 0.8, stroke=0, fill=1)
                canvas.setFillColor(ink)
            t = canvas.beginText(left, baseline)
            t.setFont(fonts.font_for(style.bold), size)
            if item.char_space:
                t.setCharSpace(item.char_space)
            if style.bold and fonts.synthetic_bold:
                canvas.setLineWidth(fonts.bold_stroke * size)
                canvas.setLineJoin(1)
                t.setTextRenderMode(2)
            t.textOut(item.text)
            canvas.drawText(t)
            canvas.restoreState()
            if style.link and links:
                rect = (left, baseline - fonts.descent * size, left + item.width, baseline + fonts.ascent * size)
                if style.link.startswith(URL_PREFIX):
                    canvas.linkURL(style.link[len(URL_PREFIX):], rect, relative=1, thickness=0)
                else:
                    canvas.linkRect("", style.link, rect, relative=1, thickness=0)


def restyle(spans, **changes):
    """The spans with some style attributes changed (e.g. every span bold in a heading)."""
    return [s if s.icon is not None or s.newline else replace(s, style=replace(s.style, **changes))
            for s in spans]
