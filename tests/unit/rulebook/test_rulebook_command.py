"""``pnp rulebook``'s lines, in process."""
from click.testing import CliRunner

from generator.cli import main


def test_rulebook_says_which_game_and_where_first_as_build_and_export_do(tiny_book, tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["rulebook", str(tiny_book), "-o", str(out)])
    assert result.exit_code == 0, result.output
    # it printed 'wrote .../rulebook.pdf' alone: no game named, as `building content/x -> output/x` names it
    assert result.stderr.splitlines()[:2] == [f"writing the rulebook of {tiny_book} -> {out}",
                                              f"  wrote {out / 'rulebook.pdf'}"]
    assert CliRunner().invoke(main, ["-q", "rulebook", str(tiny_book), "-o", str(out)]).stderr == ""
