"""What a game's simulator says without playing, and where its bands are written: the part of the
verdict a build without balance (``--no-balance``, ``--no-validate``) needs, without importing the
runner, the statistics or a process pool."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import yaml

from ..content.yamlload import _yaml_error as yaml_error
from ..errors import ContentError, Location, Problem, ProblemsError
from . import games as registry
from .compile import played_tables, where_of


def balance_of(game) -> tuple[dict | None, Path, dict]:
    """(config, path, {dotted key: line}) of the game's balance.yaml (config None if missing)."""
    path = Path(game.root) / "balance.yaml"
    config = (getattr(game, "tables", {}) or {}).get("balance")
    if not path.is_file():
        return config, path, {}
    text = path.read_text(encoding="utf-8")
    try:  # a file no schema reads (a game need not list it in game.yaml): its mistakes located here
        tree = yaml.compose(text)
        if config is None:
            config = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise yaml_error(exc, text, str(path)) from None
    if not isinstance(config, dict):
        raise ContentError([Problem(Location(str(path), tree.start_mark.line + 1 if tree else 0), "",
                                    "expected a mapping of settings and bands (engine:, players:, win_rate: ...)")])
    return config, path, _key_lines(tree)


def _key_lines(node, prefix="") -> dict:
    """``{dotted key: line}`` of a YAML tree; a list's items by their index (``known.0.band``)."""
    out = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = f"{prefix}{key.value}"
            out[name] = key.start_mark.line + 1
            out.update(_key_lines(value, name + "."))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[f"{prefix}{i}"] = item.start_mark.line + 1
            out.update(_key_lines(item, f"{prefix}{i}."))
    return out


def engine_of(game, config: dict | None, lines: dict | None = None) -> tuple[str, object]:
    """``(name, engine)``: the simulator the game's balance.yaml (``config``, see ``balance_of``)
    names in ``engine:``, else the game's id, and its engine module (None: no simulator yet). A path
    inside the game directory (``engine: sim.py``) is the game's own engine (``local``); one that
    cannot be used raises ``ProblemsError`` at balance.yaml's ``engine:`` line or in its code."""
    name = str((config or {}).get("engine") or game.id)
    where = Location(str(Path(game.root) / "balance.yaml"), (lines or {}).get("engine", 0))
    if name in registry.ENGINES or not (registry.is_local(name) or (Path(game.root) / name).exists()):
        if name != game.id and name not in registry.ENGINES:  # written, and names nothing: `sim.yp`
            raise ProblemsError([Problem(where, "engine", _names_no_engine(name, Path(game.root)))])
        return name, registry.engine_for(name)
    from . import local  # a game's own engine: not imported by a build of a game without one

    try:
        path = local.resolve(Path(game.root), name)
    except LookupError as exc:
        raise ProblemsError([Problem(where, "engine", f"{exc} (docs/simulator.md)")]) from None
    return name, local.load(path)


def _names_no_engine(name: str, root: Path) -> str:
    """balance.yaml's ``engine:`` that is neither a file of the game nor a simulator pnp ships: an error,
    where it read as "no simulator for this game yet" and the print gate let the game through."""
    from ..content.schema import did_you_mean

    files = sorted(p.name for p in root.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file())
    return (f"{name!r} is no file in the game folder and no simulator pnp ships ({', '.join(registry.ENGINES)})"
            f"{did_you_mean(name, files + list(registry.ENGINES))}: a game's own simulator is a .py file or a "
            "folder with __init__.py (docs/simulator.md)")


def refused_count(engine, setup, players: int) -> str | None:
    """Why the engine will not deal ``players`` (its ``new_game``'s ValueError, as a sentence), or
    None. Any other exception is a bug in the deal: each game played records it at its line (M0)."""
    from .rng import deal_rng

    try:
        engine.new_game(setup, players, deal_rng("check", 0))
    except ValueError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - the engine's own bug, recorded by the games themselves
        pass
    return None


def located_checks(engine, setup) -> list[Problem]:
    check = getattr(engine, "located_checks", None)
    return list(check(setup)) if check is not None else []


def static_problems(game) -> list[Problem]:
    """What the game's simulator finds without playing, each at its YAML line (Metroidvania: map.yaml
    reachability and key rooms), for ``pnp validate --no-balance``; [] without a simulator."""
    config, _path, lines = balance_of(game)
    try:
        _name, engine = engine_of(game, config, lines)
    except ProblemsError as exc:  # the game's own simulator is broken: said, but printing is not held up
        return [replace(p, severity="warning", message=p.message + " (balance not checked)") for p in exc.problems]
    if engine is None:
        return []
    try:
        setup = engine.compile_setup(played_tables(game), where_of(game))
    except ProblemsError as exc:
        return list(exc.problems)
    return getattr(engine, "__pnp_warnings__", []) + located_checks(engine, setup)
