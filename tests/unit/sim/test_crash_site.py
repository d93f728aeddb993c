"""The M0 problem of a crash in a game's own simulator is located at the line that raised."""
from generator.sim.crash_site import crash_site


def test_a_crash_in_a_file_of_the_game_is_located_there_and_said_once(tmp_path):
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "rules.py").write_text("")
    at, line = crash_site(tmp_path, "KeyError: 'oops' (at rules.py:12)")
    assert (at.path, at.line, line) == (str(tmp_path / "sim" / "rules.py"), 12, "KeyError: 'oops'")


def test_a_crash_elsewhere_or_without_a_place_keeps_the_bands_location(tmp_path):
    assert crash_site(tmp_path, "KeyError: 'oops' (at valheim.py:12)") is None   # a shipped engine's file
    assert crash_site(tmp_path, "round 3: the deck lost a card") is None
    assert crash_site(None, "KeyError: 'oops' (at sim.py:12)") is None
