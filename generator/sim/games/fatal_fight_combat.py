"""Fatal Fight: targeting and damage (spec §3 A4), shared by the engine and the greedy agent.

Pure functions over the state's board; ``damage_plan`` never mutates, so agents can preview an
attack for the price of a few list lookups instead of a ``clone()``.
"""
from __future__ import annotations

from .fatal_fight_setup import LAUNCH, PIERCE, RANGE

BOSS = -1  # the boss's entry in a group


def group_area(k: int) -> int:
    """Area (0 = L, 2 = R) of respawn index k (0..5)."""
    return 0 if k < 3 else 2


def targets(state, square: int, flags: int) -> list[int]:
    """Respawn indices of the groups an attack from ``square`` with ``flags`` may target."""
    groups = state.groups
    if flags & LAUNCH:
        return [k for k in range(6) if groups[k]]
    line = square % 3
    area = square // 3
    any_area = state.setup.switches["n1_no_range"]
    out = []
    for k in (line, line + 3):
        if groups[k]:
            ga = 0 if k < 3 else 2
            if any_area or ga == area or area == 1:
                out.append(k)
    return out


def is_cqb(square: int, k: int) -> bool:
    return square // 3 == (0 if k < 3 else 2)


def effective(state, square: int, k: int, ap: int, flags: int, grapples: int) -> tuple[int, bool]:
    """AP and pierce after close-quarters rules: CQB pierce (RAW) or grapple power (N2)."""
    pierce = bool(flags & PIERCE)
    if is_cqb(square, k):
        if state.setup.switches["n2_grapple"]:
            ap += grapples * state.setup.rules["grapple_bonus"]
        else:
            pierce = True
    return ap, pierce


def damage_plan(state, k: int, ap: int, pierce: bool, range_: bool) -> list[int]:
    """Positions (in group ``k``, ascending) of the enemies this attack defeats."""
    group = state.groups[k]
    setup = state.setup
    e_life, egp = setup.e_life, state.egp
    killed = []
    if range_:
        for i, e in enumerate(group):
            if e == BOSS:
                life, gp = state.boss_life, state.boss_gp
            else:
                life, gp = e_life[e], egp[e]
            if (ap if pierce else ap - gp) >= life:
                killed.append(i)
        return killed
    carry = ap
    for i, e in enumerate(group):
        if e == BOSS:
            life, gp = state.boss_life, state.boss_gp
        else:
            life, gp = e_life[e], egp[e]
        eff = carry if pierce else carry - gp
        if eff < life:
            break
        killed.append(i)
        carry = eff - life
        if not pierce or carry <= 0:
            break
    return killed


def spend_gp(state, k: int, ap: int, killed: list[int], range_: bool) -> None:
    """Non-pierce hits spend the GP of the enemies they reached (head only, or all with range)."""
    group = state.groups[k]
    reached = group if range_ else group[:1] if not killed else group[:max(killed) + 1]
    for e in reached:
        if e == BOSS:
            state.boss_gp = max(0, state.boss_gp - ap)
        else:
            state.egp[e] = max(0, state.egp[e] - ap)


def resolve(state, seat: int, k: int, ap: int, flags: int, grapples: int) -> tuple[int, bool]:
    """Apply a closed chain to group ``k``; return (enemies defeated, boss defeated)."""
    eff_ap, pierce = effective(state, state.pos[seat], k, ap, flags, grapples)
    range_ = bool(flags & RANGE)
    killed = damage_plan(state, k, eff_ap, pierce, range_)
    if not pierce:
        spend_gp(state, k, eff_ap, killed, range_)
    group = state.groups[k]
    boss_dead = False
    for i in reversed(killed):
        e = group.pop(i)
        if e == BOSS:
            boss_dead = True
        state.defeated(k, e, seat)
    return len(killed), boss_dead


def threat(state, square: int, seat: int | None = None) -> int:
    """Expected combat damage on ``square`` next enemy phase (spec §6 threat map), before GP."""
    line = square % 3
    cap = state.setup.rules["group_cap"]
    total = 0
    for k in (line, line + 3):
        g = state.groups[k]
        if g:
            total += len(g)
    for g in state.groups:
        over = sum(1 for e in g if e != BOSS) - cap
        if over > 0:
            total += over
    return total
