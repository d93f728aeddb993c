from pathlib import Path

import pytest

from generator.impose import plan_grid

from generator.impose import ImposeError, Profile, load_profile_plain, mm, named_size, profile_from_mapping
from generator.impose.profile import parse_length

PROFILES = Path(__file__).resolve().parents[3] / "layouts" / "profiles"


def test_defaults_are_the_print_facts():
    p = Profile("x", named_size("a4"))
    assert (p.margin, p.bleed, p.gutter) == pytest.approx((mm(5), mm(3), 0))
    assert p.duplex == "long-edge" and p.crop_marks and not p.cut_lines and not p.print_shop
    assert p.printable == pytest.approx((mm(5), mm(5), mm(205), mm(292)))


def test_mapping_accepts_paper_name_and_orientation():
    p = profile_from_mapping("x", {"paper": "a4", "orientation": "landscape", "gutter": mm(6)})
    assert p.paper == pytest.approx((mm(297), mm(210)))
    assert p.gutter == pytest.approx(mm(6))
    p = profile_from_mapping("x", {"paper": (mm(297), mm(210)), "orientation": "portrait"})
    assert p.paper == pytest.approx((mm(210), mm(297)))


@pytest.mark.parametrize("mapping, field, message", [
    ({"paper": "a4", "gutte": 1.0}, "gutte", "unknown profile key 'gutte'; did you mean 'gutter'?"),
    ({}, "paper", "missing paper size (for example paper: a4)"),
    ({"paper": "a4", "bleed": "3mm"}, "bleed", "expected a length in points, got '3mm'"),
    ({"paper": "a4", "crop_marks": "yes"}, "crop_marks", "expected true or false, got 'yes'"),
    ({"paper": "a4", "duplex": "long"}, "duplex", "expected one of long-edge, short-edge, none, got 'long'"),
    ({"paper": "a4", "margin": mm(110)}, "margin",
     "110 mm margins leave nothing printable on a 210x297 mm sheet"),
    ({"paper": "a4", "gutter": -1.0}, "gutter", "expected a length >= 0, got -0.4 mm"),
    ({"paper": "a4", "mark_width": 3.0}, "mark_width", "crop marks are hairlines: expected 0.1pt to 2pt, got 3pt"),
    ({"paper": "a4", "back_offset": (mm(30), 0.0)}, "back_offset",
     "a duplex calibration is a few mm; expected offsets within 20 mm, got (30, 0) mm"),
    ({"paper": "a4", "print_shop": True, "crop_marks": True}, "crop_marks",
     "print-shop pages are one card with its bleed and no margin: there is no room for marks; set it to false"),
    ({"paper": "a4", "print_shop": True, "back_offset": (1.0, 0.0)}, "back_offset",
     "print-shop pages are registered by the shop; remove back_offset"),
    ({"paper": "b5"}, "paper", None),
])
def test_impossible_profiles_name_the_field(mapping, field, message):
    with pytest.raises(ImposeError) as info:
        profile_from_mapping("x", mapping)
    assert info.value.field == field
    if message is not None:
        assert info.value.message == message
        assert str(info.value) == f"{field}: {message}"


def test_parse_length_needs_a_unit():
    assert parse_length("5mm") == pytest.approx(mm(5))
    assert parse_length("0.125in") == pytest.approx(9.0)
    assert parse_length("0.3pt") == pytest.approx(0.3)
    with pytest.raises(ImposeError, match="expected a length like '5mm', got 5"):
        parse_length(5, "margin")
    with pytest.raises(ImposeError, match="units mm, cm, in, pt"):
        parse_length("5 px", "margin")


@pytest.mark.parametrize("name, paper, margin", [
    ("a4-portrait", (210, 297), 5), ("a4-landscape", (297, 210), 5),
    # 4 mm on Letter portrait (most home printers print to ~3-4 mm)
    ("letter-portrait", (215.9, 279.4), 4), ("letter-landscape", (279.4, 215.9), 5),
    ("a3-portrait", (297, 420), 5), ("a3-landscape", (420, 297), 5),
])
def test_shipped_home_profiles_load(name, paper, margin):
    p = load_profile_plain(PROFILES / f"{name}.yaml")
    assert p.name == name
    assert p.paper == pytest.approx((mm(paper[0]), mm(paper[1])))
    assert (p.margin, p.bleed, p.gutter) == pytest.approx((mm(margin), mm(3), 0))
    assert p.crop_marks and not p.print_shop


def test_poker_cards_come_nine_upright_on_a4_and_eight_turned_on_letter():
    # Letter portrait's 3 upright rows would leave no room for the column crop marks
    grid = plan_grid(mm(63), mm(88), load_profile_plain(PROFILES / "a4-portrait.yaml"))
    assert (grid.cols, grid.rows, grid.rotated) == (3, 3, False)
    grid = plan_grid(mm(63), mm(88), load_profile_plain(PROFILES / "letter-portrait.yaml"))
    assert (grid.cols, grid.rows, grid.rotated) == (2, 4, True)


def test_fit_must_be_marks_or_tightest():
    with pytest.raises(ImposeError) as info:
        profile_from_mapping("x", {"paper": "a4", "fit": "tight"})
    assert (info.value.message, info.value.field) == ("expected one of marks, tightest, got 'tight'", "fit")
    assert profile_from_mapping("x", {"paper": "a4", "fit": "tightest"}).fit == "tightest"
    assert profile_from_mapping("x", {"paper": "a4"}).fit == "marks"


def test_shipped_print_shop_profile_loads():
    p = load_profile_plain(PROFILES / "print-shop.yaml")
    assert p.print_shop and not p.crop_marks and not p.cut_lines
    assert p.bleed == pytest.approx(9.0)        # 1/8 in


def test_plain_loader_reports_file_and_field(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("paper: a4\nbleed: 3\n", encoding="utf-8")
    with pytest.raises(ImposeError) as info:
        load_profile_plain(bad)
    assert str(info.value) == f"{bad}: bleed: expected a length like '5mm', got 3"
