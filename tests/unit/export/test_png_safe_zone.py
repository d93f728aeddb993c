"""A print service cuts at its own trim and asks text to keep its safe zone inside it (The Game
Crafter, DriveThruCards: 1/8 in). A title 3.1 mm from our trim keeps the project's 3 mm, but on a TGC
poker image (our face scaled x1.010 and centred on TGC's 63.5 x 88.9 mm trim) it sits 3.06 mm from
TGC's cut: the export said nothing. It now warns once per layout box, at the box's line, as the print
build does (tests/unit/test_print_safe_zone.py)."""
import pytest

from generator.export.png import export_png
from generator.export.safe_zone import safe_rect
from generator.units import mm


def _title_at(tiny, x_mm: str):
    layout = tiny / "layouts" / "tiny" / "hero.yaml"
    text = layout.read_text(encoding="utf-8")
    assert "  - id: title\n    type: text\n    x: 5mm\n" in text
    layout.write_text(text.replace("  - id: title\n    type: text\n    x: 5mm\n",
                                   f"  - id: title\n    type: text\n    x: {x_mm}\n"), encoding="utf-8")
    return layout, text.splitlines().index("  - id: title") + 1


def _safe_warnings(result):
    return [p for p in result.problems if "safe zone" in p.message]


def test_text_inside_our_3mm_but_outside_tgcs_safe_zone_is_warned_at_its_box(tiny, tmp_path):
    layout, line = _title_at(tiny, "3.1mm")
    own = export_png(tiny, tmp_path / "own", profile="png-300", dpi=40, components=["heroes"])
    assert own.ok and _safe_warnings(own) == []
    tgc = export_png(tiny, tmp_path / "tgc", profile="tgc-poker", dpi=40, components=["heroes"])
    assert tgc.ok
    (warning,) = _safe_warnings(tgc)          # one per box, not one per card
    assert warning.severity == "warning"
    assert (warning.location.path, warning.location.line) == (str(layout), line)
    assert warning.field == "box 'title'"
    assert warning.message == (
        "its text comes 3.1 mm from the cut of export profile 'tgc-poker', which asks text to stay 3.175 mm inside"
        " its trim (its safe zone), on 3 faces: move the box 0.1 mm inward or make it smaller")
    assert (warning.card.line, warning.card_field) == (1, "heroes[0] 'knight'")   # the face that comes nearest


def test_text_past_the_cut_is_said_to_cross_it(tiny, tmp_path):
    _title_at(tiny, "-1mm")
    result = export_png(tiny, tmp_path, profile="png-300", dpi=40, components=["heroes"])
    (warning,) = _safe_warnings(result)
    assert "its text crosses the cut of export profile 'png-300'" in warning.message


def test_the_safe_rect_is_the_services_trim_less_its_safe_zone_in_card_units():
    poker = (mm(63), mm(88))
    assert safe_rect(poker, poker, 1.0, mm(3)) == pytest.approx((mm(3), mm(3), mm(60), mm(85)))
    scale = max(mm(63.5) / poker[0], mm(88.9) / poker[1])
    x0, y0, x1, y1 = safe_rect(poker, (mm(63.5), mm(88.9)), scale, 9.0)   # TGC: 1/8 in = 9 pt
    # on the image: (x0 - centre) * scale + half the service's trim = its safe inset from its cut
    assert (mm(63.5) / 2 - (poker[0] / 2 - x0) * scale) == pytest.approx(9.0)
    assert (mm(88.9) / 2 - (poker[1] / 2 - y0) * scale) == pytest.approx(9.0)
    assert x1 - x0 == pytest.approx((mm(63.5) - 18) / scale)
