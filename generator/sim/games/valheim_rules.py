"""Valheim: the rules (spec §3) as a resumable state machine — briefing, hidden commit and reveal,
the main phase in the fixed order explore -> gather -> train -> hunt -> craft, round end with base
level-ups, and the final battle against the merged demon lord.

Decisions are small tuples ``(KIND, ...)``; ``legal()`` lists them for the phase at hand and
``HANDLERS`` apply them. Everything between two decisions (draws, dice, refills, forced steps) runs
here from the state's own ``rng``. A step with only one possible outcome is taken automatically, so
every decision an agent sees has a real choice or is the one "done" of an open-ended action.
"""
from __future__ import annotations

from collections import deque
from itertools import permutations

from ...sim.rng import shuffle
from .valheim_setup import STEP

# decision kinds
COMMIT, REST, PAY, BASE, MOVE, OPEN, PICK, TAKE, BUY, TRASH, KEEP, DUNGEON, FIGHTER, ORDER, REROLL, NEWBASE, MAKE, \
    LEVEL, DONE = range(19)
KIND_NAMES = ("commit", "rest", "pay", "base", "move", "open", "pick", "take", "buy", "trash", "keep", "dungeon",
              "fighter", "order", "reroll", "newbase", "make", "level", "done")

# phases
P_COMMIT, P_PAY, P_BASE, P_EXPLORE, P_PICK, P_GATHER, P_TRAIN, P_HUNT, P_FIGHTER, P_ORDER, P_REROLL, P_CRAFT, \
    P_LEVEL, P_OVER = range(14)
ACTION_PHASE = (P_EXPLORE, P_GATHER, P_TRAIN, P_HUNT, P_CRAFT)  # by action index 0..4 (resolution order)
EXPLORE, GATHER, TRAIN, HUNT, CRAFT = range(5)
WILD = -1
_DONE = (DONE,)
INF = 1 << 20  # the distance of an unreachable slot


class Mods:
    """What revealed cards and built facilities add to one main phase."""

    __slots__ = ("extra_ap", "free", "trash", "mdisc", "edisc", "choose", "yield_", "gdisc", "p_all", "p_enemy",
                 "p_boss", "p_raid", "reroll", "peek", "cd_equip", "cd_fac", "hand", "link", "extra_level")

    def __init__(self):
        self.extra_ap = [0] * 5
        self.free = [0] * 5
        self.trash = self.mdisc = self.edisc = self.choose = self.yield_ = self.gdisc = 0
        self.p_all = self.p_enemy = self.p_boss = self.p_raid = 0
        self.reroll = self.peek = self.cd_equip = self.cd_fac = 0
        self.hand = self.link = self.extra_level = 0

    def copy(self) -> "Mods":
        twin = Mods.__new__(Mods)
        for name in Mods.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.extra_ap = list(self.extra_ap)
        twin.free = list(self.free)
        return twin

    def add(self, op: str, p: dict) -> None:
        """Add one effect (op, params) that lasts for a main phase (or forever, on a facility)."""
        n = p.get("n", 0)
        if op == "extra_ap":
            self.extra_ap[p["action"]] += n
        elif op == "free_steps":
            self.free[p["action"]] += n
        elif op == "trash":
            self.trash += n
        elif op == "market_discount":
            self.mdisc += n
        elif op == "edge_discount":
            self.edisc += n
        elif op == "choose_tile":
            self.choose += n
        elif op == "extra_yield":
            self.yield_ += n
        elif op == "gather_discount":
            self.gdisc += n
        elif op == "power":
            vs = p["vs"]
            if vs == "all":
                self.p_all += n
            elif vs == "enemy":
                self.p_enemy += n
            elif vs == "boss":
                self.p_boss += n
            else:
                self.p_raid += n
        elif op == "reroll":
            self.reroll += n
        elif op == "peek_enemy":
            self.peek += n
        elif op == "craft_discount":
            kind = p["kind"]
            if kind in ("equipment", "any"):
                self.cd_equip += n
            if kind in ("facility", "any"):
                self.cd_fac += n
        elif op == "hand_size":
            self.hand += n
        elif op == "link_bases":
            self.link = 1
        elif op == "extra_level_up":
            self.extra_level += n


class Rules:
    """The rules; mixed into ``valheim.State`` (which holds the slots)."""

    # ---- small queries -----------------------------------------------------------------------------
    def rule(self, key):
        return self.setup.rules[key]

    def bases(self) -> list[int]:
        lv = self.s_level
        return [k for k in range(len(lv)) if lv[k] >= 0]

    def has(self, cost) -> bool:
        pool = self.pool
        return all(pool[r] >= n for r, n in cost)

    def pay(self, cost, why) -> None:
        pool, supply = self.pool, self.supply
        for r, n in cost:
            pool[r] -= n
            supply[r] += n
            self.log.append(("spend", r, n, why))

    def take_supply(self, r: int, n: int) -> int:
        """Move up to n tokens of r from the supply (limited) into the pool; return how many."""
        if self.unlimited:
            got = n
        else:
            got = min(n, self.supply[r])
            self.supply[r] -= got
        self.pool[r] += got
        return got

    def dist(self, origin: int, links: bool = True) -> list[int]:
        """Steps from slot ``origin`` to every placed slot (4-neighbour BFS; 0-cost links between
        bases once a link_bases facility stands, unless ``links`` is False: a walker's own steps).

        Cached in ``_dist`` by origin (links: ``-1 - origin``) with the adjacency under "adj"; a
        new tile updates the cached plain distances in place of a new search (``map_grew``)."""
        cache = self._dist
        link = links and self.fac.link
        key = -1 - origin if link else origin
        d = cache.get(key)
        if d is not None:
            return d
        adj = cache.get("adj")
        if adj is None:
            adj = cache["adj"] = [self.neighbours(x, y) for x, y in self.s_pos]
        d = [INF] * len(adj)
        d[origin] = 0
        if not link:
            queue = [origin]
            for k in queue:  # plain BFS: the list grows while we walk it
                dk = d[k] + 1
                for j in adj[k]:
                    if d[j] > dk:
                        d[j] = dk
                        queue.append(j)
        else:
            bases = self.bases()
            queue = deque([origin])
            while queue:
                k = queue.popleft()
                dk = d[k]
                if self.s_level[k] >= 0:
                    for b in bases:
                        if d[b] > dk:
                            d[b] = dk
                            queue.appendleft(b)
                for j in adj[k]:
                    if d[j] > dk + 1:
                        d[j] = dk + 1
                        queue.append(j)
        cache[key] = d
        return d

    def neighbours(self, x: int, y: int) -> list[int]:
        grid = self.grid
        return [j for j in (grid.get((x + dx, y + dy)) for dx, dy in STEP) if j is not None]

    def map_grew(self, k: int) -> dict:
        """The distance cache after slot k was laid: the adjacency gains k, and every cached
        distance list gains k and whatever got shorter through it (only paths through k can);
        the frontier is dropped (the caller rebuilds it)."""
        old = self._dist
        cache = {}
        adj = old.get("adj")
        if adj is None:
            return cache
        x, y = self.s_pos[k]
        adj.append(self.neighbours(x, y))
        for j in adj[k]:
            u, v = self.s_pos[j]
            adj[j] = self.neighbours(u, v)
        cache["adj"] = adj
        bases = None
        for key, d in old.items():
            if type(key) is not int:
                continue
            if key < 0 and bases is None:
                bases = self.bases()
            d = d + [INF]  # a new list: callers may still hold the old one
            best = min([d[j] for j in adj[k]], default=INF)
            if best < INF:
                d[k] = best + 1
                _relax(d, [k], adj, bases if key < 0 else None)
            cache[key] = d
        return cache

    def base_added(self, k: int) -> None:
        """Slot k became a base: with base links, every base is now as near as the nearest."""
        if not self.fac.link:
            return
        cache = self._dist
        bases = self.bases()
        for key in [key for key in cache if type(key) is int and key < 0]:
            d = list(cache[key])  # a new list: callers may still hold the old one
            near = min(d[b] for b in bases)
            changed = [b for b in bases if d[b] > near]
            for b in changed:
                d[b] = near
            _relax(d, changed, cache["adj"], bases)
            cache[key] = d

    def avatar_strength(self, b: int) -> int:
        """An avatar's printed strength plus its player-count step (rules.hunt.strength_by_players)."""
        return self.setup.boss_strength[b] + self.boss_bonus

    def equip_level(self, s: int) -> int:
        lv = self.setup.r_level
        return sum(lv[r] for r in self.equip[s] if r >= 0)

    def power(self, s: int, vs: str, base_level: int = 0) -> int:
        """Combat power without the die: hand + equipment (+ base level) + modifiers."""
        rules = self.setup.rules
        p = len(self.hand[s]) if rules["hunt.power_adds_hand"] else 0
        if rules["hunt.power_adds_equipment"]:
            p += self.equip_level(s)
        if rules["hunt.combat_adds_base_level"]:
            p += base_level
        m = self.mods
        if vs == "raid":
            return p + self.fac.p_raid
        p += m.p_all
        p += m.p_boss if vs == "boss" else m.p_enemy
        return p

    def win_prob(self, s: int, strength: int, vs: str, base_level: int = 0) -> float:
        need = strength - self.power(s, vs, base_level)
        sides = self.setup.rules["hunt.die_sides"]
        if not self.setup.rules["hunt.tie_wins"]:
            need += 1
        return min(1.0, max(0.0, (sides - need + 1) / sides))

    # ---- cards ---------------------------------------------------------------------------------------
    def draw_up(self, s: int, limit: int) -> bool:
        """Briefing draw for seat s; False when taking the last marker ended the round."""
        deck, hand = self.deck[s], self.hand[s]
        while len(hand) < limit:
            if not deck:
                if self.discard[s]:
                    deck.extend(self.discard[s])
                    self.discard[s] = []
                    shuffle(deck, self.rng)
                self.log.append(("reshuffle", s, len(deck)))
                if not self.marker[s]:
                    self.marker[s] = True
                    self.markers_left -= 1
                    self.log.append(("marker", s, self.markers_left))
                    if self.markers_left <= 0:
                        return False
                if not deck:
                    return True
            hand.append(deck.pop())
        return True

    # ---- flow: rounds and cycles ---------------------------------------------------------------------
    def start_round(self) -> None:
        setup, rules = self.setup, self.setup.rules
        r = self.round_id
        tier = setup.round_tier[min(r, rules["rounds"]) - 1] if setup.round_tier else self.mtier
        self.log.append(("round", r, setup.tiers[tier] if setup.tiers else None))
        if tier != self.mtier:
            self.change_tier(tier)
        if r > 1:
            self.refill_tiles()
        self.cycle = 0
        self.briefing()

    def change_tier(self, tier: int) -> None:
        old = self.mtier
        self.mtier = tier
        if self.setup.rules["market.tier_change"] == "swap_row":
            self.mout.extend(c for c in self.row if c >= 0)
            self.row = [-1] * len(self.row)
        self.log.append(("tier", old, tier))
        self.refill_row()

    def deal_market(self) -> int:
        pile = self.mpiles[self.mtier]
        if not pile and self.setup.rules["market.empty_tier"] == "next_tier":
            for t in range(self.mtier + 1, len(self.mpiles)):
                if self.mpiles[t]:
                    pile = self.mpiles[t]
                    break
        if not pile:
            return -1
        c = pile.pop()
        self.log.append(("offer", c))
        return c

    def refill_row(self) -> None:
        row = self.row
        for i in range(len(row)):
            if row[i] < 0:
                row[i] = self.deal_market()

    def refill_tiles(self) -> None:
        stack = self.setup.rules["map.refill"] == "stack"
        t_res = self.setup.t_res
        for k, tile in enumerate(self.s_tile):
            tok = self.s_tok[k]
            for r, n in t_res[tile]:
                want = n if stack else n - tok[r]
                if want > 0:
                    got = want if self.unlimited else min(want, self.supply[r])
                    if not self.unlimited:
                        self.supply[r] -= got
                    tok[r] += got

    def briefing(self) -> None:
        limit = self.setup.rules["deck.hand_size"] + self.fac.hand
        for s in range(self.n):
            if not self.draw_up(s, limit):
                self.end_round()
                return
        self.commits = [None] * self.n
        self.seat = -1
        self.phase = P_COMMIT
        self.next_committer()

    def next_committer(self) -> None:
        for s in range(self.seat + 1, self.n):
            if self.hand[s]:
                self.seat = s
                return
            self.commits[s] = ()
        self.reveal()

    def reveal(self) -> None:
        setup = self.setup
        weight, effects = setup.c_weight, setup.c_effect
        n_act = [0] * 5
        p_act = [0] * 5
        self.played = played = [[] for _ in range(self.n)]
        m = self.fac.copy()
        self.mods = m
        gains, pays = [], []
        for s in range(self.n):
            commit = self.commits[s]
            if not commit:
                continue
            hand = self.hand[s]
            for c, a in commit:
                hand.remove(c)
                played[s].append((c, a))
                n_act[a] += weight[c]
                p_act[a] |= 1 << s
            self.log.append(("reveal", s, commit))
        for s in range(self.n):
            for c, _ in played[s]:
                for op, p in effects[c]:
                    if op == "draw":
                        self.draw_effect(s, p["n"])
                    elif op == "gain":
                        gains.append(p["resources"])
                    elif op == "pay":
                        pays.append((s, c, p))
                    else:
                        m.add(op, p)
        for resources in gains:
            for r, k in resources:
                got = self.take_supply(r, k)
                self.log.append(("gain", r, got))
        self.n_act, self.p_act = n_act, p_act
        self.reroll_left = m.reroll
        self.pays = pays
        self.act = -1
        self.next_pay()

    def draw_effect(self, s: int, k: int) -> None:
        deck = self.deck[s]
        got = min(k, len(deck))
        for _ in range(got):
            self.hand[s].append(deck.pop())
        self.log.append(("draw", s, got))

    def next_pay(self) -> None:
        while self.pays:
            s, c, p = self.pays[0]
            if self.has(p["cost"]):
                self.phase, self.seat = P_PAY, s
                return
            self.pays.pop(0)
        self.next_action()

    def next_action(self) -> None:
        """Resolve the next revealed action in the fixed order, or close the main phase."""
        rules = self.setup.rules
        skip = rules["ap.skip_action_without_cards"]
        if self.act >= 0 and rules["round.played_to_discard"] == "after_each_action":
            self.discard_played(self.act)
        while self.phase != P_OVER:
            self.act += 1
            a = self.act
            if a >= 5:
                self.end_main()
                return
            if skip and not self.n_act[a]:
                continue
            mask = self.p_act[a]
            self.seat = min(s for s in range(self.n) if mask >> s & 1) if mask else 0
            bases = self.bases()
            if len(bases) == 1:
                self.begin_action(bases[0])
            else:
                self.phase = P_BASE
            return

    def begin_action(self, base: int) -> None:
        rules = self.setup.rules
        a = self.act
        mask = self.p_act[a]
        p = bin(mask).count("1")
        mult = rules["ap.group_multiplier"] if p >= rules["ap.group_min_players"] else 1
        level = self.s_level[base] if rules["ap.add_base_level"] else 0
        ap = self.n_act[a] * rules["ap.per_card"] * mult + level + self.mods.extra_ap[a]
        self.base, self.ap, self.ap_start = base, ap, ap
        self.free = self.mods.free[a]
        self.log.append(("ap", a, base, ap, self.n_act[a], p))
        if a == EXPLORE:
            self.walker = base
        elif a == GATHER:
            self.yield_left = self.mods.yield_
        elif a == TRAIN:
            self.trash_left = self.mods.trash
        elif a == HUNT:
            self.hunt_begin()
            return
        self.phase = ACTION_PHASE[a]
        self.settle()

    def finish_action(self) -> None:
        if self.ap > 0:
            self.log.append(("waste", self.act, self.ap))
        self.ap = 0
        if self.act == TRAIN and self.setup.rules["market.refill"] == "end_of_action":
            self.refill_row()
        self.next_action()

    def settle(self) -> None:
        """Close the action when nothing affordable is left (AP are lost, seed)."""
        if self.phase in ACTION_PHASE and self.phase != P_HUNT and not self.can_act():
            self.finish_action()

    def discard_played(self, upto: int) -> None:
        for s in range(self.n):
            keep = []
            for c, a in self.played[s]:
                if a <= upto:
                    self.discard[s].append(c)
                else:
                    keep.append((c, a))
            self.played[s] = keep

    def end_main(self) -> None:
        self.discard_played(4)
        self.cycle += 1
        self.log.append(("cycle", self.round_id, self.cycle))
        if self.cycle >= self.setup.rules["round.cycle_cap"]:
            self.log.append(("cap", self.round_id))
            self.end_round()
            return
        self.briefing()

    def end_round(self) -> None:
        setup, rules = self.setup, self.setup.rules
        self.log.append(("round_end", self.round_id, self.cycle))
        if rules["raids.enabled"]:
            self.raid()
        if rules["inheritance.mode"] == "carry_by_train":
            self.drop_unkept()
        keep_hand = rules["round.hand_kept_at_round_end"]
        for s in range(self.n):
            deck = self.deck[s]
            deck.extend(self.discard[s])
            self.discard[s] = []
            if not keep_hand:
                deck.extend(self.hand[s])
                self.hand[s] = []
            shuffle(deck, self.rng)
            self.marker[s] = False
        self.markers_left = self.n
        top = rules["bases.max_level"]
        if rules["bases.auto_level_per_round"]:
            for k in self.bases():
                if self.s_level[k] < top:
                    self.s_level[k] += 1
                    self.log.append(("level", k, self.s_level[k], 0))
        self.leveled = {}
        self.extra_left = self.fac.extra_level
        self.phase, self.seat = P_LEVEL, 0
        if self.last_round() or not self.level_options():
            self.next_round()  # no level-ups after the last round: the game ends here

    def last_round(self) -> bool:
        """No round follows this one (round 7 without a final battle, or the final battle's last)."""
        rules = self.setup.rules
        last = rules["rounds"]
        if self.round_id < last:
            return False
        if not rules["final_battle.enabled"] or all(self.defeated):
            return True
        return self.round_id >= last + rules["final_battle.extra_rounds"]

    def next_round(self) -> None:
        rules = self.setup.rules
        last = rules["rounds"]
        if self.round_id + 1 > last:
            if self.demon_hp is None:
                alive = [b for b in range(len(self.defeated)) if not self.defeated[b]]
                if not rules["final_battle.enabled"] or not alive:
                    self.finish("loss")
                    return
                self.demon_hp = len(alive)
                self.demon_str = max(self.setup.boss_strength[b] for b in alive) + \
                    rules["final_battle.strength_per_extra_avatar"] * (len(alive) - 1) + \
                    rules["final_battle.strength_by_players"].get(self.n, 0)
                self.log.append(("demon", self.demon_hp, self.demon_str))
            if self.round_id + 1 > last + rules["final_battle.extra_rounds"]:
                self.finish("loss")
                return
        self.round_id += 1
        self.start_round()

    def finish(self, outcome: str) -> None:
        self.outcome = outcome
        self.phase = P_OVER
        self.seat = -1
        self.log.append(("end", outcome, self.round_id))

    def raid(self) -> None:
        """G20 night raid: one enemy; any player reaching its strength repels it."""
        setup = self.setup
        e = self.draw_enemy(regular_only=True)
        if e is None:
            return
        r = min(self.round_id, setup.rules["rounds"])
        strength = setup.e_strength[e][r - 1]
        sides = setup.rules["hunt.die_sides"]
        ok = False
        for s in range(self.n):
            roll = 1 + int(self.rng.random() * sides)
            if self.power(s, "raid") + roll >= strength:
                ok = True
        self.ediscard.append(e)
        self.log.append(("raid", e, strength, ok))
        if not ok:
            lose = setup.rules["raids.discard_on_fail"]
            for s in range(self.n):
                hand = self.hand[s]
                for _ in range(min(lose, len(hand))):
                    c = min(hand, key=lambda x: (setup.c_tier[x], x))  # the players drop basic cards first
                    hand.remove(c)
                    self.discard[s].append(c)
                    self.log.append(("raid_discard", s, c))

    def drop_unkept(self) -> None:
        tier = self.setup.c_tier
        for s in range(self.n):
            for zone in (self.deck, self.hand, self.discard):
                cards = zone[s]
                gone = [c for c in cards if tier[c] >= 0 and c not in self.kept]
                if gone:
                    zone[s] = [c for c in cards if c not in gone]
                    self.exiled.extend(gone)
                    for c in gone:
                        self.log.append(("unkept", s, c))
        self.kept = set()

    # ---- hunt ------------------------------------------------------------------------------------------
    def in_final(self) -> bool:
        return self.demon_hp is not None

    def hunt_begin(self) -> None:
        self.fought = 0
        self.dungeon = -1
        self.peeked = False
        self.dive_bonus = 0
        self.pending = None
        self.redraw = -1
        final = self.in_final()
        if final and self.setup.rules["final_battle.skip_dungeon_distance"]:
            self.hunt_continue()
            return
        self.phase = P_HUNT
        if not self.dungeon_options():
            self.finish_action()

    def dungeon_options(self) -> list[int]:
        d = self.dist(self.base)
        free, ap = self.free, self.ap
        dungeon = self.setup.t_dungeon
        return [k for k, t in enumerate(self.s_tile) if dungeon[t] and max(0, d[k] - free) <= ap]

    def enter_dungeon(self, k: int) -> None:
        cost = self.dist(self.base)[k]
        waived = min(self.free, cost)
        self.free -= waived
        self.ap -= cost - waived
        self.dungeon = k
        self.dive_bonus = self.s_dives[k] * self.setup.rules["hunt.dungeon_dive_counter"]
        self.s_dives[k] += 1
        self.log.append(("dungeon", k, cost - waived))
        self.hunt_continue()

    def hunters(self) -> list[int]:
        mask = self.p_act[HUNT]
        return [s for s in range(self.n) if mask >> s & 1]

    def eligible(self) -> list[int]:
        hunters = self.hunters()
        if not self.setup.rules["hunt.fighter_rotation"]:
            return hunters
        left = [s for s in hunters if not self.fought >> s & 1]
        if not left:
            self.fought = 0
            left = hunters
        return left

    def hunt_continue(self) -> None:
        """Fight with the remaining AP, stopping at each real decision."""
        while self.ap > 0 and self.phase != P_OVER:
            if self.redraw >= 0:
                s, self.redraw = self.redraw, -1
                if not self.fight(s):
                    return
                continue
            if self.mods.peek and not self.peeked and not self.in_final():
                self.peeked = True
                self.top_up_enemies(self.mods.peek)
                if min(self.mods.peek, len(self.edeck)) >= 2:
                    self.phase = P_ORDER
                    return
            who = self.eligible()
            if not who:
                break
            if len(who) > 1:
                self.phase, self.seat = P_FIGHTER, who[0]
                return
            if not self.fight(who[0]):
                return
        if self.phase != P_OVER:
            self.phase = P_HUNT
            self.finish_action()

    def top_up_enemies(self, k: int) -> None:
        if len(self.edeck) < k and self.ediscard and self.setup.rules["hunt.enemy_reshuffle"]:
            rest = self.ediscard
            self.ediscard = []
            shuffle(rest, self.rng)
            self.edeck[:0] = rest  # under the current deck

    def draw_enemy(self, regular_only: bool = False):
        while True:
            if not self.edeck:
                if not self.ediscard or not self.setup.rules["hunt.enemy_reshuffle"]:
                    return None
                self.edeck = self.ediscard
                self.ediscard = []
                shuffle(self.edeck, self.rng)
                self.log.append(("enemy_reshuffle",))
            e = self.edeck.pop()
            if regular_only and self.setup.e_boss[e]:
                self.ediscard.append(e)
                continue
            return e

    def fight(self, s: int) -> bool:
        """One fight by seat s for one AP; False when it waits for a reroll decision."""
        setup, rules = self.setup, self.setup.rules
        self.fighter = s
        base_level = self.s_level[self.base]
        if self.in_final():
            strength, vs, foe = self.demon_str, "boss", ("demon", -1)
        else:
            while True:
                e = self.draw_enemy()
                if e is None:
                    self.ap = 0
                    return True
                if setup.e_boss[e]:
                    b = setup.t_biome[self.s_tile[self.dungeon]]
                    if self.defeated[b]:
                        self.ediscard.append(e)
                        self.log.append(("no_boss", b))
                        continue
                    strength, vs, foe = self.avatar_strength(b) + self.dive_bonus, "boss", ("boss", e, b)
                else:
                    r = min(self.round_id, rules["rounds"])
                    strength, vs, foe = setup.e_strength[e][r - 1] + self.dive_bonus, "enemy", ("enemy", e)
                break
        power = self.power(s, vs, base_level)
        roll = 1 + int(self.rng.random() * rules["hunt.die_sides"])
        self.pending = [foe, strength, power, roll, len(self.hand[s])]
        if not self.beats(power + roll, strength) and self.reroll_left > 0:
            self.phase, self.seat = P_REROLL, s
            return False
        self.settle_fight()
        return True

    def beats(self, total: int, strength: int) -> bool:
        return total >= strength if self.setup.rules["hunt.tie_wins"] else total > strength

    def settle_fight(self) -> None:
        setup, rules = self.setup, self.setup.rules
        foe, strength, power, roll, hand = self.pending
        self.pending = None
        s = self.fighter
        win = self.beats(power + roll, strength)
        kind = foe[0]
        self.log.append(("fight", s, kind, foe[1], strength, power, roll, win, hand, foe[2] if kind == "boss" else -1))
        consume = True
        if kind == "demon":
            if win:
                self.demon_hp -= 1
                if self.demon_hp <= 0:
                    self.finish("win")
                    return
        elif kind == "boss":
            self.ediscard.append(foe[1])
            if win:
                self.defeated[foe[2]] = True
                self.log.append(("avatar", foe[2], self.round_id))
                if all(self.defeated):
                    self.finish("win")
                    return
            elif rules["hunt.boss_fail"] == "redraw":
                consume = False
        else:
            self.ediscard.append(foe[1])
            if win:
                for r, n in setup.e_reward[foe[1]]:
                    got = self.take_supply(r, n)
                    self.log.append(("reward", r, got))
        if consume:
            self.ap -= 1
            self.fought |= 1 << s
        else:
            # a failed avatar fight draws again for the same AP, same fighter (seed, literal)
            self.redraw = s

    # ---- round end: level-ups ----------------------------------------------------------------------
    def level_cost(self, k: int):
        """(cost, kind) of levelling base k now, or None."""
        rules = self.setup.rules
        lv = self.s_level[k]
        if lv < 0 or lv >= rules["bases.max_level"] or lv >= len(self.setup.level_cost):
            return None
        cost = self.setup.level_cost[lv]
        done = self.leveled.get(k, 0)
        if done < rules["bases.level_ups_per_base_per_round"]:
            return cost, 0
        if done == rules["bases.level_ups_per_base_per_round"]:
            if self.extra_left > 0:
                return cost, 1
            if rules["bases.double_level_up"]:
                return tuple((r, 2 * n) for r, n in cost), 2
        return None

    def level_options(self) -> list[int]:
        out = []
        for k in self.bases():
            c = self.level_cost(k)
            if c is not None and self.has(c[0]):
                out.append(k)
        return out

    # ---- affordability (auto-closing an action) --------------------------------------------------------
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
        c = self.setup.rules["explore.move_cost"]
        return max(0, c - self.free)

    def edge_at(self, k: int, d: int):
        """(biome pile to draw, cost) of the edge of slot k facing world direction d, or None."""
        e = self.edge_raw(k, d)
        return e if e is None else (e[0], max(1, e[1] - self.mods.edisc))

    def frontier(self) -> list[tuple]:
        """Every edge that could be opened now: (slot, world direction, pile biome, printed cost);
        cached until the map changes."""
        f = self._dist.get(None)
        if f is None:
            f = []
            for k in range(len(self.s_tile)):
                for d in range(4):
                    e = self.edge_raw(k, d)
                    if e is not None:
                        f.append((k, d, e[0], e[1]))
            self._dist[None] = f
        return f

    def edge_raw(self, k: int, d: int):
        tile = self.s_tile[k]
        edge = self.setup.t_edges[tile][(d - self.s_rot[k]) % 4]
        if edge is None:
            return None
        x, y = self.s_pos[k]
        dx, dy = STEP[d]
        if (x + dx, y + dy) in self.grid:
            return None
        b = edge[0]
        if not self.piles[b]:
            if self.setup.rules["map.empty_pile"] != "adjacent_tier":
                return None
            alt = [c for c in (b - 1, b + 1) if 0 <= c < len(self.piles) and self.piles[c]]
            if not alt:
                return None
            b = alt[0]
        return b, edge[1]

    def explore_options(self, first=False) -> list[tuple]:
        out = []
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
        rules = self.setup.rules
        dist = b_dist[k]
        waived = min(self.free, dist)
        raw = dist - waived + rules["gather.base_cost"]
        g = self.mods.gdisc
        return (min(raw, max(1, raw - g)) if g else raw), waived

    def gather_options(self, first=False) -> list[tuple]:
        out = []
        ap = self.ap
        d = self.dist(self.base)
        gate = self.setup.gate
        t_biome = self.setup.t_biome
        base_level = self.s_level[self.base]
        for k, tok in enumerate(self.s_tok):
            if not any(tok):
                continue
            if gate[t_biome[self.s_tile[k]]] > base_level:
                continue
            cost, _ = self.gather_cost(k, d)
            if cost > ap:
                continue
            for r in self.setup.t_rids[self.s_tile[k]]:
                if tok[r]:
                    out.append((TAKE, k, r))
                    if first:
                        return out
        return out

    def train_revealers(self) -> list[int]:
        mask = self.p_act[TRAIN]
        return [s for s in range(self.n) if mask >> s & 1]

    def buy_cost(self, c: int) -> int:
        return max(1, self.setup.c_cost[c] - self.mods.mdisc)

    def train_options(self, first=False) -> list[tuple]:
        out = []
        ap = self.ap
        who = self.train_revealers()
        for i, c in enumerate(self.row):
            if c >= 0 and self.buy_cost(c) <= ap:
                for s in who:
                    out.append((BUY, i, s))
                if first and out:
                    return out
        cost = 0 if self.trash_left else self.setup.rules["train.remove_cost"]
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

    def craft_options(self, first=False) -> list[tuple]:
        out = []
        setup, rules = self.setup, self.setup.rules
        ap = self.ap
        if len(self.bases()) < rules["craft.max_bases"] and self.has(setup.new_base_cost):
            d = self.dist(self.base)
            free = self.free
            for k in range(len(self.s_tile)):
                if self.s_level[k] < 0 and max(0, d[k] - free) <= ap:
                    out.append((NEWBASE, k))
                    if first:
                        return out
        for r in range(len(setup.r_id)):
            if not self.r_left[r] or not setup.r_active[r] or self.make_cost(r) > ap or not self.has(setup.r_cost[r]):
                continue
            if setup.r_kind[r] == "facility":
                out.append((MAKE, r, -1))
            else:
                for s in range(self.n):
                    if self.equip[s][setup.r_slot[r]] != r:
                        out.append((MAKE, r, s))
            if first and out:
                return out
        return out

    # ---- legal decisions -----------------------------------------------------------------------------
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
        choices = [[()]]
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
        out = [()]
        for opts in choices[1:]:
            out = [x + y for x in out for y in opts]
        result = [(COMMIT, tuple(sorted(x))) for x in out if x]
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
            if self.setup.gate[self.setup.t_biome[self.s_tile[k]]] > self.s_level[self.base]:
                return False
            return self.gather_cost(k, self.dist(self.base))[0] <= self.ap
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
            d = action[1]
            if d not in (0, 1, 2, 3):
                return False
            e = self.edge_at(self.walker, d)
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
        return action in self.legal_unsorted()

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


def _relax(d: list[int], queue: list[int], adj, bases) -> None:
    """Lower the distances ``d`` from the slots in ``queue`` (whose distances just dropped) until
    nothing gets shorter; ``bases`` (or None) are linked at no cost. Exact whatever the order."""
    for u in queue:  # the list grows while we walk it
        du = d[u]
        if bases is not None and u in bases:
            for b in bases:
                if d[b] > du:
                    d[b] = du
                    queue.append(b)
        du += 1
        for j in adj[u]:
            if d[j] > du:
                d[j] = du
                queue.append(j)


# ---- decision handlers ---------------------------------------------------------------------------------

def h_commit(state, a) -> None:
    state.commits[state.seat] = a[1]
    state.next_committer()


def h_rest(state, a) -> None:
    s, c = state.seat, a[1]
    state.hand[s].remove(c)
    state.discard[s].append(c)
    state.log.append(("rest", s, c))
    state.commits[s] = ()
    state.next_committer()


def h_pay(state, a) -> None:
    s, c, p = state.pays.pop(0)
    state.log.append(("pay", s, c, a[2]))
    if a[2]:
        state.pay(p["cost"], "pay")
        for op, q in p["then"]:
            if op == "gain":
                for r, k in q["resources"]:
                    state.log.append(("gain", r, state.take_supply(r, k)))
            elif op == "draw":
                state.draw_effect(s, q["n"])
            elif op == "pay":
                state.pays.insert(0, (s, c, q))
            else:
                state.mods.add(op, q)
    state.next_pay()


def h_base(state, a) -> None:
    state.begin_action(a[1])


def h_move(state, a) -> None:
    full = state.setup.rules["explore.move_cost"]
    waived = min(state.free, full)
    state.free -= waived
    state.ap -= full - waived
    state.walker = a[1]
    state.log.append(("move", a[1], full - waived))
    state.settle()


def h_open(state, a) -> None:
    d = a[1]
    b, cost = state.edge_at(state.walker, d)
    state.ap -= cost
    pile = state.piles[b]
    k = min(len(pile), max(1, state.mods.choose))
    state.drawn = [pile.pop() for _ in range(k)]
    state.open_ctx = (d, b, cost)
    if len(state.drawn) > 1:
        state.phase = P_PICK
        return
    place_tile(state, 0)


def h_pick(state, a) -> None:
    place_tile(state, a[1])


def place_tile(state, i: int) -> None:
    d, b, cost = state.open_ctx
    tile = state.drawn[i]
    pile = state.piles[b]
    for j, other in enumerate(state.drawn):
        if j != i:
            pile.insert(0, other)  # the rest go to the bottom of the pile
    state.drawn = []
    x, y = state.s_pos[state.walker]
    dx, dy = STEP[d]
    k = len(state.s_tile)
    state.s_tile.append(tile)
    state.s_pos.append((x + dx, y + dy))
    state.s_rot.append(d)  # the blank entry edge (printed s) faces the tile it was opened from
    state.s_level.append(-1)
    state.s_dives.append(0)
    tok = [0] * len(state.pool)
    for r, n in state.setup.t_res[tile]:
        got = n if state.unlimited else min(n, state.supply[r])
        if not state.unlimited:
            state.supply[r] -= got
        tok[r] += got
    state.s_tok.append(tok)
    cell = (x + dx, y + dy)
    state.grid[cell] = k
    old = state._dist.get(None)
    state._dist = state.map_grew(k)
    state.log.append(("tile", k, tile, x + dx, y + dy, d, cost))
    if not pile:
        state.log.append(("pile_out", b))
    elif old is not None:
        # the frontier changes only at the new cell (no pile emptied): update it in place
        pos = state.s_pos
        new = [e for e in old if (pos[e[0]][0] + STEP[e[1]][0], pos[e[0]][1] + STEP[e[1]][1]) != cell]
        for dd in range(4):
            e = state.edge_raw(k, dd)
            if e is not None:
                new.append((k, dd, e[0], e[1]))
        state._dist[None] = new
    if state.setup.rules["explore.walk_continues_past_new_tile"]:
        state.walker = k
    state.phase = P_EXPLORE
    state.settle()


def h_take(state, a) -> None:
    k, r = a[1], a[2]
    cost, waived = state.gather_cost(k, state.dist(state.base))
    state.free -= waived
    state.ap -= cost
    state.s_tok[k][r] -= 1
    state.pool[r] += 1
    extra = 0
    if state.yield_left > 0:
        state.yield_left -= 1
        extra = state.take_supply(r, 1)
    state.log.append(("gather", k, r, cost, extra))
    state.settle()


def h_buy(state, a) -> None:
    i, s = a[1], a[2]
    c = state.row[i]
    cost = state.buy_cost(c)
    state.ap -= cost
    where = state.setup.rules["train.bought_to"]
    if where == "hand":
        state.hand[s].append(c)
    elif where == "deck_top":
        state.deck[s].append(c)
    else:
        state.discard[s].append(c)
    state.row[i] = state.deal_market() if state.setup.rules["market.refill"] == "immediate" else -1
    state.log.append(("buy", c, s, cost))
    state.settle()


def h_trash(state, a) -> None:
    s, c = a[1], a[2]
    if state.trash_left:
        state.trash_left -= 1
        cost = 0
    else:
        cost = state.setup.rules["train.remove_cost"]
        state.ap -= cost
    state.discard[s].remove(c)
    state.exiled.append(c)
    state.log.append(("trash", s, c, cost))
    state.settle()


def h_keep(state, a) -> None:
    state.ap -= state.setup.rules["inheritance.carry_cost_ap"]
    state.kept.add(a[2])
    state.log.append(("keep", a[1], a[2]))
    state.settle()


def h_dungeon(state, a) -> None:
    state.enter_dungeon(a[1])


def h_fighter(state, a) -> None:
    if state.fight(a[1]):
        state.hunt_continue()


def h_order(state, a) -> None:
    perm = a[1]
    k = len(perm)
    state.edeck[-k:] = list(perm[::-1])  # perm is top first; the top of the deck is the list's end
    state.log.append(("order", perm))
    state.phase = P_HUNT
    state.hunt_continue()


def h_reroll(state, a) -> None:
    if a[1]:
        state.reroll_left -= 1
        pend = state.pending
        old = pend[3]
        pend[3] = 1 + int(state.rng.random() * state.setup.rules["hunt.die_sides"])
        state.log.append(("reroll", state.fighter, old, pend[3]))
        if not state.beats(pend[2] + pend[3], pend[1]) and state.reroll_left > 0:
            return
    state.phase = P_HUNT
    state.settle_fight()
    state.hunt_continue()


def h_newbase(state, a) -> None:
    k = a[1]
    dist = state.dist(state.base)[k]
    waived = min(state.free, dist)
    state.free -= waived
    state.ap -= dist - waived
    state.pay(state.setup.new_base_cost, "base")
    state.s_level[k] = state.setup.rules["craft.new_base_level"]
    state.base_added(k)
    state.log.append(("newbase", k, dist - waived))
    state.settle()


def h_make(state, a) -> None:
    r, s = a[1], a[2]
    setup = state.setup
    cost = state.make_cost(r)
    state.ap -= cost
    state.pay(setup.r_cost[r], "craft")
    state.r_left[r] -= 1
    if setup.r_kind[r] == "facility":
        state.facilities.append(r)
        for op, p in setup.r_effect[r]:
            state.fac.add(op, p)
            state.mods.add(op, p)  # from the moment it is built
        # distances stand: searches over base links are only made (and cached) once links stand
    else:
        slot = setup.r_slot[r]
        old = state.equip[s][slot]
        if old >= 0 and setup.rules["craft.replaced_equipment"] == "supply":
            state.r_left[old] += 1
        state.equip[s][slot] = r
    state.log.append(("make", r, s, cost))
    state.settle()


def h_level(state, a) -> None:
    k = a[1]
    cost, kind = state.level_cost(k)
    state.pay(cost, "level")
    state.s_level[k] += 1
    state.leveled[k] = state.leveled.get(k, 0) + 1
    if kind == 1:
        state.extra_left -= 1
    state.log.append(("level", k, state.s_level[k], 1))
    if not state.level_options():
        state.next_round()


def h_done(state, a) -> None:
    if state.phase == P_LEVEL:
        state.next_round()
    else:
        state.finish_action()


HANDLERS = {COMMIT: h_commit, REST: h_rest, PAY: h_pay, BASE: h_base, MOVE: h_move, OPEN: h_open, PICK: h_pick,
            TAKE: h_take, BUY: h_buy, TRASH: h_trash, KEEP: h_keep, DUNGEON: h_dungeon, FIGHTER: h_fighter,
            ORDER: h_order, REROLL: h_reroll, NEWBASE: h_newbase, MAKE: h_make, LEVEL: h_level, DONE: h_done}
