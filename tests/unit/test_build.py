"""``build_game``: what runs, and what is written, when a build fails."""
from pathlib import Path

import pytest

from generator import build


def test_a_face_problem_fails_the_build_before_the_balance_simulation_runs(tiny, tmp_path, monkeypatch):
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("name: 盗賊", "name: 盗賊\U0001F600"))
    monkeypatch.setattr(build, "run_balance", lambda *a, **k: pytest.fail("the simulation ran"))
    out = tmp_path / "out"
    result = build.build_game(tiny, out)
    assert not result.ok
    assert any("the font has no glyph for" in p.message for p in result.problems)
    assert not out.exists(), "no balance report (nor anything else) for a build that prints nothing"


def test_a_rulebook_reference_to_a_removed_card_fails_the_build_before_the_simulation_runs(tiny, tmp_path,
                                                                                             monkeypatch):
    import shutil

    from generator.errors import ProblemsError

    shutil.copytree(Path(__file__).parent / "rulebook" / "data" / "rulebook", tiny / "rulebook")
    chapter = tiny / "rulebook" / "01-overview.md"
    chapter.write_text(chapter.read_text() + '\n{{ cards("heroes", "paladin") }}\n')
    monkeypatch.setattr(build, "run_balance", lambda *a, **k: pytest.fail("the simulation ran"))
    out = tmp_path / "out"
    with pytest.raises(ProblemsError) as failed:
        build.build_game(tiny, out)
    assert any("no card 'paladin'" in p.message for p in failed.value.problems)
    assert not out.exists(), "no balance report (nor anything else) for a build that prints nothing"


def test_a_failed_balance_verdict_says_how_to_print_anyway(tiny, tmp_path, monkeypatch):
    from generator.sim.verdict import BalanceResult

    monkeypatch.setattr(build, "run_balance", lambda *a, **k: BalanceResult(passed=False))
    result = build.build_game(tiny, tmp_path / "out")
    assert not result.written and any(f"`pnp build {tiny} --no-balance` prints anyway" in note
                                         for note in result.notes)


@pytest.mark.parametrize("failing", ["rulebook", "boards", "errata"])
def test_a_failure_while_rendering_leaves_every_earlier_output_byte_identical(tiny, tmp_path, monkeypatch, failing):
    """Every file is rendered before any is written: a step failing after others were rendered
    (the rulebook after the print PDF, the boards after the rulebook, the errata after all of
    them) leaves the previous build's whole set, not new files beside old ones."""
    import shutil

    from generator import rulebook
    from generator.export import errata

    shutil.copytree(Path(__file__).parent / "rulebook" / "data" / "rulebook", tiny / "rulebook")
    out = tmp_path / "out"
    assert build.build_game(tiny, out, validate=False).ok
    old_lock = tmp_path / "old.lock.json"
    shutil.copy(out / "print.lock.json", old_lock)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert {"rulebook.pdf", "print-a4.pdf", "print.lock.json"} <= set(before)
    game_yaml = tiny / "game.yaml"  # a new title changes every file
    game_yaml.write_text(game_yaml.read_text().replace("ちいさなゲーム", "ちいさなゲーム 第2版"))

    def fail(*args, **kwargs):
        raise RuntimeError(f"{failing} failed")
    if failing == "rulebook":
        monkeypatch.setattr(rulebook, "compose", fail)
    elif failing == "boards":
        monkeypatch.setattr(build, "render_full_size_boards", fail)
    else:
        monkeypatch.setattr(errata, "errata_pdf", fail)
    with pytest.raises(RuntimeError, match=f"{failing} failed"):
        build.build_game(tiny, out, validate=False, changed_since=old_lock)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    monkeypatch.undo()
    result = build.build_game(tiny, out, validate=False, changed_since=old_lock)
    assert [p.name for p in result.written] == ["rulebook.pdf", "print-a4.pdf", "errata.pdf", "print.lock.json"]
    assert all((out / name).read_bytes() != data for name, data in before.items()
               if name != ".source")  # (the game folder built, the same)


class _Bars:
    """A reporter whose progress bars record what they are told (as on a terminal)."""

    def __init__(self):
        self.bars = []

    def progress(self, iterable, label, length=None):
        from contextlib import contextmanager

        bar = {"label": label, "length": length, "updates": []}
        self.bars.append(bar)

        class Bar:
            def update(self, n):
                bar["updates"].append(n)

        @contextmanager
        def opened():
            yield Bar()
        return opened()


def test_rendering_the_print_sheets_advances_a_progress_bar_per_page(tiny, tmp_path):
    import pypdfium2 as pdfium

    reporter = _Bars()
    result = build.build_game(tiny, tmp_path / "out", validate=False, reporter=reporter)
    assert result.ok
    pages = len(pdfium.PdfDocument(str(tmp_path / "out" / "print-a4.pdf")))
    [bar] = reporter.bars
    assert bar["label"] == "rendering" and bar["length"] == pages
    assert bar["updates"] == [1] * pages


def test_without_a_terminal_or_with_quiet_there_is_no_bar(monkeypatch):
    """(A pipe gets no bar either: plain lines, tests/unit/test_progress_lines.py.)"""
    import sys

    from generator.cli import Reporter

    class Terminal:
        def isatty(self):
            return True

        def write(self, text):
            pass

        def flush(self):
            pass
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert hasattr(Reporter(0).progress(range(3), "rendering", 3), "update")
    assert not hasattr(Reporter(-1).progress(range(3), "rendering", 3), "update")
    monkeypatch.setattr(Terminal, "isatty", lambda self: False)  # a pipe: lines now and then, no bar
    assert not hasattr(Reporter(-1).progress(range(3), "rendering", 3), "update")


def test_progress_callback_opens_the_bar_at_the_first_call_and_advances_it_by_the_difference():
    """The callback pnp build and pnp rulebook hand their renderers (generator.progress)."""
    from generator.progress import progress_callback

    with progress_callback(None, "rendering") as progress:
        assert progress is None                       # no reporter: nothing to call
    reporter = _Bars()
    with progress_callback(reporter, "laying out chapters"):
        pass
    assert reporter.bars == []                        # never called: no bar
    with progress_callback(reporter, "laying out chapters") as progress:
        for done in (1, 1, 3, 5, 4):                  # repeated or going back: no step
            progress(done, 5)
    assert reporter.bars == [{"label": "laying out chapters", "length": 5, "updates": [1, 2, 2]}]


def test_without_balance_validate_and_build_still_report_what_the_simulator_finds_without_playing(tiny,
                                                                                                     monkeypatch):
    """(Metroidvania's map checks: a room no one can reach is no balance question.)"""
    from generator.errors import Location, Problem
    from generator.sim import static
    from generator.validate import validate_game

    unreachable = Problem(Location(str(tiny / "map.yaml"), 3), "nodes", "room r1 cannot be reached from start")
    monkeypatch.setattr(static, "static_problems", lambda game: [unreachable])
    result = validate_game(tiny, balance=False)
    assert unreachable in result.problems and not result.passed
    built = build.build_game(tiny, tiny.parent / "out", validate=False)
    assert unreachable in built.problems and not built.written
