"""A text box with ``direction: vertical`` on a card: the drawing log of a small vertical card
(golden, reviewed), the located overflow problem, the key's values."""
import io
import os
import re
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from generator.fonts import load_fonts
from generator.layout.icons import load_icons
from generator.layout.paint import Painter

from test_instantiate import faces_of

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "tiny-vertical.txt"

#: A name band down the right edge, the rules text in columns beside it.
CARD = """\
    boxes:
      - {id: band, type: rect, x: 48mm, y: 0, w: 15mm, h: 88mm, fill: "#3366cc"}
      - {id: name, type: text, x: 51mm, y: 5mm, w: 9mm, h: 40mm, text: "{{ card.name }}", font: bold,
         size: 16pt, min_size: 10pt, direction: vertical, align: center, valign: middle, color: "#ffffff"}
      - {id: body, type: text, x: 6mm, y: 6mm, w: 38mm, h: 46mm, size: 11pt, min_size: 7pt,
         leading: 1.6, direction: vertical,
         text: "「{{ card.name }}」のライフは{{ card.life }}。{{ card.text }}（HP +1）"}
    """


def describe_cell(cell) -> str:
    if cell.kind == "icon":
        return f":{cell.name}:"
    if cell.kind == "tcy":
        return f"[{cell.text}]"
    if cell.kind == "turned":
        return f"<{cell.glyphs}>"
    if cell.dx or cell.dy:
        return f"{cell.glyphs}{{{cell.dx:+.2f},{cell.dy:+.2f}}}"
    return cell.glyphs


def describe(ops) -> list[str]:
    out = []
    for op in ops:
        if op.kind != "text":
            continue
        block = op.payload
        out.append(f"text {op.id} x={op.x:.2f} y={op.y:.2f} w={op.w:.2f} h={op.h:.2f} size={block.size:g} "
                   f"fits={block.fits} used={block.width_used:.2f}")
        for column in block.columns:
            cells, bold = "", False
            for cell in column.cells:
                if cell.bold != bold:
                    cells, bold = cells + "**", cell.bold
                cells += describe_cell(cell)
            cells += "**" if bold else ""
            out.append(f"  | x={column.x:6.2f} y={column.y:5.2f} len={column.length:6.2f} {cells}")
    return out


def test_vertical_card_matches_the_golden_log(tiny):
    log = []
    for record in range(3):
        ops, problems = faces_of(tiny, CARD, record)
        assert problems == []
        log.append(f"== heroes[{record}]")
        log.extend(describe(ops))
    text = "\n".join(log) + "\n"
    if os.environ.get("PNP_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_the_painter_draws_the_vertical_card(tiny):
    ops, _ = faces_of(tiny, CARD, 0)
    canvas = Canvas(io.BytesIO(), pagesize=(180, 250))
    Painter(load_fonts(), load_icons([tiny / "icons.yaml"]), 250).paint(canvas, ops)
    code = "\n".join(canvas._code)
    assert re.search(r"\b0 -1 1 0 [\d.]+ [\d.]+ Tm", code)  # a sideways run
    assert code.count(" Tm") > 20  # a glyph placed on its own


def test_overflow_counts_columns_and_names_the_box(tiny):
    ops, problems = faces_of(tiny, CARD.replace("w: 38mm", "w: 4mm"), 0)
    (problem,) = problems
    assert re.fullmatch(r"overflows box 'body' of .*layouts/tiny/probe.yaml by \d+ columns? at 7pt",
                        problem.message), problem.message
    assert problem.field == "heroes[0].name"  # the first card field its template reads


def test_a_word_cut_in_a_column_is_a_located_problem(tiny):
    card = CARD.replace('text: "「{{ card.name }}」のライフは{{ card.life }}。{{ card.text }}（HP +1）"',
                        'text: "Supercalifragilistic"').replace("h: 46mm", "h: 10mm")
    _, problems = faces_of(tiny, card, 0)
    (problem,) = problems
    assert re.fullmatch(r"'Supercalifragilistic' does not fit the height of box 'body' of .*layouts/tiny/probe.yaml "
                        r"at 7pt \(min_size\): it is cut mid-word", problem.message), problem.message
    assert problem.severity == "error"


def test_direction_must_be_horizontal_or_vertical(tiny):
    _, problems = faces_of(tiny, CARD.replace("direction: vertical, align", "direction: verticle, align"), 0)
    (problem,) = problems
    assert "direction must be horizontal or vertical, got 'verticle'" in problem.message
    assert "did you mean 'vertical'" in problem.message


def test_the_face_digest_sees_where_vertical_text_stands(tiny):
    from generator.export.digest import FileHashes, ops_digest

    files = FileHashes()
    ops, _ = faces_of(tiny, CARD, 0)
    same, _ = faces_of(tiny, CARD, 0)
    moved, _ = faces_of(tiny, CARD.replace("align: center, valign: middle", "align: right, valign: middle"), 0)
    assert ops_digest(ops, files)[0] == ops_digest(same, files)[0] != ops_digest(moved, files)[0]
