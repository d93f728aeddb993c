"""Faces printed more than once are one PDF form, placed by reference, and print the same."""
import re

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import ImageChops

from generator import sheets
from generator.profiles import load_profile


def _render(tiny_checked):
    game, cards = tiny_checked
    settings = game.meta["print"]
    profile = load_profile(settings["profile"], game.root, settings["duplex"]).profile
    return sheets.render_print_pdf(cards, profile, title=game.title)


def _form_objects(pdf: bytes) -> int:
    return len(re.findall(rb"/Subtype\s*/Form", pdf))


def _forms_per_page(pdf: bytes) -> list[int]:
    doc = pdfium.PdfDocument(pdf)
    return [sum(1 for obj in page.get_objects() if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM) for page in doc]


def test_a_shared_back_and_card_copies_are_one_form_each(tiny_checked):
    pdf = _render(tiny_checked)
    # heroes: knight x2 (1 form placed twice), mage and thief once (drawn directly), one shared
    # back (1 form placed 4 times); coins: coin1 x4 and coin5 x2 (2 forms placed 6 times), no back.
    assert _form_objects(pdf) == 4
    assert _forms_per_page(pdf) == [2, 4, 6]


def test_forms_print_exactly_what_direct_painting_prints(tiny_checked, monkeypatch):
    with_forms = _render(tiny_checked)

    def paint_directly(self, canvas, key, paint, bbox):
        paint(canvas)
    monkeypatch.setattr(sheets.SharedFaces, "draw", paint_directly)
    without = _render(tiny_checked)
    assert _form_objects(without) == 0
    first, second = pdfium.PdfDocument(with_forms), pdfium.PdfDocument(without)
    assert len(first) == len(second) == 3
    for a, b in zip(first, second):
        diff = ImageChops.difference(a.render(scale=1.5).to_pil().convert("RGB"),
                                     b.render(scale=1.5).to_pil().convert("RGB"))
        # anti-aliasing may round an edge pixel differently inside a form: one level at most
        assert max(high for _, high in diff.getextrema()) <= 1


def test_a_translucent_shape_in_a_shared_face_stays_translucent():
    """ReportLab writes a form's resources without its graphics states; a shared face with an
    opacity must still define the state it names, or viewers draw the shape opaque."""
    import io

    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(100, 50), invariant=1)
    forms = sheets.SharedFaces()

    def face(c):
        c.setFillColor(HexColor("#ff0000"), alpha=0.35)
        c.rect(0, 0, 40, 40, stroke=0, fill=1)

    for x in (5, 55):  # the same face twice: one form, placed twice
        c.saveState()
        c.translate(x, 5)
        forms.draw(c, "face", face, (0, 0, 40, 40))
        c.restoreState()
    c.showPage()
    c.save()
    pdf = buf.getvalue()
    assert _form_objects(pdf) == 1
    image = pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("RGB")
    for x in (25, 75):
        red, green, blue = image.getpixel((x, 25))
        assert red > 250 and 150 < green < 180 and 150 < blue < 180, (x, image.getpixel((x, 25)))
