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


@pytest.mark.parametrize("idea", [None, "n11_debuffs", "n8_power_gauge"])
def test_is_legal_agrees_with_the_list(idea):
    """``is_legal`` judges plays, moves, items and purchases by their own rule, not by the legal
    list: the same answer as the list for every listed action and for near misses (cards not held,
    every target, every square, a wound cured with no gold), at every decision of random games."""
    from test_fatal_fight_switches import with_keywords

    import ff_tables
    from generator.sim.games.fatal_fight_actions import END, FINISH, ITEM, JOIN, MOVE, PASS, PLAY, is_legal
    from generator.sim.games.fatal_fight_agents import GreedyAgent
    from generator.sim.games.fatal_fight_shop import BUY, CURE, UPGRADE

    tables = with_keywords(ff_tables.tables())
    if idea:
        tables["rules"]["ideas"][idea]["enabled"] = True
    if idea == "n8_power_gauge":
        tables["rules"]["ideas"][idea]["feed_per_round"] = 2  # items after a first feed are not legal
    setup = ff.compile_setup(tables)
    kinds = {ITEM: 0, UPGRADE: 0, BUY: 0, CURE: 0}  # how often each was legal: the games reached them
    for index in range(6):  # random games, and greedy ones (which take and use supplies)
        state = ff.new_game(setup, 3, deal_rng("is_legal", index))
        rng = agent_rng("is_legal", index, 0)
        greedy = [GreedyAgent(setup, seat) for seat in range(3)] if index % 2 else None
        for seat in range(3):  # items from the start: few games take one (a strike knife, a heal)
            state.give_supply(seat, "knife")
            state.give_supply(seat, "chicken")
            if state.wound_pool:  # N11: a wound to cure at the next stage start
                state.deck[seat].append(state.wound_pool.pop())
        state._legal = None
        while not state.is_terminal():
            legal = state.legal_actions()
            s = state.seat
            cards = {*state.hand[s], *state.carry[s], *state.gym, *state.upgrades_left[s], *state.deck[s],
                     *state.carry[(s + 1) % state.n], 0}
            probes = {*legal, (END,), (FINISH,), (PASS,), (ITEM,), (BUY, 0, 0), *((MOVE, q) for q in range(9))}
            for c in cards:
                probes |= {(PLAY, c), (JOIN, c), (ITEM, c), (UPGRADE, c), (BUY, c), (CURE, c),
                           *((ITEM, c, k) for k in range(-1, 6))}
            for probe in probes:
                state._legal = None  # the fast paths, not a look-up in the kept list
                assert is_legal(state, probe) == (probe in legal), (state.phase, probe)
                if probe[0] in kinds and probe in legal:
                    kinds[probe[0]] += 1
            state.apply_action(greedy[state.current_player()].choose(state, rng) if greedy else
                               legal[int(rng.random() * len(legal))])
    assert kinds[ITEM] and kinds[UPGRADE] and kinds[BUY] and (kinds[CURE] or idea != "n11_debuffs"), kinds
