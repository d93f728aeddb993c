"""Valheim engine: the generic State contract (OpenSpiel's random_sim_test, RLCard's determinism
test) on the shipped content — termination within the caps, a legal action in every non-terminal
state, invariants (cards conserved, no negative resources), clones, determinism, worker counts."""
import copy
import random
from functools import lru_cache
from pathlib import Path

import pytest

from generator.content import load_game
from generator.sim.compile import played_tables
from generator.sim.games import valheim as V
from generator.sim.games import valheim_rules as R
from generator.sim.rng import agent_rng, deal_rng
from generator.sim.runner import play_game, run_games

from engine_checks import clone_replays_the_same_future  # tests/unit/sim, on the path by its conftest
from global_random import game_log

ROOT = Path(__file__).resolve().parents[3]


@lru_cache(maxsize=1)
def _tables():
    game = load_game(ROOT / "content" / "valheim")
    return played_tables(game)


def vh_tables():
    return copy.deepcopy(_tables())


@pytest.fixture(scope="module")
def vsetup():
    return V.compile_setup(vh_tables())


def _random_playout(setup, players, seed, index):
    state = V.new_game(setup, players, deal_rng(seed, index))
    rng = agent_rng(seed, index, 0)
    steps, last_round = 0, state.round_id
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action at step {steps}:\n{state}"
        assert legal == sorted(legal)
        action = legal[int(rng.random() * len(legal))]
        assert state.is_legal(action)
        state.apply_action(action)
        steps += 1
        assert steps < 20_000
        if state.round_id != last_round:
            last_round = state.round_id
            assert V.check_invariants(state) == []
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_terminate_with_legal_actions_and_invariants(vsetup, players):
    rules = vsetup.rules
    for index in range(6):
        state = _random_playout(vsetup, players, 1, index)
        assert V.check_invariants(state) == []
        assert state.outcome in ("win", "loss")
        assert state.round_id <= rules["rounds"] + rules["final_battle.extra_rounds"]
        cycles = [ev[2] for ev in state.log if ev[0] == "round_end"]
        assert cycles and max(cycles) <= rules["round.cycle_cap"]
        assert len(state.returns()) == players and state.current_player() < 0


def test_solo_variant_runs_two_decks(vsetup):
    state = V.new_game(vsetup, 1, deal_rng(0, 0))
    assert state.n == 2
    record, _ = play_game(V, vsetup, players=1, agent="greedy", seed=0, index=0, checked=True)
    assert record["outcome"] in ("win", "loss"), record["error"] or record["violations"]


def test_unsupported_player_count_is_refused(vsetup):
    with pytest.raises(ValueError, match=r"2\.\.4 players or 1 \(solo_variant: two_decks\)"):  # solo plays too
        V.new_game(vsetup, 5, deal_rng(0, 0))


def test_is_legal_agrees_with_the_list(vsetup):
    rng = random.Random(3)
    state = V.new_game(vsetup, 3, deal_rng(4, 0))
    for _ in range(400):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for probe in legal:
            assert state.is_legal(probe), probe
        for probe in _perturbed(legal, rng):
            assert state.is_legal(probe) == (probe in legal), probe
        state.apply_action(legal[int(rng.random() * len(legal))])


def test_direct_legality_checks_agree_with_the_list(vsetup):
    """Dungeon, new base, level-up, tile pick, fighter, pay and trash decisions with int arguments
    are checked without the list: probe them (and their neighbours) in every phase of random games."""
    rng = random.Random(5)
    kinds = (R.DUNGEON, R.NEWBASE, R.LEVEL, R.PICK, R.FIGHTER, R.PAY, R.TRASH)
    found = set()
    for index in range(12):
        if index >= 3 and found == set(kinds):
            break
        players = 2 + index % 3
        state = V.new_game(vsetup, players, deal_rng(6, index))
        while not state.is_terminal():
            legal = state.legal_actions()
            probes = [(k, x) for k in kinds for x in range(-1, len(state.s_tile) + 1)]
            probes += [(k, s, c) for k in (R.PAY, R.TRASH) for s in (-1, 0, 1, players)
                       for c in {c for h in state.discard + state.hand for c in h} | {-1, 0, 1, 999}]
            for a in legal:
                if a[0] in kinds:
                    probes += [a, a[:-1] + (a[-1] + 1,), (a[0], a[1] + 1) + a[2:]]
            for probe in probes:
                ok = state.is_legal(probe)
                assert ok == (probe in legal), probe
                if ok:
                    found.add(probe[0])
            state.apply_action(legal[int(rng.random() * len(legal))])
    assert found == set(kinds)


def _perturbed(legal, rng):
    out = [(99,), (), (R.DONE, 1)]
    for a in legal[:6]:
        if len(a) >= 2 and isinstance(a[1], int):
            out.append((a[0], a[1] + 1) + a[2:])
            out.append((a[0], -1) + a[2:])
        if len(a) == 3 and isinstance(a[2], int):
            out.append(a[:2] + (a[2] + 1,))
        if a[0] == R.COMMIT and a[1]:
            out.append((a[0], a[1][::-1]))
            out.append((a[0], a[1][:-1] + ((a[1][-1][0], (a[1][-1][1] + 1) % 5),)))
    return out


def test_illegal_action_raises(vsetup):
    state = V.new_game(vsetup, 2, deal_rng(0, 0))
    with pytest.raises(V.IllegalActionError):
        state.apply_action((R.TAKE, 0, 0))


def test_clone_is_independent_and_replays_the_same_future(vsetup):
    clone_replays_the_same_future(V.new_game(vsetup, 3, deal_rng(5, 0)), random.Random(9), 80, 150,
                                  lambda twin: (str(twin), list(twin.log), [list(h) for h in twin.hand],
                                                list(twin.pool)))


@pytest.mark.parametrize("agent", ["greedy", "oracle"])
def test_global_random_never_changes_a_game(vsetup, agent):
    assert game_log(V, vsetup, agent, pollute=False) == game_log(V, vsetup, agent, pollute=True)


@pytest.mark.parametrize("agent", ["greedy", "oracle", "random"])
@pytest.mark.parametrize("players", [2, 4])
def test_agents_only_choose_legal_actions(vsetup, agent, players):
    for index in range(3):
        record, state = play_game(V, vsetup, players=players, agent=agent, seed=2, index=index, checked=True)
        assert record["outcome"] in ("win", "loss"), record["error"] or record["violations"]
        assert record["violations"] == []
        assert record["rounds"] <= vsetup.rules["rounds"] + vsetup.rules["final_battle.extra_rounds"]


def test_results_do_not_depend_on_worker_count():
    tables = vh_tables()
    one = run_games(V, tables, players=3, games=10, seed=7, agent="greedy", workers=1)
    two = run_games(V, tables, players=3, games=10, seed=7, agent="greedy", workers=2, chunk=3)
    assert one == two
    assert [r["index"] for r in one] == list(range(10))


def test_a_game_is_the_same_alone_or_in_a_run(vsetup):
    from generator.sim.runner import replay
    run = run_games(V, vh_tables(), players=2, games=3, seed="s", agent="greedy", workers=1, start=5)
    record, lines = replay(V, vsetup, players=2, agent="greedy", seed="s", index=6)
    assert {k: v for k, v in record.items() if k not in ("checked", "multi")} == \
        {k: v for k, v in run[1].items() if k not in ("checked", "multi")}
    assert any(line.startswith("-- round 1") for line in lines)


def test_record_has_the_keys_the_bands_read(vsetup):
    record, _ = play_game(V, vsetup, players=3, agent="greedy", seed=0, index=1)
    for key in ("outcome", "rounds", "stage_rounds", "cycles", "cap_rounds", "exposures", "uses", "avatars",
                "avatars_in_time", "win_path", "top_met", "top_tile_round", "gained", "spent", "left",
                "tiers_bought", "crafts", "revealed", "ap_total", "ap_waste", "resolutions", "doubled", "pile_out",
                "fights", "fights_won", "fight_hand_sum", "fight_hand_n"):
        assert key in record, key
    assert set(record["uses"]) <= set(record["exposures"]) <= set(V.cards(vsetup))
    assert len(record["gained"]) == len(vsetup.res)


@pytest.mark.parametrize("empty_pile", ["closed", "adjacent_tier"])
def test_the_cached_frontier_matches_a_fresh_scan(empty_pile):
    """The frontier is kept tile by tile (looked at again when a pile runs out): at every decision
    of random and greedy games it must equal a fresh scan of every edge."""
    tables = vh_tables()
    tables["rules"]["map"]["empty_pile"] = empty_pile
    setup = V.compile_setup(tables)
    pile_outs = 0
    for index, agent in ((0, "random"), (1, "random"), (2, "greedy"), (3, "greedy")):
        state = V.new_game(setup, 4, deal_rng(11, index))
        agents = [V.AGENTS[agent](setup, seat) if agent != "random" else None for seat in range(4)]
        rng = agent_rng(11, index, 0)
        while not state.is_terminal():
            if state.phase != R.P_PICK:  # while drawn tiles wait for a pick, their pile is short
                cached = list(state.frontier())
                fresh = [(k, d, *state.edge_raw(k, d)) for k in range(len(state.s_tile)) for d in range(4)
                         if state.edge_raw(k, d) is not None]
                assert cached == fresh
            seat = state.current_player()
            if agents[seat] is None:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
            else:
                action = agents[seat].choose(state, rng)
            logged = len(state.log)
            state.apply_action(action)
            pile_outs += any(ev[0] == "pile_out" for ev in state.log[logged:])
    assert pile_outs >= 3
