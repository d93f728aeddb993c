"""Faces → a one-face-per-page PDF (painted by the project's painter) → exact-size RGB images.

Raster outputs are rasterized from the PDF the painter made (pypdfium2), so a PNG cannot
disagree with the print PDF. Each page is rendered to an exact pixel size: pdfium maps the
page onto the bitmap, so ``825 x 1125`` means exactly that, with no rounding drift.
"""
from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from ..impose.bleed_ring import bleed_ring
from ..layout.paint import Painter
from ..sheets import SharedFaces, draw_with_ring

MM = 72 / 25.4


@dataclass(frozen=True)
class Frame:
    """One output image: its pixel size, its page size in points, and where the card goes.

    The card's trim (``card`` points, upright) is drawn scaled by ``scale`` with its
    lower-left corner at ``origin`` on the page; everything outside the page is cut away.
    """

    px: tuple[int, int]
    page: tuple[float, float]
    card: tuple[float, float]
    scale: float
    origin: tuple[float, float]
    #: how far past its trim the image shows the card (card points) when that is wider than the card
    #: paints: the ring between is its edge stretched (``impose.bleed_ring``), the card kept at true size
    ring_bleed: float = 0.0
    #: that ring's pieces (``impose.bleed_ring``), worked out once with the frame, drawn on every face
    ring: tuple = ()

    @property
    def dpi(self) -> float:
        return self.px[0] * 72.0 / self.page[0]

    def trim_px(self) -> tuple[float, float, float, float]:
        """The card's trim in image pixels ``(left, top, right, bottom)`` (y down)."""
        k = self.px[0] / self.page[0]
        x0, y0 = self.origin
        x1, y1 = x0 + self.card[0] * self.scale, y0 + self.card[1] * self.scale
        return (x0 * k, (self.page[1] - y1) * k, x1 * k, (self.page[1] - y0) * k)


def px_for(length_pt: float, dpi: float) -> int:
    """``round(length_in_inches * dpi)``, halves rounded up: the pixels of trim + 2 x bleed.

    (Rounded to 6 decimals first, so 82.5 computed as 82.50000000001 or 82.4999999999 is 83.)
    """
    return int(math.floor(round(length_pt / 72.0 * dpi, 6) + 0.5))


def fit_frame(card: tuple[float, float], art_bleed: float, dpi: float,
              trim: tuple[float, float] | None = None, bleed: float = 0.0) -> Frame:
    """The image of a card for a target ``trim`` + ``bleed`` at ``dpi`` (same trim if none).

    Pixels: ``round((trim + 2 * bleed) / 25.4mm * dpi)`` per axis. The face is scaled
    uniformly, centred, just enough that its trim covers the target trim (1 for the same trim).
    Where the image reaches further past that trim than the face paints (``art_bleed``: a 1/8 in
    bleed, 3 mm painted) the ring between is the face's edge stretched (``ring_bleed``), as on a
    print shop's page: scaling the face up to cover it instead would print the card larger than
    its trim. A reach over the painted bleed by pixel rounding only scales (a hair's width).
    """
    cw, ch = card
    tw, th = trim or card
    px = (px_for(tw + 2 * bleed, dpi), px_for(th + 2 * bleed, dpi))
    page = (px[0] * 72.0 / dpi, px[1] * 72.0 / dpi)
    scale = max(tw / cw, th / ch)
    reach = max(page[0] / scale - cw, page[1] / scale - ch) / 2
    ring = tuple(bleed_ring(cw, ch, art_bleed, reach))
    if not ring:
        scale = max(scale, page[0] / (cw + 2 * art_bleed), page[1] / (ch + 2 * art_bleed))
    origin = ((page[0] - cw * scale) / 2, (page[1] - ch * scale) / 2)
    return Frame(px, page, card, scale, origin, reach if ring else 0.0, ring)


def trim_frame(card: tuple[float, float], px: tuple[int, int]) -> Frame:
    """The card cropped to its trim, rendered to ``px`` (Tabletop Simulator cells)."""
    return Frame(px, card, card, 1.0, (0.0, 0.0))


def faces_pdf(cards, pages, *, title: str = "faces", overlay=None) -> bytes:
    """A PDF with one page per ``(faces, ops, frame)``; ``overlay(canvas, faces, ops)`` draws
    on top of a face in card coordinates (proof marks)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=cards.fonts.regular, initialFontSize=8,
                    pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator("pnp-generator")
    canvas.setAuthor("")
    painters: dict = {}
    forms = SharedFaces()
    for faces, ops, frame in pages:
        canvas.setPageSize(frame.page)
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(0, 0, frame.page[0], frame.page[1])
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate(*frame.origin)
        canvas.scale(frame.scale, frame.scale)
        card_h = frame.card[1]
        painter = painters.get(card_h)
        if painter is None:
            painter = painters[card_h] = Painter(cards.fonts, cards.icons, card_h)
        if ops and frame.ring:
            _paint_with_ring(canvas, forms, painter, ops, frame)
        elif ops:
            painter.paint(canvas, ops)
        if overlay is not None:
            overlay(canvas, faces, ops)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _paint_with_ring(canvas, forms, painter, ops, frame: Frame) -> None:
    w, h = frame.card
    reach = frame.ring_bleed
    key = len(forms.names)  # a form per image: each page is another face
    draw_with_ring(canvas, forms, key, lambda c: painter.paint(c, ops), (-reach, -reach, w + reach, h + reach),
                   frame.ring)


def rasterize(pdf: bytes, sizes):
    """Yield one RGB ``PIL.Image`` per page, page ``i`` rendered to exactly ``sizes[i]`` pixels.

    Uses pdfium's C API through ``pypdfium2.raw`` (stable across pypdfium2 4.x and 5.x): a
    white 4-byte-per-pixel bitmap of the exact size, the page rendered onto it in RGB order.
    """
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    from PIL import Image

    document = pdfium.PdfDocument(pdf)
    try:
        for index, (w, h) in enumerate(sizes):
            page = document[index]
            stride = w * 4
            buffer = (ctypes.c_ubyte * (stride * h))()
            bitmap = raw.FPDFBitmap_CreateEx(w, h, raw.FPDFBitmap_BGRx, buffer, stride)
            try:
                raw.FPDFBitmap_FillRect(bitmap, 0, 0, w, h, 0xFFFFFFFF)
                raw.FPDF_RenderPageBitmap(bitmap, page.raw, 0, 0, w, h, 0,
                                          raw.FPDF_ANNOT | raw.FPDF_REVERSE_BYTE_ORDER)
                yield Image.frombuffer("RGBX", (w, h), bytes(buffer), "raw", "RGBX", stride, 1).convert("RGB")
            finally:
                raw.FPDFBitmap_Destroy(bitmap)
                page.close()
    finally:
        document.close()


_SRGB = None


def srgb_profile() -> bytes | None:
    """An sRGB ICC profile to embed (Pillow's LittleCMS), or None where Pillow lacks it.

    LittleCMS stamps the profile with the time it was made (header bytes 24-35): a fixed date
    there keeps exported images byte-identical from run to run. (The profile ID, bytes 84-99,
    is an MD5 over the header; LittleCMS leaves it zero, "not computed", and so do we.)
    """
    global _SRGB
    if _SRGB is None:
        try:
            from PIL import ImageCms
            data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
            data[24:36] = struct.pack(">6H", 2000, 1, 1, 0, 0, 0)
            data[84:100] = bytes(16)
            _SRGB = bytes(data)
        except (ImportError, OSError, AttributeError):  # pragma: no cover - Pillow without lcms
            _SRGB = b""
    return _SRGB or None


def png_bytes(image, dpi: float | None = None, compress_level: int = 6, alpha: bool = False) -> bytes:
    """An 8-bit RGB PNG tagged sRGB, with the resolution recorded when given; RGBA with ``alpha``
    (a showcase on a transparent ground), no alpha otherwise (print services refuse it)."""
    mode = "RGBA" if alpha else "RGB"
    if image.mode != mode:
        image = image.convert(mode)
    out = io.BytesIO()
    options = {"compress_level": compress_level}
    icc = srgb_profile()
    if icc:
        options["icc_profile"] = icc
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.save(out, "PNG", **options)
    return out.getvalue()


