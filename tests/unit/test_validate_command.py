"""``pnp validate``'s options, in process."""
from click.testing import CliRunner

import generator.validate as validate_module
from generator.cli import main


def test_validate_sends_its_report_where_o_says(tiny, tmp_path, monkeypatch):
    """``-o DIR`` as in ``pnp build``: one game's report folder is DIR itself (a copy of a game
    validated from the repository no longer overwrites the shipped game's output/<game>/)."""
    asked = []
    real = validate_module.run_balance

    def recording(game, **kwargs):
        asked.append(kwargs.get("output_dir"))
        return real(game, **kwargs)
    monkeypatch.setattr(validate_module, "run_balance", recording)
    result = CliRunner().invoke(main, ["validate", str(tiny), "-o", str(tmp_path / "reports")])
    assert result.exit_code == 0, result.output
    assert asked == [tmp_path / "reports"]
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["validate", str(tiny)]).exit_code == 0
    assert asked[1].as_posix() == "output/tiny"      # the default, where `pnp build` looks for the verdict


def test_a_layout_not_found_is_not_also_a_game_that_names_no_layout(tmp_path, monkeypatch):
    from generator.newgame import new_game
    from generator.validate import validate_game

    new_game("fox", tmp_path, lang="en")
    monkeypatch.chdir(tmp_path)  # the project whose layouts/ the game's are in
    game_yaml = tmp_path / "content/fox/game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("layout: fox/front\n", "layout: fox/fornt\n"))
    shown = [p.display() for p in validate_game(tmp_path / "content/fox", balance=False).problems]
    assert any("layout 'fox/fornt' not found (did you mean 'fox/front'?)" in s for s in shown), shown
    assert not any("nothing to print" in s for s in shown), shown


def test_a_wrong_front_and_a_wrong_back_of_one_component_are_said_in_one_run(tmp_path, monkeypatch):
    from generator.newgame import new_game
    from generator.validate import validate_game

    new_game("fox", tmp_path, lang="en")
    monkeypatch.chdir(tmp_path)
    game_yaml = tmp_path / "content/fox/game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("layout: fox/front\n", "layout: fox/fornt\n")
                         .replace("back: fox/back\n", "back: fox/bakc\n"))
    shown = [p.display() for p in validate_game(tmp_path / "content/fox", balance=False).problems]
    assert any("layout 'fox/fornt' not found" in s for s in shown), shown
    assert any("layout 'fox/bakc' not found (did you mean 'fox/back'?)" in s for s in shown), shown  # was the next run's
