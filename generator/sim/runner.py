"""Play one game, or many on worker processes, with results independent of the worker count.

Game *i* of a run is dealt from ``deal_rng(seed, i)``; its agents think with ``agent_rng``.
Work is split into chunks of consecutive game indices and handed to any
``concurrent.futures``-style executor (a local process pool by default); results are put back in
index order, so 1 worker and 8 workers give the same records.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import traceback
from concurrent.futures import Executor, ProcessPoolExecutor

from ..heap import few_collections
from . import games
from .agents import make_agent
from .rng import agent_rng, deal_rng

DEFAULT_MAX_DECISIONS = 20_000
HERE = os.path.dirname(os.path.abspath(__file__))  # pnp's own simulator helpers (the shipped engines are in games/)
LEGAL_SHOWN = 6  # the legal actions an illegal choice's message lists
_SETUPS: dict = {}  # per-process cache: setup key -> compiled setup (with the tables engines memoise on it)
_KEPT_SETUPS = 4  # a few variants (ablated cards) may run side by side without rebuilding their tables


def play_game(engine, setup, *, players: int, agent: str, seed, index: int, checked: bool = False,
              max_decisions: int = DEFAULT_MAX_DECISIONS):
    """Play game ``index`` of the run seeded ``seed``; return ``(record, final state)``.

    ``checked`` also verifies, at every decision, that a legal action exists and that the agent
    chose one, counts decisions with two or more options (M9) and checks the engine's invariants
    whenever a round ends. Exceptions become an ``error`` record that names the seed and index.
    """
    state = None
    record = {"index": index, "seed": seed, "players": players, "agent": agent, "checked": checked,
              "outcome": None, "error": None, "violations": [], "decisions": 0, "multi": 0}
    try:
        state = engine.new_game(setup, players, deal_rng(seed, index))
        agents = [make_agent(engine, agent, setup, seat) for seat in range(players)]
        rngs = [agent_rng(seed, index, seat) for seat in range(players)]
        _loop(engine, state, agents, rngs, record, checked, max_decisions)
    except Exception as exc:  # noqa: BLE001 - every crash is recorded as M0, with its traceback
        record["outcome"] = "error"
        record["error"] = f"{type(exc).__name__}: {exc}{_at(exc)}\n{traceback.format_exc(limit=6)}"
    if state is not None and record["outcome"] != "error":
        try:
            record.update(engine.summarize(state))
        except Exception as exc:  # noqa: BLE001
            record["outcome"] = "error"
            record["error"] = f"summarize: {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    if record["outcome"] is None:
        record["outcome"] = "error"
    return record, state


def _at(exc: BaseException) -> str:
    """`` (at file.py:line)``: where the exception was raised, for the error's one-line summary (M0's
    problem shows that line only; the engine's line is the first thing to look at). A helper of pnp's
    (``rng.choice`` of an empty list, an agent lookup) is not that line: the engine's call of it is."""
    frames = traceback.extract_tb(exc.__traceback__)
    engine_frames = [f for f in frames if os.path.dirname(os.path.abspath(f.filename)) != HERE] or frames
    return f" (at {os.path.basename(engine_frames[-1].filename)}:{engine_frames[-1].lineno})" if frames else ""


def _loop(engine, state, agents, rngs, record, checked, max_decisions):
    decisions = multi = 0
    last_round = getattr(state, "round_id", None)
    violations = record["violations"]
    while not state.is_terminal():
        if decisions >= max_decisions:
            record["outcome"] = "timeout"
            break
        seat = state.current_player()
        if checked:
            legal = state.legal_actions()
            if not legal:
                violations.append(f"decision {decisions}: no legal action in a non-terminal state")
                record["outcome"] = "error"
                break
            if len(legal) > 1:
                multi += 1
        action = agents[seat].choose(state, rngs[seat])
        if checked and action not in legal:
            violations.append(f"decision {decisions}: {_illegal(agents[seat], record['agent'], action, legal)}")
            record["outcome"] = "error"
            break
        state.apply_action(action)
        decisions += 1
        if checked and getattr(state, "round_id", None) != last_round:
            last_round = state.round_id
            violations.extend(f"round {last_round}: {v}" for v in engine.check_invariants(state))
    else:
        if checked:
            violations.extend(f"end: {v}" for v in engine.check_invariants(state))
        record["outcome"] = state.outcome
    if violations and record["outcome"] not in ("error",):
        record["outcome"] = "error"
    record["decisions"] = decisions
    record["multi"] = multi


def _illegal(agent, name: str, action, legal: list) -> str:
    """The agent that chose an action not legal now, where its ``choose`` is, and what was legal."""
    code = getattr(getattr(type(agent), "choose", None), "__code__", None)
    at = f" (choose at {os.path.basename(code.co_filename)}:{code.co_firstlineno})" if code else ""
    shown = ", ".join(map(repr, legal[:LEGAL_SHOWN])) + (f" and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else "")
    return f"agent {name}{at} chose illegal action {action!r}; legal were {shown}"


def setup_key(module: str, blob: bytes) -> str:
    return hashlib.sha1(module.encode() + b"\0" + blob).hexdigest()


def _setup_from(module: str, blob: bytes, key: str):
    setup = _SETUPS.pop(key, None)
    if setup is None:
        engine = games.engine_by_module(module)
        setup = engine.compile_setup(pickle.loads(blob))
        if len(_SETUPS) >= _KEPT_SETUPS:  # sweeps over ablated content would otherwise grow without bound
            _SETUPS.pop(next(iter(_SETUPS)))
    _SETUPS[key] = setup  # most recently used last
    return setup


def _run_chunk(module, blob, key, players, agent, seed, indices, checked, max_decisions):
    """Worker entry point (top-level so process pools can pickle it)."""
    engine = games.engine_by_module(module)
    setup = _setup_from(module, blob, key)
    with few_collections():
        return [play_game(engine, setup, players=players, agent=agent, seed=seed, index=i,
                          checked=checked, max_decisions=max_decisions)[0] for i in indices]


def run_games(engine, tables, *, players: int, games: int, seed=0, agent: str = "greedy", start: int = 0,
              workers: int | None = None, executor: Executor | None = None, checked: bool = False,
              progress=None, max_decisions: int = DEFAULT_MAX_DECISIONS, chunk: int | None = None,
              checked_below: int = 0) -> list[dict]:
    """Play games ``start .. start+games-1`` and return their records in index order.

    ``tables`` are the game's plain tables (``game.tables``); they are compiled once here, so
    data the engine cannot run raises ``ProblemsError`` before any worker starts. ``executor``
    may be any ``concurrent.futures.Executor`` (a process pool, a Dask client's executor ...);
    without one, ``workers`` processes are started (``1`` runs in this process).
    ``progress(done, total)`` is called as chunks finish.
    """
    workers = workers or os.cpu_count() or 1
    own = executor is None and workers > 1
    pool = ProcessPoolExecutor(max_workers=workers) if own else executor
    try:
        batch = start_games(engine, tables, players=players, games=games, seed=seed, agent=agent, start=start,
                            workers=workers, executor=pool, checked=checked, max_decisions=max_decisions,
                            chunk=chunk, checked_below=checked_below)
        return batch.records(progress)
    finally:
        if own:
            pool.shutdown(cancel_futures=True)  # after ^C: games not yet started are not played


class Batch:
    """Games handed to an executor (or waiting to be played here): ``records()`` collects them
    in index order. Several batches started before any is collected keep every worker busy
    until the last of them ends, instead of idling at the end of each."""

    def __init__(self, games: int, chunks: list, play_here=None):
        self.games, self._chunks, self._play_here = games, chunks, play_here

    def records(self, progress=None) -> list[dict]:
        if self._play_here is not None:
            return self._play_here(progress)
        results, done = [], 0
        try:
            for future in self._chunks:
                part = future.result()
                results.extend(part)
                done += len(part)
                if progress:
                    progress(done, self.games)
        except BaseException:
            self.cancel()  # ^C or a failure: the executor (maybe the user's own) plays no more of them
            raise
        results.sort(key=lambda r: r["index"])
        return results

    def cancel(self) -> None:
        """Withdraw the chunks not started yet (those running finish on their own)."""
        for future in self._chunks:
            future.cancel()


def start_games(engine, tables, *, players: int, games: int, seed=0, agent: str = "greedy", start: int = 0,
                workers: int | None = None, executor: Executor | None = None, checked: bool = False,
                max_decisions: int = DEFAULT_MAX_DECISIONS, chunk: int | None = None, checked_below: int = 0) -> Batch:
    """Start :func:`run_games`' work on ``executor`` and return at once; without an executor the
    games are played in this process when the batch's records are asked for. Games whose index is
    below ``checked_below`` are checked too (with the rest of their chunk)."""
    module = getattr(engine, "__pnp_key__", None) or engine.__name__  # a game's own engine: by its file
    blob = pickle.dumps(tables, protocol=pickle.HIGHEST_PROTOCOL)
    key = setup_key(module, blob)
    setup = _setup_from(module, blob, key)  # here first: content the engine cannot run fails before any worker
    indices = list(range(start, start + games))
    workers = workers or os.cpu_count() or 1
    if executor is None:

        def play_here(progress):
            records = []
            with few_collections():
                for i in indices:
                    records.append(play_game(engine, setup, players=players, agent=agent, seed=seed, index=i,
                                             checked=checked or i < checked_below, max_decisions=max_decisions)[0])
                    if progress and (len(records) % 25 == 0 or len(records) == games):
                        progress(len(records), games)
            return records
        return Batch(games, [], play_here)
    size = chunk or max(5, min(100, -(-games // (workers * 4))))
    chunks = [indices[i:i + size] for i in range(0, len(indices), size)]
    return Batch(games, [executor.submit(_run_chunk, module, blob, key, players, agent, seed, c,
                                         checked or c[0] < checked_below, max_decisions) for c in chunks])


def replay(engine, setup, *, players: int, agent: str, seed, index: int):
    """Replay one game with full checks; return ``(record, trace lines)``."""
    record, state = play_game(engine, setup, players=players, agent=agent, seed=seed, index=index, checked=True)
    lines = [engine.describe(state, event) for event in state.log] if state is not None else []
    return record, [line for line in lines if line]
