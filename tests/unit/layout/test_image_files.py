"""Art files print as an image viewer shows them: a JPEG's EXIF orientation is honoured and a
16-bit greyscale PNG keeps its tones (small images made here, painted and read back)."""
import io
from pathlib import PurePosixPath

import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.content.schema import file_hint
from generator.export.digest import FileHashes
from generator.layout.images import pixel_size, printed_dpi
from generator.layout.instantiate import Op
from generator.layout.paint import Painter
from tests.unit.layout.test_instantiate import faces_of

CARD = (60.0, 80.0)  # points: the image box fills the card


def _printed(path) -> Image.Image:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=CARD)
    Painter(None, None, CARD[1]).paint(c, [Op("image", 0, 0, *CARD, {"fit": "stretch"}, payload=path)])
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buf.getvalue())[0].render(scale=1).to_pil().convert("RGB")


def _upright_top_red(width=30, height=40):
    image = Image.new("RGB", (width, height), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, width, height // 2))
    return image


def test_a_jpeg_tagged_turn_90_prints_upright(tmp_path):
    stored = _upright_top_red().rotate(90, expand=True)  # as a camera stores it: on its side ...
    exif = Image.Exif()
    exif[0x0112] = 6                                        # ... with "turn 90° clockwise to view"
    path = tmp_path / "photo.jpg"
    stored.save(path, exif=exif.tobytes(), quality=95)
    assert pixel_size(path) == (30, 40)
    page = _printed(path)
    top, bottom = page.getpixel((30, 10)), page.getpixel((30, 70))
    assert top[0] > 200 and top[2] < 60, top       # red at the top, as the viewer shows it
    assert bottom[2] > 200 and bottom[0] < 60, bottom


def test_an_upright_jpeg_is_embedded_as_it_is(tmp_path):
    path = tmp_path / "art.jpg"
    _upright_top_red().save(path, quality=95)
    assert pixel_size(path) == (30, 40)
    page = _printed(path)
    assert page.getpixel((30, 10))[0] > 200 and page.getpixel((30, 70))[2] > 200


def test_a_16_bit_greyscale_png_keeps_its_tones(tmp_path):
    """Pillow opens it as I;16, which ReportLab's RGB conversion clipped to white."""
    path = tmp_path / "grey16.png"
    image = Image.new("I;16", (60, 80))
    image.putdata([0 if x < 30 else 32768 for y in range(80) for x in range(60)])  # black | mid grey
    image.save(path)
    page = _printed(path)
    assert page.getpixel((10, 40)) == (0, 0, 0)
    assert all(120 <= v <= 135 for v in page.getpixel((50, 40)))


def test_art_with_too_few_pixels_for_its_box_is_a_warning_at_the_card(tiny):
    (tiny / "art").mkdir()
    Image.new("RGB", (20, 30)).save(tiny / "art" / "knight.png")    # 20 px across 20 mm: 25 dpi
    Image.new("RGB", (240, 360)).save(tiny / "art" / "sharp.png")   # 305 dpi
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: art, type: image, x: 0, y: 0, w: 20mm, h: 30mm, src: "art/{{ card.id }}.png"}
          - {id: logo, type: image, x: 0, y: 0, w: 20mm, h: 30mm, src: art/sharp.png, fit: stretch}
        """)
    assert [(p.severity, p.field, p.card_field, p.card.line) for p in problems] == [
        ("warning", "art", "heroes[0].id", 1)]
    assert "'art/knight.png' is 20x30 px: 25 dpi in this 20x30 mm box (fit contain)" in problems[0].message
    assert "236x354 px print it sharp at 300 dpi" in problems[0].message


def _all_faces_problems(tiny, layout_text):
    from generator.cards import CardBuilder
    from generator.content import load_game

    faces_of(tiny, layout_text)  # writes the probe layout
    game, problems = load_game(tiny), []
    CardBuilder(game).component_faces(game.component("heroes"), problems).check_all()
    return problems


def test_a_cover_box_cutting_much_of_a_picture_is_a_warning_once_per_file_and_box(tiny):
    """fit: cover cut a portrait in a landscape box to a strip without a word; more than 25% of a side cut is
    a warning naming the card, file, box and cut, once for a file in a box (knight has 2 copies; every hero
    draws the banner), none for a near fit or for another fit."""
    (tiny / "art").mkdir()
    Image.new("RGB", (900, 300)).save(tiny / "art" / "banner.png")    # 3:1 in a 2:3 box: 78% of its width cut
    Image.new("RGB", (240, 300)).save(tiny / "art" / "knight.png")    # 4:5 in 2:3: 17% of its height cut
    Image.new("RGB", (240, 900)).save(tiny / "art" / "mage.png")      # 4:15 in 2:3: 60% of its height cut
    Image.new("RGB", (240, 360)).save(tiny / "art" / "thief.png")
    problems = _all_faces_problems(tiny, """\
        boxes:
          - {id: art, type: image, w: 20mm, h: 30mm, src: "art/{{ card.id }}.png", fit: cover}
          - {id: banner, type: image, w: 20mm, h: 30mm, src: art/banner.png, fit: cover}
          - {id: whole, type: image, w: 20mm, h: 30mm, src: art/banner.png}
        """)
    assert [(p.severity, p.field, p.card_field, p.message) for p in problems] == [
        ("warning", "banner", "heroes[0]", "image 'art/banner.png' is 900x300 px: fit cover cuts 78% of its width "
         "off to fill this 20x30 mm box (the wrong picture or box? fit contain shows it whole)"),
        ("warning", "art", "heroes[1].id", "image 'art/mage.png' is 240x900 px: fit cover cuts 60% of its height "
         "off to fill this 20x30 mm box (the wrong picture or box? fit contain shows it whole)")]


def test_the_dpi_that_counts_follows_the_fit():
    box = (72.0, 144.0)                                   # 1 x 2 inches
    assert printed_dpi((300, 300), *box, "contain") == 300   # drawn 1 x 1 in
    assert printed_dpi((300, 300), *box, "cover") == 150     # drawn 2 x 2 in, cropped
    assert printed_dpi((300, 300), *box, "stretch") == 150   # the stretched side


def test_a_file_not_found_names_the_one_meant(tmp_path):
    """Written with another case (found on Windows and macOS, not on Linux or at a print shop), another
    extension or a slip of the keys: the file beside it is named; a far name or folder is not guessed."""
    (tmp_path / "art").mkdir()
    for name in ("fox.jpeg", "Crow.png", "shared-back.png"):
        (tmp_path / "art" / name).write_bytes(b"")
    hints = {src: file_hint(tmp_path, PurePosixPath(src)) for src in
             ("art/fox.jpg", "art/crow.png", "art/shared_back.png", "art/missing.png", "arts/fox.jpeg")}
    assert hints == {"art/fox.jpg": " (did you mean 'art/fox.jpeg'?)",
                     "art/crow.png": " (did you mean 'art/Crow.png'?)",
                     "art/shared_back.png": " (did you mean 'art/shared-back.png'?)",
                     "art/missing.png": "",
                     "arts/fox.jpeg": f" (no folder 'arts' in {tmp_path})"}


def test_an_image_box_says_which_file_was_meant(tiny):
    (tiny / "art").mkdir()
    Image.new("RGB", (300, 300)).save(tiny / "art" / "Knight.png")
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: art, type: image, w: 20mm, h: 20mm, src: "art/{{ card.id }}.png"}
        """)
    assert problems[0].message.endswith("(did you mean 'art/Knight.png'?)")


def test_a_vector_drawing_in_an_image_box_says_what_to_do_at_the_card(tiny):
    (tiny / "art").mkdir()
    (tiny / "art" / "knight.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>')
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: art, type: image, w: 20mm, h: 20mm, src: "art/{{ card.id }}.svg"}
        """)
    assert [(p.field, p.card_field, p.card.line) for p in problems] == [("art", "heroes[0].id", 1)]
    assert "not SVG drawings: export it as a PNG at 300 dpi" in problems[0].message


def test_an_image_pillow_calls_a_bomb_is_a_located_warning_not_a_python_one(tiny, monkeypatch, recwarn):
    import PIL.Image

    from generator.layout import instantiate
    monkeypatch.setattr(PIL.Image, "MAX_IMAGE_PIXELS", 1000)   # Pillow warns above it, fails at twice it
    monkeypatch.setattr(instantiate, "HUGE_PIXELS", 1000)
    (tiny / "art").mkdir()
    Image.new("RGB", (40, 40)).save(tiny / "art" / "knight.png")   # 1600 px: a "bomb" under these limits
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: art, type: image, w: 2mm, h: 2mm, src: "art/{{ card.id }}.png"}
        """)
    assert [(p.severity, p.card_field) for p in problems] == [("warning", "heroes[0].id")]
    assert "'art/knight.png' is 40x40 px (0 megapixels), 508 dpi here: every pixel goes into the print file" \
        in problems[0].message
    assert not [w for w in recwarn if issubclass(w.category, PIL.Image.DecompressionBombWarning)]


def test_a_card_without_a_file_for_its_image_box_is_told_how_to_skip_the_box(tiny):
    """Jinja writes a card's empty field as 'None': the message was "image 'None' not found"."""
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: art, type: image, w: 2mm, h: 2mm, src: "{{ card.friend }}"}
        """)  # the knight names no friend
    assert [(p.field, p.card_field) for p in problems] == [("art", "heroes[0].friend")]
    assert problems[0].message == ("image src '{{ card.friend }}' gives no file for this card (draw the box only "
                                   "on cards that have one: when: \"card.friend\")")


def test_a_turned_jpeg_stays_a_jpeg_in_the_pdf(tmp_path):
    """Turned upright, it is embedded compressed as JPEG (DCTDecode), not as deflated pixels."""
    stored = Image.effect_noise((300, 200), 60).convert("RGB")   # noise: deflate cannot shrink it
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "photo.jpg"
    stored.save(path, exif=exif.tobytes(), quality=90)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=CARD)
    Painter(None, None, CARD[1]).paint(c, [Op("image", 0, 0, *CARD, {"fit": "stretch"}, payload=path)])
    c.save()
    assert b"/DCTDecode" in buf.getvalue()


def test_a_face_hash_says_how_an_image_is_redrawn_so_exports_made_before_are_renewed(tmp_path):
    """An incremental PNG export and the print lock compare face hashes: a photo that printed on its side
    before pnp turned it upright must not keep its old PNG (its file did not change, its print did)."""
    turned, plain = tmp_path / "photo.jpg", tmp_path / "plain.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6
    _upright_top_red().save(turned, exif=exif.tobytes())
    _upright_top_red().save(plain)
    files = FileHashes()
    assert files.image(turned) == f"{files(turned)}:exif-orientation-6"
    assert files.image(plain) == files(plain)     # every other image hashes as before: no face changes


def test_an_empty_file_or_one_that_is_no_image_says_so(tiny):
    (tiny / "art").mkdir()
    (tiny / "art" / "knight.png").write_bytes(b"")
    (tiny / "art" / "mage.png").write_text("<html>a web page saved as .png</html>")
    _, problems = faces_of(tiny, """\
        boxes:
          - {id: art, type: image, w: 2mm, h: 2mm, src: "art/{{ card.id }}.png"}
          - {id: page, type: image, w: 2mm, h: 2mm, src: art/mage.png}
        """)
    assert [p.message for p in problems] == [
        "image 'art/knight.png' cannot be read: the file is empty (0 bytes)",
        "image 'art/mage.png' cannot be read: not an image Pillow can read (a damaged file, or not a PNG, JPEG, "
        "WebP, TIFF, GIF or BMP)"]


def test_a_file_embedded_as_it_is_goes_by_name_keeping_no_pixels_and_its_transparency(tmp_path):
    """The painter kept an ImageReader per file, every decoded picture of a deck held until the PDF was
    written (30 pictures of 1500x2000 px: 900 MB); by name ReportLab reads each once and keeps the stream."""
    from reportlab.lib.utils import ImageReader

    path = tmp_path / "hole.png"
    hole = Image.new("RGBA", (60, 80), (0, 0, 255, 255))
    hole.paste((0, 0, 0, 0), (20, 20, 40, 60))                 # a transparent window in a blue card
    hole.save(path)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=CARD)
    painter = Painter(None, None, CARD[1])
    painter.paint(c, [Op("rect", 0, 0, *CARD, {"fill": "#ff0000"}),
                      Op("image", 0, 0, *CARD, {"fit": "stretch"}, payload=path)])
    c.showPage()
    c.save()
    assert not any(isinstance(source, ImageReader) for source, _ in painter._images.values())
    page = pdfium.PdfDocument(buf.getvalue())[0].render(scale=1).to_pil().convert("RGB")
    assert page.getpixel((5, 5)) == (0, 0, 255) and page.getpixel((30, 40)) == (255, 0, 0)


def _profile_with_red_and_blue_swapped() -> bytes:
    """An ICC profile unlike sRGB, made from Pillow's sRGB one: its red and blue primaries trade places
    (a stand-in for Adobe RGB, whose greens and reds lie elsewhere too)."""
    import struct

    from PIL import ImageCms

    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    entries = {}
    for i in range(struct.unpack(">I", data[128:132])[0]):
        signature, offset, size = struct.unpack(">4sII", data[132 + 12 * i:144 + 12 * i])
        entries[signature] = (132 + 12 * i, offset, size)
    (red_at, *red), (blue_at, *blue) = entries[b"rXYZ"], entries[b"bXYZ"]
    struct.pack_into(">4sII", data, red_at, b"rXYZ", *blue)
    struct.pack_into(">4sII", data, blue_at, b"bXYZ", *red)
    return bytes(data)


def test_a_picture_in_another_colour_space_prints_its_colours_not_its_numbers(tmp_path):
    from PIL import ImageCms

    red_numbers = Image.new("RGB", (60, 80), (255, 0, 0))      # numbers its profile says are blue
    path = tmp_path / "wide-gamut.png"
    red_numbers.save(path, icc_profile=_profile_with_red_and_blue_swapped())
    srgb = tmp_path / "srgb.png"
    red_numbers.save(srgb, icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    assert _printed(path).getpixel((30, 40)) == (0, 0, 255)
    assert _printed(srgb).getpixel((30, 40)) == (255, 0, 0)     # an sRGB profile changes nothing
    files = FileHashes()
    assert files.image(path).endswith(":colours-to-srgb") and files.image(srgb) == files(srgb)
