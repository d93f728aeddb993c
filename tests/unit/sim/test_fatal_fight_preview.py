"""The greedy agents' ``Board`` snapshot is kept across decisions (``current_board``): at every
decision of many games, whatever the kept snapshot has worked out must equal a fresh snapshot's
answer, and a validity check that overlooks one input must be caught by that comparison."""
import pytest

from generator.sim.compile import played_tables
from generator.sim.games import fatal_fight as ff
from generator.sim.games import fatal_fight_combat as combat
from generator.sim.games import fatal_fight_preview as preview
from generator.sim.rng import agent_rng, deal_rng


def _stale_entries(board, state) -> list[str]:
    """What the kept ``board`` has stored (rows, heads, pierce and range steps) that a fresh one differs on."""
    fresh = preview.Board(state)
    bad = []
    for k in range(6):
        if board.rows[k] is not None and board.rows[k] != fresh.row(k):
            bad.append(f"row {k}")
        if board.heads[k] is not None and (not state.groups[k] or board.heads[k] != fresh.head(k)):
            bad.append(f"head {k}")
        if board.steps[k] is not None and board.steps[k] != fresh.pierce_steps(k):
            bad.append(f"steps {k}")
    for i, steps in enumerate(board.ranged):
        if steps is not None and steps != fresh.range_steps(i // 2, i % 2):
            bad.append(f"range steps {i // 2}")
    return bad


def _rule_mismatches(state) -> list[str]:
    """Where a fresh ``Board``'s preview differs from the engine's own damage rules
    (``combat.damage_plan``) valued by ``kill_value``, over every group, AP, pierce and range."""
    board, bad = preview.Board(state), []
    for k in range(6):
        if not state.groups[k]:
            continue
        for ap in range(0, 16):
            for pierce in (False, True):
                for range_ in (False, True):
                    killed = combat.damage_plan(state, k, ap, pierce, range_)
                    expected = preview.kill_value(state, k, killed) if killed else 0.0
                    if board.value(k, ap, pierce, range_) != expected:
                        bad.append(f"k={k} ap={ap} pierce={pierce} range={range_}")
    return bad


@pytest.mark.parametrize("players", [2, 4])
def test_board_previews_follow_the_damage_rules(setup, players):
    """Every preview (head, pierce steps, range levels, the group walk) equals what the engine's damage
    rules would defeat, at every decision of a few games."""
    checked, bad = 0, []
    for index in range(6):
        state = ff.new_game(setup, players, deal_rng("rules", index))
        agents = [ff.AGENTS["greedy"](setup, seat) for seat in range(players)]
        rngs = [agent_rng("rules", index, seat) for seat in range(players)]
        while not state.is_terminal() and len(bad) < 5:
            if any(state.groups):
                checked += 1
                bad.extend(f"game {index}: {entry}" for entry in _rule_mismatches(state))
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, rngs[seat]))
    assert checked > 300
    assert bad == []


def _check_games(setup, players, games, agent="greedy") -> tuple[int, list[str]]:
    """Play ``games`` games; before every decision compare the kept snapshot (if it claims to be
    current) with a fresh one. Returns (snapshots checked, first mismatches)."""
    checked, bad = 0, []
    for index in range(games):
        state = ff.new_game(setup, players, deal_rng("board", index))
        agents = [ff.AGENTS[agent](setup, seat) for seat in range(players)]
        rngs = [agent_rng("board", index, seat) for seat in range(players)]
        while not state.is_terminal():
            board = preview._KEPT[0]
            if board is not None and board.current(state):
                checked += 1
                bad.extend(f"game {index}: {entry}" for entry in _stale_entries(board, state))
                if len(bad) > 5:
                    return checked, bad
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, rngs[seat]))
    return checked, bad


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kept_board_always_equals_a_fresh_one(setup, players):
    checked, bad = _check_games(setup, players, games=12)
    assert checked > 500  # the snapshot is reused, and so really tested
    assert bad == []


def test_shipped_content_kept_board_equals_a_fresh_one():
    from pathlib import Path

    from generator.content import load_game
    game = load_game(Path(__file__).resolve().parents[3] / "content" / "fatal-fight")
    setup = ff.compile_setup(played_tables(game))
    checked, bad = _check_games(setup, 4, games=8)
    assert checked > 500
    assert bad == []


def test_a_check_that_overlooks_the_groups_is_caught(setup, monkeypatch):
    """The comparison above is sharp: a snapshot kept across kills and spawns shows up."""
    def careless(board, state):
        return state is board.state and state.elife == board.elife and state.egp == board.egp \
            and state.xgp == board.xgp

    monkeypatch.setattr(preview.Board, "current", careless)
    _, bad = _check_games(setup, 4, games=12)
    assert bad


def _board_with_work(setup):
    """A state in the action phase with two groups on the board, and its snapshot with every
    preview of both worked out."""
    state = ff.new_game(setup, 3, deal_rng("board", 1))
    agents = [ff.AGENTS["greedy"](setup, seat) for seat in range(3)]
    rngs = [agent_rng("board", 1, seat) for seat in range(3)]
    while sum(1 for g in state.groups if g) < 2 or state.phase != ff.MAIN:
        state.apply_action(agents[state.seat].choose(state, rngs[state.seat]))
    board = preview.current_board(state)
    for k in range(6):
        if state.groups[k]:
            board.row(k), board.head(k), board.pierce_steps(k), board.range_steps(k, 0), board.range_steps(k, 2)
    return state, board, next(k for k in range(6) if state.groups[k])


@pytest.mark.parametrize("changed", ["elife", "egp", "xgp"])
def test_a_life_or_guard_change_alone_renews_the_board(setup, changed):
    """Life and GP mostly change together with the groups (spawns, kills), so each is also
    changed alone here: the kept snapshot must be renewed, and it would be caught if kept as it
    was; the renewed one keeps the work on the other groups only."""
    state, board, k = _board_with_work(setup)
    others = [j for j in range(6) if j != k and state.groups[j]]
    kept_rows, kept_heads = list(board.rows), list(board.heads)
    getattr(state, changed)[state.groups[k][0]] += 1
    assert _stale_entries(board, state)
    renewed = preview.current_board(state)
    assert renewed is board
    assert _stale_entries(renewed, state) == []
    assert renewed.rows[k] is None and renewed.heads[k] is None
    assert others and all(renewed.rows[j] is kept_rows[j] and renewed.heads[j] is kept_heads[j] for j in others)


def test_a_renewal_that_overlooks_life_and_guard_is_caught(setup, monkeypatch):
    """Keeping the work on a group whose list is unchanged but whose head lost life shows up."""
    def careless(board):
        state = board.state
        for k, g in enumerate(state.groups):
            if board.groups[k] != g:
                board.groups[k] = list(g)
                board.rows[k] = board.heads[k] = board.steps[k] = board.ranged[2 * k] = board.ranged[2 * k + 1] = None
        board.elife[:], board.egp[:], board.xgp[:] = state.elife, state.egp, state.xgp

    monkeypatch.setattr(preview.Board, "renew", careless)
    state, board, k = _board_with_work(setup)
    state.elife[state.groups[k][0]] += 1
    assert _stale_entries(preview.current_board(state), state)


def _shipped_setup():
    from pathlib import Path

    from generator.content import load_game
    game = load_game(Path(__file__).resolve().parents[3] / "content" / "fatal-fight")
    return ff.compile_setup(played_tables(game))


def _chains_by_definition(setup, hand, acts, in_reach, cqb):
    """The chain search's candidates straight from the rules: every combination of up to ``acts``
    cards, cheapest first, the first of each (AP, pierce/range/launch, grapples), the launchers
    only when out of reach, the close-quarters rule applied."""
    from itertools import combinations
    rules = setup.rules
    ordered = sorted(hand, key=lambda c: (preview.card_worth(setup, c), c))
    seen = {}
    for size in range(1, min(acts, len(ordered)) + 1):
        for combo in combinations(ordered, size):
            ap = sum(setup.c_ap[c] for c in combo)
            flags = 0
            for c in combo:
                flags |= setup.c_flags[c]
            grapples = sum(1 for c in combo if setup.c_flags[c] & 16)
            seen.setdefault((ap, flags & 7, grapples), (ap, flags, grapples, list(combo)))
    out = []
    for ap, flags, grapples, cards in seen.values():
        if not in_reach and not flags & 4:
            continue
        pierce = flags & 2
        if cqb:
            if rules["n2"]:
                ap += grapples * rules["n2_bonus"]
            else:
                pierce = 2
        out.append((ap, pierce, flags & 1, preview.CARD_COST * len(cards), cards))
    return out


def _grapple_setup():
    """Test tables with grapple cards and rule N2 (close quarters adds grapple power, no pierce)."""
    import ff_tables
    from test_fatal_fight_switches import with_keywords
    tables = with_keywords(ff_tables.tables())
    tables["rules"]["ideas"]["n2_grapple"]["enabled"] = True
    grapple_setup = ff.compile_setup(tables)
    assert grapple_setup.rules["n2"] and any(f & 16 for f in grapple_setup.c_flags)
    return grapple_setup


@pytest.mark.parametrize("which", ["test tables", "shipped content", "grapple (N2)"])
def test_chains_equal_their_definition(setup, which):
    """``Chains.of`` (kept by card AP and flags, positions for cards, twins never enumerated) are
    the combinations the rules give, for random hands, kept in cache or not."""
    import random
    setup = {"test tables": lambda: setup, "shipped content": _shipped_setup, "grapple (N2)": _grapple_setup}[which]()
    attack = [c for c in range(len(setup.c_id)) if setup.c_attack[c]]
    rng = random.Random(7)
    for trial in range(1000):
        hand = rng.sample(attack, rng.randint(1, min(9, len(attack))))
        acts = rng.randint(1, 4)
        if trial % 2:
            setup.__dict__.pop("_chains", None)
        ordered, by_reach = preview.chains_of(setup).of(hand, acts)
        for in_reach in (False, True):
            for cqb in (False, True):
                chains, plain = by_reach[2 * in_reach + cqb]
                got = [(ap, pierce, range_, cost, [ordered[i] for i in positions])
                       for ap, pierce, range_, cost, positions in chains]
                assert got == _chains_by_definition(setup, hand, acts, in_reach, cqb)
                assert plain == (not any(pierce or range_ for _, pierce, range_, _, _ in got))


@pytest.mark.parametrize("which", ["test tables", "shipped content", "grapple (N2)"])
def test_shorter_chains_filtered_from_a_kept_hand_equal_their_definition(setup, which):
    """A hand asked again with fewer actions gets its chains filtered from the longer ones kept:
    the same as enumerating them, whatever order the action counts come in."""
    import random
    setup = {"test tables": lambda: setup, "shipped content": _shipped_setup, "grapple (N2)": _grapple_setup}[which]()
    attack = [c for c in range(len(setup.c_id)) if setup.c_attack[c]]
    rng = random.Random(11)
    setup.__dict__.pop("_chains", None)
    for _ in range(300):
        hand = rng.sample(attack, rng.randint(1, min(9, len(attack))))
        for acts in rng.sample(range(1, 6), 5):
            ordered, by_reach = preview.chains_of(setup).of(hand, acts)
            for kind in range(4):
                chains, plain = by_reach[kind]
                got = [(ap, pierce, range_, cost, [ordered[i] for i in positions])
                       for ap, pierce, range_, cost, positions in chains]
                assert got == _chains_by_definition(setup, hand, acts, kind >= 2, kind % 2)
                assert plain == (not any(pierce or range_ for _, pierce, range_, _, _ in got))


def test_the_call_free_helpers_agree_with_the_one_liners_they_stand_for():
    """The loops and conditional expressions standing for comprehensions, generators and min/max
    calls on hot paths (cheaper in Python 3.11) give what the one-liners give: the arithmetic on
    every small input, the helpers at every decision of greedy games of the shipped content (the
    loops inside agent decisions are checked by the games' hashes staying the same)."""
    from generator.sim.games import fatal_fight_agents as agents
    from generator.sim.games.fatal_fight_actions import NEIGHBOURS
    from generator.sim.games.fatal_fight_flow import ACTIVE
    from generator.sim.games.fatal_fight_setup import LAUNCH
    from generator.sim.games.fatal_fight_shop import BUY, UPGRADE, offers

    for a in range(-3, 10):
        for b in range(-3, 10):
            assert (a if a < b else b) == min(a, b)  # spend_gp, hurt, support_value, join, Chains.of
            assert (a - b if a - b > 0 else 0) == max(0, a - b)
            assert (a if a > 1 else 1) == max(1, a)  # the shop's price floor
            for keep in (0, 2):  # partner_potential's best cards
                aps, usable = tuple(range(b + 3, 0, -1)), a
                if usable > len(aps) - keep:
                    usable = len(aps) - keep
                assert (sum(aps[:usable]) if usable > 0 else 0) == sum(aps[:max(0, min(a, len(aps) - keep))])
    for hits in range(12):  # join's combo-bonus test, for one card or more
        for more in range(1, 6):
            for min_hits in range(10):
                bonus_grows = max(0, hits + more - min_hits + 1) - max(0, hits - min_hits + 1) > 0
                assert (hits + more >= min_hits) == bonus_grows
    for square in range(9):
        for goal in range(9):
            for mask in range(1 << 9):
                blocked = {q for q in range(9) if mask >> q & 1}
                assert agents._step_towards(square, goal, blocked) == min(
                    (q for q in NEIGHBOURS[square] if q not in blocked),
                    key=lambda q: (abs(q // 3 - goal // 3) + abs(q % 3 - goal % 3), q), default=None)

    setup = _shipped_setup()
    boss, rules, looked, shops = setup.boss, setup.rules, 0, 0
    for players in (3, 4):
        state = ff.new_game(setup, players, deal_rng("call-free", players))
        greedy = [ff.AGENTS["greedy"](setup, seat) for seat in range(players)]
        rngs = [agent_rng("call-free", players, seat) for seat in range(players)]
        while not state.is_terminal():
            board = preview.Board(state)
            cap, boss_counts = rules["group_cap"], rules["boss_counts_toward_cap"]
            for k, g in enumerate(state.groups):
                if len(g) > cap:  # (the count itself; a group within the cap answers at once)
                    counted = sum(1 for e in g if e < boss or (e == boss and boss_counts))
                    assert combat.over_cap(state, g) == counted - cap
                assert board.row(k) == (
                    [state.elife[e] for e in g], [state.egp[e] + state.xgp[e] for e in g],
                    [preview.BOSS_VALUE if e == boss else preview.OBSTACLE_VALUE if e > boss else
                     board._bonus(g) + (preview.CARRIER_BONUS if setup.e_skill[e] == "carrier" else 0.0) for e in g])
            for square in range(9):
                assert combat.targets(state, square, LAUNCH) == [k for k in range(6) if state.groups[k]]
            assert state.active_seats() == [s for s in range(players) if state.status[s] == ACTIVE]
            for s in range(players):
                life = state.life[s]
                assert greedy[s].strongest(state, s) == sorted(
                    [c for c in state.hand[s] if setup.c_attack[c] and life > setup.c_life_cost[c]],
                    key=greedy[s].traits.strength_rank)
                for gold in range(state.gold[s] + 3):
                    deck, mega = state.deck[s], state.mega_art[s]
                    assert offers(state, s, gold) == [
                        (UPGRADE, u) for u in state.upgrades_left[s] if setup.c_cost[u] <= gold and
                        (setup.c_replaces[u] in deck or setup.c_replaces[u] == mega)] + [
                        (BUY, g) for g in state.gym if setup.c_cost[g] <= gold]
                    scored = [(ratio / 4, a) for ratio, a in enumerate(offers(state, s, gold), start=1)]
                    if scored:
                        shops += 1
                        top = max(r for r, _ in scored)
                        assert agents._near_best(scored) == sorted(a for r, a in scored if r >= 0.5 * top)
            looked += 1
            seat = state.current_player()
            state.apply_action(greedy[seat].choose(state, rngs[seat]))
    assert looked > 500 and shops > 100


def _shipped_setup():
    from pathlib import Path

    from generator.content import load_game
    return ff.compile_setup(played_tables(load_game(Path(__file__).resolve().parents[3] / "content" / "fatal-fight")))


def _kept_searches(setup, monkeypatch, games) -> tuple[int, list]:
    """Play greedy games at 2-4 characters; every answer ``kept_search`` gives instead of searching
    is compared with a fresh ``best_chain`` of the same state: ``(answers kept, mismatches)``."""
    from generator.sim.games.fatal_fight_agents import GreedyAgent
    from generator.sim.runner import play_game

    kept, bad = [0], []
    original = GreedyAgent.kept_search

    def compared(self, state, s, keep, moved):
        answer = original(self, state, s, keep, moved)
        if answer is not None:
            kept[0] += 1
            fresh = self.best_chain(state, s, keep, state.boss_group())
            if fresh is None or fresh[:4] != answer[:4]:
                bad.append((state.round_id, s, answer, fresh))
        return answer

    monkeypatch.setattr(GreedyAgent, "kept_search", compared)
    for players in (2, 3, 4):
        for i in range(games):
            play_game(ff, setup, players=players, agent="greedy", seed="kept", index=i)
    return kept[0], bad


@pytest.mark.parametrize("which", ["tables", "shipped"])
def test_a_kept_search_equals_a_fresh_one(setup, monkeypatch, which):
    """After the free MOVE its chain asked for, the greedy agent plays that chain without searching
    again: at every such decision of whole games a fresh search finds the same chain, target and square."""
    kept, bad = _kept_searches(setup if which == "tables" else _shipped_setup(), monkeypatch, games=10)
    assert kept > 100  # the kept answer is used, and so really tested
    assert bad == []


def test_a_kept_search_that_overlooks_free_moves_left_is_caught(monkeypatch):
    """With a free move still left after the MOVE (a card gave one), squares beyond the new one come
    into reach and the search may find another chain there: keeping the answer would change games."""
    from generator.sim.games.fatal_fight_agents import GreedyAgent

    def careless(self, state, s, keep, moved):  # kept_search without its free-move test
        if moved is None:
            return None
        log, size, kept, answer = moved
        ok = state.log is log and len(log) == size and state.pos[s] == answer[3] and keep == kept
        return answer if ok else None

    monkeypatch.setattr(GreedyAgent, "kept_search", careless)
    kept, bad = _kept_searches(_shipped_setup(), monkeypatch, games=10)
    assert bad, kept
