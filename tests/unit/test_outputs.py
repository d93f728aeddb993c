"""Atomic outputs: whole or nothing, ordinary permissions, pieces written as they come."""
import errno
import os
import stat
from pathlib import Path

import pytest

from generator.errors import BuildError
from generator.outputs import write_atomic


def test_writes_bytes_text_and_pieces(tmp_path):
    assert write_atomic(tmp_path / "a.bin", b"\x00\x01").read_bytes() == b"\x00\x01"
    assert write_atomic(tmp_path / "b.txt", "日本語").read_text(encoding="utf-8") == "日本語"
    pieces = (part for part in ["{", "\n", b"}", "\n"])
    assert write_atomic(tmp_path / "c.json", pieces).read_text() == "{\n}\n"


def test_output_files_get_ordinary_permissions_not_mkstemps_0600(tmp_path):
    umask = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "print.pdf", b"%PDF")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_a_failure_midway_leaves_the_old_file_and_no_temporary(tmp_path):
    path = write_atomic(tmp_path / "lock.json", "old")

    def pieces():
        yield "new, half"
        raise RuntimeError("disk full")
    with pytest.raises(RuntimeError):
        write_atomic(path, pieces())
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["lock.json"]


def test_a_place_that_cannot_hold_the_file_is_a_build_error_naming_it(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(BuildError, match=r"cannot write .*a-file/out/print.pdf: Not a directory"):
        write_atomic(tmp_path / "a-file" / "out" / "print.pdf", b"%PDF")


class _FullDisk:
    """A file object on a disk that fills up: ``write`` (or only the final flush) fails."""

    def __init__(self, real, fail_on):
        self.real, self.fail_on = real, fail_on

    def write(self, data):
        if self.fail_on == "write":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.real.write(data)

    def close(self):
        self.real.close()
        if self.fail_on == "close":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.mark.parametrize("fail_on", ["write", "close", "replace"])
def test_a_full_disk_or_a_failing_rename_is_a_build_error_and_the_old_file_stays(tmp_path, monkeypatch, fail_on):
    path = write_atomic(tmp_path / "print.pdf", b"old")
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, mode: _FullDisk(real_fdopen(fd, mode), fail_on))
    if fail_on == "replace":
        def replace(src, dst):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(BuildError, match=r"cannot write .*print.pdf: No space left on device"):
        write_atomic(path, (piece for piece in [b"new ", b"pages"]))
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["print.pdf"]


def test_an_oserror_of_the_pieces_themselves_is_not_turned_into_a_write_error(tmp_path):
    path = write_atomic(tmp_path / "print.pdf", b"old")

    def pieces():  # a renderer that fails reading something of its own
        yield b"new"
        raise OSError(errno.EIO, "renderer's own")
    with pytest.raises(OSError, match="renderer's own") as info:
        write_atomic(path, pieces())
    assert not isinstance(info.value, BuildError)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["print.pdf"]


def test_the_temporary_file_is_a_hidden_name_in_the_targets_folder(tmp_path, monkeypatch):
    """os.replace is atomic only within one file system: the temporary must sit beside the target."""
    renames = []
    real_replace = os.replace

    def spy(src, dst):
        renames.append((src, dst))
        return real_replace(src, dst)
    monkeypatch.setattr(os, "replace", spy)
    path = write_atomic(tmp_path / "out" / "print.pdf", b"%PDF")
    (src, dst), = renames
    assert os.path.dirname(src) == str(tmp_path / "out") and dst == path
    assert os.path.basename(src).startswith(".print.pdf.") and src.endswith(".tmp")


def test_a_copy_of_a_game_in_a_folder_of_the_same_name_is_said_and_not_compared_with_the_others_lock(
        tiny, tmp_path, monkeypatch):
    """/a/foo and /b/foo both go to output/foo: the second build replaced the first's print file and lock
    without a word, and compared its cards with the other's lock (the drift check). A copy is the usual
    experiment (a sabotaged copy's validate must still exit 1 on its band), so it is said, not refused."""
    import shutil

    from click.testing import CliRunner

    from generator.cli import main
    from generator.content import load_game
    from generator.export import restates

    first, second = tmp_path / "a" / "foo", tmp_path / "b" / "foo"
    shutil.copytree(tiny, first)
    shutil.copytree(tiny, second)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    assert CliRunner().invoke(main, ["build", str(first), "--no-validate"]).exit_code == 0
    out = project / "output" / "foo"
    assert (out / ".source").read_text(encoding="utf-8") == f"{first.resolve()}\n"
    compared = []
    monkeypatch.setattr(restates, "drift_problems", lambda *a: compared.append(a) or [])
    restates.drift_since_last_build(load_game(first), Path("output/foo"), {"x": "1"})
    assert len(compared) == 1  # its own last build: compared
    restates.drift_since_last_build(load_game(second), Path("output/foo"), {"x": "1"})
    assert len(compared) == 1  # the other copy's: not
    again = CliRunner().invoke(main, ["build", str(second), "--no-validate"])
    said = " ".join(again.output.split())
    assert again.exit_code == 0, said
    assert (f"note: output/foo holds the last build of {first} (output/foo/.source), another game folder named "
            f"'foo': this run of {second} replaces its files there") in said and "give -o DIR to keep both" in said
    assert (out / ".source").read_text(encoding="utf-8") == f"{second.resolve()}\n"
    quiet = CliRunner().invoke(main, ["build", str(second), "--no-validate"])
    assert "note:" not in quiet.output  # now its own last build
    moved = tmp_path / "c" / "foo"  # a game folder that moved: its outputs are the moved folder's, nothing said
    second.parent.rename(moved.parent)
    assert "note:" not in CliRunner().invoke(main, ["build", str(moved), "--no-validate"]).output
    assert (out / ".source").read_text(encoding="utf-8") == f"{moved.resolve()}\n"
