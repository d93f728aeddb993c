"""A game's own simulator: ``engine: sim.py`` in balance.yaml names a Python file (or a package
directory) inside the game directory, and that module is the game's engine, run by the same
validator, runner and ``pnp simulate`` as the shipped ones (docs/simulator.md).

The module is loaded from its path under a name derived from its source, so an edited engine is a
new module (``pnp watch`` plays the new rules) and worker processes, which find it by the key
``file:<path>#<digest>`` (``__pnp_key__``), load the same code whatever their start method. What the contract leaves
optional is filled in with neutral defaults; a mistake in the designer's code becomes a problem
located at the engine's line, never a crash of pnp.
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import importlib.util
import sys
import traceback
from dataclasses import replace
from pathlib import Path

from ..errors import Location, Problem, ProblemsError
from .games import is_local  # noqa: F401 - its home was here

KEY_PREFIX = "file:"
#: what every engine must define (generator/sim/api.py)
REQUIRED = {
    "AGENTS": "the scripted players by name, e.g. AGENTS = {'greedy': GreedyAgent} ('random' comes with pnp)",
    "compile_setup": "compile_setup(tables, where=None), the game's tables -> what new_game needs",
    "new_game": "new_game(setup, players, rng), a new State dealt from rng only",
    "summarize": "summarize(state), the finished game's record (rounds, stage_rounds, exposures, uses, party)",
}
#: the contract's optional parts (docs/simulator.md), left at their defaults when the engine has none
OPTIONAL = ("check_invariants", "describe", "cards", "fixtures", "ablate", "static_checks", "located_checks",
            "judge_extra")
#: hooks run outside a game (whose exceptions would otherwise crash the command): located instead
GUARDED = ("compile_setup", "static_checks", "located_checks", "cards", "fixtures", "ablate", "describe")
#: the keys of summarize's record that the metrics read, and their types; only ``rounds`` is required
RECORD_TYPES = {"rounds": int, "stage_rounds": list, "exposures": dict, "uses": dict, "party": list}


def _no_problems(*_args) -> list:
    return []


def _describe(_state, event) -> str:
    return str(event)


def resolve(root: Path, value: str) -> Path:
    """The engine's file or package directory for ``engine: value``; ``LookupError`` with the reason
    when it is not a Python file or package inside the game directory."""
    root = Path(root).resolve()
    path = (root / value).resolve()
    if root != path and root not in path.parents:
        raise LookupError(f"{value!r} is outside the game directory {root}: keep the simulator with the game")
    if path.is_dir():
        if not (path / "__init__.py").is_file():
            raise LookupError(f"{value!r} is a directory without __init__.py: a package needs one")
        return path
    if path.suffix != ".py":
        raise LookupError(f"{value!r} is not a Python file (.py) or package directory")
    if not path.is_file():
        raise LookupError(f"no file {value!r} in {root}")
    return path


def source_files(path: Path) -> list[Path]:
    """The engine's Python files (one file, or every module of the package), sorted."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
    return [path]


def digest(path: Path) -> str:
    h = hashlib.sha256()
    for file in source_files(path):
        h.update(file.relative_to(path.parent).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def load_key(key: str):
    """The engine an ``__pnp_key__`` names (in a worker process: loaded there from its path).

    The file on disk must still be the version the key names: an engine saved while its games were
    being played would otherwise play its later games by the new rules under the old verdict."""
    path, _, version = key[len(KEY_PREFIX):].rpartition("#")
    path = Path(path)
    now = digest(path)
    if now != version:
        init = path / "__init__.py" if path.is_dir() else path
        raise ProblemsError([Problem(Location(str(init)), "engine",
                                     "changed while its games were being played; run the command again")])
    return load(path, now)


def load(path: Path, version: str | None = None):
    """The engine module at ``path`` (a ``.py`` file or a package directory), loaded once per version
    of its source (``version``: its digest, when the caller has it). ``ProblemsError`` located in the
    engine's code when it cannot be used."""
    path = Path(path).resolve()
    version = version or digest(path)
    # by place and source: two copies of a game with the same sim.py are two engines, each its own __pnp_key__
    place = hashlib.sha256(str(path).encode()).hexdigest()[:8]
    name = f"pnp_local_engine_{place}_{version}"
    module = sys.modules.get(name)
    if module is not None:
        return module
    init = path / "__init__.py" if path.is_dir() else path
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(path)] if path.is_dir() else None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it: a package's modules import each other by it
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - the designer's code: any mistake is theirs to fix, at its line
        _forget(name)
        raise ProblemsError([failure(exc, path, "engine", "cannot be loaded")]) from None
    missing = [Problem(Location(str(init)), "engine", f"missing {attr}: {what} (docs/simulator.md)")
               for attr, what in REQUIRED.items() if not hasattr(module, attr)]
    if missing:
        _forget(name)
        raise ProblemsError(missing)
    _complete(module, path, version)
    return module


def _forget(name: str) -> None:
    """Drop a module that could not be used, and its package's modules: the fixed file loads afresh."""
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded]


def _complete(module, path: Path, version: str) -> None:
    """The contract's optional parts, where the engine leaves them out; setup-time hooks located."""
    game_dir = path.parent
    module.__pnp_warnings__ = unexported(module)
    defaults = {"NAME": game_dir.name, "VERSION": f"local-{version}", "check_invariants": _no_problems,
                "describe": _describe, "static_checks": _no_problems, "cards": _no_problems}
    for attr, value in defaults.items():
        if not hasattr(module, attr):
            setattr(module, attr, value)
    for attr in GUARDED:
        hook = getattr(module, attr, None)
        if hook is not None:
            setattr(module, attr, _located(hook, path, attr))
    module.summarize = _checked_summarize(module.summarize)
    module.check_invariants = _sentences(module.check_invariants)
    module.__pnp_key__ = f"{KEY_PREFIX}{path}#{version}"


def unexported(package) -> list[Problem]:
    """Warnings at an optional part of the contract that a package's module defines and its __init__.py
    does not import: pnp reads the package's own names, so that part would silently be left out."""
    prefix = package.__name__ + "."
    problems = []
    for name, module in sorted((n, m) for n, m in sys.modules.items() if n.startswith(prefix)):
        for attr in OPTIONAL:
            func = getattr(module, attr, None)
            code = getattr(func, "__code__", None)
            if code is not None and func.__module__ == name and not hasattr(package, attr):
                problems.append(Problem(Location(code.co_filename, code.co_firstlineno), "engine", (
                    f"{attr} is defined here but not imported in __init__.py: pnp does not use it "
                    f"(from .{name[len(prefix):]} import {attr})"), "warning"))
    return problems


def _located(hook, path: Path, name: str):
    @functools.wraps(hook)
    def guarded(*args, **kwargs):
        try:
            return hook(*args, **kwargs)
        except ProblemsError:
            raise  # the engine's own located problems (data it cannot run)
        except Exception as exc:  # noqa: BLE001 - a bug in the designer's engine, shown at its line
            problem = failure(exc, path, "engine", f"{name} failed")
            hint = _missing_key(exc, args[0] if args else None)
            raise ProblemsError([replace(problem, message=problem.message + hint)]) from None
    return guarded


def _missing_key(exc: BaseException, tables) -> str:
    """For a KeyError of a key that is close to one of a table's (a typo of a rules.yaml key): which
    table lacks it and the keys it has, as the rulebook says it; else ''."""
    if not (isinstance(exc, KeyError) and exc.args and isinstance(exc.args[0], str) and isinstance(tables, dict)):
        return ""
    key = exc.args[0]
    for name, table in tables.items():
        records = table if isinstance(table, list) else [table]
        known = sorted({k for r in records if isinstance(r, dict) for k in r if isinstance(k, str)})
        if key not in known and difflib.get_close_matches(key, known, n=1):
            return f" ({name} has no {key!r}; known: {', '.join(known)})"
    return ""


def _sentences(check_invariants):
    """``check_invariants`` that reads one sentence returned alone as a list of it (the runner would
    otherwise take each of its letters for a broken rule)."""
    @functools.wraps(check_invariants)
    def checked(state):
        broken = check_invariants(state)
        return ([broken] if broken else []) if isinstance(broken, str) else broken
    return checked


def record_problem(record) -> str | None:
    """What is wrong with a record ``summarize`` returned, as the metrics would read it, or None."""
    if not isinstance(record, dict):
        return f"returned {type(record).__name__}, not a dict (the game's record)"
    if "rounds" not in record:
        return "the record has no 'rounds', the rounds the game took (M3)"
    wrong = [key for key, kind in RECORD_TYPES.items() if key in record and not isinstance(record[key], kind)]
    return "; ".join(f"the record's {key!r} is a {type(record[key]).__name__}, not a {RECORD_TYPES[key].__name__}"
                     for key in wrong) or None


def _checked_summarize(summarize):
    """``summarize`` that refuses a record the metrics cannot read: the game is an error (M0) that says
    what is missing and where summarize is, instead of a crash of the whole verdict."""
    code = getattr(summarize, "__code__", None)
    at = f"summarize at {Path(code.co_filename).name}:{code.co_firstlineno}; " if code else ""

    @functools.wraps(summarize)
    def checked(state):
        record = summarize(state)
        problem = record_problem(record)
        if problem:
            raise ValueError(f"{problem} ({at}docs/simulator.md)")
        return record
    return checked


def failure(exc: BaseException, path: Path, field: str, doing: str) -> Problem:
    """A problem at the innermost line of the engine's own code in ``exc``'s traceback (the syntax
    error's line for a SyntaxError), saying what was being done and what went wrong."""
    files = {str(f) for f in source_files(path)}
    where = Location(str(path / "__init__.py" if path.is_dir() else path))
    if isinstance(exc, SyntaxError) and exc.filename in files:
        where = Location(exc.filename, exc.lineno or 0)
    else:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename in files:
                where = Location(frame.filename, frame.lineno or 0)
    message = str(exc).strip() if not isinstance(exc, SyntaxError) else exc.msg
    return Problem(where, field, f"{doing}: {type(exc).__name__}" + (f": {message}" if message else ""))
