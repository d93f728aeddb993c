"""Benchmark the Metroidvania simulator (not a test: figures depend on the machine).

    python bench/sim_metroidvania.py            # per-core speed of each agent, a ±2% sample, check_balance
    python bench/sim_metroidvania.py --quick    # speed only

Prints games/s per core (CPU time of one process, so other load on the machine matters less), the
wall time of a ±2% validation sample (2,400 heuristic games for each of 1-4 players on 2 worker
processes) and the wall time of the sequential ``check_balance`` (NORMAL looks, random and rush
controls, EASY runs).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.content import load_game  # noqa: E402
from generator.sim.games import metroidvania as mv  # noqa: E402
from generator.sim.runner import few_collections, play_game, run_games  # noqa: E402


def per_core(setup, agent, players, games, checked):
    for i in range(12):  # warm the (per-process) chance tables first
        play_game(mv, setup, players=players, agent=agent, seed="warm", index=i)
    with few_collections():  # as validation plays its games (runner.run_games)
        start = time.process_time()
        for i in range(games):
            play_game(mv, setup, players=players, agent=agent, seed="bench", index=i, checked=checked)
        return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=90)
    args = parser.parse_args()
    game = load_game(ROOT / "content" / "metroidvania")
    tables = {k: v for k, v in game.tables.items() if k != "balance"}
    setup = mv.compile_setup(tables)
    print("games/s per core (CPU time)")
    for agent in ("heuristic", "rush_urza", "random"):
        for players in (1, 2, 3, 4):
            fast = per_core(setup, agent, players, args.games, checked=False)
            slow = per_core(setup, agent, players, max(6, args.games // 3), checked=True)
            print(f"  {agent:9} {players} players: {fast:7.1f} unchecked, {slow:7.1f} checked")
    if args.quick:
        return
    start = time.perf_counter()
    for players in (1, 2, 3, 4):
        run_games(mv, tables, players=players, games=2400, seed=0, agent="heuristic", workers=2)
    print(f"±2% sample (4 x 2,400 heuristic games, 2 workers): {time.perf_counter() - start:.1f} s wall")
    from generator.sim.verdict import check_balance
    start = time.perf_counter()
    result = check_balance(game, workers=2, output_dir=ROOT / "output" / "bench-metroidvania", write_report=False)
    print(f"check_balance (sequential looks + controls + EASY, 2 workers): {time.perf_counter() - start:.1f} s wall, "
          f"{result.report.get('games_played')} NORMAL games, passed={result.passed}")


if __name__ == "__main__":
    main()
