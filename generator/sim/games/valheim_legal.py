"""Valheim: which decisions are legal, as a State mixin — the options of each phase, what an action
can still afford (an action closes by itself when nothing is, seed: leftover AP are lost), and a
direct legality check of one decision for the hot path of scripted play.

The costs that both the check and the handlers use (gather, buy, craft) are defined here.
"""
from __future__ import annotations

from itertools import permutations
from typing import Callable, Sequence

from .valheim_flow import (BASE, BUY, COMMIT, CRAFT, DONE, DUNGEON, EXPLORE, FIGHTER, GATHER, KEEP, LEVEL, MAKE, MOVE,
                           NEWBASE, OPEN, ORDER, P_BASE, P_COMMIT, P_CRAFT, P_EXPLORE, P_FIGHTER, P_GATHER, P_HUNT,
                           P_LEVEL, P_ORDER, P_PAY, P_PICK, P_REROLL, P_TRAIN, PAY, PICK, REROLL, REST, TAKE, TRAIN,
                           TRASH, WILD, _DONE)
from .valheim_hunt import Hunt
from .valheim_setup import STEP


class Legal(Hunt):
    """Options and costs; on ``Hunt`` in the rules' line of classes."""

    __slots__ = ()

    # ---- affordability (auto-closing an action) --------------------------------------------------
    def can_act(self) -> bool:
        a = self.act
        if a == EXPLORE:
            return bool(self.explore_options(first=True))
        if a == GATHER:
            return bool(self.gather_options(first=True))
        if a == TRAIN:
            return bool(self.train_options(first=True))
        if a == CRAFT:
            return bool(self.craft_options(first=True))
        return False

    def move_cost(self) -> int:
        c = self.setup.play.move_cost - self.free
        return c if c > 0 else 0

    def explore_options(self, first: bool = False) -> list[tuple]:
        out: list[tuple] = []
        ap, w = self.ap, self.walker
        mc = self.move_cost()
        x, y = self.s_pos[w]
        grid = self.grid
        for d in range(4):
            dx, dy = STEP[d]
            j = grid.get((x + dx, y + dy))
            if j is not None:
                if mc <= ap:
                    out.append((MOVE, j))
            else:
                e = self.edge_at(w, d)
                if e is not None and e[1] <= ap:
                    out.append((OPEN, d))
            if first and out:
                return out
        return out

    def gather_cost(self, k: int, b_dist: list[int]):
        """(AP, free steps waived) to take a token from slot k."""
        return gather_waive(b_dist[k], self.free, self.setup.play.gather_cost, self.mods.gdisc)

    def gather_options(self, first: bool = False) -> list[tuple]:
        out: list[tuple] = []
        ap = self.ap
        setup = self.setup
        free, base_cost, g = self.free, setup.play.gather_cost, self.mods.gdisc
        if ap < 1 <= base_cost:
            return out  # every take costs at least 1 AP (the base cost; with the Cart, its minimum)
        d = self.dist(self.base)
        gate, t_biome, t_rids, tiles = setup.gate, setup.t_biome, setup.t_rids, self.s_tile
        base_level = self.s_level[self.base]
        no_tokens = [0] * len(setup.res)  # ``tok == no_tokens``: ``not any(tok)``, a call a compiled build makes generic
        for k, (tok, t, dist) in enumerate(zip(self.s_tok, tiles, d)):
            if tok == no_tokens or gate[t_biome[t]] > base_level:
                continue
            raw = (dist - free if dist > free else 0) + base_cost  # gather_cost, inlined: this runs after every take
            cost = raw - g if raw - g > 1 else 1  # min(raw, max(1, raw - g)) without the calls
            if (cost if cost < raw else raw) > ap:
                continue
            for r in t_rids[t]:
                if tok[r]:
                    out.append((TAKE, k, r))
                    if first:
                        return out
        return out

    def train_revealers(self) -> Sequence[int]:
        return self.seats[self.p_act[TRAIN]]

    def buy_cost(self, c: int) -> int:
        cost = self.setup.c_cost[c] - self.mods.mdisc
        return cost if cost > 1 else 1

    def train_options(self, first: bool = False) -> list[tuple]:
        out: list[tuple] = []
        ap = self.ap
        who = self.train_revealers()
        for i, c in enumerate(self.row):
            if c >= 0 and self.buy_cost(c) <= ap:
                for s in who:
                    out.append((BUY, i, s))
                if first and out:
                    return out
        cost = 0 if self.trash_left else self.setup.play.remove_cost
        if cost <= ap:
            c_id = self.setup.c_id
            for s in who:
                seen = set()
                for c in self.discard[s]:
                    if c_id[c] not in seen:
                        seen.add(c_id[c])
                        out.append((TRASH, s, c))
                        if first:
                            return out
        if self.setup.rules["inheritance.mode"] == "carry_by_train" and \
                self.setup.rules["inheritance.carry_cost_ap"] <= ap:
            tier = self.setup.c_tier
            for s in who:
                for zone in (self.deck[s], self.hand[s], self.discard[s], [c for c, _ in self.played[s]]):
                    for c in zone:
                        if tier[c] >= 0 and c not in self.kept:
                            out.append((KEEP, s, c))
                            if first:
                                return out
        return out

    def make_cost(self, r: int) -> int:
        m = self.mods
        disc = m.cd_equip if self.setup.r_kind[r] == "equipment" else m.cd_fac
        return max(0, self.setup.r_ap[r] - disc)

    def craft_options(self, first: bool = False) -> list[tuple]:
        out: list[tuple] = []
        setup = self.setup
        ap = self.ap
        if len(self.bases()) < setup.play.max_bases and self.has(setup.new_base_cost):
            d = self.dist(self.base)
            free = self.free
            for k, lv in enumerate(self.s_level):
                if lv < 0 and (d[k] - free if d[k] > free else 0) <= ap:
                    out.append((NEWBASE, k))
                    if first:
                        return out
        r_left, r_active, r_kind, r_ap, r_cost = self.r_left, setup.r_active, setup.r_kind, setup.r_ap, setup.r_cost
        m = self.mods
        for r in range(len(setup.r_id)):
            if not r_left[r] or not r_active[r]:
                continue
            kind = r_kind[r]
            # make_cost, inlined: this runs after every craft
            cost = r_ap[r] - (m.cd_equip if kind == "equipment" else m.cd_fac)
            if (cost if cost > 0 else 0) > ap or not self.has(r_cost[r]):
                continue
            if kind == "facility":
                out.append((MAKE, r, -1))
            else:
                for s in range(self.n):
                    if self.equip[s][setup.r_slot[r]] != r:
                        out.append((MAKE, r, s))
            if first and out:
                return out
        return out

    # ---- legal decisions -------------------------------------------------------------------------
    def legal_unsorted(self) -> list[tuple]:
        ph = self.phase
        if ph == P_COMMIT:
            return self.commit_options(self.seat)
        if ph == P_PAY:
            return [(PAY, self.pays[0][1], 0), (PAY, self.pays[0][1], 1)]
        if ph == P_BASE:
            return [(BASE, k) for k in self.bases()]
        if ph == P_EXPLORE:
            return self.explore_options() + [_DONE]
        if ph == P_PICK:
            return [(PICK, i) for i in range(len(self.drawn))]
        if ph == P_GATHER:
            return self.gather_options() + [_DONE]
        if ph == P_TRAIN:
            return self.train_options() + [_DONE]
        if ph == P_HUNT:
            return [(DUNGEON, k) for k in self.dungeon_options()] + [_DONE]
        if ph == P_FIGHTER:
            return [(FIGHTER, s) for s in self.eligible()]
        if ph == P_ORDER:
            k = min(self.mods.peek, len(self.edeck))
            top = self.edeck[-k:][::-1]
            return [(ORDER, p) for p in sorted(set(permutations(top)))]
        if ph == P_REROLL:
            return [(REROLL, 0), (REROLL, 1)]
        if ph == P_CRAFT:
            return self.craft_options() + [_DONE]
        if ph == P_LEVEL:
            return [(LEVEL, k) for k in self.level_options()] + [_DONE]
        return []

    def commit_options(self, s: int) -> list[tuple]:
        """Every distinct commit of seat s: a multiset of its hand's cards (wild cards name an
        action), or a rest (committing nothing discards one card when the G2 rule is on)."""
        setup = self.setup
        groups: dict = {}
        for c in sorted(self.hand[s]):
            groups.setdefault(setup.c_id[c], []).append(c)
        choices: list[list[tuple]] = [[()]]
        for cards in groups.values():
            a = setup.c_action[cards[0]]
            acts = range(5) if a == WILD else (a,)
            opts = []
            for k in range(len(cards) + 1):
                if a == WILD:
                    opts.extend(_named(cards[:k], acts))
                else:
                    opts.append(tuple((c, a) for c in cards[:k]))
            choices.append(opts)
        out: list[tuple] = [()]
        for opts in choices[1:]:
            out = [x + y for x in out for y in opts]
        result: list[tuple] = [(COMMIT, tuple(sorted(x))) for x in out if x]
        if self.setup.rules["round.anti_stall_discard"] and self.hand[s]:
            result += [(REST, cards[0]) for cards in groups.values()]
        else:
            result.append((COMMIT, ()))
        return result

    def is_legal(self, action) -> bool:
        """``action in legal_unsorted()``, answered without listing every option where that is cheap
        (the hot path of scripted play); the rest fall back to the list."""
        try:
            kind = action[0]
        except (TypeError, IndexError):
            return False
        ph = self.phase
        if kind == DONE:
            return len(action) == 1 and ph in (P_EXPLORE, P_GATHER, P_TRAIN, P_HUNT, P_CRAFT, P_LEVEL)
        if kind == TAKE and ph == P_GATHER and len(action) == 3:
            _, k, r = action
            if not (isinstance(k, int) and isinstance(r, int) and 0 <= k < len(self.s_tok)
                    and 0 <= r < len(self.pool) and self.s_tok[k][r] > 0):
                return False
            setup = self.setup
            if setup.gate[setup.t_biome[self.s_tile[k]]] > self.s_level[self.base]:
                return False
            d = self.dist(self.base)
            # no waiver or discount makes a take dearer than its whole walk: most takes stop here
            return d[k] + setup.play.gather_cost <= self.ap or self.gather_cost(k, d)[0] <= self.ap
        if kind == BASE and ph == P_BASE and len(action) == 2:
            k = action[1]
            return isinstance(k, int) and 0 <= k < len(self.s_level) and self.s_level[k] >= 0
        if kind == MOVE and ph == P_EXPLORE and len(action) == 2:
            k = action[1]
            if not (isinstance(k, int) and 0 <= k < len(self.s_pos)) or self.move_cost() > self.ap:
                return False
            (x, y), (u, w) = self.s_pos[self.walker], self.s_pos[k]
            return abs(x - u) + abs(y - w) == 1
        if kind == OPEN and ph == P_EXPLORE and len(action) == 2:
            direction = action[1]  # (not d: that is a list of distances above, to a compiled build)
            if direction not in (0, 1, 2, 3):
                return False
            e = self.edge_at(self.walker, direction)
            return e is not None and e[1] <= self.ap
        if kind == BUY and ph == P_TRAIN and len(action) == 3:
            _, i, s = action
            return (isinstance(i, int) and 0 <= i < len(self.row) and self.row[i] >= 0
                    and self.buy_cost(self.row[i]) <= self.ap and isinstance(s, int) and 0 <= s < self.n
                    and self.p_act[TRAIN] >> s & 1 == 1)
        if kind == MAKE and ph == P_CRAFT and len(action) == 3:
            _, r, s = action
            setup = self.setup
            if not (isinstance(r, int) and 0 <= r < len(setup.r_id)) or not self.r_left[r] \
                    or not setup.r_active[r] or self.make_cost(r) > self.ap or not self.has(setup.r_cost[r]):
                return False
            if setup.r_kind[r] == "facility":
                return s == -1
            return isinstance(s, int) and 0 <= s < self.n and self.equip[s][setup.r_slot[r]] != r
        if kind == COMMIT and ph == P_COMMIT and len(action) == 2:
            return self.commit_ok(self.seat, action[1])
        if type(action) is tuple and _all_ints(action):
            check = _INT_CHECKS.get((kind, ph, len(action)))
            if check is not None:
                return check(self, *action[1:])
        return action in self.legal_unsorted()

    # ---- direct checks of decisions with int arguments (anything else is looked up in the list) --
    def dungeon_ok(self, k: int) -> bool:
        return 0 <= k < len(self.s_tile) and bool(self.setup.t_dungeon[self.s_tile[k]]) \
            and max(0, self.dist(self.base)[k] - self.free) <= self.ap

    def newbase_ok(self, k: int) -> bool:
        setup = self.setup
        return 0 <= k < len(self.s_level) and self.s_level[k] < 0 \
            and len(self.bases()) < setup.play.max_bases and self.has(setup.new_base_cost) \
            and max(0, self.dist(self.base)[k] - self.free) <= self.ap

    def level_ok(self, k: int) -> bool:
        if not (0 <= k < len(self.s_level) and self.s_level[k] >= 0):
            return False
        c = self.level_cost(k)
        return c is not None and self.has(c[0])

    def fighter_ok(self, s: int) -> bool:
        return s in self.eligible()  # as the list: eligible() starts a new rotation when all have fought

    def pick_ok(self, i: int) -> bool:
        return 0 <= i < len(self.drawn)

    def pay_ok(self, c: int, yes: int) -> bool:
        return c == self.pays[0][1] and yes in (0, 1)

    def trash_ok(self, s: int, c: int) -> bool:
        """Seat s revealed train, the AP cover a removal, and c is the first card of its kind in
        s's discard (the one ``train_options`` lists)."""
        cost = 0 if self.trash_left else self.setup.play.remove_cost
        if cost > self.ap or not (0 <= s < self.n and self.p_act[TRAIN] >> s & 1):
            return False
        c_id = self.setup.c_id
        if not 0 <= c < len(c_id):
            return False
        return next((x for x in self.discard[s] if c_id[x] == c_id[c]), None) == c

    def commit_ok(self, s: int, cards) -> bool:
        """A commit is a set of distinct hand cards, each named as its own action (wild: any), in
        the listed (canonical) form: sorted, of identical cards the lowest instances, wild names
        ascending."""
        if not isinstance(cards, tuple):
            return False
        if not cards:
            return not (self.setup.rules["round.anti_stall_discard"] and self.hand[s])
        hand = self.hand[s]
        act, c_id = self.setup.c_action, self.setup.c_id
        last_card = -1
        top: dict = {}  # card id -> (highest instance chosen, its name)
        for item in cards:
            if not isinstance(item, tuple) or len(item) != 2:
                return False
            c, a = item
            if c not in hand or c <= last_card:  # sorted, distinct
                return False
            last_card = c
            if act[c] != a and not (act[c] == WILD and a in range(5)):
                return False
            cid = c_id[c]
            prev = top.get(cid)
            if prev is not None and prev[1] > a:
                return False
            top[cid] = (c, a)
        # no unchosen instance lies below a chosen one of the same card
        chosen = None
        for c in hand:
            prev = top.get(c_id[c])
            if prev is not None and c < prev[0]:
                if chosen is None:
                    chosen = {x for x, _ in cards}
                if c not in chosen:
                    return False
        return True


_INT_CHECKS: dict[tuple[int, int, int], Callable[..., bool]] = {
               (DUNGEON, P_HUNT, 2): Legal.dungeon_ok, (NEWBASE, P_CRAFT, 2): Legal.newbase_ok,
               (LEVEL, P_LEVEL, 2): Legal.level_ok, (PICK, P_PICK, 2): Legal.pick_ok,
               (FIGHTER, P_FIGHTER, 2): Legal.fighter_ok,
               (PAY, P_PAY, 3): Legal.pay_ok, (TRASH, P_TRAIN, 3): Legal.trash_ok}


def _all_ints(action) -> bool:
    for x in action:
        if type(x) is not int:
            return False
    return True


def _named(cards, acts):
    """Ways to name an action for each of ``cards`` (identical wild cards: multisets of names)."""
    if not cards:
        return [()]
    out = []

    def rec(i, lo, acc):
        if i == len(cards):
            out.append(tuple(acc))
            return
        for a in acts:
            if a >= lo:
                rec(i + 1, a, acc + [(cards[i], a)])
    rec(0, 0, [])
    return out


def gather_waive(dist: int, free: int, base_cost: int, g: int) -> tuple[int, int]:
    """(AP, free steps waived) for a take ``dist`` steps away with ``free`` steps left and a gather
    discount ``g`` (cr_cart: -g, at least 1). Free steps are a may (mk_mid_porter 「払わなくてよい」):
    only those that lower the cost are waived. With the Cart a step that takes the cost below g + 1
    would save nothing (the minimum 1 catches it), so it is kept for a farther take, where it saves
    1 AP; the cost is the lowest either way, and every step waived saves exactly 1 AP, so the order of
    the takes does not matter (no decision to offer)."""
    waived = dist if dist < free else free
    raw = dist - waived + base_cost
    if not g:
        return raw, waived
    if raw > g:
        return raw - g, waived
    if raw > 0:
        return 1, max(0, dist + base_cost - g - 1)
    return 0, waived
