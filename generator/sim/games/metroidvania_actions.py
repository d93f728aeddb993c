"""Metroidvania: the decisions (legal actions, their legality and their effect) as a State mixin.

An action is a tuple whose first item is its kind: where to place an action card, which drawn
card to keep, which skill to level, the deck order after a peek, where to move, which
skill/sefira/flower to use in a timing window, and after a roll which dice to pair away and which
become AP (``PLAN``, see ``metroidvania_dice``).
"""
from __future__ import annotations

from typing import Final

from . import metroidvania_dice as dice
from .metroidvania_flow import DMG, END, LEVEL, MOVE, OVER, PEEK, PICK, PLACE, POST, PRE, ST_APPLY, ST_DMG, ST_NEXT, SUCC
from .metroidvania_powers import Powers
from .metroidvania_setup import AGI

# action kinds
USE: Final = 0
FLOWER: Final = 1
GO: Final = 2
SKIP: Final = 3
ROLL: Final = 4
REROLL: Final = 5
PLAN: Final = 6
DONE: Final = 7
ENDT: Final = 8
PLACE_A: Final = 9
PICK_A: Final = 10
LEVEL_A: Final = 11
TOP: Final = 12
# the action ``legal_unsorted`` lists first in every state of these phases
_ALWAYS: Final = {PRE: (ROLL,), SUCC: (DONE,), DMG: (DONE,), END: (ENDT,)}


class Decisions(Powers):
    __slots__ = ()

    def legal_unsorted(self) -> list:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == PLACE:
            drawn = self.tasks[0][2]
            return [(PLACE_A, i, k) for i in range(len(drawn)) for k in range(4)]
        if phase == PICK:
            return [(PICK_A, i) for i in range(len(self.tasks[0][3]))]
        if phase == LEVEL:
            s = self.tasks[0][1]
            return [(LEVEL_A, j) for j, sk in enumerate(self.skills[s])
                    if sk[1] < self.setup.skills[sk[0]]["max_level"]]
        if phase == PEEK:
            task = self.tasks[0]
            k = min(task[3], len(getattr(self, task[2] + "_deck"))) - (task[4] if len(task) > 4 else 0)
            return [(TOP, i) for i in range(k)]
        out: list = []
        if phase == MOVE:
            out = [(GO, v, key) for v, key in self.destinations()]
            if not out:
                out.append((SKIP,))
        elif phase == PRE:
            out = [(ROLL,)]
        elif phase == POST:
            spec = self.spec()
            out = [(PLAN, p) for p in dice.plans(spec, self.check.vals, self.check.cols)]
            out += [(REROLL, d) for d in self.reroll_options()]
        elif phase in (SUCC, DMG):
            out = [(DONE,)]
        elif phase == END:
            out = [(ENDT,)]
        for src, j in self.usable(phase):
            effect = (self.setup.skills[self.skills[self.active][j][0]] if src == 0 else
                      self.setup.sefira[self.sefira_area[j]])["effect"]
            out += [(USE, src, j, arg) for arg in self._args(effect)]
        if phase != SUCC and self.flower_window(phase):
            out += [(FLOWER, h) for h in self.flower_targets(phase)]
        return out

    def is_legal(self, a) -> bool:
        if self.phase == OVER or not isinstance(a, tuple) or not a:
            return False
        kind = a[0]
        if kind == PLAN and self.phase == POST:
            plan = a[1] if len(a) == 2 else None
            if not isinstance(plan, tuple) or len(plan) != 5:
                return False
            spec = self.spec()
            try:
                result = dice.outcome(spec, self.check.vals, self.check.cols, plan)
            except (TypeError, IndexError, ValueError):
                return False
            self._judged = (plan, spec, result)   # resolve() applies this judgement instead of redoing it
            return result is not None
        if kind == GO and self.phase == MOVE:
            return (a[1], a[2]) in self.destinations() if len(a) == 3 else False
        # a task's choice by its ranges (the same test as finding it among the listed actions, without the list)
        if kind == PLACE_A and self.phase == PLACE:
            return len(a) == 3 and a[1] in range(len(self.tasks[0][2])) and a[2] in range(4)
        if kind == PICK_A and self.phase == PICK:
            return len(a) == 2 and a[1] in range(len(self.tasks[0][3]))
        if a == _ALWAYS.get(self.phase):
            return True   # the phase's plain action is always among its legal actions: no need to list them
        return a in self.legal_actions()

    def _apply(self, a) -> None:
        kind = a[0]   # (the most frequent first: a plan after each roll, a move each turn)
        if kind == PLAN:
            self.resolve(a[1])
        elif kind == GO:
            self.go(a[1], a[2])
        elif kind == PLACE_A:
            task = self.tasks.pop(0)
            s, drawn = task[1], task[2]
            card = drawn[a[1]]
            self.action_disc.extend(c for i, c in enumerate(drawn) if i != a[1])
            self.stacks[s][a[2]].append(card)
            self.log.append(("place", s, card, a[2]))
            if a[2] == AGI:
                self.tasks.insert(0, ("pick", s, "skill", None))
        elif kind == ENDT:
            self.step = ST_NEXT
        elif kind == ROLL:
            self.roll()
        elif kind == PICK_A:
            task = self.tasks.pop(0)
            s, deck, drawn = task[1], task[2], task[3]
            card = drawn[a[1]]
            getattr(self, deck + "_disc").extend(c for i, c in enumerate(drawn) if i != a[1])
            self._picked(deck, s, card)
        elif kind == USE:
            self.use(a[1], a[2], a[3])
        elif kind == DONE:
            self.step = ST_DMG if self.phase == SUCC else ST_APPLY
        elif kind == SKIP:
            self.log.append(("skip", self.active))
            self.skipped += 1
            self.step = ST_NEXT
        elif kind == FLOWER:
            self.use_flower(a[1])
        elif kind == LEVEL_A:
            task = self.tasks.pop(0)
            self.skills[task[1]][a[1]][1] += 1
            self.marks += 1   # a skill level is a marker (``markers``)
            self.log.append(("thorn", task[1], self.setup.skills[self.skills[task[1]][a[1]][0]]["id"]))
        elif kind == TOP:   # 好きな順で戻す: the peeked cards are put back one place at a time, from the top
            task = self.tasks.pop(0)
            depth = task[4] if len(task) > 4 else 0
            deck = getattr(self, task[2] + "_deck")
            card = deck.pop(len(deck) - 1 - depth - a[1])
            deck.insert(len(deck) - depth, card)
            if min(task[3], len(deck)) - depth > 2:
                self.tasks.insert(0, task[:4] + (depth + 1,))
        elif kind == REROLL:
            self.do_reroll(a[1])
