"""The errata pack: only the cards that changed since a print run, their backs, and a list.

``errata.pdf`` is imposed like the print file (same sheet profile, duplex backs, marks): every
copy of each changed or new card, then a list page naming what changed (and why), what is new,
and what to take out of the game (removed cards).
"""
from __future__ import annotations

from dataclasses import replace

from ..cards import CardSet
from ..sheets import render_print_pdf
from .lock import LockDiff, reprint_records

MARGIN_EXTRA = 10.0
TITLE_SIZE = 14.0
SIZE = 9.0
LEADING = 12.5


def errata_cards(cards: CardSet, diff: LockDiff) -> CardSet:
    """The card set restricted to every copy of the changed and new cards."""
    wanted = reprint_records(cards, diff)
    faces = []
    for f in cards.faces:
        keep = wanted.get(f.component.id)
        if keep:
            faces.append(replace(f, copies=[i for i in f.copies if i in keep]))
    return CardSet(cards.game, cards.fonts, cards.icons, faces, cards.problems, cards.bleed)


def errata_pdf(cards: CardSet, profile, diff: LockDiff, *, title: str, since: str) -> bytes:
    subset = errata_cards(cards, diff)
    lines = list_lines(diff, since)

    def finish(canvas):
        draw_list(canvas, profile.paper, profile.margin, f"{title} — errata", lines, cards.fonts.regular)

    return render_print_pdf(subset, profile, title=f"{title} — errata", finish=finish)


def list_lines(diff: LockDiff, since: str) -> list[str]:
    lines = [f"since {since}",
             diff.counts(), ""]
    if diff.empty:
        return lines + ["Nothing changed: no card to reprint."]
    if diff.changed:
        lines.append("Changed — replace every copy with the new print:")
        lines += [f"    {key}   ({', '.join(reasons)}){diff.edited(key)}" for key, reasons in diff.changed]
        lines.append("")
    if diff.new:
        lines.append("New — add to the game:")
        lines += [f"    {key}" for key in diff.new]
        lines.append("")
    if diff.removed:
        lines.append("Removed — take out of the game:")
        lines += [f"    {key}   {name} × {n}" for key, name, n in diff.removed]
        lines.append("")
    if diff.renamed:
        lines.append("Renamed — the same print, nothing to do:")
        lines += [f"    {old} -> {new}" for old, new in diff.renamed]
    return lines


def draw_list(canvas, paper, margin, title: str, lines: list[str], font_name: str) -> None:
    """The errata list on one or more plain pages (the game's embedded font)."""
    pw, ph = paper
    left, top, bottom = margin + MARGIN_EXTRA, ph - margin - MARGIN_EXTRA, margin + MARGIN_EXTRA
    remaining = list(lines)
    page = 1
    while True:
        canvas.setPageSize(paper)
        canvas.setTrimBox(None)
        canvas.setBleedBox(None)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(font_name, TITLE_SIZE)
        canvas.drawString(left, top - TITLE_SIZE, title + ("" if page == 1 else f" ({page})"))
        y = top - TITLE_SIZE - 2 * LEADING
        canvas.setFont(font_name, SIZE)
        while remaining and y > bottom:
            canvas.drawString(left, y, remaining.pop(0))
            y -= LEADING
        canvas.showPage()
        if not remaining:
            break
        page += 1
