"""Benchmark the Fatal Fight simulator (not a test: figures depend on the machine).

    python bench/sim_fatal_fight.py            # per-core speed of each agent, then a ±2% run
    python bench/sim_fatal_fight.py --quick    # speed only

Prints games/s per core (CPU time of one process, so other load on the machine matters less),
the wall time of a full ±2% validation sample (2,400 greedy games for each of 2, 3 and 4
characters on 2 worker processes) and the wall time of the sequential ``check_balance``.
"""
from __future__ import annotations

import argparse

from simbench import full_sample, load, per_core, timed_check_balance

from generator.sim.games import fatal_fight as ff


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=150)
    args = parser.parse_args()
    game, tables = load("fatal-fight")
    setup = ff.compile_setup(tables)
    print("games/s per core (CPU time)")
    for agent in ("greedy", "nocombo", "random"):
        for players in (2, 3, 4):
            fast, _ = per_core(ff, setup, agent, players, args.games, checked=False)
            slow, _ = per_core(ff, setup, agent, players, args.games // 3, checked=True)
            print(f"  {agent:8} {players} characters: {fast:7.1f} unchecked, {slow:7.1f} checked")
    if args.quick:
        return
    full_sample(ff, tables, (2, 3, 4), "greedy", "full ±2% sample")
    timed_check_balance(game, "sequential looks")


if __name__ == "__main__":
    main()
