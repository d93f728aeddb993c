"""Parsed TrueType fonts kept between runs.

ReportLab parses a font's tables in Python: about 30 ms for IPAexGothic's 12,000 glyphs, paid by
every command that draws or measures text. What the parse yields is plain data (numbers, strings,
tables), so it is written once per font file and ReportLab version to the user's cache directory
(``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``; ``PNP_CACHE_DIR=`` turns
it off) with ``marshal``, which only ever rebuilds data, and read back in about 6 ms.

Nothing here is trusted blindly. An entry is named by the registered font name, the SHA-256 of
the font's bytes, the ReportLab and Python versions and this format's version; an object whose
state holds anything but plain data (and the few ReportLab types named below) is not cached at
all; an entry that cannot be read or does not fit is ignored, and the font is parsed as before.
The tests compare a font rebuilt from the cache with a freshly parsed one, attribute by
attribute, and the PDFs built with both.

The SHA-256 itself (a 6 MB CJK font: ~190 M instructions, 7 % of a 540-card build) is kept too, one
small entry per font path, served only while the file's device, inode, size, mtime and ctime are
those it was hashed at. ctime cannot be set back from user space, so rewriting the file (even to the
same size with its mtime restored) misses; a digest is not kept while the file's times are within
``_SETTLE_NS`` of now, when a second write in the same timestamp tick could go unseen (git's "racy
clean" rule).
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
import time
from pathlib import Path
from weakref import WeakKeyDictionary

import reportlab
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

from .cachedir import cache_dir

FORMAT = 1
_PLAIN = frozenset((int, float, str, bytes, bool, type(None), list, tuple, dict))
_CONTAINERS = frozenset((list, tuple, dict))
_FACE_REBUILT = ("_ttf_data", "_pdfScale")   # the file's bytes (read anyway) and a unit-scale function
_FONT_REBUILT = ("face", "encoding", "state")  # new for each font, as TTFont.__init__ makes them



_SETTLE_NS = 2_000_000_000


def _digest_entry(path: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return folder / "fonts" / f"{hashlib.sha256(path.encode()).hexdigest()[:32]}.sha256"


def _stat_line(path: str, stat) -> str:
    return f"{path}\0{stat.st_dev} {stat.st_ino} {stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns}"


def known_digest(path: str, stat) -> str | None:
    """The SHA-256 of the font file ``path`` (resolved) kept by :func:`remember_digest`, if the file
    is still the one hashed (``stat`` taken after its bytes were read); else None."""
    entry = _digest_entry(path)
    if entry is None:
        return None
    try:
        line, digest = entry.read_text(encoding="utf-8").split("\n")
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if line != _stat_line(path, stat) or len(digest) != 64 or digest.strip("0123456789abcdef"):
        return None
    return digest


def remember_digest(path: str, stat, digest: str) -> None:
    """Keep ``digest`` of the bytes read after ``stat`` for the next run (one entry per path: a
    changed font replaces its entry, so the entries stay as many as the font paths used)."""
    entry = _digest_entry(path)
    if entry is None or time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) < _SETTLE_NS:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        partial = entry.with_name(f"{entry.name}.{os.getpid()}.part")
        partial.write_text(f"{_stat_line(path, stat)}\n{digest}", encoding="utf-8")
        os.replace(partial, entry)
    except OSError:
        pass  # only costs the next run the hash


def _entry(name: str, digest: str) -> Path | None:
    """The cache file of font ``name`` (ReportLab derives a little state from the name) whose
    bytes have SHA-256 ``digest``."""
    folder = cache_dir()
    if folder is None:
        return None
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    return folder / "fonts" / f"{name}-{digest[:32]}-rl{reportlab.Version}-py{version}-v{FORMAT}.marshal"


def load(name: str, digest: str, data: bytes, filename: str) -> TTFont | None:
    """The font ``name`` rebuilt from the cache entry of the file with SHA-256 ``digest`` and
    bytes ``data``, or None when there is no usable entry."""
    entry = _entry(name, digest)
    if entry is None:
        return None
    try:
        font_state, face_state, names = marshal.loads(entry.read_bytes())
        face = TTFontFace.__new__(TTFontFace)
        face.__dict__.update(face_state)
        face.__dict__.update({key: TTFNameBytes(raw) for key, raw in names.items()})
        face._ttf_data, face.filename = data, filename
        face._pdfScale = _scale(face.unitsPerEm)
        font = TTFont.__new__(TTFont)
        font.__dict__.update(font_state)
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ZeroDivisionError):
        return None  # no entry, or one this code cannot read: parse the font
    font.fontName, font.face = name, face
    font.encoding, font.state = TTEncoding(), WeakKeyDictionary()
    return font


def save(font: TTFont, digest: str) -> None:
    """Write ``font``'s parsed state for the next run, if it is plain data (else nothing)."""
    entry = _entry(font.fontName, digest)
    if entry is None:
        return
    face = font.face
    names = {key: bytes(value) for key, value in face.__dict__.items() if type(value) is TTFNameBytes}
    face_state = {key: value for key, value in face.__dict__.items() if key not in names and key not in _FACE_REBUILT}
    font_state = {key: value for key, value in font.__dict__.items() if key not in _FONT_REBUILT}
    if not (_plain(face_state) and _plain(font_state) and _rebuilds(font)):
        return  # a ReportLab this module does not know: parse every time rather than guess
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        partial = entry.with_name(f"{entry.name}.{os.getpid()}.part")
        partial.write_bytes(marshal.dumps((font_state, face_state, names)))
        os.replace(partial, entry)  # atomic: a concurrent run reads the old entry or the new one
    except OSError:
        pass  # a read-only or full disk only costs the next run the parse


def _scale(units_per_em: int):
    """ReportLab's glyph-unit to 1/1000 em conversion (``TTFontFile.extractInfo``)."""
    if units_per_em == 1000:
        return lambda x: x
    factor = 1000 / units_per_em
    return lambda x: x * factor


def _rebuilds(font: TTFont) -> bool:
    """What ``load`` makes anew is what a parse made: the same types, the same unit scale."""
    face = font.face
    return (type(font.encoding) is TTEncoding and type(font.state) is WeakKeyDictionary
            and type(face._ttf_data) is bytes and _scale(face.unitsPerEm)(777) == face._pdfScale(777))


def _plain(value) -> bool:
    """Only exact built-in data types, all the way down (marshal would also take a subclass of
    ``bytes`` or ``int`` and give back the base type: such state is not cached)."""
    kind = type(value)
    if kind is dict:
        return _all_plain(value.keys()) and _all_plain(value.values())
    if kind in _CONTAINERS:
        return _all_plain(value)
    return kind in _PLAIN


def _all_plain(items) -> bool:
    kinds = set(map(type, items))  # the types first: tables of thousands of numbers in one pass
    if not kinds <= _PLAIN:
        return False
    return not kinds & _CONTAINERS or all(_plain(item) for item in items if type(item) in _CONTAINERS)
