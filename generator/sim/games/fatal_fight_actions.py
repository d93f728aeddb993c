"""Fatal Fight: the decisions (spec §3 A and P) — legal actions and what each one does.

Actions are tuples of ints, so legal lists sort deterministically::

    (END,)  (PLAY, card[, target])  (MOVE, square)  (PAID_MOVE, square, card|-1)  (TAKE, card|-1)
    (ITEM, card[, target])  (SAVE, seat, card, ...)  (GAUGE, card)  (MEGA,)  (FINISH,)  (JOIN, card)
    (PASS,)  (TARGET, k)  (NO_TARGET,)  (UPGRADE, card)  (BUY, card)  (CURE, card)  (DONE,)  (PICK, card)
    (DROP, card)  (RAGE, boss card)  (GIVE, seat)

A card whose effect holds a ``strike`` carries its target in the action (-1: no legal target).
``legal_unsorted(state)`` lists the current phase's actions; ``HANDLERS[(phase, kind)]`` applies
one. Forced steps (closing a chain nobody can extend, a target decision with one option) are
applied here and logged, so every decision an agent sees is a real one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final, Optional

from itertools import combinations

from . import fatal_fight_combat as combat
from .fatal_fight_flow import ACTIVE, CHAIN, COMBO, DOWN, DROP, MAIN, OVER, PICK, RAGE, SHOP, TARGET, Action
from .fatal_fight_setup import CHAIN as CHAIN_FLAG, GRAPPLE, RANGE
from .fatal_fight_shop import (BUY, CURE, DONE, GIVE, PICK_A, RAGE_A, UPGRADE, _buy, _cure, _done, _give, _pick, _rage,
                               _rages, _shop, _upgrade, can_buy)

if TYPE_CHECKING:
    from .fatal_fight import State

END: Final = 0
PLAY: Final = 1
MOVE: Final = 2
PAID_MOVE: Final = 3
TAKE: Final = 4
ITEM: Final = 5
SAVE: Final = 6
GAUGE: Final = 7
MEGA: Final = 8
FINISH: Final = 9
JOIN: Final = 10
PASS: Final = 11
TARGET_A: Final = 12
NO_TARGET: Final = 13
DROP_A: Final = 19  # after the stage-start kinds 14-18 of fatal_fight_shop
NEIGHBOURS: Final = tuple(tuple(b for b in range(9) if abs(b // 3 - a // 3) + abs(b % 3 - a % 3) == 1) for a in range(9))


# ---- legal actions ------------------------------------------------------------------------------

def legal_unsorted(state: State) -> list[Action]:
    phase = state.phase
    if phase == MAIN:
        return _main(state)
    s = state.seat
    out: list[Action]
    if phase == CHAIN:
        out = [(FINISH,)]
        if state.actions_left >= 1:
            out.extend((PLAY, c) for c in state.hand[s] if _attack_ok(state, s, c))
        for c in state.carry[s]:  # an item does not close the chain (G16): "this chain AP+2" lands on it
            out.extend(_with_target(state, s, ITEM, c))
        return out
    if phase == COMBO:
        return [(PASS,)] + [(JOIN, c) for c in state.hand[s] if _attack_ok(state, s, c)]
    if phase == TARGET:
        out = []
        for k in combat.targets(state, state.pos[state.turn_pos], state.chain_flags):  # a loop: no comprehension frame
            out.append((TARGET_A, k))
        return out or [(NO_TARGET,)]
    if phase == SHOP:
        return _shop(state)
    if phase == PICK:
        return [(PICK_A, c) for c in state.picks]
    if phase == DROP:
        return [(DROP_A, c) for c in drop_options(state, s)]
    if phase == RAGE:
        return _rages(state)
    return []


def _attack_ok(state: State, s: int, c: int) -> bool:
    setup = state.setup
    return setup.c_attack[c] and state.life[s] > setup.c_life_cost[c]


def _has_attack(state: State, s: int) -> bool:
    """Whether player ``s`` holds a card ``_attack_ok`` (a loop: no call per card)."""
    setup = state.setup
    attack, life_cost, life = setup.c_attack, setup.c_life_cost, state.life[s]
    for c in state.hand[s]:
        if attack[c] and life > life_cost[c]:
            return True
    return False


def _with_target(state: State, s: int, kind: int, c: int) -> list[Action]:
    if not state.setup.c_strike[c]:
        return [(kind, c)]
    ks = combat.targets(state, state.pos[s], _strike_flags(state, c))
    return [(kind, c, k) for k in ks] or [(kind, c, -1)]


def _strike_flags(state: State, c: int) -> int:
    for op, p in state.setup.c_effect[c]:
        if op == "strike":
            return 4 if p.get("launch") else 0
    return 0


def _main(state: State) -> list[Action]:
    s, setup, rules = state.seat, state.setup, state.setup.play
    hand, life = state.hand[s], state.life[s]
    out: list[Action] = [(END,)]
    if state.gauged[s]:  # N8: feeding the gauge is the end of the turn; only more feeding is left
        if state.gauged[s] < rules.n8_feed:
            out.extend((GAUGE, c) for c in hand if setup.c_kind[c] != "wound")
        return out
    acts = state.actions_left
    if acts >= 1:
        for c in hand:
            if life > setup.c_life_cost[c] and (setup.c_kind[c] != "wound" or life > rules.n11_life):
                out.extend(_with_target(state, s, PLAY, c))
    moves = [sq for sq in NEIGHBOURS[state.pos[s]] if sq not in state.blocked]
    paid = acts >= rules.move_actions and len(hand) >= rules.move_cards
    if state.free_moves > 0:
        out.extend((MOVE, sq) for sq in moves)
    elif paid:
        cards = hand if rules.move_cards else [-1]
        out.extend((PAID_MOVE, sq, c) for sq in moves for c in cards)
    if has_pickup(state, s):
        if state.free_moves >= rules.pickup_move_cost:
            out.append((TAKE, -1))
        elif state.free_moves == 0 and rules.pickup_move_cost == 1 and paid:
            out.extend((TAKE, c) for c in (hand if rules.move_cards else [-1]))
    for c in state.carry[s]:
        out.extend(_with_target(state, s, ITEM, c))
    if acts >= rules.saving_actions and len(hand) >= rules.saving_cards:
        downed = [t for t in range(state.n) if state.status[t] == DOWN and
                  (rules.saving_any_square or state.pos[t] == state.pos[s])]
        if downed:
            pays = list(combinations(sorted(hand), rules.saving_cards))
            out.extend((SAVE, t, *pay) for t in downed for pay in pays)
    if rules.n8:
        if state.gauged[s] < rules.n8_feed:
            out.extend((GAUGE, c) for c in hand if setup.c_kind[c] != "wound")
        m = state.mega_art[s]
        if m >= 0 and len(state.gauge[s]) >= rules.n8_size and life > setup.c_life_cost[m]:
            out.append((MEGA,))
    return out


def has_pickup(state: State, s: int) -> bool:
    """Whether a pickup lies on ``s``'s square. A full carry does not stop taking it: a supply over
    ``max_carry`` is taken, then the player discards down (G3, ``discard_down``)."""
    return bool(state.pickups.get(state.pos[s]))


def drop_options(state: State, q: int) -> list[int]:
    """The supplies ``q`` may discard: one per kind (the newest), so a choice is offered only
    between different supplies."""
    c_id, newest = state.setup.c_id, {}
    for c in state.carry[q]:
        newest[c_id[c]] = c
    return sorted(newest.values())


def discard_down(state: State) -> None:
    """G3 (spec §5, rulebook 「超えた分を選んで捨てます」): a player holding more supplies than
    ``max_carry`` discards down to it, choosing what to keep. Called after the action that gave
    the supply: the decision (DROP) interrupts whatever came next and then gives it back; with
    one kind of supply there is nothing to choose and the newest goes by itself."""
    for q in range(state.n):
        while len(state.carry[q]) > state.max_carry[q]:
            options = drop_options(state, q)
            if len(options) > 1:
                if state.phase != DROP:
                    state.dropping = (state.phase, state.seat)
                state.phase, state.seat = DROP, q
                return
            state.log.append(("auto", q, (DROP_A, options[0])))
            _discard_supply(state, q, options[0])
    if state.phase == DROP:
        state.phase, state.seat = state.dropping
    state.dropping = None


def _discard_supply(state: State, q: int, c: int) -> None:
    state.carry[q].remove(c)  # back to the supply cards (not exiled: it was never used)
    state.log.append(("drop", q, c))


def _drop(state: State, a: Action):
    _discard_supply(state, state.seat, a[1])
    discard_down(state)


def is_legal(state: State, action: Action) -> bool:
    """Whether ``action`` is legal now: fast checks for the frequent kinds, else the full list."""
    kind, phase = action[0], state.phase
    if len(action) == 2 and (kind == PLAY or kind == JOIN) and not state.setup.c_strike[action[1]]:
        s, c = state.seat, action[1]
        setup = state.setup
        if c not in state.hand[s] or state.life[s] <= setup.c_life_cost[c]:
            return False
        if phase == MAIN:  # PLAY in MAIN and CHAIN, JOIN in COMBO: no handler takes the other pairs
            return kind == PLAY and state.actions_left >= 1 and not state.gauged[s] and \
                (setup.c_kind[c] != "wound" or state.life[s] > setup.play.n11_life)
        if phase == CHAIN:
            return kind == PLAY and state.actions_left >= 1 and setup.c_attack[c]
        return phase == COMBO and kind == JOIN and setup.c_attack[c]
    if (kind == END and phase == MAIN) or (kind == FINISH and phase == CHAIN) or (kind == PASS and phase == COMBO):
        return True
    if kind == MOVE and phase == MAIN:
        sq, s = action[1], state.seat
        return (state.free_moves > 0 and sq in NEIGHBOURS[state.pos[s]] and sq not in state.blocked
                and not state.gauged[s])
    if (kind == UPGRADE or kind == BUY or kind == CURE) and phase == SHOP:  # this purchase's rule, no list
        return can_buy(state, state.seat, action)
    if kind == ITEM and len(action) > 1 and (phase == CHAIN or phase == MAIN and not state.gauged[state.seat]):
        s, c = state.seat, action[1]  # the rule of this one item (``_main`` lists no item once gauged)
        return c in state.carry[s] and action in _with_target(state, s, ITEM, c)
    return action in (state._legal if state._legal is not None else legal_unsorted(state))


def has_choice(state: State) -> bool:
    """Whether the player in MAIN has anything to do but end the turn."""
    s = state.seat
    if state.gauged[s]:  # N8: the turn is ending (see _main)
        return len(_main(state)) > 1
    if state.carry[s]:
        return True
    blocked = state.blocked
    if state.free_moves > 0 and (not blocked or any(q not in blocked for q in NEIGHBOURS[state.pos[s]])):
        return True  # (every square has a neighbour)
    if state.actions_left >= 1 and state.hand[s]:
        life, life_cost = state.life[s], state.setup.c_life_cost
        for c in state.hand[s]:
            if life > life_cost[c]:
                return True
    return len(_main(state)) > 1


# ---- the action phase ---------------------------------------------------------------------------

def _end(state: State, a: Action):
    state.end_turn()
    if state.phase == MAIN:
        state.next_turn()


def _play(state: State, a: Action):
    s, c = state.seat, a[1]
    setup = state.setup
    state.hand[s].remove(c)
    state.played_up[s].append(c)
    state.actions_left -= 1
    state.log.append(("play", s, c, "up"))
    if setup.c_kind[c] == "wound":
        state.hurt(s, setup.play.n11_life, pierce=True, cause="wound")
        state.settle()
        return
    if setup.c_life_cost[c]:
        state.hurt(s, setup.c_life_cost[c], pierce=True, cause="life_cost")
    if setup.c_attack[c]:
        if state.phase == MAIN:
            _open_chain(state)
        _add_to_chain(state, s, c)
    _sub(state, s, c)
    state.strike_target = a[2] if len(a) > 2 else None
    state.apply_effect(setup.c_effect[c], s, None)
    _after_card(state)


def _open_chain(state: State):
    state.phase = CHAIN
    state.chain, state.chain_mods = [], []
    state.chain_ap = state.chain_flags = state.chain_hits = state.grapples = 0
    pending, state.pending_mods = state.pending_mods, []
    state.chain.append(None)  # placeholder so chain_mod applies the pending mods to this chain
    for mod in pending:
        state.chain_mod(mod)
    state.chain.pop()


def _add_to_chain(state: State, s: int, c: int):
    setup = state.setup
    flags = setup.c_flags[c]
    if flags & CHAIN_FLAG and setup.play.n5 and state.chain:
        prev = state.chain[-1][1]
        if setup.c_attack[prev] and not setup.c_flags[prev] & RANGE:
            state.chain_ap += setup.play.n5_bonus
    state.chain.append((s, c))
    state.chain_ap += setup.c_ap[c]
    state.chain_flags |= flags
    if flags & GRAPPLE:
        state.grapples += 1


def _sub(state: State, s: int, c: int):
    setup = state.setup
    if setup.c_guard[c]:
        state.gain_gp(s, setup.c_guard[c])
    if setup.c_draw[c]:
        state.draw(s, setup.c_draw[c])
    if setup.c_heal[c]:
        state.heal(s, setup.c_heal[c])


def _after_card(state: State):
    """After a card or item: a boss killed by a strike clears the stage; a chain nobody can
    extend closes by itself; a turn with nothing left ends by itself."""
    if state.phase == OVER:
        return
    if not state.boss_alive:
        state.clear_stage()
    elif state.phase == CHAIN:
        s = state.seat  # the chain stays open while an item could still be used on it (G16)
        if state.status[s] != ACTIVE or ((state.actions_left < 1 or not _has_attack(state, s)) and not state.carry[s]):
            state.log.append(("auto", s, (FINISH,)))
            _finish(state, None)
    else:
        state.settle()


def _finish(state: State, a: Optional[tuple]):
    s = state.turn_pos
    if state.status[s] != ACTIVE:  # the turn player fell to a life cost: the chain is lost
        state.chain = []
        state.phase = MAIN
        state.next_turn()
        return
    partners, here = [], state.pos[s]
    for q in range(state.n):  # a loop: no comprehension frame
        if q != s and state.status[q] == ACTIVE and state.pos[q] == here:
            partners.append(q)
    state.partners = partners
    if state.setup.play.combination_limit == "per_chain":
        state.partner_used = {}
    _next_partner(state)


def _next_partner(state: State):
    while state.partners:
        q = state.partners[0]
        if state.partner_used.get(q, 0) < state.actions[q] and _has_attack(state, q):
            state.seat = q
            state.phase = COMBO
            return
        state.partners.pop(0)
    _to_target(state)


def _to_target(state: State):
    s = state.seat = state.turn_pos
    # The owner's "when your chain resolves" Specials change the chain that resolves (そのチェーン):
    # fired now, while it is still open and before its target is chosen, since a launch widens the
    # targets and AP/hit bonuses must count in this chain's damage (fired after resolving, they
    # waited for a next chain the same turn and were mostly lost).
    if state.chains_this_turn[0] == 0:
        state.special(s, "first_chain_resolve")
    state.special(s, "chain_resolve")
    if state.phase == OVER:
        return
    state.phase = TARGET
    legal = legal_unsorted(state)
    if len(legal) == 1:
        state.log.append(("auto", state.seat, legal[0]))
        _resolve(state, legal[0])


def _join(state: State, a: Action):
    q, c = state.seat, a[1]
    setup = state.setup
    state.hand[q].remove(c)
    state.played_up[q].append(c)
    state.partner_used[q] = state.partner_used.get(q, 0) + 1
    state.log.append(("play", q, c, "combo"))
    if setup.c_life_cost[c]:
        state.hurt(q, setup.c_life_cost[c], pierce=True, cause="life_cost")
    _add_to_chain(state, q, c)
    if setup.play.partner_subs_to_partner:
        _sub(state, q, c)
    else:
        _sub(state, state.turn_pos, c)
    _next_partner(state)


def _pass(state: State, a: Action):
    state.partners.pop(0)
    _next_partner(state)


def _resolve(state: State, a: Action):
    s = state.turn_pos
    rules = state.setup.play
    k = a[1] if a[0] == TARGET_A else -1
    ap, flags, hits = state.chain_ap, state.chain_flags, len(state.chain) + state.chain_hits
    for kind, value, when in state.chain_mods:
        if (when == "cqb" and k >= 0 and combat.is_cqb(state.pos[s], k)) or (when == "hits_3" and len(state.chain) + state.chain_hits >= 3):
            if kind == "ap":
                ap += value
            elif kind == "flags":
                flags |= value
            else:
                hits += value
    kills = combat.resolve(state, s, k, ap, flags, state.grapples) if k >= 0 else 0
    state.log.append(("chain", s, ap, flags, hits, k, kills))
    if hits >= rules.combo_bonus_min_hits and k >= 0:  # part of the attack (L316-319): no target, no bonus
        state.add_gold(hits - rules.combo_bonus_min_hits + 1, "combo")
    state.chain, state.chain_mods = [], []
    state.seat, state.phase = s, MAIN
    state.chains_this_turn[0] += 1
    if not state.boss_alive:
        state.clear_stage()
    else:
        state.settle()


def _move(state: State, a: Action):
    state.free_moves -= 1
    _arrive(state, state.seat, a[1])


def _pay(state: State, s: int, c: int):
    rules = state.setup.play
    state.actions_left -= rules.move_actions
    if c >= 0:
        state.hand[s].remove(c)
        state.played_down[s].append(c)


def _paid_move(state: State, a: Action):
    _pay(state, state.seat, a[2])
    _arrive(state, state.seat, a[1])


def _arrive(state: State, s: int, sq: int):
    state.pos[s] = sq
    state.log.append(("move", s, sq))
    state.settle()


def _take(state: State, a: Action):
    s = state.seat
    if a[1] == -1:
        state.free_moves -= state.setup.play.pickup_move_cost
    else:
        _pay(state, s, a[1])
    supply, gold = state.pickups[state.pos[s]].pop(0)
    state.log.append(("take", s, state.pos[s]))
    if supply:
        state.give_supply(s, supply)
    state.add_gold(gold, "pickup")
    state.settle()


def _item(state: State, a: Action):
    s, c = state.seat, a[1]
    state.carry[s].remove(c)
    state.exiled.append(c)
    state.log.append(("item", s, c))
    state.strike_target = a[2] if len(a) > 2 else None
    state.apply_effect(state.setup.c_effect[c], s, None)
    _after_card(state)


def _save(state: State, a: Action):
    s, t = state.seat, a[1]
    for c in a[2:]:
        state.hand[s].remove(c)
        state.played_down[s].append(c)
    state.actions_left -= state.setup.play.saving_actions
    state.revive(s, t)
    state.settle()


def _gauge(state: State, a: Action):
    """N8: a hand card face down into the gauge, at the end of the turn (schema n8_power_gauge);
    the turn ends once ``feed_per_round`` cards are in or nothing else can go in."""
    s, c = state.seat, a[1]
    state.hand[s].remove(c)
    state.gauge[s].append(c)
    state.gauged[s] += 1
    state.log.append(("gauge", s, c))
    state.settle()


def _mega(state: State, a: Action):
    """N8: release the gauge; an attack mega art resolves as a one-card chain without Combination,
    a non-attack one (Marie's party heal) like a played support card: no chain, no HIT."""
    s = state.seat
    setup = state.setup
    size = setup.play.n8_size
    spent, state.gauge[s] = state.gauge[s][:size], state.gauge[s][size:]
    state.discard[s].extend(spent)
    m = state.mega_art[s]
    state.log.append(("mega", s, m))
    if setup.c_life_cost[m]:
        state.hurt(s, setup.c_life_cost[m], pierce=True, cause="life_cost")
        if state.status[s] != ACTIVE:
            state.settle() if state.phase == MAIN else None
            return
    if setup.c_attack[m]:  # an attack mega resolves as a one-card chain; any other mega as a plain card
        _open_chain(state)
        _add_to_chain(state, s, m)
    _sub(state, s, m)
    state.strike_target = None
    state.apply_effect(setup.c_effect[m], s, None)
    if state.phase == CHAIN:
        _to_target(state)
    else:
        _after_card(state)


HANDLERS: Final = {
    (MAIN, END): _end, (MAIN, PLAY): _play, (MAIN, MOVE): _move, (MAIN, PAID_MOVE): _paid_move,
    (MAIN, TAKE): _take, (MAIN, ITEM): _item, (MAIN, SAVE): _save, (MAIN, GAUGE): _gauge, (MAIN, MEGA): _mega,
    (CHAIN, PLAY): _play, (CHAIN, ITEM): _item, (CHAIN, FINISH): _finish, (COMBO, JOIN): _join, (COMBO, PASS): _pass,
    (TARGET, TARGET_A): _resolve, (TARGET, NO_TARGET): _resolve,
    (SHOP, UPGRADE): _upgrade, (SHOP, BUY): _buy, (SHOP, CURE): _cure, (SHOP, DONE): _done, (SHOP, GIVE): _give,
    (PICK, PICK_A): _pick, (DROP, DROP_A): _drop, (RAGE, RAGE_A): _rage,
}
# HANDLERS by phase, then kind: what apply_action looks up (no key tuple per action)
HANDLERS_BY_PHASE: Final = tuple({kind: h for (p, kind), h in HANDLERS.items() if p == phase} for phase in range(OVER + 1))
