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


def _print_shop_with_crop_marks(tiny):
    """The tiny game printing on a profile of its own whose pages are a print shop's with crop marks
    (no room for them: a mistake its schema cannot see); the line of ``crop_marks:`` in it."""
    import shutil
    from pathlib import Path

    profiles = tiny / "layouts/profiles"
    profiles.mkdir(parents=True)
    mine = profiles / "mine.yaml"
    shutil.copy(Path(__file__).resolve().parents[2] / "layouts/profiles/a4-portrait.yaml", mine)
    mine.write_text(mine.read_text().replace("print_shop: false", "print_shop: true"))
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("profile: a4-portrait", "profile: mine"))
    return mine, next(i for i, line in enumerate(mine.read_text().splitlines(), 1) if line.startswith("crop_marks:"))


def test_a_profile_mistake_alone_is_said_at_its_line_with_the_layout_and_fit_checks(tiny):
    """It was said unlocated (``error: crop_marks: ...``) and stopped validate before the faces were checked."""
    from generator.validate import validate_game

    mine, line = _print_shop_with_crop_marks(tiny)
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace(":guard:", ":gaurd:", 1))
    shown = [p.display() for p in validate_game(tiny, balance=False).problems]
    assert any(s.startswith(f"{mine}:{line}: crop_marks: print-shop pages are one card") for s in shown), shown
    assert any("unknown icon ':gaurd:'" in s for s in shown), shown


def test_a_profile_mistake_is_said_with_the_content_errors_of_a_load_that_fails(tiny):
    """The same check as a game that loads gets: the load that failed looked the profile's name up only."""
    import pytest

    from generator.content import load_game
    from generator.errors import ContentError

    mine, line = _print_shop_with_crop_marks(tiny)
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("life: 12", 'life: "twelve"', 1))
    with pytest.raises(ContentError) as failed:
        load_game(tiny)
    shown = [p.display() for p in failed.value.problems]
    assert any(s.startswith(f"{mine}:{line}: crop_marks: print-shop pages") for s in shown), shown
    assert any("heroes[0].life: expected an integer" in s for s in shown), shown


def test_a_text_a_box_prints_through_a_var_is_said_at_its_own_line(tiny):
    """Valheim's body box prints ``{{ v.body }}`` (a var reading card.text): its unknown icon was said at
    the record's first line as ``bosses[0]``, where a box naming ``card.text`` says ``bosses[0].text``
    at the text's line; both now say the text's."""
    from generator.validate import validate_game

    hero = tiny / "layouts/tiny/hero.yaml"
    hero.write_text(hero.read_text().replace('  accent: "{{ card.color }}"', '  accent: "{{ card.color }}"\n'
                                             '  body: "card.text"').replace('text: "{{ card.text }}"',
                                                                             'text: "{{ v.body }}"'))
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace(":guard:", ":gaurd:", 1))
    shown = [p.display() for p in validate_game(tiny, balance=False).problems]
    assert any(s.startswith(f"{heroes}:5: heroes[0].text: unknown icon ':gaurd:' in box 'body'") for s in shown), shown


def test_a_field_a_box_prints_inside_a_var_s_words_is_said_at_its_line(tiny):
    """Valheim's boss typeline prints ``'「' ~ card.title ~ '」'`` through a var: a title too long for it
    was said at the record's first line (``bosses[0]: overflows box 'typeline'``)."""
    from generator.validate import validate_game

    hero = tiny / "layouts/tiny/hero.yaml"
    hero.write_text(hero.read_text().replace('  accent: "{{ card.color }}"', '  accent: "{{ card.color }}"\n'
                                             '  named: "\'「\' ~ card.name ~ \'」\'"')
                    .replace('    h: 8mm\n    text: "{{ card.name }}"', '    h: 2mm\n    text: "{{ v.named }}"'))
    heroes = tiny / "heroes.yaml"
    shown = [p.display() for p in validate_game(tiny, balance=False).problems]
    assert any(s.startswith(f"{heroes}:2: heroes[0].name: overflows box 'title'") for s in shown), shown
