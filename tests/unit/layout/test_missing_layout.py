"""A layout that is not found: the did-you-mean and the folders searched, as the user reads them."""
import pytest

from generator.errors import ContentError
from generator.layout.template import LayoutLoader, describe_search_path, layout_search_path


def make_game(root, names):
    for name in names:
        path = root / "layouts" / f"{name}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("boxes: []\n", encoding="utf-8")
    return root


def message(loader, name, field):
    with pytest.raises(ContentError) as info:
        loader.load(name, None, field)
    [problem] = info.value.problems
    return problem.message


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                       # a project without ./layouts
    return make_game(tmp_path / "mygame", ["my/hero", "my/coin", "my/hero-card-back"])


def loader_for(root):
    search = [root / "layouts"]                       # the game's folder only: no built-in layouts to match
    return LayoutLoader(search, root)


def test_a_missing_back_suggests_a_back_layout_not_the_front(game, tmp_path):
    text = message(loader_for(game), "my/hero-back", "heroes.back")
    assert text == ("layout 'my/hero-back' not found (did you mean 'my/hero-card-back'?); searched"
                    f" {game / 'layouts'} (the game's); the project's folder, ./layouts in {tmp_path},"
                    " does not exist")


def test_a_missing_back_with_no_back_layouts_says_there_is_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = make_game(tmp_path / "g", ["my/hero", "my/coin"])
    text = message(loader_for(root), "my/hero-back", "heroes.back")
    assert text.startswith("layout 'my/hero-back' not found (there is no back layout in my/ yet:"
                           " name one back or <type>-back); searched ")


def test_a_missing_back_far_from_every_back_lists_the_folders_backs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = make_game(tmp_path / "g", ["my/hero", "my/back", "my/coin-back"])
    text = message(loader_for(root), "my/xyzzy", "heroes.back")
    assert text.startswith("layout 'my/xyzzy' not found (back layouts in my/: my/back, my/coin-back); ")


def test_a_missing_front_suggests_a_front_layout(game):
    assert message(loader_for(game), "my/heroo", "heroes.layout").startswith(
        "layout 'my/heroo' not found (did you mean 'my/hero'?); searched ")


def test_the_search_path_names_the_games_the_projects_and_the_built_in_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "layouts").mkdir()
    root = make_game(tmp_path / "content" / "g", ["my/hero"])
    search = layout_search_path(root)
    built_in = search[-1]
    assert describe_search_path(search, root) == (
        f"{root / 'layouts'} (the game's), layouts (the project's), {built_in} (built in)")
