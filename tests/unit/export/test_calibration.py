"""Duplex calibration: targets sit where backs go, and the reading is the correction to add."""
from dataclasses import replace
from pathlib import Path

import pytest

from generator.errors import BuildError
from generator.export.calibration import calibration_pdf, targets
from generator.impose import Profile, impose, mm, named_size

REPO = Path(__file__).resolve().parents[3]


def profile(paper="a4", duplex="long-edge", offset=(0.0, 0.0)) -> Profile:
    return Profile("test", named_size(paper), duplex=duplex, back_offset=offset)


@pytest.mark.parametrize("paper", ["a4", "a4-landscape", "letter"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_targets_sit_exactly_where_card_backs_go(paper, duplex):
    """The back scale of a target is placed by the same rule as card backs (offset included)."""
    offset = (mm(1.5), mm(-0.5))
    prof = profile(paper, duplex, offset)
    pages = impose(9, *named_size("poker"), prof, with_backs=True)
    front = {s.index: s for s in pages[0].slots}
    back = {s.index: s for s in pages[1].slots}
    card = front[0]
    # a card's trim centre maps front -> back exactly as a target does
    centre = (card.x + card.w / 2, card.y + card.h / 2)
    on_back = (back[0].x + back[0].w / 2, back[0].y + back[0].h / 2)
    pw, ph = prof.paper
    for t in targets(prof):
        fx, fy = t.front
        dx, dy = fx - centre[0], fy - centre[1]
        mirrored = (on_back[0] - dx, on_back[1] + dy) if (duplex == "long-edge") == (pw <= ph) \
            else (on_back[0] + dx, on_back[1] - dy)
        assert t.back == pytest.approx(mirrored)


def test_reading_plus_current_offset_cancels_the_printer_error():
    """Simulate a printer shifting backs by e: read the scale, update the offset, print again."""
    error = (mm(1.2), mm(-0.7))
    offset = (0.0, 0.0)
    for _ in range(2):
        prof = profile(offset=offset)
        centre = targets(prof)[0]
        ideal = targets(profile())[0].back                    # where the front's pointer shows through
        printed_zero = (centre.back[0] + error[0], centre.back[1] + error[1])
        reading = (ideal[0] - printed_zero[0], ideal[1] - printed_zero[1])
        offset = (offset[0] + reading[0], offset[1] + reading[1])
    assert offset == pytest.approx((-error[0], -error[1]))
    assert reading == pytest.approx((0.0, 0.0), abs=1e-9)


def test_no_duplex_has_nothing_to_calibrate():
    with pytest.raises(BuildError, match="duplex: none"):
        targets(profile(duplex="none"))


def test_a_print_shop_profile_has_nothing_to_calibrate():
    """Its calibration page asked for a back_offset that the profile then refuses."""
    with pytest.raises(BuildError, match="print-shop"):
        targets(replace(profile(), print_shop=True))


def test_the_pdf_has_a_front_and_a_back_page(font_name):
    import pypdfium2 as pdfium

    pdf = calibration_pdf(profile(offset=(mm(2), 0.0)), font_name)
    document = pdfium.PdfDocument(pdf)
    assert len(document) == 2
    back_text = document[1].get_textpage().get_text_range()
    assert "back_offset: [2mm, 0mm]" in back_text and "+ X" in back_text
    assert "100 mm" in document[0].get_textpage().get_text_range()


def page_texts(pdf: bytes) -> list[str]:
    import pypdfium2 as pdfium

    return [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(pdf)]


@pytest.mark.parametrize("duplex, binding", [("long-edge", "長辺とじ"), ("short-edge", "短辺とじ")])
def test_a_japanese_game_gets_japanese_instructions(font_name, duplex, binding):
    front, back = page_texts(calibration_pdf(profile(duplex=duplex, offset=(mm(2), 0.0)), font_name, lang="ja"))
    assert "両面印刷の位置合わせ" in front and binding in front and "A4 縦" in front and "100 mm" in front
    assert "back_offset: [2mm + X, 0mm + Y]" in back and "明かりにかざす" in back and "A：Xは上、Yは右" in back
    assert "Print BOTH" not in front and "Hold the sheet" not in back


def test_any_other_language_gets_english(font_name):
    front, back = page_texts(calibration_pdf(profile(duplex="short-edge"), font_name, lang="de"))
    assert "Duplex calibration" in front and "flip on the short edge" in front
    assert "Hold the sheet" in back and "A: X above, Y right" in back and "両面" not in front + back


PROFILES = sorted(p.stem for p in (REPO / "layouts" / "profiles").glob("*.yaml") if p.stem != "print-shop")


@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_line_fits_its_page_at_full_size(font_name, name, lang):
    """Lines are broken by hand: none may need shrinking on any shipped sheet, in either language."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.export import calibration_wording as words
    from generator.export.calibration import line_size, text_width
    from generator.profiles import load_profile

    prof = load_profile(name, REPO).profile
    for duplex in ("long-edge", "short-edge"):
        prof = replace(prof, duplex=duplex, back_offset=(mm(-12.5), mm(-12.5)))  # the widest numbers
        for lines in (words.front_lines(prof, lang), words.back_lines(prof, lang)):
            for i, line in enumerate(lines):
                assert stringWidth(line, font_name, line_size(i)) <= text_width(prof), (name, line)


def test_calibrate_names_the_profile_file_to_edit_and_copies_pnps_own_into_the_game(tiny, tmp_path, monkeypatch):
    """A designer's project is not pnp's folder: editing pnp's own a4-portrait.yaml would change every
    game and be lost at pnp's next update, so the message says where the game's copy goes."""
    from generator.export.calibration import where_back_offset_goes
    from generator.export.run import sheet_profile
    from generator.content import load_game

    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    game = load_game(tiny)
    advice = where_back_offset_goes(sheet_profile(game, None), tiny)
    assert advice.startswith("in a copy of pnp's own a4-portrait profile (now [0mm, 0mm]): copy ")
    assert advice.endswith(f" to {tiny / 'layouts/profiles/a4-portrait.yaml'} and edit that.")
    (tiny / "layouts" / "profiles").mkdir(parents=True)
    own = (sheet_profile(game, None).path.read_text(encoding="utf-8")
           .replace("back_offset: [0mm, 0mm]", "back_offset: [1.5mm, -0.5mm]"))
    (tiny / "layouts" / "profiles" / "a4-portrait.yaml").write_text(own, encoding="utf-8")
    advice = where_back_offset_goes(sheet_profile(game, None), tiny)
    assert advice == f"in {tiny / 'layouts/profiles/a4-portrait.yaml'} (now [1.5mm, -0.5mm])."
