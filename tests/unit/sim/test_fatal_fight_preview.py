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
