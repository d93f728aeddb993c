"""``pnp export GAME --showcase``: a few cards of each component fanned like a hand, one PNG each.

For a post, a crowdfunding page or a playtest invitation: the cards as they print (rasterized from
the painter's PDF, as every PNG export is), cut to their trim with rounded corners, fanned about a
point below the hand, with a soft shadow, on a transparent background. The cards shown are the
first distinct ones of the component, or those asked for by id (``--card``), at most ``MAX_CARDS``.
"""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from ..content.schema import did_you_mean
from ..errors import BuildError
from ..outputs import write_atomic
from .faces import record_id
from .raster import MM, faces_pdf, png_bytes, px_for, rasterize, trim_frame

MAX_CARDS = 7
DEFAULT_DPI = 150
KINDS = ("card", "tile", "token")
SPREAD_DEGREES = 8.0            # between neighbouring cards
CORNER_MM = 3.0                 # a poker card's corner radius (a round token is a circle)
SHADOW = (0, 0, 0, 110)


def export_showcase(cards, out_dir: Path, *, components=None, card_ids=(), dpi: int | None = None) -> list[Path]:
    """Write ``showcase-<component>.png`` for each wanted component that has faces; the paths. An id
    in ``card_ids`` that no wanted component has is a ``BuildError`` before anything is written."""
    dpi = dpi or DEFAULT_DPI
    wanted = [faces for faces in cards.faces if faces.component.kind in KINDS
              and (not components or faces.component.id in components)]
    known = [record_id(f.component, i) for f in wanted for i in range(len(f.component.records))]
    unknown = [card for card in card_ids if card not in known]
    if unknown:
        hint = did_you_mean(unknown[0], known)
        raise BuildError(f"--card {', '.join(unknown)}: no card with that id in "
                         f"{'the components asked for' if components else 'this game'}{hint}")
    written = []
    for faces in wanted:
        chosen = _chosen(faces.component, card_ids)
        images = _card_images(cards, faces, chosen, dpi) if chosen else []
        if images:
            name = f"showcase-{faces.component.id}.png"
            written.append(write_atomic(Path(out_dir) / name, png_bytes(fan(images), dpi, alpha=True)))
    return written


def _chosen(component, card_ids) -> list[int] | None:
    """Record indices to show: the ids asked for that this component has (None if it has none of
    them), else its first ``MAX_CARDS`` records."""
    ids = [record_id(component, i) for i in range(len(component.records))]
    if card_ids:
        picked = [ids.index(card) for card in card_ids if card in ids]
        return picked[:MAX_CARDS] or None
    return list(range(min(MAX_CARDS, len(ids))))


def _card_images(cards, faces, indices: list[int], dpi: int) -> list[Image.Image]:
    w, h = faces.component.size_pt
    px = (px_for(w, dpi), px_for(h, dpi))
    pages = [(faces, faces.fronts[i], trim_frame((w, h), px)) for i in indices if faces.fronts[i]]
    if not pages:
        return []
    pdf = faces_pdf(cards, pages, title=f"showcase {faces.component.id}")
    round_shape = faces.component.shape == "round"
    radius = min(px) / 2 if round_shape else CORNER_MM * MM / 72 * dpi
    return [_rounded(image.convert("RGBA"), radius) for image in rasterize(pdf, [px] * len(pages))]


def _rounded(image: Image.Image, radius: float) -> Image.Image:
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, image.width - 1, image.height - 1), radius=radius, fill=255)
    image.putalpha(mask)
    return image


def fan(images: list[Image.Image], spread: float = SPREAD_DEGREES) -> Image.Image:
    """The cards fanned like a hand held up: each turned ``spread`` degrees from the next about a
    point a card's height below their centres, the first on the left and beneath; with shadows;
    transparent around."""
    w, h = images[0].size
    n = len(images)
    pivot = 1.6 * h                  # from a card's centre down to the point the hand turns about
    margin = int(0.12 * h)
    placed = []
    for k, image in enumerate(images):
        angle = (k - (n - 1) / 2) * spread
        turned = image.rotate(-angle, resample=Image.BICUBIC, expand=True)
        a = math.radians(angle)
        cx, cy = pivot * math.sin(a), -pivot * math.cos(a) + pivot  # the card's centre, pivot at (0, pivot)
        placed.append((turned, cx - turned.width / 2, cy - turned.height / 2))
    left = min(x for _, x, _ in placed) - margin
    top = min(y for _, _, y in placed) - margin
    right = max(x + t.width for t, x, _ in placed) + margin
    bottom = max(y + t.height for t, _, y in placed) + margin
    canvas = Image.new("RGBA", (math.ceil(right - left), math.ceil(bottom - top)), (0, 0, 0, 0))
    blur = max(2, int(0.02 * h))
    for turned, x, y in placed:
        at = (round(x - left), round(y - top))
        shadow = Image.new("RGBA", turned.size, SHADOW)
        shadow.putalpha(turned.getchannel("A").point(lambda v: v * SHADOW[3] // 255))
        layer = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
        layer.alpha_composite(shadow, (at[0] + blur, at[1] + blur))
        canvas.alpha_composite(layer.filter(ImageFilter.GaussianBlur(blur)))
        canvas.alpha_composite(turned, at)
    return canvas
