"""The polling loop: what counts as a change, settling, cycle limits (no real waiting)."""
import os

from generator.export.watch import WatchLoop, changed_files, snapshot, watch_roots


def bump(path, text=None):
    """Rewrite a file so its mtime surely moves (coarse file-system clocks)."""
    st = path.stat()
    if text is not None:
        path.write_text(text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def test_snapshot_sees_edits_additions_removals_and_ignores_noise(tmp_path):
    (tmp_path / "a.yaml").write_text("a")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "x.png").write_bytes(b"x")
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "print.pdf").write_bytes(b"%PDF")
    (tmp_path / ".hidden.yaml").write_text("h")
    (tmp_path / ".a.yaml.123.tmp").write_text("t")
    first = snapshot([tmp_path])
    assert sorted(p.name for p in first) == ["a.yaml", "x.png"]
    bump(tmp_path / "a.yaml", "b")
    (tmp_path / "art" / "y.png").write_bytes(b"y")
    (tmp_path / "art" / "x.png").unlink()
    (tmp_path / "output" / "print.pdf").write_bytes(b"%PDF-2")
    assert [p.name for p in changed_files(first, snapshot([tmp_path]))] == ["a.yaml", "x.png", "y.png"]


def test_loop_builds_at_start_and_after_each_change_until_max_cycles(tmp_path):
    target = tmp_path / "cards.yaml"
    target.write_text("v1")
    builds = []
    sleeps = {"n": 0}

    def fake_sleep(_seconds):
        sleeps["n"] += 1
        if sleeps["n"] == 3:          # an edit while the loop is waiting
            bump(target, "v2")
        if sleeps["n"] == 9:
            bump(target, "v3")

    loop = WatchLoop(lambda: [tmp_path], builds.append, interval=0.01, max_cycles=3, sleep=fake_sleep)
    assert loop.run() == 3
    assert builds == [[], [target], [target]]


def test_once_builds_once_without_waiting(tmp_path):
    builds = []

    def no_sleep(_):
        raise AssertionError("--once must not wait")

    assert WatchLoop(lambda: [tmp_path], builds.append, max_cycles=1, sleep=no_sleep).run() == 1
    assert builds == [[]]


def test_a_file_still_being_written_is_built_once_it_settles(tmp_path):
    target = tmp_path / "cards.yaml"
    target.write_text("v1")
    builds, state = [], {"n": 0}

    def fake_sleep(_):
        state["n"] += 1
        if state["n"] in (2, 3, 4):   # three writes in a row: one build after they stop
            bump(target, f"v{state['n']}")

    WatchLoop(lambda: [tmp_path], builds.append, max_cycles=2, sleep=fake_sleep).run()
    assert builds == [[], [target]]
    assert target.read_text() == "v4"


def test_files_that_only_enter_or_leave_the_watched_roots_are_not_changes(tmp_path):
    """While a game does not load the watch covers every layouts folder: an edit that broke the
    game was reported with every other game's layout files as "changed" (and again once fixed)."""
    game, layouts = tmp_path / "game", tmp_path / "layouts"
    for folder in (game, layouts / "mine", layouts / "other"):
        folder.mkdir(parents=True)
    target = game / "cards.yaml"
    target.write_text("ok")
    (layouts / "mine" / "a.yaml").write_text("a")
    (layouts / "other" / "b.yaml").write_text("b")

    def roots():
        broken = target.read_text() == "broken"
        return [game, layouts] if broken else [game, layouts / "mine"]

    builds, sleeps = [], {"n": 0}

    def fake_sleep(_seconds):
        sleeps["n"] += 1
        if sleeps["n"] == 3:
            bump(target, "broken")
        if sleeps["n"] == 9:
            bump(target, "ok")

    assert WatchLoop(roots, builds.append, interval=0.01, max_cycles=3, sleep=fake_sleep).run() == 3
    assert builds == [[], [target], [target]]


def test_watch_roots_cover_the_game_and_only_its_layout_folders(in_repo):
    from pathlib import Path

    roots = [Path(r).resolve() for r in watch_roots(Path("content/fatal-fight"))]
    assert roots[0] == (in_repo / "content/fatal-fight").resolve()
    names = {r.name for r in roots[1:]}
    assert {"common", "profiles", "fatal-fight"} <= names and "valheim" not in names


def test_watch_roots_load_the_game_again_only_when_game_yaml_changes(tiny, monkeypatch):
    import os

    from generator import content
    from generator.export import watch as watch_module

    calls = []
    real = content.load_game
    monkeypatch.setattr(content, "load_game", lambda root: calls.append(root) or real(root))
    first = watch_roots(tiny)
    assert watch_roots(tiny) == first and len(calls) == 1      # a poll with nothing changed: no load
    game_yaml = tiny / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    stat = game_yaml.stat()
    os.utime(game_yaml, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert watch_roots(tiny) == first and len(calls) == 2      # game.yaml edited: loaded again
    watch_module._PREFIXES.clear()


def _board_warning(line=81, size="297x210"):
    from generator.errors import Location, Problem

    return Problem(Location("content/ff/game.yaml", line), "components[7].size",
                   f"board 'boards' is {size} mm, the size of the A4 landscape paper", "warning")


def test_a_warning_is_said_once_per_session_until_its_cause_changes_and_its_going_is_said():
    """A board the size of the paper was warned about again at every rebuild after any card edit."""
    from generator.errors import Location, Problem
    from generator.export.watch import SaidWarnings

    said = SaidWarnings()
    error = Problem(Location("content/ff/enemies.yaml", 3), "life", "expected an integer")
    assert said.sift([_board_warning()]) == ([_board_warning()], 0, [])
    assert said.sift([_board_warning()]) == ([], 1, [])                  # a card edited: not again
    assert said.sift([_board_warning(line=82)]) == ([], 1, [])           # a line added above it: the same
    # a failed build may stop before boards are looked at: its warnings are not taken as gone
    assert said.sift([error], complete=False) == ([error], 0, [])
    assert said.sift([_board_warning(size="300x210")]) == ([_board_warning(size="300x210")], 0,
                                                           [_board_warning(line=82)])  # its cause changed
    assert said.sift([]) == ([], 0, [_board_warning(size="300x210")])   # fixed: said to be gone
    assert said.sift([_board_warning()]) == ([_board_warning()], 0, [])  # back: said again


def test_watch_prints_a_standing_warning_as_a_count_and_says_when_one_went_away(capsys):
    from generator.cli import Reporter  # first: the commands import the command line
    from generator.commands.watch import _say_problems
    from generator.export.watch import SaidWarnings

    state, rep = {"warnings": SaidWarnings()}, Reporter(0)
    for problems in ([_board_warning()], [_board_warning()], []):
        _say_problems(rep, state, problems, complete=True)
    out = capsys.readouterr().out.splitlines()
    assert out == [_board_warning().display(), "(1 warning(s) said before still stand)",
                   "no longer warned: content/ff/game.yaml:81: components[7].size: board 'boards' is 297x210 mm,"
                   " the size of the A4 landscape paper"]
