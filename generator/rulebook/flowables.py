"""ReportLab flowables of the rulebook: paragraphs, headings, boxes, card images, TOC rows.

Every text goes through :mod:`generator.rulebook.text` (the project's kinsoku breaker); card
images are the card layouts' own drawing ops painted by :class:`generator.layout.paint.Painter`,
scaled, so the rulebook shows the same vector drawing as the print sheets.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.lib.colors import toColor
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Table

from .text import PLAIN, Span, Style, draw_lines, layout_spans, min_width
from .wording import wording

__all__ = [
    "Theme", "Env", "TextBlock", "Heading", "Inset", "Box", "CardFigure", "CardGrid",
    "TocRow", "Rule", "Cover", "Spacer",
]


@dataclass
class Theme:
    paper: str
    page_w: float
    page_h: float
    margin_x: float
    margin_top: float
    margin_bottom: float
    body: float
    leading: float                 # a multiple of the size
    accent: str = "#8a2b1f"
    ink: str = "#1e1b18"
    muted: str = "#6b645c"
    rule: str = "#cfc7bb"
    card_h: float = 40 * mm        # card images in the text
    thumb_h: float = 13 * mm       # card images in the component table

    @classmethod
    def for_paper(cls, paper: str, accent: str | None = None) -> "Theme":
        from reportlab.lib.pagesizes import A4, A5

        if paper == "a4":
            w, h = A4
            theme = cls("a4", w, h, 20 * mm, 22 * mm, 20 * mm, 10.5, 1.7, card_h=50 * mm, thumb_h=16 * mm)
        else:
            w, h = A5
            theme = cls("a5", w, h, 13 * mm, 17 * mm, 15 * mm, 8.6, 1.7)
        if accent:
            theme.accent = accent
        return theme

    def size(self, role: str) -> float:
        factor = {"h1": 1.75, "h2": 1.3, "h3": 1.1, "h4": 1.0, "small": 0.85, "caption": 0.78,
                  "table": 0.92, "toc": 1.0, "header": 0.8}[role]
        return round(self.body * factor, 2)


@dataclass
class Env:
    """What drawing needs: fonts, icons, theme, and a painter per card height."""

    fonts: object
    icons: object
    theme: Theme
    painters: dict = field(default_factory=dict)
    words: dict = field(default_factory=lambda: wording("ja"))   # the rulebook's own words (wording.py)
    cut_words: dict = field(default_factory=dict)  # Markdown location -> {word: line width} cut mid-word

    def painter(self, card_h: float):
        from ..layout.paint import Painter

        p = self.painters.get(card_h)
        if p is None:
            p = self.painters[card_h] = Painter(self.fonts, self.icons, card_h)
        return p

    def draw_icon(self, canvas, name, x, y_bottom, size, ink=None):
        self.painter(0.0).draw_icon_at(canvas, name, x, y_bottom, size, size, ink)


def _links_on(canvas) -> bool:
    return not getattr(canvas, "pnp_print", False)


# --- text ---------------------------------------------------------------------------------------

class TextBlock(Flowable):
    """A paragraph of styled spans; splits between lines (at least 2 lines on each side)."""

    def __init__(self, spans, env: Env, *, size=None, leading=None, align="justify", color=None,
                 space_before=0.0, space_after=0.0, bullet=None, bullet_style=None, lines=None, width=None,
                 keep_with_next=False):
        super().__init__()
        self.spans = list(spans)
        self.env = env
        self.size = size or env.theme.body
        self.leading_pt = self.size * (leading or env.theme.leading)
        self.align = align
        self.color = color or env.theme.ink
        self.spaceBefore = space_before
        self.spaceAfter = space_after
        self.bullet = bullet
        self.bullet_style = bullet_style or PLAIN
        self.lines = lines
        self._lw = width
        self.keepWithNext = keep_with_next

    def _layout(self, width):
        if self.lines is None or self._lw is None or abs(self._lw - width) > 1e-6:
            cut: list = []
            self.lines = layout_spans(self.spans, self.env.fonts, self.size, width, align=self.align, cut=cut)
            self._lw = width
            where = next((s.where for s in self.spans if s.where is not None), None)
            if cut and where is not None:  # said once the book is laid out (the widths are known only now)
                for word in cut:
                    self.env.cut_words.setdefault(where, {})[word] = width
        return self.lines

    def wrap(self, availWidth, availHeight):
        lines = self._layout(availWidth)
        self.width = availWidth
        self.height = len(lines) * self.leading_pt
        return availWidth, self.height

    def natural_width(self) -> float:
        """Width of the longest hard line (for table column sizing)."""
        lines = layout_spans(self.spans, self.env.fonts, self.size, 1e6, align="left")
        return max((ln.width for ln in lines), default=0.0)

    def min_width(self) -> float:
        """Width of the widest word (for table column sizing: narrower, it is cut mid-word)."""
        return min_width(self.spans, self.env.fonts, self.size)

    def _copy(self, lines, **changes):
        twin = TextBlock(self.spans, self.env, size=self.size, leading=self.leading_pt / self.size,
                         align=self.align, color=self.color, space_before=self.spaceBefore,
                         space_after=self.spaceAfter, bullet=self.bullet, bullet_style=self.bullet_style,
                         lines=lines, width=self._lw)
        for k, v in changes.items():
            setattr(twin, k, v)
        return twin

    def split(self, availWidth, availHeight):
        lines = self._layout(availWidth)
        n = len(lines)
        fit = int((availHeight + 1e-6) // self.leading_pt)
        if fit >= n:
            return [self]
        if n < 4 or fit < 2:
            return []
        fit = min(fit, n - 2)
        return [self._copy(lines[:fit], spaceAfter=0.0),
                self._copy(lines[fit:], spaceBefore=0.0, bullet=None)]

    def first_baseline(self) -> float:
        fonts = self.env.fonts
        return (self.leading_pt - self.size) / 2 + fonts.ascent * self.size

    def draw(self):
        c = self.canv
        env = self.env
        draw_lines(c, self.lines, 0, self.height, fonts=env.fonts, size=self.size, leading=self.leading_pt,
                   color=self.color, draw_icon=lambda cv, n, x, y, s: env.draw_icon(cv, n, x, y, s, self.color),
                   first_baseline=self.first_baseline(), links=_links_on(c))
        if self.bullet:
            style = self.bullet_style
            c.saveState()
            c.setFillColor(toColor(style.color or self.color))
            c.setFont(env.fonts.regular, self.size)
            c.drawRightString(-self.size * 0.45, self.height - self.first_baseline(), self.bullet)
            c.restoreState()


class Heading(Flowable):
    """A numbered heading: bookmark, outline entry, keep-with-next."""

    def __init__(self, level: int, number: str, spans, key: str, title: str, env: Env, outline_level: int):
        super().__init__()
        self.level, self.number, self.key, self.title = level, number, key, title
        self.env = env
        self.outline_level = outline_level
        theme = env.theme
        role = f"h{min(level, 4)}"
        self.size = theme.size(role)
        color = theme.ink if level != 3 else theme.accent
        label = []
        if number:
            label = [Span(number + ("　" if level > 1 else ""), Style(bold=True, color=theme.accent))]
        body = [s if s.icon or s.newline else Span(s.text, Style(bold=True, color=s.style.color, link=None,
                                                                 code=s.style.code))
                for s in spans]
        self.text = TextBlock((label if level > 1 else []) + body, env, size=self.size, leading=1.35,
                              align="left", color=color)
        self.keepWithNext = True
        self.spaceBefore = {1: 0, 2: theme.body * 1.6, 3: theme.body * 1.1}.get(level, theme.body * 0.8)
        self.spaceAfter = {1: theme.body * 1.4, 2: theme.body * 0.7}.get(level, theme.body * 0.35)

    def wrap(self, availWidth, availHeight):
        if self.level == 1:
            self.badge = self.size * 1.9 if self.number else 0.0
            indent = self.badge + self.size * 0.6 if self.badge else 0.0
            _, h = self.text.wrap(availWidth - indent, availHeight)
            self.height = max(h, self.badge) + self.size * 0.55
        elif self.level == 2:
            _, h = self.text.wrap(availWidth - self.size * 0.7, availHeight)
            self.height = h + self.size * 0.35
        else:
            _, h = self.text.wrap(availWidth, availHeight)
            self.height = h
        self.width = availWidth
        return availWidth, self.height

    def draw(self):
        c = self.canv
        theme = self.env.theme
        accent = toColor(theme.accent)
        if _links_on(c):
            c.bookmarkHorizontal(self.key, 0, self.height + self.size)
            c.addOutlineEntry(self.title, self.key, self.outline_level, closed=self.outline_level >= 1)
        if self.level == 1:
            th = self.text.height
            top = self.height - self.size * 0.15
            if self.badge:
                c.saveState()
                c.setFillColor(accent)
                c.roundRect(0, top - self.badge, self.badge, self.badge, self.badge * 0.14, stroke=0, fill=1)
                c.setFillColor(toColor("#ffffff"))
                size = self.size * (1.05 if len(self.number) < 3 else 0.8)
                c.setFont(self.env.fonts.regular, size)
                c.drawCentredString(self.badge / 2, top - self.badge / 2 - size * 0.36, self.number)
                c.restoreState()
                indent = self.badge + self.size * 0.6
                y = top - max(th, self.badge) / 2 - th / 2
            else:
                indent, y = 0, top - th
            self.text.drawOn(c, indent, y)
            c.saveState()
            c.setStrokeColor(accent)
            c.setLineWidth(1.1)
            c.line(0, 0.6, self.width, 0.6)
            c.restoreState()
        elif self.level == 2:
            th = self.text.height
            c.saveState()
            c.setFillColor(accent)
            c.rect(0, self.height - th + self.size * 0.12, self.size * 0.22, th - self.size * 0.24, stroke=0, fill=1)
            c.setStrokeColor(toColor(theme.rule))
            c.setLineWidth(0.5)
            c.line(0, 0.3, self.width, 0.3)
            c.restoreState()
            self.text.drawOn(c, self.size * 0.7, self.height - th)
        else:
            self.text.drawOn(c, 0, 0)


class Spacer(Flowable):
    def __init__(self, height: float):
        super().__init__()
        self.height = height

    def wrap(self, availWidth, availHeight):
        return availWidth, self.height

    def draw(self):
        pass


class Rule(Flowable):
    def __init__(self, env: Env, space=6.0):
        super().__init__()
        self.env = env
        self.spaceBefore = self.spaceAfter = space

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        return availWidth, 1.0

    def draw(self):
        c = self.canv
        c.saveState()
        c.setStrokeColor(toColor(self.env.theme.rule))
        c.setLineWidth(0.6)
        c.line(self.width * 0.3, 0.5, self.width * 0.7, 0.5)
        c.restoreState()


class Inset(Flowable):
    """A flowable drawn ``left`` points to the right (list item contents)."""

    def __init__(self, inner, left: float):
        super().__init__()
        self.inner, self.left = inner, left
        self.keepWithNext = getattr(inner, "keepWithNext", False)

    def getSpaceBefore(self):
        return self.inner.getSpaceBefore()

    def getSpaceAfter(self):
        return self.inner.getSpaceAfter()

    def wrap(self, availWidth, availHeight):
        w, h = self.inner.wrap(availWidth - self.left, availHeight)
        self.width, self.height = availWidth, h
        return availWidth, h

    def split(self, availWidth, availHeight):
        parts = self.inner.split(availWidth - self.left, availHeight)
        return [Inset(p, self.left) for p in parts]

    def draw(self):
        self.inner.drawOn(self.canv, self.left, 0)


# --- tables ------------------------------------------------------------------------------------

class KeptTable(Table):
    """A table split between rows with at least ``MIN_ROWS`` body rows on each side of the page
    break (as a TextBlock keeps 2 lines): one row left at a page foot reads as a stray line and
    its heading looks finished. ``page_height`` is a whole page's text height: a table whose
    first rows would not fit even there splits wherever it can, as before."""

    MIN_ROWS = 2

    def __init__(self, *args, page_height: float = 0.0, **kw):
        super().__init__(*args, **kw)   # ReportLab builds the parts of a split without page_height
        self.page_height = page_height

    def split(self, availWidth, availHeight):
        self._calc(availWidth, availHeight)
        heights = self._rowHeights
        rows, head = len(heights), self._header_rows()
        n = self._getFirstPossibleSplitRowPosition(availHeight)
        if n >= rows:
            return [self]
        n = min(n, rows - self.MIN_ROWS)                       # no widow rows on the next page
        if n - head < self.MIN_ROWS:                           # no orphan rows at this page foot
            if sum(heights[:head + self.MIN_ROWS]) <= self.page_height:
                return []                                      # the whole table moves to the next page
            n = self._getFirstPossibleSplitRowPosition(availHeight)
        parts = super().split(availWidth, sum(heights[:n]) + 1e-3)
        for part in parts:
            part.page_height = self.page_height
        return parts

    def _header_rows(self) -> int:
        repeat = self.repeatRows
        return repeat if isinstance(repeat, int) else max(repeat) + 1


# --- boxes (admonitions) ----------------------------------------------------------------------

BOX_KINDS = {
    # kind: (ink, tint); the title is the kind's word in wording.py
    "note": ("#2f5d8a", "#eef3f8"),
    "tip": ("#2e7046", "#edf6ef"),
    "important": ("#6b3d8f", "#f3eef8"),
    "warning": ("#9a5b00", "#fbf3e4"),
    "caution": ("#a3261b", "#fbecea"),
    "proposal": ("#8a6d00", "#fbf6df"),
    "example": ("#55504a", "#f3f1ed"),
    "faq": ("#2f5d8a", "#eef3f8"),
}


class Box(Flowable):
    """A tinted box with a coloured bar and a title; splits between (or inside) its contents."""

    def __init__(self, kind: str, title_spans, content: list, env: Env, continued=False):
        super().__init__()
        self.kind, self.env, self.content, self.continued = kind, env, list(content), continued
        ink, tint = BOX_KINDS[kind]
        self.ink, self.tint = ink, tint
        theme = env.theme
        self.pad = theme.body * 0.8
        label = list(title_spans)
        if continued:
            label = label + [Span(env.words["continued"], Style(bold=True, color=ink))]
        self.title = TextBlock([s if s.icon or s.newline else Span(s.text, Style(bold=True, color=ink))
                                for s in label], env, size=theme.size("small"), leading=1.4, align="left",
                               color=ink)
        self.title_spans = list(title_spans)
        self.spaceBefore = theme.body * 0.8
        self.spaceAfter = theme.body * 0.9

    def _inner(self, availWidth):
        return availWidth - self.pad * 2 - 2.0

    def _heights(self, inner):
        out = []
        for i, f in enumerate(self.content):
            _, h = f.wrap(inner, 1e6)
            sb = f.getSpaceBefore() if i else 0.0
            sa = f.getSpaceAfter() if i < len(self.content) - 1 else 0.0
            out.append((sb, h, sa))
        return out

    def wrap(self, availWidth, availHeight):
        inner = self._inner(availWidth)
        _, th = self.title.wrap(inner, availHeight)
        self._title_h = th
        self._layout = self._heights(inner)
        body = sum(sb + h + sa for sb, h, sa in self._layout)
        self.width = availWidth
        self.height = self.pad * 0.7 + th + self.pad * 0.3 + body + self.pad * 0.8
        return availWidth, self.height

    def split(self, availWidth, availHeight):
        self.wrap(availWidth, availHeight)
        if self.height <= availHeight:
            return [self]
        inner = self._inner(availWidth)
        room = availHeight - (self.pad * 0.7 + self._title_h + self.pad * 0.3 + self.pad * 0.8)
        taken, rest = [], []
        for i, f in enumerate(self.content):
            sb = f.getSpaceBefore() if taken else 0.0
            _, h = f.wrap(inner, room)
            if sb + h <= room:
                taken.append(f)
                room -= sb + h + f.getSpaceAfter()
                continue
            parts = f.split(inner, room - sb) if room - sb > 0 else []
            if parts and len(parts) > 1:
                taken.append(parts[0])
                rest = list(parts[1:]) + self.content[i + 1:]
            else:
                rest = self.content[i:]
            break
        if not taken or not rest:
            return []
        return [Box(self.kind, self.title_spans, taken, self.env, self.continued),
                Box(self.kind, self.title_spans, rest, self.env, True)]

    def draw(self):
        c = self.canv
        c.saveState()
        c.setFillColor(toColor(self.tint))
        c.roundRect(0, 0, self.width, self.height, 2.5, stroke=0, fill=1)
        c.setFillColor(toColor(self.ink))
        c.rect(0, 0, 2.0, self.height, stroke=0, fill=1)
        c.restoreState()
        x = 2.0 + self.pad
        y = self.height - self.pad * 0.7 - self._title_h
        self.title.drawOn(c, x, y)
        y -= self.pad * 0.3
        for (sb, h, sa), f in zip(self._layout, self.content):
            y -= sb + h
            f.drawOn(c, x, y)
            y -= sa


# --- card images ---------------------------------------------------------------------------------

class CardFigure:
    """One card face at a scale, with an optional caption (not a flowable: CardGrid places it)."""

    def __init__(self, env: Env, component, ops, caption: str | None, scale: float):
        self.env, self.component, self.ops, self.caption = env, component, ops, caption
        self.card_w, self.card_h = component.size_pt
        self.scale = scale
        self.w, self.h = self.card_w * scale, self.card_h * scale
        self.caption_block = None
        if caption:
            theme = env.theme
            self.caption_block = TextBlock([Span(caption)], env, size=theme.size("caption"), leading=1.3,
                                           align="center", color=theme.muted)

    def scaled(self, factor: float) -> "CardFigure":
        """The same figure ``factor`` times the size (the caption keeps its type size)."""
        return CardFigure(self.env, self.component, self.ops, self.caption, self.scale * factor)

    def caption_height(self, width) -> float:
        if not self.caption_block:
            return 0.0
        _, h = self.caption_block.wrap(width, 1e6)
        return h + 2.0

    def draw(self, c, x, y_bottom, caption_w):
        """Draw with the card's lower-left corner at (x, y_bottom); the caption goes below it."""
        c.saveState()
        c.translate(x, y_bottom)
        clip = c.beginPath()
        shape = getattr(self.component, "shape", "rect")
        radius = 0.0
        if self.component.kind == "card":
            radius = 3 * mm * self.scale
        if shape == "round":
            clip.ellipse(0, 0, self.w, self.h)
        elif radius:
            clip.roundRect(0, 0, self.w, self.h, radius)
        else:
            clip.rect(0, 0, self.w, self.h)
        c.saveState()
        c.clipPath(clip, stroke=0, fill=0)
        if self.ops is not None:
            c.scale(self.scale, self.scale)
            self.env.painter(self.card_h).paint(c, self.ops)
        else:
            self._placeholder(c)
        c.restoreState()
        c.setStrokeColor(toColor("#8c857c"))
        c.setLineWidth(0.4)
        if shape == "round":
            c.ellipse(0, 0, self.w, self.h, stroke=1, fill=0)
        elif radius:
            c.roundRect(0, 0, self.w, self.h, radius, stroke=1, fill=0)
        else:
            c.rect(0, 0, self.w, self.h, stroke=1, fill=0)
        c.restoreState()
        if self.caption_block:
            _, h = self.caption_block.wrap(caption_w, 1e6)
            self.caption_block.drawOn(c, x + (self.w - caption_w) / 2, y_bottom - 2.0 - h)

    def _placeholder(self, c):
        theme = self.env.theme
        c.setFillColor(toColor("#eeebe6"))
        c.rect(0, 0, self.w, self.h, stroke=0, fill=1)
        size = max(4.0, min(theme.size("caption"), self.w / 9))
        spans = [Span(self.caption or self.component.id)]
        if self.w >= 30 * mm:
            spans += [Span(newline=True), Span(self.env.words["awaiting_layout"], Style(color=theme.muted))]
        block = TextBlock(spans, self.env, size=size, leading=1.3, align="center", color=theme.ink)
        _, h = block.wrap(self.w - 4, 1e6)
        block.drawOn(c, 2, (self.h - h) / 2)


#: a card grid that does not fit the rest of a page shrinks down to this much of its size before
#: it moves to the next page (which can leave a page with little but the figure on it)
MIN_FIGURE_SHRINK = 0.8


class CardGrid(Flowable):
    """Card figures in rows, centred, spread evenly over the rows; splits between rows.

    A grid that does not fit the rest of the page is drawn smaller instead, down to
    ``MIN_FIGURE_SHRINK`` of its size, when that makes all of it fit (captions keep their
    size); only below that does it split between rows, or move to the next page.
    """

    def __init__(self, figures: list, env: Env, gap: float | None = None):
        super().__init__()
        self.figures, self.env = figures, env
        self.gap = gap if gap is not None else 4 * mm
        self.spaceBefore = env.theme.body * 0.6
        self.spaceAfter = env.theme.body * 0.9

    def _rows(self, availWidth):
        """As many rows as a greedy fill needs, the figures spread evenly over them (4 as 2 + 2,
        7 as 3 + 2 + 2): a last row of one card under a full row reads as a separate figure."""
        rows = self._greedy_rows(availWidth)
        n, r = len(self.figures), len(rows)
        if r < 2:
            return rows
        sizes = [n // r + (i < n % r) for i in range(r)]
        starts = [sum(sizes[:i]) for i in range(r)]
        even = [self.figures[s:s + k] for s, k in zip(starts, sizes)]
        if all(sum(f.w for f in row) + self.gap * (len(row) - 1) <= availWidth + 1e-6 for row in even):
            return even
        return rows                # figures of unequal widths that only the greedy fill fits

    def _greedy_rows(self, availWidth):
        rows, row, used = [], [], 0.0
        for f in self.figures:
            need = f.w if not row else used + self.gap + f.w
            if row and need > availWidth + 1e-6:
                rows.append(row)
                row, used = [f], f.w
            else:
                row.append(f)
                used = need
        if row:
            rows.append(row)
        return rows

    def _caption_w(self, f):
        return max(f.w + self.gap * 0.8, 18 * mm) if f.w < 18 * mm else f.w + self.gap * 0.8

    def _row_height(self, row):
        return max(f.h + f.caption_height(self._caption_w(f)) for f in row)

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self._rowlist = self._rows(availWidth)
        self.height = sum(self._row_height(r) for r in self._rowlist) + self.gap * 0.8 * (len(self._rowlist) - 1)
        return availWidth, self.height

    def split(self, availWidth, availHeight):
        rows = self._rows(availWidth)
        used, k = 0.0, 0
        for i, r in enumerate(rows):
            h = self._row_height(r) + (self.gap * 0.8 if i else 0.0)
            if used + h > availHeight + 1e-6:
                break
            used += h
            k = i + 1
        if k == len(rows):
            return [self]
        # the whole grid a little smaller rather than its last rows on the next page (narrower
        # figures can also take fewer rows: 2 + 2 cards become one row of 4)
        shrunk = self._shrunk_to(availWidth, availHeight)
        if shrunk is not None or k == 0:
            return [shrunk] if shrunk is not None else []
        first = [f for r in rows[:k] for f in r]
        second = [f for r in rows[k:] for f in r]
        a, b = CardGrid(first, self.env, self.gap), CardGrid(second, self.env, self.gap)
        a.spaceAfter = 0.0
        b.spaceBefore = 0.0
        return [a, b]

    def _shrunk_to(self, availWidth, availHeight):
        """The grid at the largest scale (in 1 % steps, at least ``MIN_FIGURE_SHRINK``) whose
        height fits ``availHeight``, or None."""
        steps = round((1 - MIN_FIGURE_SHRINK) * 100)
        for k in range(99, 99 - steps, -1):
            twin = CardGrid([f.scaled(k / 100) for f in self.figures], self.env, self.gap)
            twin.spaceBefore, twin.spaceAfter = self.spaceBefore, self.spaceAfter
            if twin.wrap(availWidth, availHeight)[1] <= availHeight + 1e-6:
                return twin
        return None

    def draw(self):
        c = self.canv
        y = self.height
        for i, row in enumerate(self._rowlist):
            if i:
                y -= self.gap * 0.8
            rh = self._row_height(row)
            total = sum(f.w for f in row) + self.gap * (len(row) - 1)
            x = (self.width - total) / 2
            for f in row:
                f.draw(c, x, y - f.h, self._caption_w(f))
                x += f.w + self.gap
            y -= rh


class Thumb(Flowable):
    """One small card image (a table cell)."""

    def __init__(self, figure: CardFigure):
        super().__init__()
        self.figure = figure

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self.height = self.figure.h
        return availWidth, self.height

    def draw(self):
        self.figure.draw(self.canv, (self.width - self.figure.w) / 2, 0, self.figure.w)


# --- contents ------------------------------------------------------------------------------------

class TocRow(Flowable):
    """A row of the table of contents: number, title, dot leader, page number; the row links to the heading.

    The number sits in a column ``number_width`` wide (the widest number of the row's level
    and a full-width space, see ``toc_number_width``), so every title of a level starts at
    the same x whether its number has one digit or two; a title that wraps hangs under its
    first line. Without ``number_width`` the column fits this row's own number.
    """

    def __init__(self, level: int, number: str, title: str, key: str, env: Env, page: int | None,
                 number_width: float | None = None):
        super().__init__()
        self.level, self.number, self.title, self.key, self.env, self.page = level, number, title, key, env, page
        theme = env.theme
        self.size = toc_row_size(theme, level)
        self.indent = 0.0 if level == 1 else self.size * 2.2 * (level - 1)
        bold = level == 1
        self.number_block = None
        self.number_width = 0.0
        if number:
            self.number_block = TextBlock([Span(number, Style(bold=bold, color=theme.accent))], env,
                                          size=self.size, leading=1.45, align="left")
            own = toc_number_width(env, level, [number])
            self.number_width = max(own, number_width or 0.0)
        self.text = TextBlock([Span(title, Style(bold=bold))], env, size=self.size, leading=1.45, align="left")
        self.spaceBefore = theme.body * (0.7 if level == 1 else 0.05)

    @property
    def title_x(self) -> float:
        """Where the title starts (and where its wrapped lines hang)."""
        return self.indent + self.number_width

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self.num_w = self.size * 2.6
        _, self.height = self.text.wrap(availWidth - self.title_x - self.num_w - self.size, availHeight)
        if self.number_block is not None:
            self.number_block.wrap(self.number_width, availHeight)
        return availWidth, self.height

    def draw(self):
        c = self.canv
        theme = self.env.theme
        if self.number_block is not None:
            self.number_block.drawOn(c, self.indent, self.height - self.number_block.height)
        self.text.drawOn(c, self.title_x, 0)
        last = self.text.lines[-1] if self.text.lines else None
        baseline = self.text.first_baseline() + (len(self.text.lines) - 1) * self.text.leading_pt
        y = self.height - baseline
        start = self.title_x + (last.width if last else 0) + self.size * 0.5
        end = self.width - self.num_w
        c.saveState()
        c.setFillColor(toColor(theme.muted))
        c.setFont(self.env.fonts.regular, self.size)
        dot = self.size * 0.55
        x = end - dot
        while x > start:
            c.circle(x + dot / 2, y + self.size * 0.3, 0.35, stroke=0, fill=1)
            x -= dot
        c.setFillColor(toColor(theme.ink))
        c.drawRightString(self.width, y, str(self.page) if self.page else "")
        c.restoreState()
        if _links_on(c):
            c.linkRect("", self.key, (self.indent, 0, self.width, self.height), relative=1, thickness=0)


def toc_row_size(theme, level: int) -> float:
    return theme.size("toc") if level == 1 else theme.size("small")


def toc_number_width(env: Env, level: int, numbers) -> float:
    """The number column of a contents level: its widest number and a full-width space after it."""
    size = toc_row_size(env.theme, level)
    widest = max((TextBlock([Span(n, Style(bold=level == 1))], env, size=size).natural_width()
                  for n in numbers if n), default=0.0)
    return widest + size if widest else 0.0


class Cover(Flowable):
    """The title page: title, subtitle, tagline, facts and a fan of cards."""

    def __init__(self, env: Env, title: str, subtitle: str, tagline: str | None, facts: list,
                 figures: list, version: str | None):
        super().__init__()
        self.env, self.title, self.subtitle, self.tagline = env, title, subtitle, tagline
        self.facts, self.figures, self.version = facts, figures, version

    def wrap(self, availWidth, availHeight):
        self.width, self.height = availWidth, availHeight - 1
        return self.width, self.height

    def draw(self):
        c = self.canv
        env, theme = self.env, self.env.theme
        w, h = self.width, self.height
        accent = toColor(theme.accent)
        c.saveState()
        c.setFillColor(accent)
        c.rect(0, h - 2.2, w, 2.2, stroke=0, fill=1)
        c.restoreState()
        size = theme.body * 3.0
        title = TextBlock([Span(self.title, Style(bold=True))], env, size=size, leading=1.25, align="center")
        _, th = title.wrap(w, h)
        y = h * 0.86 - th
        title.drawOn(c, 0, y)
        sub = TextBlock([Span(self.subtitle, Style(color=theme.accent))], env, size=theme.body * 1.6,
                        leading=1.3, align="center")
        _, sh = sub.wrap(w, h)
        y -= sh + theme.body * 0.8
        sub.drawOn(c, 0, y)
        if self.tagline:
            tag = TextBlock([Span(self.tagline)], env, size=theme.body * 1.05, leading=1.6, align="center",
                            color=theme.muted)
            _, tgh = tag.wrap(w * 0.86, h)
            y -= tgh + theme.body * 1.4
            tag.drawOn(c, w * 0.07, y)
        if self.figures:
            grid = CardGrid(self.figures, env, gap=3 * mm)
            _, gh = grid.wrap(w, h)
            gy = max(theme.body * 8, (y - gh) / 2 + theme.body * 2)
            grid.drawOn(c, 0, gy)
        facts = [f for f in self.facts if f]
        if self.version:
            facts = facts + [env.words["version"].format(version=self.version)]
        if facts:
            line = TextBlock([Span(env.words["facts_separator"].join(facts))], env, size=theme.size("small"), leading=1.5,
                             align="center", color=theme.muted)
            _, fh = line.wrap(w, h)
            line.drawOn(c, 0, theme.body * 2.2)
        c.saveState()
        c.setFillColor(accent)
        c.rect(0, 0, w, 1.2, stroke=0, fill=1)
        c.restoreState()
