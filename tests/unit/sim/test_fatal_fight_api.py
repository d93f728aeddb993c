"""Generic State-contract checks (OpenSpiel's random_sim_test, RLCard's determinism test)."""
import random

import pytest

from generator.sim.games import fatal_fight as ff
from generator.sim.rng import agent_rng, deal_rng
from generator.sim.runner import play_game

from engine_checks import clone_replays_the_same_future  # tests/unit/sim, on the path by its conftest
from global_random import game_log


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_terminate_with_legal_actions_and_conserve_cards(setup, players):
    for index in range(12):
        state = ff.new_game(setup, players, deal_rng(1, index))
        rng = agent_rng(1, index, 0)
        steps = 0
        last_round = state.round_id
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, f"no legal action at step {steps}"
            assert legal == sorted(legal)
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
            assert steps < 20_000
            if state.round_id != last_round:
                last_round = state.round_id
                assert ff.check_invariants(state) == []
        assert ff.check_invariants(state) == []
        assert state.outcome in ("win", "loss", "stall")
        assert len(state.returns()) == players and state.current_player() < 0


def test_clone_is_independent_and_replays_the_same_future(setup):
    clone_replays_the_same_future(ff.new_game(setup, 3, deal_rng(5, 0)), random.Random(9), 60, 80,
                                  lambda twin: (str(twin), list(twin.log), [list(h) for h in twin.hand]))


def test_global_random_never_changes_a_game(setup):
    assert game_log(ff, setup, "greedy", pollute=False) == game_log(ff, setup, "greedy", pollute=True)


@pytest.mark.parametrize("agent", ["greedy", "nocombo", "random"])
def test_agents_only_choose_legal_actions(setup, agent):
    for index in range(4):
        record, _ = play_game(ff, setup, players=3, agent=agent, seed=2, index=index, checked=True)
        assert record["outcome"] in ("win", "loss", "stall"), record["error"] or record["violations"]
        assert record["violations"] == []


@pytest.mark.parametrize("players", [1, 5])
def test_a_team_size_outside_the_rules_is_refused_not_played(setup, players):
    """rules.yaml min_characters..max_characters (2..4): `pnp simulate --players 1` is a usage
    error naming the range, not a run of a team the game does not have."""
    with pytest.raises(ValueError, match=r"supports 2\.\.4 characters \(rules.yaml min_characters"):
        ff.new_game(setup, players, deal_rng(1, 0))
