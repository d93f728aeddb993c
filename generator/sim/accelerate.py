"""Compiled engines, opt in: ``pnp accelerate`` builds an engine's modules with mypyc into the user's
cache, and an import hook runs them compiled while, and only while, they are built from the very
``.py`` files in the tree.

Nothing is compiled at install time and no ``.so`` is ever written next to a ``.py`` (session 8's
prototype did both: every install paid minutes, and an edited ``.py`` silently ran the old compiled
code). Here:

- ``ENGINES`` lists, per engine, the modules that compile (the rest of the engine stays Python).
  mypyc builds each list as one group: one shared library (``pnp_<engine>__mypyc``) and a small
  extension per module that calls into it. A module may be in one list only (one compiled copy of
  it can be loaded).
- An entry's key is the SHA-256 of those modules' ``.py`` bytes, the Python (``cache_tag``, the
  extension suffix, the platform) and the mypy version. Its folder is ``compiled/<key>/`` in the
  cache folder (``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``, as the
  font cache's), built in a temporary folder beside it and renamed into place with its
  ``manifest.json`` inside: a folder under its key is complete or absent.
- ``install()`` (called by ``generator/sim/__init__.py``, before any engine module or the
  ``state``/``rng`` they share can be imported, in the command and in every worker process) puts
  ``_Finder`` first on ``sys.meta_path``. The first time a module of a list is imported, the finder
  decides for the whole list, once per process: compiled when the key of the sources as they are
  now names a complete entry, none of the list's modules is already imported as Python, and
  ``PNP_PURE_PYTHON`` is unset (or ``0``); pure Python otherwise, silently. One ``.py`` edited
  after the build is another key: that engine runs as Python until ``pnp accelerate`` is run again.
"""
from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from pathlib import Path

from ..cachedir import cache_dir

#: per engine (its name in ``games.ENGINES``), the modules mypyc compiles, as one group. ``state`` and
#: ``rng`` are every engine's: compiled with Metroidvania's, they run compiled under the others too.
ENGINES: dict[str, tuple[str, ...]] = {
    "metroidvania": tuple(f"generator.sim.games.metroidvania{part}" for part in (
        "", "_base", "_flow", "_checks", "_moves", "_bosses", "_powers", "_actions", "_dice", "_effects",
        "_agents", "_setup")) + ("generator.sim.state", "generator.sim.rng"),
    "fatal-fight": tuple(f"generator.sim.games.fatal_fight{part}" for part in (
        "", "_setup", "_flow", "_actions", "_shop", "_combat", "_effects", "_preview", "_agents", "_report")),
    "valheim": tuple(f"generator.sim.games.valheim{part}" for part in (
        "", "_base", "_flow", "_actions", "_legal", "_map", "_hunt", "_effects", "_rules", "_agents", "_setup")),
}
FORMAT = 1            # of an entry's folder and manifest: a change makes every key new
MYPY_TESTED = "2.4.1"  # the mypy the lists were built and checked with (pyproject's extra "fast")
OFF = "PNP_PURE_PYTHON"
ROOT = Path(__file__).resolve().parents[2]  # the folder holding the package ``generator``

_MODULE_ENGINE = {module: engine for engine, modules in ENGINES.items() for module in modules}


def shared_library(engine: str) -> str:
    """The top-level module name of the engine's mypyc runtime and code (its group name + ``__mypyc``)."""
    return f"{group_name(engine)}__mypyc"


def group_name(engine: str) -> str:
    return "pnp_" + engine.replace("-", "_")


_SHARED_ENGINE = {shared_library(engine): engine for engine in ENGINES}


def cache_root() -> Path | None:
    """The cache folder (``generator.cachedir``: fonts and compiled engines share it)."""
    return cache_dir()


def compiled_folder(cache: Path | None = None) -> Path | None:
    cache = cache if cache is not None else cache_root()
    return cache / "compiled" if cache is not None else None


def disabled() -> bool:
    return os.environ.get(OFF, "") not in ("", "0")


def source_file(module: str, root: Path = ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def relative_file(module: str, suffix: str = EXTENSION_SUFFIXES[0]) -> str:
    """Where a module's file lies under a build or entry folder: ``generator/sim/state<suffix>``."""
    return "/".join(module.split(".")) + suffix


def mypy_version() -> str | None:
    """The installed mypy's version without importing mypy (mypy's own ``version.py``); ``None``
    without mypy. Part of the key: a new mypy builds anew."""
    import re
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec("mypy")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        try:
            text = (Path(folder) / "version.py").read_text(encoding="utf-8")
        except OSError:
            continue
        found = re.search(r"""__version__\s*(?::\s*\w+\s*)?=\s*["']([^"']+)["']""", text)
        if found:
            return found.group(1)
    return None


def python_tag() -> str:
    import sysconfig

    return f"{sys.implementation.cache_tag} {EXTENSION_SUFFIXES[0]} {sysconfig.get_platform()}"


def key(engine: str, mypy: str, root: Path = ROOT, python: str | None = None) -> str:
    """The entry's name: SHA-256 over the list's sources (name, length, bytes), the Python and mypy."""
    import hashlib

    sha = hashlib.sha256(f"pnp compiled {FORMAT}\0{engine}\0{python or python_tag()}\0mypy {mypy}\0".encode())
    for module in ENGINES[engine]:
        data = source_file(module, root).read_bytes()
        sha.update(f"{module}\0{len(data)}\0".encode())
        sha.update(data)
    return sha.hexdigest()[:40]


def read_manifest(folder: Path) -> dict | None:
    """An entry's manifest when the entry is complete: the manifest reads, is of this format, and
    every file it lists is there with its size; ``None`` otherwise."""
    import json

    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT:
            return None
        for name, size in manifest["sizes"].items():
            if (folder / name).stat().st_size != size:
                return None
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return None
    return manifest


class Decision:
    """Whether an engine's list runs compiled (``files``: module -> extension file) or as Python,
    and why (``reason``, for ``pnp accelerate --status``)."""

    def __init__(self, engine: str, reason: str, files: dict[str, Path] | None = None,
                 manifest: dict | None = None):
        self.engine, self.reason, self.files, self.manifest = engine, reason, files, manifest

    @property
    def compiled(self) -> bool:
        return self.files is not None

    def __repr__(self) -> str:
        return f"Decision({self.engine!r}, {'compiled' if self.compiled else 'pure'}: {self.reason})"


def decide(engine: str, *, root: Path = ROOT, cache: Path | None = None, loaded=None,
           mypy: str | None = None, python: str | None = None) -> Decision:
    """What the finder does for ``engine``'s list now. ``loaded`` (default ``sys.modules``) holds
    the modules already imported: one of the list there as Python keeps the whole list Python (a
    compiled module would find its compiled neighbour uninitialised)."""
    if disabled():
        return Decision(engine, f"disabled ({OFF}={os.environ[OFF]})")
    folder = compiled_folder(cache)
    if folder is None:
        return Decision(engine, "no cache folder (PNP_CACHE_DIR is empty)")
    loaded = sys.modules if loaded is None else loaded
    early = [m for m in (*ENGINES[engine], shared_library(engine)) if m in loaded]
    if early:
        return Decision(engine, f"{early[0]} was imported before the compiled engines could be (as Python)")
    mypy = mypy or mypy_version()
    if mypy is None:
        return Decision(engine, "mypy is not installed (its version is part of the key; pip install -e '.[fast]')")
    try:
        name = key(engine, mypy, root, python)
    except OSError as exc:
        return Decision(engine, f"a source cannot be read ({exc})")
    manifest = read_manifest(folder / name)
    if manifest is None:
        return Decision(engine, _why_not_built(engine, folder, mypy, python))
    files = {module: folder / name / path for module, path in manifest["modules"].items()}
    if set(files) != {*ENGINES[engine], shared_library(engine)}:
        return Decision(engine, "its entry lists other modules (pnp accelerate builds it anew)")
    return Decision(engine, f"built {manifest.get('built', '?')} with mypy {manifest.get('mypy', '?')}", files, manifest)


def _why_not_built(engine: str, folder: Path, mypy: str, python: str | None) -> str:
    """"not built", or "sources changed since": another entry of the engine's for this Python and mypy."""
    entries = [m for m in map(read_manifest, _entries(folder)) if m and m.get("engine") == engine]
    python = python or python_tag()
    same = [m for m in entries if m.get("python") == python and m.get("mypy") == mypy]
    if same:
        return "sources changed since its build (pnp accelerate builds it anew)"
    if entries:
        return f"built for another Python or mypy only (this: {python.split()[0]}, mypy {mypy})"
    return "not built (pnp accelerate builds it)"


def _entries(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")]
    except OSError:
        return []


class _Finder:
    """First on ``sys.meta_path``: a module of a compiled list (or its shared library) from the
    cache entry its engine's decision names; anything else, and every module of a list decided
    Python, to the finders after it."""

    pnp_compiled_engines = True  # how install() knows one is there (a reloaded module makes another class)

    def __init__(self, decide_=decide):
        self.decide = decide_
        self.decisions: dict[str, Decision] = {}

    def decision(self, engine: str) -> Decision:
        if engine not in self.decisions:
            try:
                self.decisions[engine] = self.decide(engine)
            except Exception as exc:  # never a failed import because of the cache: Python runs
                self.decisions[engine] = Decision(engine, f"the cache could not be read ({exc})")
        return self.decisions[engine]

    def find_spec(self, fullname, path=None, target=None):
        engine = _MODULE_ENGINE.get(fullname) or _SHARED_ENGINE.get(fullname)
        if engine is None:
            return None
        decision = self.decision(engine)
        if not decision.compiled:
            return None
        file = str(decision.files[fullname])
        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, file), origin=file)
        spec.has_location = True
        return spec

    def invalidate_caches(self):
        pass


def finder() -> _Finder | None:
    for found in sys.meta_path:
        if getattr(found, "pnp_compiled_engines", False):
            return found  # type: ignore[return-value]
    return None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once). Cheap: nothing is read until a module of a
    compiled list is imported."""
    if finder() is None:
        sys.meta_path.insert(0, _Finder())


def running(engine: str) -> Decision | None:
    """What this process decided for ``engine`` (``None``: none of its list imported yet)."""
    found = finder()
    return found.decisions.get(engine) if found else None


def compiled_now() -> list[str]:
    """The engines this process runs compiled."""
    found = finder()
    return sorted(e for e, d in (found.decisions.items() if found else ()) if d.compiled)


def is_compiled(module) -> bool:
    """Whether ``module`` (an engine's module object) runs compiled code."""
    return isinstance(getattr(module, "__loader__", None), ExtensionFileLoader)


def engine_of(game: str) -> str | None:
    """The compiled list a game's engine has (the engine's name), or ``None``."""
    return game if game in ENGINES else None


#: A simulation that ran this many seconds as Python while its engine could run compiled ends with a
#: tip (a compiled engine plays the same games in about half the time: bench/README.md).
TIP_SECONDS = 20.0
_tipped: list[str] = []  # the engines this process gave the tip for: once is enough (pnp build of every game)


def speed_tip(game: str, seconds: float | None, decide_=decide) -> str | None:
    """The line after a long simulation with ``game``'s engine (its name, as balance.yaml's ``engine:``)
    that ran as Python although the engine has a compiled list: what ``pnp accelerate`` would give, and what it needs; ``None`` otherwise (short,
    compiled, no list, turned off with ``PNP_PURE_PYTHON``: the user chose Python, or said once already)."""
    engine = engine_of(game)
    if engine is None or seconds is None or seconds < TIP_SECONDS or disabled() or _tipped:
        return None
    # the games ran in worker processes: whether a build for the sources as they are exists is the question
    decision = decide_(engine, loaded={})
    if decision.compiled:
        return None
    if decision.reason.startswith("mypy is not installed"):
        needs = " (it needs mypy: pip install -e '.[fast]', and a C compiler)"
    elif decision.reason.startswith("sources changed"):
        needs = " (its last build is for other sources)"
    else:
        needs = ""
    _tipped.append(engine)
    return (f"tip: that took {seconds:.0f} s as Python; `pnp accelerate {game}` compiles the simulator once, in about "
            f"a minute{needs}, and it plays the same games in about half the time")


def version_note() -> str:
    """``pnp --version``'s second line: the engines that run compiled, or why none does."""
    decisions = [decide(engine, loaded={}) for engine in sorted(ENGINES)]
    compiled = [d for d in decisions if d.compiled]
    if compiled:
        return "compiled simulators: " + ", ".join(f"{d.engine} (mypy {d.manifest.get('mypy', '?')})" for d in compiled)
    if disabled():
        return f"compiled simulators: none ({OFF} is set)"
    return "compiled simulators: none (pnp accelerate builds them)"
