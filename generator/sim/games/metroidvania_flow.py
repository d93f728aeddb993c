"""Metroidvania: the turn machine (spec §3.2-3.3) as a State mixin.

Phases say what the current decision is about; steps say where a turn goes on when no decision is
pending. ``_advance`` runs forced steps until a decision is needed: an open task (a placement, a
drawn card to keep, a thorn level, a peek) first, then the current step of the turn.
"""
from __future__ import annotations

from typing import Final

from .metroidvania_base import StateBase
from .metroidvania_setup import PIE, WIL

# phases (what the current decision is about)
PLACE: Final = 0
PICK: Final = 1
LEVEL: Final = 2
PEEK: Final = 3
MOVE: Final = 4
PRE: Final = 5
POST: Final = 6
SUCC: Final = 7
DMG: Final = 8
END: Final = 9
OVER: Final = 10
PHASES = ("place", "pick", "level", "peek", "move", "pre_roll", "post_roll", "on_success", "on_damage", "end", "over")
# turn steps (where the turn continues when no task is pending)
ST_MOVE: Final = 0
ST_PRE: Final = 1
ST_POST: Final = 2
ST_SUCC: Final = 3
ST_DMG: Final = 4
ST_APPLY: Final = 5
ST_END: Final = 6
ST_NEXT: Final = 7


class TurnFlow(StateBase):
    __slots__ = ()

    def _advance(self) -> None:
        """Run forced steps until a decision is needed (or the game ends)."""
        while self.phase != OVER:
            self._usable = None   # each step may have changed what is usable (see ``usable``)
            if self.tasks:
                if self._open_task():
                    return
                continue
            step = self.step
            if step == ST_MOVE:
                self.seat = self.active
                if self.tpos == 0 and self.built < self.round:   # builds at the round's first move (after setup)
                    self.built = self.round
                    self._log_build()
                if self.destinations() or self.usable(MOVE) or self.flower_window(MOVE):
                    self.phase = MOVE
                    return
                self.log.append(("skip", self.active))
                self.skipped += 1
                self.step = ST_NEXT
            elif step == ST_PRE:
                self.seat = self.active
                if self.usable(PRE) or self.flower_window(PRE):
                    self.phase = PRE
                    return
                self.roll()
            elif step == ST_POST:
                self.seat = self.active
                self.phase = POST
                return
            elif step == ST_SUCC:
                if self.check.success and self.usable(SUCC):
                    self.seat = self.active
                    self.phase = SUCC
                    return
                self.step = ST_DMG
            elif step == ST_DMG:
                if self.check.damage > 0 and (self.usable(DMG) or self.flower_window(DMG)):
                    self.seat = self.active
                    self.phase = DMG
                    return
                self.step = ST_APPLY
            elif step == ST_APPLY:
                self.apply_damage()
            elif step == ST_END:
                self.seat = self.active
                if self.usable(END) or self.flower_window(END):
                    self.phase = END
                    return
                self.step = ST_NEXT
            else:
                self.next_turn()
        self._usable = None

    def _open_task(self) -> bool:
        """Make the oldest task the current decision; False if it resolved by itself."""
        task = self.tasks[0]
        kind, s = task[0], task[1]
        self.seat = s
        if kind == "place":
            if task[2] is None:
                drawn = self.draw("action", self.draw_count(s, "action"))
                if not drawn:
                    self.tasks.pop(0)
                    return False
                self.tasks[0] = ("place", s, drawn)
            self.phase = PLACE
            return True
        if kind == "pick":
            if task[3] is None:
                deck = task[2]
                drawn = self.draw(deck, self.draw_count(s, deck))
                if not drawn:
                    self.tasks.pop(0)
                    self._picked(deck, s, -1)
                    return False
                self.tasks[0] = ("pick", s, deck, drawn)
                self.log.append(("drawn", s, deck, tuple(drawn)))
                if len(drawn) == 1:
                    self.tasks.pop(0)
                    self._picked(deck, s, drawn[0])
                    return False
            self.phase = PICK
            return True
        if kind == "level":
            if not any(sk[1] < self.setup.skills[sk[0]]["max_level"] for sk in self.skills[s]):
                self.tasks.pop(0)
                return False
            self.phase = LEVEL
            return True
        if kind == "peek":   # ("peek", s, deck, n[, depth]): the cards above ``depth`` are already in place
            deck = getattr(self, task[2] + "_deck")
            if min(task[3], len(deck)) - (task[4] if len(task) > 4 else 0) < 2:
                self.tasks.pop(0)
                return False
            self.phase = PEEK
            return True
        raise AssertionError(kind)

    def _picked(self, deck: str, s: int, card: int) -> None:
        if deck == "room":
            if card >= 0:
                self.start_room_check(card)
            else:
                self.step = ST_END
        elif deck == "event" and card >= 0:
            self.held.append([card, s, 0])
            self.log.append(("event", s, self.setup.events[card]["id"]))
        elif deck == "sefira" and card >= 0:
            self.sefira_area.append(card)
            self.log.append(("sefira", s, self.setup.sefira[card]["id"]))
        elif deck == "skill" and card >= 0:
            self.learn(s, card)

    def _log_build(self) -> None:
        """Each maiden's Will and Piety as the round starts (a loop: no generator once a round)."""
        build = []
        for stacks in self.stacks:
            build.append((len(stacks[WIL]), len(stacks[PIE])))
        self.log.append(("build", self.round, tuple(build)))

    def begin_round(self) -> None:
        r = self.setup.rules
        self.crit = r["criterion.start"] + (self.round - 1) // r["criterion.every_rounds"]
        tpr = r["turns_per_round"].get(self.n, 1)
        if r["turn_order_2p"] == "consecutive":
            self.order = [s for s in range(self.n) for _ in range(tpr)]
        else:
            self.order = [s for _ in range(tpr) for s in range(self.n)]
        self.tpos = 0
        self.log.append(("round", self.round, self.crit, self.danger))
        self.begin_turn()

    def begin_turn(self) -> None:
        self.turn_serial += 1
        self.active = self.seat = self.order[self.tpos]
        self.check = None
        self._dest = None
        self.step = ST_MOVE
        self.log.append(("turn", self.active, self.danger, self.pos[self.active], self.life[self.active]))
        markers = self.markers()
        if markers > self.markers_max:
            self.markers_max = markers

    def next_turn(self) -> None:
        self.expire("check")
        self.expire("turn")
        self.check = None
        self.tpos += 1
        if self.tpos >= len(self.order):
            self.expire("round")
            if self.round >= self.setup.play.rounds:
                self.finish("loss")
                return
            self.round += 1
            self.begin_round()
        else:
            self.begin_turn()
