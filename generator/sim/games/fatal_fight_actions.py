"""Fatal Fight: the decisions (spec §3 A and P) — legal actions and what each one does.

``legal_unsorted(state)`` lists the actions of the current phase; ``HANDLERS[(phase, kind)]``
applies one. Both read every number from ``state.setup`` (the compiled content tables).
"""
from __future__ import annotations

from . import fatal_fight_combat as combat
from .fatal_fight_flow import ACTIVE, CHAIN, COMBO, DOWN, MAIN, OVER, PICK, RETURNING, SHOP, TARGET
from .fatal_fight_setup import CHAIN as CHAIN_FLAG, GRAPPLE

(END, PLAY, MOVE, PAID_MOVE, ITEM, SAVE, GAUGE, MEGA, FINISH, JOIN, PASS, TARGET_A, NO_TARGET,
 UPGRADE, BUY, CURE, DONE, PICK_A) = range(18)
NEIGHBOURS = tuple(tuple(b for b in range(9) if abs(b // 3 - a // 3) + abs(b % 3 - a % 3) == 1)
                   for a in range(9))


# ---- legal actions ------------------------------------------------------------------------------

def legal_unsorted(state) -> list[tuple]:
    phase = state.phase
    if phase == MAIN:
        return _main(state)
    if phase == CHAIN:
        out = [(FINISH,)]
        if state.actions_left >= 1:
            attack = state.setup.c_attack
            out.extend((PLAY, c) for c in state.hand[state.seat] if attack[c])
        return out
    if phase == COMBO:
        attack = state.setup.c_attack
        return [(PASS,)] + [(JOIN, c) for c in state.hand[state.seat] if attack[c]]
    if phase == TARGET:
        ks = combat.targets(state, state.pos[state.turn_pos], state.chain_flags)
        return [(TARGET_A, k) for k in ks] or [(NO_TARGET,)]
    if phase == SHOP:
        return _shop(state)
    if phase == PICK:
        return [(PICK_A, c) for c in state.picks]
    return []


def _main(state) -> list[tuple]:
    s, setup, rules = state.seat, state.setup, state.setup.rules
    hand = state.hand[s]
    out = [(END,)]
    acts = state.actions_left
    if acts >= 1:
        out.extend((PLAY, c) for c in hand)
    moves = [sq for sq in NEIGHBOURS[state.pos[s]] if sq not in state.blocked]
    if state.free_moves > 0:
        out.extend((MOVE, sq) for sq in moves)
    elif acts >= 1:
        out.extend((PAID_MOVE, sq, c) for sq in moves for c in hand)
    out.extend((ITEM, c) for c in state.carry[s])
    if acts >= rules["saving_actions"] and len(hand) >= rules["saving_cards"]:
        pairs = [(a, b) for i, a in enumerate(sorted(hand)) for b in sorted(hand)[i + 1:]]
        for t in range(state.n):
            if state.status[t] == DOWN:
                out.extend((SAVE, t, a, b) for a, b in pairs)
    if setup.switches["n8_gauge"]:
        if state.gauged[s] < rules["gauge_per_turn"]:
            out.extend((GAUGE, c) for c in hand if setup.c_gaugeable[c])
        if len(state.gauge[s]) >= rules["gauge_size"]:
            out.append((MEGA,))
    return out


def _shop(state) -> list[tuple]:
    s, setup = state.seat, state.setup
    gold, cost = state.gold[s], setup.c_cost
    out = [(DONE,)]
    deck = state.deck[s]
    out.extend((UPGRADE, u) for u in state.upgrades_left[s] if cost[u] <= gold and setup.c_replaces[u] in deck)
    out.extend((BUY, g) for g in state.gym if cost[g] <= gold)
    if setup.switches["n11_debuffs"] and gold >= setup.rules["debuff_cure_cost"]:
        out.extend((CURE, d) for d in deck if setup.c_kind[d] == "debuff")
    return out


def is_legal(state, action) -> bool:
    return action in state.legal_actions()


# ---- handlers -----------------------------------------------------------------------------------

def _end(state, a):
    state.next_turn()


def _play(state, a):
    s, c = state.seat, a[1]
    setup = state.setup
    state.hand[s].remove(c)
    state.played_up[s].append(c)
    state.actions_left -= 1
    state.log.append(("play", s, c, "up"))
    if setup.c_life_cost[c]:
        state.hurt(s, setup.c_life_cost[c], pierce=True, cause="life_cost")
        if state.phase == OVER:
            return
    if setup.c_attack[c]:
        if state.phase == MAIN:
            state.phase = CHAIN
            state.chain, state.chain_ap, state.chain_flags, state.grapples = [], 0, 0, 0
        _add_to_chain(state, s, c)
    _sub(state, s, c)
    if setup.c_effect[c]:
        state.apply_effect(setup.c_effect[c], s, None)
    if not state.boss_alive and state.phase != OVER:
        state.clear_stage()
        return
    if state.phase == CHAIN:
        _maybe_close(state)
    else:
        state._settle()


def _add_to_chain(state, s, c):
    setup = state.setup
    flags = setup.c_flags[c]
    bonus = 0
    if flags & CHAIN_FLAG and state.chain and setup.switches["n5_chain"]:
        bonus = setup.rules["chain_bonus"]
    state.chain.append((s, c))
    state.chain_ap += setup.c_ap[c] + bonus
    state.chain_flags |= flags
    if flags & GRAPPLE:
        state.grapples += 1


def _sub(state, s, c):
    setup = state.setup
    if setup.c_guard[c]:
        state.gain_gp(s, setup.c_guard[c])
    if setup.c_draw[c]:
        state.draw(s, setup.c_draw[c])
    if setup.c_heal[c]:
        state.heal(s, setup.c_heal[c])


def _maybe_close(state):
    """Close the chain by itself when the turn player cannot extend it (a forced step)."""
    attack = state.setup.c_attack
    if state.actions_left < 1 or not any(attack[c] for c in state.hand[state.seat]):
        state.log.append(("act", state.seat, (FINISH,)))
        _finish(state, None)


def _finish(state, a):
    s = state.turn_pos
    state.partners = [q for q in range(state.n)
                      if q != s and state.status[q] == ACTIVE and state.pos[q] == state.pos[s]]
    state.partner_used = {}
    _next_partner(state)


def _next_partner(state):
    attack = state.setup.c_attack
    while state.partners:
        q = state.partners[0]
        if state.partner_used.get(q, 0) < state.actions[q] and any(attack[c] for c in state.hand[q]):
            state.seat = q
            state.phase = COMBO
            return
        state.partners.pop(0)
    state.seat = state.turn_pos
    state.phase = TARGET
    legal = legal_unsorted(state)
    if len(legal) == 1:
        state.log.append(("act", state.seat, legal[0]))
        _resolve(state, legal[0])


def _join(state, a):
    q, c = state.seat, a[1]
    state.hand[q].remove(c)
    state.played_up[q].append(c)
    state.partner_used[q] = state.partner_used.get(q, 0) + 1
    state.log.append(("play", q, c, "combo"))
    _add_to_chain(state, q, c)
    _sub(state, q, c)
    _next_partner(state)


def _pass(state, a):
    state.partners.pop(0)
    _next_partner(state)


def _resolve(state, a):
    s = state.turn_pos
    rules = state.setup.rules
    kills, boss = 0, False
    k = a[1] if a[0] == TARGET_A else -1
    if k >= 0:
        kills, boss = combat.resolve(state, s, k, state.chain_ap, state.chain_flags, state.grapples)
    hits = len(state.chain)
    state.log.append(("chain", s, state.chain_ap, state.chain_flags, hits, k, kills))
    if hits >= rules["combo_bonus_min_hits"]:
        state.add_gold(hits - rules["combo_bonus_min_hits"] + 1, "combo")
    state.chain = []
    state.seat = s
    state.phase = MAIN
    if boss:
        state.clear_stage()
    else:
        state._settle()


def _move(state, a):
    s = state.seat
    state.free_moves -= 1
    _arrive(state, s, a[1], False)
    state._settle()


def _paid_move(state, a):
    s, sq, c = state.seat, a[1], a[2]
    state.hand[s].remove(c)
    state.played_down[s].append(c)
    state.actions_left -= 1
    _arrive(state, s, sq, True)
    state._settle()


def _arrive(state, s, sq, paid):
    state.pos[s] = sq
    state.log.append(("move", s, sq, paid))
    waiting = state.pickups.get(sq)
    if waiting and len(state.carry[s]) < state.max_carry[s]:
        state.give_supply(s, waiting.pop(0))


def _item(state, a):
    s, c = state.seat, a[1]
    state.carry[s].remove(c)
    state.exiled.append(c)
    state.log.append(("item", s, c))
    state.apply_effect(state.setup.c_effect[c], s, None)
    if state.phase == OVER:
        return
    if not state.boss_alive:
        state.clear_stage()
        return
    state._settle()


def _save(state, a):
    s, t = state.seat, a[1]
    rules = state.setup.rules
    for c in a[2:]:
        state.hand[s].remove(c)
        state.played_down[s].append(c)
    state.actions_left -= rules["saving_actions"]
    state.status[t] = RETURNING
    state.life[t] = rules["revive_life"]
    state.log.append(("save", s, t))
    state._settle()


def _gauge(state, a):
    s, c = state.seat, a[1]
    state.hand[s].remove(c)
    state.gauge[s].append(c)
    state.gauged[s] += 1
    state.log.append(("gauge", s, c))
    state._settle()


def _mega(state, a):
    s = state.seat
    size = state.setup.rules["gauge_size"]
    spent, state.gauge[s] = state.gauge[s][:size], state.gauge[s][size:]
    state.discard[s].extend(spent)
    state.log.append(("mega", s))
    state.apply_effect(state.setup.characters[state.chars[s]]["special"], s, None)
    if state.phase == OVER:
        return
    if not state.boss_alive:
        state.clear_stage()
        return
    state._settle()


def _upgrade(state, a):
    s, u = state.seat, a[1]
    setup = state.setup
    state.gold[s] -= setup.c_cost[u]
    state.upgrades_left[s].remove(u)
    state.deck[s].remove(setup.c_replaces[u])
    state.exiled.append(setup.c_replaces[u])
    state.deck[s].append(u)
    state.log.append(("upgrade", s, u))
    _after_shop(state)


def _buy(state, a):
    s, g = state.seat, a[1]
    state.gold[s] -= state.setup.c_cost[g]
    state.gym.remove(g)
    state.deck[s].append(g)
    state.log.append(("buy", s, g))
    _after_shop(state)


def _cure(state, a):
    s, d = state.seat, a[1]
    state.gold[s] -= state.setup.rules["debuff_cure_cost"]
    state.deck[s].remove(d)
    state.debuff_pool.append(d)
    state.log.append(("cure", s, d))
    _after_shop(state)


def _after_shop(state):
    state._legal = None
    if len(legal_unsorted(state)) == 1:
        state.next_shopper()


def _done(state, a):
    state.next_shopper()


def _pick(state, a):
    s, c = state.seat, a[1]
    state.picks.remove(c)
    state.deck[s].append(c)
    state.log.append(("pick", s, c))
    state.next_picker()


HANDLERS = {
    (MAIN, END): _end, (MAIN, PLAY): _play, (MAIN, MOVE): _move, (MAIN, PAID_MOVE): _paid_move,
    (MAIN, ITEM): _item, (MAIN, SAVE): _save, (MAIN, GAUGE): _gauge, (MAIN, MEGA): _mega,
    (CHAIN, PLAY): _play, (CHAIN, FINISH): _finish, (COMBO, JOIN): _join, (COMBO, PASS): _pass,
    (TARGET, TARGET_A): _resolve, (TARGET, NO_TARGET): _resolve,
    (SHOP, UPGRADE): _upgrade, (SHOP, BUY): _buy, (SHOP, CURE): _cure, (SHOP, DONE): _done,
    (PICK, PICK_A): _pick,
}
