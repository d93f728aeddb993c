import pytest

from generator.fonts import load_fonts


@pytest.fixture(scope="session")
def font_name() -> str:
    """The project's default embedded font (IPAexGothic), registered with ReportLab."""
    return load_fonts().regular
