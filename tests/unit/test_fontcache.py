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


def _settled(path, seconds=10):
    """Set the file's mtime back; its ctime (set by the kernel) stays now."""
    old = path.stat().st_mtime_ns - seconds * 10**9
    __import__("os").utime(path, ns=(old, old))


def test_a_kept_font_digest_is_served_only_for_the_same_file(tmp_path, monkeypatch):
    import os
    import time
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fontcache, "_SETTLE_NS", 0)  # the file is new; the settle rule has its own test
    font = tmp_path / "f.ttf"
    font.write_bytes(b"one")
    stat = font.stat()
    fontcache.remember_digest(str(font), stat, "a" * 64)
    assert fontcache.known_digest(str(font), font.stat()) == "a" * 64
    assert fontcache.known_digest(str(tmp_path / "g.ttf"), font.stat()) is None  # another path
    time.sleep(0.05)  # past the file system's timestamp tick
    font.write_bytes(b"two")  # same size, mtime put back: only the ctime tells
    os.utime(font, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert font.stat().st_size == stat.st_size and font.stat().st_mtime_ns == stat.st_mtime_ns
    assert fontcache.known_digest(str(font), font.stat()) is None
    fontcache.remember_digest(str(font), font.stat(), "b" * 64)  # replaces the entry: one per path
    assert fontcache.known_digest(str(font), font.stat()) == "b" * 64
    assert len(list((tmp_path / "cache" / "fonts").iterdir())) == 1
    entry = next((tmp_path / "cache" / "fonts").iterdir())
    entry.write_text(entry.read_text().replace("b" * 64, "not a digest"))
    assert fontcache.known_digest(str(font), font.stat()) is None


def test_a_font_digest_is_not_kept_while_the_file_may_still_be_written(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    font = tmp_path / "f.ttf"
    font.write_bytes(b"one")
    fontcache.remember_digest(str(font), font.stat(), "a" * 64)  # its ctime is now: a write may follow in the tick
    assert fontcache.known_digest(str(font), font.stat()) is None
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    monkeypatch.setattr(fontcache, "_SETTLE_NS", 0)
    fontcache.remember_digest(str(font), font.stat(), "a" * 64)  # and nothing is kept with the cache off
    assert fontcache.known_digest(str(font), font.stat()) is None


def test_a_registered_font_is_named_by_its_bytes_with_the_digest_kept(tmp_path, monkeypatch):
    import shutil
    import time
    from generator import fonts
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fontcache, "_SETTLE_NS", 0)
    font = tmp_path / "copy.ttf"
    shutil.copyfile(default_font_path(), font)
    data = font.read_bytes()
    first = fonts.register_font(font)
    assert first.endswith(hashlib.sha256(data).hexdigest()[:10])
    monkeypatch.setattr(fonts, "_registered", {})  # a new run: the digest comes from the cache, unhashed
    real = hashlib.sha256

    def small_only(data=b""):
        assert len(data) < 1000, "the font was hashed again"
        return real(data)

    monkeypatch.setattr(hashlib, "sha256", small_only)
    assert fonts.register_font(font) == first
    monkeypatch.undo()
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fonts, "_registered", {})
    time.sleep(0.05)
    changed = bytearray(data)
    changed[-1] ^= 1  # the same size and mtime, other bytes
    stat = font.stat()
    font.write_bytes(bytes(changed))
    __import__("os").utime(font, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert fonts.register_font(font).endswith(hashlib.sha256(bytes(changed)).hexdigest()[:10])
