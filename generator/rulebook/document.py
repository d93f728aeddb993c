"""The rulebook PDF: page templates, running headers, contents with page numbers, bookmarks.

Layout runs twice: the first pass records the page of every heading, the second prints the
table of contents with those numbers (the contents rows have the same height either way, so
the pages do not move; a third pass runs if they ever do). Output is deterministic
(ReportLab invariant mode, fixed metadata) and uses only the embedded TrueType fonts.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

from reportlab.lib.colors import toColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (BaseDocTemplate, Frame, KeepTogether, LayoutError, NextPageTemplate, PageBreak,
                                PageTemplate)

from .flowables import Cover, Env, Heading, TextBlock, TocRow, toc_number_width
from .text import Span, Style

TOC_KEY = "h-toc"
PRODUCER = "pnp rulebook (ReportLab)"


@dataclass
class Pages:
    headings: dict = field(default_factory=dict)   # key -> page number
    count: int = 0


class TooLarge(Exception):
    """A block taller than a page; ``where`` is its source location when known."""

    def __init__(self, where, page: int):
        super().__init__(where, page)
        self.where, self.page = where, page


class KeepWithStart(KeepTogether):
    """What ``keepWithNext`` groups (a heading, maybe its intro, then the next block): kept with the
    *start* of that block, not all of it. When the group does not fit the rest of the page but the
    block can split there (a table keeping two rows, a text keeping two lines, a grid a row), the
    heading goes on this page with that start, instead of the whole group moving to the next page
    and leaving most of this one empty (ReportLab's KeepTogether moves it whole when it fits a page)."""

    def split(self, aW, aH):
        *kept, last = self._content
        need = 0.0
        for i, f in enumerate(kept):
            _, h = f.wrap(aW, aH)
            need += h + f.getSpaceAfter() + (f.getSpaceBefore() if i else 0.0)
        room = aH - need - last.getSpaceBefore()
        if kept and room > 0:
            last.wrap(aW, room)
            parts = last.split(aW, room)
            if len(parts) >= 2 and parts[0].wrap(aW, room)[1] <= room + 1e-6:
                for f in kept:
                    f.__dict__["keepWithNext"] = 0
                return [*kept, *parts]
        return super().split(aW, aH)


class _Doc(BaseDocTemplate):
    def handle_flowable(self, flowables):
        block = flowables[0] if flowables else None
        try:
            super().handle_flowable(flowables)
        except LayoutError:
            raise TooLarge(getattr(block, "pnp_where", None), self.page) from None

    def __init__(self, buf, env: Env, title: str, subject: str, header_title: str, **kw):
        theme = env.theme
        super().__init__(
            buf, pagesize=(theme.page_w, theme.page_h),
            leftMargin=theme.margin_x, rightMargin=theme.margin_x,
            topMargin=theme.margin_top, bottomMargin=theme.margin_bottom,
            title=title, author="", subject=subject, creator=PRODUCER, producer=PRODUCER,
            invariant=1, initialFontName=env.fonts.regular, initialFontSize=theme.body,
            showBoundary=0, allowSplitting=1, **kw)
        self.keepTogetherClass = KeepWithStart  # a heading keeps the start of what follows, not all of it
        self.env = env
        self.header_title = header_title
        self.on_chapter = None         # called after each chapter heading is placed (progress)
        self.pages = Pages()
        self.chapter = ""
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        cover = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="cover",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", [cover], onPageEnd=self._plain_page),
            PageTemplate("body", [frame], onPageEnd=self._decorate),
        ])

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading):
            self.pages.headings.setdefault(flowable.key, self.page)
            if flowable.level == 1:
                self.chapter = flowable.title
                if self.on_chapter is not None:
                    self.on_chapter()
        elif isinstance(flowable, _TocTitle):
            self.pages.headings.setdefault(TOC_KEY, self.page)
            self.chapter = self.env.words["contents"]

    def _plain_page(self, canvas, doc):
        self.pages.count = max(self.pages.count, doc.page)

    def _decorate(self, canvas, doc):
        self.pages.count = max(self.pages.count, doc.page)
        theme = self.env.theme
        fonts = self.env.fonts
        size = theme.size("header")
        canvas.saveState()
        canvas.setFillColor(toColor(theme.muted))
        canvas.setStrokeColor(toColor(theme.rule))
        canvas.setLineWidth(0.5)
        top = theme.page_h - theme.margin_top * 0.55
        left, right = theme.margin_x, theme.page_w - theme.margin_x
        half = (right - left) / 2 - size
        _draw_clipped(canvas, fonts, self.header_title, left, top, size, half, "left")
        if self.chapter:
            _draw_clipped(canvas, fonts, self.chapter, right, top, size, half, "right")
        canvas.line(left, top - size * 0.6, right, top - size * 0.6)
        canvas.setFillColor(toColor(theme.ink))
        canvas.setFont(fonts.regular, theme.size("small"))
        canvas.drawCentredString(theme.page_w / 2, theme.margin_bottom * 0.45, str(doc.page))
        canvas.restoreState()


def _draw_clipped(canvas, fonts, text, x, y, size, max_w, align):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    canvas.setFont(fonts.regular, size)
    while text and stringWidth(text, fonts.regular, size) > max_w:
        text = text[:-2] + "…"
    if align == "right":
        canvas.drawRightString(x, y, text)
    else:
        canvas.drawString(x, y, text)


class _TocTitle(TextBlock):
    def draw(self):
        super().draw()
        c = self.canv
        if not getattr(c, "pnp_print", False):
            c.bookmarkHorizontal(TOC_KEY, 0, self.height)
            c.addOutlineEntry(self.env.words["contents"], TOC_KEY, 0)


class PnpCanvas(Canvas):
    """The normal canvas (links and bookmarks on)."""

    pnp_print = False


class PrintCanvas(Canvas):
    """Captures every page as a form XObject and imposes them on sheets at save time."""

    pnp_print = True
    imposition = None              # set by a subclass factory: callable(n_pages) -> list of sheets

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pnp_forms: list = []
        self._page_size = self._pagesize
        self._pnp_begin()

    def _pnp_begin(self):
        name = f"pnpPage{len(self._pnp_forms) + 1}"
        self._pnp_forms.append(name)
        w, h = self._page_size
        self.beginForm(name, 0, 0, w, h)

    def showPage(self):
        self.endForm()
        self._pnp_begin()

    def save(self):
        self.endForm()
        pages = self._pnp_forms[:-1]
        sheets = self.imposition(len(pages))
        for sheet in sheets:
            self.setPageSize(sheet.size)
            for slot in sheet.slots:
                if slot.page is None or slot.page >= len(pages):
                    continue
                self.saveState()
                self.translate(slot.x, slot.y)
                self.scale(slot.scale, slot.scale)
                self.doForm(pages[slot.page])
                self.restoreState()
            if sheet.fold_mark:
                self._fold_mark(sheet)
            Canvas.showPage(self)
        Canvas.save(self)

    def _fold_mark(self, sheet):
        w, h = sheet.size
        self.saveState()
        self.setStrokeColor(toColor("#9a948c"))
        self.setLineWidth(0.3)
        self.line(w / 2, h - 4, w / 2, h - 12)
        self.line(w / 2, 4, w / 2, 12)
        self.restoreState()


def toc_story(doc_model, env: Env, pages: Pages | None) -> list:
    theme = env.theme
    title = _TocTitle([Span(env.words["contents"], Style(bold=True))], env, size=theme.size("h1"), leading=1.3, align="left",
                      space_after=theme.body * 1.2)
    rows = [title]
    listed = [h for h in doc_model.headings if h.level <= 2]
    # one number column per level, as wide as its widest number: titles align past chapter 9
    widths = {level: toc_number_width(env, level, [h.number for h in listed if h.level == level])
              for level in {h.level for h in listed}}
    for h in listed:
        page = pages.headings.get(h.key) if pages else None
        rows.append(TocRow(h.level, h.number, h.title, h.key, env, page, widths[h.level]))
    for row, after in zip(rows[1:], rows[2:]):
        row.keepWithNext = row.level == 1 and after.level == 2    # a chapter row never ends a page alone
    return rows


def build_pdf(make_story, env: Env, *, title: str, subject: str, header_title: str,
              canvasmaker=PnpCanvas, on_chapter=None, pages: Pages | None = None) -> tuple[bytes, Pages]:
    """Lay out until the contents' page numbers are stable; return the PDF bytes and the pages.
    ``on_chapter()`` is called as each chapter heading is placed, in every layout pass.
    ``pages`` from an earlier ``build_pdf`` of the same story skips straight to the last pass
    (the booklet is the rulebook's stable layout drawn on another canvas)."""
    if pages is not None and canvasmaker is not PnpCanvas:
        data, _ = _build_once(make_story, env, pages, title, subject, header_title, canvasmaker, on_chapter)
        return data, pages
    for _attempt in range(3):
        data, found = _build_once(make_story, env, pages, title, subject, header_title, PnpCanvas, on_chapter)
        if pages is not None and found.headings == pages.headings:
            break
        pages = found
    if canvasmaker is not PnpCanvas:
        data, _ = _build_once(make_story, env, pages, title, subject, header_title, canvasmaker, on_chapter)
    return data, pages


def _build_once(make_story, env, pages, title, subject, header_title, canvasmaker, on_chapter=None):
    buf = io.BytesIO()
    doc = _Doc(buf, env, title, subject, header_title)
    doc.on_chapter = on_chapter
    doc.build(make_story(pages), canvasmaker=canvasmaker)
    found = doc.pages
    return buf.getvalue(), found


def full_story(cover: Cover | None, toc: list, body: list) -> list:
    story: list = []
    if cover is not None:
        story += [NextPageTemplate("body"), cover, PageBreak()]
    else:
        story += [NextPageTemplate("body")]
    story += toc + [PageBreak()] + body
    return story
