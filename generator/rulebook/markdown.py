"""Markdown (markdown-it-py, CommonMark + tables) to rulebook flowables.

Supported: headings (``{#id}`` sets an anchor, ``{-}`` leaves a heading unnumbered),
paragraphs, emphasis, inline code, links (``#anchor`` to a heading, or a web address), lists,
tables, rules, block quotes, GitHub-style notes (``> [!NOTE]``, ``[!TIP]``, ``[!IMPORTANT]``,
``[!WARNING]``, ``[!CAUTION]``, plus ``[!PROPOSAL]``, ``[!EXAMPLE]``, ``[!FAQ]``, each with
an optional title after the tag), inline icons ``:name:``, card images ``![caption](card:component/id)``
and the generated blocks of :mod:`generator.rulebook.context`. Anything else that cannot be
printed faithfully (raw HTML, unknown note types, unknown anchors) is a located problem.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from reportlab.lib.colors import toColor
from reportlab.platypus import PageBreak, TableStyle

from ..content.game import text_in
from ..content.schema import did_you_mean
from ..errors import Location, Problem
from ..text.kinsoku import char_class
from .context import BLOCK_RE, ICON_RE, CardRef, RulebookData
from .flowables import BOX_KINDS, Box, CardFigure, CardGrid, Env, Heading, Inset, KeptTable, Rule, TextBlock, Thumb
from .source import Rendered, RefError
from .text import URL_PREFIX, Span, Style

_ATTRS = re.compile(r"\s*\{([^{}]*)\}\s*$")
_ALERT = re.compile(r"^\[!([A-Za-z]+)\][ \t]*(.*)$")
_SOFT = object()
BOLD_OPEN, BOLD_CLOSE = "\ue020", "\ue021"
_BOLD_PAIR = re.compile(r"(?<![\\*])\*\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*\*(?!\*)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def protect_bold(text: str) -> str:
    """``**...**`` on one line becomes a pair of private markers before CommonMark sees it.

    CommonMark's flanking rules cannot open or close ``**`` between CJK punctuation and a
    letter (``**【携帯】**して``), and then pair the wrong delimiters. Japanese text needs the
    plain reading: the first ``**`` on a line opens, the next one closes. Code spans and fenced
    code are left alone.
    """
    out, fenced = [], False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if fenced or "**" not in line:
            out.append(line)
            continue
        parts, pos = [], 0
        for m in _CODE_SPAN.finditer(line):
            parts.append(_BOLD_PAIR.sub(lambda b: f"{BOLD_OPEN}{b.group(1)}{BOLD_CLOSE}", line[pos:m.start()]))
            parts.append(m.group(0))
            pos = m.end()
        parts.append(_BOLD_PAIR.sub(lambda b: f"{BOLD_OPEN}{b.group(1)}{BOLD_CLOSE}", line[pos:]))
        out.append("".join(parts))
    return "\n".join(out)
_LITERAL_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
LINK_COLOR = "#1f5f99"


def parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")


@dataclass
class HeadingInfo:
    level: int
    number: str
    title: str                     # plain text, without number
    key: str                       # PDF destination name
    anchors: tuple                 # names a Markdown link may use
    location: Location
    outline_level: int = 0


@dataclass
class Document:
    """The parsed sources: trees, headings, and what the tests and the TOC need."""

    files: list                    # (Rendered, SyntaxTreeNode)
    headings: list = field(default_factory=list)
    anchors: dict = field(default_factory=dict)   # anchor -> key
    by_node: dict = field(default_factory=dict)   # id(heading node) -> HeadingInfo
    alerts: dict = field(default_factory=dict)    # id(blockquote node) -> (kind, title)


def parse(rendered: list[Rendered], problems: list) -> Document:
    md = parser()
    doc = Document([(r, SyntaxTreeNode(md.parse(protect_bold(r.text)))) for r in rendered])
    counters = [0, 0]
    prev_outline = -1
    used_keys: set = set()
    for r, root in doc.files:
        for node in root.walk():
            if node.type == "blockquote":
                _detect_alert(node, r, doc, problems)
        for node in root.children:
            if node.type != "heading":
                continue
            level = int(node.tag[1])
            inline = node.children[0] if node.children else None
            raw = inline.content if inline is not None else ""
            attrs = ""
            m = _ATTRS.search(raw)
            if m:
                attrs = m.group(1)
                _strip_attrs(inline)
            explicit = [a[1:] for a in attrs.split() if a.startswith("#")]
            unnumbered = any(a in ("-", ".unnumbered") for a in attrs.split())
            title = _plain(inline).strip() if inline is not None else ""
            number = ""
            if not unnumbered and level <= 2:
                if level == 1:
                    counters = [counters[0] + 1, 0]
                    number = str(counters[0])
                else:
                    counters[1] += 1
                    number = f"{counters[0]}.{counters[1]}" if counters[0] else str(counters[1])
            where = r.location(node.map[0] if node.map else None)
            base = explicit[0] if explicit else _slug(title) or f"h{len(doc.headings) + 1}"
            key = f"h-{base}"
            n = 2
            while key in used_keys:
                if explicit:
                    problems.append(Problem(where, "", f"heading id {explicit[0]!r} is used twice"))
                    break
                key = f"h-{base}-{n}"
                n += 1
            used_keys.add(key)
            outline = min(level - 1, prev_outline + 1)
            prev_outline = outline
            anchors = tuple(dict.fromkeys([*explicit, base, title, key[2:]]))
            info = HeadingInfo(level, number, title, key, anchors, where, outline)
            doc.headings.append(info)
            doc.by_node[id(node)] = info
            for a in anchors:
                doc.anchors.setdefault(a, key)
    return doc


def _detect_alert(node, rendered, doc, problems):
    children = list(node.children)
    if not (children and children[0].type == "paragraph" and children[0].children):
        return
    inline = children[0].children[0]
    first = inline.children[0] if inline.children else None
    if first is None or first.type != "text":
        return
    m = _ALERT.match(first.content)
    if not m:
        return
    kind = m.group(1).lower()
    if kind not in BOX_KINDS:
        problems.append(Problem(rendered.location(children[0].map[0] if children[0].map else None), "",
                                f"unknown note type [!{m.group(1)}] (known: "
                                f"{', '.join('[!' + k.upper() + ']' for k in BOX_KINDS)})"))
        kind = "note"
    first.token.content = ""
    if len(inline.children) > 1 and inline.children[1].type in ("softbreak", "hardbreak"):
        inline.children[1].token.type = "text"
        inline.children[1].token.content = ""
    doc.alerts[id(node)] = (kind, m.group(2).strip())


def _strip_attrs(inline):
    for child in reversed(inline.children or []):
        if child.type == "text":
            child.token.content = _ATTRS.sub("", child.content)
            break
    inline.token.content = _ATTRS.sub("", inline.content) if inline.token else inline.content


def _plain(node) -> str:
    if node is None:
        return ""
    if node.type in ("text", "code_inline"):
        return node.content.replace(BOLD_OPEN, "").replace(BOLD_CLOSE, "")
    if node.type == "softbreak":
        return " "
    if node.type == "image":
        return ""
    return "".join(_plain(c) for c in node.children)


def _slug(title: str) -> str:
    text = unicodedata.normalize("NFKC", title).lower()
    text = re.sub(r"[\s\u3000]+", "-", text.strip())
    text = re.sub(r"[^\w\-ー]", "", text)
    return text.strip("-")


class Converter:
    """Turns the parsed document into flowables (call :meth:`story` once per build pass)."""

    def __init__(self, doc: Document, data: RulebookData, env: Env, problems: list):
        self.doc, self.data, self.env, self.problems = doc, data, env, problems
        self.component_rows: list = []         # what the component table printed (for tests)
        self.glossary_rows: list = []
        self._first_h1 = True
        self._current: Rendered | None = None
        self._reported: set = set()

    # -- problems ---------------------------------------------------------------------------
    def _where(self, node) -> Location:
        line = node.map[0] if node is not None and node.map else None
        while line is None and node is not None:
            node = node.parent
            line = node.map[0] if node is not None and node.map else None
        return self._current.location(line)

    def error(self, node, message: str):
        key = (self._where(node), message)
        if key not in self._reported:
            self._reported.add(key)
            self.problems.append(Problem(key[0], "", message))

    def warn(self, node, message: str):
        key = (self._where(node), message)
        if key not in self._reported:
            self._reported.add(key)
            self.problems.append(Problem(key[0], "", message, severity="warning"))

    def warn_unknown_icon(self, node, name: str):
        known = self.data.builder.icons.names()
        self.warn(node, f"icon {name!r} is not defined in the layouts' icons.yaml{did_you_mean(name, known)} (shown as text)")

    # -- story ------------------------------------------------------------------------------
    def story(self) -> list:
        self._first_h1 = True
        self.component_rows = []
        self.glossary_rows = []
        out: list = []
        for rendered, root in self.doc.files:
            self._current = rendered
            out.extend(self.blocks(root.children))
        return out

    def blocks(self, nodes) -> list:
        out = []
        for node in nodes:
            for flow in self.block(node):
                if not hasattr(flow, "pnp_where"):
                    flow.pnp_where = self._where(node)      # for a block too tall for any page
                out.append(flow)
        return out

    def block(self, node) -> list:
        kind = node.type
        theme = self.env.theme
        if kind == "heading":
            info = self.doc.by_node[id(node)]
            flow = [Heading(info.level, info.number, self.inline(node.children[0]), info.key,
                            (f"{info.number} " if info.number else "") + info.title, self.env, info.outline_level)]
            if info.level == 1:
                if not self._first_h1:
                    flow.insert(0, PageBreak())
                self._first_h1 = False
            return flow
        if kind == "paragraph":
            return self.paragraph(node)
        if kind in ("bullet_list", "ordered_list"):
            return self.list_(node)
        if kind == "blockquote":
            return self.quote(node)
        if kind == "table":
            return [self.table(node)]
        if kind == "hr":
            return [Rule(self.env, theme.body)]
        if kind in ("fence", "code_block"):
            lines = node.content.rstrip("\n").split("\n")
            spans = []
            for i, line in enumerate(lines):
                if i:
                    spans.append(Span(newline=True))
                spans.append(Span(line))
            block = TextBlock(spans, self.env, size=theme.size("small"), leading=1.45, align="left")
            return [Box("example", [], [block], self.env)]
        if kind == "html_block":
            if node.content.strip().startswith("<!--"):
                return []
            self.error(node, "raw HTML is not supported in the rulebook (use Markdown)")
            return []
        self.error(node, f"unsupported Markdown element {kind!r}")
        return []

    # -- paragraphs -------------------------------------------------------------------------
    def paragraph(self, node, *, space_after=None, bullet=None, size=None, align="justify") -> list:
        theme = self.env.theme
        inline = node.children[0] if node.children else None
        special = self._only_blocks(inline)
        if special is not None:
            return special
        spans = self.inline(inline)
        if not any(s.text.strip() or s.icon for s in spans):
            return []
        block = TextBlock(spans, self.env, size=size, align=align,
                          space_after=theme.body * 0.75 if space_after is None else space_after,
                          bullet=bullet)
        return [block]

    def _only_blocks(self, inline):
        """Flowables when the paragraph holds only generated blocks and card images, else None."""
        if inline is None:
            return None
        items, has_text = [], False
        for child in inline.children:
            if child.type == "text":
                text = child.content
                pos = 0
                for m in BLOCK_RE.finditer(text):
                    has_text = has_text or bool(text[pos:m.start()].strip())
                    items.append(("block", int(m.group(1))))
                    pos = m.end()
                has_text = has_text or bool(text[pos:].strip())
            elif child.type == "image":
                items.append(("image", child))
            elif child.type not in ("softbreak", "hardbreak"):
                has_text = True
        if not items:
            return None
        if has_text:
            if any(kind == "block" for kind, _ in items):
                return self._mixed(inline)
            return None            # an image inside text: reported by inline()
        out, refs = [], []
        for kind, value in items:
            if kind == "image":
                ref = self._image_ref(value)
                if ref is not None:
                    refs.append(ref)
                continue
            block = self.data.blocks[value]
            if block.kind == "cards" and block.args.get("width") is None:
                refs.extend(block.args["refs"])
                continue
            if refs:
                out.append(self.card_grid(refs))
                refs = []
            out.extend(self.generated(block, inline))
        if refs:
            out.append(self.card_grid(refs))
        return out

    def _mixed(self, inline):
        self.error(inline, "a card image or generated block must stand alone in its paragraph "
                           "(put it on a line of its own, with a blank line before and after)")
        return []

    def _image_ref(self, node) -> CardRef | None:
        src = node.attrs.get("src", "")
        if not str(src).startswith("card:"):
            self.error(node, f"only card images are supported: ![caption](card:component/card-id), not {src!r}")
            return None
        target = str(src)[5:]
        if "/" not in target:
            self.error(node, f"card image {src!r}: write card:component/card-id")
            return None
        component_id, record_id = target.split("/", 1)
        caption = _plain(node).strip() or True
        try:
            return self.data.card_ref(component_id, record_id, caption)
        except RefError as exc:
            self.error(node, str(exc))
            return None

    # -- inline -----------------------------------------------------------------------------
    def inline(self, node, style: Style = Style()) -> list:
        self._bold = 0
        raw: list = []
        self._inline(node, style, raw)
        where = self._where(node) if node is not None else None  # for a word cut when the book is laid out
        raw = [item if item is _SOFT else replace(item, where=where) for item in raw]
        spans: list = []
        for i, item in enumerate(raw):
            if item is _SOFT:
                before = next((s.text[-1:] for s in reversed(spans) if s.text), "")
                after = next((s.text[:1] for s in raw[i + 1:] if s is not _SOFT and s.text), "")
                if before and after and char_class(before) != "cjk" and char_class(after) != "cjk":
                    spans.append(Span(" ", style))
                continue
            spans.append(item)
        return spans

    def _inline(self, node, style: Style, out: list):
        if node is None:
            return
        for child in node.children:
            kind = child.type
            if kind == "text":
                self._text(child, child.content, style, out)
            elif kind == "softbreak":
                out.append(_SOFT)
            elif kind == "hardbreak":
                out.append(Span(newline=True))
            elif kind == "strong":
                self._inline(child, Style(True, style.color, style.link, style.code), out)
            elif kind == "em":
                self._inline(child, Style(style.bold, style.color or self.env.theme.accent, style.link, style.code), out)
            elif kind == "s":
                self.error(child, "strikethrough (~~text~~) cannot be printed in the rulebook: remove the tildes")
                self._inline(child, style, out)
            elif kind == "code_inline":
                out.append(Span(child.content, Style(style.bold, style.color, style.link, True)))
            elif kind == "link":
                target = self._link_target(child)
                self._inline(child, Style(style.bold, LINK_COLOR if target else style.color, target, style.code), out)
            elif kind == "image":
                self.error(child, "a card image must stand alone in its paragraph")
            elif kind == "html_inline":
                if re.fullmatch(r"<br\s*/?>", child.content.strip(), re.I):
                    out.append(Span(newline=True))
                elif not child.content.startswith("<!--"):
                    self.error(child, "raw HTML is not supported in the rulebook (use Markdown)")
            else:
                self._inline(child, style, out)

    def _text(self, node, text: str, style: Style, out: list):
        if BLOCK_RE.search(text):
            self.error(node, "a card image or generated block must stand alone in its paragraph")
            text = BLOCK_RE.sub("", text)
        if BOLD_OPEN in text or BOLD_CLOSE in text:
            for piece in re.split(f"([{BOLD_OPEN}{BOLD_CLOSE}])", text):
                if piece == BOLD_OPEN:
                    self._bold += 1
                elif piece == BOLD_CLOSE:
                    self._bold = max(0, self._bold - 1)
                elif piece:
                    self._text(node, piece, style, out)
            return
        if getattr(self, "_bold", 0) and not style.bold:
            style = Style(True, style.color, style.link, style.code)
        if "**" in text:
            # CommonMark cannot close ** between punctuation and a CJK letter (「**【携帯】**して」);
            # such pairs stay literal in one text node: make them bold here
            parts = _LITERAL_BOLD.split(text)
            if len(parts) > 1:
                for k, part in enumerate(parts):
                    if part:
                        bold = Style(True, style.color, style.link, style.code) if k % 2 else style
                        self._text(node, part, bold, out)
                return
        pos = 0
        for m in ICON_RE.finditer(text):
            name = m.group(1)
            if self.data.builder.icons.get(name) is None:
                self.warn_unknown_icon(node, name)
                continue
            if m.start() > pos:
                out.append(Span(text[pos:m.start()], style))
            out.append(Span(icon=name, style=style))
            pos = m.end()
        if pos < len(text):
            out.append(Span(text[pos:], style))

    def _link_target(self, node) -> str | None:
        href = str(node.attrs.get("href", ""))
        if href.startswith(("http://", "https://", "mailto:")):
            return URL_PREFIX + href
        if href.startswith("#"):
            anchor = href[1:]
            from urllib.parse import unquote
            anchor = unquote(anchor)
            key = self.doc.anchors.get(anchor) or self.doc.anchors.get(_slug(anchor))
            if key is None:
                from ..content.schema import did_you_mean
                names = [h.anchors[0] for h in self.doc.headings]
                self.error(node, f"link to an unknown heading {href!r}{did_you_mean(anchor, names)}")
            return key
        self.error(node, f"links may point at a heading (#id) or a web address, not {href!r}")
        return None

    # -- lists ------------------------------------------------------------------------------
    def list_(self, node, depth=0) -> list:
        theme = self.env.theme
        ordered = node.type == "ordered_list"
        start = int(node.attrs.get("start", 1)) if ordered else 1
        gutter = theme.body * (1.9 if ordered else 1.3)
        out = []
        tight = all(c.type != "paragraph" or c.hidden for item in node.children for c in item.children)
        for i, item in enumerate(node.children):
            marker = f"{start + i}." if ordered else self.env.words["bullet" if depth == 0 else "sub_bullet"]
            content = []
            first = True
            for child in item.children:
                if child.type == "paragraph":
                    flows = self.paragraph(child, space_after=theme.body * (0.25 if tight else 0.6),
                                           bullet=marker if first else None)
                    for f in flows:
                        if isinstance(f, TextBlock) and f.bullet:
                            f.bullet_style = Style(bold=ordered, color=theme.accent)
                    content.extend(flows)
                    first = False
                elif child.type in ("bullet_list", "ordered_list"):
                    content.extend(self.list_(child, depth + 1))
                else:
                    content.extend(self.block(child))
            out.extend(Inset(f, gutter) if not isinstance(f, PageBreak) else f for f in content)
        if out:
            last = out[-1]
            inner = last.inner if isinstance(last, Inset) else last
            if isinstance(inner, TextBlock):
                inner.spaceAfter = max(inner.spaceAfter, theme.body * 0.7)
        return out

    # -- notes ------------------------------------------------------------------------------
    def quote(self, node) -> list:
        children = list(node.children)
        alert = self.doc.alerts.get(id(node))
        if alert is None:
            content = self.blocks(children)
            for f in content:
                if isinstance(f, TextBlock):
                    f.color = self.env.theme.muted
            return [Box("example", [], content, self.env)] if content else []
        kind, title = alert
        content = self.blocks(children)
        if content:
            last = content[-1]
            inner = last.inner if isinstance(last, Inset) else last
            if hasattr(inner, "spaceAfter"):
                inner.spaceAfter = 0.0
        title_spans = [Span(self.env.words[kind])] if not title else self._title_spans(title, children[0])
        return [Box(kind, title_spans, content, self.env)]

    def _title_spans(self, title, node):
        out: list = []
        self._text(node, title, Style(), out)
        return out

    # -- tables -----------------------------------------------------------------------------
    def table(self, node):
        rows = []
        aligns = []
        header_rows = 0
        for section in node.children:
            for tr in section.children:
                row = []
                for k, cell in enumerate(tr.children):
                    align = "left"
                    style = str(cell.attrs.get("style", ""))
                    if "right" in style:
                        align = "right"
                    elif "center" in style:
                        align = "center"
                    if len(aligns) <= k:
                        aligns.append(align)
                    row.append(self._cell(cell, align, header=section.type == "thead"))
                rows.append(row)
                if section.type == "thead":
                    header_rows += 1
        return self.make_table(rows, header_rows)

    def _cell(self, cell, align, header=False):
        theme = self.env.theme
        inline = cell.children[0] if cell.children else None
        special = self._only_blocks(inline) if inline is not None else None
        if special:
            thumbs = []
            for f in special:
                if isinstance(f, CardGrid):
                    thumbs.extend(Thumb(self._scaled(fig, theme.thumb_h)) for fig in f.figures)
                else:
                    thumbs.append(f)
            return thumbs
        spans = self.inline(inline) if inline is not None else []
        if header:
            spans = [s if s.icon or s.newline else Span(s.text, Style(True, s.style.color, s.style.link, s.style.code))
                     for s in spans]
        return [TextBlock(spans, self.env, size=theme.size("table"), leading=1.45,
                          align="left" if align == "left" else align)]

    def _scaled(self, figure: CardFigure, height: float) -> CardFigure:
        if figure.component.kind == "token":
            height *= 0.7
        scale = min(height / figure.card_h, height * 1.6 / figure.card_w)
        return CardFigure(self.env, figure.component, figure.ops, None, scale)

    def make_table(self, rows, header_rows=1, fixed: dict | None = None):
        theme = self.env.theme
        fixed = fixed or {}
        avail = self._avail_width()
        ncols = max(len(r) for r in rows) if rows else 0
        for r in rows:
            while len(r) < ncols:
                r.append([])
        pad = theme.body * 0.45
        natural = [0.0] * ncols
        word = [0.0] * ncols       # each column's widest word
        thumb = [0.0] * ncols      # each column's widest card thumbnail
        for r in rows:
            for k, cell in enumerate(r):
                for f in cell:
                    if isinstance(f, TextBlock):
                        natural[k] = max(natural[k], f.natural_width())
                        word[k] = max(word[k], f.min_width())
                    elif isinstance(f, Thumb):
                        natural[k] = max(natural[k], f.figure.w)
                        thumb[k] = max(thumb[k], f.figure.w)
        natural = [n + 2 * pad + 0.5 for n in natural]
        minimum = _column_minimums(word, thumb, fixed, avail, pad=2 * pad + 0.5, body=theme.body)
        for k, w in fixed.items():
            natural[k] = w
        widths = _distribute(natural, minimum, avail, fixed)
        cells = [[cell if cell else [] for cell in r] for r in rows]
        table = KeptTable(cells, colWidths=widths, repeatRows=header_rows, hAlign="LEFT",
                          page_height=theme.page_h - theme.margin_top - theme.margin_bottom)
        style = [
            ("FONTNAME", (0, 0), (-1, -1), self.env.fonts.regular),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), pad * 0.7),
            ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.7),
            ("LINEBELOW", (0, 0), (-1, -1), 0.35, toColor(theme.rule)),
            ("LINEABOVE", (0, 0), (-1, 0), 0.9, toColor(theme.accent)),
            ("LINEBELOW", (0, -1), (-1, -1), 0.9, toColor(theme.accent)),
        ]
        if header_rows:
            style += [("BACKGROUND", (0, 0), (-1, header_rows - 1), toColor("#f1ebe3")),
                      ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.6, toColor(theme.accent))]
        table.setStyle(TableStyle(style))
        table.spaceBefore = theme.body * 0.5
        table.spaceAfter = theme.body * 1.0
        return table

    def _avail_width(self) -> float:
        theme = self.env.theme
        return theme.page_w - 2 * theme.margin_x - 1.0

    # -- generated blocks -------------------------------------------------------------------
    def figure(self, ref: CardRef, height: float | None = None, width_mm: float | None = None) -> CardFigure:
        theme = self.env.theme
        ops = self.data.faces(ref)
        w, h = ref.component.size_pt
        if width_mm:
            scale = min(width_mm * 72 / 25.4, self._avail_width()) / w     # at most the text width
        else:
            target = height or (theme.card_h if ref.component.kind in ("card", "tile") else theme.card_h * 0.6)
            scale = min(target / h, self._avail_width() / w, 1.0)
        return CardFigure(self.env, ref.component, ops, ref.caption, scale)

    def card_grid(self, refs, width_mm=None):
        return CardGrid([self.figure(r, width_mm=width_mm) for r in refs], self.env)

    def generated(self, block, node) -> list:
        if block.kind == "cards":
            return [self.card_grid(block.args["refs"], block.args.get("width"))]
        if block.kind == "component_table":
            return [self.component_table(block.args.get("images", True))]
        if block.kind == "glossary":
            return self.glossary(node)
        if block.kind == "icon_legend":
            return self.icon_legend(block.args.get("columns", 3), block.args.get("exclude", ()),
                                    block.args.get("text_icons", True))
        self.error(node, f"unknown block {block.kind!r}")
        return []

    def component_table(self, images=True):
        theme = self.env.theme
        data = self.data
        words = self.env.words
        head = ["sample"] if images else []
        head += ["component", "kind", "size", "count"]
        bold = Style(bold=True)
        rows = [[[TextBlock([Span(words[h], bold)], self.env, size=theme.size("table"), align="left"
                             if h != "count" else "right")] for h in head]]
        total_cards = 0
        for c in data.game.components:
            w, h = c.size_pt
            size = f"{w * 25.4 / 72:.0f}×{h * 25.4 / 72:.0f}mm"
            name = data.name_of(c)
            row = []
            if images:
                if c.layout and c.records:
                    fig = self.figure(CardRef(c, 0, None))
                    row.append([Thumb(self._scaled(fig, theme.thumb_h))])
                else:
                    row.append([])
            row += [[TextBlock([Span(name)], self.env, size=theme.size("table"), align="left")],
                    [TextBlock([Span(words.get(c.kind, c.kind))], self.env, size=theme.size("table"),
                               align="left")],
                    [TextBlock([Span(size)], self.env, size=theme.size("table"), align="left")],
                    [TextBlock([Span(str(c.found))], self.env, size=theme.size("table"), align="right")]]
            rows.append(row)
            self.component_rows.append({"id": c.id, "name": name, "kind": c.kind, "found": c.found,
                                        "expected": c.expected, "size": size})
            if c.kind == "card":
                total_cards += c.found
        rows.append(([[]] if images else []) + [
            [TextBlock([Span(words["total_cards"], bold)], self.env, size=theme.size("table"), align="left")], [], [],
            [TextBlock([Span(str(total_cards), bold)], self.env, size=theme.size("table"), align="right")]])
        fixed = {0: theme.thumb_h * 1.6 + theme.body} if images else {}
        return self.make_table(rows, 1, fixed)

    def _keyword_text(self, name) -> tuple[str | None, str | None]:
        config = self.data.config.get("keywords") or {}
        entry = config.get(name)
        if not entry:
            return None, None
        return text_in(entry.get("text"), self.data.lang), text_in(entry.get("label"), self.data.lang)

    def glossary(self, node) -> list:
        """Every icon the card texts use, plus every icon the layouts draw that rulebook.yaml
        explains; with its label, meaning and the number of printed cards showing it."""
        theme = self.env.theme
        data = self.data
        config = data.config.get("keywords") or {}
        in_text = data.used_icons()
        shown = data.drawn_icons() if config else dict(in_text)
        names = list(in_text) + [n for n in shown if n not in in_text and n in config]
        locations = data.config.get("_locations", {})
        for name, entry in config.items():
            if name not in shown:
                where = locations.get(id(entry)) or Location(data.config.get("_path", ""), 0)
                data.warnings.append(Problem(where, f"keywords.{name}",
                                             "no card shows this icon: it is left out of the glossary",
                                             severity="warning"))
        bold = Style(bold=True)
        size = theme.size("table")
        rows = [[[TextBlock([Span(h, bold)], self.env, size=size, align="left")]
                 for h in ("", self.env.words["keyword"], self.env.words["meaning"])]]
        for name in names:
            n = shown.get(name, in_text.get(name, 0))
            icon = data.builder.icons.get(name)
            text, label = self._keyword_text(name)
            if label is None:
                label = text_in(icon.label, data.lang) if icon is not None and icon.label else name
            if text is None:
                self.warn(node, f"the cards use the icon {name!r} but rulebook.yaml has no keywords.{name}.text")
                text = ""
            mark = [Span(icon=name)] if icon is not None else [Span(f":{name}:")]
            if icon is None:
                self.warn_unknown_icon(node, name)
            desc = self.markdown_inline(text) + [Span(self.env.words["cards_with"].format(n=n), Style(color=theme.muted))]
            rows.append([[TextBlock(mark, self.env, size=size * 1.5, align="center", leading=1.2)],
                         [TextBlock([Span(label, bold)], self.env, size=size, align="left")],
                         [TextBlock(desc, self.env, size=size, align="justify")]])
            self.glossary_rows.append({"icon": name, "label": label, "text": text, "cards": n})
        if len(rows) == 1:
            self.warn(node, "no card text uses an icon: the glossary is empty")
            return []
        return [self.make_table(rows, 1, {0: size * 3.2})]

    def markdown_inline(self, text: str) -> list:
        if not text:
            return []
        tokens = parser().parseInline(protect_bold(text))
        root = SyntaxTreeNode(tokens)
        inline = root.children[0] if root.children else None
        return self.inline(inline) if inline is not None else []

    def icon_legend(self, columns=3, exclude=(), text_icons=True) -> list:
        from fnmatch import fnmatchcase

        theme = self.env.theme
        data = self.data
        names = list(data.drawn_icons())
        if not text_icons:
            explained = set(data.used_icons()) | set(data.config.get("keywords") or {})
            names = [n for n in names if n not in explained]
        names = [n for n in names if not any(fnmatchcase(n, pattern) for pattern in exclude)]
        size = theme.size("table")
        cells = []
        for name in names:
            icon = data.builder.icons.get(name)
            if icon is None:
                continue
            _text, label = self._keyword_text(name)
            label = label or (text_in(icon.label, data.lang) if icon.label else name)
            cells.append([TextBlock([Span(icon=name), Span(" " + label)], self.env, size=size, align="left",
                                    leading=1.6)])
        if not cells:
            return []
        rows = [cells[i:i + columns] for i in range(0, len(cells), columns)]
        return [self.make_table(rows, 0)]


def _column_minimums(word, thumb, fixed, avail, *, pad, body):
    """Each column's narrowest width: its widest word whole (a typesetter's rule) and its thumbnails,
    when every column has room for them; else a word counts at most 6 body sizes (so one long word
    is cut rather than squeezing the other columns to nothing). Never under 2.5 body sizes."""
    def minimums(cap):
        return [fixed[k] if k in fixed else max(max(min(word[k], cap), thumb[k]) + pad, body * 2.5)
                for k in range(len(word))]
    whole = minimums(float("inf"))
    return whole if sum(whole) <= avail else minimums(body * 6)


def _distribute(natural, minimum, avail, fixed):
    """Column widths: every column that fits its fair share gets its natural width; the others
    share the rest in proportion to their natural widths, never below their minimum."""
    n = len(natural)
    flexible = [k for k in range(n) if k not in fixed]
    if sum(natural) <= avail:
        extra = avail - sum(natural)
        weight = sum(natural[k] for k in flexible) or 1.0
        return [natural[k] + (extra * natural[k] / weight if k in flexible else 0.0) for k in range(n)]
    widths = [natural[k] if k in fixed else 0.0 for k in range(n)]
    remaining = avail - sum(widths)
    open_ = list(flexible)
    while open_:
        fair = remaining / len(open_)
        small = [k for k in open_ if natural[k] <= fair]
        if not small:
            break
        for k in small:
            widths[k] = natural[k]
            remaining -= natural[k]
            open_.remove(k)
    if open_:
        total = sum(natural[k] for k in open_) or 1.0
        for k in open_:
            widths[k] = max(minimum[k], remaining * natural[k] / total)
    over = sum(widths) - avail
    if over > 1e-6:                 # minimums pushed us over: take it back from the roomiest columns
        slack = [max(0.0, widths[k] - minimum[k]) if k in flexible else 0.0 for k in range(n)]
        total = sum(slack)
        if total > 0:
            widths = [widths[k] - over * slack[k] / total * min(1.0, total / over) for k in range(n)]
    return widths
