"""Instructions per simulated game, counted by valgrind (callgrind): the same figure whatever the load,
for A/B of simulator changes and for pure against compiled engines (``pnp accelerate``).

    python bench/siminstr.py valheim --agent greedy --players 2,3,4
    PNP_PURE_PYTHON=1 python bench/siminstr.py fatal-fight --players 4

Per player count: ``--warm`` games (filling per-process tables), then ``--games`` games inside
``few_collections`` as validation plays them, under callgrind; then the warm games alone; the
difference over ``--games`` is one game's instructions (``PYTHONHASHSEED=0``). Needs valgrind.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(game: str, agent: str, players: int, games: int, warm: int) -> None:
    """Play the games in this process (run by :func:`count` under valgrind); print how the engine ran."""
    sys.path.insert(0, str(HERE))
    from simbench import load

    from generator.sim import accelerate
    from generator.sim.games import engine_for
    from generator.sim.runner import few_collections, play_game

    engine = engine_for(game)
    setup = engine.compile_setup(load(game)[1])
    for i in range(warm):
        play_game(engine, setup, players=players, agent=agent, seed="warm", index=i)
    with few_collections():
        for i in range(games):
            play_game(engine, setup, players=players, agent=agent, seed="bench", index=i)
    print("compiled" if accelerate.is_compiled(engine) else "pure")


def count(game: str, agent: str, players: int, games: int, warm: int) -> tuple[int, str]:
    """``(instructions, "pure" | "compiled")`` of a child process playing ``warm`` + ``games`` games."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__, game,
             "--agent", agent, "--players", str(players), "--games", str(games), "--warm", str(warm), "--child"],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"valgrind failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1]), proc.stdout.strip().splitlines()[-1]
    raise SystemExit("no instruction total in callgrind's output")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--warm", type=int, default=10)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    if args.child:
        sys.path.insert(0, str(HERE.parent))
        child(args.game, args.agent, counts[0], args.games, args.warm)
        return
    for players in counts:
        total, mode = count(args.game, args.agent, players, args.games, args.warm)
        warm, _ = count(args.game, args.agent, players, 0, args.warm)
        print(f"{args.game} {args.agent} {players} players ({mode}): {(total - warm) / args.games / 1e6:.2f} M "
              f"instructions a game ({args.games} games after {args.warm} warm)", flush=True)


if __name__ == "__main__":
    main()
