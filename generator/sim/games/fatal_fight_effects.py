"""Fatal Fight: the ``effect:`` ops, each implemented once.

A handler is ``handler(state, seat, params, source)``: ``seat`` is the acting player (``None``
for enemies, bosses and stage gimmicks), ``params`` the op's fields from the YAML and ``source``
the respawn index (0..5) of an enemy group, or ``None``. Handlers change the state only through
the state's own primitives (``hurt``, ``heal``, ``draw``, ``spawn`` ...), which log events.

``OPS`` is the vocabulary the setup compiler accepts; an op missing here is reported with its
file and line instead of crashing a simulation.
"""
from __future__ import annotations


def _n(params) -> int:
    return int(params.get("n", 0))


# ---- player-side ops ---------------------------------------------------------------------------

def op_heal(state, seat, params, source):
    target = params.get("target", "self")
    seats = _party_targets(state, seat, target)
    for s in seats:
        state.heal(s, _n(params))


def op_draw(state, seat, params, source):
    if seat is not None:
        state.draw(seat, _n(params))


def op_guard(state, seat, params, source):
    for s in _party_targets(state, seat, params.get("target", "self")):
        state.gain_gp(s, _n(params))


def op_gain_action(state, seat, params, source):
    if seat is not None and seat == state.seat:
        state.actions_left += _n(params)


def op_move(state, seat, params, source):
    if seat is not None and seat == state.seat:
        state.free_moves += _n(params)


def op_gold(state, seat, params, source):
    state.add_gold(_n(params), "effect")


def op_ap(state, seat, params, source):
    """+n AP to the open chain (nothing when no chain is open)."""
    if state.chain:
        state.chain_ap += _n(params)


def op_life(state, seat, params, source):
    """Pay (negative n) or gain life without the max-life cap check on payment."""
    if seat is not None:
        if _n(params) < 0:
            state.hurt(seat, -_n(params), pierce=True, cause="life")
        else:
            state.heal(seat, _n(params))


def op_supply(state, seat, params, source):
    """Give a supply card (by id) to ``seat``, or to every active player in the square."""
    targets = [seat] if seat is not None else state.active_seats()
    for s in targets:
        state.give_supply(s, params["id"])


def op_damage_enemies(state, seat, params, source):
    """n damage to every enemy of the groups on the acting player's line (an area blast)."""
    state.blast(seat, _n(params), params.get("scope", "line"))


# ---- enemy, boss and gimmick ops ---------------------------------------------------------------

def op_damage(state, seat, params, source):
    """n damage to players: ``target`` all | line (of the source group) | line:U/M/D | area:L/C/R."""
    pierce = bool(params.get("pierce", False))
    for s in _player_targets(state, params.get("target", "all"), source):
        state.hurt(s, _n(params), pierce=pierce, cause="skill")


def op_spawn(state, seat, params, source):
    """Draw n enemies onto respawn ``respawn`` (1..6) or onto the source group."""
    k = int(params["respawn"]) - 1 if "respawn" in params else source
    if k is not None:
        state.spawn(k, _n(params))


def op_boss_guard(state, seat, params, source):
    state.boss_gp += _n(params)


def op_boss_heal(state, seat, params, source):
    """Raise the boss's life by n, up to its starting life."""
    state.boss_life = min(state.boss_life_max, state.boss_life + _n(params))


def op_debuff(state, seat, params, source):
    """N11: shuffle a debuff card into the discard pile of the players hit (only with the switch)."""
    if state.setup.switches["n11_debuffs"]:
        for s in _player_targets(state, params.get("target", "line"), source):
            state.add_debuff(s)


def op_discard(state, seat, params, source):
    """Each targeted player discards n cards from hand (the last drawn first)."""
    for s in _player_targets(state, params.get("target", "all"), source):
        state.discard_from_hand(s, _n(params))


def op_pickup(state, seat, params, source):
    """Place supply ``id`` on square ``square`` (e.g. C-U); the first player to end a move there takes it."""
    state.place_pickup(params["square"], params["id"])


def op_block(state, seat, params, source):
    """Square ``square`` cannot be entered while this stage card is in play."""
    state.block_square(params["square"])


# ---- targeting helpers -------------------------------------------------------------------------

def _party_targets(state, seat, target):
    if target == "self":
        return [seat] if seat is not None else []
    if target == "square" and seat is not None:
        return [s for s in state.active_seats() if state.pos[s] == state.pos[seat]]
    return state.active_seats()


def _player_targets(state, target, source):
    seats = state.active_seats()
    if target == "all":
        return seats
    if target == "line":
        line = (source if source is not None else state.boss_group()) % 3 if (
            source is not None or state.boss_group() is not None) else None
        return [s for s in seats if line is not None and state.pos[s] % 3 == line]
    kind, _, where = target.partition(":")
    if kind == "line":
        line = "UMD".index(where)
        return [s for s in seats if state.pos[s] % 3 == line]
    if kind == "area":
        area = "LCR".index(where)
        return [s for s in seats if state.pos[s] // 3 == area]
    raise ValueError(f"unknown damage target {target!r}")


OPS = {
    "heal": op_heal, "draw": op_draw, "guard": op_guard, "gain_action": op_gain_action, "move": op_move,
    "gold": op_gold, "ap": op_ap, "life": op_life, "supply": op_supply, "damage_enemies": op_damage_enemies,
    "damage": op_damage, "spawn": op_spawn, "boss_guard": op_boss_guard, "boss_heal": op_boss_heal,
    "debuff": op_debuff, "discard": op_discard, "pickup": op_pickup, "block": op_block,
}
