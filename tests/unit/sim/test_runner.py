import pytest

from generator.sim.games import fatal_fight as ff
from generator.sim.runner import replay, run_games

import ff_tables


def test_results_do_not_depend_on_worker_count():
    tables = ff_tables.tables()
    one = run_games(ff, tables, players=2, games=12, seed=7, agent="greedy", workers=1)
    two = run_games(ff, tables, players=2, games=12, seed=7, agent="greedy", workers=2, chunk=5)
    assert one == two
    assert [r["index"] for r in one] == list(range(12))


def test_a_game_is_the_same_alone_or_in_a_run(setup):
    tables = ff_tables.tables()
    run = run_games(ff, tables, players=3, games=4, seed="s", agent="greedy", workers=1, start=10)
    record, lines = replay(ff, setup, players=3, agent="greedy", seed="s", index=12)
    assert {k: v for k, v in record.items() if k not in ("checked", "multi")} == \
        {k: v for k, v in run[2].items() if k not in ("checked", "multi")}
    assert any("round 1" in line for line in lines)


def test_crash_is_recorded_with_seed_not_raised(setup, monkeypatch):
    from generator.sim.games import fatal_fight_flow

    def boom(self):
        raise RuntimeError("enemy phase exploded")
    monkeypatch.setattr(fatal_fight_flow.Flow, "enemy_phase", boom)
    record, _ = replay(ff, setup, players=2, agent="random", seed=3, index=0)
    assert record["outcome"] == "error" and "exploded" in record["error"]


def test_bulk_play_collects_less_and_puts_the_collector_back():
    import gc

    from generator.sim.runner import few_collections

    before = gc.get_threshold()
    with few_collections():
        assert gc.get_threshold()[0] > before[0]
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError):
        with few_collections():
            raise RuntimeError("a crash inside still restores the collector")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_an_interrupted_run_withdraws_the_games_not_yet_started(monkeypatch):
    """^C while collecting a run: the executor (the user's own, or the pool run_games made)
    does not go on playing every queued chunk before the command can stop."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from generator.sim import runner

    played = []

    def slow_chunk(*args):
        time.sleep(0.02)
        played.append(1)
        return []
    monkeypatch.setattr(runner, "_run_chunk", slow_chunk)

    def interrupt(done, total):
        raise KeyboardInterrupt
    pool = ThreadPoolExecutor(max_workers=1)
    with pytest.raises(KeyboardInterrupt):
        run_games(ff, ff_tables.tables(), players=2, games=100, chunk=5, executor=pool, progress=interrupt)
    pool.shutdown(wait=True)
    assert len(played) < 5  # of 20 chunks
