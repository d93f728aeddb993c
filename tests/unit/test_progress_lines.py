"""In a pipe (a CI log), long work says how far it is in plain lines, at most every 15 s; -q silences them."""
import pytest

from generator import build, cli
from generator.cli import Reporter


@pytest.fixture
def clock(monkeypatch):
    """A clock that moves only when the test says: ``clock.now`` seconds."""
    class Clock:
        now = 0.0
    monkeypatch.setattr(cli._LineBar, "clock", staticmethod(lambda: Clock.now))
    return Clock


def test_a_line_at_most_every_15_seconds_and_none_for_shorter_work(clock, capsys):
    reporter = Reporter(0)
    reporter.task = "validate valheim"
    with reporter.progress(range(9600), "simulating", 9600) as bar:
        for now in (5, 14.9, 15, 20, 29, 31, 32):
            clock.now = now
            bar.update(400)
    assert capsys.readouterr().err == ("validate valheim: simulating 1200/9600\u2026\n"
                                       "validate valheim: simulating 2400/9600\u2026\n")


def test_a_bar_whose_total_grows_says_the_new_total_and_a_bar_iterated_counts_its_items(clock, capsys):
    with Reporter(0).progress(range(4), "rendering", 4) as bar:
        bar.length = 6
        clock.now = 16
        bar.update(1)
    with Reporter(0).progress(["a", "b"], "PNG faces") as bar:
        clock.now = 40
        assert list(bar) == ["a", "b"]
    assert capsys.readouterr().err == "rendering 1/6\u2026\nPNG faces 1/2\u2026\n"


def test_quiet_says_nothing(clock, capsys):
    with Reporter(-1).progress(range(3), "rendering", 3) as items:
        clock.now = 100
        assert list(items) == [0, 1, 2]
    assert capsys.readouterr().err == ""


def test_a_build_in_a_pipe_says_its_rendering_in_lines_with_no_carriage_return(tiny, tmp_path, clock, capsys):
    reporter = Reporter(0)
    reporter.task = "build tiny"
    ticks = iter(range(0, 10_000, 20))
    cli._LineBar.clock = staticmethod(lambda: next(ticks))  # 20 s between looks: a line at every page
    result = build.build_game(tiny, tmp_path / "out", validate=False, reporter=reporter)
    assert result.ok
    said = capsys.readouterr().err
    assert said.startswith("build tiny: rendering 1/") and "\r" not in said and said.endswith("\u2026\n")


def test_simulate_in_a_pipe_says_its_games_in_lines_and_nothing_with_q(in_repo, clock):
    from click.testing import CliRunner

    ticks = iter(range(0, 100_000, 20))
    clock_moves = staticmethod(lambda: next(ticks))  # 20 s between looks: a line at every look
    cli._LineBar.clock = clock_moves
    result = CliRunner().invoke(cli.main, ["simulate", "fatal-fight", "--players", "2", "--games", "8", "--json"])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("simulate fatal-fight: simulating ") and "/8\u2026\n" in result.stderr
    assert "\r" not in result.stderr and result.stdout.lstrip().startswith("{")
    quiet = CliRunner().invoke(cli.main, ["-q", "simulate", "fatal-fight", "--players", "2", "--games", "8", "--json"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
