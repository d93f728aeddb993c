"""Issue #2: each image is embedded once, also when two files hold the same picture."""
import re
import shutil

from PIL import Image

from generator import build


def _image_xobjects(pdf) -> int:
    return len(re.findall(rb"/Subtype\s*/Image", pdf.read_bytes()))


def _tiny_with_art(tiny, files: dict) -> None:
    """Each hero draws art/<its id>.<ext>; ``files`` writes them."""
    (tiny / "art").mkdir()
    for name, write in files.items():
        write(tiny / "art" / name)
    layout = tiny / "layouts" / "tiny" / "hero.yaml"
    layout.write_text(layout.read_text() + '  - {id: art, type: image, x: 5mm, y: 35mm, w: 20mm, h: 20mm, '
                      'src: "art/{{ card.id }}.png"}\n')


def test_a_copy_of_a_png_is_embedded_once_and_a_re_save_apart(tiny, tmp_path):
    picture = Image.effect_noise((40, 40), 60).convert("RGB")
    _tiny_with_art(tiny, {
        "knight.png": lambda p: picture.save(p, compress_level=9),
        "mage.png": lambda p: shutil.copy(p.parent / "knight.png", p),   # a designer's "a copy.png"
        "thief.png": lambda p: picture.save(p, compress_level=1)})       # a lossless re-save: other bytes
    assert build.build_game(tiny, tmp_path / "out", validate=False).ok
    # knight (drawn on 2 copies) and its copy mage: 1 embed, not 2 (3 in all before); the re-save is
    # not decoded to compare (its own embed, see same_pixels_key)
    assert _image_xobjects(tmp_path / "out" / "print-a4.pdf") == 2


def test_a_copy_of_a_jpeg_is_embedded_once_as_jpeg_and_other_pixels_stay_apart(tiny, tmp_path):
    photo = Image.effect_noise((40, 40), 60).convert("RGB")
    _tiny_with_art(tiny, {
        "knight.png": lambda p: photo.save(p, "JPEG", quality=90),   # a JPEG named .png, as cameras never do
        "mage.png": lambda p: shutil.copy(p.parent / "knight.png", p),
        "thief.png": lambda p: photo.convert("L").save(p)})           # same size, other mode: not the same
    assert build.build_game(tiny, tmp_path / "out", validate=False).ok
    pdf = (tmp_path / "out" / "print-a4.pdf").read_bytes()
    assert _image_xobjects(tmp_path / "out" / "print-a4.pdf") == 2
    assert pdf.count(b"/DCTDecode") == 1
