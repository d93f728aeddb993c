"""Atomic output files: write to a temporary name in the same folder, then rename.

A failed build therefore leaves the previous outputs untouched and no half-written file.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable

from .errors import BuildError


VERDICT_FILE = ".verdict.json"  # in output_dir_of(game): the last balance verdict, kept by its content key
# in a build's output folder: the game folder it built. Outputs are named by the folder's name alone, so
# two copies of a game (/a/foo, /b/foo) would share output/foo and its print lock, the "last build" the
# drift check and an errata are compared with
SOURCE_FILE = ".source"


def output_dir_of(game, output_dir=None) -> Path:
    """A game's output folder for what is not an edition's (its verdict, balance.pdf, the last build's
    lock): ``output_dir`` when given, else ``output/<game>``."""
    return Path(output_dir) if output_dir else Path("output") / game.id


def other_source(out: Path, game_path: Path) -> Path | None:
    """The game folder whose build ``out`` holds, when it is not ``game_path`` and is still a game folder;
    None when it is this one, when none is recorded, or when the recorded one is gone or holds no game
    any more (a game folder moved or renamed: its outputs are this one's)."""
    try:
        recorded = Path((Path(out) / SOURCE_FILE).read_text(encoding="utf-8").strip())
        if recorded.is_absolute() and (recorded / "game.yaml").is_file() and not recorded.samefile(game_path):
            return recorded
    except (OSError, UnicodeDecodeError):  # none recorded, or this folder is not there yet
        pass
    return None


def write_atomic(path: Path, data: bytes | str | Iterable[bytes | str]) -> Path:
    """Write ``data`` (bytes, text, or an iterable of pieces written as they come) to ``path``."""
    path = Path(path)
    pieces = [data] if isinstance(data, (bytes, str)) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:  # -o into a file, a read-only or missing place: a message, not a traceback
        raise _cannot_write(path, exc) from None
    try:
        # A full disk or a failing rename is a message too; an error raised by ``pieces`` (a
        # renderer's own) propagates as it is. Either way the temporary file goes, the old file stays.
        handle = os.fdopen(fd, "wb")
        written = False
        try:
            for piece in pieces:
                try:
                    handle.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
                except OSError as exc:
                    raise _cannot_write(path, exc) from None
            written = True
        finally:
            try:
                handle.close()  # flushes the last buffered bytes
            except OSError as exc:
                if written:  # otherwise an error is already on its way and the file is dropped
                    raise _cannot_write(path, exc) from None
        umask = os.umask(0)
        os.umask(umask)
        try:
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; outputs get ordinary permissions
            os.replace(tmp, path)
        except OSError as exc:
            raise _cannot_write(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _cannot_write(path: Path, exc: OSError) -> BuildError:
    return BuildError(f"cannot write {path}: {exc.strerror or exc}")


def older_output_note(path: Path, made_by: str, remake: str) -> str | None:
    """A note for an output an earlier run made with an option this run did not use (``errata.pdf``
    of ``--changed-since``, ``rulebook-booklet.pdf`` of ``--booklet``): kept, since a build loses
    nothing, but said to be old so that it is not printed by mistake. None when it is not there."""
    if not Path(path).exists():
        return None
    return f"note: {path} is from an earlier {made_by}, not this one; delete it, or {remake} to make a new one"
