"""A board the size of the paper (Fatal Fight's A4 landscape area boards on A4) fits the sheet only
edge to edge, where a home printer prints nothing: the build says so, once per component, and
``paper_sized`` (game.yaml) or ``pnp build --paper-sized-boards`` chooses how it prints: ``full``
(edge to edge, the default), ``tiled`` (pages with overlaps, marks and an assembly page) or
``fit`` (scaled to the printable area, the scale in the page label)."""
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator import build, sheets
from generator.errors import ContentError
from generator.impose import board_pages, mm, plan_tiles
from generator.impose.tiling_render import tile_marks
from generator.profiles import game_profile, load_profile
from generator.validate import check_content

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "content" / "fatal-fight"
CHOICE = re.compile(r"(?:    #[^\n]*\n)*    paper_sized: full\n")   # the shipped choice and its comment


@pytest.fixture(scope="module")
def unchosen(tmp_path_factory) -> Path:
    """Fatal Fight as a designer who has not chosen how its A4 boards print (the shipped game.yaml
    says ``paper_sized: full``, so it builds without the warning)."""
    copy = tmp_path_factory.mktemp("unchosen") / "fatal-fight"
    shutil.copytree(SHIPPED, copy)
    text = (copy / "game.yaml").read_text(encoding="utf-8")
    assert len(CHOICE.findall(text)) == 1
    (copy / "game.yaml").write_text(CHOICE.sub("", text), encoding="utf-8")
    return copy

WARNING = (
    "board 'boards' is 297x210 mm, the size of the A4 landscape paper: it prints edge to edge with no crop"
    " marks, and a home printer leaves the outer 5 mm (the profile's margin) blank, so the board loses its"
    " edge strip. Ways out: print borderless (a profile with margin: 0mm), a larger sheet profile"
    " (pnp build --profile a3-portrait), or tiled pages (paper_sized: tiled on the component, or pnp build"
    " --paper-sized-boards tiled); paper_sized: full keeps it edge to edge without this warning")


@pytest.fixture
def fatal_fight(unchosen):
    game, cards, _ = check_content(unchosen, check_faces=False)
    return game, cards, game_profile(game).profile


def _render(cards, profile, game):
    return pdfium.PdfDocument(sheets.render_print_pdf(cards, profile, title=game.title, components=["boards"]))


def _size_line(game_yaml: Path) -> int:
    lines = game_yaml.read_text(encoding="utf-8").splitlines()
    start = lines.index("  - id: boards")
    return next(i for i in range(start, len(lines)) if lines[i].strip().startswith("size:")) + 1


def test_the_fatal_fight_boards_are_warned_about_once_with_the_ways_out(fatal_fight, unchosen):
    game, cards, profile = fatal_fight
    assert game.component("boards").found == 3                 # three copies ...
    (warning,) = sheets.paper_sized_warnings(cards, profile)   # ... one warning
    assert warning.severity == "warning"
    assert warning.message == WARNING
    assert warning.field == "components[7].size"
    assert (Path(warning.location.path), warning.location.line) == (unchosen / "game.yaml",
                                                                    _size_line(unchosen / "game.yaml"))


@pytest.mark.parametrize("profile_name, mode", [
    ("a3-portrait", "page"), ("a3-landscape", "page"),   # a larger sheet: a page with crop marks
    ("letter-portrait", "tiled"),                          # the paper cannot hold it: tiled anyway
])
def test_no_warning_where_the_board_is_not_the_size_of_the_paper(fatal_fight, profile_name, mode):
    game, cards, _ = fatal_fight
    profile = load_profile(profile_name, game.root).profile
    assert sheets.board_mode(game.component("boards"), profile) == mode
    assert sheets.paper_sized_warnings(cards, profile) == []


def test_a_borderless_profile_prints_the_board_as_a_page_without_a_warning(fatal_fight):
    from dataclasses import replace

    game, cards, profile = fatal_fight
    borderless = replace(profile, margin=0.0)
    assert sheets.board_mode(game.component("boards"), borderless) == "page"
    assert sheets.paper_sized_warnings(cards, borderless) == []


@pytest.mark.parametrize("mode", ["full", "tiled", "fit"])
def test_a_board_that_chose_how_it_prints_is_not_warned_about(fatal_fight, mode):
    game, cards, profile = fatal_fight
    game.component("boards").paper_sized = mode
    assert sheets.board_mode(game.component("boards"), profile) == mode
    assert sheets.paper_sized_warnings(cards, profile) == []


def test_on_a3_an_a3_board_is_warned_about_without_suggesting_a3(in_repo):
    game, cards, _ = check_content(REPO / "content" / "metroidvania", check_faces=False)
    (warning,) = sheets.paper_sized_warnings(cards, load_profile("a3-landscape", game.root).profile)
    assert warning.message.startswith("board 'board' is 420x297 mm, the size of the A3 landscape paper:")
    assert "a larger sheet profile, or tiled pages" in warning.message


def test_full_is_the_default_and_prints_as_before(fatal_fight):
    """Unset and ``full`` give the same bytes: one edge-to-edge page a copy, no crop marks."""
    game, cards, profile = fatal_fight
    default = sheets.render_print_pdf(cards, profile, title=game.title, components=["boards"])
    game.component("boards").paper_sized = "full"
    assert sheets.render_print_pdf(cards, profile, title=game.title, components=["boards"]) == default
    doc = pdfium.PdfDocument(default)
    assert len(doc) == 3 and doc[0].get_size() == pytest.approx((mm(297), mm(210)))
    (page,) = board_pages(1, mm(297), mm(210), profile)
    assert not page.marks and page.footer is None


def test_tiled_gives_two_marked_tiles_and_an_assembly_page_a_copy(fatal_fight):
    game, cards, profile = fatal_fight
    component = game.component("boards")
    component.paper_sized = "tiled"
    plan = plan_tiles(*component.size_pt, *profile.paper, profile.margin, sheets._overlap(component))
    assert [t.label for t in plan.tiles] == ["A1", "A2"] and plan.page_size == profile.paper   # A4 portrait
    assert all(len(tile_marks(plan, tile, profile)) >= 6 for tile in plan.tiles)  # 3 trimmed edges, 2 marks each
    doc = _render(cards, profile, game)
    assert len(doc) == sheets.pages_for(component, profile) == 3 * 3
    texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    assert "組み立て：2ページ（1段×2列）" in texts[0]   # a Japanese game: its assembly words in Japanese
    assert "A1 — A行 1列" in texts[1] and "A2 — A行 2列 · A1の右端の下に貼る" in texts[2]


def test_fit_scales_the_board_into_the_printable_area_with_its_marks_and_the_scale_in_the_label(fatal_fight):
    game, cards, profile = fatal_fight
    component = game.component("boards")
    component.paper_sized = "fit"
    scale = sheets.fit_scale(component, profile)
    assert scale == 0.9     # the height decides: (210 - 2 x (5 + 3 + 2.47)) / 210, rounded down
    (page,) = board_pages(1, mm(297) * scale, mm(210) * scale, profile)
    (slot,) = page.slots
    x0, y0, x1, y1 = slot.nominal_bleed_box
    assert page.page_size == pytest.approx((mm(297), mm(210)))
    assert mm(5) <= x0 and x1 <= mm(292) and mm(5) <= y0 and y1 <= mm(205)   # inside the printable area
    assert len(page.marks) == 8 and page.footer is not None
    doc = _render(cards, profile, game)
    assert len(doc) == sheets.pages_for(component, profile) == 3
    label = doc[0].get_textpage().get_text_range().splitlines()[-1]
    assert label == f"{game.title} · エリアボード · 1/3 · scaled to 90.0%"
    image = doc[0].render(scale=2).to_pil().convert("RGB")
    ph = page.page_size[1]
    for m in page.marks:   # the marks are drawn
        x, y = (m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2
        darkest = min(sum(image.getpixel((int(x * 2) + i, int((ph - y) * 2) + j)))
                      for i in (-1, 0, 1) for j in (-1, 0, 1))
        assert darkest < 400, m
    # the paper's edge strip is blank, the board's art ends inside it
    assert image.getpixel((int(mm(2) * 2), int(ph))) == (255, 255, 255)
    assert image.getpixel((int((slot.x + mm(1)) * 2), int(ph))) != (255, 255, 255)


def test_a_fit_board_paints_its_whole_bleed_not_the_scaled_3_mm(fatal_fight):
    """Scaled to 90%, the 3 mm a face paints was 2.7 mm: a white sliver of 0.3 mm inside the profile's 3 mm
    bleed, where a cut that misses the trim by 2.7 mm (home printers drift 1-3 mm) showed paper. The ring
    between is the face's edge stretched, as on print-shop pages."""
    game, cards, profile = fatal_fight
    game.component("boards").paper_sized = "fit"
    scale = sheets.fit_scale(game.component("boards"), profile)
    (page,) = board_pages(1, mm(297) * scale, mm(210) * scale, profile)
    (slot,) = page.slots
    x0, y0, x1, y1 = slot.nominal_bleed_box
    ph, k = page.page_size[1], 4    # rendered at 288 dpi: 0.1 mm is 1.1 px
    image = _render(cards, profile, game)[0].render(scale=k).to_pil().convert("RGB")
    inside = mm(0.15)   # just inside the bleed box's edge, where the painted 2.7 mm stopped
    mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
    for x, y in ((x0 + inside, mid_y), (x1 - inside, mid_y), (mid_x, y1 - inside), (mid_x, y0 + inside)):
        assert image.getpixel((int(x * k), int((ph - y) * k))) != (255, 255, 255), (x / mm(1), y / mm(1))
    # and the ring stops at the bleed box: the paper past it stays white
    assert image.getpixel((int((x0 - mm(0.3)) * k), int((ph - mid_y) * k))) == (255, 255, 255)


def test_build_warns_once_and_the_flag_overrides_the_content(unchosen, tmp_path):
    default = build.build_game(unchosen, tmp_path / "default", validate=False)
    assert [p.message for p in default.problems if p.severity == "warning"] == [WARNING]
    assert not (tmp_path / "default" / "board-boards.pdf").exists()
    tiled = build.build_game(unchosen, tmp_path / "tiled", validate=False, paper_sized="tiled")
    assert tiled.ok and not [p for p in tiled.problems if p.severity == "warning"]
    assert pdfium.PdfDocument(tmp_path / "tiled" / "board-boards.pdf")[0].get_size() == \
        pytest.approx((mm(297), mm(210)))   # the design size too, for a borderless printer
    pages = {name: len(pdfium.PdfDocument(tmp_path / name / "print-a4.pdf")) for name in ("default", "tiled")}
    assert pages["tiled"] == pages["default"] + 3 * 2


def test_paper_sized_in_game_yaml_is_read_and_only_a_board_takes_it(unchosen, tmp_path):
    copy = tmp_path / "fatal-fight"
    shutil.copytree(unchosen, copy)
    game_yaml = copy / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("    size: a4-landscape\n", "    size: a4-landscape\n    paper_sized: fit\n"),
                         encoding="utf-8")
    game, cards, _ = check_content(copy, check_faces=False)
    assert game.component("boards").paper_sized == "fit"
    assert sheets.paper_sized_warnings(cards, game_profile(game).profile) == []
    game_yaml.write_text(text.replace("    size: poker\n", "    size: poker\n    paper_sized: tiled\n", 1),
                         encoding="utf-8")
    with pytest.raises(ContentError) as info:
        check_content(copy, check_faces=False)
    (problem,) = info.value.problems
    assert (problem.field, problem.message) == (
        "components[0].paper_sized",
        "only a board prints edge to edge, tiled or scaled; a card is imposed on sheets: remove 'paper_sized:'")
    game_yaml.write_text(text.replace("    size: a4-landscape\n", "    size: a4-landscape\n    paper_sized: shrink\n"),
                         encoding="utf-8")
    with pytest.raises(ContentError) as info:
        check_content(copy, check_faces=False)
    (problem,) = info.value.problems
    assert problem.field == "components[7].paper_sized" and "'shrink'" in problem.message, problem.display()


def test_the_shipped_fatal_fight_chose_edge_to_edge_and_builds_without_the_warning():
    game, cards, _ = check_content(SHIPPED, check_faces=False)
    assert game.component("boards").paper_sized == "full"
    assert sheets.paper_sized_warnings(cards, game_profile(game).profile) == []
