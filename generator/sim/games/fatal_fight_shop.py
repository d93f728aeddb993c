"""Fatal Fight: the stage-start decisions (spec §3 P) — shopping, curing wounds (N11), taking
free extra arts (N10), giving gold to another player (G21) and choosing the final boss's rage
cards that gold removes (G1). Action kinds 14-18, 20 and 21 of ``fatal_fight_actions``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .fatal_fight import State
    from .fatal_fight_flow import Action, Flow

UPGRADE: Final = 14
BUY: Final = 15
CURE: Final = 16
DONE: Final = 17
PICK_A: Final = 18
RAGE_A: Final = 20  # (RAGE_A, boss-deck card): after DROP_A = 19
GIVE: Final = 21    # (GIVE, seat): 1 gold to that player at stage start (G21)


def _rages(state: State) -> list[Action]:
    """One RAGE action per distinct rage card left in the boss deck, its first copy: identical
    cards are one choice, so neither a random player nor a search weighs a card by its copies."""
    boss = state.setup.bosses[state.stage]
    first_rage = len(boss["skills"])
    out: list[Action] = []
    effects = []
    for top in state.boss_deck:
        if top >= first_rage and boss["rage"][top - first_rage] not in effects:
            effects.append(boss["rage"][top - first_rage])
            out.append((RAGE_A, top))
    return out


def _rage(state: State, a: Action):
    state.rage_out(a[1])
    if not state.remove_rage():
        state.start_round()


def offers(state: State, s: int, gold: int) -> list[Action]:
    """The upgrades and Gym cards player ``s`` could pay for with ``gold``."""
    setup, cost, deck = state.setup, state.setup.c_cost, state.deck[s]
    mega = state.mega_art[s]  # N8: the mega art waits beside the player, not in the deck, and upgrades too
    out: list[Action] = []
    for u in state.upgrades_left[s]:  # plain loops: no comprehension or generator frames
        if cost[u] <= gold and (setup.c_replaces[u] in deck or setup.c_replaces[u] == mega):
            out.append((UPGRADE, u))
    for g in state.gym:
        if cost[g] <= gold:
            out.append((BUY, g))
    return out


def buys(state: State, s: int) -> list[Action]:
    """What player ``s`` can spend gold on now: the offers and (N11) curing a wound."""
    setup, rules = state.setup, state.setup.play
    gold = state.gold[s]
    out = offers(state, s, gold)
    if rules.n11 and gold >= rules.n11_cure:
        out.extend((CURE, d) for d in state.deck[s] if setup.c_kind[d] == "wound")
    return out


def can_buy(state: State, s: int, action: Action) -> bool:
    """Whether ``action`` (UPGRADE, BUY or CURE) is in ``buys(state, s)``, by its own rule alone."""
    if len(action) != 2:
        return False
    setup, kind, c = state.setup, action[0], action[1]
    gold = state.gold[s]
    if kind == UPGRADE:  # membership first: ``c`` indexes the card tables only once it is known
        return c in state.upgrades_left[s] and setup.c_cost[c] <= gold and \
            (setup.c_replaces[c] in state.deck[s] or setup.c_replaces[c] == state.mega_art[s])
    if kind == BUY:
        return c in state.gym and setup.c_cost[c] <= gold
    rules = setup.play
    return rules.n11 and gold >= rules.n11_cure and c in state.deck[s] and setup.c_kind[c] == "wound"


def _shop(state: State) -> list[Action]:
    s = state.seat
    gold = state.gold[s]
    out = [(DONE,)] + buys(state, s)
    if gold and not state.gifted[s]:  # G21; a player who was given gold gives none (no gold going round)
        out.extend((GIVE, t) for t in range(state.n) if t != s and _gift_buys(state, t, gold))
    return out


def has_shop_choice(state: Flow) -> bool:
    """Whether ``_shop`` lists more than ``(DONE,)``, without listing it: asked before every shop
    turn and after every purchase, and most often answered by the first affordable offer."""
    s, setup, rules = state.seat, state.setup, state.setup.play
    gold = state.gold[s]
    if _offered(state, s, -1, gold):  # costs are never negative
        return True
    if rules.n11 and gold >= rules.n11_cure and any(setup.c_kind[d] == "wound" for d in state.deck[s]):
        return True
    if gold and not state.gifted[s]:
        for t in range(state.n):
            if t != s and _gift_buys(state, t, gold):
                return True
    return False


def _gift_buys(state: Flow, t: int, gold: int) -> bool:
    """Whether ``gold`` more would let player ``t`` pay for something they cannot now: gold is
    offered only where it buys something this stage start (no decision for a useless gift)."""
    have = state.gold[t]
    return _offered(state, t, have, have + gold)


def _offered(state: Flow, t: int, above: int, gold: int) -> bool:
    """Whether ``offers(state, t, gold)`` holds a card costing more than ``above`` (a loop that
    stops at the first: no list)."""
    setup = state.setup
    cost, replaces = setup.c_cost, setup.c_replaces
    deck, mega = state.deck[t], state.mega_art[t]
    for u in state.upgrades_left[t]:
        if above < cost[u] <= gold and (replaces[u] in deck or replaces[u] == mega):
            return True
    for g in state.gym:
        if above < cost[g] <= gold:
            return True
    return False


def _give(state: State, a: Action):
    """G21: 1 gold to another player, who shops (again) after the others if they had already."""
    s, t = state.seat, a[1]
    state.gold[s] -= 1
    state.gold[t] += 1
    state.gifted[t] = True
    if t not in state.shop_queue:
        state.shop_queue.append(t)
    state.log.append(("give", s, t))
    _after_shop(state)


def _upgrade(state: State, a: Action):
    s, u = state.seat, a[1]
    setup = state.setup
    state.gold[s] -= setup.c_cost[u]
    state.upgrades_left[s].remove(u)
    old = setup.c_replaces[u]
    state.exiled.append(old)
    if state.mega_art[s] == old:
        state.mega_art[s] = u
    else:
        state.deck[s].remove(old)
        state.deck[s].append(u)
    state.log.append(("upgrade", s, u))
    _after_shop(state)


def _buy(state: State, a: Action):
    s, g = state.seat, a[1]
    state.gold[s] -= state.setup.c_cost[g]
    state.gym.remove(g)
    state.deck[s].append(g)
    state.log.append(("buy", s, g))
    _after_shop(state)


def _cure(state: State, a: Action):
    s, d = state.seat, a[1]
    state.gold[s] -= state.setup.play.n11_cure
    state.deck[s].remove(d)
    state.wound_pool.append(d)
    state.log.append(("cure", s, d))
    _after_shop(state)


def _after_shop(state: State):
    state._legal = None
    if not has_shop_choice(state):
        state.next_shopper()


def _done(state: State, a: Action):
    state.next_shopper()


def _pick(state: State, a: Action):
    s, c = state.seat, a[1]
    state.picks.remove(c)
    state.deck[s].append(c)
    state.log.append(("pick", s, c))
    state.next_picker()
