"""Metroidvania: the ``effect:`` vocabulary (content/metroidvania/README.md), one function per op.

Each op is ``op(state, user, params, ctx)``. ``ctx`` is a small dict: ``level`` (the skill's L),
``boss`` (the boss in context, or -1), ``arg`` (the user's choice: a boss or a node), ``link``
(a derived event with the link icon: ``who: self`` becomes everyone) and ``source`` (for the log).
Numbers are ``n + per_level x L`` (+ the user's ``stat``). Modifiers that last (``duration``) are
kept in ``state.mods[seat]`` as ``(kind, a, b, until)`` and read by the check and the move.
Trait-only ops (damage_plus, forbid, regen, threat) are read by the check from the boss card; as
effects they do nothing.
"""
from __future__ import annotations

from typing import Final

from .metroidvania_setup import COLOURS, STATS

UNTIL: Final = {"instant": "check", "this_check": "check", "this_turn": "turn", "this_round": "round",
         "permanent": "perm", None: "check"}


def num(state, user, params, ctx) -> int:
    value = int(params.get("n") or 0) + int(params.get("per_level") or 0) * ctx.get("level", 0)
    stat = params.get("stat")
    if stat and stat != "none" and user >= 0:
        value += len(state.stacks[user][STATS.index(stat)])
    return value


def targets(state, user, params, ctx) -> list:
    who = params.get("who") or "self"
    if who == "self" and ctx.get("link"):
        who = "all"
    if who == "all" or user < 0:
        return list(range(state.n))
    if who == "room":
        node = state.pos[user]
        if state.setup.node_boss[node] >= 0:
            return [s for s in range(state.n) if state.pos[s] == node]
    return [user]


def boss_of(state, params, ctx) -> int:
    ref = params.get("boss")
    if ref:
        for b, boss in enumerate(state.setup.bosses):
            if boss["id"] == ref:
                return b
        return -1
    if ctx.get("boss", -1) >= 0:
        return ctx["boss"]
    return ctx.get("arg", -1)


def needs_boss(params) -> bool:
    return not params.get("boss")


def _add_mod(state, seats, kind, a, b, until):
    for s in seats:
        state.mods[s].append((kind, a, b, until))


def op_heal(state, user, p, ctx):
    n = num(state, user, p, ctx)
    for s in targets(state, user, p, ctx):
        state.heal(s, n)


def op_heal_full(state, user, p, ctx):
    for s in targets(state, user, p, ctx):
        state.heal(s, state.max_life[s])


def op_max_life(state, user, p, ctx):
    n = num(state, user, p, ctx)
    for s in targets(state, user, p, ctx):
        state.max_life[s] = max(1, state.max_life[s] + n)
        state.life[s] = max(1, min(state.max_life[s], state.life[s] + n))


def op_damage_reduce(state, user, p, ctx):
    _add_mod(state, targets(state, user, p, ctx), "dred", num(state, user, p, ctx), 0, UNTIL[p.get("duration")])


def op_danger(state, user, p, ctx):
    state.set_danger(state.danger + int(p.get("n") or 0))


def op_ap_bonus(state, user, p, ctx):
    _add_mod(state, [user], "apb", num(state, user, p, ctx), bool(p.get("all_dice")), UNTIL[p.get("duration")])


def op_reroll(state, user, p, ctx):
    """A reroll token: used now if the dice are on the table (post-roll), else kept for the next roll."""
    colour = p.get("colour") or "any"   # n -1: every die (all: true)
    token = (-1 if p.get("all") else num(state, user, p, ctx), COLOURS.index(colour) if colour in COLOURS else -1)
    chk = state.check
    if chk is not None and chk.rolled and chk.vals and user == state.active:
        chk.tokens.append(token)
    else:
        _add_mod(state, [user], "reroll", token[0], token[1], "check")


def op_recolour(state, user, p, ctx):
    to = p.get("to")
    _add_mod(state, [user], "recol", COLOURS.index(p.get("from")), COLOURS.index(to) if to in COLOURS else -1,
             "check")


def op_extra_dice(state, user, p, ctx):
    _add_mod(state, [user], "xdice", num(state, user, p, ctx), COLOURS.index(p.get("colour") or "white"), "check")


def op_die_step(state, user, p, ctx):
    _add_mod(state, [user], "step", int(p.get("n") or 1), 0, "check")


def op_ignore_slate(state, user, p, ctx):
    _add_mod(state, [user], "noslate", 0, 0, UNTIL[p.get("duration")])


def op_ignore_threat(state, user, p, ctx):
    _add_mod(state, targets(state, user, p, ctx), "nothreat", 0, 0, UNTIL[p.get("duration") or "this_turn"])


def op_multi_minus(state, user, p, ctx):
    _add_mod(state, [user], "mminus", int(p.get("n") or 1), 0, "check")


def op_criterion(state, user, p, ctx):
    _add_mod(state, targets(state, user, p, ctx), "crit", int(p.get("n") or 0), 0, UNTIL[p.get("duration")])


def op_auto_success(state, user, p, ctx):
    _add_mod(state, [user], "auto", 0, 0, "check")


def op_move_bonus(state, user, p, ctx):
    _add_mod(state, [user], "move", num(state, user, p, ctx), 0, UNTIL[p.get("duration") or "this_turn"])


def op_pass_key_rooms(state, user, p, ctx):
    _add_mod(state, [user], "passkey", 0, 0, UNTIL[p.get("duration") or "this_turn"])


def op_teleport(state, user, p, ctx):
    node = ctx.get("arg", -1)
    if node >= 0:
        state.relocate(user, node)


def op_explore(state, user, p, ctx):
    node = state.setup.node_index.get(p.get("node"), -1)
    if node >= 0 and state.setup.node_boss[node] < 0:
        state.mark(node)


def op_open_edge(state, user, p, ctx):
    ids = {state.setup.node_index.get(p.get("a")), state.setup.node_index.get(p.get("b"))}
    for sid, (a, b) in enumerate(state.setup.sealed):
        if {a, b} == ids and sid not in state.opened:
            state.opened.add(sid)
            state.opened_key = tuple(sorted(state.opened))
            state.log.append(("open", sid))


def op_peek_deck(state, user, p, ctx):
    if p.get("reorder", True):
        state.push_task(("peek", user, p.get("deck") or "room", num(state, user, p, ctx)))


def op_gain_item(state, user, p, ctx):
    item = p.get("item")
    for s in targets(state, user, {"who": "self"}, ctx):
        (state.keys if item == "key" else state.flowers)[s].append(-1)  # -1: an item token, no room card


def op_skill_level(state, user, p, ctx):
    for _ in range(int(p.get("n") or 1)):
        state.push_task(("level", user))


def op_refresh_skills(state, user, p, ctx):
    for s in targets(state, user, p, ctx):
        state.refresh(s)


def op_draw_skill(state, user, p, ctx):
    state.push_task(("pick", user, "skill", None))


def op_unlock_servant_skill(state, user, p, ctx):
    for s in targets(state, user, p, ctx):
        state.unlock_second(s)


def op_level_up(state, user, p, ctx):
    for s in targets(state, user, p, ctx):
        state.push_task(("place", s, None))


def op_boss_life(state, user, p, ctx):
    b = boss_of(state, p, ctx)
    if b >= 0 and not state.b_dead[b]:
        n = int(p.get("n") or 0)
        state.b_delta[b] += n
        if state.b_active[b]:   # the fight's full life changes too: regen never climbs back above it
            state.b_life[b] = max(1, state.b_life[b] + n)
            state.b_start[b] = max(1, state.b_start[b] + n)
        state.log.append(("boss_life", b, n))


def op_boss_damage(state, user, p, ctx):
    b = boss_of(state, p, ctx)
    if b >= 0 and state.b_active[b] and not state.b_dead[b]:
        state.hit_boss(b, num(state, user, p, ctx), user)


def op_boss_skip_action(state, user, p, ctx):
    b = boss_of(state, p, ctx)
    if b >= 0:
        state.b_skip[b] |= 1 << (int(p.get("index") or 1) - 1)


def op_boss_action_mod(state, user, p, ctx):
    b = boss_of(state, p, ctx)
    if b >= 0:
        state.b_mods[b] = state.b_mods[b] + ((int(p.get("index") or 0), int(p.get("difficulty") or 0),
                                              int(p.get("multi_minus") or 0), bool(p.get("remove_slate"))),)


def op_forbid_trait(state, user, p, ctx):
    b = boss_of(state, p, ctx)
    if b >= 0:
        state.b_trait_off[b] = True


def op_reveal_weakness(state, user, p, ctx):
    b = boss_of(state, p, ctx)
    if b < 0:
        return
    if p.get("duration") in (None, "permanent"):
        state.b_weak[b] = True
    else:
        _add_mod(state, [user], "weak", b, 0, UNTIL[p.get("duration")])


def op_trait_only(state, user, p, ctx):
    """damage_plus, forbid, regen, threat: read from the boss card by the check."""


OPS: Final = {
    "heal": op_heal, "heal_full": op_heal_full, "max_life": op_max_life, "damage_reduce": op_damage_reduce,
    "damage_plus": op_trait_only, "danger": op_danger, "ap_bonus": op_ap_bonus, "reroll": op_reroll,
    "recolour": op_recolour, "extra_dice": op_extra_dice, "die_step": op_die_step, "ignore_slate": op_ignore_slate,
    "ignore_threat": op_ignore_threat, "multi_minus": op_multi_minus, "criterion": op_criterion,
    "auto_success": op_auto_success, "move_bonus": op_move_bonus, "pass_key_rooms": op_pass_key_rooms,
    "teleport": op_teleport, "explore": op_explore, "open_edge": op_open_edge, "peek_deck": op_peek_deck,
    "gain_item": op_gain_item, "skill_level": op_skill_level, "refresh_skills": op_refresh_skills,
    "draw_skill": op_draw_skill, "unlock_servant_skill": op_unlock_servant_skill, "level_up": op_level_up,
    "boss_life": op_boss_life, "boss_damage": op_boss_damage, "boss_skip_action": op_boss_skip_action,
    "boss_action_mod": op_boss_action_mod, "forbid": op_trait_only, "forbid_trait": op_forbid_trait,
    "regen": op_trait_only, "threat": op_trait_only, "reveal_weakness": op_reveal_weakness,
}

# Which arguments a user must choose when using an effect list: "boss" (an undefeated boss, when the
# effect names none and no boss is in context) or "node" (teleport destination).
BOSS_OPS: Final = ("boss_life", "boss_damage", "boss_skip_action", "boss_action_mod", "forbid_trait", "reveal_weakness")


def arg_kind(effect) -> str | None:
    for op, p in effect:
        if op == "teleport":
            return "node"
    for op, p in effect:
        if op in BOSS_OPS and needs_boss(p):
            return "boss"
    return None

