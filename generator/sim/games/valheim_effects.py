"""Valheim: what revealed cards and built facilities add to one main phase — the ``effect:``
ops of content/valheim/schema.yaml that change numbers (extra AP, free steps, discounts, power,
rerolls, peeks, hand size, base links), summed into one ``Mods`` record.

The state keeps two: ``fac`` (every facility built so far, forever) and ``mods`` (``fac`` plus
the cards revealed this cycle, rebuilt at each reveal). Ops that act at once (draw, gain, pay)
are resolved by the flow (``valheim_flow.Flow.reveal``), not summed here.
"""
from __future__ import annotations


# the slots of Mods, named (a class compiled by mypyc has no __slots__ to read back; a test reads these)
MODS_SLOTS = ("extra_ap", "free", "trash", "mdisc", "edisc", "choose", "yield_", "gdisc", "p_all", "p_enemy",
              "p_boss", "p_raid", "reroll", "peek", "cd_equip", "cd_fac", "hand", "link", "extra_level")


class Mods:
    """What revealed cards and built facilities add to one main phase."""

    __slots__ = MODS_SLOTS
    extra_ap: list[int]
    free: list[int]
    trash: int
    mdisc: int
    edisc: int
    choose: int
    yield_: int
    gdisc: int
    p_all: int
    p_enemy: int
    p_boss: int
    p_raid: int
    reroll: int
    peek: int
    cd_equip: int
    cd_fac: int
    hand: int
    link: int
    extra_level: int

    def __init__(self) -> None:
        self.extra_ap = [0] * 5
        self.free = [0] * 5
        self.trash = self.mdisc = self.edisc = self.choose = self.yield_ = self.gdisc = 0
        self.p_all = self.p_enemy = self.p_boss = self.p_raid = 0
        self.reroll = self.peek = self.cd_equip = self.cd_fac = 0
        self.hand = self.link = self.extra_level = 0

    def copy(self) -> "Mods":
        # field by field, not a loop over __slots__ with getattr/setattr: copied at every reveal
        # (the kept facilities are the start of each main phase's Mods). test_mods_copy_* keeps
        # this list in step with __slots__.
        twin = Mods.__new__(Mods)
        twin.extra_ap = list(self.extra_ap)
        twin.free = list(self.free)
        twin.trash, twin.mdisc, twin.edisc, twin.choose = self.trash, self.mdisc, self.edisc, self.choose
        twin.yield_, twin.gdisc, twin.p_all, twin.p_enemy = self.yield_, self.gdisc, self.p_all, self.p_enemy
        twin.p_boss, twin.p_raid, twin.reroll, twin.peek = self.p_boss, self.p_raid, self.reroll, self.peek
        twin.cd_equip, twin.cd_fac, twin.hand = self.cd_equip, self.cd_fac, self.hand
        twin.link, twin.extra_level = self.link, self.extra_level
        return twin

    def add(self, op: str, p: dict) -> None:
        """Add one effect (op, params) that lasts for a main phase (or forever, on a facility)."""
        n = p.get("n", 0)
        counter = _COUNTERS.get(op)
        if counter is not None:
            setattr(self, counter, getattr(self, counter) + n)
        elif op == "extra_ap":
            self.extra_ap[p["action"]] += n
        elif op == "free_steps":
            self.free[p["action"]] += n
        elif op == "power":
            counter = _POWER_VS.get(p["vs"], "p_raid")
            setattr(self, counter, getattr(self, counter) + n)
        elif op == "craft_discount":
            kind = p["kind"]
            if kind in ("equipment", "any"):
                self.cd_equip += n
            if kind in ("facility", "any"):
                self.cd_fac += n
        elif op == "link_bases":
            self.link = 1


# ops that add their ``n`` to one counter of Mods
_COUNTERS = {"trash": "trash", "market_discount": "mdisc", "edge_discount": "edisc", "choose_tile": "choose",
             "extra_yield": "yield_", "gather_discount": "gdisc", "reroll": "reroll", "peek_enemy": "peek",
             "hand_size": "hand", "extra_level_up": "extra_level"}
_POWER_VS = {"all": "p_all", "enemy": "p_enemy", "boss": "p_boss"}  # anything else: raids
