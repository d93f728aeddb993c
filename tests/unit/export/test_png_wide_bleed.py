"""An export profile asking for a wider bleed than faces paint (1/8 in, 3 mm painted) gets the card at
its true size, the ring past 3 mm its stretched edge, as a print shop's page does (it was scaled up).
At 254 dpi a millimetre is 10 px: both images put the trim on whole pixels."""
from PIL import Image, ImageChops

from generator.export.png import export_png, png_dir

DPI = 254


def _export(tiny, out, profile, profile_dpi):
    result = export_png(tiny, out, profile=profile, dpi=DPI, components=["heroes"])
    assert result.ok, result.problems
    return Image.open(png_dir(out, profile, DPI, profile_dpi) / "heroes" / "knight.png").convert("RGB")


def test_the_trim_area_of_a_wider_bleed_export_is_the_one_of_the_painted_bleed(tiny, tmp_path):
    profiles = tiny / "layouts" / "profiles" / "export"
    profiles.mkdir(parents=True)
    (profiles / "wide.yaml").write_text("description: wider bleed\ndpi: 254\nbleed: 4mm\nproducts: []\n")
    painted = _export(tiny, tmp_path / "a", "png-300", 300)          # 3 mm: the bleed the faces paint
    wide = _export(tiny, tmp_path / "b", "wide", DPI)
    trim, extra = (30, 30, 660, 910), 10                        # 3 mm to 63 + 3 mm; 1 mm more a side
    assert wide.size == (painted.width + 2 * extra, painted.height + 2 * extra)
    inner = wide.crop((trim[0] + extra, trim[1] + extra, trim[2] + extra, trim[3] + extra))
    difference = ImageChops.difference(painted.crop(trim), inner).convert("L")
    # scaled by 1.029 to cover the image, 48,694 pixels differed by more than 8 (the frame's lines moved by up
    # to 9 px); now about 120 do, at the edges of one glyph (pdfium draws text in a form a hair apart)
    assert sum(difference.histogram()[9:]) < 0.001 * inner.width * inner.height
    # the band painted to -3 mm at the top runs on to the image's edge: not white, the band's colour
    assert wide.getpixel((wide.width // 2, 0)) == painted.getpixel((painted.width // 2, 0)) != (255, 255, 255)
