"""Fatal Fight's English edition: a card's title is its English name, so no subtitle repeats it
(the Japanese edition prints `name_en` upper-case under the Japanese name)."""
import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.content.game import text_in

COMPONENTS = ["characters", "enemies", "supplies", "stages", "boards"]


def face_texts(in_repo, lang, component_id, first=4):
    """The text of every text box of each of the first records' front (and back), with the record."""
    game = load_game(in_repo / "content" / "fatal-fight", lang)
    component = game.component(component_id)
    faces = CardBuilder(game, lang).component_faces(component, [])
    for index, record in enumerate(component.records[:first]):
        ops = list(faces.fronts[index]) + list(faces.back_for(index) or [])
        texts = [op.payload.text for op in ops if op.kind == "text"]
        texts += [child.payload.text for op in ops if op.kind == "group" for child in op.children
                  if child.kind == "text"]
        yield record, texts


@pytest.mark.parametrize("component_id", COMPONENTS + ["arts"])
def test_the_english_edition_prints_each_name_once(in_repo, component_id):
    for record, texts in face_texts(in_repo, "en", component_id):
        assert text_in(record["name"], "en") in texts, "the English name is the title"
        upper = record["name_en"].upper()
        assert not [t for t in texts if upper in t], f"{upper} repeated under the title: {texts}"


def test_the_japanese_edition_keeps_its_english_subtitle(in_repo):
    """The control: the check above would see the subtitle if a layout still printed it."""
    for component_id in COMPONENTS:
        for record, texts in face_texts(in_repo, "ja", component_id, first=1):
            assert any(record["name_en"].upper() in t for t in texts), (component_id, texts)


def test_the_english_arts_back_does_not_repeat_the_characters_name(in_repo):
    [(record, texts)] = face_texts(in_repo, "en", "arts", first=1)
    character = record["character"].upper()
    assert "Bruno" in texts and "Arts card" in texts and not [t for t in texts if character in t]
