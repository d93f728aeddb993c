"""Metroidvania: checks (spec §3.4-3.6: rooms, boss actions, danger rooms), damage, sub-events and
death as a State mixin.

A check is started when a room card is kept or a boss room entered, rolled (or auto-succeeded),
resolved by the plan the player picks after seeing the dice, and then applies its damage, its
sub-event and death, in the spec's order.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..state import memo_table, setup_memo
from . import metroidvania_dice as dice
from .metroidvania_flow import ST_DMG, ST_END, ST_NEXT, ST_POST, ST_PRE, ST_SUCC, TurnFlow
from .metroidvania_setup import PIE, WHITE


_CHECK_SLOTS = ("kind", "node", "card", "boss", "action", "d", "multi", "slate", "prompts", "size", "vals", "cols",
                "rolled", "success", "fail", "side", "damage", "plan", "auto", "sub", "spec", "area", "crit",
                "threats", "asc", "noskills", "slate_dmg", "tokens", "reread")   # (a class compiled by mypyc has
# no __slots__ to read back)


class Check:
    """The check being resolved (a room card, a boss action, or a danger room's damage)."""

    __slots__ = _CHECK_SLOTS
    kind: str
    node: int
    card: int
    boss: int
    action: int
    d: int
    multi: int
    slate: int
    prompts: tuple
    size: int
    vals: list[int]
    cols: list[int]
    rolled: bool
    success: bool
    fail: int
    side: int
    damage: int
    plan: tuple | None
    auto: bool
    sub: int
    spec: Any
    area: int
    crit: int
    threats: tuple
    asc: bool
    noskills: bool
    slate_dmg: int
    tokens: list[tuple]
    reread: bool

    def __init__(self, kind: str = "", node: int = -1) -> None:   # (defaults: a compiled Check.__new__ calls it)
        self.kind, self.node = kind, node
        self.card = self.boss = self.action = -1
        self.d, self.multi, self.slate, self.prompts = 0, 1, -1, ()
        self.size, self.vals, self.cols = 0, [], []
        self.rolled = self.success = self.auto = self.noskills = False
        self.fail = self.side = self.damage = 0
        self.plan, self.spec, self.sub = None, None, 0
        self.area, self.crit, self.threats, self.asc, self.slate_dmg = -1, 0, (), True, 0
        self.tokens = []
        self.reread = False  # a power or flower was used since the boss terms were read

    def copy(self) -> "Check":
        twin = Check.__new__(Check)
        for name in _CHECK_SLOTS:
            setattr(twin, name, getattr(self, name))
        twin.vals, twin.cols, twin.tokens = list(self.vals), list(self.cols), list(self.tokens)
        return twin


class Checks(TurnFlow):
    __slots__ = ()

    def start_room_check(self, card: int) -> None:
        room = self.setup.rooms[card]
        chk = Check("room", self.pos[self.active])
        chk.card = card
        chk.d, chk.multi, chk.slate, chk.prompts, chk.sub = room["d"], room["multi"], room["slate"], room["prompts"], \
            room["sub"]
        self._area_rules(chk, "room_checks")
        self.check = chk
        self.step = ST_PRE

    def start_boss_check(self, b: int) -> None:
        s = self.active
        if not self.b_active[b]:
            self.b_active[b] = True
            self.b_life[b] = self.b_start[b] = self.boss_life_now(b)
            self.b_ptr[b] = 0
            self.log.append(("boss_in", s, b, self.b_life[b]))
        n_actions = len(self.setup.bosses[b]["actions"])
        guard = 0
        while self.b_skip[b] >> self.b_ptr[b] & 1 and guard < n_actions:
            self.advance_pointer(b, s)
            guard += 1
        chk = Check("boss", self.pos[s])
        chk.boss, chk.action = b, self.b_ptr[b]
        self._boss_terms(chk)
        self.check = chk
        self.step = ST_PRE

    def _boss_terms(self, chk: Check) -> None:
        """The boss action's difficulty/multi/slate, the area effects and the trait as they stand now.

        Read when the check starts (the pre-roll window needs them) and again at the roll: a weakness
        revealed in the pre-roll window (叡智の眼 sk102 “判定前：…弱点看破”) applies to this check."""
        s, b = self.active, chk.boss
        chk.d, chk.multi, chk.slate = self.boss_action(b, s, chk.action)
        chk.threats, chk.asc, chk.noskills, chk.crit, chk.fail = (), True, False, 0, 0
        self._area_rules(chk, "boss_checks")
        if self.trait_active(b, s):
            for op, p in self.setup.bosses[b]["trait"]:
                if op == "forbid":
                    if p.get("what") == "ascension":
                        chk.asc = False
                    else:
                        chk.noskills = True
                elif op == "threat":
                    chk.threats = chk.threats + (("red", "blue", "black").index(p.get("colour")),)
                elif op == "criterion":
                    chk.crit += int(p.get("n") or 0)
                elif op == "damage_plus":
                    chk.fail += int(p.get("n") or 0)

    def _area_rules(self, chk: Check, scope: str) -> None:
        a = self.setup.area[chk.node]
        chk.area = a
        if a >= 0 and scope in self.setup.play.scope and self.area_active(a):
            effects = self.setup.areas[a]["effects"]
            chk.threats = self.setup.areas[a]["threats"]
            if "no_ascension" in effects:
                chk.asc = False

    def criterion_for(self, s: int) -> int:
        return self.crit + self.mod_sum(s, "crit") + (self.check.crit if self.check is not None else 0)

    def roll(self) -> None:
        """Roll the check's dice (§3.4.1-2), or succeed at once under auto_success."""
        s, chk, play = self.active, self.check, self.setup.play
        assert chk is not None
        chk.rolled = True
        if chk.kind == "boss" and chk.reread:  # only a use in the pre-roll window can change them
            self._boss_terms(chk)
        if self.has_mod(s, "auto") and self._single(chk):
            chk.auto = chk.success = True
            chk.side = 0
            self.log.append(("check", s, chk.node, self._source(chk), 0, True, 0))
            self._after_resolution()
            return
        if self.has_mod(s, "noslate"):
            chk.slate = -1
        multi = chk.multi - self.mod_sum(s, "mminus")
        chk.multi = multi if multi > 1 else 1   # max(1, ...) without a builtin call (every roll)
        step = self.mod_sum(s, "step")
        chk.size = self.die_size(s, step)
        cols = list(play.coloured) + [WHITE] * (self.stat(s, PIE) * play.white_dice_per_pie)
        for m in self.mods_of(s, "xdice"):
            cols += [m[2]] * m[1]
        rand = self.rng.random
        size = chk.size
        chk.cols = cols
        chk.vals = vals = []
        for _ in cols:   # (plain loops here and below: a comprehension costs a function frame in Python 3.11)
            vals.append(1 + int(rand() * size))
        chk.tokens = []
        if self.mods[s]:   # (most rolls: no modifier at all)
            chk.tokens = [(m[1], m[2]) for m in self.mods_of(s, "reroll")]
            self.mods[s] = [m for m in self.mods[s] if m[0] != "reroll"]
        self.log.append(("roll", s, size, tuple(chk.vals), tuple(cols)))
        if chk.kind == "room" and not chk.prompts:
            self.log.append(("checkp", self.setup.rooms[chk.card]["id"], size, len(cols), self.criterion_for(s) + chk.d,
                             chk.multi, chk.slate >= 0, chk.asc, self.stat(s, PIE)))
        self.step = ST_POST

    def spec(self) -> dice.Spec:
        """What the current roll must achieve, with every modifier of the turn player: asked once per
        decision (the agent and the legality check both ask; ``apply_action`` forgets it) and shared for the
        process by everything it reads (``_spec_key``): most rolls are a check seen before (the same room or
        boss action, danger and build), and building a Spec costs ~5x its key. Read-only: ``copy()`` it to
        try changes."""
        if self._spec is None:
            key = self._spec_key()
            found = memo_table(self.setup, "_spec").get(key)   # a hit without setup_memo's call (~90 % of rolls)
            self._spec = found if found is not None else setup_memo(self.setup, "_spec", key, self._spec_now)
        return self._spec

    def _spec_key(self) -> tuple:
        """What ``_spec_now`` reads besides the rules: the check's terms, the round's criterion, danger, her Pie
        and her modifiers (criterion, AP bonuses, recolours, the threat ward: all of them, as they stand)."""
        s, chk = self.active, self.check
        mods = self.mods[s]
        return (chk.d, chk.multi, chk.slate, chk.prompts, chk.asc, chk.threats, chk.fail, chk.crit, self.crit,
                self.danger, len(self.stacks[s][PIE]), tuple(mods) if mods else ())

    def _spec_now(self) -> dice.Spec:
        s, chk, play = self.active, self.check, self.setup.play
        crit = self.criterion_for(s)
        single, all_b = [], 0
        for m in self.mods_of(s, "apb"):
            if m[2]:
                all_b += m[1]
            else:
                single.append(m[1])
        threats = () if self.has_mod(s, "nothreat") else chk.threats
        # (no comprehension for the usual empty prompts and recolours: each costs a function frame)
        prompts = tuple([(c, crit + off) for c, off in chk.prompts]) if chk.prompts else ()
        recolour = [(m[1], m[2]) for m in self.mods_of(s, "recol")] if self.mods[s] else []
        return dice.Spec(target=crit + chk.d, m=chk.multi, slate=chk.slate, prompts=prompts, asc=chk.asc,
                         pie=self.stat(s, PIE), max_pairs=play.max_pairs, single=single, all_bonus=all_b,
                         recolour=recolour, fail=self.danger + chk.fail,
                         slate_dmg=self.danger if play.slate_per_danger else 1,
                         threats=threats, threat_dmg=play.threat_damage, below=crit, white_prompts=play.white_prompts)

    def reroll_options(self) -> list:
        """The dice the pending reroll may take: any set of up to n (「n個まで」「好きなだけ」), or every die (「全て」).

        Rerolling dice of the same value and colour is the same choice whichever of them is taken: each set
        is offered once, as its first one (sizes up, then index order), which takes the first dice of each
        (value, colour); with 8 dice "any set" is 255 sets of positions but far fewer choices."""
        chk = self.check
        if not chk.tokens:
            return []
        n, colour = chk.tokens[0]
        cands = [i for i, c in enumerate(chk.cols) if colour < 0 or c == colour]
        if n < 0:
            return [tuple(cands)]
        sets = [c for j in range(1, min(n, len(cands)) + 1) for c in combinations(cands, j)]
        before: dict
        last: dict
        before, last = {}, {}   # each die: the candidate before it with the same value and colour (or -1)
        for i in cands:
            face = (chk.vals[i], chk.cols[i])
            before[i] = last.get(face, -1)
            last[face] = i
        if len(last) == len(cands):
            return sets   # no two dice alike: every set is its own choice
        # the first set of a kind takes a die only with the dice alike before it
        return [c for c in sets if all(before[i] < 0 or before[i] in c for i in c)]

    def do_reroll(self, dice_idx) -> None:
        chk = self.check
        chk.tokens.pop(0)
        rand = self.rng.random
        for i in dice_idx:
            chk.vals[i] = 1 + int(rand() * chk.size)
        self.log.append(("reroll", self.active, tuple(dice_idx), tuple(chk.vals)))

    def resolve(self, plan) -> None:
        s, chk = self.active, self.check
        judged, self._judged = self._judged, None
        if judged is not None and judged[0] is plan:
            spec, result = judged[1], judged[2]
        else:
            spec = self.spec()
            result = dice.outcome(spec, chk.vals, chk.cols, plan)
        success, damage, _ = result
        chk.plan, chk.success = plan, success
        chk.side = damage - (0 if success else spec.fail)
        chk.damage = damage
        if self.mods[s]:
            self.mods[s] = [m for m in self.mods[s] if not (m[3] == "check" and m[0] in ("apb", "recol"))]
        self.log.append(("check", s, chk.node, self._source(chk), spec.target, success, damage))
        self._after_resolution()

    def _after_resolution(self) -> None:
        chk = self.check
        if chk.success and chk.kind == "boss":   # a double/triple success deals boss.multi_success_damage
            printed_multi = self.setup.bosses[chk.boss]["actions"][chk.action][1]
            self.hit_boss(chk.boss, self.setup.rules["boss.multi_success_damage"] if printed_multi > 1 else 1,
                          self.active)
        self.step = ST_SUCC if chk.success else ST_DMG

    def _source(self, chk) -> str:
        if chk.kind == "boss":
            return f"{self.setup.bosses[chk.boss]['id']}#{chk.action + 1}"
        if chk.kind == "room":
            return self.setup.rooms[chk.card]["id"]
        return "danger"

    def apply_damage(self) -> None:
        """Damage after reductions, then the sub-event, then death (§3.4.9)."""
        s, chk = self.active, self.check
        assert chk is not None
        self.step = ST_END
        taken = chk.damage - self.mod_sum(s, "dred")
        taken = taken if taken > 0 else 0   # max(0, ...) without a builtin call (every check)
        if taken > 0:
            self.life[s] -= taken
            self.log.append(("hurt", s, taken, self._cause(chk), chk.node))
        if self.mods[s]:
            self.mods[s] = [m for m in self.mods[s] if m[3] != "check"]
        if chk.success and chk.sub and chk.kind == "room":
            self.sub_event(s, chk)
        if chk.kind == "boss" and self.outcome is None and not self.b_dead[chk.boss] and self.b_active[chk.boss]:
            self.advance_pointer(chk.boss, s)
        if chk.kind == "room" and chk.card not in self.flowers[s] and chk.card not in self.keys[s]:
            self.room_disc.append(chk.card)
        self.check = None
        if self.life[s] <= 0:
            self.die(s, chk, taken)

    @staticmethod
    def _cause(chk) -> str:
        if chk.kind == "danger":
            return "danger"
        if not chk.success and chk.damage > chk.side:
            return "boss" if chk.kind == "boss" else "room"
        return "slate" if chk.slate >= 0 else "threat"

    def sub_event(self, s: int, chk: Check) -> None:
        sub = chk.sub
        self.log.append(("sub", s, sub))
        if sub == 1:      # thorn
            self.push_task(("level", s))
        elif sub == 2:    # memory flower: keep the room card
            self.flowers[s].append(chk.card)
        elif sub == 3:    # sweets
            self.heal(s, 1)
        elif sub == 4:    # key: keep the room card
            self.keys[s].append(chk.card)
        elif sub == 5:
            self.set_danger(self.danger + 1)
        elif sub == 6:
            self.set_danger(self.danger - 1)

    def die(self, s: int, chk: Check, taken: int) -> None:
        rules = self.setup.rules
        cause = self._death_cause(chk, taken)
        self.deaths[s] += 1
        self.log.append(("death", s, chk.node, cause))
        self.life[s] = rules["death.life"]
        if rules["death.exhaust_skills"]:
            for sk in self.skills[s]:
                sk[2] = True
        self.relocate(s, self.setup.start)
        if rules["death.turn_ends"]:
            self.step = ST_NEXT

    def _death_cause(self, chk: Check, taken: int) -> str:
        """The damage without which she would have lived: slate or threat if that alone killed her."""
        if chk.kind == "danger":
            return "danger"
        life_before = self.life[self.active] + taken
        fail = 0 if chk.success else chk.damage - chk.side
        if chk.side and life_before - (taken - chk.side) > 0:
            return "slate" if chk.slate >= 0 else "threat"
        return ("boss" if chk.kind == "boss" else "room") if fail else ("slate" if chk.slate >= 0 else "threat")
