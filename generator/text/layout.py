"""Lay out card text once: measure, break lines, apply the fit policy, place runs.

The result (:class:`TextBlock`) says everything the painter needs and everything the
fit report needs: where each run goes, at which size, and whether (and by how many
lines) the text overflows its box. Nothing is decided while painting.

Coordinates: points; ``x`` to the right from the box's left edge; ``baseline_y``
measured *down* from the box's top edge. A run's ``x`` is relative to its line's
``x``; the absolute left of a run is ``box_left + line.x + run.x``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar, Collection, Literal

from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.fonts import FontSet
from generator.text.kinsoku import (EPS, JUSTIFIED_WORD_KEEP, WORD_KEEP, Piece, WrappedLine, atom_label, cut_words,
                                   overfull_atoms, plain_lines, wrap, wrapped_cut_words)
from generator.text.markup import Icon, Newline, Text, Token, parse_markup

__all__ = ["Run", "Line", "TextBlock", "layout_text", "layout_tokens", "JUSTIFY_MAX_GAP"]

#: Justification never adds more than this (in em) at one gap; such lines stay ragged.
JUSTIFY_MAX_GAP = 1.0

_ALIGNS = ("left", "center", "right", "justify")
_VALIGNS = ("top", "middle", "bottom")


@dataclass(frozen=True)
class Run:
    """A placed piece of a line: ``kind == "text"`` (``text``, ``bold``) or
    ``kind == "icon"`` (``name``, ``icon_size``, ``icon_bottom``).

    ``icon_bottom`` is the bottom of the icon's square box relative to the baseline
    (points, positive = above the baseline); the box is centred on the middle of the
    font's cap-height band (for CJK fonts this is within 3 % of the em of the
    ideographic em-box centre).
    """

    kind: Literal["text", "icon"]
    x: float
    width: float
    text: str = ""
    bold: bool = False
    name: str = ""
    icon_size: float = 0.0
    icon_bottom: float = 0.0


@dataclass(frozen=True)
class Line:
    baseline_y: float  # down from the box top
    x: float  # alignment offset from the box left
    width: float  # width of the placed content (= box width for justified lines)
    runs: tuple[Run, ...]
    overflows: bool = False  # this line lies (partly) below the box
    ends_paragraph: bool = True


@dataclass(frozen=True)
class TextBlock:
    direction: ClassVar[str] = "horizontal"  # a VerticalBlock's is "vertical" (generator.text.vertical)
    size: float
    leading_pt: float
    lines: list[Line]
    overflow_lines: int  # lines that do not fit the height (0 when it fits)
    unknown_icons: list[str]  # icon names not in icon_names (laid out as ":name:" text)
    missing_glyphs: set[str]  # characters the font has no glyph for
    fits: bool
    height_used: float  # from the box top to the lowest descender/icon bottom
    width: float = 0.0  # the box
    height: float = 0.0
    forced_breaks: int = 0  # lines cut inside a word / against kinsoku (no legal break)
    overfull_lines: int = 0  # lines wider than the box (a single glyph/icon too wide)
    ascent_pt: float = 0.0  # first baseline below the top of the content
    descent_pt: float = 0.0  # below the last baseline
    shrunk: bool = False  # laid out below the requested size
    requested_size: float = 0.0
    problems: list[str] = field(default_factory=list)  # human-readable summary
    cut_words: tuple[str, ...] = ()  # words wider than the line, cut mid-word (a forced break inside a word)
    overfull: tuple[tuple[str, float], ...] = ()  # (glyph 'X' / icon ':name:', its width) wider than the box

    @property
    def text(self) -> str:
        """The laid-out text, lines joined with newlines (icons as ``:name:``)."""
        return "\n".join(
            "".join(r.text if r.kind == "text" else f":{r.name}:" for r in line.runs)
            for line in self.lines
        )


@lru_cache(maxsize=65536)
def text_width(text: str, font: str, size: float) -> float:
    """``stringWidth``, remembered (the same pieces are measured on every card and at every size)."""
    return stringWidth(text, font, size)


def _prepare(tokens: list[Token], icon_names: Collection[str]) -> tuple[list[Token], list[str]]:
    known = icon_names if isinstance(icon_names, (set, frozenset)) else set(icon_names)
    unknown: list[str] = []
    out: list[Token] = []
    for tok in tokens:
        if isinstance(tok, Icon) and tok.name not in known:
            if tok.name not in unknown:
                unknown.append(tok.name)
            tok = Text(f":{tok.name}:", tok.bold)
        if isinstance(tok, Text):
            text = tok.text.replace("\t", " ")
            if out and isinstance(out[-1], Text) and out[-1].bold == tok.bold:
                out[-1] = Text(out[-1].text + text, tok.bold)
                continue
            tok = Text(text, tok.bold)
        out.append(tok)
    while out and isinstance(out[-1], Newline):  # "text\n" from a YAML block scalar
        out.pop()
    return out, unknown


def layout_text(
    markup: str,
    fonts: FontSet,
    *,
    size: float,
    width: float,
    height: float,
    leading: float = 1.3,
    min_size: float | None = None,
    align: Literal["left", "center", "right", "justify"] = "left",
    valign: Literal["top", "middle", "bottom"] = "top",
    icon_names: Collection[str] = (),
    icon_scale: float = 1.0,
    shrink_step: float = 0.25,
    direction: Literal["horizontal", "vertical"] = "horizontal",
) -> TextBlock:
    """Parse ``markup`` (see :mod:`generator.text.markup`) and lay it out in a box.

    Fit policy: try ``size``; while the lines do not fit ``height`` or a line needed an
    emergency break (a word wider than the line), shrink by ``shrink_step`` down to
    ``min_size`` (default ``size``: no shrinking). At ``min_size`` the block is returned
    as is: ``overflow_lines`` counts the lines below the box, ``fits`` is False, and the
    lines are all there (nothing is clipped silently). ``leading`` is a multiple of the
    size. ``direction="vertical"`` sets 縦書き columns instead (a
    :class:`~generator.text.vertical.VerticalBlock`, same fit policy, its lines are columns).
    """
    return layout_tokens(
        parse_markup(markup), fonts, size=size, width=width, height=height, leading=leading,
        min_size=min_size, align=align, valign=valign, icon_names=icon_names,
        icon_scale=icon_scale, shrink_step=shrink_step, direction=direction,
    )


def layout_tokens(
    tokens: list[Token],
    fonts: FontSet,
    *,
    size: float,
    width: float,
    height: float,
    leading: float = 1.3,
    min_size: float | None = None,
    align: str = "left",
    valign: str = "top",
    icon_names: Collection[str] = (),
    icon_scale: float = 1.0,
    shrink_step: float = 0.25,
    direction: str = "horizontal",
) -> TextBlock:
    """:func:`layout_text` for already parsed tokens."""
    if min_size is None:
        min_size = size
    if not (size > 0 and min_size > 0):
        raise ValueError(f"text size must be positive (size={size}, min_size={min_size})")
    if min_size > size:
        raise ValueError(f"min_size {min_size} is larger than size {size}")
    if not shrink_step > 0:
        raise ValueError(f"shrink_step must be positive, not {shrink_step}")
    if not (width > 0 and height >= 0):
        raise ValueError(f"text box must have a positive width and a height (got {width} x {height})")
    if align not in _ALIGNS:
        raise ValueError(f"align must be one of {', '.join(_ALIGNS)}, not {align!r}")
    if valign not in _VALIGNS:
        raise ValueError(f"valign must be one of {', '.join(_VALIGNS)}, not {valign!r}")
    if not icon_scale > 0:
        raise ValueError(f"icon_scale must be positive, not {icon_scale}")
    lay_out = _layout_at
    if direction == "vertical":  # imported here: horizontal text never loads the vertical engine
        from generator.text.vertical import layout_columns as lay_out
        if align == "justify":
            raise ValueError("align: justify is not available with direction: vertical")
    elif direction != "horizontal":
        raise ValueError(f"direction must be horizontal or vertical, not {direction!r}")

    prepared, unknown = _prepare(list(tokens), icon_names)
    missing: set[str] = set()
    for tok in prepared:
        if isinstance(tok, Text):
            missing |= fonts.missing_glyphs(tok.text, tok.bold)

    block = None
    for s in _shrinking_sizes(size, min_size, shrink_step):
        block = lay_out(prepared, fonts, s, width, height, leading, align, valign, icon_scale,
                        unknown, missing, size)
        if block.overflow_lines == 0 and block.forced_breaks == 0:
            break
    assert block is not None
    return block


def _shrinking_sizes(size, min_size, step):
    """``size``, then ``step`` smaller each time, then ``min_size``; made one at a time (most text
    fits at its first size)."""
    k, last = 0, size
    while True:
        s = round(size - k * step, 6)
        if s < min_size - 1e-9:
            break
        yield s
        k, last = k + 1, s
    if last > min_size + 1e-9:
        yield min_size


def _layout_at(tokens, fonts: FontSet, size, width, height, leading, align, valign, icon_scale,
               unknown, missing, requested) -> TextBlock:
    icon_size = size * icon_scale
    icon_bottom = fonts.cap_height * size / 2.0 - icon_size / 2.0
    rows, forced_breaks, overfull, cut = _wrapped_rows(tokens, fonts, size, width, align, icon_size, icon_bottom)
    overfull_lines = len(overfull)
    lead = size * leading
    ascent = fonts.ascent * size
    descent = fonts.descent * size
    if any(isinstance(tok, Icon) for tok in tokens):  # every icon token is a piece of some line
        ascent = max(ascent, icon_bottom + icon_size)
        descent = max(descent, -icon_bottom)

    n = len(rows)
    if n == 0:
        fit_count = 0
        used = 0.0
    else:
        room = height + EPS - ascent - descent
        fit_count = 0 if room < 0 else min(n, int(room / lead + 1e-9) + 1)
        used = ascent + (n - 1) * lead + descent
    overflow = n - fit_count
    fits = overflow == 0 and overfull_lines == 0 and not cut

    offset = 0.0
    if overflow == 0 and n:
        if valign == "middle":
            offset = max(0.0, (height - used) / 2.0)
        elif valign == "bottom":
            offset = max(0.0, height - used)

    lines: list[Line] = []
    for k, (runs, line_width, ends_paragraph) in enumerate(rows):
        free = width - line_width
        if align == "center":
            x = max(0.0, free / 2.0)
        elif align == "right":
            x = max(0.0, free)
        else:
            x = 0.0
        lines.append(Line(
            baseline_y=offset + ascent + k * lead,
            x=x,
            width=line_width,
            runs=runs,
            overflows=k >= fit_count,
            ends_paragraph=ends_paragraph,
        ))

    problems = []
    if overflow:
        problems.append(f"{overflow} line(s) do not fit (text at {size:g}pt needs {used:.2f}pt, box is {height:.2f}pt)")
    if overfull_lines:
        problems.append(f"{overfull_lines} line(s) wider than the box (a glyph or icon wider than {width:.2f}pt)")
    problems.extend(cut_word_problems(cut, "width", width, size))
    problems.extend(glyph_problems(unknown, missing))

    return TextBlock(
        size=size,
        leading_pt=lead,
        lines=lines,
        overflow_lines=overflow,
        unknown_icons=list(unknown),
        missing_glyphs=set(missing),
        fits=fits,
        height_used=used,
        width=width,
        height=height,
        forced_breaks=forced_breaks,
        overfull_lines=overfull_lines,
        ascent_pt=ascent,
        descent_pt=descent,
        shrunk=size < requested - 1e-9,
        requested_size=requested,
        problems=problems,
        cut_words=tuple(cut),
        overfull=tuple(overfull),
    )


def cut_word_problems(words, side: str, length: float, size: float) -> list[str]:
    """The summary line about words cut mid-word (both directions: a column's side is its height)."""
    if not words:
        return []
    return [f"cut mid-word at {size:g}pt (wider than the box's {side} of {length:.2f}pt): "
            + ", ".join(repr(w) for w in dict.fromkeys(words))]


def glyph_problems(unknown, missing) -> list[str]:
    """The summary lines about unknown icons and glyphs the font lacks (both directions)."""
    problems = []
    if unknown:
        problems.append("unknown icon(s): " + ", ".join(unknown))
    if missing:
        problems.append("font has no glyph for: " + " ".join(
            f"{ch!r} (U+{ord(ch):04X})" for ch in sorted(missing)))
    return problems


def _wrapped_rows(tokens, fonts, size, width, align, icon_size, icon_bottom):
    """Each line as ``(runs, width, ends_paragraph)``, with the count of forced breaks, the
    :func:`overfull_atoms` and the cut words. Text in one style without icons (most card text) takes a path without an object
    per character; it gives the very same lines as the general one."""
    if align != "justify":
        fast = plain_lines(tokens, lambda bold: _char_widths(fonts.font_for(bold), size), width)
        if fast is not None:
            lines, bold = fast
            rows = [((Run("text", 0.0, w, text=t, bold=bold),) if t else (), w if t else 0.0, ends)
                    for t, w, ends, _, _ in lines]
            forced = sum(1 for line in lines if line[3] or line[4])
            cut = cut_words([(t, f or o, ends) for t, _, ends, f, o in lines]) if forced else []
            alone = [t.lstrip() for t, _, _, _, o in lines if o]  # one character each
            over = [(atom_label(Text(ch, bold)), text_width(ch, fonts.font_for(bold), size)) for ch in alone]
            return rows, forced, over, cut

    def measure(tok):
        if isinstance(tok, Icon):
            return icon_size
        return text_width(tok.text, fonts.font_for(tok.bold), size)

    regular, bold_font = fonts.font_for(False), fonts.font_for(True)
    widths: dict = {}

    def measure_text(text: str, bold: bool) -> float:  # per character: a dict hit, no token
        key = (text, bold)
        value = widths.get(key)
        if value is None:
            value = widths[key] = float(text_width(text, bold_font if bold else regular, size))
        return value

    wrapped = wrap(tokens, measure, width, measure_text, JUSTIFIED_WORD_KEEP if align == "justify" else WORD_KEEP)
    rows = []
    for wl in wrapped.lines:
        runs, line_width = _place_runs(wl, width, align, size, icon_size, icon_bottom)
        rows.append((tuple(runs), line_width, wl.ends_paragraph))
    forced = wrapped.forced_breaks  # no cut word without a forced break (most text: none)
    return rows, forced, overfull_atoms(wrapped.lines), wrapped_cut_words(wrapped.lines) if forced else []


class _CharWidths(dict):
    """Advance widths of single characters in one font and size, measured on first use."""

    def __init__(self, font: str, size: float):
        super().__init__()
        self.font, self.size = font, size

    def __missing__(self, ch: str) -> float:
        value = self[ch] = float(text_width(ch, self.font, self.size))
        return value


_CHAR_WIDTHS: dict = {}


def _char_widths(font: str, size: float):
    table = _CHAR_WIDTHS.get((font, size))
    if table is None:
        if len(_CHAR_WIDTHS) > 256:  # shrinking text visits many sizes: stay bounded
            _CHAR_WIDTHS.clear()
        table = _CHAR_WIDTHS[(font, size)] = _CharWidths(font, size)
    return table.__getitem__


def _place_runs(wl: WrappedLine, width, align, size, icon_size, icon_bottom):
    pieces = wl.pieces
    extra_per_gap = 0.0
    if align == "justify" and not wl.ends_paragraph and not wl.overfull:
        gaps = sum(1 for p in pieces if p.gap_before)
        free = width - wl.width
        if gaps and free > EPS and free / gaps <= JUSTIFY_MAX_GAP * size:
            extra_per_gap = free / gaps

    if not extra_per_gap and pieces:
        # Fast path: one style, no icons, no added space: the line is one run.
        bold = pieces[0].token.bold
        if all(p.kind != "icon" and p.token.bold == bold for p in pieces):
            line_width = sum(p.width for p in pieces)
            return [Run("text", 0.0, line_width, text="".join(p.token.text for p in pieces), bold=bold)], line_width

    runs: list[Run] = []
    x = 0.0
    cur: list[Piece] = []
    cur_x = 0.0

    def flush():
        if cur:
            tok = cur[0].token
            runs.append(Run("text", cur_x, sum(p.width for p in cur),
                            text="".join(p.token.text for p in cur), bold=tok.bold))
            cur.clear()

    for piece in pieces:
        if piece.gap_before and extra_per_gap:
            flush()
            x += extra_per_gap
        tok = piece.token
        if isinstance(tok, Icon):
            flush()
            runs.append(Run("icon", x, piece.width, name=tok.name,
                            icon_size=icon_size, icon_bottom=icon_bottom))
        else:
            if cur and cur[0].token.bold != tok.bold:
                flush()
            if not cur:
                cur_x = x
            cur.append(piece)
        x += piece.width
    flush()
    return runs, x
