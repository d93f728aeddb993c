"""The located problem format ``path:line: field.path: message`` and how problems are collected."""
from pathlib import Path

from generator.errors import ContentError, Location, Problem, sort_problems


def test_a_problem_reads_path_line_field_message(tmp_path):
    where = Location(str(tmp_path / "content" / "game" / "arts.yaml"), 12)
    assert Problem(where, "arts[3].ap", "expected an integer").display(tmp_path) == \
        "content/game/arts.yaml:12: arts[3].ap: expected an integer"


def test_line_0_is_the_whole_file_and_an_empty_field_is_left_out(tmp_path):
    where = Location(str(tmp_path / "game.yaml"), 0)
    assert Problem(where, "", "cannot read file: Permission denied").display(tmp_path) == \
        "game.yaml: cannot read file: Permission denied"


def test_a_warning_says_so_and_a_card_problem_names_the_card(tmp_path):
    layout = Location(str(tmp_path / "layouts" / "arts.yaml"), 7)
    card = Location(str(tmp_path / "content" / "arts.yaml"), 40)
    problem = Problem(layout, "boxes[2].text", "text overflows by 1 line", severity="warning",
                      card=card, card_field="arts[5].text")
    assert problem.display(tmp_path) == ("layouts/arts.yaml:7: warning: boxes[2].text: text overflows by 1 line"
                                         " (card content/arts.yaml:40 arts[5].text)")


def test_a_path_outside_the_working_directory_is_shown_as_given(tmp_path):
    elsewhere = Path("/nonexistent-pnp-test/game/rules.yaml")
    assert Location(str(elsewhere), 3).display(tmp_path) == f"{elsewhere}:3"


def test_problems_are_sorted_by_path_line_field_and_reported_once():
    a5 = Problem(Location("a.yaml", 5), "x", "m")
    a10 = Problem(Location("a.yaml", 10), "a", "m")
    b1 = Problem(Location("b.yaml", 1), "", "m")
    a5_b = Problem(Location("a.yaml", 5), "y", "m")
    # the same problem found twice (say by two checks of one value) is reported once
    assert sort_problems([b1, a10, a5_b, a5, Problem(Location("a.yaml", 5), "x", "m")]) == [a5, a5_b, a10, b1]
    error = ContentError([b1, a5, a5])
    assert error.problems == [a5, b1] and str(error) == "2 problem(s)"


def test_ctrl_c_ends_a_command_with_exit_code_130_and_one_line(monkeypatch, tiny):
    """Not click's "Aborted!" and 1, which a script cannot tell from "problems found"."""
    from click.testing import CliRunner

    from generator import validate
    from generator.cli import main

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(validate, "validate_game", interrupted)
    result = CliRunner().invoke(main, ["validate", str(tiny)])
    assert result.exit_code == 130
    assert result.output.strip().splitlines()[-1] == "interrupted (no output is left half-written)"
