"""The simulator of this game: the rules as Python, so that `pnp validate` can play it.

The game: a co-operative race. The team shares one deck made of every printed card. On your turn
you draw `hand_size` cards, then play them one at a time while their `cost` fits your energy
(the round's entry of `energy`); each card played adds its `power` to the team's score. You may
stop at any time; the cards you did not play are discarded. The team wins as soon as the score
reaches `target` for its player count, and loses when the last round ends short of it.

Every number comes from rules.yaml and cards.yaml: change them there, never here. What each
function is for (the contract pnp expects) is in docs/simulator.md.
"""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass

from generator.errors import Location, Problem, ProblemsError
from generator.sim.api import TERMINAL
from generator.sim.rng import shuffle

PASS = "pass"  # the action that ends your turn; every other action is the id of a card to play


# ---- the content, compiled once per run -----------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    deck: tuple        # one card id per printed copy (a card with `count: 2` is there twice)
    cost: dict         # card id -> cost
    power: dict        # card id -> power
    hand_size: int
    energy: tuple      # a player's energy in each round; the game lasts len(energy) rounds
    target: dict       # player count -> the score the team must reach


def compile_setup(tables, where=None):
    """The game's tables (cards.yaml as `cards`, rules.yaml as `rules`) made ready to play.

    The schema has checked every field already; here we refuse what is typed right but cannot be
    played, at the card's line (`where(record)` gives it; it is None when pnp has no file)."""
    rules, cards = tables["rules"], tables["cards"]
    most = max(rules["energy"])
    problems = [Problem(where(card) if where else Location("cards.yaml", 0), f"cards[{i}].cost",
                        f"costs {card['cost']}, more than any round's energy ({most}): it can never be played")
                for i, card in enumerate(cards) if card["cost"] > most]
    if problems:
        raise ProblemsError(problems)
    return Setup(deck=tuple(card["id"] for card in cards for _ in range(card["count"])),
                 cost={card["id"]: card["cost"] for card in cards},
                 power={card["id"]: card["power"] for card in cards},
                 hand_size=rules["hand_size"], energy=tuple(rules["energy"]), target=dict(rules["target"]))


def cards(setup):
    """The cards whose use the validator tracks (M4 dead cards, M5 card impact)."""
    return sorted(set(setup.deck))


def ablate(tables, card_id):
    """M5: the same content with `card_id` made a neutral filler (free, worth nothing)."""
    return {**tables, "cards": [dict(card, cost=0, power=0) if card["id"] == card_id else card
                                for card in tables["cards"]]}


# ---- a game in progress ---------------------------------------------------------------------------

def new_game(setup, players, rng):
    if players not in setup.target:  # a ValueError is what `pnp simulate --players` reports
        raise ValueError(f"rules.yaml has no target for {players} players ({sorted(setup.target)})")
    return State(setup, players, rng)


class State:
    """One game, with OpenSpiel's methods. `log` records every event: summarize and describe read it."""

    def __init__(self, setup, players, rng):
        self.setup, self.players, self.rng = setup, players, rng  # rng: the only source of chance
        self.draw_pile = list(setup.deck)
        shuffle(self.draw_pile, rng)
        self.discard, self.hand = [], []  # the hand of the player whose turn it is
        self.score, self.seat, self.round_id, self.energy = 0, 0, 1, 0  # round_id: the runner checks
        self.outcome = None                                         # invariants when it changes
        self.log = [("round", 1)]
        self._start_turn()

    def current_player(self):
        return TERMINAL if self.outcome else self.seat

    def is_terminal(self):
        return self.outcome is not None

    def returns(self):
        return [1.0 if self.outcome == "win" else 0.0] * self.players

    def legal_actions(self):
        fits = {card for card in self.hand if self.setup.cost[card] <= self.energy}
        return [PASS, *sorted(fits)]

    def apply_action(self, action):
        if action == PASS:
            self.log.append(("pass", self.seat))
            return self._end_turn()
        self.hand.remove(action)
        self.discard.append(action)
        self.energy -= self.setup.cost[action]
        self.score += self.setup.power[action]
        self.log.append(("play", self.seat, action, self.score))
        if self.score >= self.setup.target[self.players]:
            self._finish("win")
        elif len(self.legal_actions()) == 1:  # nothing else fits: the turn ends by itself
            self._end_turn()

    def clone(self):
        return copy.deepcopy(self, {id(self.setup): self.setup})  # the setup is shared, never changed

    def action_to_string(self, action):
        return action

    # -- the flow of turns and rounds

    def _start_turn(self):
        while len(self.hand) < self.setup.hand_size and self._refill():
            card = self.draw_pile.pop()
            self.hand.append(card)
            self.log.append(("draw", self.seat, card))
        self.energy = self.setup.energy[self.round_id - 1]
        if len(self.legal_actions()) == 1:  # nothing fits: no decision to make
            self._end_turn()

    def _refill(self):
        """Shuffle the discard pile into a new draw pile when it runs out; False when both are empty."""
        if not self.draw_pile:
            self.draw_pile, self.discard = self.discard, []
            shuffle(self.draw_pile, self.rng)
        return bool(self.draw_pile)

    def _end_turn(self):
        self.discard += self.hand
        self.hand = []
        self.seat = (self.seat + 1) % self.players
        if self.seat == 0:
            if self.round_id == len(self.setup.energy):
                return self._finish("loss")
            self.round_id += 1
            self.log.append(("round", self.round_id))
        self._start_turn()

    def _finish(self, outcome):
        self.outcome = outcome
        self.log.append(("end", outcome, self.score))


# ---- what the validator reads ---------------------------------------------------------------------

def summarize(state):
    """One game's record: `rounds` (M3), `exposures` and `uses` (M4, M5). A game with stages would
    add `stage_rounds`; without them, a won game counts as one stage."""
    drawn = Counter(event[2] for event in state.log if event[0] == "draw")
    played = Counter(event[2] for event in state.log if event[0] == "play")
    return {"rounds": state.round_id, "exposures": dict(drawn), "uses": dict(played)}


def check_invariants(state):
    """Broken rules (M0): checked at every round's end in the validator's checked games."""
    problems = []
    if sorted(state.draw_pile + state.discard + state.hand) != sorted(state.setup.deck):
        problems.append("a card was lost or duplicated")
    if state.energy < 0:
        problems.append(f"energy is {state.energy}")
    return problems


def describe(state, event):
    """One line of `pnp simulate --trace` for each event of the log."""
    kind, *rest = event
    if kind == "round":
        return f"round {rest[0]}: energy {state.setup.energy[rest[0] - 1]}"
    if kind == "draw":
        return f"  player {rest[0] + 1} draws {rest[1]}"
    if kind == "play":
        return f"  player {rest[0] + 1} plays {rest[1]}: score {rest[2]}"
    if kind == "pass":
        return f"  player {rest[0] + 1} passes"
    return f"{rest[0]} with a score of {rest[1]} (target {state.setup.target[state.players]})"


# ---- the players ----------------------------------------------------------------------------------

class Greedy:
    """The reference player the balance bands are about: a few priority rules, no look-ahead."""

    def __init__(self, setup, seat):
        self.setup = setup

    def choose(self, state, rng):
        fits = [card for card in state.legal_actions() if card != PASS]
        missing = self.setup.target[state.players] - state.score
        winning = [card for card in fits if self.setup.power[card] >= missing]
        if winning:  # 1. a card that wins now: the cheapest of them
            return min(winning, key=lambda card: self.setup.cost[card])
        if fits:     # 2. else the most power (of equal power, the cheaper)
            return max(fits, key=lambda card: (self.setup.power[card], -self.setup.cost[card]))
        return PASS  # 3. nothing fits


AGENTS = {"greedy": Greedy}  # "random" is always there too
