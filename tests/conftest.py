import os
import shutil
from pathlib import Path

import pytest

# Compiled engines (``pnp accelerate``) never run under the suite, nor in the commands it starts: several
# tests patch an engine's functions, which compiled code calls directly. Set before any test module
# imports an engine; a test that wants them compiled sets its own subprocess's environment.
os.environ["PNP_PURE_PYTHON"] = "1"

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(config, items):
    """``@pytest.mark.slow`` tests run only when asked for (``-m slow``), wherever they are."""
    if config.getoption("-m"):
        return
    skip = pytest.mark.skip(reason="slow check: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A fresh copy of the tiny test game (safe to edit)."""
    target = tmp_path / "tiny"
    shutil.copytree(DATA / "tiny", target)
    return target


@pytest.fixture(scope="module")
def tiny_checked(tmp_path_factory):
    """``(game, cards)`` of a copy of the tiny test game, checked clean once per test module: for
    tests that print it and change nothing."""
    from generator.validate import check_content

    root = tmp_path_factory.mktemp("checked") / "tiny"
    shutil.copytree(DATA / "tiny", root)
    game, cards, problems = check_content(root, check_faces=False)
    assert not problems
    return game, cards


@pytest.fixture
def in_repo(monkeypatch):
    """Run with the repository as the working directory (./content, ./layouts)."""
    monkeypatch.chdir(REPO)
    return REPO


@pytest.fixture(autouse=True, scope="session")
def _own_cache_dir(tmp_path_factory):
    """Tests (and the commands they start) keep parsed fonts in a cache of their own, never in
    the user's ~/.cache."""
    import os

    saved = os.environ.get("PNP_CACHE_DIR")
    os.environ["PNP_CACHE_DIR"] = str(tmp_path_factory.mktemp("pnp-cache"))
    yield
    if saved is None:
        os.environ.pop("PNP_CACHE_DIR", None)
    else:
        os.environ["PNP_CACHE_DIR"] = saved


@pytest.fixture(autouse=True)
def _no_progress_lines(monkeypatch):
    """In a test a command runs in a pipe, where it prints a progress line every 15 s: a slow CI host
    would then mix one into the output a test reads (a JSON document, an exact message). The pipe's clock
    stands still unless a test moves it (tests/unit/test_progress_lines.py's ``clock``)."""
    from generator import cli

    monkeypatch.setattr(cli._LineBar, "clock", staticmethod(lambda: 0.0))
