"""A text that restates played fields: a located warning when one side changed since the last build alone."""
from pathlib import Path

import pytest

from generator.build import build_game
from generator.content import load_game
from generator.errors import ContentError
from generator.export.restates import drift_since_last_build
from generator.newgame import new_game


REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """The `pnp new` game with its card text declared to restate `cost`, built once into out/."""
    monkeypatch.chdir(tmp_path)  # its layouts are the project's (./layouts)
    new_game("fox", tmp_path, lang="en")
    schema = tmp_path / "content/fox/schema.yaml"
    schema.write_text(schema.read_text().replace("text:  {type: text}", "text:  {type: text, restates: [cost]}"))
    root = tmp_path / "content/fox"
    assert build_game(root, tmp_path / "out", validate=False).ok
    return root


def _edit(game: Path, old: str, new: str) -> None:
    cards = game / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert old in text
    cards.write_text(text.replace(old, new), encoding="utf-8")


def _drift(game: Path) -> list[str]:
    return [p.display() for p in drift_since_last_build(load_game(game), game.parents[1] / "out")]


def test_a_text_changed_alone_is_a_warning_at_its_line(game):
    _edit(game, "text: Draw a card.", "text: Draw two cards.")
    assert _drift(game) == ["content/fox/cards.yaml:3: warning: cards[1].text: changed since the last build, but cost"
                            " did not: the simulator plays that field, so check the card still does what its text"
                            " says (a build records it)"]


def test_a_restated_field_changed_alone_is_a_warning_at_the_text(game):
    _edit(game, "cost: 0", "cost: 2")
    [shown] = _drift(game)
    assert shown.startswith("content/fox/cards.yaml:3: warning: cards[1].text: cost changed since the last build, but"
                            " this text, which says it in words, did not: the printed card may still tell the old rule")


def test_both_sides_changed_together_or_neither_is_no_warning(game):
    assert _drift(game) == []
    _edit(game, "cost: 0, text: Draw a card.", "cost: 1, text: Draw two cards.")
    assert _drift(game) == []


def test_a_translation_added_is_no_drift_but_a_change_in_the_edition_language_is(game):
    # the fox game prints in English: adding the Japanese changes nothing this edition prints
    _edit(game, "text: Draw a card.", "text: {en: Draw a card., ja: カードを1枚引く。}")
    assert _drift(game) == []
    _edit(game, "en: Draw a card.", "en: Draw two cards.")
    assert [line.split(": warning: ")[1][:32] for line in _drift(game)] == ["cards[1].text: changed since the"]


def test_another_editions_lock_compares_nothing(game):
    _edit(game, "text: Draw a card.", "text: Draw two cards.")
    japanese = load_game(game, "ja")  # the lock in out/ is the English edition's
    assert drift_since_last_build(japanese, game.parents[1] / "out") == []
    assert _drift(game) != []


def test_a_lock_of_format_1_digested_every_language_and_compares_nothing(game):
    import json

    lock = game.parents[1] / "out" / "print.lock.json"
    data = json.loads(lock.read_text())
    data["format"] = 1
    lock.write_text(json.dumps(data))
    _edit(game, "text: Draw a card.", "text: Draw two cards.")
    assert _drift(game) == []


def test_a_build_records_the_new_pair_and_its_warning_is_shown_once(game):
    _edit(game, "text: Draw a card.", "text: Draw two cards.")
    result = build_game(game, game.parents[1] / "out", validate=False)
    assert [p.field for p in result.problems if p.severity == "warning"] == ["cards[1].text"]
    assert _drift(game) == []


def test_no_earlier_lock_or_an_unreadable_one_compares_nothing(game):
    _edit(game, "text: Draw a card.", "text: Draw two cards.")
    lock = game.parents[1] / "out" / "print.lock.json"
    lock.write_text("{not json")
    assert _drift(game) == []
    lock.unlink()
    assert _drift(game) == []


def test_restates_must_name_fields_of_the_same_record(tmp_path):
    new_game("fox", tmp_path, lang="en")
    schema = tmp_path / "content/fox/schema.yaml"
    schema.write_text(schema.read_text().replace("text:  {type: text}", "text:  {type: text, restates: [cots, text]}"))
    with pytest.raises(ContentError) as caught:
        load_game(tmp_path / "content/fox")
    shown = sorted(p.display() for p in caught.value.problems)
    assert shown == [f"{schema}:9: types.card.fields.text.restates: 'text' is this text itself: name the fields it puts"
                     " into words",
                     f"{schema}:9: types.card.fields.text.restates: no field 'cots' in this record (did you mean 'cost'?)"]


def test_nested_and_listed_texts_are_followed_to_their_own_line():
    """Fatal Fight's stage gimmicks: a text inside a list item is located at that item."""
    from generator.export.restates import restated_digests

    game = load_game(REPO / "content/fatal-fight")
    digests = restated_digests(game)
    assert "gimmicks[0].text" in digests["stages/s1_n1"] and "special.text" in digests["characters/tsubame"]
    stage = game.component("stages").records[0]
    where = game.field_at(stage, "gimmicks", 0, "text")
    assert "拾った小銭" in Path(where.path).read_text(encoding="utf-8").splitlines()[where.line - 1]


def test_a_text_inside_an_effect_variant_is_followed_too(tmp_path, monkeypatch):
    """A tagged union's variant may hold the text (``power: {op: draw, n: 1, says: ...}``): the schema took
    its ``restates``, and the drift check and the played view ignored it."""
    from generator.export.restates import played_views

    monkeypatch.chdir(tmp_path)
    new_game("fox", tmp_path, lang="en")
    root = tmp_path / "content/fox"
    schema = root / "schema.yaml"
    schema.write_text(schema.read_text().replace("      text:  {type: text}\n", (
        "      text:  {type: text}\n      power: {type: power, optional: true}\n"
        "  power:\n    type: tagged\n    tag: op\n    variants:\n"
        "      draw: {fields: {n: {type: int}, says: {type: text, restates: [n]}}}\n")))
    _edit(root, "text: Draw a card.}", "text: Draw a card., power: {op: draw, n: 1, says: Draw one.}}")
    game = load_game(root)
    assert played_views(game)[id(game.component("cards").records[1])]["power"] == {"op": "draw", "n": 1}
    assert build_game(root, tmp_path / "out", validate=False).ok
    _edit(root, "n: 1,", "n: 2,")
    assert _drift(root) == ["content/fox/cards.yaml:3: warning: cards[1].power.says: n changed since the last build,"
                            " but this text, which says it in words, did not: the printed card may still tell the old"
                            " rule (a build records it)"]


def test_restates_on_a_field_that_is_no_text_says_which_type_takes_it(tmp_path):
    new_game("fox", tmp_path, lang="en")
    schema = tmp_path / "content/fox/schema.yaml"
    schema.write_text(schema.read_text().replace("text:  {type: text}", "text:  {type: str, restates: [cost]}"))
    with pytest.raises(ContentError) as caught:
        load_game(tmp_path / "content/fox")
    assert [p.display() for p in caught.value.problems] == [
        f"{schema}:9: types.card.fields.text.restates: 'restates' is an option of type text, not of 'str'"]


def test_the_warning_names_the_restated_field_that_changed(game):
    schema = game / "schema.yaml"
    schema.write_text(schema.read_text().replace("restates: [cost]", "restates: [cost, name]"))
    assert build_game(game, game.parents[1] / "out", validate=False).ok
    _edit(game, "name: Offering", "name: Gift")
    [shown] = _drift(game)
    assert "cards[1].text: name changed since the last build, but this text" in shown and "cost" not in shown
