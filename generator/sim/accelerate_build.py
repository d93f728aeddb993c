"""``pnp accelerate``'s build: an engine's compiled list through mypyc, into the cache (``accelerate``).

mypyc runs in a subprocess on a temporary copy of the package's ``.py`` files (the tree is never
written to: no ``.so`` next to a ``.py``, no ``build/``), in a folder beside the cache entries; the
extension files are moved into an entry folder, its ``manifest.json`` written last, and the folder
renamed to its key in one step. A build that fails or is interrupted leaves no entry.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..errors import GeneratorError
from . import accelerate as acc

KEEP = 3  # entries kept per engine and Python: a few checkouts or branches, not every edit's build

_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(name="pnp_compiled", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify({options!r} + {files!r}, opt_level="3", debug_level="1", group_name={group!r}))
"""
# The lists must type-check; the modules they import only inform the types (their errors are not the build's).
# pyproject.toml's [tool.mypy] is the configuration, read under another name so setuptools leaves it alone.
_MYPY_OPTIONS = ["--follow-imports=silent", "--config-file=build/mypy.toml"]

class AccelerateError(GeneratorError):
    """An engine cannot be compiled here; the message says what to do."""


class Built:
    def __init__(self, engine: str, folder: Path, seconds: float | None, fresh: bool):
        self.engine, self.folder, self.seconds, self.fresh = engine, folder, seconds, fresh


def prerequisites() -> str:
    """The mypy version to build with, or an AccelerateError saying what is missing."""
    mypy = acc.mypy_version()
    if mypy is None:
        raise AccelerateError("mypy is not installed; it compiles the engines: pip install -e '.[fast]'")
    import sysconfig

    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        raise AccelerateError(f"no C compiler ({compiler} not found): mypyc writes C for one to build "
                              "(Debian/Ubuntu: apt-get install gcc)")
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").exists():
        raise AccelerateError(f"Python's C headers are missing ({include / 'Python.h'}; Debian/Ubuntu: "
                              "apt-get install python3-dev)")
    return mypy


def build(engines, progress=None, *, root: Path = acc.ROOT, cache: Path | None = None) -> list[Built]:
    """Build each engine's list that has no complete entry for its sources as they are now.
    ``progress(engine, message)`` hears each stage."""
    say = progress or (lambda engine, message: None)
    folder = acc.compiled_folder(cache)
    if folder is None:
        raise AccelerateError("no cache folder to build into (PNP_CACHE_DIR is empty)")
    mypy = prerequisites()
    results = []
    for engine in engines:
        name = acc.key(engine, mypy, root)
        if acc.read_manifest(folder / name) is not None:
            results.append(Built(engine, folder / name, None, False))
            continue
        results.append(_build_one(engine, mypy, root, folder, say))
        _prune(folder, engine)
    return results


def _build_one(engine: str, mypy: str, root: Path, folder: Path, say) -> Built:
    folder.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix=f".build-{engine}-", dir=folder))
    try:
        src = work / "src"
        say(engine, "copying the sources")
        _copy_sources(root, src)
        name = acc.key(engine, mypy, src)  # of what is compiled: an edit meanwhile only makes the entry unused
        files = [acc.relative_file(m, ".py") for m in acc.ENGINES[engine]]
        (src / "build" / "setup.py").write_text(_SETUP.format(options=_MYPY_OPTIONS, files=files,
                                                              group=acc.group_name(engine)))
        say(engine, f"type-checking and writing C (mypyc {mypy}, {len(files)} modules)")
        _run_mypyc(engine, src, say, start)
        entry = work / "entry"
        modules = {}
        for module in (*acc.ENGINES[engine], acc.shared_library(engine)):
            relative = acc.relative_file(module)
            built = src / relative
            if not built.exists():
                raise AccelerateError(f"mypyc built no {relative} (its output changed?)")
            (entry / relative).parent.mkdir(parents=True, exist_ok=True)
            os.replace(built, entry / relative)
            modules[module] = relative
        seconds = time.monotonic() - start
        manifest = {"format": acc.FORMAT, "engine": engine, "key": name, "python": acc.python_tag(), "mypy": mypy,
                    "built": time.strftime("%Y-%m-%d %H:%M"), "seconds": round(seconds, 1), "modules": modules,
                    "sizes": {path: (entry / path).stat().st_size for path in modules.values()},
                    "sources": {m: str(acc.source_file(m, root)) for m in acc.ENGINES[engine]}}
        (entry / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        target = folder / name
        try:
            os.rename(entry, target)
        except OSError:  # another build of the same sources got there first: its entry is as good
            if acc.read_manifest(target) is None:
                raise
        say(engine, f"built in {seconds:.0f} s")
        return Built(engine, target, seconds, True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _copy_sources(root: Path, src: Path) -> None:
    """The package's .py files (mypy follows the lists' imports through the rest) and the mypy
    configuration (pyproject.toml's [tool.mypy])."""
    package = root / "generator"
    for path in package.rglob("*.py"):
        relative = path.relative_to(root)
        if "scaffold" in relative.parts:
            continue
        (src / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, src / relative)
    config = root / "pyproject.toml"
    if not config.exists():
        raise AccelerateError(f"no pyproject.toml at {root} (its [tool.mypy] section configures the build): "
                              "pnp accelerate runs from a source checkout (pip install -e)")
    (src / "build").mkdir()
    shutil.copyfile(config, src / "build" / "mypy.toml")


def _run_mypyc(engine: str, src: Path, say, start: float) -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    process = subprocess.Popen([sys.executable, "build/setup.py"], cwd=src, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace")
    lines, compiling = [], False
    try:
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if not compiling and (line.startswith("building '") or " -c " in line):
                compiling = True
                say(engine, f"compiling C ({time.monotonic() - start:.0f} s so far)")
        process.wait()
    except BaseException:
        process.kill()
        process.wait()
        raise
    if process.returncode:
        raise AccelerateError(_failure(engine, lines))


def _failure(engine: str, lines: list[str]) -> str:
    import re

    typing = [line for line in lines if re.match(r"\S+\.py:\d+:( \d+:)? (error|note):", line)]
    if typing:
        shown = "\n".join(typing[:40]) + (f"\n... and {len(typing) - 40} more" if len(typing) > 40 else "")
        return f"{engine}: mypy finds type errors, so mypyc cannot compile it (the engine still runs as Python):\n{shown}"
    if any("Python.h" in line for line in lines):
        return f"{engine}: Python's C headers are missing (Debian/Ubuntu: apt-get install python3-dev)"
    tail = "\n".join(lines[-25:])
    return f"{engine}: mypyc failed (the engine still runs as Python); its last lines:\n{tail}"


def _prune(folder: Path, engine: str) -> None:
    """Keep the newest ``KEEP`` entries of ``engine`` for this Python (a process running an older one
    keeps its open files)."""
    python = acc.python_tag()
    mine = []
    for entry in acc._entries(folder):
        manifest = acc.read_manifest(entry)
        if manifest and manifest.get("engine") == engine and manifest.get("python") == python:
            mine.append(entry)
    mine.sort(key=lambda p: (p / "manifest.json").stat().st_mtime, reverse=True)
    for old in mine[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)
    for left in folder.glob(f".build-{engine}-*"):  # a build killed outright (SIGKILL, power) a day ago
        try:
            if time.time() - left.stat().st_mtime > 86400:
                shutil.rmtree(left, ignore_errors=True)
        except OSError:
            pass


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
