"""What the three simulator benches share: loading a shipped game, per-core speed, the ±2% sample
and the timed ``check_balance`` (see bench/README.md for what each figure means)."""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.content import load_game  # noqa: E402
from generator.sim.compile import played_tables  # noqa: E402
from generator.sim.runner import few_collections, play_game, start_games  # noqa: E402


def load(name: str):
    """``(game, tables)`` of a shipped game; ``tables`` as the simulator gets them."""
    game = load_game(ROOT / "content" / name)
    return game, played_tables(game)


def per_core(engine, setup, agent, players, games, checked, warm: int = 0) -> tuple[float, float]:
    """``(games/s, decisions per game)`` in CPU time of this process, games played as validation
    plays them (``few_collections``); ``warm`` games first fill per-process tables."""
    for i in range(warm):
        play_game(engine, setup, players=players, agent=agent, seed="warm", index=i)
    with few_collections():
        start = time.process_time()
        decisions = 0
        for i in range(games):
            record, _ = play_game(engine, setup, players=players, agent=agent, seed="bench", index=i,
                                  checked=checked)
            decisions += record["decisions"]
        return games / (time.process_time() - start), decisions / games


def full_sample(engine, tables, counts, agent: str, label: str) -> None:
    """Wall time of 2,400 games per player count on 2 workers (a validation whose every look is
    unclear), one pool for all counts and their games side by side, as ``check_balance`` runs
    its samples (no worker waits for the last games of one count before the next starts)."""
    from concurrent.futures import ProcessPoolExecutor

    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        batches = [start_games(engine, tables, players=players, games=2400, seed=0, agent=agent, workers=2,
                               executor=pool) for players in counts]
        for batch in batches:
            batch.records()
    print(f"{label} ({len(counts)} x 2,400 {agent} games, 2 workers): {time.perf_counter() - start:.1f} s wall")


def timed_check_balance(game, label: str) -> None:
    """Wall time of the real sequential validation, as ``pnp validate`` runs it, without the report."""
    from generator.sim.verdict import check_balance

    start = time.perf_counter()
    result = check_balance(game, workers=2, output_dir=ROOT / "output" / f"bench-{game.id}", write_report=False)
    print(f"check_balance ({label}, 2 workers): {time.perf_counter() - start:.1f} s wall, "
          f"{result.report.get('games_played')} games, passed={result.passed}")
