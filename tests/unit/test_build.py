"""``build_game``: what runs, and what is written, when a build fails."""
import pytest

from generator import build


def test_a_face_problem_fails_the_build_before_the_balance_simulation_runs(tiny, tmp_path, monkeypatch):
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("name: 盗賊", "name: 盗賊\U0001F600"))
    monkeypatch.setattr(build, "run_balance", lambda *a, **k: pytest.fail("the simulation ran"))
    out = tmp_path / "out"
    result = build.build_game(tiny, out)
    assert not result.ok
    assert any("the font has no glyph for" in p.message for p in result.problems)
    assert not out.exists(), "no balance report (nor anything else) for a build that prints nothing"
