"""Art files as they are meant to be seen: upright by their EXIF orientation, 16-bit greys in 8 bits,
colours in sRGB.

ReportLab embeds a JPEG's own bytes and hands other files to Pillow as they are stored, so a
phone photo tagged "turn 90°" would print lying on its side, a 16-bit greyscale PNG (which
Pillow opens as ``I;16``) would print white, every value clipped to 255, and a picture saved in
Adobe RGB or Display P3 would print its numbers as sRGB ones, duller or shifted (the PDF keeps no
profile). Only such files are redrawn here; every other file is embedded as it is (a JPEG keeps
its compression).
"""
from __future__ import annotations

import functools
import hashlib
import io
from pathlib import Path

#: Below this an image prints visibly soft on a home printer (a warning); print shops ask for GOOD_DPI.
MIN_DPI = 150
GOOD_DPI = 300
#: ``fit: cover`` cutting more than this of a side is a warning: usually the wrong picture or the wrong box
MAX_COVER_CUT = 0.25
#: Pillow's own "decompression bomb" threshold: above it an image is a located warning of ours, not its
#: unlocated Python warning (a file of the game is no attack; twice this is Pillow's error, a problem)
HUGE_PIXELS = 89_478_485
_ORIENTATION = 0x0112        # the EXIF tag; 1 (or none) is upright
_WIDE_GREYS = ("I;16", "I;16B", "I;16L", "I")   # integer greys wider than 8 bits (PNG stores 16)


def drawable(path: Path):
    """What ReportLab's ImageReader should read: the path itself, or an upright 8-bit Pillow image (a
    JPEG's as JPEG bytes: ReportLab would store its pixels uncompressed-then-deflated, a portrait phone
    photo of 12 megapixels as several MB more PDF)."""
    with _open(path) as image:
        if not _redraws(image):
            return str(path)
        redrawn = _eight_bit(_in_srgb(_upright(image)))
        if image.format != "JPEG":
            return redrawn
    jpeg = io.BytesIO()
    redrawn.save(jpeg, "JPEG", quality=95)
    jpeg.seek(0)
    return jpeg


def embed_key(path: Path) -> str:
    """What two files embedded as they are share when they print the same picture: their bytes (a
    designer's "a copy.png", the same file under two names). Not their decoded pixels: decoding costs
    ~13 % of embedding a picture on every distinct file for the rare lossless re-save, which stays two
    embeds. Kept per file version: a deck draws each file on many cards and in several PDFs."""
    stat = path.stat()
    return _bytes_key(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=1024)
def _bytes_key(path: str, _mtime_ns: int, _size: int) -> str:
    return hashlib.blake2b(Path(path).read_bytes(), digest_size=16).hexdigest()


def drawn_as(path: Path) -> str:
    """How the file is redrawn before embedding ("" when it is embedded as it is): part of a face's hash."""
    with _open(path) as image:
        return _redraws(image)


def pixel_size(path: Path) -> tuple[int, int]:
    """Width and height in pixels as printed (turned by the EXIF orientation)."""
    with _open(path) as image:
        w, h = image.size
        return (h, w) if _orientation(image) in (5, 6, 7, 8) else (w, h)


def printed_dpi(pixels: tuple[int, int], w: float, h: float, fit: str) -> float:
    """Pixels per inch of an image of ``pixels`` drawn in a box of w x h points with ``fit``."""
    if w <= 0 or h <= 0:
        return float("inf")
    across, down = pixels[0] / w * 72, pixels[1] / h * 72
    # contain scales by the tighter side, so the other side's pixels are the ones that count
    return max(across, down) if fit == "contain" else min(across, down)


def cover_cut(pixels: tuple[int, int], w: float, h: float) -> tuple[float, float]:
    """The fractions of an image's width and height that ``fit: cover`` cuts away to fill a w x h box."""
    if w <= 0 or h <= 0:
        return (0.0, 0.0)
    scale = max(w / pixels[0], h / pixels[1])
    return (1 - w / (pixels[0] * scale), 1 - h / (pixels[1] * scale))


#: Drawings a designer exports from an illustration program, which no image box reads: what to do instead
_VECTOR_FILES = {".svg": "SVG", ".svgz": "SVG", ".pdf": "PDF", ".ai": "Illustrator", ".eps": "EPS"}


def unreadable(path: Path) -> str:
    """Empty if Pillow can decode the image, else the reason (a corrupt file is a problem, not a crash)."""
    from PIL import Image, UnidentifiedImageError

    vector = _VECTOR_FILES.get(path.suffix.lower())
    if vector:
        return (f"an image box draws pixels, not {vector} drawings: export it as a PNG at 300 dpi of its "
                f"printed size, or draw it as a vector icon in icons.yaml (docs/layouts.md, Icons)")
    if path.stat().st_size == 0:  # a save that failed, a cloud drive's placeholder not yet downloaded
        return "the file is empty (0 bytes)"
    try:
        with _open(path) as image:
            image.load()
    except UnidentifiedImageError:  # Pillow's message repeats the absolute path and says no more
        return "not an image Pillow can read (a damaged file, or not a PNG, JPEG, WebP, TIFF, GIF or BMP)"
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        return str(exc) or exc.__class__.__name__
    return ""


def _open(path: Path):
    """Pillow's image of ``path``, without its DecompressionBombWarning: the game's own art is reported
    located instead (HUGE_PIXELS). The filter is the process's, so it is also set when ReportLab opens
    the file again to embed it."""
    import warnings

    from PIL import Image

    warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)
    return Image.open(path)


def _orientation(image) -> int:
    return image.getexif().get(_ORIENTATION, 1) or 1


def _redraws(image) -> str:
    """What redrawing the image changes, as a note ("" for none)."""
    turn = _orientation(image)
    return ",".join(note for note, applies in ((f"exif-orientation-{turn}", turn != 1),
                                               ("greys-to-8-bits", image.mode in _WIDE_GREYS),
                                               ("colours-to-srgb", _foreign_profile(image) is not None)) if applies)


#: Colours an ICC profile must leave where sRGB has them (within rounding) to count as sRGB: the corners of
#: the RGB cube and a mid grey. A profile's name proves nothing ("sRGB IEC61966-2.1", "c2", a camera's own).
_PROBES = [(r, g, b) for r in (0, 255) for g in (0, 255) for b in (0, 255)] + [(128, 128, 128)]


def _foreign_profile(image):
    """The image's ICC profile when it puts colours elsewhere than sRGB does (Adobe RGB, Display P3...),
    else None (no profile, an sRGB one, a CMYK or grey picture, or a profile too broken to use)."""
    icc = image.info.get("icc_profile")
    if not icc or image.mode not in ("RGB", "RGBA"):
        return None
    from PIL import Image, ImageCms

    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        probe = Image.new("RGB", (len(_PROBES), 1))
        probe.putdata(_PROBES)
        seen = ImageCms.profileToProfile(probe, profile, ImageCms.createProfile("sRGB"), outputMode="RGB")
    except (ImageCms.PyCMSError, OSError, ValueError):
        return None
    moved = any(abs(a - b) > 2 for i, colour in enumerate(_PROBES) for a, b in zip(colour, seen.getpixel((i, 0))))
    return profile if moved else None


def _in_srgb(image):
    profile = _foreign_profile(image)
    if profile is None:
        return image
    from PIL import ImageCms

    return ImageCms.profileToProfile(image, profile, ImageCms.createProfile("sRGB"), outputMode=image.mode)


def _eight_bit(image):
    if image.mode not in _WIDE_GREYS:
        return image
    # 65535 / 257 = 255: the full 16-bit range onto 8 bits, where Pillow's convert("L") would clip
    return image.point(lambda value: value * (1 / 257)).convert("L")


def _upright(image):
    from PIL import ImageOps

    turned = ImageOps.exif_transpose(image)
    return turned if turned is not None else image
