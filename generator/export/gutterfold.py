"""``pnp export GAME --gutterfold vertical|horizontal``: fold-and-glue sheets, printed single-sided.

Every card, tile and token component (boards are not folded) on sheets from the chosen sheet
profile (paper, margin, bleed, gutter, marks): fronts in one half, backs mirrored about the
fold (``generator.impose.gutterfold``). A component without a back prints as in the home print:
fronts only, several components to a sheet when the profile packs (``impose.pack``), no fold
line; the sheets are turned like the fold's, so the file prints with one paper setting.
"""
from __future__ import annotations

import io
from dataclasses import replace
from itertools import groupby

from reportlab.pdfgen.canvas import Canvas

from ..content.game import text_in
from ..impose.gutterfold import fold_paper, impose_gutterfold, render_gutterfold
from ..impose.wording import gutterfold_instruction
from ..layout.paint import Painter
from ..sheets import SharedFaces, faces_pages, render_card_run

KINDS = ("card", "tile", "token")


def gutterfold_pdf(cards, profile, fold: str, *, title: str, components=None) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=fold_paper(profile.paper, fold), invariant=1,
                    initialFontName=cards.fonts.regular, initialFontSize=8, pageCompression=1)
    canvas.setTitle(f"{title} — gutterfold ({fold} fold)")
    canvas.setCreator("pnp-generator")
    canvas.setAuthor("")
    wanted = set(components) if components else None
    selected = [faces for faces in cards.faces if faces.component.kind in KINDS
                and (wanted is None or faces.component.id in wanted)]
    front_sheets = fronts_only_profile(profile, fold)
    forms = SharedFaces()
    for folded, run in groupby(selected, key=lambda faces: faces.backs is not None):
        if folded:
            for faces in run:
                _render_folded(canvas, cards, faces, profile, fold, title)
        else:
            run = list(run)
            plan = faces_pages(run, front_sheets, with_backs=False)
            render_card_run(canvas, cards, run, plan, front_sheets, title, False, forms)
    canvas.save()
    return buffer.getvalue()


def fronts_only_profile(profile, fold: str):
    """The home print's profile for the sheets of components without a back, on the fold's paper:
    nothing prints on the reverse (no duplex) and the sheets are a home printer's (not a print
    shop's one card a page)."""
    return replace(profile, paper=fold_paper(profile.paper, fold), duplex="none", back_offset=(0.0, 0.0),
                   print_shop=False)


def _render_folded(canvas, cards, faces, profile, fold: str, title: str) -> None:
    """One component with backs on fold sheets."""
    component = faces.component
    lang = cards.game.meta.get("lang", "ja")
    w, h = component.size_pt
    painter = Painter(cards.fonts, cards.icons, h)
    pages = impose_gutterfold(len(faces.copies), w, h, profile, fold)
    name = text_in(component.name, lang)

    def draw_face(c, index, side):
        record = faces.copies[index]
        ops = faces.fronts[record] if side == "front" else faces.back_for(record)
        if ops:
            painter.paint(c, ops)

    def label(page, total):
        return f"{title} · {name} · {page.number}/{total} · {gutterfold_instruction(fold, lang)}"

    render_gutterfold(canvas, pages, draw_face, font_name=cards.fonts.regular, label=label)
