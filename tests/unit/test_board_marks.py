"""Boards are cut like cards: a board printed on a page of its own has the profile's crop marks
(and cut lines) at its four corners, and the tiles of a larger board have them along every edge
that is trimmed (never along a glue strip), outside the art's bleed and inside the printable area."""
import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator import sheets
from generator.content.game import text_in
from generator.impose import board_pages, mm, plan_tiles
from generator.impose.tiling_render import tile_marks
from generator.profiles import load_profile
from generator.validate import check_content

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (REPO / "content").iterdir() if (p / "game.yaml").is_file())
PROFILES = [None, "a4-landscape", "letter-portrait", "letter-landscape", "a3-portrait"]  # None: the game's own
EPS = 1e-6


@pytest.fixture(scope="module", params=GAMES)
def shipped(request):
    game, cards, problems = check_content(REPO / "content" / request.param, check_faces=False)
    assert not [p for p in problems if p.severity == "error"], problems
    return game, cards


def _profile(game, name):
    settings = game.meta["print"]
    return load_profile(name or settings["profile"], game.root, settings["duplex"]).profile


def _boards(cards, profile, mode):
    return [f.component for f in cards.faces
            if f.component.kind == "board" and sheets.board_mode(f.component, profile) == mode]


def _vertical(marks, x, y, dy):
    """A mark on the trim line ``x``, beyond ``y`` on the ``dy`` side (+1 above, -1 below)."""
    return any(abs(m.x0 - x) < EPS and abs(m.x1 - x) < EPS
               and (min(m.y0, m.y1) >= y - EPS if dy > 0 else max(m.y0, m.y1) <= y + EPS) for m in marks)


def _horizontal(marks, x, y, dx):
    """A mark on the trim line ``y``, beyond ``x`` on the ``dx`` side (+1 right, -1 left)."""
    return any(abs(m.y0 - y) < EPS and abs(m.y1 - y) < EPS
               and (min(m.x0, m.x1) >= x - EPS if dx > 0 else max(m.x0, m.x1) <= x + EPS) for m in marks)


def _outside(mark, box, profile):
    """The mark lies in the printable area of its page and off the bleed box ``box``."""
    x0, y0, x1, y1 = box
    lo_x, hi_x = sorted((mark.x0, mark.x1))
    lo_y, hi_y = sorted((mark.y0, mark.y1))
    px0, py0, px1, py1 = profile.printable
    printable = px0 - EPS <= lo_x and hi_x <= px1 + EPS and py0 - EPS <= lo_y and hi_y <= py1 + EPS
    clear = hi_x <= x0 + EPS or lo_x >= x1 - EPS or hi_y <= y0 + EPS or lo_y >= y1 - EPS
    return printable and clear


@pytest.mark.parametrize("name", PROFILES)
def test_every_page_board_of_the_shipped_games_has_its_four_corners_marked(shipped, name):
    game, cards = shipped
    profile = _profile(game, name)
    for component in _boards(cards, profile, "page"):
        w, h = component.size_pt
        (page,) = board_pages(1, w, h, profile)
        (slot,) = page.slots
        assert page.page_size == tuple(sorted(profile.paper, reverse=w > h))   # turned like the board
        assert (slot.w, slot.h) == (w, h)
        turned = type(profile)(**{**profile.__dict__, "paper": page.page_size})
        for x, dx in ((slot.x, -1), (slot.x + w, 1)):
            for y, dy in ((slot.y, -1), (slot.y + h, 1)):
                assert _vertical(page.marks, x, y, dy) and _horizontal(page.marks, x, y, dx), \
                    (component.id, name, x, y)
        assert len(page.marks) == 8
        assert all(_outside(m, slot.nominal_bleed_box, turned) for m in page.marks)
        assert all(m.length >= profile.mark_length - EPS for m in page.marks)   # room for whole marks
        assert not page.cut_lines        # the shipped profiles ask for none
        assert page.footer is not None   # and the page is labelled


def test_the_shipped_games_have_page_boards_and_a_tiled_one():
    """What the tests above and below check is there to check."""
    modes = {}
    for game_name in GAMES:
        game, cards, _ = check_content(REPO / "content" / game_name, check_faces=False)
        profile = _profile(game, None)
        for f in cards.faces:
            if f.component.kind == "board":
                modes[f"{game_name}/{f.component.id}"] = sheets.board_mode(f.component, profile)
    assert modes == {"fatal-fight/boards": "full", "metroidvania/board": "tiled",
                     "valheim/base_track": "page", "valheim/demon_track": "page"}


def test_a_board_page_takes_cut_lines_and_print_shop_pages_as_a_card_does():
    from generator.impose import Profile, named_size

    w, h = mm(180), mm(130)
    (page,) = board_pages(1, w, h, Profile("t", named_size("a4"), cut_lines=True))
    (slot,) = page.slots
    xs = {m.x0 for m in page.cut_lines if m.x0 == m.x1}
    ys = {m.y0 for m in page.cut_lines if m.y0 == m.y1}
    assert xs == {slot.x, slot.x + w} and ys == {slot.y, slot.y + h}
    turned = Profile("t", page.page_size, cut_lines=True)
    assert all(_outside(m, slot.nominal_bleed_box, turned) for m in page.cut_lines)
    assert [p.slots[0].index for p in board_pages(3, w, h, turned)] == [0, 1, 2]
    shop = board_pages(2, w, h, Profile("t", named_size("a4"), margin=0.0, bleed=mm(3), crop_marks=False,
                                        print_shop=True))
    assert len(shop) == 2 and all(p.page_size == pytest.approx((w + mm(6), h + mm(6))) for p in shop)
    assert all(p.trim_box == pytest.approx((mm(3), mm(3), mm(3) + w, mm(3) + h)) and not p.marks for p in shop)


def test_a_print_shop_profile_prints_every_board_as_one_page_of_its_own_size(shipped):
    """A shop prints any size: a board larger than the profile's (nominal) paper is one page per copy
    at its design size with TrimBox and BleedBox, never A4 tiles and no separate full-size file."""
    game, cards = shipped
    shop = load_profile("print-shop", game.root, "none").profile
    for faces in cards.faces:
        component = faces.component
        if component.kind != "board":
            continue
        assert sheets.board_mode(component, shop) == "page"
        assert sheets.pages_for(component, shop) == component.found
    assert sheets.render_full_size_boards(cards, shop, title="t") == {}


@pytest.mark.parametrize("name", PROFILES)
def test_the_tiles_of_a_board_larger_than_the_paper_are_marked_along_every_trimmed_edge(shipped, name):
    game, cards = shipped
    profile = _profile(game, name)
    for component in _boards(cards, profile, "tiled"):
        plan = plan_tiles(*component.size_pt, *profile.paper, profile.margin, sheets._overlap(component))
        turned = type(profile)(**{**profile.__dict__, "paper": plan.page_size})
        for tile in plan.tiles:
            px, py, w, h = tile.placement
            marks = tile_marks(plan, tile, profile)
            trimmed_x = ([px] if tile.col == 0 else []) + [px + w]   # left: the board's edge, or glued
            trimmed_y = [py] + ([py + h] if tile.row == 0 else [])   # top: the board's edge, or glued
            for x in trimmed_x:
                assert _vertical(marks, x, py + h, 1) and _vertical(marks, x, py, -1), (tile.label, x)
            for y in trimmed_y:
                assert _horizontal(marks, px, y, -1) and _horizontal(marks, px + w, y, 1), (tile.label, y)
            glued = [m for m in marks if (tile.col and m.x0 == m.x1 and abs(m.x0 - px) < EPS)
                     or (tile.row and m.y0 == m.y1 and abs(m.y0 - (py + h)) < EPS)]
            assert not glued, tile.label
            bleed_box = (px - profile.bleed, py - profile.bleed, px + w + profile.bleed, py + h + profile.bleed)
            assert all(_outside(m, bleed_box, turned) for m in marks), tile.label


def _dark(image, page_height, x, y, scale):
    """A hairline passes within a pixel of (x, y): the darkest pixel around it is dark."""
    cx, cy = int(x * scale), int((page_height - y) * scale)
    return min(sum(image.getpixel((cx + i, cy + j))) for i in (-1, 0, 1) for j in (-1, 0, 1)) < 400


def test_the_marks_print_on_the_valheim_board_pages():
    """Drawn as well as planned: each mark's middle is dark on the rendered page, and the page
    carries the board as before (its middle is the board's art, not white)."""
    game, cards, _ = check_content(REPO / "content" / "valheim", check_faces=False)
    profile = _profile(game, None)
    boards = _boards(cards, profile, "page")
    pdf = sheets.render_print_pdf(cards, profile, title=game.title, components=[b.id for b in boards])
    doc = pdfium.PdfDocument(pdf)
    assert len(doc) == len(boards)
    scale = 4
    for number, component in enumerate(boards):
        (page,) = board_pages(1, *component.size_pt, profile)
        image = doc[number].render(scale=scale).to_pil().convert("RGB")
        assert doc[number].get_size() == pytest.approx(page.page_size)
        for m in page.marks:
            assert _dark(image, page.page_size[1], (m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2, scale), (component.id, m)
        (slot,) = page.slots
        assert image.getpixel((int((slot.x + slot.w / 2) * scale),
                               int((page.page_size[1] - slot.y - slot.h / 2) * scale))) != (255, 255, 255)
        text = doc[number].get_textpage().get_text_range()
        assert text.splitlines()[-1] == f"{game.title} · {text_in(component.name, 'ja')} · 1/1"  # the page label


def test_tile_marks_print_and_the_art_bleeds_past_the_board_edges_only():
    from reportlab.pdfgen.canvas import Canvas

    from generator.impose import Profile, named_size, render_tiles
    from generator.impose.tiling_render import _art_box

    bw, bh = named_size("a3-landscape")
    profile = Profile("t", named_size("a4"))
    plan = plan_tiles(bw, bh, *profile.paper, profile.margin, mm(10))

    def board(c):                  # a grey board whose art runs 3 mm past its edges, as a face's does
        c.setFillColorRGB(0.5, 0.5, 0.5)
        c.rect(-mm(3), -mm(3), bw + mm(6), bh + mm(6), fill=1, stroke=0)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    render_tiles(canvas, plan, board, font_name="Helvetica", profile=profile)
    canvas.save()
    doc = pdfium.PdfDocument(buffer.getvalue())
    assert len(doc) == len(plan.tiles) == 4
    scale = 4
    for number, tile in enumerate(plan.tiles):
        image = doc[number].render(scale=scale).to_pil().convert("RGB")
        ph = plan.page_size[1]
        marks = tile_marks(plan, tile, profile)
        assert marks and all(_dark(image, ph, (m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2, scale) for m in marks)
        px, py, w, h = tile.placement
        x0, y0, x1, y1 = _art_box(plan, tile, profile.bleed)
        assert (x0 < px) == (tile.col == 0) and (x1 > px + w) == (tile.col == plan.cols - 1)
        assert (y1 > py + h) == (tile.row == 0) and (y0 < py) == (tile.row == plan.rows - 1)
        outside = image.getpixel((int((x0 - mm(1)) * scale), int((ph - (y0 + y1) / 2) * scale)))
        inside = image.getpixel((int((x0 + mm(1)) * scale), int((ph - (y0 + y1) / 2) * scale)))
        assert outside == (255, 255, 255) and inside != (255, 255, 255), tile.label
