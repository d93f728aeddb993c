"""Digests of the games every engine plays, to show that a speed change plays the same games.

    python bench/samegames.py [--games 150] > before.txt     # then again after the change, and diff

One line per game, agent and player count: a SHA-256 over every game's record (canonical JSON) and
event log (``repr``), games played as ``play_game`` plays them (fixed seed, unchecked), then a last
line over all of them. A player count an engine refuses digests its (equally fixed) error records, without
the file paths and line numbers of their tracebacks (a clone elsewhere, a line added to the engine).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re

from simbench import load

from generator.sim import agents, games
from generator.sim.runner import play_game

GAMES = ("fatal-fight", "valheim", "metroidvania")
PLAYER_COUNTS = (1, 2, 3, 4)


#: where an error record's traceback was raised: a line added above it in the engine is not another game
_PLACE = re.compile(r'File "[^"]*", line \d+|\(at [\w.]+:\d+\)')


def digest(engine, setup, agent: str, players: int, games: int) -> str:
    sha = hashlib.sha256()
    for i in range(games):
        record, state = play_game(engine, setup, players=players, agent=agent, seed="same", index=i)
        if record.get("error"):  # a record may carry error: None (a game that ended well)
            record = {**record, "error": _PLACE.sub("<place>", record["error"])}
        sha.update(json.dumps(record, sort_keys=True, default=repr).encode())
        sha.update(repr(getattr(state, "log", None)).encode())
    return sha.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=150)
    args = parser.parse_args()
    total = hashlib.sha256()
    for name in GAMES:
        engine = games.engine_for(name)
        _, tables = load(name)
        setup = engine.compile_setup(tables)
        for agent in agents.agent_names(engine):
            for players in PLAYER_COUNTS:
                line = f"{name} {agent} {players}: {digest(engine, setup, agent, players, args.games)}"
                total.update(line.encode())
                print(line, flush=True)
    print(f"all: {total.hexdigest()}")


if __name__ == "__main__":
    main()
