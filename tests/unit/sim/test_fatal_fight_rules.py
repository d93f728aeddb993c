"""Rules of spec §3 on hand-built states (tables from ff_tables, positions set by hand)."""
import random

import pytest

from generator.errors import Location, ProblemsError
from generator.sim.games import fatal_fight as ff
from generator.sim.games import fatal_fight_combat as combat
from generator.sim.games.fatal_fight_actions import DONE, DROP_A, FINISH, ITEM, JOIN, PASS, PLAY, SAVE, TAKE, TARGET_A
from generator.sim.games.fatal_fight_flow import ACTIVE, CHAIN, COMBO, DOWN, DROP, MAIN, RETURNING, SHOP
from generator.sim.games.fatal_fight_setup import PIERCE, RANGE

L_M, C_M, R_M = 1, 4, 7  # squares: area * 3 + line


def fresh(setup, players=2):
    state = ff.new_game(setup, players, random.Random(0))
    while state.phase == SHOP:
        state.apply_action((DONE,))
    assert state.phase == MAIN and state.seat == 0
    for g in state.groups:
        g.clear()
    state.actions_left = 3
    return state


def card(setup, cid):
    return setup.c_id.index(cid)


def enemies(setup, life, skill="none", n=1):
    found = [e for e in range(len(setup.e_id)) if setup.e_life[e] == life and setup.e_skill[e] == skill]
    assert len(found) >= n, (life, skill)
    return found[:n]


def chars(state):
    return [state.setup.characters[c]["id"] for c in state.chars]


def test_chain_sums_ap_and_merges_sub_attributes(setup):
    st = fresh(setup)
    me = chars(st)[0]
    a, b = card(setup, f"{me}_i07"), card(setup, f"{me}_i06")  # AP 1 range, AP 3 (pierce on even rosters)
    st.hand[0] = [a, b]
    st.groups[1] = enemies(setup, 3)
    st.apply_action((PLAY, a))
    assert st.phase == CHAIN and st.chain_ap == 1 and st.chain_flags & RANGE
    st.apply_action((PLAY, b))
    assert st.chain_ap == 4
    assert st.chain_flags & RANGE and st.chain_flags & setup.c_flags[b] == setup.c_flags[b]


def test_range_reaches_adjacent_areas_only_from_the_centre(setup):
    st = fresh(setup)
    st.groups[1] = enemies(setup, 1)          # L-M
    st.groups[4] = enemies(setup, 2)          # R-M
    st.groups[0] = enemies(setup, 1, n=2)[1:]  # L-U, another line
    assert combat.targets(st, C_M, 0) == [1, 4]
    assert combat.targets(st, L_M, 0) == [1]
    assert combat.targets(st, R_M, 0) == [4]
    assert combat.targets(st, C_M, 4) == [0, 1, 4]  # launch: any group


def test_cqb_adds_pierce_and_pierce_overflow_carries(setup):
    st = fresh(setup)
    st.groups[1] = enemies(setup, 1) + enemies(setup, 2) + enemies(setup, 3)
    st.pos[0] = L_M
    assert combat.effective(st, L_M, 1, 4, 0, 0) == (4, True)
    assert combat.effective(st, C_M, 1, 4, 0, 0) == (4, False)
    killed = combat.resolve(st, 0, 1, 4, 0, 0)     # 4 -> 1 (carry 3) -> 2 (carry 1) -> stops at 3
    assert killed == 2 and len(st.groups[1]) == 1
    st.pos[0] = C_M
    st.groups[4] = enemies(setup, 1, n=2)
    assert combat.resolve(st, 0, 4, 5, 0, 0) == 1  # no pierce: only the head


def test_range_hits_everyone_and_guard_points_are_spent(setup):
    st = fresh(setup)
    weak, tough = enemies(setup, 1)[0], enemies(setup, 3)[0]
    st.groups[4] = [weak, tough]
    st.egp[weak] = 1
    assert combat.resolve(st, 0, 4, 2, RANGE, 0) == 1    # 2-1 GP kills the 1-life; 2 < 3
    assert st.groups[4] == [tough]
    st.groups[4] = [weak]
    st.egp[weak] = 2
    assert combat.resolve(st, 0, 4, 2, 0, 0) == 0 and st.egp[weak] == 0   # GP spent, no damage kept
    assert combat.resolve(st, 0, 4, 1, PIERCE, 0) == 1


def test_guard_points_absorb_damage_except_pierce(setup):
    st = fresh(setup)
    life = st.life[0]
    st.gain_gp(0, 2)
    st.hurt(0, 3, pierce=False, cause="test")
    assert st.life[0] == life - 1 and st.gp[0] == 0
    st.gain_gp(0, 2)
    st.hurt(0, 2, pierce=True, cause="test")
    assert st.life[0] == life - 3 and st.gp[0] == 2


def test_mass_damage_trims_groups_to_the_cap_and_hurts_everyone(setup):
    st = fresh(setup)
    cap = setup.rules["group_cap"]
    st.groups[0] = enemies(setup, 1, n=3) + enemies(setup, 2, n=3)
    lives = list(st.life)
    st.mass_damage()
    assert len(st.groups[0]) == cap
    assert st.life == [x - (6 - cap) for x in lives]


def test_cross_moves_the_head_to_the_opposite_group(setup):
    st = fresh(setup)
    crosser = enemies(setup, 3, "cross")[0]
    st.groups[1] = [crosser]
    st.groups[4] = enemies(setup, 1)
    st.pos = [0, 0]  # L-U: no combat damage on the middle line
    st.enemy_phase()
    assert st.groups[1] == [] and st.groups[4][-1] == crosser


def test_carrier_gold_and_escape(setup):
    st = fresh(setup)
    c1, c2 = enemies(setup, 2, "carrier", n=2)
    st.groups[4] = [c1]
    st.groups[5] = [c2]
    combat.resolve(st, 0, 4, 2, 0, 0)
    assert st.pool == setup.rules["carrier_gold"]
    st.end_round()
    assert c2 in st.escaped and c2 not in st.groups[5]


def _partners_with_attacks(setup, group):
    """Two players on C-M: the turn player holds three attack arts, the partner three to join
    (and one more card); ``group`` stands in R5."""
    st = fresh(setup, players=2)
    me, ally = chars(st)
    attacks = [card(setup, f"{me}_i0{j}") for j in range(3)]
    helps = [card(setup, f"{ally}_i0{j}") for j in range(3)]
    st.hand[0], st.hand[1] = list(attacks), list(helps) + [card(setup, f"{ally}_i09")]
    st.pos = [C_M, C_M]
    st.groups[4] = group
    return st, attacks, helps


def test_combination_and_combo_bonus(setup):
    st, attacks, helps = _partners_with_attacks(setup, enemies(setup, 1))
    for c in attacks:
        st.apply_action((PLAY, c))
    assert st.phase == COMBO and st.seat == 1       # the chain closed itself: no action left
    st.apply_action((JOIN, helps[0]))
    st.apply_action((JOIN, helps[1]))
    st.apply_action((PASS,))
    # one legal target: resolved by itself; 5 hits -> hits - (min - 1) gold
    assert st.phase == MAIN
    assert st.pool == 5 - setup.rules["combo_bonus_min_hits"] + 1
    assert st.actions_left == 0 or st.seat != 0


def test_saving_revives_next_round_untouchable_meanwhile(setup):
    st = fresh(setup, players=2)
    st.status[1], st.life[1] = DOWN, -1
    st.hand[0] = [card(setup, f"{chars(st)[0]}_i0{j}") for j in range(3)]
    pay = sorted(st.hand[0][:2])
    st.apply_action((SAVE, 1, *pay))
    assert st.status[1] == RETURNING and st.life[1] == setup.rules["revive_life"]
    st.groups[1] = enemies(setup, 2, n=2)
    st.pos[1] = L_M
    st.enemy_phase()
    assert st.life[1] == setup.rules["revive_life"]
    st.end_round()
    assert st.status[1] == ACTIVE


@pytest.mark.parametrize("pool,players,share,left", [(7, 3, 2, 1), (2, 3, 1, 2), (4, 2, 2, 0)])
def test_stage_clear_splits_gold(setup, pool, players, share, left):
    st = fresh(setup, players=players)
    st.pool = pool
    before = list(st.gold)
    st.clear_stage()
    assert [g - b for g, b in zip(st.gold, before)] == [share] * players
    assert st.pool == left and st.stage == 2


def test_the_next_stage_s_boss_starts_without_the_last_boss_s_skill_gp(setup):
    """Skill GP lasts until the next enemy phase; a boss killed by a pierce hit kept it, and the next stage's
    boss held it until the enemy phase of the stage's first round (before the boss enters: no game changed)."""
    st = fresh(setup)
    st.xgp[setup.boss] = 3  # given by the stage-1 boss's skill last enemy phase, not spent
    st.clear_stage()
    assert st.stage == 2 and st.xgp[setup.boss] == 0


def test_killing_the_boss_clears_the_stage(setup):
    st = fresh(setup)
    st.groups[4] = [setup.boss]
    st.boss_placed = True
    st.elife[setup.boss] = 3
    st.pos[1] = 0                                          # no combination partner
    st.hand[0] = [card(setup, f"{chars(st)[0]}_i06")]   # AP 3
    st.apply_action((PLAY, st.hand[0][0]))
    assert st.stage == 2 and st.phase in (SHOP, MAIN)
    assert any(ev[0] == "clear" and ev[1] == 1 for ev in st.log)


def test_unknown_op_is_a_located_problem(tables):
    record = tables["arts"][0]
    record["effect"] = [{"op": "teleport", "n": 1}]
    where = {id(record): Location("content/x/arts/a.yaml", 12)}
    with pytest.raises(ProblemsError) as info:
        ff.compile_setup(tables, where=lambda r: where.get(id(r)))
    problem = info.value.problems[0]
    assert problem.location == Location("content/x/arts/a.yaml", 12)
    assert "teleport" in problem.message and problem.field == "effect[0].op"


def test_a_negative_ap_is_a_located_problem(tables):
    """A chain's AP only grows (the previews index their kill tables by it): an AP below 0, on a card,
    in a chain_ap effect or as an idea's bonus, is refused where it is written, not played wrongly."""
    record = tables["arts"][0]
    record["ap"] = -1
    tables["arts"][1]["effect"] = [{"op": "chain_ap", "n": -2}]
    tables["rules"]["ideas"]["n5_chain_keyword"]["bonus_ap"] = -1
    where = {id(record): Location("content/x/arts/a.yaml", 12)}
    with pytest.raises(ProblemsError) as info:
        ff.compile_setup(tables, where=lambda r: where.get(id(r)))
    found = {(p.field, p.message) for p in info.value.problems}
    assert ("ap", "the simulator needs AP 0 or more, got -1") in found
    assert ("effect", "the simulator needs chain_ap's n to be 0 or more, got -2") in found
    assert ("ideas.n5_chain_keyword.bonus_ap", "the simulator needs 0 or more, got -1") in found
    assert any(p.location == Location("content/x/arts/a.yaml", 12) for p in info.value.problems if p.field == "ap")


def test_numbers_come_from_the_tables(tables):
    for enemy in tables["enemies"]:
        enemy["life"] = 6
    tables["rules"]["group_cap"] = 3
    setup = ff.compile_setup(tables)
    assert set(setup.e_life) == {6} and setup.rules["group_cap"] == 3


def _with_special(trigger, effect):
    """Every character's Special replaced (the engine reads the turn player's)."""
    import ff_tables

    tables = ff_tables.tables()
    for c in tables["characters"]:
        c["special"] = {"name": "", "trigger": trigger, "text": "", "effect": effect}
    return ff.compile_setup(tables)


def _attack(setup, me, ap):
    """An initial attack card of ``me`` with this AP and no sub-attribute."""
    return next(c for c in range(len(setup.c_id)) if setup.c_id[c].startswith(f"{me}_i") and setup.c_ap[c] == ap
                and setup.c_flags[c] == 0 and setup.c_attack[c])


def test_a_chain_resolve_special_adds_its_ap_to_the_chain_that_resolves():
    """Bruno's 怪力 (CQB -> AP+1): an AP 2 attack in close quarters kills a life-3 enemy."""
    setup = _with_special("chain_resolve", [{"op": "chain_ap", "n": 1, "when": "cqb"}])
    st = fresh(setup)
    me = chars(st)[0]
    a = _attack(setup, me, 2)
    st.hand[0] = [a]
    st.pos[0] = L_M
    st.groups[1] = enemies(setup, 3)
    st.apply_action((PLAY, a))
    if st.phase == CHAIN:
        st.apply_action((FINISH,))
    assert ("special", 0, "chain_resolve") in st.log
    chain = [e for e in st.log if e[0] == "chain"][-1]
    assert chain[2] == 3 and chain[6] == 1 and not st.groups[1]   # AP 2 + 1, one kill
    assert st.pending_mods == []


def test_a_first_chain_special_launch_widens_that_chains_targets():
    """Rex's 剛速球 (the turn's first chain gains launch): from the centre, a group on another line
    is a target of that very chain, and the second chain of the turn does not get it."""
    setup = _with_special("first_chain_resolve",
                          [{"op": "chain_sub", "range": False, "pierce": False, "launch": True, "when": "always"}])
    st = fresh(setup)
    me = chars(st)[0]
    a, b = _attack(setup, me, 1), _attack(setup, me, 2)
    st.hand[0] = [a, b]
    st.pos = [C_M, R_M]
    st.groups[0] = enemies(setup, 1)        # L-U: another line, only a launch reaches it
    st.groups[4] = enemies(setup, 3)        # R-M: in reach
    st.apply_action((PLAY, a))
    st.apply_action((FINISH,))
    assert st.legal_actions() == [(TARGET_A, 0), (TARGET_A, 4)]
    st.apply_action((TARGET_A, 0))
    assert not st.groups[0]
    st.groups[0] = enemies(setup, 1)
    st.apply_action((PLAY, b))
    if st.phase == CHAIN:
        st.apply_action((FINISH,))
    if st.phase != MAIN:
        assert (TARGET_A, 0) not in st.legal_actions()
        st.apply_action((TARGET_A, 4))
    assert [e for e in st.log if e[0] == "chain"][-1][5] == 4 and st.groups[0]   # no launch the second time


def test_an_item_used_while_the_chain_is_open_adds_to_that_chain():
    """G16: items do not close the chain; 鉄パイプ (this chain AP+2) used after the last card
    lands on it, and the chain waits for the item before closing by itself."""
    import ff_tables

    tables = ff_tables.tables()
    tables["supplies"].append({"id": "pipe", "name": "", "count": 1, "attributes": ["carry", "exile"], "text": "",
                               "effect": [{"op": "chain_ap", "n": 2, "when": "always"}]})
    setup = ff.compile_setup(tables)
    st = fresh(setup)
    me = chars(st)[0]
    pipe = setup.supplies["pipe"][0]
    a = _attack(setup, me, 1)
    st.hand[0], st.carry[0], st.actions_left = [a], [pipe], 1
    st.pos = [C_M, L_M]   # no partner on the square: the chain goes straight to its target
    st.groups[4] = enemies(setup, 3)
    st.apply_action((PLAY, a))
    assert st.phase == CHAIN and (ITEM, pipe) in st.legal_actions()   # no action left, but the item
    st.apply_action((ITEM, pipe))
    assert [e for e in st.log if e[0] == "chain"][-1][2] == 3 and not st.groups[4]   # AP 1 + 2 kills life 3


def test_a_gold_pickup_needs_no_carry_room(setup):
    """N3/G25 pickups: a gold pickup goes to the stage pool, so a player whose carry is full
    (G3 max_carry) may take it and keeps every supply."""
    st = fresh(setup)
    st.carry[0] = list(setup.supplies["chicken"][:st.max_carry[0]])
    st.pickups = {C_M: [(None, 2)]}
    st._legal = None
    assert (TAKE, -1) in st.legal_actions()
    st.apply_action((TAKE, -1))
    assert st.pool == 2 and len(st.carry[0]) == st.max_carry[0] and not st.pickups[C_M]


def test_over_max_carry_the_player_takes_it_and_chooses_what_to_discard(setup):
    """G3 (spec §5: "If over, discard down to it"; rulebook 05-action 「超えた分を選んで捨てます」):
    a full carry does not refuse a supply. The player takes it, then chooses which supply to
    discard (one option per kind), and the turn goes on where it was."""
    st = fresh(setup)
    full = st.max_carry[0]
    st.carry[0] = list(setup.supplies["chicken"][:full])
    st.pickups = {C_M: [("knife", 0)]}
    st._legal = None
    assert (TAKE, -1) in st.legal_actions()
    st.apply_action((TAKE, -1))
    knife = setup.supplies["knife"][0]
    assert st.phase == DROP and st.seat == 0 and knife in st.carry[0]
    assert st.legal_actions() == sorted([(DROP_A, st.carry[0][full - 1]), (DROP_A, knife)])
    st.apply_action((DROP_A, st.carry[0][full - 1]))
    assert len(st.carry[0]) == full and knife in st.carry[0] and st.phase == MAIN and st.seat == 0
    assert ("drop", 0, setup.supplies["chicken"][full - 1]) in st.log


def test_over_max_carry_with_one_kind_of_supply_the_newest_goes_by_itself(setup):
    """G3 with nothing to choose: an effect's supply of the kind already carried is discarded
    down without a decision (no extra decision point)."""
    st = fresh(setup)
    full = st.max_carry[0]
    st.carry[0] = list(setup.supplies["chicken"][:full])
    st.give_supply(0, "chicken")
    assert len(st.carry[0]) == full + 1 and st.dropping == ()
    from generator.sim.games.fatal_fight_actions import discard_down
    discard_down(st)
    assert len(st.carry[0]) == full and st.phase == MAIN and st.dropping is None
    assert st.log[-2][0] == "auto" and st.log[-1][0] == "drop"


def test_hit_plus_counts_towards_a_3hit_special():
    """燕舞 (a chain of 3HIT or more: AP+1) counts the HITs 百裂拳 adds (このチェーンはHIT+1): two cards and
    HIT+1 make 3 HITs, so AP 1 + 1 + 1 kills a life-3 enemy."""
    import ff_tables

    tables = ff_tables.tables()
    for c in tables["characters"]:
        c["special"] = {"name": "", "trigger": "chain_resolve", "text": "",
                        "effect": [{"op": "chain_ap", "n": 1, "when": "hits_3"}]}
    hundred = next(x for x in tables["extra_arts"] if x["ap"] == 2 and not any(x["sub"][k] for k in ("range", "pierce")))
    hundred.update(ap=1, effect=[{"op": "add_hits", "n": 1, "when": "always"}])
    setup = ff.compile_setup(tables)
    st = fresh(setup)
    me = chars(st)[0]
    hundred, a = card(setup, hundred["id"]), _attack(setup, me, 1)
    st.hand[0], st.actions_left = [hundred, a], 2
    st.pos = [C_M, L_M]
    st.groups[4] = enemies(setup, 3)
    st.apply_action((PLAY, hundred))
    st.apply_action((PLAY, a))
    if st.phase == CHAIN:
        st.apply_action((FINISH,))
    chain = [e for e in st.log if e[0] == "chain"][-1]
    assert chain[2] == 3 and chain[4] == 3 and not st.groups[4]   # AP 2 + 1, 3 HITs


def test_the_boss_entry_respawn_written_twice_must_agree(tables):
    """rules.yaml's proposals.boss_entry_respawn (the rulebook's number) and the boss stage card's
    boss_spawn.respawn (what the engine plays) name the same respawn."""
    card = next(c for c in tables["stages"] if c["stage"] == 2 and c["kind"] == "boss")
    card["boss_spawn"]["respawn"] = 3
    with pytest.raises(ProblemsError) as caught:
        ff.compile_setup(tables)
    assert any(p.field == "boss_spawn.respawn" and "stage 2 enters at respawn 3" in p.message
               and "boss_entry_respawn says 5" in p.message for p in caught.value.problems)


def test_a_chain_with_no_target_earns_no_combo_bonus(setup):
    """L316-319: the combo bonus is part of a chain's attack on the group chosen at its end
    (L304); a chain with no legal target attacks nobody, so its HITs earn no gold, while a chain
    that picks a group earns it even when it kills nobody."""
    for with_target in (False, True):
        st, attacks, helps = _partners_with_attacks(setup, enemies(setup, 1) if with_target else [])
        st.actions[1] = 8
        for c in attacks:
            st.apply_action((PLAY, c))
        for c in helps:
            st.apply_action((JOIN, c))
        while st.phase == COMBO:
            st.apply_action((PASS,))
        if st.phase != MAIN:
            st.apply_action(st.legal_actions()[0])
        chain = [e for e in st.log if e[0] == "chain"][-1]
        assert chain[4] == 6 and (chain[5] >= 0) == with_target
        bonus = max(0, 6 - setup.rules["combo_bonus_min_hits"] + 1)
        assert st.pool == (bonus if with_target else 0)


def test_players_may_give_gold_at_stage_start(setup):
    """G21 (rulebook 04-round, 09-faq: 「ステージ開始時にはプレイヤー同士で自由に渡し合えます」):
    a player gives 1 gold at a time to an ally it lets buy something; the greedy player gives
    gold it cannot use. The gift is offered only where it buys something, and a player who was
    given gold gives none."""
    from generator.sim.games.fatal_fight_agents import GreedyAgent
    from generator.sim.games.fatal_fight_shop import GIVE, UPGRADE

    st = ff.new_game(setup, 2, random.Random(0))
    assert st.phase == SHOP and st.seat == 0
    u = min(st.upgrades_left[1], key=lambda c: (setup.c_cost[c], c))
    st.gym, st.upgrades_left[0] = [], []
    st.gold = [1, setup.c_cost[u] - 1]
    st._legal = None
    assert st.legal_actions() == [(DONE,), (GIVE, 1)]
    assert GreedyAgent(setup, 0).choose(st, random.Random(0)) == (GIVE, 1)
    st.apply_action((GIVE, 1))
    assert st.gold == [0, setup.c_cost[u]] and st.seat == 1 and st.phase == SHOP
    assert (UPGRADE, u) in st.legal_actions() and not any(a[0] == GIVE for a in st.legal_actions())


class _Draws:
    """An rng whose random() returns the given values in order."""

    def __init__(self, *values):
        self.values = list(values)

    def random(self):
        return self.values.pop(0)


def test_a_d6_respawn_is_a_fair_die_over_the_six_respawns_and_a_number_names_one(setup):
    st = fresh(setup)
    st.rng = _Draws(0.0, 0.1666, 0.1667, 0.4999, 0.5, 0.8333, 0.8334, 0.9999)
    assert [st.respawn_index("d6") for _ in range(8)] == [0, 0, 1, 2, 3, 4, 5, 5]
    assert [st.respawn_index(n) for n in (1, "3", 6)] == [0, 2, 5]   # respawn 1..6 is index 0..5


def _shipped_setup():
    from pathlib import Path

    from generator.content import load_game
    from generator.sim.compile import played_tables
    game = load_game(Path(__file__).resolve().parents[3] / "content" / "fatal-fight")
    return ff.compile_setup(played_tables(game))


def _shop_choice_by_definition(st) -> bool:
    """Something to buy, a wound to cure, or 1 gold letting an ally pay for an offer it cannot yet
    (G21), straight from ``offers``."""
    from generator.sim.games.fatal_fight_shop import offers

    s, rules, cost = st.seat, st.setup.rules, st.setup.c_cost
    gold = st.gold[s]
    cure = rules["n11"] and gold >= rules["n11_cure"] and any(st.setup.c_kind[d] == "wound" for d in st.deck[s])
    gift = gold and not st.gifted[s] and any(cost[c] > st.gold[t] for t in range(st.n) if t != s
                                             for _, c in offers(st, t, st.gold[t] + gold))
    return bool(offers(st, s, gold) or cure or gift)


@pytest.mark.parametrize("which", ["tables", "shipped"])
def test_has_shop_choice_answers_as_the_shop_listing_does(setup, which):
    """``has_shop_choice`` (asked before every shop turn and after every purchase) is ``_shop``
    listing more than DONE, for every seat and amounts of gold at every stage start of many games."""
    import itertools

    from generator.sim.agents import make_agent
    from generator.sim.games.fatal_fight_shop import _shop, has_shop_choice
    from generator.sim.rng import agent_rng, deal_rng

    setup = setup if which == "tables" else _shipped_setup()
    asked, answers = 0, set()
    for players in (2, 3, 4):
        for index in range(8):
            st = ff.new_game(setup, players, deal_rng("shop", index))
            agents = [make_agent(ff, "greedy" if index % 2 else "random", setup, seat) for seat in range(players)]
            rngs = [agent_rng("shop", index, seat) for seat in range(players)]
            while not st.is_terminal():
                if st.phase == SHOP:
                    seat, gold, gifted = st.seat, list(st.gold), list(st.gifted)
                    for st.seat in range(players):
                        for mine, theirs in itertools.product(range(6), range(6)):
                            st.gold = [mine if q == st.seat else theirs for q in range(players)]
                            for st.gifted[st.seat] in (False, True):
                                answer = has_shop_choice(st)
                                assert answer == (len(_shop(st)) > 1) == _shop_choice_by_definition(st)
                                asked, answers = asked + 1, answers | {answer}
                        st.gifted[st.seat] = gifted[st.seat]
                    st.seat, st.gold = seat, gold
                q = st.current_player()
                st.apply_action(agents[q].choose(st, rngs[q]))
    assert asked > 1000 and answers == {False, True}
