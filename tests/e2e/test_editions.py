"""Editions in another language: `--lang XX` prints a game's {ja: ..., en: ...} texts in XX, into
output/<game>/<XX>/, with the game's own balance verdict."""
import json

import pypdfium2 as pdfium
import pytest

from generator.newgame import new_game

from test_new import pnp

# `pnp new --simulator`'s cards, in two languages: one name and one text without English, and a plain
# string (every edition prints it as written: another edition than the game's warns about it)
CARDS = """\
- {id: inari, name: {ja: 稲荷寿司, en: Inari}, count: 4, cost: 0, power: 1, text: {ja: お供え。, en: An offering.}}
- {id: kitsunebi, name: {ja: 狐火, en: Foxfire}, count: 4, cost: 1, power: 2, text: {ja: 青い火。, en: A blue fire.}}
- {id: chochin, name: {ja: 提灯, en: Lantern}, count: 3, cost: 2, power: 3, text: {ja: 祭りの明かり。}}
- {id: hanabi, name: {ja: 花火}, count: 1, cost: 3, power: 5, text: 夜空の花。}
"""


@pytest.fixture
def project(tmp_path):
    new_game("fox", tmp_path, lang="ja", simulator=True)
    (tmp_path / "content/fox/cards.yaml").write_text(CARDS, encoding="utf-8")
    return tmp_path


def pdf_text(path) -> str:
    return "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(path))


def test_each_edition_prints_its_words_into_its_own_folder_with_the_games_verdict(project):
    ja = pnp("build", "fox", cwd=project)
    assert ja.returncode == 0, ja.stdout + ja.stderr
    en = pnp("build", "fox", "--lang", "en", cwd=project)
    assert en.returncode == 0, en.stdout + en.stderr
    assert "-> output/fox/en" in en.stderr
    assert "balance passed: kept verdict" in en.stderr  # the texts are no part of the played game
    out = project / "output/fox"
    ja_cards, en_cards = pdf_text(out / "print-a4.pdf"), pdf_text(out / "en/print-a4.pdf")
    assert {"狐火", "青い火。", "夜空の花。"} <= set(ja_cards.split()) and "Foxfire" not in ja_cards
    assert "Foxfire" in en_cards and "A blue fire." in en_cards and "狐火" not in en_cards
    assert "花火" in en_cards and "祭りの明かり。" in en_cards and "夜空の花。" in en_cards  # no English: as written
    assert "目次" in pdf_text(out / "rulebook.pdf") and "Contents" in pdf_text(out / "en/rulebook.pdf")
    lock = json.loads((out / "en/print.lock.json").read_text(encoding="utf-8"))
    assert lock["cards"]["cards/kitsunebi"]["name"] == "Foxfire"
    assert sorted(p.name for p in (out / "en").iterdir()) == [".source", "print-a4.pdf", "print.lock.json", "rulebook.pdf"]


def test_validate_counts_per_file_the_texts_the_edition_lacks_and_lists_them_when_verbose(project):
    plain = pnp("validate", "fox", "--no-balance", cwd=project)
    assert plain.returncode == 0 and "warning" not in plain.stdout, plain.stdout
    en = pnp("validate", "fox", "--lang", "en", "--no-balance", "-v", cwd=project)
    assert en.returncode == 0, en.stdout + en.stderr
    assert en.stdout.splitlines() == ["content/fox/cards.yaml:3: warning: cards[2].text: no 'en' text (--lang en); "
                                      "it prints in 'ja' (and 2 more text(s) in this file)",
                                      "content/fox/rulebook: warning: the 'en' edition's rulebook prints the default "
                                      "chapters (rulebook/*.md, in 'ja'): add rulebook/en/*.md to give it its own"]
    assert "content/fox/cards.yaml:3: cards[2].text: only ja" in en.stderr.splitlines()
    assert "content/fox/cards.yaml:4: cards[3].name: only ja" in en.stderr.splitlines()
    assert "content/fox/cards.yaml:4: cards[3].text: only ja" in en.stderr.splitlines()  # plain: printed as written


def test_an_edition_with_chapters_of_its_own_prints_them_and_the_game_its_default_ones(project):
    english = project / "content/fox/rulebook/en"
    english.mkdir()
    (english / "01-overview.md").write_text("# Overview\n\nThe fox plays {{ total_cards }} cards.\n", encoding="utf-8")
    en = pnp("validate", "fox", "--lang", "en", "--no-balance", cwd=project)
    assert en.returncode == 0 and "rulebook" not in en.stdout, en.stdout
    assert pnp("rulebook", "fox", "--lang", "en", cwd=project).returncode == 0
    assert pnp("rulebook", "fox", cwd=project).returncode == 0
    en_book, ja_book = pdf_text(project / "output/fox/en/rulebook.pdf"), pdf_text(project / "output/fox/rulebook.pdf")
    assert "The fox plays 12 cards." in en_book and "遊びかた" not in en_book
    assert "遊びかた" in ja_book and "The fox plays" not in ja_book


def test_a_text_too_long_in_english_fails_the_english_edition_alone(project):
    cards = project / "content/fox/cards.yaml"
    cards.write_text(CARDS.replace("en: A blue fire.", "en: " + "A blue fire lights the way. " * 30), encoding="utf-8")
    assert pnp("validate", "fox", "--no-balance", cwd=project).returncode == 0
    en = pnp("validate", "fox", "--lang", "en", "--no-balance", cwd=project)
    assert en.returncode == 1
    assert "content/fox/cards.yaml:2: cards[1].text: overflows box 'text' of layouts/fox/front.yaml" in en.stdout
    built = pnp("build", "fox", "--lang", "en", "--no-balance", cwd=project)
    assert built.returncode == 1 and not (project / "output/fox/en").exists()


@pytest.mark.parametrize("command", [["build"], ["validate"], ["rulebook"], ["export", "--png"]])
def test_a_language_is_two_lower_case_letters(project, command):
    for bad in ("EN", "eng"):
        proc = pnp(*command, "fox", "--lang", bad, cwd=project)
        assert proc.returncode == 2 and "two lower-case letters" in proc.stderr, proc.stderr


def test_output_wins_over_the_editions_folder_and_the_games_own_language_needs_none(project):
    built = pnp("build", "fox", "--lang", "en", "--no-balance", "-o", "elsewhere", cwd=project)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (project / "elsewhere/print-a4.pdf").is_file() and not (project / "elsewhere/en").exists()
    assert "Foxfire" in pdf_text(project / "elsewhere/print-a4.pdf")
    assert pnp("rulebook", "fox", "--lang", "ja", cwd=project).returncode == 0
    assert (project / "output/fox/rulebook.pdf").is_file() and not (project / "output/fox/ja").exists()
    exported = pnp("export", "fox", "--calibration", "--lang", "en", cwd=project)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert "Duplex calibration" in pdf_text(project / "output/fox/en/calibration-a4-portrait.pdf")


def test_the_manifest_counts_the_texts_of_each_language(project):
    proc = pnp("manifest", "fox", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    # the title and the four texts of each card, game.yaml's component name {ja, en}
    assert json.loads(proc.stdout)["texts"] == {"count": 10, "plain": 2, "languages": {"ja": 8, "en": 6}}
    assert "texts: 10 (2 plain, printed as written; per language: ja 8, en 6)" in pnp("manifest", "fox", cwd=project).stdout


def test_the_edition_is_set_once_where_the_game_is_loaded(tiny):
    """``load_game(root, lang)`` stands for game.yaml's lang: the title, the cards and the warnings follow."""
    from generator.cards import CardBuilder
    from generator.content import load_game

    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("name: 盗賊", "name: {ja: 盗賊}"), encoding="utf-8")
    game = load_game(tiny, "en")
    assert (game.meta["lang"], game.title, CardBuilder(game).lang) == ("en", "Tiny Game", "en")
    assert [(w.location.display(tiny), w.field, w.message) for w in game.warnings] == [
        ("game.yaml:6", "components[0].name", "no 'en' text (--lang en); it prints in 'ja'"),  # plain: as written
        ("heroes.yaml:2", "heroes[0].name", "no 'en' text (--lang en); it prints in 'ja' (and 3 more text(s) in this file)")]
    own = load_game(tiny)
    assert (own.meta["lang"], own.title, own.warnings) == ("ja", "ちいさなゲーム", [])
