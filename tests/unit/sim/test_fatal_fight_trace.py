"""`pnp simulate fatal-fight --game I --trace` names what happened: every event the engine logs
has its sentence (the raw fallback `kind 1 3` is for an event nobody has described yet)."""
import re
from pathlib import Path

import pytest

from generator.content import load_game
from generator.sim.compile import played_tables
from generator.sim.games import fatal_fight as ff
from generator.sim.runner import replay

RAW = re.compile(r"^\s+[a-z_]+( -?\d+)+\s*$")   # what describe() prints for an event it does not know
SHIPPED = Path(__file__).resolve().parents[3] / "content" / "fatal-fight"


@pytest.fixture(scope="module")
def shipped_setup():
    return ff.compile_setup(played_tables(load_game(SHIPPED)))


def test_every_logged_event_of_greedy_games_is_described(shipped_setup):
    raw, lines_seen = set(), []
    for players in (2, 3, 4):
        for index in range(12):
            _, lines = replay(ff, shipped_setup, players=players, agent="greedy", seed=0, index=index)
            raw.update(line.split()[0] for line in lines if RAW.match(line))
            lines_seen += lines
    assert not raw, f"events traced raw: {sorted(raw)}"
    text = "\n".join(lines_seen)
    for sentence in ("takes the pickup on", "an obstacle (life", "the boss moves to"):   # they did happen
        assert sentence in text
