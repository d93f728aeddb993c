"""The greedy agents' ``Board`` snapshot is kept across decisions (``current_board``): at every
decision of many games, whatever the kept snapshot has worked out must equal a fresh snapshot's
answer, and a validity check that overlooks one input must be caught by that comparison."""
import pytest

from generator.sim.games import fatal_fight as ff
from generator.sim.games import fatal_fight_preview as preview
from generator.sim.rng import agent_rng, deal_rng


def _stale_entries(board, state) -> list[str]:
    """What the kept ``board`` has stored (rows, heads, pierce steps, values) that a fresh one differs on."""
    fresh = preview.Board(state)
    bad = []
    for k in range(6):
        if board.rows[k] is not None and board.rows[k] != fresh.row(k):
            bad.append(f"row {k}")
        if board.heads[k] is not None and (not state.groups[k] or board.heads[k] != fresh.head(k)):
            bad.append(f"head {k}")
        if board.steps[k] is not None and board.steps[k] != fresh.pierce_steps(k):
            bad.append(f"steps {k}")
    for key, value in board.memo.items():
        k, ap, pierce, range_ = key >> 12, (key >> 2) & 1023, key & 2, key & 1
        if value != fresh.value(k, ap, pierce, range_):
            bad.append(f"value {k} ap={ap}")
    return bad


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
    setup = ff.compile_setup({k: v for k, v in game.tables.items() if k != "balance"})
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


@pytest.mark.parametrize("changed", ["elife", "egp", "xgp"])
def test_a_life_or_guard_change_alone_renews_the_board(setup, changed):
    """Life and GP mostly change together with the groups (spawns, kills), so each is also
    changed alone here: the kept snapshot must be replaced, and it would be caught if kept."""
    state = ff.new_game(setup, 3, deal_rng("board", 1))
    agents = [ff.AGENTS["greedy"](setup, seat) for seat in range(3)]
    rngs = [agent_rng("board", 1, seat) for seat in range(3)]
    while not any(state.groups) or state.phase != ff.MAIN:
        state.apply_action(agents[state.seat].choose(state, rngs[state.seat]))
    board = preview.current_board(state)
    k = next(k for k in range(6) if state.groups[k])
    board.row(k), board.head(k), board.value(k, 3, 0, 0)
    getattr(state, changed)[state.groups[k][0]] += 1
    assert _stale_entries(board, state)
    assert preview.current_board(state) is not board
