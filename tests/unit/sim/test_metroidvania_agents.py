"""Metroidvania agents: every cache the heuristic (and the engine's move search and usable list) keeps across
decisions gives what recomputing gives, at every decision of whole games; a cache keyed on too little is caught
(issue #8)."""
from pathlib import Path

import pytest

from generator.content import load_game
from generator.sim.agents import make_agent
from generator.sim.compile import played_tables
from generator.sim.games import metroidvania as mv
from generator.sim.games import metroidvania_agents as agents_mod
from generator.sim.games import metroidvania_dice as dice
from generator.sim.games import metroidvania_moves as moves_mod
from generator.sim.rng import agent_rng, deal_rng

CONTENT = Path(__file__).resolve().parents[3] / "content" / "metroidvania"
CACHES = ("_boss_actions", "_goal", "_moves", "_passable", "_mrv", "_win")


@pytest.fixture(scope="module")
def setups():
    game = load_game(CONTENT)
    tables = played_tables(game)
    return [mv.compile_setup(tables), mv.compile_setup(dict(tables, difficulty="easy"))]


def cache_mismatches(setup, agent_name, players, games, limit=1):
    """Play ``games`` games; before every decision compare each cached estimate, for every maiden (and
    every boss), with its recomputation. Returns the first ``limit`` differences found."""
    for name in CACHES:
        setup.__dict__.pop(name, None)
    found = []
    for i in range(games):
        state = mv.new_game(setup, players, deal_rng("cache", i))
        agents = [make_agent(mv, agent_name, setup, s) for s in range(players)]
        rngs = [agent_rng("cache", i, s) for s in range(players)]
        probe = agents[0]
        while not state.is_terminal():
            for s in range(players):
                for b in range(len(setup.bosses)):
                    cached, fresh = probe.boss_actions(state, s, b), tuple(probe._boss_actions_now(state, s, b))
                    if cached != fresh:
                        found.append(("boss_actions", i, len(state.log), s, b, cached, fresh))
                    cached, fresh = probe.win_chance(state, s, b), win_chance_now(probe, state, s, b)
                    if cached != fresh:
                        found.append(("win_chance", i, len(state.log), s, b, cached, fresh))
                cached = probe._goal(state, s)
                goal = probe._goal_now(state, s, probe._for_final(state, s))
                node = setup.bosses[goal]["node"]
                fresh = (goal, probe.steps_from(state, s, node) if node >= 0 else None)
                if cached != fresh:
                    found.append(("goal", i, len(state.log), s, cached, fresh))
                cached = probe.mean_room_value(state, s)
                fresh = probe._mean_room_value_now(state, s, setup.rooms)
                if cached != fresh:
                    found.append(("mean_room_value", i, len(state.log), s, cached, fresh))
                here = state.pos[s]
                cached, fresh = state.moves(s, here), state._moves_now(s, here, state.move_points(s))
                if cached != fresh:
                    found.append(("moves", i, len(state.log), s, cached, fresh))
                blockers = sum(1 << v for v in setup.blockers if state.explored[v])   # from the list, not the bits
                cached, fresh = state._passable(s), moves_mod._passable_now(setup, blockers, state.has_mod(s, "passkey"))
                if cached != fresh:
                    found.append(("passable", i, len(state.log), s, cached, fresh))
            if state.phase == mv.POST:   # the spec asked last decision (and kept) must not be seen stale now
                fields = [(name, getattr(state.spec(), name), getattr(state._spec_now(), name))
                          for name in dice.Spec.__slots__]
                found.extend(("spec", i, len(state.log), f) for f in fields if f[1] != f[2])
            found.extend(("usable", i, len(state.log), m) for m in usable_mismatches(state))
            if len(found) >= limit:
                return found
            seat = state.current_player()
            action = agents[seat].choose(state, rngs[seat])
            found.extend(("usable", i, len(state.log), m) for m in usable_mismatches(state))  # as the agent left it
            state.apply_action(action)
    return found


def win_chance_now(probe, state, s, b):
    """``win_chance`` computed afresh (the boss's action chances recomputed, no memo)."""
    ps = [p for p, _ in probe._boss_actions_now(state, s, b)]
    p = sum(ps) / len(ps)
    life = state.b_life[b] if state.b_active[b] else state.boss_life_now(b)
    dmg = max(1, probe.boss_damage_per_fail(state, b))
    fails = sum(max(0, (state.life[o] - 1) // dmg) for o in range(state.n)) + state.n - 1
    return 0.0 if p <= 0 else agents_mod._wins_before(p, life, fails)


def usable_mismatches(state):
    """The engine's remembered answer of ``usable`` (if any), against a recomputation."""
    memo = state._usable
    if memo is None:
        return []
    fresh = state._usable_now(memo[0])
    return [] if memo[1] == fresh else [(memo, fresh)]


@pytest.mark.parametrize("agent", ["heuristic", "rush_urza"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_caches_match_recomputation_at_every_decision(setups, agent, players):
    for setup in setups:
        assert cache_mismatches(setup, agent, players, games=2) == []


@pytest.mark.parametrize("broken", ["boss_actions_without_danger", "goal_without_defeats", "moves_without_explored"])
def test_a_cache_keyed_on_too_little_is_caught(setups, monkeypatch, broken):
    if broken == "boss_actions_without_danger":
        key = agents_mod._boss_actions_key
        drop = 4
        monkeypatch.setattr(agents_mod, "_boss_actions_key", lambda *a: key(*a)[:drop] + key(*a)[drop + 1:])
    elif broken == "goal_without_defeats":
        key = agents_mod._goal_key
        drop = 1
        monkeypatch.setattr(agents_mod, "_goal_key", lambda *a: key(*a)[:drop] + key(*a)[drop + 1:])
    else:
        key = mv.State._moves_key
        drop = 3
        monkeypatch.setattr(mv.State, "_moves_key", lambda *a: key(*a)[:drop] + key(*a)[drop + 1:])
    try:
        assert cache_mismatches(setups[0], "heuristic", 4, games=6) != []
    finally:
        for name in CACHES:
            setups[0].__dict__.pop(name, None)


@pytest.mark.parametrize("players", [2, 4])
def test_level_cost_search_gives_the_relaxing_search_costs(setups, players):
    """The move-cost search by levels (the shipped costs: explored 0, unexplored 1) gives the same cost list
    as the general 0-1 BFS, from every maiden's room, within her move points and without a limit."""
    setup = setups[0]
    assert (setup.rules["move.explored_step_cost"], setup.rules["move.unexplored_step_cost"]) == (0, 1)
    for i in range(3):
        state = mv.new_game(setup, players, deal_rng("levels", i))
        agents = [make_agent(mv, "heuristic", setup, s) for s in range(players)]
        rngs = [agent_rng("levels", i, s) for s in range(players)]
        while not state.is_terminal():
            for s in range(players):
                for limit in (state.move_points(s), 1 << 20):
                    here = state.pos[s]
                    assert state.distances(s, here, limit) == state._relax(s, *state._search_start(s, here), limit)
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, rngs[seat]))
