"""`pnp export --png / --tts` advance a progress bar on a terminal, as a build's rendering does."""
import json

from generator.export.run import run_export
from tests.unit.test_build import _Bars


def test_png_and_tts_exports_advance_a_bar_each_to_its_whole(tiny, tmp_path):
    reporter = _Bars()
    result = run_export(tiny, tmp_path, png=True, tts=True, dpi=20, reporter=reporter)
    assert result.ok
    png, tts = reporter.bars
    faces = len([p for p in result.written if p.suffix == ".png" and p.parent.parent.name == "png-20dpi"])
    decks = len(json.loads((tmp_path / "tts" / "tiny.json").read_text())["ObjectStates"])
    assert (png["label"], png["length"], sum(png["updates"])) == ("PNG faces", faces, faces) and faces > 1
    assert (tts["label"], tts["length"], tts["updates"]) == ("TTS decks", decks, [1] * decks) and decks > 1
