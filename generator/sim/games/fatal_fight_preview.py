"""Fatal Fight: what the greedy agent knows about cards and attacks — static card worth, kill
values, the ``Board`` snapshot that previews an attack with list lookups (never a ``clone()``)
and the distinct chains a hand can make.
"""
from __future__ import annotations

from itertools import combinations

from . import fatal_fight_combat as combat
from .fatal_fight_setup import LAUNCH, PIERCE, RANGE

BOSS_VALUE = 1000.0
CARD_COST = 0.6      # value of keeping a card in hand
LOW_LIFE = 3         # defend when the predicted damage would leave this much life or less
_FLAG_WORTH = {RANGE: 1.5, PIERCE: 1.0, LAUNCH: 0.8}
_OP_WORTH = {"draw": 1.2, "gain_action": 1.0, "chain_ap": 0.8, "heal": 0.6, "guard": 0.7, "gold": 1.0,
             "chain_sub": 0.8, "add_hits": 0.5, "move_self": 0.3, "strike": 1.5, "save": 1.0, "gain_supply": 1.5}
DILUTION = 1.0       # what one more card in the deck costs (it waters down the draws)


def card_worth(setup, c) -> float:
    """A rough static value of a card (shopping and choosing what to spend), cached per setup."""
    table = setup.__dict__.get("_worth")
    if table is None:
        table = setup.__dict__["_worth"] = [_worth(setup, i) for i in range(len(setup.c_id))]
    return table[c]


def _worth(setup, c) -> float:
    worth = setup.c_ap[c] + 0.7 * setup.c_guard[c] + 1.2 * setup.c_draw[c] + 0.6 * setup.c_heal[c]
    worth += sum(w for bit, w in _FLAG_WORTH.items() if setup.c_flags[c] & bit)
    worth += sum(_OP_WORTH.get(op, 0.3) * max(1, p.get("n", 1)) for op, p in setup.c_effect[c])
    return worth - (2.0 if setup.c_kind[c] == "wound" else 0.0) - setup.c_life_cost[c]


def kill_value(state, k: int, killed: list[int], swollen: bool | None = None) -> float:
    setup, group = state.setup, state.groups[k]
    boss = setup.boss
    value = 0.0
    if swollen is None:
        swollen = combat.over_cap(state, group) > 0
    for i in killed:
        e = group[i]
        if e == boss:
            value += BOSS_VALUE
        elif e > boss:
            value += 2.0
        else:
            value += 2.0 + (2.5 if setup.e_skill[e] == "carrier" else 0.0) + (1.0 if swollen else 0.0)
            if boss in group:  # a grunt shielding the boss
                value += 1.5
    return value


def attack_value(state, seat: int, square: int, k: int, ap: int, flags: int, grapples: int, cache=None) -> float:
    eff, pierce = combat.effective(state, square, k, ap, flags, grapples)
    range_ = bool(flags & RANGE)
    if cache is not None:
        key = (k, eff, pierce, range_)
        value = cache.get(key)
        if value is None:
            killed = combat.damage_plan(state, k, eff, pierce, range_)
            value = cache[key] = kill_value(state, k, killed, cache["swollen"][k]) if killed else 0.0
        return value
    killed = combat.damage_plan(state, k, eff, pierce, range_)
    return kill_value(state, k, killed) if killed else 0.0


class Board:
    """A snapshot of the groups for previews: each position's life, GP and kill value (built per
    group on first use), and a memo of ``value(k, ap, pierce, range)`` — the rules of
    ``combat.damage_plan`` on plain lists."""

    __slots__ = ("state", "rows", "memo")

    def __init__(self, state):
        self.state, self.rows, self.memo = state, [None] * 6, {}

    def row(self, k: int):
        state = self.state
        setup = state.setup
        boss = setup.boss
        g = state.groups[k]
        elife, egp, xgp, skill = state.elife, state.egp, state.xgp, setup.e_skill
        swollen = len(g) > setup.rules["group_cap"] and combat.over_cap(state, g) > 0
        bonus = 2.0 + (1.0 if swollen else 0.0) + (1.5 if boss in g else 0.0)
        row = self.rows[k] = ([elife[e] for e in g], [egp[e] + xgp[e] for e in g],
                              [BOSS_VALUE if e == boss else 2.0 if e > boss else
                               bonus + (2.5 if skill[e] == "carrier" else 0.0) for e in g])
        return row

    def value(self, k: int, ap: int, pierce, range_) -> float:
        key = (k << 12) | (ap << 2) | (2 if pierce else 0) | (1 if range_ else 0)
        value = self.memo.get(key)
        if value is not None:
            return value
        lives, gps, vals = self.rows[k] or self.row(k)
        value = 0.0
        if range_:
            for i in range(len(lives)):
                if (ap if pierce else ap - gps[i]) >= lives[i]:
                    value += vals[i]
        elif pierce:
            carry = ap
            for i in range(len(lives)):
                if carry < lives[i]:
                    break
                value += vals[i]
                carry -= lives[i]
                if carry <= 0:
                    break
        elif lives and ap - gps[0] >= lives[0]:
            value = vals[0]
        self.memo[key] = value
        return value

    def attack(self, state, square: int, k: int, ap: int, flags: int, grapples: int) -> float:
        eff, pierce = combat.effective(state, square, k, ap, flags, grapples)
        return self.value(k, eff, pierce, flags & RANGE)



def _has_op(setup, c, name) -> bool:
    """Whether card ``c``'s effect holds op ``name`` (a set per card, computed once per setup)."""
    table = setup.__dict__.get("_ops")
    if table is None:
        table = setup.__dict__["_ops"] = [frozenset(op for op, _ in effect) for effect in setup.c_effect]
    return name in table[c]


def _subsets(setup, cards, acts):
    """Distinct chains (ap, flags, grapples, cards) of up to ``acts`` cards, cheapest cards first."""
    seen = {}
    ordered = sorted(cards, key=lambda c: (card_worth(setup, c), c))
    for size in range(1, min(acts, len(ordered)) + 1):
        for combo in combinations(ordered, size):
            ap = flags = grapples = 0
            for c in combo:
                ap += setup.c_ap[c]
                flags |= setup.c_flags[c]
                grapples += bool(setup.c_flags[c] & 16)
            key = (ap, flags & 7, grapples)
            if key not in seen:
                seen[key] = (ap, flags, grapples, list(combo))
    return list(seen.values())


