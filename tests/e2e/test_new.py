"""`pnp new`: a new game that validates and builds as it is, written whole or not at all."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from generator.newgame import NewGameError, new_game

REPO = Path(__file__).resolve().parents[2]


def pnp(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # this checkout's generator, run from a new project
    proc = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


def test_a_new_game_validates_and_builds_its_print_file_and_rulebook(tmp_path):
    made = pnp("new", "kitsune", "--title", "狐の宴", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "next: pnp validate kitsune, then pnp build kitsune" in made.stderr
    assert pnp("list", cwd=tmp_path).stdout.split()[0] == "kitsune"
    checked = pnp("validate", "kitsune", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "content/kitsune: ok (1 component, 3 pieces" in checked.stderr
    built = pnp("build", "kitsune", cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    out = tmp_path / "output" / "kitsune"
    assert {p.name for p in out.iterdir()} >= {"print-a4.pdf", "rulebook.pdf", "print.lock.json"}
    game = yaml.safe_load((tmp_path / "content/kitsune/game.yaml").read_text(encoding="utf-8"))
    assert game["title"] == "狐の宴" and game["lang"] == "ja"
    assert game["components"][0]["layout"] == "kitsune/front"


def test_an_english_game_gets_english_cards_and_any_title_stays_one_yaml_value(tmp_path):
    title = 'Fox "Feast": #1 {v2}'
    new_game("fox", tmp_path, title=title, lang="en")
    game = yaml.safe_load((tmp_path / "content/fox/game.yaml").read_text(encoding="utf-8"))
    assert game["title"] == title and game["lang"] == "en"
    cards = yaml.safe_load((tmp_path / "content/fox/cards.yaml").read_text(encoding="utf-8"))
    assert [c["name"] for c in cards] == ["Foxfire", "Offering"]
    assert "Overview" in (tmp_path / "content/fox/rulebook/01-overview.md").read_text(encoding="utf-8")
    built = pnp("build", "fox", "--no-validate", cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr


def test_an_existing_game_is_refused_and_left_as_it_was(tmp_path):
    new_game("kitsune", tmp_path)
    cards = tmp_path / "content/kitsune/cards.yaml"
    cards.write_text("- {id: mine, name: 私の, cost: 1, text: 消さないで}\n", encoding="utf-8")
    again = pnp("new", "kitsune", cwd=tmp_path)
    assert again.returncode == 1
    assert again.stderr.strip() == f"error: {Path('content/kitsune')} already exists; nothing written (pick another name)"
    assert "消さないで" in cards.read_text(encoding="utf-8")


def test_existing_layouts_alone_also_refuse_and_no_content_is_left_behind(tmp_path):
    (tmp_path / "layouts/kitsune").mkdir(parents=True)
    with pytest.raises(NewGameError, match="layouts/kitsune already exists"):
        new_game("kitsune", tmp_path)
    assert not (tmp_path / "content").exists() or not any((tmp_path / "content").iterdir())


def test_a_failed_write_leaves_neither_folder_nor_staging_behind(tmp_path, monkeypatch):
    from generator import newgame

    real = newgame._write_dir

    def fail_on_layouts(target, sources, fill):
        if target.parent.name == "layouts":
            raise OSError("disk full")
        real(target, sources, fill)
    monkeypatch.setattr(newgame, "_write_dir", fail_on_layouts)
    with pytest.raises(OSError):
        new_game("kitsune", tmp_path)
    assert list((tmp_path / "content").iterdir()) == []


@pytest.mark.parametrize("name", ["Kitsune", "_x", "a b", "../up", "狐"])
def test_a_name_that_is_no_folder_name_is_a_usage_error(tmp_path, name):
    proc = pnp("new", name, cwd=tmp_path)
    assert proc.returncode == 2
    assert f"Invalid value for 'NAME': {name!r}: a game's name is the name of its folders content/NAME/ and" \
           " layouts/NAME/: lower-case letters, digits, '-' and '_', first a letter or a digit;" in proc.stderr
    assert not (tmp_path / "content").exists()


@pytest.mark.parametrize("name, instead", [
    ("My Game", 'pnp new my-game --title "My Game"'),
    ("Kitsune", 'pnp new kitsune --title "Kitsune"'),
    ("狐", 'pnp new my-game --title "狐"'),
    ("Bob's $5 game", "pnp new bob-s-5-game --title 'Bob'\"'\"'s $5 game'"),
    ("_x", "pnp new x"),
])
def test_a_title_given_as_the_name_is_told_the_command_that_takes_it(tmp_path, name, instead):
    proc = pnp("new", name, cwd=tmp_path)
    assert proc.returncode == 2
    suggestion = f"; for a title, e.g.: {instead}\n" if "--title" in instead else f"; e.g. {instead}\n"
    assert proc.stderr.endswith(suggestion), proc.stderr
    assert not (tmp_path / "content").exists()


def test_the_title_suggested_makes_the_game_with_that_title(tmp_path):
    proc = pnp("new", "my-game", "--title", "My Game", "--lang", "en", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert yaml.safe_load((tmp_path / "content/my-game/game.yaml").read_text())["title"] == "My Game"


def test_new_help_gives_the_name_rules_and_examples(tmp_path):
    said = " ".join(pnp("new", "--help", cwd=tmp_path).stdout.split())
    assert "NAME names those folders and the game in every command (pnp build NAME): lower-case letters," \
           " digits, '-' and '_', first a letter or a digit. The title printed on the cards and the rulebook" \
           " is --title, any text." in said
    assert 'Examples: pnp new my-game --title "My Game" --lang en pnp new kitsune --title "狐の森"' in said


def test_an_english_games_print_pages_say_front_and_back_in_english(tmp_path):
    import pypdfium2 as pdfium

    new_game("fox", tmp_path, title="Fox Feast", lang="en")
    assert pnp("build", "fox", "--no-validate", cwd=tmp_path).returncode == 0
    pdf = pdfium.PdfDocument(str(tmp_path / "output/fox/print-a4.pdf"))
    labels = [pdf[i].get_textpage().get_text_range().replace("\r\n", " ") for i in range(len(pdf))]
    assert "Fox Feast · Cards · 1/2 · front" in labels[0] and "Fox Feast · Cards · 2/2 · back" in labels[1]
    assert not any("表" in text or "裏" in text for text in labels)


def test_the_comments_of_a_new_games_yaml_stay_in_one_column_whatever_its_name(tmp_path):
    """The name fills lines that carry a comment: a longer or shorter one pushed their comment out of line."""
    new_game("a-much-longer-name-than-the-placeholder", tmp_path)
    lines = (tmp_path / "content/a-much-longer-name-than-the-placeholder/game.yaml").read_text().splitlines()
    trailing = [line for line in lines if line.startswith("    ") and " # " in line.strip()]  # a component's keys
    assert len(trailing) >= 3 and len({line.index(" # ") for line in trailing}) == 1, lines


def test_a_game_in_another_language_gets_the_english_sample_and_its_own_lang(tmp_path):
    made = pnp("new", "renard", "--lang", "fr", "--title", "Festin du renard", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    game = yaml.safe_load((tmp_path / "content/renard/game.yaml").read_text(encoding="utf-8"))
    assert game["lang"] == "fr"
    assert "Foxfire" in (tmp_path / "content/renard/cards.yaml").read_text(encoding="utf-8")
    bad = pnp("new", "x", "--lang", "French", cwd=tmp_path)
    assert bad.returncode == 2 and "two lower-case letters" in bad.stderr


def test_a_new_icon_not_yet_drawn_says_where_icons_are_defined_and_which_there_are(tmp_path):
    new_game("kitsune", tmp_path)
    cards = tmp_path / "content/kitsune/cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(":fire:", ":blade:"), encoding="utf-8")
    checked = pnp("validate", "kitsune", "--no-balance", cwd=tmp_path)
    assert checked.returncode == 1
    said = ("unknown icon ':blade:' in box 'text' (define it under icons: in "
            f"{Path('content/kitsune/icons.yaml')}, docs/layouts.md \"Icons\"; the icons known: fire)")
    assert said in checked.stdout, checked.stdout


def test_simulating_a_game_without_a_simulator_says_how_to_give_it_one(tmp_path):
    new_game("kitsune", tmp_path)
    run = pnp("simulate", "kitsune", cwd=tmp_path)
    assert run.returncode != 0 and run.stderr.rstrip().endswith(
        "no simulator for this game yet (kitsune): a game's own is a sim.py in its folder, named by balance.yaml's "
        "engine: sim.py; pnp new NAME --simulator writes a sample to start from (docs/simulator.md)"), run.stderr
