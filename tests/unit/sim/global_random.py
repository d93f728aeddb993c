"""One game played by hand as the engine tests check that the global ``random`` never changes it."""
from __future__ import annotations

import random

from generator.sim.rng import agent_rng, deal_rng


def game_log(engine, setup, agent: str, pollute: bool, players: int = 3) -> list:
    """The event log of game 3 of seed 7, each seat's ``agent`` with its own generator; ``pollute``:
    the global ``random`` is seeded first and drawn from before every decision."""
    if pollute:
        random.seed(12345)
    state = engine.new_game(setup, players, deal_rng(7, 3))
    agents = [engine.AGENTS[agent](setup, s) for s in range(players)]
    rngs = [agent_rng(7, 3, s) for s in range(players)]
    while not state.is_terminal():
        if pollute:
            random.random()
            random.shuffle([1, 2, 3])
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, rngs[seat]))
    return state.log
