"""Rulebook chapters per language: an edition whose language has ``rulebook/<xx>/*.md`` prints those
chapters instead of the default ``rulebook/*.md``; without them it prints the default ones and says
so once."""
from generator.errors import ContentError
from generator.rulebook import compose

ENGLISH = """\
# Overview {#overview}

The game has {{ components.heroes.found }} hero cards; each starts with {{ rules.start_life }} life.

{{ component_table() }}
"""


def chapters(book) -> list[str]:
    return [h.title for h in book.headings if h.level == 1]


def edition_warnings(book) -> list[str]:
    return [p.message for p in book.warnings if "edition" in p.message or "not read" in p.message]


def test_an_edition_with_its_own_folder_prints_its_chapters_alone(tiny_book):
    (tiny_book / "rulebook/en").mkdir()
    (tiny_book / "rulebook/en/01-overview.md").write_text(ENGLISH, encoding="utf-8")
    english = compose(tiny_book, lang="en")
    assert chapters(english) == ["Overview"]  # the Japanese 準備 chapter is not mixed in
    assert edition_warnings(english) == []
    japanese = compose(tiny_book)  # the game's own language: the default chapters, en/ ignored
    assert chapters(japanese)[0] == "概要" and "Overview" not in chapters(japanese)
    assert edition_warnings(japanese) == []


def test_an_edition_without_chapters_prints_the_default_ones_and_says_so_once(tiny_book):
    (tiny_book / "rulebook/fr").mkdir()
    (tiny_book / "rulebook/fr/01-apercu.md").write_text("# Aperçu\n", encoding="utf-8")
    (tiny_book / "rulebook/en").mkdir()  # a folder without chapters is no edition of its own
    book = compose(tiny_book, lang="en")
    assert chapters(book) == chapters(compose(tiny_book))
    [warning] = [p for p in book.warnings if "edition" in p.message]
    assert warning.severity == "warning" and warning.location.path.endswith("rulebook")
    assert warning.message == ("the 'en' edition's rulebook prints the default chapters (rulebook/*.md, in 'ja'): "
                               "add rulebook/en/*.md to give it its own")


def test_a_rulebook_yaml_in_a_language_folder_is_not_read_and_said(tiny_book):
    (tiny_book / "rulebook/en").mkdir()
    (tiny_book / "rulebook/en/01-overview.md").write_text(ENGLISH, encoding="utf-8")
    (tiny_book / "rulebook/en/rulebook.yaml").write_text("subtitle: Rules\n", encoding="utf-8")
    assert edition_warnings(compose(tiny_book, lang="en")) == [
        "not read: rulebook/rulebook.yaml serves every edition (write its texts per language, {ja: ..., en: ...})"]


def test_a_problem_in_an_editions_chapter_is_located_in_that_file(tiny_book):
    (tiny_book / "rulebook/en").mkdir()
    (tiny_book / "rulebook/en/01-overview.md").write_text(ENGLISH + "\n{{ rules.missing }}\n", encoding="utf-8")
    try:
        compose(tiny_book, lang="en")
    except ContentError as exc:
        found = [(p.location.path.rsplit("rulebook/", 1)[-1], p.location.line) for p in exc.problems
                 if p.severity == "error"]
    else:
        found = []
    assert found == [("en/01-overview.md", 7)]


def _untranslated(book) -> list[tuple]:
    return [(p.location.path.rsplit("/", 2)[-2:], p.location.line, p.field, p.message) for p in book.warnings
            if "rulebook.yaml" in p.location.path and "no 'en' text" in p.message]


def test_an_edition_warns_once_about_the_rulebook_yaml_texts_it_prints_in_the_games_language(tiny_book):
    """Its Japanese keyword meanings and cover lines printed in the English rulebook in silence."""
    assert _untranslated(compose(tiny_book)) == []  # the game's own language
    english = compose(tiny_book, lang="en")
    assert _untranslated(english) == [(["rulebook", "rulebook.yaml"], 1, "subtitle",
                                       "no 'en' text (--lang en); it prints in 'ja' (and 4 more text(s) in this file)")]
    yaml_file = tiny_book / "rulebook/rulebook.yaml"
    yaml_file.write_text(yaml_file.read_text(encoding="utf-8").replace(
        "text: ラウンド終了まで、受けるダメージを減らす。",
        "text: {ja: ラウンド終了まで、受けるダメージを減らす。, en: Take less damage until the end of the round.}"),
        encoding="utf-8")
    english = compose(tiny_book, lang="en")
    assert [row["text"] for row in english.glossary_rows if row["icon"] == "guard"] == [
        "Take less damage until the end of the round."]
    assert _untranslated(english)[0][3].endswith("(and 3 more text(s) in this file)")
