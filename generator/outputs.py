"""Atomic output files: write to a temporary name in the same folder, then rename.

A failed build therefore leaves the previous outputs untouched and no half-written file.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable

from .errors import BuildError


def write_atomic(path: Path, data: bytes | str | Iterable[bytes | str]) -> Path:
    """Write ``data`` (bytes, text, or an iterable of pieces written as they come) to ``path``."""
    path = Path(path)
    pieces = [data] if isinstance(data, (bytes, str)) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:  # -o into a file, a read-only or missing place: a message, not a traceback
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            for piece in pieces:
                handle.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; outputs get ordinary permissions
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
