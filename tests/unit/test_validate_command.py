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
