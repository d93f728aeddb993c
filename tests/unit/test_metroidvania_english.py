"""Metroidvania's English edition: every printed text has its English, which keeps the Japanese markup
(the same :icons:, the same number of **keywords**) and names each bold keyword by the one term the
content README's glossary gives it; no English face prints a Japanese word or its title twice; the English
edition validates clean (every text fits its box) with a rulebook of its own, chapter for chapter."""
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
GAME = REPO / "content" / "metroidvania"
NOT_PRINTED = {"schema.yaml", "rules.yaml", "balance.yaml"}
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
ICON = re.compile(r":([a-z_0-9]+):")
BOLD = re.compile(r"\*\*(.+?)\*\*")
PARENS = re.compile(r"[(（][^)）]*[)）]")


def _texts(node, path=""):
    """(path, value) of every text: a {ja, en, ...} mapping or a plain string."""
    if isinstance(node, dict):
        if "ja" in node and all(isinstance(v, str) for v in node.values()):
            yield path, node
            return
        for key, value in node.items():
            yield from _texts(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _texts(value, f"{path}[{i}]")
    elif isinstance(node, str):
        yield path, node


def _all_texts():
    for file in sorted(GAME.glob("*.yaml")):
        if file.name not in NOT_PRINTED:
            for path, text in _texts(yaml.safe_load(file.read_text(encoding="utf-8"))):
                yield f"{file.name}{path}", text


def _glossary() -> dict[str, set[str]]:
    """Japanese term -> its English term(s), lower case: the README's glossary table, and the passage names."""
    terms: dict[str, set[str]] = {}
    readme = (GAME / "README.md").read_text(encoding="utf-8")
    table = readme.split("## English glossary", 1)[1].split("\n\n")[2]
    for row in table.splitlines()[2:]:
        ja, en = (PARENS.sub("", cell).strip() for cell in row.strip("|").split("|"))
        ja_terms, en_terms = [t.strip() for t in ja.split(" / ")], [t.strip().lower() for t in en.split(" / ")]
        for i, term in enumerate(ja_terms):
            terms.setdefault(term, set()).add(en_terms[i] if len(en_terms) == len(ja_terms) else en_terms[0])
    edges = yaml.safe_load((GAME / "map.yaml").read_text(encoding="utf-8"))["edges"]
    for edge in edges:
        if isinstance(edge, dict) and isinstance(edge.get("name"), dict):
            terms.setdefault(edge["name"]["ja"], set()).add(edge["name"]["en"].lower())
    return terms


def test_every_printed_text_has_its_english():
    lacking = [path for path, text in _all_texts()
               if (isinstance(text, dict) and not text.get("en")) or (isinstance(text, str) and JAPANESE.search(text))]
    assert lacking == []


def test_the_english_keeps_the_icons_and_names_each_bold_keyword_by_the_glossary():
    glossary = _glossary()
    wrong = []
    for path, text in _all_texts():
        if not isinstance(text, dict):
            continue
        ja, en = text["ja"], text["en"]
        if Counter(ICON.findall(ja)) != Counter(ICON.findall(en)):
            wrong.append(f"{path}: icons {ICON.findall(ja)} -> {ICON.findall(en)}")
        ja_bold, en_bold = BOLD.findall(ja), BOLD.findall(en)
        if len(ja_bold) != len(en_bold):
            wrong.append(f"{path}: bold {ja_bold} -> {en_bold}")
            continue
        for term, english in zip(ja_bold, en_bold):
            said = english.lower()
            if said not in glossary.get(term, ()) and said.removesuffix("s") not in glossary.get(term, ()):
                wrong.append(f"{path}: **{term}** -> **{english}**, glossary {sorted(glossary.get(term, ()))}")
    assert wrong == []


@pytest.mark.parametrize("lang", ["en"])
def test_the_english_edition_validates_with_every_text_in_english_and_fitting(lang):
    proc = subprocess.run([sys.executable, "-m", "generator", "validate", "metroidvania", "--lang", lang,
                           "--no-balance"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == ""  # no text without English, no rulebook printing the Japanese chapters


def test_the_english_rulebook_has_every_chapter_of_the_japanese_one():
    book = GAME / "rulebook"
    assert sorted(p.name for p in (book / "en").glob("*.md")) == sorted(p.name for p in book.glob("*.md"))


def _printed_texts(ops):
    for op in ops:
        if op.kind == "text":
            yield op.id, op.payload.text
        yield from _printed_texts(getattr(op, "children", None) or ())


@pytest.fixture(scope="module")
def english_faces():
    """(component id, [(box id, printed text)]) of every face of the English print, backs included."""
    from generator.cards import CardBuilder
    from generator.content import load_game

    game = load_game(GAME, "en")
    builder = CardBuilder(game, "en")
    faces = []
    for component in game.components:
        if not component.layout:
            continue
        built = builder.component_faces(component, [])
        sides = [built.fronts[i] for i in range(len(component.records))]
        if built.backs is not None:
            sides += [built.backs[i] for i in range(len(component.records) if component.back_per_card else 1)]
        faces += [(component.id, list(_printed_texts(ops))) for ops in sides]
    return faces


def test_the_english_print_has_no_japanese_word_on_any_face(english_faces):
    japanese = {f"{component}: {box}: {text!r}" for component, texts in english_faces for box, text in texts
                if JAPANESE.search(text)}
    assert sorted(japanese) == []


def test_no_english_face_prints_its_title_twice(english_faces):
    """The Japanese status card names its stat in English beside the title; the English one must not."""
    twice = []
    for component, texts in english_faces:
        titles = {text.strip().lower() for box, text in texts if box == "title" and text.strip()}
        twice += [f"{component}: {box}: {text!r}" for box, text in texts
                  if box != "title" and text.strip().lower() in titles]
    assert twice == []
