"""A layout file's own mistakes (not a card's) are located problems, never a crash."""
import pytest

from generator.errors import ContentError
from generator.layout.template import BOX_KEYS, LayoutLoader


def problems_of(tmp_path, text: str) -> list[str]:
    (tmp_path / "my").mkdir(exist_ok=True)
    (tmp_path / "my" / "card.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        LayoutLoader([tmp_path]).load("my/card")
    return [f"{p.location.line}: {p.field}: {p.message}" for p in info.value.problems]


def test_a_box_id_or_type_that_is_a_list_or_a_mapping_is_located(tmp_path):
    """The mutation sweep's finds: both crashed with 'unhashable type' while merging or checking boxes."""
    assert problems_of(tmp_path, "boxes:\n  - {id: a, type: rect}\n  - {id: [b], type: rect}\n"
                                 "  - {id: c, type: {a: 1}}\n") == [
        "3: boxes[1].id: expected a name, got ['b']",
        "4: boxes[2].type: unknown box type a dict; one of " + ", ".join(BOX_KEYS)]


def test_an_override_with_a_key_no_box_takes_is_located(tmp_path):
    """The mutation sweep's find: an override (an id, no type) was never checked, so its typo was ignored."""
    assert problems_of(tmp_path, "boxes:\n  - {id: game, when: 'false',\n     colour: red}\n") == [
        "3: boxes[0].colour: unknown key for a box (did you mean 'color'?)"]


def test_an_override_with_a_key_of_another_box_type_is_located_with_its_parents_type(tmp_path):
    """An override's type is its parent's: ``size`` is a text box's key, not a rectangle's."""
    (tmp_path / "my").mkdir()
    (tmp_path / "my" / "base.yaml").write_text("boxes:\n  - {id: frame, type: rect, x: 0, y: 0, w: 1mm, h: 1mm}\n",
                                               encoding="utf-8")
    assert problems_of(tmp_path, "extends: my/base\nboxes:\n  - {id: frame, fill: red,\n     size: 9pt}\n") == [
        "4: boxes[0].size: unknown key for a rect box (the type of the inherited box 'frame')"]


def test_a_key_close_to_none_is_told_the_keys_its_box_takes(tmp_path):
    assert problems_of(tmp_path, "boxes:\n  - {id: frame, type: rect, x: 0, y: 0, w: 1mm, h: 1mm, width: 1mm}\n") == [
        "2: boxes[0].width: unknown key for a rect box (a rect box takes dash, fill, r, stroke, stroke_width, and "
        "every box's id, type, x, y, w, h, dx, dy, rotate, opacity, when, repeat, filter, colour_code)"]
