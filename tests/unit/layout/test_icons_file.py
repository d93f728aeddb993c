"""icons.yaml mistakes are located problems that say what was meant."""
import pytest

from generator.errors import ContentError
from generator.layout.icons import load_icons


def messages_of(tmp_path, shapes, extra=""):
    path = tmp_path / "icons.yaml"
    path.write_text(f"icons:\n  berry:\n    viewbox: [0, 0, 100, 100]\n{extra}    shapes:\n      - {shapes}\n")
    with pytest.raises(ContentError) as info:
        load_icons([path])
    return sorted(f"{p.field}: {p.message}" for p in info.value.problems)


def test_misspelt_icon_key_shape_and_shape_key_get_a_did_you_mean(tmp_path):
    assert messages_of(tmp_path, "{type: circel, cx: 50, cy: 50, r: 40}") == [
        "icons.berry.shapes[0].type: unknown shape 'circel' (did you mean 'circle'?); "
        "one of circle, rect, polygon, path, line, text"]
    assert messages_of(tmp_path, "{type: circle, cx: 50, cy: 50, radius: 40, fil: red}", "    viewBox: [0, 0, 1, 1]\n") == [
        "icons.berry.shapes[0].fil: unknown key for a circle shape (did you mean 'fill'?) "
        "(cx, cy, fill, r, stroke, stroke_width)",
        "icons.berry.shapes[0].radius: unknown key for a circle shape (cx, cy, fill, r, stroke, stroke_width)",
        "icons.berry.viewBox: unknown key (did you mean 'viewbox'?) (label, viewbox, shapes, doc)"]
