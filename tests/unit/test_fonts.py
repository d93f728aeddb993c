import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics

from generator.errors import FontError, GeneratorError
from generator.fonts import FontSet, default_font_path, load_fonts, register_font


def test_default_font_is_ipaexgothic():
    path = default_font_path()
    assert path.name == "ipaexg.ttf" and path.parent.name == "fonts"
    assert path.parent.parent.name == "matplotlib_fontja"
    assert path.read_bytes()[:4] == b"\x00\x01\x00\x00"


def test_default_font_path_does_not_import_the_package():
    code = (
        "import sys; from generator.fonts import default_font_path; default_font_path(); "
        "bad = [m for m in ('matplotlib_fontja', 'matplotlib') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_default_font_missing_says_how_to_install(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(FontError, match="install matplotlib-fontja"):
        default_font_path()


def test_default_font_file_missing_in_package(monkeypatch, tmp_path):
    class Spec:
        submodule_search_locations = [str(tmp_path)]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: Spec())
    with pytest.raises(FontError, match="install matplotlib-fontja"):
        default_font_path()


def test_load_default_fonts():
    fs = load_fonts()
    assert isinstance(fs, FontSet)
    assert fs.regular in pdfmetrics.getRegisteredFontNames()
    assert fs.bold is None and fs.synthetic_bold
    assert fs.font_for(True) == fs.font_for(False) == fs.regular
    assert 0.8 < fs.ascent < 0.95 and 0.05 < fs.descent < 0.2 and 0.6 < fs.cap_height < 0.8
    assert 0.03 <= fs.bold_stroke <= 0.04
    assert pdfmetrics.stringWidth("あ", fs.regular, 10) == pytest.approx(10)


def test_registration_is_idempotent(tmp_path):
    a = load_fonts()
    b = load_fonts(default_font_path())
    assert a.regular == b.regular
    assert register_font(default_font_path()) == a.regular
    # the name comes from the file, not the path: a copy gets the same name
    copy = tmp_path / "ipaexg.ttf"
    shutil.copyfile(default_font_path(), copy)
    assert register_font(copy) == a.regular
    assert register_font(str(copy)) == a.regular


def test_bold_font_is_registered_separately():
    spec = importlib.util.find_spec("matplotlib")
    base = Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"
    if not (base / "DejaVuSans-Bold.ttf").exists():
        pytest.skip("matplotlib's DejaVu fonts not present")
    fs = load_fonts(bold=base / "DejaVuSans-Bold.ttf")
    assert fs.bold and fs.bold != fs.regular and not fs.synthetic_bold
    assert fs.font_for(True) == fs.bold
    assert fs.missing_glyphs("あ", bold=True) == {"あ"}
    assert fs.missing_glyphs("あ") == set()


def test_missing_glyphs():
    fs = load_fonts()
    assert fs.missing_glyphs("攻撃\nAP+2、「ガード」\u3000") == set()
    assert fs.missing_glyphs("敵😀に\U0001F600") == {"\U0001F600"}
    assert not fs.has_glyph("\U0001F600") and fs.has_glyph("あ")


def test_missing_file(tmp_path):
    path = tmp_path / "nope.ttf"
    with pytest.raises(FontError) as exc:
        load_fonts(path)
    assert str(path) in str(exc.value) and "not found" in str(exc.value)


def test_missing_bold_file(tmp_path):
    path = tmp_path / "bold.ttf"
    with pytest.raises(FontError, match="bold.ttf: font file not found"):
        load_fonts(bold=path)


def test_cff_opentype_font_is_refused_with_reason(tmp_path):
    path = tmp_path / "NotoSansCJKjp-Regular.otf"
    path.write_bytes(b"OTTO" + b"\x00\x0b\x00\x80\x00\x03\x00\x30" + b"junk" * 100)
    with pytest.raises(FontError) as exc:
        load_fonts(path)
    msg = str(exc.value)
    assert str(path) in msg
    assert "CFF/PostScript outlines" in msg and "TrueType (glyf)" in msg and "IPAexGothic" in msg


def test_cff_inside_a_collection_is_refused_with_reason(tmp_path):
    # a .ttc whose first font has CFF outlines: ReportLab reports "postscript outlines"
    path = tmp_path / "NotoSansCJK.ttc"
    path.write_bytes(b"ttcf" + b"\x00\x01\x00\x00" + b"\x00\x00\x00\x01" + b"\x00\x00\x00\x10"
                     + b"OTTO" + b"\x00" * 200)
    with pytest.raises(FontError) as exc:
        load_fonts(path)
    assert str(path) in str(exc.value) and "CFF/PostScript outlines" in str(exc.value)


def test_not_a_font(tmp_path):
    path = tmp_path / "readme.ttf"
    path.write_text("this is not a font at all, just some text\n" * 5)
    with pytest.raises(FontError) as exc:
        load_fonts(path)
    assert str(path) in str(exc.value) and "not a TrueType font" in str(exc.value)


def test_truncated_truetype_file(tmp_path):
    path = tmp_path / "broken.ttf"
    path.write_bytes(default_font_path().read_bytes()[:2000])
    with pytest.raises(FontError) as exc:
        load_fonts(path)
    assert str(path) in str(exc.value)


def test_empty_file_and_directory(tmp_path):
    empty = tmp_path / "empty.ttf"
    empty.write_bytes(b"")
    with pytest.raises(FontError, match="empty.ttf"):
        load_fonts(empty)
    with pytest.raises(FontError, match="not a font file"):
        load_fonts(tmp_path)


def test_woff_is_refused(tmp_path):
    path = tmp_path / "web.woff2"
    path.write_bytes(b"wOF2" + b"\x00" * 100)
    with pytest.raises(FontError, match="WOFF"):
        load_fonts(path)


def test_font_error_is_a_generator_error():
    assert issubclass(FontError, GeneratorError)
