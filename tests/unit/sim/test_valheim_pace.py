"""The planner's pace (spec §3.4: the round ends when the last player still without a marker needs a
reshuffle): the player who sets the pace reveals no more cards than its deck can refill, so the team
gets one more main phase. Without it, a hand of 6 from a 10-card deck lasted one cycle in round 1."""
import random

from generator.sim.games import valheim as V
from generator.sim.games import valheim_rules as R
from generator.sim.games.valheim_agents import GreedyAgent, OracleAgent, pace_room

from test_valheim_rules import events, setup_with


def _round_one(hand_size, players=3):
    setup = setup_with(deck__hand_size=hand_size)
    return setup, V.new_game(setup, players, random.Random(0))


def _revealed(state, agent):
    action = agent(state.setup, state.seat).choose(state, random.Random(0))
    assert action[0] == R.COMMIT
    return len(action[1])


def test_with_a_hand_of_six_the_pace_setter_keeps_two_cards_and_round_one_has_two_cycles():
    setup, st = _round_one(6)
    assert [len(h) for h in st.hand] == [6, 6, 6] and [len(d) for d in st.deck] == [4, 4, 4]
    assert st.phase == R.P_COMMIT and st.seat == 0
    assert pace_room(st, 0, 6) == 4
    assert _revealed(st, GreedyAgent) == 4 and _revealed(st, OracleAgent) == 4  # was 6: no second cycle
    agents = [GreedyAgent(setup, s) for s in range(3)]
    while not events(st, "round_end"):
        st.apply_action(agents[st.current_player()].choose(st, random.Random(0)))
    assert events(st, "round_end")[0][1:] == (1, 2)


def test_a_player_who_cannot_end_the_round_reveals_every_card():
    setup, st = _round_one(6)
    st.deck[1].append(st.deck[0].pop())  # seat 1 now holds the thickest deck: the round ends on it
    assert pace_room(st, 0, 6) > 6 and _revealed(st, GreedyAgent) == 6
    setup, st = _round_one(6)
    st.marker[0] = True                  # seat 0 has reshuffled once already
    assert pace_room(st, 0, 6) > 6 and _revealed(st, GreedyAgent) == 6


def test_with_the_seed_hand_of_five_round_one_is_unchanged():
    # 「１ラウンド目は絶対２巡で終わり」: 5 + 5 cards leave nothing to hold back
    setup, st = _round_one(5)
    assert pace_room(st, 0, 5) == 5 and _revealed(st, GreedyAgent) == 5
