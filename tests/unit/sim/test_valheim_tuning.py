"""Valheim's shipped numbers against the pacing planner (content/valheim/README.md, tuning log, change 2).

Once the player who sets the round's pace held back what its deck could not refill, the team got one
more main phase a round and cleared every avatar by round 7 in ~70% of games at 3-4 players (win
~0.87). The avatars' player-count step went up to +5 there and the inferno avatar's card down to 15,
so that it still stands where the planner dives for it: one point more and it is never fought."""
import math

from generator.sim.games import valheim as V
from generator.sim.games.valheim_agents import BOSS_HUNT_P
from generator.sim.runner import run_games

from test_valheim_api import vh_tables


def _dive_reach(setup) -> int:
    """The strongest avatar the planner still dives for (chance >= BOSS_HUNT_P) with every facility
    built and the best weapon and armor: it plans with the hand minus the hunt card it plays."""
    rules = setup.rules
    best = [0] * len(setup.slots)
    hand, power = rules["deck.hand_size"] - 1, 0
    for r in range(len(setup.r_id)):
        if not setup.r_active[r]:
            continue
        if setup.r_kind[r] == "equipment":
            best[setup.r_slot[r]] = max(best[setup.r_slot[r]], setup.r_level[r])
        elif setup.r_kind[r] == "facility":
            for op, p in setup.r_effect[r]:
                hand += p["n"] if op == "hand_size" else 0
                power += p["n"] if op == "power" and p["vs"] in ("all", "boss") else 0
    sides = rules["hunt.die_sides"]
    # win on a roll >= need (a tie wins): chance (sides - need + 1) / sides
    need = sides + 1 - math.ceil(BOSS_HUNT_P * sides)
    return hand + sum(best) + power + need - (0 if rules["hunt.tie_wins"] else 1)


def test_every_avatar_stays_within_the_planners_dive_reach_at_every_count():
    setup = V.compile_setup(vh_tables())
    reach = _dive_reach(setup)
    assert reach == 20  # hand 5 (bed) + adamant sword 5 and armor 4 + altar 2, a 4 on the die
    for players, step in setup.rules["hunt.strength_by_players"].items():
        assert max(setup.boss_strength) + step <= reach, players


def _all_avatars_and_wins(players, games=120):
    recs = run_games(V, vh_tables(), players=players, games=games, seed=0, agent="greedy", workers=1)
    done = [r for r in recs if r["outcome"] in ("win", "loss")]
    assert len(done) == games
    cleared = sum(r["avatars_in_time"] >= 5 for r in done) / games
    return cleared, sum(r["outcome"] == "win" for r in done) / games


def test_the_shipped_team_no_longer_clears_every_avatar_in_most_games():
    # before change 2: 0.71 / 0.70 of games cleared all five by round 7 and ~0.87 won (validate: <= 0.5, 0.35-0.75)
    for players in (3, 4):
        cleared, won = _all_avatars_and_wins(players)
        assert cleared <= 0.55 and 0.35 <= won <= 0.75, (players, cleared, won)
