"""Fatal Fight: the ``effect:`` ops of content/fatal-fight/schema.yaml, each implemented once.

A handler is ``handler(state, seat, params, ctx)``: ``seat`` is the player resolving it (``None``
for boss skills and stage gimmicks), ``params`` the op's fields as written in the YAML, ``ctx``
the gimmick's identity for stage effects (else ``None``). Handlers change the state only through
the state's primitives (``hurt``, ``heal``, ``draw``, ``spawn`` ...), which log events.

Where the schema leaves a choice to a player ("one ally of the resolver's choice", "discards of
their choice"), the engine decides by a fixed, documented rule so effects never need extra
decisions: ally = the active ally in the square with the least life; discards = the lowest-AP
cards. Supplies over ``max_carry`` (G3) are the one exception: the player chooses which to
discard, after the action (``fatal_fight_actions.discard_down``).

``OPS`` is the vocabulary the setup compiler accepts; an op missing here is reported with its
file and line instead of crashing a simulation.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Optional

if TYPE_CHECKING:
    from .fatal_fight import State

_SUB_BITS: Final = (("range", 1), ("pierce", 2), ("launch", 4))  # RANGE, PIERCE, LAUNCH of fatal_fight_setup


def _who(state: State, seat: Optional[int], who):
    if seat is None:
        return []
    if who == "self":
        return [seat]
    here = [s for s in state.active_seats() if state.pos[s] == state.pos[seat]]
    if who == "square":
        return here
    allies = [s for s in here if s != seat]
    return [min(allies, key=lambda s: (state.life[s], s))] if allies else []


def op_gain_action(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    if seat == state.turn_pos:
        state.actions_left += p["n"]


def op_draw(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    if seat is not None:
        state.draw(seat, p["n"])


def op_heal(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    for s in _who(state, seat, p.get("who", "self")):
        state.heal(s, p["n"])


def op_guard(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    for s in _who(state, seat, p.get("who", "self")):
        state.gain_gp(s, p["n"])


def op_move_self(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    if seat == state.turn_pos:
        state.free_moves += p["n"]


def op_gold(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    state.add_gold(p["n"], "effect")


def op_chain_ap(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    state.chain_mod(("ap", p["n"], p.get("when", "always")))


def op_chain_sub(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    bits = sum(bit for name, bit in _SUB_BITS if p.get(name))
    state.chain_mod(("flags", bits, p.get("when", "always")))


def op_add_hits(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    state.chain_mod(("hits", p["n"], p.get("when", "always")))


def op_strike(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    bits = sum(bit for name, bit in _SUB_BITS if p.get(name))
    state.strike(seat, p["ap"], bits)


def op_gain_supply(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    if seat is not None:
        for _ in range(p.get("n", 1)):
            state.give_supply(seat, p["supply"])


def op_save(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    downed = [s for s in range(state.n) if state.is_down(s)]
    if downed:
        state.revive(seat, downed[0])


def op_damage(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    for s in targets(state, p):
        state.hurt(s, p["n"], pierce=bool(p.get("pierce")), cause="skill")


def op_spawn(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    state.spawn(state.respawn_index(p["respawn"]), p["n"])


def op_enemy_guard(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    boss = state.setup.boss
    before = state.xgp[boss]
    if p["target"] == "boss":
        if state.boss_group() is not None:
            state.xgp[boss] += p["n"]
    else:
        for g in state.groups:
            if g and g[0] <= boss:
                state.xgp[g[0]] += p["n"]
    if state.xgp[boss] != before:  # the boss's GP, as the trace shows it
        state.log.append(("boss_gp", before + state.egp[boss], state.xgp[boss] + state.egp[boss], "gains"))


def op_discard(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    for s in targets(state, p):
        state.discard_from_hand(s, p["n"])


def op_boss_move(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    state.boss_move()


def op_block(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    state.block_square(p["square"])


def op_breakable(state: State, seat: Optional[int], p: dict[str, Any], ctx):
    state.place_obstacle(state.respawn_index(p["respawn"]), p["life"], p["reward"], ctx)


def targets(state: State, p: dict[str, Any]) -> list[int]:
    """Players hit by an enemy-side effect (``player_target`` of the schema)."""
    seats = state.active_seats()
    target = p["target"]
    if target == "all":
        return seats
    if target == "boss_line":
        k = state.boss_group()
        return [] if k is None else [s for s in seats if state.pos[s] % 3 == k % 3]
    if target == "most_life":
        return [max(seats, key=lambda s: (state.life[s], -s))] if seats else []
    if target == "line":
        return [s for s in seats if state.pos[s] % 3 == "UMD".index(p["line"])]
    if target == "area":
        return [s for s in seats if state.pos[s] // 3 == "LCR".index(p["area"])]
    square = "LCR".index(p["square"][0]) * 3 + "UMD".index(p["square"][2])
    return [s for s in seats if state.pos[s] == square]


OPS: Final = {
    "gain_action": op_gain_action, "draw": op_draw, "heal": op_heal, "guard": op_guard,
    "move_self": op_move_self, "gold": op_gold, "chain_ap": op_chain_ap, "chain_sub": op_chain_sub,
    "add_hits": op_add_hits, "strike": op_strike, "gain_supply": op_gain_supply, "save": op_save,
    "damage": op_damage, "spawn": op_spawn, "enemy_guard": op_enemy_guard, "discard": op_discard,
    "boss_move": op_boss_move, "block": op_block, "breakable": op_breakable,
}
