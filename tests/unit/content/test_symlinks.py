"""Files of a game that are symlinks out of the game directory are refused like '../' paths;
links that stay inside the game, and the shared layouts/ the tool ships, stay fine."""
import shutil
from pathlib import Path

import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.errors import ContentError
from generator.profiles import game_profile
from generator.validate import check_content

LEAVES = "leaves the game directory (a link to a file outside it)"


def problems_of(func, *args):
    with pytest.raises(ContentError) as info:
        func(*args)
    return [(p.location.path.split("/")[-1], p.location.line, p.field, p.message) for p in info.value.problems]


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def link_out(tiny, outside, name):
    """Move the game's ``name`` outside the game and leave a symlink to it in its place."""
    target = outside / name.replace("/", "_")
    shutil.move(tiny / name, target)
    (tiny / name).symlink_to(target)


def test_a_record_file_linking_out_is_refused_at_its_file_key(tiny, outside):
    link_out(tiny, outside, "coins.yaml")
    assert problems_of(load_game, tiny) == [("game.yaml", 16, "components[1].file", f"'coins.yaml' {LEAVES}")]


def test_a_glob_match_and_a_data_file_linking_out_are_refused(tiny, outside):
    link_out(tiny, outside, "coins.yaml")
    link_out(tiny, outside, "rules.yaml")
    text = (tiny / "game.yaml").read_text().replace("file: coins.yaml", "file: coin*.yaml")
    (tiny / "game.yaml").write_text(text)
    found = problems_of(load_game, tiny)
    assert ("game.yaml", 16, "components[1].file", f"'coins.yaml' {LEAVES}") in found
    assert ("game.yaml", 23, "data[0].file", f"'rules.yaml' {LEAVES}") in found


def test_game_and_schema_files_linking_out_are_refused(tiny, outside):
    link_out(tiny, outside, "schema.yaml")
    assert problems_of(load_game, tiny) == [("tiny", 0, "", f"'schema.yaml' {LEAVES}")]
    link_out(tiny, outside, "game.yaml")
    assert problems_of(load_game, tiny) == [("tiny", 0, "", f"'game.yaml' {LEAVES}")]


def test_a_link_inside_the_game_stays_fine(tiny):
    (tiny / "data").mkdir()
    shutil.move(tiny / "coins.yaml", tiny / "data" / "coins.yaml")
    (tiny / "coins.yaml").symlink_to("data/coins.yaml")
    assert load_game(tiny).component("coins").found == 6


def test_a_layout_or_icons_file_of_the_game_linking_out_is_refused(tiny, outside):
    link_out(tiny, outside, "layouts/tiny/hero.yaml")
    game, _cards, problems = check_content(tiny)
    found = [(p.location.path.split("/")[-1], p.location.line, p.field, p.message) for p in problems]
    assert ("game.yaml", 11, "heroes.layout", f"layout 'tiny/hero' (layouts/tiny/hero.yaml) {LEAVES}") in found
    link_out(tiny, outside, "icons.yaml")
    assert problems_of(CardBuilder, game) == [("tiny", 0, "", f"'icons.yaml' {LEAVES}")]


def test_a_profile_of_the_game_linking_out_is_refused_but_shared_ones_are_read(tiny, outside, in_repo):
    game = load_game(tiny)
    assert game_profile(game).paper_name == "a4"  # the repository's layouts/profiles (shared)
    (tiny / "layouts" / "profiles").mkdir()
    shutil.copy(in_repo / "layouts" / "profiles" / "a4-portrait.yaml", outside / "a4-portrait.yaml")
    (tiny / "layouts" / "profiles" / "a4-portrait.yaml").symlink_to(outside / "a4-portrait.yaml")
    assert problems_of(game_profile, game) == [
        ("game.yaml", 3, "print.profile", f"sheet profile 'a4-portrait' (layouts/profiles/a4-portrait.yaml) {LEAVES}")]


def test_a_font_linking_out_is_refused(tiny, outside):
    from generator.fonts import default_font_path

    (tiny / "font.ttf").symlink_to(default_font_path())
    text = (tiny / "game.yaml").read_text().replace("version:", "fonts: {regular: font.ttf}\nversion:")
    (tiny / "game.yaml").write_text(text)
    assert problems_of(load_game, tiny) == [("game.yaml", 2, "fonts.regular", "'font.ttf' leaves the game directory")]


def test_a_rulebook_source_linking_out_is_refused(tiny, outside):
    from generator.rulebook import compose

    shutil.copytree(Path(__file__).parents[1] / "rulebook" / "data" / "rulebook", tiny / "rulebook")
    link_out(tiny, outside, "rulebook/02-setup.md")
    assert ("tiny", 0, "", f"'rulebook/02-setup.md' {LEAVES}") in problems_of(compose, tiny)
    link_out(tiny, outside, "rulebook/rulebook.yaml")
    assert problems_of(compose, tiny) == [("tiny", 0, "", f"'rulebook/rulebook.yaml' {LEAVES}")]
