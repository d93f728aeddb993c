"""Fixtures for the simulator tests."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import ff_tables  # noqa: E402


@pytest.fixture
def tables():
    return ff_tables.tables()


@pytest.fixture(scope="session")
def setup():
    from generator.sim.games import fatal_fight
    return fatal_fight.compile_setup(ff_tables.tables())
