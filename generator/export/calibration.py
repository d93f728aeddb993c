"""Duplex calibration: a two-page sheet that measures how far a printer shifts back pages.

Page 1 (front) carries a cross of thin pointer lines at five targets (centre and four corners)
and a 100 mm ruler to check the print is at actual size. Page 2 (back) carries, at each
target's mirror position under the printer's flip (exactly where backs of cards go, with the
profile's current ``back_offset`` applied), two millimetre scales: X horizontal, Y vertical,
labelled as seen on the back, + to the right and up.

Print duplex with the profile's flip, hold the sheet against a light with the back facing
you, and read where the front's lines cross the scales: that reading is the correction.
``new back_offset = current back_offset + reading`` (x, y in mm). The reading is 0, 0 once
calibrated.

Why: the back is printed shifted by an error ``e`` (back-page coordinates) on top of the
offset ``o``; the scale's zero lands at ``mirror(P) + o + e`` while the front's pointer is at
``mirror(P)``, so the reading is ``-(o + e)``; the offset that cancels the error is ``-e``
``= o + reading``.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..errors import BuildError, Location
from ..impose.duplex import flip_axis
from ..impose.sizes import mm
from . import calibration_wording as words

SCALE_MM = 5                 # the scales run -5 .. +5 mm
TICK_STEP_MM = 0.5
POINTER_ARM = mm(13)         # the front's lines reach across both scales
SCALE_AT = mm(7)             # the X scale lies 7 mm above its target, the Y scale 7 mm right of it
CORNER_INSET = mm(30)
RULER_MM = 100
LINE = 0.25
HEADING_SIZE = 9.0           # each page's first line
TEXT_SIZE = 8.0              # the instructions under it (shrunk only if a line would overflow)


@dataclass(frozen=True)
class Target:
    label: str
    front: tuple[float, float]        # the pointer cross on page 1
    back: tuple[float, float]         # the scales' zero on page 2 (offset applied)


def targets(profile) -> list[Target]:
    """Centre and corner targets, and where each one's scales go on the back page."""
    if profile.print_shop:
        raise BuildError(f"profile {profile.name!r} is a print-shop profile: the shop registers fronts and backs,"
                         " and it takes no back_offset; calibrate the sheet profile you print at home with")
    axis = flip_axis(profile.paper, profile.duplex)
    if axis is None:
        raise BuildError(f"profile {profile.name!r} has duplex: none: there is no back page to calibrate"
                         " (use a profile with long-edge or short-edge duplex)")
    pw, ph = profile.paper
    inset = max(CORNER_INSET, profile.margin + mm(20))
    points = [("A", (pw / 2, ph / 2)),
              ("B", (inset, ph - inset)), ("C", (pw - inset, ph - inset)),
              ("D", (inset, inset)), ("E", (pw - inset, inset))]
    dx, dy = profile.back_offset
    out = []
    for label, (x, y) in points:
        bx, by = (pw - x, y) if axis == "x" else (x, ph - y)
        out.append(Target(label, (x, y), (bx + dx, by + dy)))
    return out


def calibration_pdf(profile, font_name: str, *, lang: str | None = "en") -> bytes:
    """The two pages, their instructions in ``lang`` (Japanese for ``ja``, else English)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=profile.paper, invariant=1, initialFontName=font_name,
                    initialFontSize=8, pageCompression=1)
    canvas.setTitle(words.title(lang))
    canvas.setCreator("pnp-generator")
    canvas.setAuthor("")
    marks = targets(profile)
    _front_page(canvas, profile, marks, font_name, lang)
    _back_page(canvas, profile, marks, font_name, lang)
    canvas.save()
    return buffer.getvalue()


def _ink(canvas):
    canvas.setStrokeColorCMYK(0, 0, 0, 1)
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.setLineWidth(LINE)


def text_width(profile) -> float:
    """How wide an instruction line may run: the page inside its margin and 5 mm more."""
    return profile.paper[0] - 2 * (profile.margin + mm(5))


def line_size(i: int) -> float:
    return HEADING_SIZE if i == 0 else TEXT_SIZE


def _text(canvas, x, y, text, font_name, size=TEXT_SIZE, width=None):
    if width:
        while size > 5 and stringWidth(text, font_name, size) > width:
            size -= 0.25
    canvas.setFont(font_name, size)
    canvas.drawString(x, y, text)


def _front_page(canvas, profile, marks, font_name, lang):
    pw, ph = profile.paper
    m = profile.margin + mm(5)
    _ink(canvas)
    lines = words.front_lines(profile, lang)
    inset = max(CORNER_INSET, profile.margin + mm(20))
    y = ph - inset - POINTER_ARM - mm(12)      # below the top targets
    for i, line in enumerate(lines):
        _text(canvas, m, y - i * 12, line, font_name, line_size(i), text_width(profile))
    # the 100 mm ruler, below the text
    rx, ry = (pw - mm(RULER_MM)) / 2, y - len(lines) * 12 - mm(8)
    canvas.line(rx, ry, rx + mm(RULER_MM), ry)
    for k in range(RULER_MM + 1):
        length = mm(3) if k % 10 == 0 else (mm(2) if k % 5 == 0 else mm(1))
        canvas.line(rx + mm(k), ry, rx + mm(k), ry + length)
        if k % 10 == 0:
            canvas.setFont(font_name, 5)
            canvas.drawCentredString(rx + mm(k), ry - 7, str(k))
    canvas.setFont(font_name, 6)
    canvas.drawString(rx + mm(RULER_MM) + 4, ry - 2, "mm")
    for t in marks:
        x, y0 = t.front
        canvas.line(x - POINTER_ARM, y0, x + POINTER_ARM, y0)
        canvas.line(x, y0 - POINTER_ARM, x, y0 + POINTER_ARM)
        canvas.circle(x, y0, mm(1.5), stroke=1, fill=0)
        canvas.setFont(font_name, 9)
        canvas.drawString(x + mm(2.5), y0 + mm(2.5), t.label)
    canvas.showPage()


def _back_page(canvas, profile, marks, font_name, lang):
    ph = profile.paper[1]
    m = profile.margin + mm(5)
    oy = profile.back_offset[1]
    _ink(canvas)
    lines = words.back_lines(profile, lang)
    for t in marks:
        x, y = t.back
        _scale(canvas, x, y + SCALE_AT, horizontal=True, font_name=font_name)
        _scale(canvas, x + SCALE_AT, y, horizontal=False, font_name=font_name)
        canvas.setFont(font_name, 6)
        canvas.drawString(x - mm(SCALE_MM), y - mm(SCALE_MM) - mm(3), words.scale_note(t.label, lang))
    y = oy + ph / 2 - mm(28)
    for i, line in enumerate(lines):
        _text(canvas, m, y - i * 11, line, font_name, line_size(i), text_width(profile))
    canvas.showPage()


def _scale(canvas, x, y, *, horizontal: bool, font_name: str):
    """A -5..+5 mm scale centred on (x, y): ticks every 0.5 mm, labels every 2 mm (+ right / up)."""
    n = int(SCALE_MM / TICK_STEP_MM)
    if horizontal:
        canvas.line(x - mm(SCALE_MM), y, x + mm(SCALE_MM), y)
    else:
        canvas.line(x, y - mm(SCALE_MM), x, y + mm(SCALE_MM))
    canvas.setFont(font_name, 4)
    for k in range(-n, n + 1):
        value = k * TICK_STEP_MM
        at = mm(value)
        length = mm(2.2) if k == 0 else (mm(1.5) if value == int(value) else mm(0.8))
        if horizontal:
            canvas.line(x + at, y, x + at, y + length)
            if value == int(value) and int(value) % 2 == 0:
                canvas.drawCentredString(x + at, y - 5, f"{int(value):+d}" if value else "0")
        else:
            canvas.line(x, y + at, x + length, y + at)
            if value == int(value) and int(value) % 2 == 0:
                canvas.drawString(x - 9, y + at - 1.4, f"{int(value):+d}" if value else "0")


def where_back_offset_goes(loaded, game_root: Path | None) -> str:
    """The profile file to edit, with its current offset; for one of pnp's own profiles (shared by every
    game and replaced by an update of pnp) a copy in the game's own layouts/profiles/, which is read first."""
    x, y = (round(v / mm(1), 2) for v in loaded.profile.back_offset)
    here = f"(now [{x:g}mm, {y:g}mm])"
    file = loaded.path.resolve()
    if file.is_relative_to(Path.cwd().resolve()) or (game_root and file.is_relative_to(game_root.resolve())):
        return f"in {Location(str(file)).display()} {here}."
    copy = Path(game_root or ".") / "layouts" / "profiles" / file.name
    return f"in a copy of pnp's own {file.stem} profile {here}: copy {file} to {Location(str(copy.resolve())).display()} and edit that."
