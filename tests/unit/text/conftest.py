import pytest

from generator.fonts import load_fonts


@pytest.fixture(scope="session")
def fonts():
    return load_fonts()
