"""Compiled engines (``generator/sim/accelerate.py``): the key, the finder's decisions and the build's
errors, without compiling anything (the slow test at the end builds Metroidvania for real)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import ExtensionFileLoader
from pathlib import Path

import pytest

from generator.sim import accelerate as acc
from generator.sim import accelerate_build

REPO = Path(__file__).resolve().parents[3]
ENGINE = "metroidvania"
MYPY = "9.9.9"  # a made-up version: nothing here needs mypy


@pytest.fixture
def tree(tmp_path) -> Path:
    """A copy of the compiled list's sources, safe to edit."""
    root = tmp_path / "tree"
    for module in acc.ENGINES[ENGINE]:
        target = acc.source_file(module, root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(acc.source_file(module), target)
    return root


@pytest.fixture
def on(monkeypatch):
    monkeypatch.delenv(acc.OFF, raising=False)  # the suite runs with it set (conftest)


def fake_entry(cache: Path, root: Path, mypy: str = MYPY, python: str | None = None) -> Path:
    """A complete entry for the sources under ``root`` as they are now (empty stand-ins for the .so files)."""
    name = acc.key(ENGINE, mypy, root)
    folder = cache / "compiled" / name
    modules = {m: acc.relative_file(m) for m in (*acc.ENGINES[ENGINE], acc.shared_library(ENGINE))}
    for path in modules.values():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(b"not really a library")
    manifest = {"format": acc.FORMAT, "engine": ENGINE, "key": name, "python": python or acc.python_tag(),
                "mypy": mypy, "built": "today", "modules": modules,
                "sizes": {p: (folder / p).stat().st_size for p in modules.values()}}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def decide(root, cache, **kw):
    return acc.decide(ENGINE, root=root, cache=cache, loaded=kw.pop("loaded", {}), mypy=MYPY, **kw)


def test_key_covers_every_source_the_python_and_mypy(tree):
    first = acc.key(ENGINE, MYPY, tree)
    assert first == acc.key(ENGINE, MYPY, tree)
    assert acc.key(ENGINE, "9.9.10", tree) != first
    assert acc.key(ENGINE, MYPY, tree, python="cpython-312 .cpython-312-x86_64-linux-gnu.so linux-x86_64") != first
    for module in (acc.ENGINES[ENGINE][0], "generator.sim.rng"):
        source = acc.source_file(module, tree)
        text = source.read_bytes()
        source.write_bytes(text + b"\n")
        assert acc.key(ENGINE, MYPY, tree) != first, module
        source.write_bytes(text)
    assert acc.key(ENGINE, MYPY, tree) == first


def test_a_complete_entry_for_the_sources_is_used(tree, tmp_path, on):
    folder = fake_entry(tmp_path / "cache", tree)
    decision = decide(tree, tmp_path / "cache")
    assert decision.compiled, decision
    assert set(decision.files) == {*acc.ENGINES[ENGINE], acc.shared_library(ENGINE)}
    assert decision.files["generator.sim.state"] == folder / acc.relative_file("generator.sim.state")


def test_an_edited_source_runs_python(tree, tmp_path, on):
    fake_entry(tmp_path / "cache", tree)
    source = acc.source_file("generator.sim.games.metroidvania_agents", tree)
    source.write_text(source.read_text() + "# edited\n")
    decision = decide(tree, tmp_path / "cache")
    assert not decision.compiled
    assert "sources changed" in decision.reason


def test_not_built_another_python_or_mypy(tree, tmp_path, on):
    assert "not built" in decide(tree, tmp_path / "cache").reason
    fake_entry(tmp_path / "cache", tree, mypy="1.0")
    decision = decide(tree, tmp_path / "cache")
    assert not decision.compiled and "another Python or mypy" in decision.reason


def test_the_environment_variable_turns_it_off(tree, tmp_path, monkeypatch):
    fake_entry(tmp_path / "cache", tree)
    for value in ("1", "yes"):
        monkeypatch.setenv(acc.OFF, value)
        decision = decide(tree, tmp_path / "cache")
        assert not decision.compiled and acc.OFF in decision.reason
    monkeypatch.setenv(acc.OFF, "0")
    assert decide(tree, tmp_path / "cache").compiled


def test_an_incomplete_entry_is_not_used(tree, tmp_path, on):
    folder = fake_entry(tmp_path / "cache", tree)
    (folder / acc.relative_file("generator.sim.rng")).write_bytes(b"cut")  # another size than the manifest's
    assert not decide(tree, tmp_path / "cache").compiled
    (folder / "manifest.json").unlink()
    assert not decide(tree, tmp_path / "cache").compiled


def test_a_list_module_imported_as_python_keeps_the_list_python(tree, tmp_path, on):
    fake_entry(tmp_path / "cache", tree)
    decision = decide(tree, tmp_path / "cache", loaded={"generator.sim.rng": object()})
    assert not decision.compiled and "generator.sim.rng" in decision.reason


def test_an_empty_cache_setting_or_no_mypy_runs_python(tree, tmp_path, monkeypatch, on):
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    assert "no cache folder" in acc.decide(ENGINE, root=tree, loaded={}, mypy=MYPY).reason
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    fake_entry(tmp_path / "cache", tree)
    monkeypatch.setattr(acc, "mypy_version", lambda: None)
    assert "mypy is not installed" in acc.decide(ENGINE, root=tree, loaded={}).reason


def test_the_finder_serves_the_list_and_its_shared_library_from_the_entry(tree, tmp_path, on):
    fake_entry(tmp_path / "cache", tree)
    calls = []

    def deciding(engine):
        calls.append(engine)
        return decide(tree, tmp_path / "cache")

    finder = acc._Finder(deciding)
    for name in ("generator.sim.games.metroidvania", "generator.sim.state", acc.shared_library(ENGINE)):
        spec = finder.find_spec(name)
        assert isinstance(spec.loader, ExtensionFileLoader)
        assert spec.origin.startswith(str(tmp_path / "cache" / "compiled"))
    assert calls == [ENGINE]  # decided once for the whole list
    assert finder.find_spec("generator.sim.games.metroidvania_report") is None  # not in the list
    assert finder.find_spec("generator.sim.games.valheim_report") is None
    assert finder.find_spec("json") is None


def test_the_finder_leaves_a_python_list_alone_and_survives_a_broken_cache(tmp_path):
    finder = acc._Finder(lambda engine: acc.Decision(engine, "not built"))
    assert finder.find_spec("generator.sim.state") is None

    def broken(engine):
        raise PermissionError("no")

    finder = acc._Finder(broken)
    assert finder.find_spec("generator.sim.state") is None
    assert "could not be read" in finder.decisions[ENGINE].reason


def test_installed_once_and_first(monkeypatch):
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    assert isinstance(sys.meta_path[0], type(acc.finder())) and acc.finder() is sys.meta_path[0]
    acc.install()
    assert sum(getattr(f, "pnp_compiled_engines", False) for f in sys.meta_path) == 1


def test_the_suite_runs_python():
    import generator.sim.games.metroidvania as engine

    assert os.environ.get(acc.OFF) == "1"
    assert not acc.is_compiled(engine)
    assert acc.running(ENGINE) is None or not acc.running(ENGINE).compiled


def test_lists_are_disjoint_and_their_sources_exist():
    seen: set = set()
    for engine, modules in acc.ENGINES.items():
        assert not seen & set(modules), engine  # one compiled copy of a module can be loaded
        seen |= set(modules)
        for module in modules:
            assert acc.source_file(module).is_file(), module
    from generator.sim.games import ENGINES

    assert set(acc.ENGINES) <= set(ENGINES)


def test_mypy_version_is_read_without_importing_mypy():
    version = acc.mypy_version()
    if version is None:
        pytest.skip("mypy is not installed")
    import importlib.metadata

    assert version == importlib.metadata.version("mypy")


def test_build_says_what_is_missing(monkeypatch, tmp_path):
    monkeypatch.setattr(acc, "mypy_version", lambda: None)
    with pytest.raises(accelerate_build.AccelerateError, match=r"pip install -e '\.\[fast\]'"):
        accelerate_build.build([ENGINE], cache=tmp_path)
    monkeypatch.setattr(acc, "mypy_version", lambda: MYPY)
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(accelerate_build.AccelerateError, match="no C compiler"):
        accelerate_build.build([ENGINE], cache=tmp_path)
    assert not (tmp_path / "compiled").exists() or not any((tmp_path / "compiled").iterdir())


def test_a_type_error_shows_mypys_lines():
    lines = ["running build_ext", "generator/sim/rng.py:12: error: Incompatible types  [assignment]",
             "generator/sim/rng.py:12: note: see here", "Found 1 error"]
    message = accelerate_build._failure(ENGINE, lines)
    assert "type errors" in message and "generator/sim/rng.py:12: error: Incompatible types" in message
    assert "running build_ext" not in message


def test_an_entry_already_built_is_not_built_again(tmp_path, monkeypatch):
    monkeypatch.setattr(acc, "mypy_version", lambda: MYPY)
    monkeypatch.setattr(accelerate_build, "prerequisites", lambda: MYPY)
    folder = fake_entry(tmp_path, acc.ROOT)
    built = accelerate_build.build([ENGINE], cache=tmp_path)
    assert [(b.engine, b.folder, b.fresh) for b in built] == [(ENGINE, folder, False)]


def pnp(*args, env=None):
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, cwd=REPO)


def test_status_and_version_say_python_and_why(tmp_path):
    proc = pnp("accelerate", "--status")
    assert proc.returncode == 0, proc.stderr
    assert "metroidvania  pure: disabled (PNP_PURE_PYTHON=1)" in proc.stdout
    assert "fatal-fight   pure: disabled (PNP_PURE_PYTHON=1)" in proc.stdout
    assert "valheim       pure: disabled (PNP_PURE_PYTHON=1)" in proc.stdout
    proc = pnp("--version")
    assert proc.returncode == 0 and "compiled simulators: none (PNP_PURE_PYTHON is set)" in proc.stdout
    proc = pnp("accelerate", "valhiem")
    assert proc.returncode == 2 and "no simulator named valhiem" in proc.stderr


def test_a_long_python_simulation_ends_with_a_tip_that_says_what_accelerate_needs(on, monkeypatch):
    def decided(reason, files=None):
        return lambda engine, loaded: acc.Decision(engine, reason, files)

    def tip(game, seconds, reason, files=None):
        monkeypatch.setattr(acc, "_tipped", [])
        return acc.speed_tip(game, seconds, decide_=decided(reason, files))

    said = tip("valheim", 31.4, "not built (pnp accelerate builds it)")
    assert said.startswith("tip: that took 31 s as Python; `pnp accelerate valheim` compiles the simulator once")
    assert "needs" not in said
    # once a process: `pnp build` of every game says it for the first only
    assert acc.speed_tip("metroidvania", 45, decide_=decided("not built")) is None
    assert "pip install -e '.[fast]'" in tip("valheim", 31.4,
                                            "mypy is not installed (its version is part of the key; pip install -e '.[fast]')")
    assert "its last build is for other sources" in tip("fatal-fight", 25,
                                                         "sources changed since its build (pnp accelerate builds it anew)")
    monkeypatch.setattr(acc, "_tipped", [])
    # no tip: short, compiled already, an engine with no compiled list, or no time known
    assert acc.speed_tip("valheim", acc.TIP_SECONDS - 1, decide_=decided("not built")) is None
    assert acc.speed_tip("valheim", 60, decide_=decided("built", {"m": Path("m.so")})) is None
    assert acc.speed_tip("my-game", 60, decide_=decided("not built")) is None
    assert acc.speed_tip("valheim", None, decide_=decided("not built")) is None


def test_the_closing_line_counts_engines_built_before(on, monkeypatch):
    from generator.commands.accelerate import ran_compiled

    engines = ["fatal-fight", "metroidvania", "valheim"]
    monkeypatch.setattr(acc, "decide", lambda engine, loaded: acc.Decision(engine, "x", {} if engine == "metroidvania" else None))
    # valheim just built, metroidvania built by an earlier run (it said "metroidvania as Python")
    assert ran_compiled(acc, engines, ["valheim"]) == \
        "pnp simulate and validate run metroidvania, valheim compiled; fatal-fight as Python (PNP_PURE_PYTHON=1: all as Python)"


def test_no_tip_when_python_was_chosen(monkeypatch):
    monkeypatch.setenv(acc.OFF, "1")
    assert acc.speed_tip("valheim", 60, decide_=lambda engine, loaded: acc.Decision(engine, "not built")) is None


def digests(env: dict, games: int = 3, game: str = "metroidvania") -> str:
    """samegames.py's digest of a few games of ``game``, each agent at 2 and 4 players, and whether
    the engine ran compiled, from a fresh process with ``env``."""
    script = f"""
import sys
sys.path.insert(0, {str(REPO / 'bench')!r})
from samegames import digest
from simbench import load
from generator.sim import accelerate, agents, games
engine = games.engine_for({game!r})
setup = engine.compile_setup(load({game!r})[1])
print("compiled" if accelerate.is_compiled(engine) else "pure")
for agent in agents.agent_names(engine):
    for players in (2, 4):
        print(agent, players, digest(engine, setup, agent, players, {games}))
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=REPO,
                          env={**os.environ, **env})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize("game", ["metroidvania", "fatal-fight", "valheim"])
def test_a_compiled_engine_plays_the_same_games(tmp_path, game):
    """Builds the engine into a cache of its own (a minute or two) and plays a few games compiled and pure."""
    if acc.mypy_version() is None:
        pytest.skip("mypy is not installed (pip install -e '.[fast]')")
    try:
        accelerate_build.prerequisites()
    except accelerate_build.AccelerateError as exc:
        pytest.skip(str(exc))
    cache = tmp_path / "cache"
    proc = pnp("accelerate", game, env={"PNP_CACHE_DIR": str(cache), acc.OFF: "0"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{game}: compiled (built in" in proc.stdout
    assert not list((REPO / "generator").rglob("*.so")), "a build wrote into the tree"
    compiled = digests({"PNP_CACHE_DIR": str(cache), acc.OFF: "0"}, game=game)
    pure = digests({"PNP_CACHE_DIR": str(cache), acc.OFF: "1"}, game=game)
    assert compiled.splitlines()[0] == "compiled" and pure.splitlines()[0] == "pure"
    assert compiled.splitlines()[1:] == pure.splitlines()[1:]
    status = pnp("accelerate", "--status", env={"PNP_CACHE_DIR": str(cache), acc.OFF: "0"})
    assert f"{game:<13} compiled: built" in status.stdout
    again = pnp("accelerate", game, env={"PNP_CACHE_DIR": str(cache), acc.OFF: "0"})
    assert "already built for these sources" in again.stdout
    assert f"compiled simulators: {game}" in pnp("--version", env={"PNP_CACHE_DIR": str(cache), acc.OFF: "0"}).stdout
    run = pnp("simulate", game, "--players", "2", "--games", "20", "--workers", "2",
              env={"PNP_CACHE_DIR": str(cache), acc.OFF: "0"})
    assert run.returncode == 0 and "games/s (compiled engine: pnp accelerate)" in run.stdout, run.stdout + run.stderr
