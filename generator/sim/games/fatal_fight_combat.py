"""Fatal Fight: targeting and damage (spec §3 A4), shared by the engine and the greedy agent.

A group is a list of ints, head first: enemy cards ``0 .. E-1``, the boss ``E`` (``setup.boss``)
and breakable obstacles above ``E``. Their life and GP live in the state's ``elife``, ``egp``
(printed guard, refreshed each round) and ``xgp`` (skill GP, cleared at the next enemy phase).
``damage_plan`` never mutates, so an agent previews an attack with a few list lookups instead
of a ``clone()``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .fatal_fight_setup import LAUNCH, PIERCE, RANGE

if TYPE_CHECKING:
    from .fatal_fight import State
    from .fatal_fight_flow import Flow


def targets(state: State, square: int, flags: int) -> list[int]:
    """Respawn indices (0..5) of the groups an attack from ``square`` with ``flags`` may target."""
    groups = state.groups
    if flags & LAUNCH:
        out = []
        for k in range(6):  # plain loops here: a comprehension is a function frame a call in Python 3.11
            if groups[k]:
                out.append(k)
        return out
    line, area = square % 3, square // 3
    any_area = state.setup.play.n1
    out = []
    if groups[line] and (any_area or area <= 1):
        out.append(line)
    if groups[line + 3] and (any_area or area >= 1):
        out.append(line + 3)
    return out


def is_cqb(square: int, k: int) -> bool:
    """The target group is in the attacker's own area (Close Quarters Battle, L256)."""
    return square // 3 == (0 if k < 3 else 2)


def effective(state: State, square: int, k: int, ap: int, flags: int, grapples: int) -> tuple[int, bool]:
    """AP and pierce after the close-quarters rule: CQB pierce (RAW) or grapple power (N2)."""
    pierce = bool(flags & PIERCE)
    if square // 3 == (0 if k < 3 else 2):  # is_cqb, inlined: the previews call this ~1,000 times a game
        rules = state.setup.play
        if rules.n2:
            ap += grapples * rules.n2_bonus
        else:
            pierce = True
    return ap, pierce


def damage_plan(state: State, k: int, ap: int, pierce: bool, range_: bool) -> list[int]:
    """Positions (in group ``k``, ascending) of what this attack defeats."""
    group = state.groups[k]
    elife, egp, xgp = state.elife, state.egp, state.xgp
    killed = []
    if range_:
        for i, e in enumerate(group):
            if (ap if pierce else ap - egp[e] - xgp[e]) >= elife[e]:
                killed.append(i)
        return killed
    carry = ap
    for i, e in enumerate(group):
        eff = carry if pierce else carry - egp[e] - xgp[e]
        if eff < elife[e]:
            break
        killed.append(i)
        carry = eff - elife[e]
        if not pierce or carry <= 0:
            break
    return killed


def spend_gp(state: State, k: int, ap: int, range_: bool) -> None:
    """A non-pierce hit spends the GP of what it reached (the head, or everyone with range)."""
    group = state.groups[k]
    egp, xgp = state.egp, state.xgp
    for e in (group if range_ else group[:1]):  # conditionals: builtin min and max parse keywords at every call
        used = xgp[e] if xgp[e] < ap else ap
        xgp[e] -= used
        left = egp[e] - (ap - used)
        egp[e] = left if left > 0 else 0


def resolve(state: State, seat: int, k: int, ap: int, flags: int, grapples: int) -> int:
    """Apply an attack to group ``k``; return how many it defeated."""
    eff_ap, pierce = effective(state, state.pos[seat], k, ap, flags, grapples)
    range_ = bool(flags & RANGE)
    killed = damage_plan(state, k, eff_ap, pierce, range_)
    group = state.groups[k]
    gone = list(map(group.__getitem__, killed))  # no comprehension frame
    if not pierce:
        boss = state.setup.boss
        before = state.xgp[boss] + state.egp[boss]
        spend_gp(state, k, eff_ap, range_)
        after = state.xgp[boss] + state.egp[boss]
        if after != before:  # the hit reached the boss and spent its GP: the trace shows what is left
            state.log.append(("boss_gp", before, after, "spends"))
    for i in reversed(killed):
        group.pop(i)
    for e in gone:
        state.defeated(k, e, seat)
    return len(gone)


def group_size(state: Flow, group: list[int]) -> int:
    """Combat damage of a group: its enemies, the boss's weight (G9), the head's strike."""
    boss = state.setup.boss
    size = 0
    for e in group:
        if e < boss:
            size += 1
        elif e == boss:
            size += state.setup.play.boss_size
    if group and group[0] < boss:
        size += state.setup.e_strike[group[0]]
    return size


def over_cap(state: Flow, group: list[int]) -> int:
    """Enemies beyond the group cap (mass damage); obstacles never count, the boss per G9."""
    rules = state.setup.play
    if len(group) <= rules.group_cap:
        return len(group) - rules.group_cap
    boss = state.setup.boss
    boss_counts = rules.boss_counts_toward_cap
    n = 0
    for e in group:  # a loop, not sum() over a generator: the threat map asks ~400 times a game
        if e < boss or (e == boss and boss_counts):
            n += 1
    return n - rules.group_cap


def threat(state: State, square: int) -> int:
    """Expected damage on ``square`` next enemy phase before GP (spec §6 threat map)."""
    line = square % 3
    groups = state.groups
    total = group_size(state, groups[line]) + group_size(state, groups[line + 3])
    cap = state.setup.play.group_cap
    for g in groups:
        if len(g) > cap:
            over = over_cap(state, g)
            if over > 0:
                total += over
    return total
