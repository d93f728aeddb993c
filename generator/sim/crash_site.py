"""Where a game's own simulator raised: its file and line as the M0 problem's location.

The runner ends an exception's one-line summary with `` (at sim.py:108)`` (the file's base name: the
records, and the digests of bench/samegames.py, do not depend on where the game is). A crash in the
game's own code is fixed there, so the problem starts ``content/race/sim.py:108:`` (what an editor
jumps to) rather than at balance.yaml's ``integrity:`` band. A file that is not the game's (a shipped
engine's) keeps the band's location.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import Location

_AT = re.compile(r" \(at ([^():]+):(\d+)\)")


def crash_site(game_root, line: str) -> tuple[Location, str] | None:
    """``(location, line without its "(at ...)")`` of a failure ``line`` raised in a file of the game's
    folder (the first of that name, ``sim.py`` before ``sim/rules.py``), else None."""
    found = _AT.search(line)
    if not found or game_root is None:
        return None
    name, number = found.group(1), int(found.group(2))
    root = Path(game_root)
    files = [root / name] if (root / name).is_file() else sorted(root.rglob(name))
    if not files:
        return None
    return Location(str(files[0]), number), line[:found.start()] + line[found.end():]
