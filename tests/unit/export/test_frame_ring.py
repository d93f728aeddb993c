"""The bleed ring of a PNG export (a profile's bleed wider than the faces paint) is worked out once per
image, with its frame, and that ring is the one drawn."""
import pytest

from generator.export import raster
from generator.export.png import export_png
from generator.impose import mm, named_size
from generator.impose.bleed_ring import bleed_ring

POKER = named_size("poker")


def test_the_frame_holds_the_ring_it_was_fitted_with():
    frame = raster.fit_frame(POKER, mm(3), 300, bleed=0.125 * 72)
    assert len(frame.ring) == 8 and frame.ring == tuple(bleed_ring(*POKER, mm(3), frame.ring_bleed))
    painted = raster.fit_frame(POKER, mm(3), 300, bleed=mm(3))
    assert painted.ring == () and painted.ring_bleed == 0.0


def test_a_wide_bleed_export_builds_each_image_s_ring_once(tiny, tmp_path, monkeypatch):
    profiles = tiny / "layouts" / "profiles" / "export"
    profiles.mkdir(parents=True)
    (profiles / "wide.yaml").write_text("description: wider bleed\ndpi: 36\nbleed: 4mm\nproducts: []\n")
    built = []

    def counted(*args):
        built.append(args)
        return bleed_ring(*args)

    monkeypatch.setattr(raster, "bleed_ring", counted)
    result = export_png(tiny, tmp_path, profile="wide", components=["heroes"])
    assert result.ok, result.problems
    images = [path for path in result.written if path.suffix == ".png"]
    assert len(images) >= 2 and len(built) == len(images)  # it was built twice: to decide, then to draw
    assert all(args[2] == pytest.approx(mm(3)) for args in built)  # the bleed the faces paint
