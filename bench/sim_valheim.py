"""Benchmark the Valheim simulator (not a test: figures depend on the machine).

    python bench/sim_valheim.py            # per-core speed of each agent, a ±2% sample, check_balance
    python bench/sim_valheim.py --quick    # speed only

Prints games/s per core (CPU time of one process, so other load on the machine matters less), the
decisions per game, the engine's share (the same greedy games replayed without the agents), the wall time of a full ±2% validation sample (2,400 greedy games for each of
2, 3 and 4 players on 2 worker processes) and the wall time of the sequential ``check_balance``
(``pnp validate valheim``'s balance step) on the shipped content.
"""
from __future__ import annotations

import argparse
import time

from simbench import full_sample, load, per_core, timed_check_balance

from generator.sim.games import valheim as vh


def engine_only(setup, players, games):
    """games/s of the engine alone: the greedy games' decisions recorded, then replayed without agents."""
    from generator.sim.agents import make_agent
    from generator.sim.rng import agent_rng, deal_rng
    plays = []
    for i in range(games):
        state = vh.new_game(setup, players, deal_rng("bench", i))
        agents = [make_agent(vh, "greedy", setup, seat) for seat in range(players)]
        rngs = [agent_rng("bench", i, seat) for seat in range(players)]
        actions = []
        while not state.is_terminal():
            seat = state.current_player()
            actions.append(agents[seat].choose(state, rngs[seat]))
            state.apply_action(actions[-1])
        plays.append(actions)
    start = time.process_time()
    for i, actions in enumerate(plays):
        state = vh.new_game(setup, players, deal_rng("bench", i))
        for action in actions:
            state.current_player()
            state.apply_action(action)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=150)
    args = parser.parse_args()
    game, tables = load("valheim")
    setup = vh.compile_setup(tables)
    print("games/s per core (CPU time), decisions per game")
    for agent in ("greedy", "oracle", "random"):
        for players in (2, 3, 4):
            fast, per = per_core(vh, setup, agent, players, args.games, checked=False)
            slow, _ = per_core(vh, setup, agent, players, max(10, args.games // 3), checked=True)
            print(f"  {agent:7} {players} players: {fast:7.1f} unchecked, {slow:7.1f} checked, {per:6.0f} decisions")
    for players in (2, 3, 4):
        print(f"  engine alone, greedy games, {players} players: {engine_only(setup, players, args.games):7.1f}")
    if args.quick:
        return
    full_sample(vh, tables, (2, 3, 4), "greedy", "full ±2% sample")
    timed_check_balance(game, "sequential looks")


if __name__ == "__main__":
    main()
