"""Fixtures for the simulator tests; ``@pytest.mark.slow`` tests run only with ``-m slow``."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import ff_tables  # noqa: E402


def pytest_collection_modifyitems(config, items):
    if config.getoption("-m"):
        return
    skip = pytest.mark.skip(reason="slow simulation check: run with -m slow")
    for item in items:
        if "slow" in item.keywords and Path(str(item.fspath)).is_relative_to(HERE):
            item.add_marker(skip)


@pytest.fixture
def tables():
    return ff_tables.tables()


@pytest.fixture(scope="session")
def setup():
    from generator.sim.games import fatal_fight
    return fatal_fight.compile_setup(ff_tables.tables())
