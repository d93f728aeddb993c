"""Font loading: locate the default Japanese font and register TrueType fonts with ReportLab.

ReportLab embeds only TrueType (``glyf``) outlines, as subsets. CFF/PostScript-outline
fonts (every Noto CJK font, most ``.otf`` files) cannot be used: :func:`load_fonts`
says so, naming the file, instead of letting ReportLab fail later.

Bold: the default font (IPAexGothic) has no bold face. When no bold font is configured,
bold runs are drawn with the regular font in text render mode 2 (fill + stroke) with a
stroke of :data:`SYNTHETIC_BOLD_STROKE` x the font size and round joins. The stroke does
not change advance widths, so bold text is measured exactly like regular text and the
line breaks do not depend on whether a run is bold.
"""
from __future__ import annotations

import hashlib
import importlib.util
import io
import re
import struct
import threading
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from generator import fontcache
from generator.errors import FontError

__all__ = [
    "FontSet",
    "SYNTHETIC_BOLD_STROKE",
    "default_font_path",
    "load_fonts",
    "register_font",
]

#: Stroke width of synthetic bold, as a fraction of the font size (3.5 % of the em).
SYNTHETIC_BOLD_STROKE = 0.035

_DEFAULT_PACKAGE = "matplotlib_fontja"
_DEFAULT_FILE = ("fonts", "ipaexg.ttf")

_CFF_REASON = (
    "ReportLab embeds only TrueType (glyf) outlines; this font has CFF/PostScript outlines "
    "— use a TrueType font such as IPAexGothic"
)

_lock = threading.Lock()
# (resolved path, size, mtime_ns) -> (registered font name, SHA-256 of the file's bytes)
_registered: dict[tuple[str, int, int], tuple[str, str]] = {}


def default_font_path() -> Path:
    """Path of IPAexGothic shipped by the pip package ``matplotlib-fontja``.

    The package is located without importing it (importing it changes matplotlib's
    global settings).
    """
    try:
        spec = importlib.util.find_spec(_DEFAULT_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        candidate = Path(location).joinpath(*_DEFAULT_FILE)
        if candidate.is_file():
            return candidate
    where = f" (looked in {', '.join(locations)})" if locations else ""
    raise FontError(
        f"default font IPAexGothic not found{where}: install matplotlib-fontja "
        "(pip install matplotlib-fontja) or configure a TrueType font for the game"
    )


@dataclass(frozen=True)
class FontSet:
    """Registered ReportLab font names plus the vertical metrics the text engine needs.

    ``regular`` / ``bold`` are names usable with ``canvas.setFont`` and
    ``pdfmetrics.stringWidth``. ``bold`` is ``None`` when bold is synthesized from the
    regular font (see :data:`SYNTHETIC_BOLD_STROKE`). Metrics are fractions of the em:
    ``ascent`` and ``cap_height`` above the baseline (positive), ``descent`` below it
    (positive number).
    """

    regular: str
    bold: str | None
    regular_path: Path
    bold_path: Path | None
    ascent: float
    descent: float
    cap_height: float
    bold_stroke: float = SYNTHETIC_BOLD_STROKE

    @property
    def synthetic_bold(self) -> bool:
        """True when bold runs are drawn as stroked regular text."""
        return self.bold is None

    def font_for(self, bold: bool) -> str:
        """The font name that measures and draws a run (bold runs without a bold face use regular)."""
        return self.bold if (bold and self.bold) else self.regular

    def has_glyph(self, char: str, bold: bool = False) -> bool:
        return ord(char) in _cmap(self.font_for(bold))

    def missing_glyphs(self, text: str, bold: bool = False) -> set[str]:
        """Characters of ``text`` the font has no glyph for (newlines ignored).

        ``bold=False`` checks the regular font; ``bold=True`` the font bold runs use.
        """
        font = self.font_for(bold)
        present = _present(font)
        unknown = set(text).difference(present)  # most characters were seen before
        if not unknown:
            return unknown
        cmap = _cmap(font)
        missing = {ch for ch in unknown if ch not in "\n\r" and ord(ch) not in cmap}
        present.update(unknown - missing)
        return missing


_PRESENT: dict = {}


def _present(font_name: str) -> set[str]:
    """Characters already found in the font (a set difference is far cheaper than look-ups)."""
    found = _PRESENT.get(font_name)
    if found is None:
        found = _PRESENT[font_name] = set()
    return found


def _cmap(font_name: str) -> dict[int, int]:
    return pdfmetrics.getFont(font_name).face.charToGlyph


def load_fonts(regular: Path | str | None = None, bold: Path | str | None = None) -> FontSet:
    """Register the regular (default: IPAexGothic) and optional bold font; return their names.

    Idempotent: the same file always gets the same registered name and is parsed once
    per process. Raises :class:`FontError` naming the file for a missing file, a file
    that is not a TrueType font, or a CFF/PostScript-outline font.
    """
    regular_path = Path(regular) if regular is not None else default_font_path()
    regular_name = register_font(regular_path)
    bold_path = Path(bold) if bold is not None else None
    bold_name = register_font(bold_path) if bold_path is not None else None
    face = pdfmetrics.getFont(regular_name).face
    ascent = float(face.ascent) / 1000.0
    descent = -float(face.descent) / 1000.0
    cap_height = float(getattr(face, "capHeight", 0) or 0) / 1000.0 or 0.7 * ascent
    # Let ReportLab's Paragraph map <b> to the bold face (or to regular when synthetic).
    pdfmetrics.registerFontFamily(
        regular_name, normal=regular_name, bold=bold_name or regular_name,
        italic=regular_name, boldItalic=bold_name or regular_name,
    )
    return FontSet(
        regular=regular_name,
        bold=bold_name,
        regular_path=regular_path,
        bold_path=bold_path,
        ascent=ascent,
        descent=descent,
        cap_height=cap_height,
    )


def register_font(path: Path | str) -> str:
    """Register one TrueType font file with ReportLab and return its registered name.

    The name is derived from the file (stem + digest of its bytes), so it is the same
    for the same file on every run and machine; registering again returns the name
    without re-parsing the file.
    """
    path = Path(path)
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise FontError(path, "font file not found") from None
    except OSError as exc:
        raise FontError(path, f"cannot read font file ({exc.strerror or exc})") from None
    if not path.is_file():
        raise FontError(path, "not a font file (it is a directory or special file)")
    key = _file_key(path, stat)
    with _lock:
        name, _ = _registered.get(key, (None, None))
        if name is not None and name in pdfmetrics.getRegisteredFontNames():
            return name
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise FontError(path, f"cannot read font file ({exc.strerror or exc})") from None
        _check_signature(path, data)
        # One pass over a 6 MB CJK font names it and gives the lock its hash; kept between runs. Looked
        # up by a stat taken after the read (a write before it shows in its ctime), kept by the one before.
        digest = fontcache.known_digest(key[0], path.stat())
        if digest is None:
            digest = hashlib.sha256(data).hexdigest()
            fontcache.remember_digest(key[0], stat, digest)
        name = _font_name(path, digest)
        if name not in pdfmetrics.getRegisteredFontNames():
            font = fontcache.load(name, digest, data, str(path)) or _parse(name, path, data, digest)
            pdfmetrics.registerFont(font)
        _registered[key] = (name, digest)
        return name


def _parse(name: str, path: Path, data: bytes, digest: str) -> TTFont:
    stream = io.BytesIO(data)  # the bytes read already: a large CJK font is not read twice
    stream.name = str(path)    # ReportLab names the font file and checks subsetting by it
    try:
        font = TTFont(name, stream)
    except TTFError as exc:
        raise _font_error(path, exc) from None
    except (struct.error, ValueError, IndexError, KeyError, TypeError, AssertionError) as exc:
        raise FontError(path, f"not a usable TrueType font (corrupt file: {exc})") from None
    fontcache.save(font, digest)
    return font


def font_digest(path: Path | str) -> str:
    """SHA-256 (hex) of a font file's bytes, as hashed when it was registered (the print lock
    names the fonts by it; hashing a 6 MB CJK font again costs a small build a few percent)."""
    path = Path(path)
    _, digest = _registered.get(_file_key(path, path.stat()), (None, None))
    return digest if digest is not None else hashlib.sha256(path.read_bytes()).hexdigest()


def _file_key(path: Path, stat) -> tuple[str, int, int]:
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)


def _check_signature(path: Path, data: bytes) -> None:
    head = data[:4]
    if len(data) < 12:
        raise FontError(path, "not a font file (too short to be a TrueType font)")
    if head == b"OTTO":
        raise FontError(path, _CFF_REASON)
    if head in (b"wOFF", b"wOF2"):
        raise FontError(path, "a WOFF web font (compressed); ReportLab needs an uncompressed TrueType .ttf file")
    if head not in (b"\x00\x01\x00\x00", b"true", b"ttcf"):
        raise FontError(path, f"not a TrueType font (file starts with {head!r}, expected a TrueType sfnt header)")


def _font_error(path: Path, exc: Exception) -> FontError:
    message = str(exc)
    if "postscript outlines" in message.lower():
        return FontError(path, _CFF_REASON)
    return FontError(path, f"not a usable TrueType font ({message})")


def _font_name(path: Path, digest: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", path.stem).strip("-") or "font"
    return f"{stem}-{digest[:10]}"
