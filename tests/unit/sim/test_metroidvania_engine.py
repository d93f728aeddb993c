"""Metroidvania engine: contract, determinism, workers, rules on hand-set states, static map checks,
the golden transcript and a sabotaged copy that fails the balance verdict (spec §3, issue #8)."""
import copy
import os
import re
import shutil
from pathlib import Path

import pytest

from generator.content import load_game
from generator.sim import verdict
from generator.sim.api import TERMINAL
from generator.sim.compile import played_tables, where_of
from generator.sim.games import metroidvania as mv
from generator.sim.games.metroidvania_agents import HeuristicAgent
from generator.sim.games.metroidvania_report import map_checks
from generator.sim.games.metroidvania_setup import AGI, INS, KEY, NORMAL, REST, WIL
from generator.sim.rng import deal_rng
from generator.sim.runner import play_game, replay, run_games

import engine_checks  # tests/unit/sim, on the path by its conftest

REPO = Path(__file__).resolve().parents[3]
CONTENT = REPO / "content" / "metroidvania"
GOLDEN = REPO / "tests" / "golden" / "metroidvania_heuristic_2p_seed3_game0.txt"


@pytest.fixture(scope="module")
def game():
    return load_game(CONTENT)


@pytest.fixture(scope="module")
def tables(game):
    return played_tables(game)


@pytest.fixture(scope="module")
def setup(tables, game):
    return mv.compile_setup(tables, where_of(game))


def node(setup, name):
    return setup.node_index[name]


def fresh(setup, players=2, seed=1):
    """A new game advanced through the setup placements to the first move."""
    state = mv.new_game(setup, players, deal_rng(seed, 0))
    agents = [HeuristicAgent(setup, s) for s in range(players)]
    while state.phase != mv.MOVE:
        state.apply_action(agents[state.current_player()].choose(state, None))
    return state


def at_move(state, seat, pos):
    """Put maiden ``seat`` at ``pos`` and make it her move (a hand-set position for rules tests)."""
    state.active = state.seat = seat
    state.pos[seat] = pos
    state.came[seat] = -1
    state.phase, state.step, state.check = mv.MOVE, mv.ST_MOVE, None
    state._dest = state._legal = state._usable = None
    return state


# ---- contract ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("agent", ["heuristic", "random", "rush_urza"])
def test_games_terminate_with_legal_actions_and_invariants(setup, players, agent):
    for i in range(2):
        record, state = play_game(mv, setup, players=players, agent=agent, seed="t", index=i, checked=True)
        assert record["outcome"] in ("win", "loss"), (record["error"], record["violations"][:3])
        assert not record["violations"]
        assert state.is_terminal() and state.legal_actions() == [] and state.current_player() == TERMINAL
        assert record["rounds"] <= setup.rules["rounds"]
        assert record["turns"] <= setup.rules["rounds"] * setup.rules["turns_per_round"][players] * players


def test_returns_and_record_shape(setup):
    record, state = play_game(mv, setup, players=2, agent="heuristic", seed=4, index=1)
    assert state.returns() == ([1.0, 1.0] if record["outcome"] == "win" else [-1.0, -1.0])
    for key in ("rounds", "party", "stage_rounds", "deaths", "exposures", "uses", "builds", "kills", "fights"):
        assert key in record
    assert len(set(record["party"])) == 2


def test_a_game_is_deterministic_and_a_clone_replays_the_same_future(setup):
    a, _ = play_game(mv, setup, players=3, agent="heuristic", seed=9, index=2)
    b, _ = play_game(mv, setup, players=3, agent="heuristic", seed=9, index=2)
    assert a == b
    state = mv.new_game(setup, 2, deal_rng(5, 0))
    agents = [HeuristicAgent(setup, s) for s in range(2)]
    for _ in range(120):
        state.apply_action(agents[state.current_player()].choose(state, None))
    twin = state.clone()
    agents2 = [HeuristicAgent(setup, s) for s in range(2)]
    for st, ags in ((state, agents), (twin, agents2)):
        while not st.is_terminal():
            st.apply_action(ags[st.current_player()].choose(st, None))
    assert state.log == twin.log and state.outcome == twin.outcome


def test_task_choices_are_legal_exactly_when_listed(setup):
    """A placement or a pick is judged legal by its ranges, not found among the listed actions: the same answer
    as the list for every listed action and for choices just out of range, at every such decision of whole games."""
    for i in range(3):
        state = mv.new_game(setup, 3, deal_rng("task", i))
        agents = [HeuristicAgent(setup, s) for s in range(3)]
        while not state.is_terminal():
            if state.phase in (mv.PLACE, mv.PICK):
                listed = state.legal_unsorted()
                n = len(listed) // 4 if state.phase == mv.PLACE else len(listed)
                tried = ([(mv.PLACE_A, c, k) for c in range(-1, n + 1) for k in range(-1, 6)] + [(mv.PLACE_A, 0)]
                         if state.phase == mv.PLACE else [(mv.PICK_A, c) for c in range(-1, n + 2)] + [(mv.PICK_A, 0, 0)])
                assert [a for a in tried if state.is_legal(a)] == [a for a in tried if a in listed]
            state.apply_action(agents[state.current_player()].choose(state, None))


def test_results_do_not_depend_on_worker_count(tables):
    one = run_games(mv, tables, players=2, games=10, seed=7, agent="heuristic", workers=1)
    two = run_games(mv, tables, players=2, games=10, seed=7, agent="heuristic", workers=2, chunk=3)
    assert one == two and [r["index"] for r in one] == list(range(10))


def test_golden_transcript(setup):
    """A rules or agent change shows up as a diff: review it, then regenerate with PNP_UPDATE_GOLDEN=1."""
    record, lines = replay(mv, setup, players=2, agent="heuristic", seed=3, index=0)
    text = "\n".join(lines + [f"outcome: {record['outcome']} after {record['rounds']} rounds"]) + "\n"
    if os.environ.get("PNP_UPDATE_GOLDEN") or not GOLDEN.exists():
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_trace_lines_are_sentences_not_raw_events(setup):
    """Every logged event the trace shows reads as words (seat, card and room ids), never as a tuple dump."""
    raw = re.compile(r"^\s+(heal|reroll|danger|sub|rest|derived|event|sefira|skip|thorn|drawn|open|regen|key_used|"
                     r"area_clear|boss_life) -?\d")
    shown = set()
    for index in range(6):
        _, lines = replay(mv, setup, players=3, agent="heuristic", seed=7, index=index)
        assert not [line for line in lines if raw.match(line)]
        shown.update(line.split()[1] for line in lines if line.startswith("    P"))
    assert {"draws", "sub-event:", "heals"} <= shown


# ---- rules on hand-set states --------------------------------------------------------------------

def test_setup_places_two_action_cards_and_deals_distinct_servants(setup):
    state = fresh(setup, players=4)
    r = setup.rules
    assert len(set(state.servant)) == 4
    for s in range(4):
        assert sum(len(x) for x in state.stacks[s]) == r["setup.initial_actions"] + r["setup.first_level_up"]
        assert state.life[s] == r["life.start"] and state.pos[s] == setup.start
        assert state.skills[s][0][0] == setup.servants[state.servant[s]]["skill"]
    assert state.explored[setup.start] and state.danger == r["danger.start"] and state.crit == r["criterion.start"]
    assert not mv.check_invariants(state)


@pytest.mark.parametrize("players,order", [(1, [0, 0, 0]), (2, [0, 1, 0, 1]), (3, [0, 1, 2]), (4, [0, 1, 2, 3])])
def test_turns_per_round_and_order(setup, players, order):
    assert fresh(setup, players).order == order


def test_criterion_clock(setup):
    state = fresh(setup, 1)
    r = setup.rules
    for rnd in (1, 2, 3, 12, 23, 24):
        state.round = rnd
        state.begin_round()
        assert state.crit == r["criterion.start"] + (rnd - 1) // r["criterion.every_rounds"]


def test_explored_rooms_cost_nothing_and_cannot_be_entered(setup):
    state = at_move(fresh(setup, 1), 0, setup.start)
    for name in ("a1-07", "a3-02", "a3-03"):
        state.mark(node(setup, name))
    dests = {v for v, _ in state.destinations()}
    assert node(setup, "a3-04") in dests           # three explored rooms (cost 0) then one unexplored (1)
    assert not dests & {node(setup, n) for n in ("a1-07", "a3-02", "a3-03", "start")}
    mp = state.move_points(0)
    dist = state.distances(0, setup.start)
    assert all(dist[v] <= mp for v in dests)
    assert dist[node(setup, "a3-03")] == 0


def test_unexplored_rooms_may_be_passed_at_one_point_each(setup):
    state = at_move(fresh(setup, 1), 0, setup.start)
    state.stacks[0][AGI] = [0]                     # MP 2: pass a1-03 (1) and enter a1-04 (1)
    dests = {v for v, _ in state.destinations()}
    assert node(setup, "a1-04") in dests and not state.explored[node(setup, "a1-03")]
    state.stacks[0][AGI] = []
    state._dest = None
    assert node(setup, "a1-04") not in {v for v, _ in state.destinations()}


def test_key_rooms_need_their_condition_or_a_key_and_block_the_way(setup):
    state = at_move(fresh(setup, 1), 0, node(setup, "a1-05"))
    state.mark(node(setup, "a1-05"))
    gate = node(setup, "a1-06")
    assert setup.kind[gate] == KEY
    state.stacks[0][AGI] = [0]
    assert gate not in {v for v, _ in state.destinations()}   # Agi 1 < 2
    state.keys[0].append(-1)
    state._dest = None
    assert (gate, 1) in state.destinations()                  # a key lets her in (and is spent)
    assert node(setup, "a5-03") not in {v for v, _ in state.destinations()}  # no passing an unexplored key room
    state.keys[0].clear()
    state.stacks[0][AGI] = [0, 0]
    state._dest = None
    assert (gate, 0) in state.destinations()


def test_boss_rooms_block_the_way_but_can_be_entered_and_left_only_backwards(setup):
    state = at_move(fresh(setup, 1), 0, node(setup, "a1-04"))
    for name in ("a1-03", "a1-04"):
        state.mark(node(setup, name))
    boss_room = node(setup, "a1-boss")
    state.stacks[0][AGI] = [0, 0, 0]
    dests = {v for v, _ in state.destinations()}
    assert boss_room in dests and node(setup, "a2-06") not in dests
    state.apply_action((mv.GO, boss_room, 0))
    assert state.came[0] == node(setup, "a1-04") and state.b_active[setup.node_boss[boss_room]]
    at_move(state, 0, boss_room)
    state.came[0] = node(setup, "a1-04")
    dests = {v for v, _ in state.destinations()}
    assert boss_room in dests and node(setup, "a2-06") not in dests     # stay, or back out


def test_boss_fight_life_bonus_pointer_reset_and_level_up_for_everyone(setup):
    for players in (1, 2):
        state = fresh(setup, players)
        b = setup.node_boss[node(setup, "a1-boss")]
        life = setup.bosses[b]["life"] + setup.rules["boss_life_bonus"][players] + state.b_delta[b]
        state.pos[0] = node(setup, "a1-boss")
        state.active = 0
        state.start_boss_check(b)
        assert state.b_life[b] == life and state.b_ptr[b] == 0 and state.check.boss == b
        state.advance_pointer(b, 0)
        state.advance_pointer(b, 0)
        state.advance_pointer(b, 0)
        assert state.b_ptr[b] == 0
        state.relocate(0, setup.start)                              # the room empties: the fight resets
        assert not state.b_active[b]
    state = fresh(setup, 3)
    state.active = 1
    state.pos[1] = node(setup, "a1-boss")
    state.start_boss_check(b)
    state.tasks.clear()
    state.hit_boss(b, state.b_life[b], 1)
    assert state.b_dead[b] and state.explored[node(setup, "a1-boss")]
    assert [t[:2] for t in state.tasks] == [("place", 1), ("place", 2), ("place", 0)]


def test_killing_the_final_boss_wins_at_once(setup):
    state = fresh(setup, 2)
    b = setup.final_boss
    state.active = 0
    state.pos[0] = setup.bosses[b]["node"]
    state.start_boss_check(b)
    state.hit_boss(b, state.b_life[b], 0)
    assert state.outcome == "win" and state.is_terminal()


def test_death_sends_her_to_s_with_one_life_and_exhausted_skills(setup):
    state = fresh(setup, 2)
    b = setup.node_boss[node(setup, "a1-boss")]
    state.active = 0
    state.pos[0] = node(setup, "a1-boss")
    state.start_boss_check(b)
    chk = state.check
    chk.damage, chk.success, chk.side = 99, False, 0
    state.apply_damage()
    r = setup.rules
    assert state.pos[0] == setup.start and state.life[0] == r["death.life"] and state.deaths[0] == 1
    assert all(sk[2] for sk in state.skills[0]) and state.step == mv.ST_NEXT and not state.b_active[b]


def test_rest_and_danger_rooms(setup):
    state = fresh(setup, 1)
    state.active = 0
    state.life[0] = 2
    state.danger = 3
    state.skills[0][0][2] = True
    rest = next(v for v in range(len(setup.kind)) if setup.kind[v] == REST)
    state.enter(rest, REST)
    assert state.life[0] == state.max_life[0] and state.danger == 3 + setup.rules["rest.danger"]
    assert not state.skills[0][0][2]
    danger_room = next(v for v in range(len(setup.kind)) if setup.kind[v] == mv.DANGER)
    before = state.danger
    state.enter(danger_room, mv.DANGER)
    assert state.danger == before + setup.rules["danger_room.danger"] and state.check.damage == state.danger


def test_easy_turns_tagged_spaces_into_rest_rooms(tables, setup):
    easy = mv.compile_setup(dict(tables, difficulty="easy"))
    tagged = [v for v in range(len(setup.kind)) if setup.tag[v] == "easy"]
    assert tagged and all(setup.kind[v] == NORMAL for v in tagged) and all(easy.kind[v] == REST for v in tagged)


def test_room_check_uses_will_for_die_size_and_piety_for_white_dice(setup):
    state = fresh(setup, 1)
    state.active = 0
    state.stacks[0][WIL] = [0, 0, 0]
    state.stacks[0][mv.PIE] = [0, 0]
    state.start_room_check(0)
    state.roll()
    assert state.check.size == setup.rules["die_by_will"][3]
    assert state.check.cols.count(mv.WHITE) == 2 and len(state.check.cols) == 5


@pytest.mark.parametrize("path,value", [("skills.uses_per_turn", 2), ("setup.unique_servants", False),
                                        ("start_is_rest", True), ("life.respawn", 2)])
def test_rules_switches_the_engine_does_not_play_are_reported(tables, path, value):
    """rules.yaml values the engine never read (it plays one value) are located problems, not silently ignored."""
    from generator.errors import ProblemsError
    rules = copy.deepcopy(tables["rules"])
    node = rules
    *parents, last = path.split(".")
    for key in parents:
        node = node[key]
    node[last] = value
    with pytest.raises(ProblemsError) as exc:
        mv.compile_setup(dict(tables, rules=rules))
    assert [p.field for p in exc.value.problems] == [path]


def test_rules_skill_max_level_caps_the_cards(tables):
    rules = copy.deepcopy(tables["rules"])
    rules["skills"]["max_level"] = 1
    capped = mv.compile_setup(dict(tables, rules=rules))
    assert max(sk["max_level"] for sk in capped.skills) == 1


def test_ins_draws_one_more_card(setup):
    state = fresh(setup, 1)
    state.stacks[0][INS] = [0, 0]
    assert state.draw_count(0, "room") == 3


def _ids(rows):
    return {r["id"]: i for i, r in enumerate(rows)}


def test_a_weakness_revealed_before_the_roll_counts_for_this_check(setup):
    """sk102 叡智の眼 “判定前：この手番、:ins:に関係なくボスの弱点看破”: b03's weakness (action 3 difficulty
    -2) applies to the check it is used for, not only to the pointer's regen after it."""
    state = fresh(setup, 1)
    b = _ids(setup.bosses)["b03"]
    state.stacks[0][INS] = []
    state.skills[0] = [[_ids(setup.skills)["sk102"], 0, False, 0]]
    state.active = state.seat = 0
    state.pos[0] = setup.bosses[b]["node"]
    state.b_active[b], state.b_life[b], state.b_start[b], state.b_ptr[b] = True, 3, 3, 2
    state.start_boss_check(b)
    state._advance()
    printed = setup.bosses[b]["actions"][2][0]
    assert state.phase == mv.PRE and state.check.d == printed
    state.apply_action(next(a for a in state.legal_actions() if a[0] == mv.USE))
    while state.phase == mv.PEEK:
        state.apply_action(state.legal_actions()[0])
    state.apply_action((mv.ROLL,)) if state.phase == mv.PRE else None
    assert state.phase == mv.POST and state.weakness_revealed(b, 0)
    assert state.check.d == printed - 2 and state.spec().target == state.crit + printed - 2


def test_a_boss_life_cut_during_the_fight_also_caps_its_regen(setup):
    """s05 ゲブラー “そのボスのライフ−2（以後ずっと。戦闘中なら今のライフも−2、最低1）”: b01's regen
    (“一巡して一番上に戻るたび、ライフ＋1”) may not climb back above the cut full life."""
    from generator.sim.games.metroidvania_effects import OPS
    state = fresh(setup, 1)
    b = _ids(setup.bosses)["b01"]
    state.stacks[0][INS] = []                                    # weakness (Ins 1) not revealed: regen is on
    state.active = state.seat = 0
    state.pos[0] = setup.bosses[b]["node"]
    state.start_boss_check(b)
    full = state.b_life[b]
    OPS["boss_life"](state, 0, {"n": -2}, {"boss": b})
    assert state.b_life[b] == max(1, full - 2)
    for _ in setup.bosses[b]["actions"]:
        state.advance_pointer(b, 0)                               # one wrap: regen +1, capped at full life
    assert state.b_ptr[b] == 0 and state.b_life[b] == max(1, full - 2)


def test_the_heuristic_keeps_the_weakness_reveal_for_a_boss_check(setup):
    """sk102 叡智の眼 “判定前：この手番、:ins:に関係なくボスの弱点看破。さらにルーム山の上2枚を見て並べ替える”: before a
    room check no boss is fought this turn, so the reveal is wasted; with its condition unmet the use would also
    exhaust the card. The heuristic rolls instead (it still uses it before a boss check)."""
    state = fresh(setup, 1)
    state.stacks[0] = [[], [], [], []]                               # no top cards: the condition is not met
    state.skills[0] = [[_ids(setup.skills)["sk102"], 0, False, 0]]
    state.active = state.seat = 0
    state.start_room_check(0)
    state._advance()
    assert state.phase == mv.PRE and any(a[0] == mv.USE for a in state.legal_actions())
    assert HeuristicAgent(setup, 0).choose(state, None) == (mv.ROLL,)


def test_a_skill_forbidding_trait_holds_for_the_whole_fight(setup):
    """b06 時計仕掛けの結界 “この戦闘中、スキルを使えない”: not only in its checks but in her whole turn in its room
    (before she moves out, after the check); once the trait is off (weakness, derived event) skills are back."""
    state = fresh(setup, 1)
    b = _ids(setup.bosses)["b06"]
    state.stacks[0][INS] = []                                        # weakness (Ins 2) not revealed
    state.skills[0] = [[_ids(setup.skills)["sk109"], 0, False, 0]]   # いつでも：ライフ＋1＋:level:
    state.life[0] = 3
    at_move(state, 0, setup.bosses[b]["node"])
    state.b_active[b], state.b_life[b], state.b_start[b] = True, 3, 3
    for phase in (mv.MOVE, mv.END):
        state._usable = None
        assert state.usable(phase) == []
    state.b_trait_off[b] = True
    state._usable = None
    assert state.usable(mv.END) == [(0, 0)]


def test_a_refresh_used_without_its_condition_does_not_ready_itself(setup):
    """sk024 “いつでも：消耗した自分のスキルを全て縦置きに戻す” with its condition unmet: the seed turns a skill used so
    sideways as the result of the use (使用すると消耗してしまいます…レストルームで縦置きに戻されるまで再使用できなく
    なります), so it readies the other exhausted skills but stays exhausted itself."""
    state = fresh(setup, 1)
    sk = _ids(setup.skills)
    state.stacks[0] = [[], [], [], []]                               # no top cards: the condition is not met
    state.skills[0] = [[sk["sk024"], 0, False, 0], [sk["sk001"], 0, True, 0]]
    state.active = state.seat = 0
    state.use(0, 0, -1)
    assert state.skills[0][1][2] is False and state.skills[0][0][2] is True


def test_rerolls_take_any_dice_up_to_their_count_or_every_die(setup):
    """sk004 “サイコロを1＋:level:個まで振り直す”: any dice up to that count, not only one die or the lowest ones;
    sk020 “全てのサイコロを振り直す”: every die (none kept); s08 “好きなだけ”: any set."""
    from generator.sim.games.metroidvania_effects import OPS
    sk = {r["id"]: r for r in setup.skills}
    state = fresh(setup, 1)
    state.active = state.seat = 0
    state.stacks[0][mv.PIE] = [0]                                                   # 4 dice
    state.start_room_check(0)
    state.roll()
    state.check.vals = [5, 1, 2, 6]
    n = len(state.check.cols)
    OPS["reroll"](state, 0, dict(sk["sk004"]["effect"][0][1]), {"level": 1})       # up to 2 dice
    options = state.reroll_options()
    assert (0, 2) in options and (3,) in options and all(len(o) <= 2 for o in options)
    state.check.tokens = []
    OPS["reroll"](state, 0, dict(sk["sk020"]["effect"][0][1]), {"level": 0})
    assert state.reroll_options() == [tuple(range(n))]
    state.check.tokens = []
    s08 = next(r for r in setup.sefira if r["id"] == "s08")
    OPS["reroll"](state, 0, dict(s08["effect"][0][1]), {"level": 0})
    assert len(state.reroll_options()) == 2 ** n - 1


def test_a_reroll_offers_each_choice_of_dice_once(setup):
    """s08 “好きなだけ振り直す” with dice alike (same value and colour): rerolling either of two white 2s is one
    choice, offered once as its first set of positions; every kind of choice is still offered, the heuristic's
    pick is among them and is a legal action; sk020 (every die) is one option as before."""
    from itertools import combinations

    from generator.sim.games.metroidvania_effects import OPS
    from generator.sim.games.metroidvania_setup import WHITE
    sk = {r["id"]: r for r in setup.skills}
    state = fresh(setup, 1)
    state.active = state.seat = 0
    state.stacks[0][mv.PIE] = [0, 0, 0]                                             # 3 coloured + 3 white dice
    state.start_room_check(0)
    state.roll()
    chk = state.check
    assert chk.cols[3:] == [WHITE] * 3
    chk.vals = [4, 4, 4, 2, 2, 5]                     # the coloured 4s differ by colour; two white 2s are alike
    s08 = next(r for r in setup.sefira if r["id"] == "s08")
    OPS["reroll"](state, 0, dict(s08["effect"][0][1]), {"level": 0})
    options = state.reroll_options()
    # 3 coloured dice (2 ** 3 ways) x white 2s taken 0, 1 or 2 x the white 5 taken or not, less the empty set
    assert len(options) == 2 ** 3 * 3 * 2 - 1 == 47
    assert (3,) in options and (4,) not in options and (3, 4) in options and (0, 4) not in options
    every = [c for k in range(1, 7) for c in combinations(range(6), k)]
    kind = lambda c: sorted((chk.vals[i], chk.cols[i]) for i in c)                 # noqa: E731
    assert sorted(map(kind, options)) == sorted({tuple(kind(c)): kind(c) for c in every}.values())
    assert options == [c for c in every if c in options]                   # in the order of the full list
    for c in options:                                                      # each the first set of its kind
        assert c == next(d for d in every if kind(d) == kind(c))
    state.phase = mv.POST                                                  # the post-roll decision
    state._legal = state._spec = None
    chosen = HeuristicAgent._reroll_choice(state, state.spec())
    assert chosen in options and (mv.REROLL, chosen) in state.legal_actions()
    state.apply_action((mv.REROLL, chosen))
    assert not chk.tokens
    OPS["reroll"](state, 0, dict(sk["sk020"]["effect"][0][1]), {"level": 0})
    assert state.reroll_options() == [tuple(range(6))]


def test_a_peek_puts_the_cards_back_in_any_order(setup):
    """sk016 “ルーム山の上から2＋:level:枚を見て、好きな順で戻す” (s02 likewise 5, sk102 並べ替える): every order of the
    peeked cards can be made, one place at a time from the top; the cards below are untouched."""
    from generator.sim.games.metroidvania_effects import OPS
    state = fresh(setup, 1)
    state.active = state.seat = 0
    third, second, first = state.room_deck[-3:]                     # the list's end is the top of the deck
    below = state.room_deck[:-3]
    OPS["peek_deck"](state, 0, {"deck": "room", "n": 3, "reorder": True}, {"level": 0})
    state._advance()
    assert state.phase == mv.PEEK and state.legal_actions() == [(mv.TOP, 0), (mv.TOP, 1), (mv.TOP, 2)]
    state.apply_action((mv.TOP, 2))          # the third card on top; first and second are left, in that order
    assert state.phase == mv.PEEK and state.legal_actions() == [(mv.TOP, 0), (mv.TOP, 1)]
    state.apply_action((mv.TOP, 1))          # then the second card: the first goes last
    assert state.phase != mv.PEEK
    assert state.room_deck[-3:] == [first, second, third] and state.room_deck[:-3] == below


def _boss_check_rolled(setup, skills, life, vals, danger=3):
    """Maiden 0 alone in b01's room with these skills (ready, level 0), rolled to the post-roll window."""
    state = fresh(setup, 1)
    b = _ids(setup.bosses)["b01"]
    sk = _ids(setup.skills)
    state.skills[0] = [[sk[name], 0, False, 0] for name in skills]
    state.sefira_area = []
    state.flowers[0] = []
    state.active = state.seat = 0
    state.pos[0] = setup.bosses[b]["node"]
    state.life[0], state.danger, state.crit = life, danger, 5   # every die of ``vals`` below the target
    state.start_boss_check(b)
    state._advance()
    if state.phase == mv.PRE:
        state.apply_action((mv.ROLL,))
    state.check.vals = list(vals)
    state._spec = state._legal = state._usable = None
    return state


def _uses_now(state):
    return {state.setup.skills[state.skills[0][a[2]][0]]["id"] for a in state.legal_actions() if a[0] == mv.USE}


def test_an_any_time_heal_may_land_before_lethal_damage(setup):
    """いつでも (rulebook 07-growth: 自分の手番中ならいつでも; seed: skills are used in the turn): sk109 “いつでも：
    ライフ＋1＋:level:” used as the damage that would kill her is about to land saves her. It is offered there only
    when that damage is lethal (healing after the damage is never worse otherwise)."""
    state = _boss_check_rolled(setup, ["sk109"], life=3, vals=[1] * 4, danger=3)
    assert state.phase == mv.POST
    state.apply_action(HeuristicAgent(setup, 0).choose(state, None))        # the best plan: a failure, 3 damage
    assert state.phase == mv.DMG and "sk109" in _uses_now(state)
    state.apply_action(HeuristicAgent(setup, 0).choose(state, None))        # the heuristic heals first
    while state.phase == mv.DMG:
        state.apply_action((mv.DONE,))
    assert state.deaths[0] == 0 and state.life[0] == 3 + 1 - 3

    calm = _boss_check_rolled(setup, ["sk109"], life=6, vals=[1] * 4, danger=3)
    calm.apply_action(HeuristicAgent(setup, 0).choose(calm, None))
    assert calm.phase != mv.DMG                                            # not lethal: no window, heal at the end


def test_an_any_time_danger_cut_may_come_after_the_roll(setup):
    """sk013 “いつでも：デンジャーレベル−1” after the dice are seen lowers the failure damage of this check; it is
    offered in the post-roll window (and not before the roll, where it could change nothing more)."""
    state = _boss_check_rolled(setup, ["sk013"], life=6, vals=[1] * 4, danger=3)
    assert state.phase == mv.POST and "sk013" in _uses_now(state)
    before = state.spec().fail
    state.apply_action(next(a for a in state.legal_actions() if a[0] == mv.USE))
    assert state.danger == 2 and state.spec().fail == before - 1


# ---- static map checks ---------------------------------------------------------------------------

def test_shipped_map_passes_the_static_checks(setup):
    assert map_checks(setup) == []


def test_broken_map_gives_located_problems(tmp_path):
    copy_dir = tmp_path / "metroidvania"
    shutil.copytree(CONTENT, copy_dir)
    path = copy_dir / "map.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("  - {a: a1-03, b: a1-02}\n", "")                                   # a1-02 unreachable
    text = text.replace("key_condition: {ins: 3}", "key_condition: {ins: 5, agi: 5, pie: 5}")  # impossible key
    text = text.replace("{id: a3-boss, area: a3, pos: [4, 9], kind: boss, boss: b03}",
                        "{id: a3-boss, area: a4, pos: [4, 9], kind: boss, boss: b03}")     # a3 without a boss room
    text = text.replace("normal: [a1-05, a5-06, a8-06, a10-05]", "normal: [a1-05, a5-06, a8-06, a10-04]")
    path.write_text(text, encoding="utf-8")
    broken = load_game(copy_dir)
    setup = mv.compile_setup(played_tables(broken), broken.where)
    problems = map_checks(setup)
    lines = path.read_text(encoding="utf-8").splitlines()

    def line_of(fragment):
        return next(i for i, t in enumerate(lines, 1) if fragment in t)
    found = {(p.location.line, p.message.split(" ")[0]) for p in problems}
    assert all(p.location.path.endswith("map.yaml") for p in problems)
    assert any(p.location.line == line_of("{id: a1-02,") and "cannot be reached" in p.message for p in problems)
    assert any(p.location.line == line_of("key_condition: {ins: 5") and "needs" in p.message for p in problems)
    assert any(p.location.line == line_of("{id: a3, ") and "boss rooms" in p.message for p in problems)
    assert any("a10-04" in p.message for p in problems), found


def test_an_unreachable_room_is_found_without_playing(tmp_path, monkeypatch):
    """The map checks are static: the balance check reports them before any game is played (not
    after a minute of games that fail anyway), and validate --no-balance asks for them too."""
    from generator.sim import verdict

    copy_dir = tmp_path / "metroidvania"
    shutil.copytree(CONTENT, copy_dir)
    path = copy_dir / "map.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  - {a: a1-03, b: a1-02}\n", ""), encoding="utf-8")
    broken = load_game(copy_dir)
    monkeypatch.setattr(verdict, "_simulate", lambda *a, **k: pytest.fail("games were played"))
    result = verdict.check_balance(broken, workers=1, write_report=False)
    from generator.sim.static import static_problems

    for problems in (result.problems, static_problems(broken)):
        unreachable = [p for p in problems if "a1-02 cannot be reached" in p.message]
        assert unreachable and unreachable[0].location.path.endswith("map.yaml")
    assert not result.passed


# ---- the balance verdict on a sabotaged copy (fast) ------------------------------------------------

FAST_BALANCE = {
    "engine": "metroidvania", "players": [2], "reference_agent": "heuristic", "seed": 0,
    "sampling": {"looks": [60], "z_interim": 2.576, "z_final": 1.96},
    "integrity": {"random_games": 10},
    "win_rate": {"min": 0.35, "max": 0.60, "count_spread_max": 0.15},
    "skill": {"random_max": 0.10, "gap_min": 0.20},
    "length": {"stage_rounds": {"min": 17, "max": 22}, "p95_rounds_max": 24, "timeouts_max": 0.005},
    "dead_cards": {"max_use_rate": 0.2, "min_exposures": 10_000},
    "card_impact": {"swing": 0.05, "min_games": 200},
    "heroes": {"spread_max": 1.0}, "softlocks": {"stalls_max": 0.01}, "decisions": {"density_min": 0.6},
}


def test_sabotaged_rooms_fail_the_verdict_naming_the_win_rate_band(tmp_path, tables):
    bad = copy.deepcopy(tables)
    for room in bad["rooms"]:
        if room["check"]["kind"] == "difficulty":
            room["check"]["difficulty"] += 4
    game = engine_checks.game_dir(tmp_path, bad, FAST_BALANCE, "metroidvania")
    result = verdict.check_balance(game, workers=1, write_report=False)
    assert "pnp simulate" in engine_checks.win_rate_error(result, game).message


@pytest.mark.slow
def test_shipped_content_passes_and_sabotaged_copy_fails_pnp_validate(tmp_path, in_repo):
    """Acceptance of issue #8. The room layout's heat palette knows difficulties 0-4, so `pnp validate`
    on the +4 copy already stops at the layout stage (exit 1); the balance stage it would run next is
    checked directly on the same copy and must fail naming the M1 band at its balance.yaml line."""
    from click.testing import CliRunner
    from generator.cli import main
    # reports out of the repository's output/ (the copy would otherwise overwrite output/metroidvania/)
    ok = CliRunner().invoke(main, ["validate", "metroidvania", "--workers", "2", "-o", str(tmp_path / "ok")])
    assert ok.exit_code == 0, ok.output
    copy_dir = tmp_path / "metroidvania"
    shutil.copytree(CONTENT, copy_dir)
    rooms = copy_dir / "rooms.yaml"
    rooms.write_text(re.sub(r"difficulty: (\d)", lambda m: f"difficulty: {int(m.group(1)) + 4}",
                            rooms.read_text(encoding="utf-8")), encoding="utf-8")
    bad = CliRunner().invoke(main, ["validate", str(copy_dir), "--workers", "2", "-o", str(tmp_path / "bad")])
    assert bad.exit_code == 1
    result = verdict.check_balance(load_game(copy_dir), workers=2, write_report=False)
    assert not result.passed
    m1 = [p for p in result.problems if p.field == "win_rate" and p.severity == "error"]
    assert m1 and m1[0].location.path.endswith("balance.yaml") and "M1 win rate" in m1[0].message


def test_pnp_simulate_json_shape_and_worker_independence(in_repo):
    import json
    from click.testing import CliRunner
    from generator.cli import main
    outs = []
    for workers in ("1", "2"):
        result = CliRunner().invoke(main, ["simulate", "metroidvania", "--players", "2", "--games", "12", "--seed", "7",
                                           "--json", "--workers", workers], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        outs.append(json.loads(result.output))
    for key in ("game", "players", "games", "seed", "agent", "wins", "win_rate", "ci95", "rounds", "timeouts",
                "errors", "games_per_second", "stage_rounds_median"):
        assert key in outs[0]
    for out in outs:
        out.pop("games_per_second")
    assert outs[0] == outs[1] and outs[0]["errors"] == 0 and outs[0]["game"] == "metroidvania"


def test_band_messages_show_open_ends_as_infinity(tmp_path):
    from generator.sim.games.metroidvania_bands import _prop, _value

    judge = verdict._Judge(tmp_path / "balance.yaml", {}, "pnp simulate metroidvania")
    _value(judge, "crawl.deaths.easy_max", "§5.4 EASY deaths", 2, 3.25, None, 1.2, "EASY deaths", "heuristic", 400)
    _prop(judge, "crawl.x", "§5.4 share", 2, 90, 100, 0.5, None, "share", "heuristic")
    _prop(judge, "crawl.y", "§5.4 share", 2, 90, 100, None, 0.1, "share", "heuristic")
    messages = [p.message for p in judge.problems]
    assert len(messages) == 2 and "None" not in " ".join(messages)
    assert "outside [-inf, 1.2]" in messages[0] and "outside [-inf, 0.1]" in messages[1]


def _at_the_b02_door(setup, rest_left_elsewhere):
    """A healthy maiden (MP 1) at a2-07 heading for b02: a2-04 is the next step, a2-03 a detour of one step.
    ``rest_left_elsewhere``: how many of the other rest rooms are still unexplored."""
    state = fresh(setup, 1)
    state.stacks[0][AGI] = []
    b01 = next(i for i, b in enumerate(setup.bosses) if b["id"] == "b01")
    state.b_dead[b01] = True
    state.dead_key = tuple(state.b_dead)
    for name in ("a1-01", "a1-02", "a1-03", "a1-04", "a1-05", "a1-06", "a1-07", "a1-boss",
                 "a2-01", "a2-02", "a2-05", "a2-06", "a2-07"):
        state.mark(node(setup, name))
    others = [v for v in setup.rest_nodes if setup.node_id[v] not in ("a2-04",) and not state.explored[v]]
    for v in others[rest_left_elsewhere:]:
        state.mark(v)
    state.life[0] = state.max_life[0]
    return at_move(state, 0, node(setup, "a2-07"))


def test_a_healthy_maiden_takes_a_spare_rest_room_on_her_way_but_saves_the_last_four(tables, monkeypatch):
    """EASY has 8 rest rooms: hoarding them all (spec §5: -1, saved for later) sent healthy maidens round a2-04,
    the only door to b02's room. While more are left than the map has on NORMAL (4) she steps in; then she saves
    them."""
    import generator.sim.games.metroidvania_agents as agents
    monkeypatch.setattr(agents.HeuristicAgent, "mean_room_value", lambda self, state, s: 0.0)
    easy = mv.compile_setup(dict(tables, difficulty="easy"))
    assert len(easy.rest_nodes) == 8 and easy.normal_rests == 4   # NORMAL's count, read from the map and rules
    door, detour = node(easy, "a2-04"), node(easy, "a2-03")
    state = _at_the_b02_door(easy, rest_left_elsewhere=6)   # 7 left: a spare one
    dests = {v for v, _ in state.destinations()}
    assert {door, detour} <= dests and easy.node_id[state.pos[0]] == "a2-07"
    assert HeuristicAgent(easy, 0).move(state) == (mv.GO, door, 0)
    state = _at_the_b02_door(easy, rest_left_elsewhere=3)   # 4 left: saved for later, as on NORMAL
    assert HeuristicAgent(easy, 0).move(state) == (mv.GO, detour, 0)
    state.life[0] = state.max_life[0] - 3                   # hurt: rests whatever is left
    state._dest = None
    assert HeuristicAgent(easy, 0).move(state) == (mv.GO, door, 0)


def test_rest_also_room_switch_draws_a_room_card_after_resting_on_the_tagged_rest_rooms(tables):
    """rules.yaml ``rest.also_room`` (a PROPOSAL switch, off by default): EASY's extra rest rooms also play the
    normal room they stand for. A rest room of another tag, or the switch off, only rests."""
    rules = copy.deepcopy(tables["rules"])
    assert rules["rest"]["also_room"] == []
    rules["rest"]["also_room"] = ["easy"]
    easy = mv.compile_setup(dict(tables, difficulty="easy", rules=rules))
    for name, room in (("a2-04", True), ("a1-05", False)):
        state = fresh(easy, 1)
        state.active = 0
        state.life[0] = 2
        state.enter(node(easy, name), REST)
        assert state.life[0] == state.max_life[0]
        assert bool(state.tasks and state.tasks[0][:3] == ("pick", 0, "room")) == room
    plain = mv.compile_setup(dict(tables, difficulty="easy"))
    state = fresh(plain, 1)
    state.active = 0
    state.enter(node(plain, "a2-04"), REST)
    assert not state.tasks
    from generator.errors import ProblemsError
    rules["rest"]["also_room"] = ["hard"]
    with pytest.raises(ProblemsError) as exc:
        mv.compile_setup(dict(tables, rules=rules))
    assert [p.field for p in exc.value.problems] == ["rest.also_room"]


def test_a_memory_flower_is_offered_mid_check_only_for_a_derived_event_that_can_change_the_check(setup):
    """A flower may be used any time in her turn (自分の手番中であれば好きなタイミング), but mid-check it is
    offered only where its derived event can change the check, as an 「いつでも」 skill is: a danger cut after
    the roll, a heal before lethal damage. Any other derived event is as good at the end of the turn."""
    def first_derived_ops(e):
        return setup.derived[setup.events[e]["derived"][0]]["ops"]

    events = range(len(setup.events))
    danger = next(e for e in events if "danger" in first_derived_ops(e))
    heal = next(e for e in events if "heal" in first_derived_ops(e) and "danger" not in first_derived_ops(e))
    neither = next(e for e in events if first_derived_ops(e).isdisjoint(
        ("danger", "criterion", "ignore_threat", "heal", "heal_full", "max_life", "refresh_skills", "reveal_weakness")))
    state = _boss_check_rolled(setup, [], life=3, vals=[1] * 4, danger=3)
    state.flowers[0] = [-1]
    state.held = [[danger, 0, 0], [heal, 0, 0], [neither, 0, 0]]
    state._legal = None
    assert state.phase == mv.POST
    assert [a for a in state.legal_actions() if a[0] == mv.FLOWER] == [(mv.FLOWER, 0)]   # the danger cut only
    assert state.flower_targets() == [0, 1, 2]                                           # all, in a free window
    state.apply_action(HeuristicAgent(setup, 0).choose(state, None))                     # a failure, 3 damage
    assert state.phase == mv.DMG and state.lethal_now()
    assert [a for a in state.legal_actions() if a[0] == mv.FLOWER] == [(mv.FLOWER, 1)]   # the heal only


def test_an_unbeatable_room_says_its_chance_below_the_band_with_the_build_and_round():
    """§5.6 printed "C5 d4: 0.15 (Wil 2/Pie 1)" for a chance of 0.1497 under a room_min of 0.15: a
    failure that read as a pass, with neither the band nor the round its build is the median of."""
    import yaml

    from generator.sim import verdict
    from generator.sim.games import metroidvania_bands as bands

    setup = mv.compile_setup(played_tables(load_game(CONTENT)))
    crawl = yaml.safe_load((CONTENT / "balance.yaml").read_text(encoding="utf-8"))["crawl"]
    crawl["unbeatable"]["room_min"] = 0.0741  # a double d2 at C4 with Wil 1/Pie 0 succeeds 2/27 = 0.074074...
    judge = verdict._Judge(CONTENT / "balance.yaml", {}, "pnp simulate metroidvania")
    bands._judge_content(judge, crawl, setup, [], {})  # no games: every round's build is Wil 1/Pie 0
    said = [p.message for p in judge.problems if p.field == "crawl.unbeatable"]
    assert ("§5.6 unbeatable content: room cards C4 d2 double: success 0.07 with round 7's median build "
            "(Wil 1/Pie 0), below room_min 0.0741") in said
    assert bands._below(0.1497, 0.15) == "0.1497" and bands._below(0.07407, 0.0741) == "0.07"
