"""Atomic outputs: whole or nothing, ordinary permissions, pieces written as they come."""
import os
import stat

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
