"""``pnp export GAME --gutterfold vertical|horizontal``: fold-and-glue sheets, printed single-sided.

Every card, tile and token component (boards are not folded) on sheets from the chosen sheet
profile (paper, margin, bleed, gutter, marks): fronts in one half, backs mirrored about the
fold (``generator.impose.gutterfold``). Components without a back get blank backs (fold for
thickness, or cut the halves apart).
"""
from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from ..content.game import text_in
from ..impose.gutterfold import fold_paper, impose_gutterfold, render_gutterfold
from ..impose.wording import gutterfold_instruction
from ..layout.paint import Painter

KINDS = ("card", "tile", "token")


def gutterfold_pdf(cards, profile, fold: str, *, title: str, components=None) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=fold_paper(profile.paper, fold), invariant=1,
                    initialFontName=cards.fonts.regular, initialFontSize=8, pageCompression=1)
    canvas.setTitle(f"{title} — gutterfold ({fold} fold)")
    canvas.setCreator("pnp-generator")
    canvas.setAuthor("")
    lang = cards.game.meta.get("lang", "ja")
    wanted = set(components) if components else None
    for faces in cards.faces:
        component = faces.component
        if component.kind not in KINDS or (wanted is not None and component.id not in wanted):
            continue
        w, h = component.size_pt
        painter = Painter(cards.fonts, cards.icons, h)
        pages = impose_gutterfold(len(faces.copies), w, h, profile, fold)
        name = text_in(component.name, lang)

        def draw_face(c, index, side, faces=faces, painter=painter):
            record = faces.copies[index]
            ops = faces.fronts[record] if side == "front" else faces.back_for(record)
            if ops:
                painter.paint(c, ops)

        def label(page, total, name=name):
            return f"{title} · {name} · {page.number}/{total} · {gutterfold_instruction(fold, lang)}"

        render_gutterfold(canvas, pages, draw_face, font_name=cards.fonts.regular, label=label)
    canvas.save()
    return buffer.getvalue()
