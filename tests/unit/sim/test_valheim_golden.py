"""One full Valheim game at a fixed seed, replayed as text (OpenSpiel's playthroughs).

A rules, agent or content change shows up as a diff of tests/golden/valheim_*.txt: review it, then
regenerate with ``PNP_UPDATE_GOLDEN=1 pytest tests/unit/sim/test_valheim_golden.py`` (never blindly).
"""
import os
from pathlib import Path

from generator.sim.games import valheim as V
from generator.sim.runner import replay

from test_valheim_api import vh_tables

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "valheim_greedy_2p_seed3_game0.txt"


def test_golden_playthrough():
    setup = V.compile_setup(vh_tables())
    record, lines = replay(V, setup, players=2, agent="greedy", seed=3, index=0)
    assert record["outcome"] in ("win", "loss") and not record["violations"]
    text = "\n".join(lines + [f"outcome: {record['outcome']} after {record['rounds']} rounds"]) + "\n"
    if os.environ.get("PNP_UPDATE_GOLDEN") or not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
