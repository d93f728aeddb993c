"""docs/rulebook-format.md is true: its examples are built as a rulebook of the tiny test game.

The Markdown blocks of the doc that start with ``<!-- rulebook/<file>.md -->`` and its
``# rulebook/rulebook.yaml`` block are written into a copy of tests/data/tiny; the rulebook must
compose without any problem, every ``<!-- prints: ... -->`` line must be in the PDF text, every
documented function and note type must be used by the examples, and every row of the "What is
checked" table must give its message at the line written.
"""
import io
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.errors import ContentError
from generator.rulebook import compose

REPO = Path(__file__).resolve().parents[3]
DOC = REPO / "docs" / "rulebook-format.md"
TINY = REPO / "tests" / "data" / "tiny"
FENCE = re.compile(r"^(```|~~~)(\w*)\n(.*?)^\1$", re.M | re.S)


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def example_files() -> dict:
    """file name -> text of every example block that names a rulebook file."""
    files = {}
    for m in FENCE.finditer(doc_text()):
        body = m.group(3)
        first = body.split("\n", 1)[0]
        named = re.fullmatch(r"<!-- rulebook/([\w-]+\.md) -->", first) or \
            re.fullmatch(r"# rulebook/(rulebook\.yaml)", first)
        if named:
            files[named.group(1)] = body
    return files


def make_game(target: Path, files: dict) -> Path:
    shutil.copytree(TINY, target)
    (target / "rulebook").mkdir()
    for name, text in files.items():
        (target / "rulebook" / name).write_text(text, encoding="utf-8")
    return target


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def doc_book(tmp_path_factory):
    files = example_files()
    game = make_game(tmp_path_factory.mktemp("doc") / "tiny", files)
    return files, compose(game)


def test_the_doc_has_the_example_files():
    assert sorted(example_files()) == ["01-overview.md", "02-setup.md", "03-components.md", "04-round.md",
                                       "rulebook.yaml"]


def test_examples_compose_without_any_problem(doc_book):
    _files, book = doc_book
    assert book.warnings == []


def test_every_prints_line_is_in_the_pdf(doc_book):
    files, book = doc_book
    pdf = pdfium.PdfDocument(io.BytesIO(book.pdf))
    text = flat("".join(pdf[i].get_textpage().get_text_bounded() for i in range(len(pdf))))
    expected = [e for body in files.values() for e in re.findall(r"<!-- prints: (.*?) -->", body)]
    assert len(expected) >= 15
    missing = [e for e in expected if flat(e) not in text]
    assert not missing, missing


def test_headings_anchors_and_glossary_are_as_documented(doc_book):
    _files, book = doc_book
    numbered = {h.title: (h.number, h.key) for h in book.headings}
    assert numbered["概要"] == ("1", "h-overview")
    assert numbered["手番"] == ("4.1", "h-turn")
    assert numbered["手番の流れ"][0] == ""                 # level 3: not numbered
    assert numbered["付録"] == ("", "h-appendix")           # {#id -}: anchor and no number
    assert [(r["icon"], r["label"], r["cards"]) for r in book.glossary_rows] == \
        [("guard", "ガード", 2), ("star", "スター", 3)]
    assert [r["id"] for r in book.component_rows] == ["heroes", "coins"]


def test_every_documented_function_and_note_is_used_by_the_examples():
    doc = doc_text()
    sources = "\n".join(example_files().values())
    functions = set(re.findall(r"^\| `(\w+)\(", doc, re.M))
    assert functions == {"count", "records", "record", "icon", "icon_label", "card", "cards",
                         "component_table", "glossary", "icon_legend"}
    for name in functions:
        assert f"{name}(" in sources, name
    notes = re.findall(r"`(NOTE|TIP|IMPORTANT|WARNING|CAUTION|PROPOSAL|EXAMPLE|FAQ)` \(", doc)
    from generator.rulebook.flowables import BOX_KINDS
    assert sorted(n.lower() for n in notes) == sorted(BOX_KINDS)
    for kind in notes:
        assert f"> [!{kind}]" in sources, kind
    for value in ("game.title", "components.heroes.found", "components.heroes.name", "total_cards",
                  "rules.start_life", "rules.get(", "data.heroes", "size_mm", "where=", "caption=",
                  "width=", "limit=", "exclude=", "columns=", "{#", "{#appendix -}", "](#", "](https://",
                  "**", "*重要*", "`コスト`", "<br>", "---", "```", "<!--", "![](card:", "{% for"):
        assert value in sources, value


def error_rows() -> list:
    doc = doc_text()
    section = doc[doc.index("| you write | message |"):]
    rows = []
    for line in section.split("\n")[2:]:
        if not line.startswith("| `"):
            break
        m = re.fullmatch(r"\| `(.+?)`( \(warning\))? \| `(.+)` \|", line)
        assert m, line
        rows.append((m.group(1).replace("\\|", "|"), bool(m.group(2)), m.group(3)))  # a table cell's pipe is \|
    return rows


def test_the_error_table_is_complete():
    assert len(error_rows()) >= 20


@pytest.mark.parametrize("source, warning, message", error_rows())
def test_each_documented_message(tmp_path, source, warning, message):
    game = make_game(tmp_path / "tiny", {"01-x.md": "# 見出し\n\n" + source + "\n\n## 準備 {#setup}\n"})
    try:
        problems = compose(game).warnings
    except ContentError as exc:
        problems = exc.problems
    found = [(p.location.line, p.severity, p.message) for p in problems if p.location.path.endswith("01-x.md")]
    assert any(line == 3 and (severity == "warning") == warning and message in text
               for line, severity, text in found), found


def test_documented_rulebook_yaml_problems_are_located(tmp_path):
    files = {"01-x.md": "# 見出し\n", "rulebook.yaml": "subtitle: x\ntagline: t\ncover:\n"
             "  - heroes/knight\n  - heroes/paladin\n"}
    game = make_game(tmp_path / "tiny", files)
    with pytest.raises(ContentError) as info:
        compose(game)
    [p] = info.value.problems
    shown = f"content/mygame/rulebook/rulebook.yaml:{p.location.line}: {p.field}: {p.message}"
    assert p.location.path.endswith("rulebook.yaml")
    assert shown in doc_text()


def test_keyword_warnings_are_as_documented(tmp_path):
    files = {"01-x.md": "# 見出し\n\n{{ glossary() }}\n", "rulebook.yaml": "keywords:\n  bogus: {text: x}\n"}
    book = compose(make_game(tmp_path / "tiny", files))
    messages = {(p.field, p.message) for p in book.warnings}
    assert ("", "the cards use the icon 'guard' but rulebook.yaml has no keywords.guard.text") in messages
    assert ("keywords.bogus", "no card shows this icon: it is left out of the glossary") in messages
    doc = flat(doc_text())
    assert flat("the cards use the icon 'X' but rulebook.yaml has no keywords.X.text") in doc
    assert flat("no card shows this icon: it is left out of the glossary") in doc


def test_readme_and_content_format_link_the_doc():
    assert "(docs/rulebook-format.md)" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "(rulebook-format.md)" in (REPO / "docs" / "content-format.md").read_text(encoding="utf-8")
