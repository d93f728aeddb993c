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

from simbench import full_sample, load, per_core, timed_check_balance

from generator.sim.games import metroidvania as mv


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=90)
    args = parser.parse_args()
    game, tables = load("metroidvania")
    setup = mv.compile_setup(tables)
    print("games/s per core (CPU time)")
    for agent in ("heuristic", "rush_urza", "random"):
        for players in (1, 2, 3, 4):
            # 12 games first warm the per-process chance tables
            fast, _ = per_core(mv, setup, agent, players, args.games, checked=False, warm=12)
            slow, _ = per_core(mv, setup, agent, players, max(6, args.games // 3), checked=True)
            print(f"  {agent:9} {players} players: {fast:7.1f} unchecked, {slow:7.1f} checked")
    if args.quick:
        return
    full_sample(mv, tables, (1, 2, 3, 4), "heuristic", "±2% sample")
    timed_check_balance(game, "sequential looks + controls + EASY")


if __name__ == "__main__":
    main()
