"""The parsed-font cache: a font rebuilt from it is the font ReportLab parses, bad entries are
ignored, and it can be turned off."""
import hashlib
import subprocess
import sys

from reportlab.pdfbase.ttfonts import TTFont

from generator import fontcache
from generator.fonts import default_font_path

REBUILT = {"fontName", "face", "encoding", "state"}


def _parsed():
    path = default_font_path()
    data = path.read_bytes()
    return TTFont("parsed", str(path)), data, hashlib.sha256(data).hexdigest(), str(path)


def _same_state(a, b, skip=()):
    assert set(a.__dict__) == set(b.__dict__)
    for key in set(a.__dict__) - set(skip):
        assert type(a.__dict__[key]) is type(b.__dict__[key]), key
        assert a.__dict__[key] == b.__dict__[key], key


def test_a_font_from_the_cache_is_the_parsed_font(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    parsed, data, digest, filename = _parsed()
    assert fontcache.load("parsed", digest, data, filename) is None  # nothing cached yet
    fontcache.save(parsed, digest)
    assert fontcache.load("other-name", digest, data, filename) is None  # entries are per registered name
    cached = fontcache.load("parsed", digest, data, filename)
    _same_state(cached, parsed, skip=REBUILT)
    _same_state(cached.face, parsed.face, skip={"_pdfScale"})
    assert cached.face.name.ustr == parsed.face.name.ustr == "IPAexGothic"
    assert [cached.face._pdfScale(v) for v in (0, 1, 977)] == [parsed.face._pdfScale(v) for v in (0, 1, 977)]
    assert cached.fontName == "parsed" and cached.face._ttf_data is data
    text = "敵集団１つを指定し、ABC"
    assert cached.stringWidth(text, 9) == parsed.stringWidth(text, 9)


def test_an_unreadable_entry_is_ignored_and_a_wrong_key_misses(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    parsed, data, digest, filename = _parsed()
    fontcache.save(parsed, digest)
    assert fontcache.load("parsed", "0" * 64, data, filename) is None  # another font's bytes
    assert fontcache.load("parsed", digest, data, filename) is not None
    [entry] = (tmp_path / "fonts").iterdir()
    entry.write_bytes(entry.read_bytes()[:1000])  # cut short
    assert fontcache.load("parsed", digest, data, filename) is None
    entry.write_bytes(b"not marshal data")
    assert fontcache.load("parsed", digest, data, filename) is None


def test_an_empty_cache_setting_turns_it_off(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    parsed, data, digest, filename = _parsed()
    fontcache.save(parsed, digest)
    assert fontcache.load("parsed", digest, data, filename) is None
    assert fontcache.cache_dir() is None


def test_prints_are_byte_identical_with_and_without_the_cache(tmp_path):
    from pathlib import Path
    tiny = Path(__file__).resolve().parents[1] / "data" / "tiny"
    outputs = []
    for run, cache in enumerate((str(tmp_path / "cache"), str(tmp_path / "cache"), "")):
        out = tmp_path / f"out{run}"
        env = {**__import__("os").environ, "PNP_CACHE_DIR": cache}
        subprocess.run([sys.executable, "-m", "generator", "build", str(tiny), "--no-validate", "-q", "-o", str(out)],
                       check=True, env=env)
        outputs.append(sorted((p.name, p.read_bytes()) for p in out.glob("*.pdf")))
    assert list((tmp_path / "cache" / "fonts").iterdir())  # the first run wrote the entry, the second read it
    assert outputs[0] == outputs[1] == outputs[2] and outputs[0]


def test_state_that_is_not_plain_data_is_not_cached(tmp_path, monkeypatch):
    # marshal would store a subclass of int or bytes and give back the base type: not cached
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    parsed, data, digest, filename = _parsed()

    class Special(int):
        pass

    parsed.face.extra = {1: [Special(2)]}
    fontcache.save(parsed, digest)
    assert not (tmp_path / "fonts").exists() or not list((tmp_path / "fonts").iterdir())
    del parsed.face.extra
    fontcache.save(parsed, digest)
    assert fontcache.load("parsed", digest, data, filename) is not None
