"""The PNG export's index says which pnp drew each image: another pnp redraws them all."""
import json

from generator.export import png
from generator.export.png import INDEX, export_png, png_dir


def _export(tiny, out, **options):
    result = export_png(tiny, out, dpi=20, **options)
    assert result.ok, result.problems
    return result


def test_an_unchanged_face_is_reused_by_the_same_pnp_and_redrawn_by_another(tiny, tmp_path, monkeypatch):
    first = _export(tiny, tmp_path)
    index = json.loads((png_dir(tmp_path, "png-300", 20, 300) / INDEX).read_text())
    assert {e["drawn_by"] for e in index["faces"]} == {png.drawn_by()}
    again = _export(tiny, tmp_path)
    assert again.unchanged == len(index["faces"]) and len(again.written) == 1  # the index only
    monkeypatch.setattr(png, "drawn_by", lambda: "pnp 99.0")
    upgraded = _export(tiny, tmp_path)
    assert upgraded.unchanged == 0 and len(upgraded.written) == len(first.written)
    index = json.loads((png_dir(tmp_path, "png-300", 20, 300) / INDEX).read_text())
    assert {e["drawn_by"] for e in index["faces"]} == {"pnp 99.0"}


def test_a_component_export_by_another_pnp_leaves_the_others_to_be_redrawn_later(tiny, tmp_path, monkeypatch):
    """--component redraws that component only: the others' images keep the older pnp's mark, so
    the next full export still redraws them."""
    older = png.drawn_by()
    _export(tiny, tmp_path)
    monkeypatch.setattr(png, "drawn_by", lambda: "pnp 99.0")
    _export(tiny, tmp_path, components=["heroes"])
    index = json.loads((png_dir(tmp_path, "png-300", 20, 300) / INDEX).read_text())
    assert {(e["component"], e["drawn_by"]) for e in index["faces"]} == {("heroes", "pnp 99.0"), ("coins", older)}
    full = _export(tiny, tmp_path)
    assert full.unchanged == sum(1 for e in index["faces"] if e["component"] == "heroes")


def test_the_stamp_names_the_packages_that_make_the_pixels_so_upgrading_one_redraws():
    """A Pillow or pypdfium2 upgrade changes the pixels (anti-aliasing, PNG encoding) as much as a pnp one."""
    from importlib.metadata import version

    installed = png.drawn_by()
    assert installed.startswith("pnp ") and f"pillow {version('pillow')}" in installed
    assert f"pypdfium2 {version('pypdfium2')}" in installed and f"reportlab {version('reportlab')}" in installed
    for upgraded in ("pillow", "pypdfium2"):
        assert png.drawn_by(lambda name: "99.0" if name == upgraded else version(name)) != installed
