import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A fresh copy of the tiny test game (safe to edit)."""
    target = tmp_path / "tiny"
    shutil.copytree(DATA / "tiny", target)
    return target


@pytest.fixture
def in_repo(monkeypatch):
    """Run with the repository as the working directory (./content, ./layouts)."""
    monkeypatch.chdir(REPO)
    return REPO
