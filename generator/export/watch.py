"""``pnp watch``: rebuild when content, layouts or art change, by polling modification times.

Standard library only: a snapshot maps every watched file to ``(mtime_ns, size)``; two
snapshots differ when a file is added, removed or rewritten. Polling once a second over a
few hundred files costs next to nothing, works the same on every OS, on network drives and
in containers, and needs no dependency (``watchdog`` would add one for no gain at this size).

Watched: the game directory (YAML, art, rulebook, fonts) and every layouts folder on its
search path (``<game>/layouts``, ``./layouts``, the repository's), which hold the layouts,
icons and sheet/export profiles. Hidden files, editor temporaries and ``output/`` are ignored.
A change is acted on once it has settled (the next poll sees the same files), so a save in
progress is not built half-written.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..content.tabular import is_editor_lock

IGNORED_DIRS = {"output", "__pycache__", ".git", "node_modules"}
IGNORED_SUFFIXES = (".tmp", ".swp", ".swo", "~", ".pyc")

Snapshot = dict


def watch_roots(game_root: Path) -> list[Path]:
    """The game directory, and in every layouts folder on its search path the folders this
    game draws from (``common``, ``profiles``, and each layout prefix its components name, e.g.
    ``fatal-fight``); the whole layouts folder when the game does not load."""
    from ..layout.template import layout_search_path

    game_root = Path(game_root)
    prefixes = _layout_prefixes(game_root)
    roots = [game_root]
    for root in layout_search_path(game_root):
        if _inside(root, game_root):
            continue
        if prefixes is None:
            roots.append(root)
            continue
        roots += [root / name for name in ("common", "profiles", *sorted(prefixes)) if (root / name).exists()]
    return roots


_PREFIXES: dict = {}  # game root -> (game.yaml's stat, prefixes): the watch loop asks once a poll


def _layout_prefixes(game_root: Path):
    """The layout prefixes the game's components name. They are written in game.yaml alone, so
    they are loaded again only when game.yaml changes (loading the whole game every poll kept a
    core busy); a game that does not load is tried again at the next poll."""
    from ..content import load_game
    from ..errors import GeneratorError

    try:
        stat = (game_root / "game.yaml").stat()
        key = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    cached = _PREFIXES.get(game_root)
    if key is not None and cached is not None and cached[0] == key:
        return cached[1]
    try:
        game = load_game(game_root)
    except GeneratorError:
        return None
    prefixes = {name.split("/")[0] for c in game.components for name in (c.layout, c.back) if name and "/" in name}
    if key is not None:
        _PREFIXES[game_root] = (key, prefixes)
    return prefixes


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def snapshot(roots, exclude=()) -> Snapshot:
    """``{path: (mtime_ns, size)}`` of every watched file under ``roots``, except under the
    ``exclude`` folders (the output folder: a build must not trigger the next one)."""
    out: Snapshot = {}
    excluded = [Path(e).resolve() for e in exclude]
    for root in roots:
        root = Path(root)
        if root.is_file():
            _add(out, root)
            continue
        if not root.is_dir():
            continue
        real = root.resolve()
        inside = [ex for ex in excluded if real in ex.parents]  # an output folder holding the game is not one
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root).parts
            if any(part.startswith(".") or part in IGNORED_DIRS for part in rel):
                continue
            if inside and any(ex == real.joinpath(*rel) or ex in real.joinpath(*rel).parents for ex in inside):
                continue
            if path.name.endswith(IGNORED_SUFFIXES) or is_editor_lock(path.name) or not path.is_file():
                continue
            _add(out, path)
    return out


def _add(out: Snapshot, path: Path) -> None:
    try:
        stat = path.stat()
    except OSError:       # removed between listing and stat
        return
    out[path] = (stat.st_mtime_ns, stat.st_size)


def _under(path: Path, roots) -> bool:
    """Whether a snapshot's ``path`` lies in one of the ``roots`` it was scanned from."""
    for root in roots:
        root = Path(root)
        if path == root or root in path.parents:
            return True
    return False


def changed_files(before: Snapshot, after: Snapshot) -> list[Path]:
    """Files added, removed or rewritten between two snapshots, sorted."""
    keys = set(before) | set(after)
    return sorted(p for p in keys if before.get(p) != after.get(p))


@dataclass
class WatchLoop:
    """Calls ``build(changed)`` once at the start (``changed == []``) and after every settled change.

    ``roots()`` gives the folders to watch (asked again after each build). ``max_cycles`` bounds the number of builds (``None``: until interrupted). ``sleep`` and
    ``scan`` are injectable for tests. Returns from ``run`` with the number of builds done.
    """

    roots: Callable[[], list]
    build: Callable[[list], None]
    interval: float = 1.0
    max_cycles: int | None = None
    sleep: Callable[[float], None] = time.sleep
    scan: Callable[[list], Snapshot] = snapshot
    on_wait: Callable[[], None] | None = None
    cycles: int = field(default=0, init=False)

    def run(self) -> int:
        roots = self.roots()
        current = self.scan(roots)
        self._build([])
        current, roots = self._rescan(current)
        waiting = True
        while not self._done():
            if waiting and self.on_wait is not None:
                self.on_wait()
                waiting = False
            self.sleep(self.interval)
            latest_roots = self.roots()
            latest = self.scan(latest_roots)
            changed = changed_files(current, latest)
            if not changed:
                continue
            # settle: wait until two polls agree, so a file being written is not built half-done
            while True:
                self.sleep(min(self.interval, 0.3))
                latest_roots = self.roots()
                again = self.scan(latest_roots)
                if again == latest:
                    break
                latest = again
            # files only one of the two snapshots watched (the roots widen to every layouts
            # folder while the game does not load, and narrow again) were not edited
            changed = [p for p in changed_files(current, latest)
                       if _under(p, roots) and _under(p, latest_roots)]
            current, roots = latest, latest_roots
            if changed:
                self._build(changed)
                current, roots = self._rescan(current)
                waiting = True
        return self.cycles

    def _rescan(self, current: Snapshot) -> tuple[Snapshot, list]:
        """After a build the roots may differ (game.yaml names other layouts): re-read them,
        keeping the known state of files already watched so an edit during the build counts."""
        roots = self.roots()
        fresh = self.scan(roots)
        return {path: current.get(path, state) for path, state in fresh.items()}, roots

    def _build(self, changed: list) -> None:
        self.cycles += 1
        self.build(changed)

    def _done(self) -> bool:
        return self.max_cycles is not None and self.cycles >= self.max_cycles


class SaidWarnings:
    """Warnings said once per watch session: a board the size of the paper is warned about at the first
    build, not again at every rebuild after an unrelated edit. A warning is said again once its cause
    changes (its message, its field, its file; not its line: a line added above moves it, nothing more),
    and one that went away is said to have gone. Errors are always said."""

    def __init__(self):
        self._said: dict = {}  # key -> the warning as last said

    def sift(self, problems, complete: bool = True) -> tuple[list, int, list]:
        """``(problems to print, how many warnings said before still stand, warnings gone)``.
        ``complete``: the build ran to its end; a build that failed may not have come to what a
        warning is about (a board is warned about after the cards fit), so none is taken as gone."""
        current = {_warning_key(p): p for p in problems if p.severity == "warning"}
        fresh = [p for p in problems if p.severity != "warning" or _warning_key(p) not in self._said]
        standing = sum(1 for key in current if key in self._said)
        gone = [p for key, p in self._said.items() if key not in current] if complete else []
        self._said = current if complete else {**self._said, **current}
        return fresh, standing, gone


def _warning_key(problem) -> tuple:
    card = problem.card_key()
    return (problem.location.path, problem.field, problem.message, card[0::2] if card else ())
