"""balance.yaml's known findings: which warnings they accept, and what a wrong entry says."""
import pytest

from generator.errors import Location
from generator.sim import known
from generator.sim.verdict import _Judge

LINES = {"pressure": 3, "pressure.combo": 4, "decisions": 6, "decisions.density_min": 6, "known": 8,
         "known.0": 9, "known.1": 12}


def entry(band, players=None):
    return known.Known(band, players, "why", Location("balance.yaml", 9))


@pytest.mark.parametrize("item, field, said", [
    ({"band": "pressure.combo"}, "known[0]", "expected {band"),
    ({"band": "pressure.combo", "reason": "  "}, "known[0]", "expected {band"),
    ({"band": "pressure.comb", "reason": "r"}, "known[0].band", "no band 'pressure.comb' in this file"),
    ({"band": "pressure.combo", "reason": "r", "players": 2}, "known[0].players", "a list of player counts"),
])
def test_a_wrong_entry_is_an_error_at_its_line(item, field, said):
    entries, [problem] = known.read({"known": [item]}, LINES, "balance.yaml")
    assert entries == [] and problem.location == Location("balance.yaml", 9)
    assert problem.field == field and said in problem.message and problem.severity == "error"


def test_an_entry_covers_its_band_or_section_at_its_counts_only():
    assert entry("pressure.combo").covers("pressure.combo", 2)
    assert entry("pressure").covers("pressure.combo", 3)  # a section of bands
    assert not entry("pressure.com").covers("pressure.combo", 3)  # a key's prefix is not a section
    assert entry("pressure.combo", (2,)).covers("pressure.combo", "2")
    assert not entry("pressure.combo", (2,)).covers("pressure.combo", 3)
    assert not entry("pressure.combo", (2,)).covers("pressure.combo", None)  # pooled over every count


def test_the_judge_accepts_only_the_warnings_an_entry_covers_never_errors():
    judge = _Judge("balance.yaml", LINES, "pnp simulate g", accepted=[entry("pressure.combo", (2,)), entry("decisions")])
    assert judge.band("pressure.combo", "combo", 2, 0.0, (0.0, 0.01), 0.1, 0.4, "combo share") == "warn"
    judge.band("pressure.combo", "combo", 3, 0.0, (0.0, 0.01), 0.1, 0.4, "combo share")
    judge.band("pressure.combo", "combo", 2, 0.0, (0.0, 0.01), 0.1, 0.4, "combo share", hard=True)
    assert [row[4] for row in judge.rows] == ["known", "warn", "FAIL"]
    assert [p.severity for p in judge.problems] == ["known", "warning", "error"]
    assert judge.problems[0].message.endswith("(known: why)")
    [note] = known.unseen(judge.accepted)  # decisions never warned
    assert note.severity == "known" and note.message.startswith("decisions did not warn this time")


def test_an_entry_on_a_band_that_failed_as_an_error_says_so_at_its_line_without_v():
    """Not "did not warn this time (it passed ...)": it failed, and known: never accepts an error."""
    judge = _Judge("balance.yaml", LINES, "pnp simulate g", accepted=[entry("pressure.combo")])
    judge.band("pressure.combo", "combo", 2, 0.0, (0.0, 0.01), 0.1, 0.4, "combo share", hard=True)
    [note] = known.unseen(judge.accepted, judge.problems, judge.command)
    assert note.severity == "warning" and note.location.line == 9
    assert note.message.startswith("pressure.combo failed as an error, which known: cannot accept")
    assert "(pnp simulate g --players N --sweep PATH=A..B)" in note.message
