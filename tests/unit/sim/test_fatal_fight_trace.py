"""`pnp simulate fatal-fight --game I --trace` names what happened: every event the engine logs
has its sentence (the raw fallback `kind 1 3` is for an event nobody has described yet)."""
import re
from pathlib import Path

import pytest

from generator.content import load_game
from generator.sim.compile import played_tables
from generator.sim.games import fatal_fight as ff
from generator.sim.runner import replay

RAW = re.compile(r"^\s+[a-z_]+( -?\d+)+\s*$")   # what describe() prints for an event it does not know
SHIPPED = Path(__file__).resolve().parents[3] / "content" / "fatal-fight"


@pytest.fixture(scope="module")
def shipped_setup():
    return ff.compile_setup(played_tables(load_game(SHIPPED)))


def test_every_logged_event_of_greedy_games_is_described(shipped_setup):
    raw, lines_seen = set(), []
    for players in (2, 3, 4):
        for index in range(12):
            _, lines = replay(ff, shipped_setup, players=players, agent="greedy", seed=0, index=index)
            raw.update(line.split()[0] for line in lines if RAW.match(line))
            lines_seen += lines
    assert not raw, f"events traced raw: {sorted(raw)}"
    text = "\n".join(lines_seen)
    for sentence in ("takes the pickup on", "an obstacle (life", "the boss moves to"):   # they did happen
        assert sentence in text


def test_the_trace_shows_the_boss_s_life_and_gp_as_they_change(shipped_setup):
    """The trace named the boss's entry and death only: why a hit of AP 7 left it standing was not
    to be read. Its entry line gives its life (bosses' life + 4 per character beyond 2, the final
    boss less what the gold bought); a GP line follows every change of its GP (a skill gives it, a
    non-pierce hit spends it, the next enemy phase clears it); its skills are named."""
    seen = set()
    for players in (2, 3):
        for index in range(16):
            _, lines = replay(ff, shipped_setup, players=players, agent="greedy", seed=0, index=index)
            stage, lowered, gp = 0, 0, 0
            for line in lines:
                if m := re.match(r"== stage (\d+)$", line):
                    stage = int(m[1])
                if m := re.search(r"life lowered by (\d+)", line):
                    lowered = int(m[1])
                if m := re.search(r"the BOSS enters at R\d \(life (\d+)\)", line):
                    boss = shipped_setup.bosses[stage]
                    assert int(m[1]) == boss["life"] + 4 * (players - 2) - lowered, (players, index, line)
                    seen.add("life")
                if m := re.search(r"the BOSS gains GP (\d+) \(GP (\d+)\)", line):
                    assert int(m[2]) == gp + int(m[1])
                    gp = int(m[2])
                    seen.add("gains")
                if m := re.search(r"the BOSS's GP stops (\d+) of the hit \(GP (\d+) left\)", line):
                    assert int(m[2]) == gp - int(m[1])
                    gp = int(m[2])
                    seen.add("spends")
                if m := re.search(r"the BOSS's GP (\d+) expires", line):
                    assert int(m[1]) == gp
                    gp = 0
                    seen.add("expires")
                if "defeated the BOSS" in line:
                    gp = 0
                if m := re.match(r"\s+the boss uses (skill|rage skill) (\w+)$", line):
                    boss = shipped_setup.bosses[stage]
                    assert m[2] in boss["skill_names" if m[1] == "skill" else "rage_names"], line
                    seen.add(m[1])
    assert seen == {"life", "gains", "spends", "expires", "skill", "rage skill"}, seen


@pytest.mark.parametrize("removed, lowered, said", [
    (0, 0, "final boss: keeps every rage card and its full life (the team's gold bought nothing)"),
    (1, 0, "final boss: 1 rage card removed by the team's gold"),
    (2, 1, "final boss: 2 rage cards removed, life lowered by 1 by the team's gold"),
    (0, 3, "final boss: life lowered by 3 by the team's gold"),
])
def test_the_final_boss_line_says_what_the_gold_bought_and_no_change_of_zero(shipped_setup, removed, lowered, said):
    from types import SimpleNamespace

    assert ff.describe(SimpleNamespace(setup=shipped_setup), ("final_boss", removed, lowered)).strip() == said


def test_an_empty_board_and_a_reshuffle_are_sentences(shipped_setup):
    from types import SimpleNamespace

    state = SimpleNamespace(setup=shipped_setup)
    assert ff.describe(state, ("enemy_phase", (0,) * 6)) == "  enemy phase: no enemy on the board"  # was "group sizes "
    assert ff.describe(state, ("enemy_phase", (3, 0, 0, 0, 1, 0))) == "  enemy phase: group sizes R1:3 R5:1"
    assert ff.describe(state, ("reshuffle",)).strip() == \
        "the enemy deck is empty: its discard is shuffled into a new one"   # was "reshuffle"
