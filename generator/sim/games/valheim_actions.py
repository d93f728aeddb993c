"""Valheim: what each decision does — one handler per decision kind, ``handler(state, action)``,
after ``State.apply_action`` has checked that the decision is legal. A handler changes the state,
logs the change and hands over to the flow (``settle`` closes an action that can afford nothing
more; a level-up or "done" moves the round on).
"""
from __future__ import annotations

from .valheim_flow import (BASE, BUY, COMMIT, DONE, DUNGEON, FIGHTER, KEEP, LEVEL, MAKE, MOVE, NEWBASE, OPEN, ORDER,
                           P_HUNT, P_LEVEL, P_PICK, PAY, PICK, REROLL, REST, TAKE, TRASH)
from .valheim_legal import Legal
from .valheim_map import place_tile


def h_commit(state: Legal, a: tuple) -> None:
    state.commits[state.seat] = a[1]
    state.next_committer()


def h_rest(state: Legal, a: tuple) -> None:
    s, c = state.seat, a[1]
    state.hand[s].remove(c)
    state.discard[s].append(c)
    state.log.append(("rest", s, c))
    state.commits[s] = ()
    state.next_committer()


def h_pay(state: Legal, a: tuple) -> None:
    s, c, p = state.pays.pop(0)
    state.log.append(("pay", s, c, a[2]))
    if a[2]:
        state.pay(p["cost"], "pay")
        for op, q in p["then"]:
            if op == "gain":
                for r, k in q["resources"]:
                    state.log.append(("gain", r, state.take_supply(r, k)))
            elif op == "draw":
                state.draw_effect(s, q["n"])
            elif op == "pay":
                state.pays.insert(0, (s, c, q))
            else:
                state.mods.add(op, q)
    state.next_pay()


def h_base(state: Legal, a: tuple) -> None:
    state.begin_action(a[1])


def h_move(state: Legal, a: tuple) -> None:
    full = state.setup.play.move_cost
    waived = min(state.free, full)
    state.free -= waived
    state.ap -= full - waived
    state.walker = a[1]
    state.log.append(("move", a[1], full - waived))
    state.settle()


def h_open(state: Legal, a: tuple) -> None:
    d = a[1]
    b, cost = state.edge_at(state.walker, d)
    state.ap -= cost
    pile = state.piles[b]
    k = min(len(pile), max(1, state.mods.choose))
    state.drawn = [pile.pop() for _ in range(k)]
    state.open_ctx = (d, b, cost)
    if len(state.drawn) > 1:
        state.phase = P_PICK
        return
    place_tile(state, 0)


def h_pick(state: Legal, a: tuple) -> None:
    place_tile(state, a[1])


def h_take(state: Legal, a: tuple) -> None:
    k, r = a[1], a[2]
    d = state.dist(state.base)
    cost, waived = state.gather_cost(k, d)
    state.free -= waived
    state.ap -= cost
    state.s_tok[k][r] -= 1
    state.pool[r] += 1
    extra = 0
    if state.yield_left > 0:
        state.yield_left -= 1
        extra = state.take_supply(r, 1)
    state.log.append(("gather", k, r, cost, extra))
    # a token left on the same tile within the AP keeps the action going (what ``settle`` would
    # find); the cost changes only if free steps were waived
    if not (any(state.s_tok[k]) and (state.gather_cost(k, d)[0] if waived else cost) <= state.ap):
        state.settle()


def h_buy(state: Legal, a: tuple) -> None:
    i, s = a[1], a[2]
    c = state.row[i]
    cost = state.buy_cost(c)
    state.ap -= cost
    where = state.setup.rules["train.bought_to"]
    if where == "hand":
        state.hand[s].append(c)
    elif where == "deck_top":
        state.deck[s].append(c)
    else:
        state.discard[s].append(c)
    state.row[i] = state.deal_market() if state.setup.rules["market.refill"] == "immediate" else -1
    state.log.append(("buy", c, s, cost))
    state.settle()


def h_trash(state: Legal, a: tuple) -> None:
    s, c = a[1], a[2]
    if state.trash_left:
        state.trash_left -= 1
        cost = 0
    else:
        cost = state.setup.play.remove_cost
        state.ap -= cost
    state.discard[s].remove(c)
    state.exiled.append(c)
    state.log.append(("trash", s, c, cost))
    state.settle()


def h_keep(state: Legal, a: tuple) -> None:
    state.ap -= state.setup.rules["inheritance.carry_cost_ap"]
    state.kept.add(a[2])
    state.log.append(("keep", a[1], a[2]))
    state.settle()


def h_dungeon(state: Legal, a: tuple) -> None:
    state.enter_dungeon(a[1])


def h_fighter(state: Legal, a: tuple) -> None:
    if state.fight(a[1]):
        state.hunt_continue()


def h_order(state: Legal, a: tuple) -> None:
    perm = a[1]
    k = len(perm)
    state.edeck[-k:] = list(perm[::-1])  # perm is top first; the top of the deck is the list's end
    state.log.append(("order", perm))
    state.phase = P_HUNT
    state.hunt_continue()


def h_reroll(state: Legal, a: tuple) -> None:
    if a[1]:
        state.reroll_left -= 1
        pend = state.pending
        old = pend[3]
        pend[3] = 1 + int(state.rng.random() * state.setup.play.die_sides)
        state.log.append(("reroll", state.fighter, old, pend[3]))
        if not state.beats(pend[2] + pend[3], pend[1]) and state.reroll_left > 0:
            return
    state.phase = P_HUNT
    state.settle_fight()
    state.hunt_continue()


def h_newbase(state: Legal, a: tuple) -> None:
    k = a[1]
    dist = state.dist(state.base)[k]
    waived = min(state.free, dist)
    state.free -= waived
    state.ap -= dist - waived
    state.pay(state.setup.new_base_cost, "base")
    state.s_level[k] = state.setup.rules["craft.new_base_level"]
    state.note_bases()
    state.base_added(k)
    state.log.append(("newbase", k, dist - waived))
    state.settle()


def h_make(state: Legal, a: tuple) -> None:
    r, s = a[1], a[2]
    setup = state.setup
    cost = state.make_cost(r)
    state.ap -= cost
    state.pay(setup.r_cost[r], "craft")
    state.r_left[r] -= 1
    if setup.r_kind[r] == "facility":
        state.facilities.append(r)
        for op, p in setup.r_effect[r]:
            state.fac.add(op, p)
            state.mods.add(op, p)  # from the moment it is built
        # distances stand: searches over base links are only made (and cached) once links stand
    else:
        slot = setup.r_slot[r]
        old = state.equip[s][slot]
        if old >= 0 and setup.rules["craft.replaced_equipment"] == "supply":
            state.r_left[old] += 1
        state.equip[s][slot] = r
    state.log.append(("make", r, s, cost))
    state.settle()


def h_level(state: Legal, a: tuple) -> None:
    k = a[1]
    cost, kind = state.level_cost(k)
    state.pay(cost, "level")
    state.s_level[k] += 1
    state.leveled[k] = state.leveled.get(k, 0) + 1
    if kind == 1:
        state.extra_left -= 1
    state.log.append(("level", k, state.s_level[k], 1))
    if not state.level_options():
        state.next_round()


def h_done(state: Legal, a: tuple) -> None:
    if state.phase == P_LEVEL:
        state.next_round()
    else:
        state.finish_action()


HANDLERS = {COMMIT: h_commit, REST: h_rest, PAY: h_pay, BASE: h_base, MOVE: h_move, OPEN: h_open, PICK: h_pick,
            TAKE: h_take, BUY: h_buy, TRASH: h_trash, KEEP: h_keep, DUNGEON: h_dungeon, FIGHTER: h_fighter,
            ORDER: h_order, REROLL: h_reroll, NEWBASE: h_newbase, MAKE: h_make, LEVEL: h_level, DONE: h_done}
