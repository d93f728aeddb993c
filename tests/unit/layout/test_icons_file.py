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
        "icons.berry.shapes[0].r: a circle shape needs 'r'",  # (drawing it crashed: KeyError 'r')
        "icons.berry.shapes[0].radius: unknown key for a circle shape (cx, cy, fill, r, stroke, stroke_width)",
        "icons.berry.viewBox: unknown key (did you mean 'viewbox'?) (label, viewbox, shapes, doc)"]


def test_a_shape_value_the_painter_cannot_draw_is_a_problem_not_a_crash(tmp_path):
    """The mutation sweep's finds: a missing radius, a text, a list or a 1e30 for a number, a list for a colour."""
    assert messages_of(tmp_path, "{type: circle, cx: 50, cy: many}") == [
        "icons.berry.shapes[0].cy: expected a number (view-box units, at most 1e+06), got 'many'",
        "icons.berry.shapes[0].r: a circle shape needs 'r'"]
    assert messages_of(tmp_path, "{type: rect, x: 0, y: 0, w: [1, 2], h: 1.0e+30, fill: [1]}") == [
        "icons.berry.shapes[0].fill: expected a colour ('#rrggbb', a colour name, currentColor or none), got [1]",
        "icons.berry.shapes[0].h: expected a number (view-box units, at most 1e+06), got 1e+30",
        "icons.berry.shapes[0].w: expected a number (view-box units, at most 1e+06), got [1, 2]"]
    assert messages_of(tmp_path, "{type: polygon, points: [[0, 0], [1]]}") == [
        "icons.berry.shapes[0].points: expected a list of [x, y] numbers, got [[0, 0], [1]]"]
    assert messages_of(tmp_path, "{type: [circle]}") == [
        "icons.berry.shapes[0].type: unknown shape ['circle'] (did you mean 'circle'?); one of circle, rect, polygon, path, line, text"]
