"""Every rules.yaml switch (spec PROPOSAL alternatives and open ideas N1-N11) plays clean games."""
import pytest

from generator.sim.games import fatal_fight as ff
from generator.sim.runner import run_games

import ff_tables

IDEAS = ["n1_line_targeting", "n2_grapple", "n5_chain_keyword", "n8_power_gauge", "n10_free_extra_arts",
         "n11_debuffs"]
PROPOSALS = [("turn_order", "descending"), ("combination_limit", "per_turn"), ("mass_damage_timing", "at_placement"),
             ("revive_mode", "add"), ("saving_any_square", False), ("gym_refresh", "discard"),
             ("escaped_carriers", "never"), ("boss_stage_repeats", False), ("enemy_acts_once", False)]


def with_keywords(tables):
    for art in tables["arts"]:
        if art["id"].endswith("_i00"):
            art["attributes"] = ["attack", "grapple"]
        if art["id"].endswith("_i01"):
            art["attributes"] = ["attack", "chain"]
        if art["id"].endswith("_i08"):
            art["mega"] = True
    return tables


@pytest.mark.parametrize("idea", IDEAS)
def test_idea_switch_plays_clean_games(idea):
    tables = with_keywords(ff_tables.tables())
    tables["rules"]["ideas"][idea]["enabled"] = True
    for agent in ("random", "greedy"):
        records = run_games(ff, tables, players=3, games=4, seed=idea, agent=agent, workers=1, checked=True)
        assert [r["outcome"] for r in records if r["outcome"] in ("error", "timeout")] == [], \
            [r["error"] or r["violations"] for r in records]


@pytest.mark.parametrize("name,value", PROPOSALS)
def test_proposal_alternatives_play_clean_games(name, value):
    tables = ff_tables.tables()
    tables["rules"]["proposals"][name] = value
    records = run_games(ff, tables, players=2, games=3, seed=name, agent="greedy", workers=1, checked=True)
    assert all(r["outcome"] in ("win", "loss", "stall") for r in records), [r["error"] for r in records]


def test_unsupported_switch_value_is_a_problem():
    from generator.errors import ProblemsError
    tables = ff_tables.tables()
    tables["rules"]["proposals"]["subs_resolve_on_play"] = False
    with pytest.raises(ProblemsError) as info:
        ff.compile_setup(tables)
    assert "subs_resolve_on_play" in info.value.problems[0].field


def test_n8_mega_art_starts_beside_the_player(setup):
    tables = with_keywords(ff_tables.tables())
    tables["rules"]["ideas"]["n8_power_gauge"]["enabled"] = True
    import random
    state = ff.new_game(ff.compile_setup(tables), 2, random.Random(1))
    for seat in range(2):
        assert state.mega_art[seat] >= 0 and state.mega_art[seat] not in state.deck[seat]
