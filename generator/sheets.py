"""Card faces → printer pages: imposition of cards, tiles and tokens, boards full-page or tiled.

Geometry comes from ``generator.impose`` (pure arithmetic); this module only wires each
component's faces to it and paints them. One canvas per output file, deterministic
(``invariant=1``) and with the game's embedded font as the initial font, so no page ever
references a non-embedded Helvetica.
"""
from __future__ import annotations

import io
from collections import Counter

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from .cards import CardSet, Faces
from .content.game import text_in
from .layout.paint import Painter


def _compress_finished_pages(canvas: Canvas, on_page=None) -> None:
    """Encode each page's content stream when the page is finished, not at ``save()``, and
    keep the finished page small.

    ReportLab keeps every page's stream as text until ``save()`` and only then applies the
    page filters (Flate, then ASCII85 when ``rl_config.useA85``). Applying the very same
    filters right after ``showPage`` and storing the stream with its ``/Filter`` already
    set gives a byte-identical file while holding only the encoded bytes (about a tenth).
    """
    doc = canvas._doc
    filters = [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]
    # One dictionary for every page stream: PDFStream.format copies it before adding /Length.
    dictionary = pdfdoc.PDFDictionary()
    dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(f.pdfname) for f in filters])

    def finished(_page_number):
        page = doc.Pages.pages[-1]
        stream = page.stream
        if (not stream or page.Contents or not page.compression
                or page.Override_default_compilation):
            return
        content = stream
        for f in reversed(filters):
            content = f.encode(content)
        contents = pdfdoc.PDFStream(dictionary, content)
        contents.__Comment__ = "page stream"
        page.Contents = contents
        page.stream = None
        # ReportLab grows each page's attribute dict one key at a time to ~1.6 kB; a copy of it
        # is half that (about 1 MB less at 1,200 pages), and the page is not changed again.
        page.__dict__ = dict(page.__dict__)

    if on_page is None:
        canvas.setPageCallBack(finished)
        return

    def finished_then_told(page_number):
        finished(page_number)
        on_page(page_number)
    canvas.setPageCallBack(finished_then_told)


class SharedFaces:
    """Faces printed more than once (a component's shared back, the copies of a card) are drawn
    once into a PDF Form XObject and then placed by reference: the file holds each drawing
    once and a build paints a shared back once instead of once per card."""

    def __init__(self):
        self.names: dict = {}

    def draw(self, canvas: Canvas, key, paint, bbox) -> None:
        """Place the face ``key`` here, drawing it with ``paint(canvas)`` the first time.
        ``bbox`` is the face's extent in its own frame (trim plus bleed: the slot clips there)."""
        canvas.doForm(self.form(canvas, key, paint, bbox))

    def form(self, canvas: Canvas, key, paint, bbox) -> str:
        """The name of the face ``key``'s form, drawn with ``paint(canvas)`` the first time."""
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"face{len(self.names)}"  # names in first-use order: deterministic
            canvas.beginForm(name, *bbox)  # mid-page is fine: ReportLab saves the page's stream and state
            paint(canvas)
            canvas.endForm()
            _keep_graphics_states(canvas, name)
        return name


def _keep_graphics_states(canvas: Canvas, name: str) -> None:
    """Give form ``name`` the graphics states (opacity) its drawing names.

    ReportLab records them on the form but writes a form's resources with fonts, procedure
    sets and XObjects only (``pdfdoc.PDFFormXObject.format``), so a translucent shape in a
    shared face would name a state the form does not define, and viewers draw it opaque.
    """
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    if not form.ExtGState:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()  # what ReportLab writes for a form, plus the states
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources


def _fits(w, h, area_w, area_h) -> bool:
    return (w <= area_w + 0.01 and h <= area_h + 0.01) or (h <= area_w + 0.01 and w <= area_h + 0.01)


def board_mode(component, profile) -> str:
    """'page' (fits the printable area), 'tiled' (larger than the paper), or for a board the size
    of the paper (it fits the sheet only edge to edge) what its ``paper_sized`` asks: 'full'
    (edge to edge, the default: the printer's margin is lost), 'tiled' or 'fit' (scaled to
    the printable area, ``fit_scale``). On a print-shop profile every board is 'page': each copy is a
    page of its own size (``board_pages``), as a card is, whatever the profile's paper."""
    if profile.print_shop:
        return "page"
    w, h = component.size_pt
    pw, ph = profile.paper
    if _fits(w, h, pw - 2 * profile.margin, ph - 2 * profile.margin):
        return "page"
    if _fits(w, h, pw, ph):
        return getattr(component, "paper_sized", None) or "full"
    return "tiled"


def fit_scale(component, profile) -> float:
    """The scale a board printed 'fit' is drawn at: its trim, bleed and crop marks (as a page
    board has them) inside the printable area of the paper turned like the board, with a
    label's height below it; rounded down to 0.1 %, so the label's figure is exact."""
    import math

    from .impose.marks import FOOTER_HEIGHT
    from .impose.sheet import mark_room

    w, h = component.size_pt
    pw, ph = sorted(profile.paper, reverse=w > h)
    room = mark_room(profile)
    side = profile.margin + profile.bleed + room
    end = profile.margin + profile.bleed + max(room, FOOTER_HEIGHT)
    return min(1.0, math.floor(min((pw - 2 * side) / w, (ph - 2 * end) / h) * 1000) / 1000)


def paper_sized_warnings(cards: CardSet, profile) -> list:
    """One warning per board the size of the paper that prints edge to edge because nothing
    chose how it prints (``paper_sized`` unset): a home printer leaves its edge strip blank.
    A board that says ``paper_sized: full`` (it is printed borderless) is not warned about."""
    from .errors import Problem
    from .impose.sizes import fmt_mm, named_size, paper_name

    problems = []
    for faces in cards.faces:
        component = faces.component
        if (component.kind != "board" or not faces.copies or component.paper_sized
                or board_mode(component, profile) != "full"):
            continue
        w, h = component.size_pt
        paper = paper_name(tuple(sorted(profile.paper, reverse=w > h)))
        a3 = named_size("a3")
        larger = "a larger sheet profile"
        if max(profile.paper) < max(a3) - 0.01 and _fits(w, h, a3[0] - 2 * profile.margin, a3[1] - 2 * profile.margin):
            larger += f" (pnp build --profile a3-{'portrait' if profile.paper[0] < profile.paper[1] else 'landscape'})"
        index = cards.game.components.index(component)
        problems.append(Problem(
            component.at("size"), f"components[{index}].size",
            f"board {component.id!r} is {fmt_mm(w)}x{fmt_mm(h)} mm, the size of the {paper} paper: it prints"
            f" edge to edge with no crop marks, and a home printer leaves the outer {fmt_mm(profile.margin)} mm"
            " (the profile's margin) blank, so the board loses its edge strip. Ways out: print borderless"
            f" (a profile with margin: 0mm), {larger}, or tiled pages (paper_sized: tiled on the"
            " component, or pnp build --paper-sized-boards tiled); paper_sized: full keeps it edge to edge"
            " without this warning", "warning"))
    return problems


def pages_for(component, profile) -> int:
    """The pages a component prints on by its own count (the total of its labels' n/total); a
    page packed with other components counts for each of them (``print_pages`` counts the file)."""
    from .impose import impose

    if component.kind == "board":
        return _board_pages(component, profile, component.found)
    w, h = component.size_pt
    return len(impose(component.found, w, h, piece_profile(component, profile), with_backs=bool(component.back)))


def piece_profile(component, profile):
    """The profile ``component``'s pieces are imposed with: a round piece painting a bleed disc gets
    the gutter the disc needs (``impose.round_piece_profile``)."""
    from .impose import round_piece_profile

    return round_piece_profile(profile, component.bleed_reach) if component.shape == "round" else profile


def print_pages(components, profile) -> int:
    """The pages of the print file of ``components`` (every copy each), packed pages once."""
    return sum(_board_pages(run[0], profile, run[0].found) if board
               else len(card_pages([(c, c.found, bool(c.back)) for c in run], profile)[0])
               for board, run in _runs(components, lambda c: c))


def _runs(items, component_of):
    """``(is_board, items)`` in print order: each board alone, consecutive card components
    together (they may share pages)."""
    from itertools import groupby

    for board, group in groupby(items, key=lambda item: component_of(item).kind == "board"):
        if board:
            yield from ((True, [item]) for item in group)
        else:
            yield False, list(group)


def faces_pages(run: list[Faces], profile, with_backs: bool = True):
    """``card_pages`` of consecutive components' faces (fronts only without ``with_backs``), a round
    piece's bleed disc measured on its faces first (``layout.reach``: the gutter it needs)."""
    from .layout.reach import note_reach

    for faces in run:
        note_reach(faces)
    return card_pages([(f.component, len(f.copies), with_backs and f.backs is not None) for f in run], profile)


def card_pages(entries, profile):
    """``(pages, own page counts)`` of consecutive card components ``(component, cards,
    with_backs)``: each imposed, then packed as the profile allows (``impose.pack``)."""
    from .impose import impose, pack

    parts = [impose(n, *component.size_pt, piece_profile(component, profile), with_backs=backs)
             for component, n, backs in entries]
    return pack(parts, profile, [not backs for _, _, backs in entries]), [len(p) for p in parts]


def _board_pages(component, profile, copies: int) -> int:
    """Pages of ``copies`` prints of a board: one each, or when tiled its tiles and an assembly
    page each."""
    if board_mode(component, profile) != "tiled":
        return copies
    from .impose import plan_tiles  # only here: a build of cards does not import the tiling

    w, h = component.size_pt
    return copies * (len(plan_tiles(w, h, *profile.paper, profile.margin, _overlap(component)).tiles) + 1)


def _overlap(component) -> float:
    from .units import mm
    return (component.tiling or {}).get("overlap") or mm(10)


def render_print_pdf(cards: CardSet, profile, *, title: str, components=None, proof: bool = False,
                     finish=None, progress=None) -> bytes:
    """All printable components of a card set, in order, as one PDF (bytes).

    ``proof`` draws trim, bleed and safe-zone lines and the card id over every face
    (``generator.export.proof``); ``finish(canvas)`` may add pages at the end (errata list).
    ``progress(done, total)`` is called as each page of the components is finished.
    """
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=profile.paper, invariant=1, initialFontName=cards.fonts.regular,
                    initialFontSize=8, pageCompression=1)
    wanted = set(components) if components else None
    selected = [faces for faces in cards.faces if not wanted or faces.component.id in wanted]
    # Card pages are planned first (imposed and packed): a run's pages are known before any is drawn.
    steps = [(board, run, None if board else faces_pages(run, profile))
             for board, run in _runs(selected, lambda faces: faces.component)]
    _compress_finished_pages(canvas, _page_progress(progress, steps, profile))
    canvas.setTitle(title)
    canvas.setCreator("pnp-generator")
    canvas.setAuthor("")
    canvas.setSubject("print-and-play sheets")
    forms = SharedFaces()
    for board, run, plan in steps:
        if board:
            _render_board(canvas, cards, run[0], profile, title, proof, forms)
        else:
            render_card_run(canvas, cards, run, plan, profile, title, proof, forms)
    if finish is not None:
        finish(canvas)
    canvas.save()
    return buffer.getvalue()


def _page_progress(progress, steps, profile):
    """``progress(done, total)`` as a per-page callback (None without progress): the pages of every
    planned run counted first."""
    if progress is None:
        return None
    total = sum(_board_pages(run[0].component, profile, len(run[0].copies)) if board else len(plan[0])
                for board, run, plan in steps)

    def on_page(number):
        progress(min(number, total), total)  # the pages ``finish`` adds are not counted
    return on_page


def _proof(cards: CardSet, faces: Faces, profile, proof: bool):
    """The proof overlay for this component's faces, or None."""
    if not proof:
        return None
    from .export.faces import record_id
    from .export.proof import SAFE_INSET, draw_proof

    component = faces.component
    w, h = component.size_pt
    safe = SAFE_INSET if profile.safe is None else profile.safe  # the line the build warns of, when declared

    def overlay(c, record, side):
        draw_proof(c, w, h, bleed=profile.bleed, font_name=cards.fonts.regular, safe=safe,
                   label=f"{component.id}/{record_id(component, record)} · {side}")
    return overlay


def render_card_run(canvas, cards: CardSet, run: list[Faces], plan, profile, title: str, proof: bool,
                    forms: SharedFaces):
    """Consecutive card components, their pages ``plan`` (``card_pages``); a page they share has
    a label naming each with its own page number: ``title · 資源 2/2 · 印 1/1 · 表 (front)``."""
    from .impose import render_pages
    from .impose.wording import side_of

    pages, totals = plan
    lang = cards.game.meta.get("lang", "ja")
    names = [text_in(faces.component.name, lang) for faces in run]

    def label(page, _total):
        side = side_of(page.side, lang)
        if not page.bands:
            return f"{title} · {names[page.part]} · {page.number}/{totals[page.part]} · {side}"
        parts = " · ".join(f"{names[b.part]} {b.number}/{totals[b.part]}" for b in page.bands)
        return f"{title} · {parts} · {side}"

    draw_faces = [_face_drawer(cards, faces, profile, proof, forms) for faces in run]
    render_pages(canvas, pages, draw_faces, font_name=cards.fonts.regular, label=label)


def _face_drawer(cards: CardSet, faces: Faces, profile, proof: bool, forms: SharedFaces):
    """``draw_face(canvas, index, side)`` for one component's cards (``impose.render_pages``)."""
    component = faces.component
    paint_face = _face_painter(cards, component, profile, forms)
    overlay = _proof(cards, faces, profile, proof)
    repeated = {record for record, times in Counter(faces.copies).items() if times > 1}  # copies of a card

    def draw_face(c, index, side):
        record = faces.copies[index]
        if side == "front":
            ops, shared, slot = faces.fronts[record], record in repeated, record
        elif component.back_per_card:
            ops, shared, slot = faces.back_for(record), record in repeated, record
        else:
            ops, shared, slot = faces.back_for(record), len(faces.copies) > 1, 0
        paint_face(c, (component.id, side, slot), ops, shared)
        if overlay is not None:
            overlay(c, record, side)
    return draw_face


def _face_painter(cards: CardSet, component, profile, forms: SharedFaces, scale: float = 1.0):
    """``paint_face(canvas, key, ops, shared)`` paints one face of ``component``: by reference to
    its form (``forms``, under ``key``) when ``shared``, directly otherwise. Where the profile's
    bleed is wider than the faces paint (1/8 in on a shop's pages, 3 mm painted; or the 3 mm of a
    board drawn at ``scale`` 90 %, 2.7 mm), the face is a form placed again under itself, its edge
    stretched over the ring between (``impose.bleed_ring``)."""
    from .impose.bleed_ring import bleed_ring

    w, h = component.size_pt
    painter = Painter(cards.fonts, cards.icons, h)
    bleed = profile.bleed / scale  # in the face's own units: it is drawn scaled
    bleed_box = (-bleed, -bleed, w + bleed, h + bleed)
    ring = bleed_ring(w, h, cards.bleed, bleed)

    def paint_face(c, key, ops, shared):
        if not ops:
            return
        if ring:
            draw_with_ring(c, forms, key, lambda c: painter.paint(c, ops), bleed_box, ring)
        elif shared:
            forms.draw(c, key, lambda c: painter.paint(c, ops), bleed_box)
        else:
            painter.paint(c, ops)
    return paint_face


def draw_with_ring(canvas: Canvas, forms: SharedFaces, key, paint, bbox, ring) -> None:
    """Draw the face ``key`` (``paint``, as ``SharedFaces.form`` takes it) with its edge stretched over
    ``ring`` (``impose.bleed_ring``): a bleed wider than the face paints, on a print-shop page or an
    exported image."""
    name = forms.form(canvas, key, paint, bbox)
    _fill_ring(canvas, name, ring)
    canvas.doForm(name)  # over the ring: what the face itself paints past its painted bleed wins


def _fill_ring(canvas: Canvas, form: str, ring) -> None:
    """Place ``form`` once per ring piece, transformed as the piece says and clipped to it."""
    for piece in ring:
        canvas.saveState()
        path = canvas.beginPath()
        x0, y0, x1, y1 = piece.clip
        path.rect(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.transform(piece.sx, 0, 0, piece.sy, piece.tx, piece.ty)
        canvas.doForm(form)
        canvas.restoreState()


def render_full_size_boards(cards: CardSet, profile, *, title: str) -> dict:
    """Boards printed tiled (the paper cannot hold them, or a board the size of the paper asked
    for it), each as its own PDF at design size (for a larger or borderless printer or a copy
    shop), ``{component id: bytes}``; the print file carries them tiled."""
    out = {}
    for faces in cards.faces:
        component = faces.component
        if component.kind != "board" or board_mode(component, profile) != "tiled":
            continue
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=component.size_pt, invariant=1, initialFontName=cards.fonts.regular,
                        initialFontSize=8, pageCompression=1)
        canvas.setTitle(f"{title} · {text_in(component.name, cards.game.meta.get('lang', 'ja'))}")
        canvas.setCreator("pnp-generator")
        painter = Painter(cards.fonts, cards.icons, component.size_pt[1])
        for index in faces.copies:
            painter.paint(canvas, faces.fronts[index])
            canvas.showPage()
        canvas.save()
        out[component.id] = buffer.getvalue()
    return out


def _render_board(canvas, cards: CardSet, faces: Faces, profile, title: str, proof: bool, forms: SharedFaces):
    """A board that fits the printable area: one page a copy, on the paper turned like the board,
    with crop marks (and cut lines) as the profile gives a sheet of cards; one the paper holds
    only edge to edge: the same page, with no room for marks ('full'), or as a page board
    scaled by ``fit_scale`` ('fit', the scale in the label), or tiled ('tiled'); a larger one:
    tiled, its outer edges marked (``impose.render_tiles``)."""
    from .impose import board_pages, plan_tiles, render_assembly_page, render_pages, render_tiles

    component = faces.component
    w, h = component.size_pt
    mode = board_mode(component, profile)
    scale = fit_scale(component, profile) if mode == "fit" else 1.0
    paint_face = _face_painter(cards, component, profile, forms, scale)
    overlay = _proof(cards, faces, profile, proof)
    name = text_in(component.name, cards.game.meta.get("lang", "ja"))

    def draw(c, copy, _side="front"):
        record = faces.copies[copy]
        paint_face(c, (component.id, "front", record), faces.fronts[record], False)
        if overlay is not None:
            overlay(c, record, "front")
    if mode == "fit":
        def draw_scaled(c, copy, _side="front"):
            c.scale(scale, scale)
            draw(c, copy)
        render_pages(canvas, board_pages(len(faces.copies), w * scale, h * scale, profile), draw_scaled,
                     font_name=cards.fonts.regular,
                     label=lambda page, total: f"{title} · {name} · {page.number}/{total} · scaled to {scale:.1%}")
        return
    if mode != "tiled":
        render_pages(canvas, board_pages(len(faces.copies), w, h, profile), draw, font_name=cards.fonts.regular,
                     label=lambda page, total: f"{title} · {name} · {page.number}/{total}")
        return
    plan = plan_tiles(w, h, *profile.paper, profile.margin, _overlap(component))
    lang = cards.game.meta.get("lang", "ja")  # the assembly instructions in the game's language
    for copy in range(len(faces.copies)):
        render_assembly_page(canvas, plan, font_name=cards.fonts.regular, title=name, lang=lang)
        render_tiles(canvas, plan, lambda c, copy=copy: draw(c, copy), font_name=cards.fonts.regular,
                     profile=profile, lang=lang)
