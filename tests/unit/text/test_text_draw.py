import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.text.draw import draw_text_block
from generator.text.layout import layout_text

PAGE = (200.0, 200.0)
SCALE = 4.0  # px per pt


def render(fonts, blocks, **kw):
    """Draw (block, x, y_top) triples on one page; return (pdf bytes, icon calls)."""
    calls = []

    def draw_icon(c, name, x, y, size):
        calls.append((name, x, y, size))
        c.rect(x, y, size, size, stroke=0, fill=1)

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=PAGE, invariant=1, pageCompression=0, initialFontName=fonts.regular)
    for block, x, y in blocks:
        draw_text_block(c, block, x, y, fonts=fonts, color="black", draw_icon=draw_icon, **kw)
    c.showPage()
    c.save()
    return buf.getvalue(), calls


def ink_box(pdf):
    """(ink pixel count, bounding box in pt with y up) of the rendered page."""
    doc = pdfium.PdfDocument(pdf)
    img = doc[0].render(scale=SCALE).to_pil().convert("L")
    w, h = img.size
    px = img.load()
    xs, ys, count = [], [], 0
    for j in range(h):
        for i in range(w):
            if px[i, j] < 128:
                count += 1
                xs.append(i)
                ys.append(j)
    if not count:
        return 0, None
    return count, (min(xs) / SCALE, PAGE[1] - (max(ys) + 1) / SCALE,
                   (max(xs) + 1) / SCALE, PAGE[1] - min(ys) / SCALE)


def test_text_is_drawn_inside_its_box(fonts):
    block = layout_text("このカードを使用したとき、手札から「ガード」カードを1枚選び、AP+2を得る。",
                        fonts, size=9, width=100, height=80)
    assert block.fits
    pdf, _ = render(fonts, [(block, 50, 150)])
    count, (x0, y0, x1, y1) = ink_box(pdf)
    assert count > 500
    assert x0 >= 50 - 0.5 and x1 <= 150 + 0.5
    assert y1 <= 150 + 0.5 and y0 >= 150 - block.height_used - 0.5
    # the first line's ink reaches near the top (the baseline is where the engine says)
    assert y1 >= 150 - 3


def test_baseline_position(fonts):
    block = layout_text("一", fonts, size=20, width=100, height=100)
    pdf, _ = render(fonts, [(block, 20, 180)])
    _, (x0, y0, x1, y1) = ink_box(pdf)
    baseline = 180 - block.lines[0].baseline_y
    # the kanji's ink sits on the baseline band: above the descent, below the ascent
    assert baseline - fonts.descent * 20 - 0.5 <= y0 <= y1 <= baseline + fonts.ascent * 20 + 0.5


def test_synthetic_bold_adds_ink_and_uses_stroke_mode(fonts):
    regular = layout_text("攻撃力アップ", fonts, size=12, width=150, height=40)
    bold = layout_text("**攻撃力アップ**", fonts, size=12, width=150, height=40)
    pdf_r, _ = render(fonts, [(regular, 10, 100)])
    pdf_b, _ = render(fonts, [(bold, 10, 100)])
    ink_r, box_r = ink_box(pdf_r)
    ink_b, box_b = ink_box(pdf_b)
    assert ink_b > ink_r * 1.15
    assert b"2 Tr" in pdf_b and b"2 Tr" not in pdf_r
    # the stroke widens glyphs by at most half the stroke width on each side
    half = fonts.bold_stroke * 12 / 2
    assert box_b[0] >= box_r[0] - half - 0.5 and box_b[2] <= box_r[2] + half + 0.5


def test_icons_are_drawn_where_placed(fonts):
    block = layout_text("敵に:attack:3ダメージ", fonts, size=10, width=150, height=40,
                        icon_names={"attack"})
    pdf, calls = render(fonts, [(block, 30, 120)])
    line = block.lines[0]
    icon = [r for r in line.runs if r.kind == "icon"][0]
    assert calls == [("attack", pytest.approx(30 + line.x + icon.x),
                      pytest.approx(120 - line.baseline_y + icon.icon_bottom),
                      pytest.approx(10))]


def test_icons_need_a_drawer(fonts):
    block = layout_text(":ap:", fonts, size=10, width=150, height=40, icon_names={"ap"})
    c = Canvas(io.BytesIO(), pagesize=PAGE)
    with pytest.raises(ValueError, match="draw_icon"):
        draw_text_block(c, block, 0, 100, fonts=fonts, color="black")


def test_output_is_deterministic_and_embeds_the_font(fonts):
    block = layout_text("**攻撃**：AP+2", fonts, size=10, width=150, height=40)
    a, _ = render(fonts, [(block, 10, 100)])
    b, _ = render(fonts, [(block, 10, 100)])
    assert a == b
    assert b"/FontFile2" in a and b"IPAexGothic" in a


def _pixels(pdf):
    return pdfium.PdfDocument(pdf)[0].render(scale=SCALE).to_pil().convert("RGB").tobytes()


def test_direct_operators_draw_what_reportlab_text_objects_draw(fonts, monkeypatch):
    """Icon-free blocks are written as operators directly; ReportLab's text objects (the
    general path, forced here) must give the same page: positions, subsets, bold, escapes."""
    import generator.text.draw as draw

    many = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 300))  # > 256 glyphs: several subsets
    blocks = [
        (layout_text("カード（1）：**攻撃** \\ (AP+2) を得る。\n次の行", fonts, size=9, width=120, height=60), 10, 190),
        (layout_text(many, fonts, size=6, width=180, height=100, align="center"), 10, 120),
        (layout_text("**全部太字**", fonts, size=12, width=100, height=20, align="right"), 90, 20),
    ]
    direct, _ = render(fonts, blocks)
    monkeypatch.setattr(draw, "_block_operators", lambda *a: None)
    general, _ = render(fonts, blocks)
    assert b"BT" in direct and direct != general  # really two different streams
    assert _pixels(direct) == _pixels(general)


def test_direct_operators_leave_colour_and_state_to_the_block(fonts):
    """The block's q/Q keeps its colour and bold stroke from leaking into what comes after."""
    block = layout_text("**赤**", fonts, size=20, width=100, height=40)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=PAGE, invariant=1, pageCompression=0, initialFontName=fonts.regular)
    draw_text_block(c, block, 10, 190, fonts=fonts, color="#ff0000")
    c.rect(10, 10, 50, 50, stroke=0, fill=1)  # default black fill, no stroke width change
    c.showPage()
    c.save()
    img = pdfium.PdfDocument(buf.getvalue())[0].render(scale=1).to_pil().convert("RGB")
    assert img.getpixel((35, 200 - 35)) == (0, 0, 0)


def test_a_text_drawn_again_in_a_document_is_written_the_same_and_another_document_encodes_it_afresh(fonts):
    """A run's encoded bytes are kept for its document: a text repeated over cards is encoded once. They
    hold subset codes that document gave out in its own order, so another document works them out anew."""
    from reportlab.lib.colors import black

    import generator.text.draw as draw

    abc, cde = (layout_text(t, fonts, size=9, width=120, height=20) for t in ("あいう", "うえお"))

    def canvas():
        return Canvas(io.BytesIO(), pagesize=PAGE, invariant=1, pageCompression=0, initialFontName=fonts.regular)

    def ops(c, block):
        return draw._block_operators(c, block, 10, 100, fonts, black)

    one, two = canvas(), canvas()
    first = ops(one, abc)
    ops(one, cde)
    assert ops(one, abc) == first and any(doc is one._doc for doc in draw._SHOWN)  # kept for this document
    ops(two, cde)  # 'う' gets this document's first code, 'あ' and 'い' later ones
    again = ops(two, abc)
    assert again != first
    fresh = canvas()  # the same order of first use: the same codes
    ops(fresh, cde)
    assert ops(fresh, abc) == again
