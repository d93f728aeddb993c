import importlib.util
import os

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT = "IPAexGothic"


def register_font() -> str:
    """Register IPAexGothic with ReportLab, found without importing matplotlib_fontja."""
    if FONT not in pdfmetrics.getRegisteredFontNames():
        spec = importlib.util.find_spec("matplotlib_fontja")
        path = os.path.join(spec.submodule_search_locations[0], "fonts", "ipaexg.ttf")
        pdfmetrics.registerFont(TTFont(FONT, path))
    return FONT


@pytest.fixture(scope="session")
def font_name() -> str:
    return register_font()
