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
        setup.memos.pop(name, None)
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
                          for name in dice._SPEC_SLOTS]
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
            setups[0].memos.pop(name, None)


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


def scanned_moves(state, s, here, mp):
    """The move end points as a scan of every room's cost finds them (what ``_moves_now`` gave before the
    level search listed the rooms in reach)."""
    setup = state.setup
    dist = state.distances(s, here, mp)
    seal = setup.rules["urza_seal_bosses"]
    sealed = seal and len(state.kills) < seal
    out = []
    for v, d in enumerate(dist):
        if d > mp:
            continue
        if setup.kind[v] == mv.BOSS:
            b = setup.node_boss[v]
            if b < 0 or state.b_dead[b] or (v == here and d > 0) or (sealed and setup.bosses[b]["final"]):
                continue
            out.append((v, 0))
        elif not state.explored[v] and v != here:
            if setup.kind[v] == mv.KEY and not state.has_mod(s, "passkey") and not state.key_ok(s, v):
                if state.keys[s]:
                    out.append((v, 1))
                continue
            out.append((v, 0))
    return dist, out


def entry_side_on(state, s, origin, node, dist):
    """``entry_side`` read from these costs (the full search's, not the move search's)."""
    twin = state.clone()
    twin._dest, twin._dist = [], (s, origin, dist)
    return twin.entry_side(s, origin, node)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("difficulty", [0, 1])
def test_move_end_points_from_the_rooms_in_reach_are_those_a_scan_of_every_room_finds(setups, players, difficulty):
    """The level search lists the unexplored rooms within the limit (each once); the move's end points read
    from them and the boss rooms are, in the same order, those a scan of every room's cost gives, from every
    maiden's room at every decision (NORMAL and EASY maps)."""
    setup = setups[difficulty]
    looked = 0
    for i in range(2):
        state = mv.new_game(setup, players, deal_rng("reach", i))
        agents = [make_agent(mv, "heuristic", setup, s) for s in range(players)]
        rngs = [agent_rng("reach", i, s) for s in range(players)]
        while not state.is_terminal():
            for s in range(players):
                here, mp = state.pos[s], state.move_points(s)
                for limit in (0, 1, mp, mp + 2):
                    reached = []
                    dist = state._levels(s, *state._search_start(s, here), limit, reached)
                    assert sorted(reached) == [v for v, d in enumerate(dist)
                                               if d <= limit and not state.explored[v] and v != here]
                    assert len(set(reached)) == len(reached)
                dist, ends = state._moves_now(s, here, mp)
                full, scanned = scanned_moves(state, s, here, mp)
                assert ends == scanned
                # the search stops before expanding the level at mp: every cost it gives is exact, every room
                # below mp has one, and so has every end point (a boss room's entry step reads them)
                assert all(d == f for d, f in zip(dist, full) if d < moves_mod._INF)
                assert all(d == f for d, f in zip(dist, full) if f < mp)
                assert all(dist[v] == full[v] for v, _ in ends)
                assert all(d <= mp for d in dist if d < moves_mod._INF)   # nothing beyond her move points was costed
                for v, _ in ends:
                    if setup.kind[v] == mv.BOSS and v != here:
                        assert entry_side_on(state, s, here, v, dist) == entry_side_on(state, s, here, v, full)
                looked += 1
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, rngs[seat]))
    assert looked > 200


@pytest.mark.parametrize("players", [3, 4])
def test_the_call_free_helpers_agree_with_the_one_liners_they_stand_for(setups, players):
    """The engine's and the heuristic's helpers written without min/max calls, comprehensions or generators
    (cheaper in Python 3.11) give what the one-liners they replace give, at every decision of whole games."""
    setup = setups[0]
    rules, looked = setup.rules, 0
    sizes, cap = rules["die_by_will"], rules["stats_cap.wil"]
    for i in range(2):
        state = mv.new_game(setup, players, deal_rng("call-free", i))
        agents = [make_agent(mv, "heuristic", setup, s) for s in range(players)]
        rngs = [agent_rng("call-free", i, s) for s in range(players)]
        probe = agents[0]
        while not state.is_terminal():
            for s in range(players):
                for step in (-1, 0, 1, 2):
                    assert state.die_size(s, step) == \
                        sizes[min(len(sizes) - 1, min(state.stat(s, mv.WIL), cap) + step)]
                for kind in {m[0] for m in state.mods[s]} | {"step", "crit", "passkey"}:
                    assert state.mod_sum(s, kind) == sum(m[1] for m in state.mods[s] if m[0] == kind)
                    assert state.has_mod(s, kind) == any(m[0] == kind for m in state.mods[s])
                assert agents_mod._exhausted(state, s) == sum(1 for sk in state.skills[s] if sk[2])
                assert agents_mod._holds_refresh(state, s) == any(
                    not sk[2] and sk[3] != state.turn_serial and "refresh_skills" in setup.skills[sk[0]]["ops"]
                    for sk in state.skills[s])
                for b, boss in enumerate(setup.bosses):
                    weak = boss["weakness"]
                    assert state.trait_active(b, s) == (not state.b_trait_off[b] and not (
                        weak and any(op == "forbid_trait" for op, _ in weak[1]) and state.weakness_revealed(b, s)))
                    acts = probe.boss_actions(state, s, b)
                    assert agents_mod._mean_chance(acts) == sum(a[0] for a in acts) / len(acts)
            assert agents_mod._unexplored(state, setup.rest_nodes) == \
                sum(1 for w in setup.rest_nodes if not state.explored[w])
            for timing in {setup.skills[sk[0]]["timing"] for sk in state.skills[state.active]}:
                assert state._refreshable(timing) == any(
                    sk[2] and sk[3] != state.turn_serial and setup.skills[sk[0]]["timing"] == timing
                    for sk in state.skills[state.active])
            for b, boss in enumerate(setup.bosses):
                assert state.in_room(b) == [s for s in range(state.n) if state.pos[s] == boss["node"]]
                assert state.boss_life_now(b) == \
                    max(1, boss["life"] + rules["boss_life_bonus"].get(state.n, 0) + state.b_delta[b])
            looked += 1
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, rngs[seat]))
    assert looked > 300
    for area in setup.areas:
        effects = area["effects"]
        assert agents_mod._harsh(effects) == any(e.startswith("threat") or e.startswith("no_") for e in effects)
    modded = mv.State.__new__(mv.State)   # modifiers the games above may not show
    modded.mods = [[("step", 1, -1, "turn"), ("crit", -2, -1, "check"), ("step", 2, -1, "check")]]
    for kind in ("step", "crit", "dred"):
        assert modded.mod_sum(0, kind) == sum(m[1] for m in modded.mods[0] if m[0] == kind)
        assert modded.has_mod(0, kind) == any(m[0] == kind for m in modded.mods[0])


@pytest.mark.parametrize("players", [2, 4])
def test_mean_room_value_estimates_each_check_once_and_equals_the_per_room_mean(setups, monkeypatch, players):
    """Rooms with the same dice check share one chance: the mean room value asks for one estimate per check (19
    on the shipped map's 60 rooms), and gives exactly the float the room-by-room mean gives, at every decision."""
    setup = setups[0]
    rooms = setup.rooms
    checks = {(r["d"], r["multi"], r["slate"] >= 0, r["prompts"]) for r in rooms}
    assert len(checks) < len(rooms)
    calls = []
    chance = agents_mod.HeuristicAgent.chance
    counted = staticmethod(lambda *a, **k: calls.append(1) or chance(*a, **k))
    monkeypatch.setattr(agents_mod.HeuristicAgent, "chance", counted)
    looked = 0
    state = mv.new_game(setup, players, deal_rng("mrv-checks", 0))
    agents = [make_agent(mv, "heuristic", setup, s) for s in range(players)]
    rngs = [agent_rng("mrv-checks", 0, s) for s in range(players)]
    probe = agents[0]
    while not state.is_terminal():
        for s in range(players):
            calls.clear()
            shared = probe._mean_room_value_now(state, s, rooms)
            assert len(calls) == len(checks)
            assert shared == sum(probe.room_value(state, s, c) for c in range(len(rooms))) / len(rooms)
            looked += 1
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, rngs[seat]))
    assert looked > 100


def test_the_hottest_estimates_answer_a_hit_without_setup_memo(setups, monkeypatch):
    """Moves, passages, passability, the goal, the mean room value and the boss actions are asked hundreds of
    times a game and mostly remembered: a remembered one is read from its table without setup_memo's call,
    and is the very value remembered."""
    setup = setups[0]
    state = mv.new_game(setup, 3, deal_rng("hits", 0))
    agents = [make_agent(mv, "heuristic", setup, s) for s in range(3)]
    rngs = [agent_rng("hits", 0, s) for s in range(3)]
    for _ in range(60):
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, rngs[seat]))
    probe, s = agents[0], state.active
    asks = [lambda: state.moves(s, state.pos[s]), lambda: state.adjacency(s), lambda: state._passable(s),
            lambda: probe._goal(state, s), lambda: probe.mean_room_value(state, s),
            lambda: probe.boss_actions(state, s, 0)]
    first = [ask() for ask in asks]

    def no_call(*args):
        raise AssertionError("setup_memo called on a hit")
    monkeypatch.setattr(moves_mod, "setup_memo", no_call)
    monkeypatch.setattr(agents_mod, "setup_memo", no_call)
    for ask, remembered in zip(asks, first):
        assert ask() is remembered
