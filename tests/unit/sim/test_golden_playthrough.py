"""One full game at a fixed seed, replayed as text (OpenSpiel's playthroughs).

A rules or agent change shows up as a diff of tests/golden/sim/*.txt: review it, then regenerate
with ``PNP_UPDATE_GOLDEN=1 pytest tests/unit/sim/test_golden_playthrough.py`` (never blindly).
"""
import os
from pathlib import Path

from generator.sim.games import fatal_fight as ff
from generator.sim.runner import replay

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "sim" / "fatal_fight_greedy_2p_seed3_game0.txt"


def test_golden_playthrough(setup):
    record, lines = replay(ff, setup, players=2, agent="greedy", seed=3, index=0)
    text = "\n".join(lines + [f"outcome: {record['outcome']} after {record['rounds']} rounds"]) + "\n"
    if os.environ.get("PNP_UPDATE_GOLDEN") or not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
