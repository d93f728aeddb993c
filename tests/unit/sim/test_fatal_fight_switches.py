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


@pytest.mark.parametrize("enabled", [True, False])
def test_final_boss_deck_holds_its_rage_cards_unless_gold_removes_them(enabled):
    """G1: the final boss deck is 3 skills + 2 rage cards and leftover gold removes rage cards.
    With final_boss_gold off gold buys nothing: both rage cards stay and nobody pays."""
    import random

    from generator.sim.games.fatal_fight_flow import SHOP
    from generator.sim.games.fatal_fight_shop import DONE

    tables = ff_tables.tables()
    tables["rules"]["proposals"]["final_boss_gold"]["enabled"] = enabled
    setup = ff.compile_setup(tables)
    state = ff.new_game(setup, 2, random.Random(0))
    state.stage, state.boss_alive, state.pool = 3, False, 0
    state.clear_stage()                       # stage 3 cleared with an empty pool: 1 gold each
    while state.phase == SHOP:
        state.apply_action((DONE,))
    boss = setup.bosses[4]
    rage_left = sum(1 for top in state.boss_deck if top >= len(boss["skills"]))
    assert state.stage == 4 and len(boss["rage"]) == 2
    life = state.elife[setup.boss]
    if enabled:   # 8 gold, 2 per step: both rage cards removed (4), then life 12 -> 10 (4)
        assert (rage_left, sum(state.gold), life) == (0, 0, boss["life"] - 2)
    else:
        assert (rage_left, sum(state.gold), life) == (2, 8, boss["life"])
        assert len(state.boss_deck) == len(boss["skills"]) + 2


def test_n8_mega_art_beside_the_player_can_be_upgraded():
    """N8 keeps the mega art out of the deck; P2 upgrades still apply to it (its upgraded card
    becomes the new mega art, still outside the deck)."""
    import random

    from generator.sim.games.fatal_fight_shop import UPGRADE

    tables = with_keywords(ff_tables.tables())
    tables["rules"]["ideas"]["n8_power_gauge"]["enabled"] = True
    setup = ff.compile_setup(tables)
    state = ff.new_game(setup, 2, random.Random(1))
    s, mega = state.seat, state.mega_art[state.seat]
    up = next(u for u in state.upgrades_left[s] if setup.c_replaces[u] == mega)
    state.gold[s], state._legal = 9, None
    assert (UPGRADE, up) in state.legal_actions()
    deck = list(state.deck[s])
    state.apply_action((UPGRADE, up))
    assert state.mega_art[s] == up and sorted(state.deck[s]) == sorted(deck) and mega in state.exiled


def test_n8_a_non_attack_mega_is_not_a_chain():
    """N8: "an attack mega as a one-card chain". A support mega (here heal 2 + action +1) applies
    its sub-attributes and effect and opens no chain: no 0-AP chain, no HIT, and the turn's first
    chain (Rex's Special) is still to come."""
    import random

    from generator.sim.games.fatal_fight_actions import MEGA
    from generator.sim.games.fatal_fight_flow import MAIN, SHOP
    from generator.sim.games.fatal_fight_shop import DONE

    tables = ff_tables.tables()
    for art in tables["arts"]:
        if art["id"].endswith("_i11"):
            art["mega"] = True            # ff_tables _i11: no attack, heal 2, gain_action 1
    tables["rules"]["ideas"]["n8_power_gauge"]["enabled"] = True
    setup = ff.compile_setup(tables)
    state = ff.new_game(setup, 2, random.Random(0))
    while state.phase == SHOP:
        state.apply_action((DONE,))
    s = state.seat
    for g in state.groups:
        g.clear()
    state.groups[4] = [0]
    state.gauge[s], state.hand[s] = state.hand[s][:3], state.hand[s][3:]
    state.life[s], state.actions_left, state._legal = 5, 3, None
    assert not setup.c_attack[state.mega_art[s]]
    state.apply_action((MEGA,))
    assert state.phase == MAIN and state.chains_this_turn == [0] and state.chain == []
    assert not [e for e in state.log if e[0] == "chain"]
    assert state.life[s] == 7 and state.actions_left == 4


def _at_the_rage_choice(setup):
    """A 2-character game whose third stage has just been cleared with 1 gold each (one step of 2), the
    shop passed: the team at the rage-card choice (G1). Returns the state and the first rage card's index."""
    import random

    from generator.sim.games.fatal_fight_flow import RAGE, SHOP
    from generator.sim.games.fatal_fight_shop import DONE

    state = ff.new_game(setup, 2, random.Random(0))
    state.stage, state.boss_alive, state.pool, state.gold = 3, False, 0, [0, 0]
    state.clear_stage()
    while state.phase == SHOP:
        state.apply_action((DONE,))
    assert state.phase == RAGE and state.seat == 0
    return state, len(setup.bosses[4]["skills"])


def test_the_team_chooses_which_rage_card_its_gold_removes():
    """G1 (rulebook 07-clear): gold for one step removes one of the two rage cards, and the team
    chooses which (seat 0 speaks for it), not the data order; then the round starts."""
    from generator.sim.games.fatal_fight_flow import MAIN
    from generator.sim.games.fatal_fight_shop import RAGE_A

    tables = ff_tables.tables()
    fury = next(c for c in tables["bosses"] if c.get("rage") and c["skill"] == "r1")
    fury["effect"] = [{"op": "damage", "n": 3, "target": "all", "pierce": False}]
    setup = ff.compile_setup(tables)
    state, first_rage = _at_the_rage_choice(setup)
    assert state.legal_actions() == [(RAGE_A, first_rage), (RAGE_A, first_rage + 1)]
    state.apply_action((RAGE_A, first_rage + 1))   # the second card, which data order would keep
    assert state.phase == MAIN and sum(state.gold) == 0
    assert [top for top in state.boss_deck if top >= first_rage] == [first_rage]


def test_identical_rage_cards_are_one_choice():
    """G1 with two identical rage cards and a third that differs: the team chooses between the two
    kinds of card (the first copy stands for its twins), not among three cards, and what is left is
    what that choice leaves."""
    from generator.sim.games.fatal_fight_flow import MAIN
    from generator.sim.games.fatal_fight_shop import RAGE_A

    tables = ff_tables.tables()
    twin = next(c for c in tables["bosses"] if c.get("rage") and c["skill"] == "r1")
    tables["bosses"].append({**twin, "id": "boss4_r2", "skill": "r2",
                             "effect": [{"op": "spawn", "n": 1, "respawn": 5}]})
    setup = ff.compile_setup(tables)
    assert len(setup.bosses[4]["rage"]) == 3 and setup.bosses[4]["rage"][0] == setup.bosses[4]["rage"][1]
    state, first_rage = _at_the_rage_choice(setup)
    assert state.legal_actions() == [(RAGE_A, first_rage), (RAGE_A, first_rage + 2)]
    assert (RAGE_A, first_rage + 1) not in state.legal_actions()
    state.apply_action((RAGE_A, first_rage))  # one of the twins goes
    assert state.phase == MAIN
    assert sorted(top for top in state.boss_deck if top >= first_rage) == [first_rage + 1, first_rage + 2]

def test_n8_feeding_the_gauge_ends_the_turn():
    """N8 timing (schema n8_power_gauge: "At the end of their own turn a player may put up to
    feed_per_round hand cards ... into their gauge"): after gauging, nothing else is left in the
    turn but more gauging up to feed_per_round; at the limit the turn ends by itself."""
    import random

    from generator.sim.games.fatal_fight_actions import END, GAUGE, MOVE, PLAY, is_legal
    from generator.sim.games.fatal_fight_flow import MAIN, SHOP
    from generator.sim.games.fatal_fight_shop import DONE

    for feed in (1, 2):
        tables = with_keywords(ff_tables.tables())
        tables["rules"]["ideas"]["n8_power_gauge"].update(enabled=True, feed_per_round=feed)
        state = ff.new_game(ff.compile_setup(tables), 2, random.Random(0))
        while state.phase == SHOP:
            state.apply_action((DONE,))
        for g in state.groups:
            g.clear()
        assert state.phase == MAIN and state.seat == 0 and state.actions_left >= 1 and len(state.hand[0]) >= 3
        first, second = state.hand[0][:2]
        state.apply_action((GAUGE, first))
        if feed == 1:
            assert state.seat == 1 and state.gauge[0] == [first]
            continue
        assert state.seat == 0 and set(state.legal_actions()) == {(END,)} | {(GAUGE, c) for c in state.hand[0]}
        assert not is_legal(state, (PLAY, second)) and not any(is_legal(state, (MOVE, q)) for q in range(9))
        state.apply_action((GAUGE, second))
        assert state.seat == 1 and state.gauge[0] == [first, second]


def _n8_feed_two_setup():
    tables = with_keywords(ff_tables.tables())
    tables["rules"]["ideas"]["n8_power_gauge"].update(enabled=True, feed_per_round=2)
    return tables


def test_n8_greedy_after_feeding_the_gauge_only_feeds_or_ends():
    """With feed_per_round 2 a first card into the gauge leaves the turn open for a second one
    and nothing else: the greedy agent played a card or moved there (IllegalActionError)."""
    import random

    from generator.sim.games.fatal_fight_actions import END, GAUGE
    from generator.sim.games.fatal_fight_agents import GreedyAgent
    from generator.sim.games.fatal_fight_flow import SHOP
    from generator.sim.games.fatal_fight_shop import DONE

    setup = ff.compile_setup(_n8_feed_two_setup())
    for seed in range(4):
        state = ff.new_game(setup, 2, random.Random(seed))
        while state.phase == SHOP:
            state.apply_action((DONE,))
        state.apply_action((GAUGE, state.hand[0][0]))  # enemies still on the board: chains and moves would tempt it
        action = GreedyAgent(setup, 0).choose(state, random.Random(0))
        assert action in state.legal_actions() and action[0] in (GAUGE, END), (seed, action)


def test_n8_feeding_two_cards_plays_clean_games():
    from generator.sim.runner import play_game

    setup = ff.compile_setup(_n8_feed_two_setup())
    second_feeds = 0
    for players in (2, 3):
        for i in range(16):
            record, state = play_game(ff, setup, players=players, agent="greedy", seed="feed", index=i, checked=True)
            assert record["outcome"] in ("win", "loss", "stall"), record["error"] or record["violations"]
            events = [e for e in state.log if e[0] != "act"]
            second_feeds += sum(a[0] == b[0] == "gauge" for a, b in zip(events, events[1:]))
    assert second_feeds > 0  # the setting was played, not just allowed
