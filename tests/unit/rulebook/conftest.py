import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data"
RULEBOOK = Path(__file__).parent / "data" / "rulebook"


def tiny_with_rulebook(target: Path) -> Path:
    """A copy of the tiny test game with the small rulebook fixture of these tests."""
    shutil.copytree(DATA / "tiny", target)
    shutil.copytree(RULEBOOK, target / "rulebook")
    return target


@pytest.fixture
def tiny_book(tmp_path) -> Path:
    return tiny_with_rulebook(tmp_path / "tiny")


@pytest.fixture(scope="module")
def composed(tmp_path_factory):
    """The fixture rulebook composed once per module (A5, with the booklet)."""
    from generator.rulebook import compose

    game = tiny_with_rulebook(tmp_path_factory.mktemp("book") / "tiny")
    return game, compose(game, booklet=True)
