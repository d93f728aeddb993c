"""Pixel sizes, fitting a face to a service's trim, exact-size rasterization, export profiles."""
import io
from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.export.profile import load_export_profile
from generator.export.raster import fit_frame, png_bytes, px_for, rasterize, trim_frame
from generator.impose import mm, named_size

ART_BLEED = mm(3)


def test_tgc_poker_is_825_by_1125():
    frame = fit_frame(named_size("poker"), ART_BLEED, 300, trim=(mm(63.5), mm(88.9)), bleed=0.125 * 72)
    assert frame.px == (825, 1125)


@pytest.mark.parametrize("size", ["poker", "bridge", "mini-euro", "tarot", "square"])
@pytest.mark.parametrize("dpi, bleed_mm", [(300, 3), (150, 0), (600, 2)])
def test_other_sizes_follow_the_formula(size, dpi, bleed_mm):
    w, h = named_size(size)
    frame = fit_frame((w, h), ART_BLEED, dpi, bleed=mm(bleed_mm))
    trim_mm = (w / mm(1), h / mm(1))
    assert frame.px == tuple(int(round((t + 2 * bleed_mm) / 25.4 * dpi, 6) + 0.5) for t in trim_mm)
    assert px_for(w + 2 * mm(bleed_mm), dpi) == frame.px[0]


@pytest.mark.parametrize("trim, bleed", [((mm(63.5), mm(88.9)), 0.125 * 72), (None, mm(3)), (None, 0.0),
                                          ((mm(62), mm(87)), mm(1))])
def test_the_face_covers_the_image_and_the_target_trim(trim, bleed):
    card = named_size("poker")
    frame = fit_frame(card, ART_BLEED, 300, trim=trim, bleed=bleed)
    s, (ox, oy) = frame.scale, frame.origin
    pw, ph = frame.page
    # painted area (trim + 3 mm art bleed), or the ring stretched past it, covers the whole page: no blank edge
    reach = max(ART_BLEED, frame.ring_bleed)
    assert ox - reach * s <= 1e-6 and oy - reach * s <= 1e-6
    assert ox + (card[0] + reach) * s >= pw - 1e-6 and oy + (card[1] + reach) * s >= ph - 1e-6
    # our trim covers the service's trim (centred), so its cut stays inside our art
    tw, th = trim or card
    assert card[0] * s >= tw - 1e-6 and card[1] * s >= th - 1e-6
    assert ox == pytest.approx((pw - card[0] * s) / 2)
    if trim is None and bleed <= ART_BLEED:
        assert s == pytest.approx(1.0, abs=2e-3), "same trim: no scaling beyond pixel rounding"
    if trim == (mm(63.5), mm(88.9)):
        # documented: the shop's cut lands at most 0.2 mm inside our trim line
        assert (card[0] * s - tw) / 2 <= mm(0.2) and (card[1] * s - th) / 2 <= mm(0.2)


def test_a_bleed_wider_than_the_face_paints_keeps_the_card_at_its_size_with_a_ring():
    """1/8 in asked, 3 mm painted: the face was scaled x1.005 to cover the image (its trim 0.3 mm wider)."""
    frame = fit_frame(named_size("poker"), ART_BLEED, 300, bleed=0.125 * 72)
    assert frame.scale == 1.0 and frame.ring_bleed == pytest.approx(0.125 * 72, abs=72 / 300)
    assert fit_frame(named_size("poker"), ART_BLEED, 300, bleed=ART_BLEED).ring_bleed == 0.0


def test_rasterize_renders_exact_sizes_and_png_is_rgb_srgb():
    import io

    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    sizes = [(825, 1125), (409, 571), (7, 9)]
    for w, h in sizes:
        canvas.setPageSize((w * 72 / 300, h * 72 / 300))
        canvas.setFillColorRGB(1, 0, 0)
        canvas.rect(0, 0, 10, 10, fill=1, stroke=0)
        canvas.showPage()
    canvas.save()
    images = list(rasterize(buffer.getvalue(), sizes))
    assert [im.size for im in images] == sizes and {im.mode for im in images} == {"RGB"}
    png = Image.open(io.BytesIO(png_bytes(images[0], 300)))
    assert png.mode == "RGB" and png.size == (825, 1125)
    assert png.info.get("icc_profile"), "tagged sRGB"
    assert png.getpixel((2, 1120))[:3] == (255, 0, 0) and png.getpixel((800, 10))[:3] == (255, 255, 255)


def test_png_bytes_are_the_same_in_every_run(monkeypatch):
    """The embedded sRGB profile carried the time LittleCMS made it, so two exports of the same
    faces differed in every PNG (and every TTS sheet) a second apart."""
    import time

    from PIL import Image, ImageCms

    from generator.export import raster

    image = Image.new("RGB", (4, 4), (10, 20, 30))
    monkeypatch.setattr(raster, "_SRGB", None)
    first = png_bytes(image, 300)
    time.sleep(1.1)
    monkeypatch.setattr(raster, "_SRGB", None)
    assert png_bytes(image, 300) == first
    profile = ImageCms.ImageCmsProfile(io.BytesIO(Image.open(io.BytesIO(first)).info["icc_profile"]))
    assert "sRGB" in ImageCms.getProfileDescription(profile)


def test_trim_frame_crops_to_trim():
    frame = trim_frame(named_size("poker"), (409, 571))
    assert frame.scale == 1 and frame.origin == (0, 0) and frame.page == named_size("poker")


def test_shipped_profiles_load(in_repo):
    tgc = load_export_profile("tgc-poker", Path("content/fatal-fight"))
    assert tgc.dpi == 300 and tgc.bleed == pytest.approx(9.0) and tgc.only_products

    class Component:
        kind = "card"
        size_pt = named_size("poker")

    trim, bleed = tgc.target(Component)
    assert trim == pytest.approx((mm(63.5), mm(88.9)))
    Component.size_pt = (named_size("poker")[1], named_size("poker")[0])     # a landscape card
    assert tgc.target(Component)[0] == pytest.approx((mm(88.9), mm(63.5)))
    Component.size_pt = named_size("square")
    assert tgc.target(Component) is None, "only_products: no product, no image"
    default = load_export_profile(None, Path("content/fatal-fight"))
    assert default.name == "png-300" and default.target(Component) == (named_size("square"), pytest.approx(mm(3)))


def test_a_wrong_profile_is_a_located_problem(tiny):
    folder = tiny / "layouts" / "profiles" / "export"
    folder.mkdir(parents=True)
    (folder / "bad.yaml").write_text("dpi: 300\nbleed: 3\ncolour: red\n")
    with pytest.raises(ContentError) as info:
        load_export_profile("bad", tiny)
    shown = "\n".join(p.display() for p in info.value.problems)
    assert "bad.yaml:2" in shown and "bad.yaml:3" in shown and "colour" in shown
    with pytest.raises(ContentError, match="problem"):
        load_export_profile("missing", tiny)


def test_a_misspelt_export_profile_gets_a_did_you_mean(in_repo):
    with pytest.raises(ContentError) as info:
        load_export_profile("tgc-pokr", Path("content/fatal-fight"))
    [problem] = info.value.problems
    assert problem.location.path == "content/fatal-fight", "--profile is not written in game.yaml"
    assert problem.message.startswith("unknown export profile 'tgc-pokr' (did you mean 'tgc-poker'?); known: png-300")
