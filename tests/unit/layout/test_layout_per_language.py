"""A layout's own words written per language ({ja: ..., en: ...}) print in the edition's language,
picked as a card's texts are: the edition's, else ja, else the first."""
import textwrap

from generator.cards import CardBuilder
from generator.content import load_game
from generator.errors import ContentError
from generator.layout.template import LayoutLoader

PROBE = """\
    vars:
      draft: {ja: "' 試案'", en: "' draft'"}
      only_ja: {ja: "'表'"}
    background: {ja: "#ffffff", en: "#eeeeee"}
    boxes:
      - {id: footer, type: text, x: 0, y: 0, w: 60mm, h: 5mm, size: 6pt, text: "{{ card.name }}{{ v.draft }}"}
      - {id: word, type: text, x: 0, y: 6mm, w: 60mm, h: 5mm, size: 6pt, text: {ja: 体力, en: Life, fr: Vie}}
      - id: group
        type: group
        boxes:
          - {id: inner, type: text, x: 0, y: 12mm, w: 60mm, h: 5mm, size: 6pt, text: "{{ v.only_ja }}"}
"""


def texts_of(tiny, lang):
    (tiny / "layouts" / "tiny" / "probe.yaml").write_text(textwrap.dedent(PROBE), encoding="utf-8")
    game_yaml = tiny / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("layout: tiny/hero", "layout: tiny/probe"))
    game = load_game(tiny, lang)
    problems = []
    faces = CardBuilder(game, lang).component_faces(game.component("heroes"), problems)
    ops = faces.fronts[0]
    assert problems == []
    texts = {op.id: op.payload.text for op in ops if op.kind == "text"}
    texts.update({child.id: child.payload.text for op in ops if op.kind == "group" for child in op.children})
    return texts, ops[0].style["fill"]


def test_each_edition_prints_its_own_word_and_falls_back_to_japanese(tiny):
    ja, ja_fill = texts_of(tiny, "ja")
    en, en_fill = texts_of(tiny, "en")
    assert ja["footer"].endswith(" 試案") and en["footer"].endswith(" draft")
    assert (ja["word"], en["word"]) == ("体力", "Life")
    assert ja["inner"] == en["inner"] == "表"  # no English word: the Japanese one, as a card's text
    assert (ja_fill, en_fill) != (None, None) and ja_fill != en_fill


def test_a_mapping_whose_keys_are_not_languages_is_located(tmp_path):
    (tmp_path / "my").mkdir()
    (tmp_path / "my" / "card.yaml").write_text(
        "vars:\n  word: {ja: 表, front: x}\nboxes:\n  - {id: a, type: text,\n     text: {en: Life, Ja: 体力}}\n",
        encoding="utf-8")
    try:
        LayoutLoader([tmp_path]).load("my/card")
    except ContentError as exc:
        found = [f"{p.location.line}: {p.field}: {p.message}" for p in exc.problems]
    else:
        found = []
    assert found == ["2: vars.word.front: a value written per language takes language codes as keys ({ja: ..., en: ...})",
                     "5: boxes[0].text.Ja: a value written per language takes language codes as keys ({ja: ..., en: ...})"]
