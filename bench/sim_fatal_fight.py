"""Benchmark the Fatal Fight simulator (not a test: figures depend on the machine).

    python bench/sim_fatal_fight.py            # per-core speed of each agent, then a ±2% run
    python bench/sim_fatal_fight.py --quick    # speed only

Prints games/s per core (CPU time of one process, so other load on the machine matters less),
the wall time of a full ±2% validation sample (2,400 greedy games for each of 2, 3 and 4
characters on 2 worker processes) and the wall time of the sequential ``check_balance``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.content import load_game  # noqa: E402
from generator.sim.games import fatal_fight as ff  # noqa: E402
from generator.sim.runner import few_collections, play_game, run_games  # noqa: E402


def per_core(setup, agent, players, games, checked):
    with few_collections():  # as validation plays its games (runner.run_games)
        start = time.process_time()
        for i in range(games):
            play_game(ff, setup, players=players, agent=agent, seed="bench", index=i, checked=checked)
        return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=150)
    args = parser.parse_args()
    game = load_game(ROOT / "content" / "fatal-fight")
    tables = {k: v for k, v in game.tables.items() if k != "balance"}
    setup = ff.compile_setup(tables)
    print("games/s per core (CPU time)")
    for agent in ("greedy", "nocombo", "random"):
        for players in (2, 3, 4):
            fast = per_core(setup, agent, players, args.games, checked=False)
            slow = per_core(setup, agent, players, args.games // 3, checked=True)
            print(f"  {agent:8} {players} characters: {fast:7.1f} unchecked, {slow:7.1f} checked")
    if args.quick:
        return
    start = time.perf_counter()
    for players in (2, 3, 4):
        run_games(ff, tables, players=players, games=2400, seed=0, agent="greedy", workers=2)
    print(f"full ±2% sample (3 x 2,400 greedy games, 2 workers): {time.perf_counter() - start:.1f} s wall")
    from generator.sim.verdict import check_balance
    start = time.perf_counter()
    result = check_balance(game, workers=2, output_dir=ROOT / "output" / "bench-fatal-fight", write_report=False)
    print(f"check_balance (sequential looks, 2 workers): {time.perf_counter() - start:.1f} s wall, "
          f"{result.report.get('games_played')} games, passed={result.passed}")


if __name__ == "__main__":
    main()
