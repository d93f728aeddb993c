"""Metroidvania: the markers on the board, counted at every turn from a kept count of skill and event levels
(issue #8, session 17), are what a recount of the board gives at every decision, thorns and flowers included."""
from pathlib import Path

import pytest

from generator.content import load_game
from generator.sim.agents import make_agent
from generator.sim.compile import played_tables
from generator.sim.games import metroidvania as mv
from generator.sim.rng import agent_rng, deal_rng

CONTENT = Path(__file__).resolve().parents[3] / "content" / "metroidvania"


@pytest.fixture(scope="module")
def setup():
    return mv.compile_setup(played_tables(load_game(CONTENT)))


def recount(state):
    """Rooms explored, bosses in a fight, skill levels and flowers on event cards, from the board itself."""
    return (sum(state.explored) + sum(state.b_active) + sum(sk[1] for mine in state.skills for sk in mine)
            + sum(h[2] for h in state.held))


@pytest.mark.parametrize("agent", ["heuristic", "random"])
def test_markers_equal_a_recount_of_the_board_at_every_decision(setup, agent):
    levels = flowers = 0
    for i in range(4):
        state = mv.new_game(setup, 4, deal_rng("markers", i))
        agents = [make_agent(mv, agent, setup, s) for s in range(4)]
        rngs = [agent_rng("markers", i, s) for s in range(4)]
        while not state.is_terminal():
            assert state.markers() == recount(state)
            assert mv.check_invariants(state) == []
            seat = state.current_player()
            action = agents[seat].choose(state, rngs[seat])
            levels += action[0] == mv.LEVEL_A
            flowers += action[0] == mv.FLOWER
            state.apply_action(action)
        assert state.markers() == recount(state)
    assert levels and flowers   # both ways a level is gained were played


def test_a_thorn_and_a_flower_each_add_a_marker(setup):
    state = mv.new_game(setup, 2, deal_rng("markers-one", 0))
    before = state.markers()
    state.tasks.insert(0, ("level", 0))   # a thorn: level one of her skills
    state.phase, state.seat = mv.LEVEL, 0
    state._apply((mv.LEVEL_A, 0))
    assert state.markers() == before + 1 == recount(state)
    state.held.append([0, 0, 0])   # an event card in play, and a memory flower on it
    state.flowers[state.active].append(-1)
    rooms_and_fights = sum(state.explored) + sum(state.b_active)
    state.use_flower(len(state.held) - 1)   # (its derived event may explore or start something too)
    assert state.markers() - (sum(state.explored) + sum(state.b_active) - rooms_and_fights) == before + 2
    assert state.markers() == recount(state)
