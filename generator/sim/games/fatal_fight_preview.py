"""Fatal Fight: what the greedy agent knows about cards and attacks — static card worth, kill
values, the ``Board`` snapshot that previews an attack with list lookups (never a ``clone()``)
and the distinct chains a hand can make.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Optional, Sequence

from operator import add

from ..state import kept_on_setup, setup_memo
from . import fatal_fight_combat as combat
from .fatal_fight_actions import NEIGHBOURS
from .fatal_fight_setup import GRAPPLE, LAUNCH, PIERCE, RANGE, Setup

if TYPE_CHECKING:
    from .fatal_fight import State

    Chain = tuple[int, int, int, float, tuple[int, ...]]  # (ap, pierce, range, card cost, positions)
    Reach = tuple[list[Chain], bool]                      # (chains, none has pierce or range)
    Place = tuple[int, float, int, int, bool]             # (square, move cost, k, reach kind, leads)

BOSS_VALUE: Final = 1000.0
OBSTACLE_VALUE: Final = 2.0
GRUNT_VALUE: Final = 2.0   # kill values: a grunt gets the bonuses that apply
CARRIER_BONUS: Final = 2.5
SWOLLEN_BONUS: Final = 1.0
SHIELD_BONUS: Final = 1.5
# Board.range_steps adds kill values out of position order: exact only while all are halves
assert all((2 * v).is_integer() for v in (BOSS_VALUE, OBSTACLE_VALUE, GRUNT_VALUE, CARRIER_BONUS, SWOLLEN_BONUS,
                                          SHIELD_BONUS))
CARD_COST: Final = 0.6      # value of keeping a card in hand
LOW_LIFE: Final = 3         # defend when the predicted damage would leave this much life or less
_FLAG_WORTH: Final = {RANGE: 1.5, PIERCE: 1.0, LAUNCH: 0.8}
_OP_WORTH: Final = {"draw": 1.2, "gain_action": 1.0, "chain_ap": 0.8, "heal": 0.6, "guard": 0.7, "gold": 1.0,
             "chain_sub": 0.8, "add_hits": 0.5, "move_self": 0.3, "strike": 1.5, "save": 1.0, "gain_supply": 1.5}
DILUTION: Final = 1.0       # what one more card in the deck costs (it waters down the draws)


def card_worth(setup: Setup, c: int) -> float:
    """A rough static value of a card (shopping and choosing what to spend), cached per setup."""
    return worths(setup)[c]


def worths(setup: Setup) -> list[float]:
    """``card_worth`` of every card, computed once per setup."""
    return kept_on_setup(setup, "_worth", _all_worths)


def _all_worths(setup) -> list[float]:
    return [_worth(setup, i) for i in range(len(setup.c_id))]


def _worth(setup, c: int) -> float:
    worth = setup.c_ap[c] + 0.7 * setup.c_guard[c] + 1.2 * setup.c_draw[c] + 0.6 * setup.c_heal[c]
    worth += sum(w for bit, w in _FLAG_WORTH.items() if setup.c_flags[c] & bit)
    worth += sum(_OP_WORTH.get(op, 0.3) * max(1, p.get("n", 1)) for op, p in setup.c_effect[c])
    return worth - (2.0 if setup.c_kind[c] == "wound" else 0.0) - setup.c_life_cost[c]


def kill_value(state: State, k: int, killed: list[int], swollen: bool | None = None) -> float:
    setup, group = state.setup, state.groups[k]
    boss = setup.boss
    value = 0.0
    if swollen is None:
        swollen = combat.over_cap(state, group) > 0
    for i in killed:
        e = group[i]
        if e == boss:
            value += BOSS_VALUE
        elif e > boss:
            value += OBSTACLE_VALUE
        else:
            value += GRUNT_VALUE + (CARRIER_BONUS if setup.e_skill[e] == "carrier" else 0.0) + \
                (SWOLLEN_BONUS if swollen else 0.0)
            if boss in group:  # a grunt shielding the boss
                value += SHIELD_BONUS
    return value


def attack_value(state: State, seat: int, square: int, k: int, ap: int, flags: int, grapples: int, cache=None) -> float:
    eff, pierce = combat.effective(state, square, k, ap, flags, grapples)
    range_ = bool(flags & RANGE)
    if cache is not None:
        key = (k, eff, pierce, range_)
        value = cache.get(key)
        if value is None:
            killed = combat.damage_plan(state, k, eff, pierce, range_)
            value = cache[key] = kill_value(state, k, killed, cache["swollen"][k]) if killed else 0.0
        return value
    killed = combat.damage_plan(state, k, eff, pierce, range_)
    return kill_value(state, k, killed) if killed else 0.0


_KEPT: Final[list[Optional["Board"]]] = [None]  # the last Board made (holding its state: the state never points back, no cycle)


def current_board(state: State) -> "Board":
    """A ``Board`` of ``state``: the last one made, kept across decisions and seats (most
    decisions change no group, life or GP) and renewed in place when ``state`` changed it (the
    work on the groups that did not change is kept); a new one for another state."""
    snapshot = _KEPT[0]
    if snapshot is None or snapshot.state is not state:
        snapshot = _KEPT[0] = Board(state)
    elif not snapshot.current(state):
        snapshot.renew()
    return snapshot


class Board:
    """A snapshot of the groups for previews, per group and on first use: each position's life,
    GP and kill value (``row``), the head's (``head``: all an attack without pierce or range can
    reach) and by-AP tables for pierce and range attacks — the rules of ``combat.damage_plan`` on
    plain lists. A by-AP table holds the kill value of every AP from 0 up to the least that
    defeats all it can, read as ``table[ap] if ap < len(table) else table[-1]``: an index, not a
    bisect, at each of the ~2,000 previews a game (AP is never negative: card AP, chain bonuses
    and grapple power are not, and ``compile_setup`` refuses content that says otherwise).

    Everything here is derived from the groups, ``elife``, ``egp`` and ``xgp`` alone (and the
    fixed setup), so the snapshot keeps copies of those four and stays valid while they compare
    equal (``current``): complete by construction, whichever rule or effect changed them. A
    group's part depends on that group's list and its members' life and GP alone, so ``renew``
    keeps it where those compare equal and forgets the rest."""

    __slots__ = ("state", "rows", "heads", "steps", "ranged", "groups", "elife", "egp", "xgp")
    state: State
    rows: list[Optional[tuple[list[int], list[int], list[float]]]]
    heads: list[Optional[tuple[int, float]]]
    steps: list[Optional[list[float]]]
    ranged: list[Optional[list[float]]]
    groups: list[list[int]]
    elife: list[int]
    egp: list[int]
    xgp: list[int]

    def __init__(self, state: State):
        self.state = state
        self.rows, self.heads, self.steps, self.ranged = [None] * 6, [None] * 6, [None] * 6, [None] * 12
        self.groups = [list(g) for g in state.groups]
        self.elife, self.egp, self.xgp = list(state.elife), list(state.egp), list(state.xgp)

    def renew(self) -> None:
        """Describe the state as it is now: forget the work on every group whose list or members'
        life or GP changed, then copy the four inputs again (in place: no new lists but for
        changed groups)."""
        state = self.state
        elife, egp, xgp = state.elife, state.egp, state.xgp
        old_life, old_egp, old_xgp = self.elife, self.egp, self.xgp
        rows, heads, steps, ranged, kept = self.rows, self.heads, self.steps, self.ranged, self.groups
        for k, g in enumerate(state.groups):
            if kept[k] == g:
                for e in g:  # a member of the kept group too, so within the kept lists
                    if elife[e] != old_life[e] or egp[e] != old_egp[e] or xgp[e] != old_xgp[e]:
                        break
                else:
                    continue
            else:
                kept[k] = list(g)
            rows[k] = heads[k] = steps[k] = ranged[2 * k] = ranged[2 * k + 1] = None
        old_life[:], old_egp[:], old_xgp[:] = elife, egp, xgp

    def current(self, state: State) -> bool:
        """Whether this snapshot still describes ``state`` (a few list comparisons in C)."""
        return state is self.state and state.groups == self.groups and state.elife == self.elife \
            and state.egp == self.egp and state.xgp == self.xgp

    def row(self, k: int) -> tuple[list[int], list[int], list[float]]:
        state = self.state
        setup = state.setup
        boss = setup.boss
        g = state.groups[k]
        elife, egp, xgp, skill = state.elife, state.egp, state.xgp, setup.e_skill
        bonus = self._bonus(g)
        lives: list[int] = []
        gps: list[int] = []
        values: list[float] = []
        for e in g:  # one loop, not three comprehensions (a function frame each in Python 3.11)
            lives.append(elife[e])
            gps.append(egp[e] + xgp[e])
            values.append(BOSS_VALUE if e == boss else OBSTACLE_VALUE if e > boss else
                          bonus + (CARRIER_BONUS if skill[e] == "carrier" else 0.0))
        row = self.rows[k] = (lives, gps, values)
        return row

    def head(self, k: int) -> tuple[int, float]:
        """``(life + GP, kill value)`` of group ``k``'s head (the group is not empty)."""
        state = self.state
        g = state.groups[k]
        e = g[0]
        boss = state.setup.boss
        value = BOSS_VALUE if e == boss else OBSTACLE_VALUE if e > boss else \
            self._bonus(g) + (CARRIER_BONUS if state.setup.e_skill[e] == "carrier" else 0.0)
        head = self.heads[k] = (state.elife[e] + state.egp[e] + state.xgp[e], value)
        return head

    def pierce_steps(self, k: int) -> list[float]:
        """The by-AP table (``Board``) of a pierce attack without range on group ``k``: AP ``ap``
        defeats the positions whose running total of life it reaches. Empty if a position has no
        life left (the step rule does not hold there; ``value`` walks the group instead)."""
        row = self.rows[k]
        lives, _, vals = row if row is not None else self.row(k)
        table: list[float] = []
        total, value = 0, 0.0
        for life, val in zip(lives, vals):
            if life <= 0:
                table = []
                break
            total += life  # below this running total, only the positions before fall
            table.extend([value] * (total - len(table)))
            value += val
        else:
            table.append(value)
        self.steps[k] = table
        return table

    def range_steps(self, k: int, pierce: int) -> list[float]:
        """The by-AP table (``Board``) of a range attack on group ``k`` (with pierce or not): AP
        ``ap`` defeats every position whose life (plus GP without pierce) is at most ``ap``. Kill
        values are halves (asserted with them), so their sums are exact in any order: the same
        floats as ``damage_plan`` walking the group."""
        row = self.rows[k]
        lives, gps, vals = row if row is not None else self.row(k)
        table: list[float] = []
        total = 0.0
        for need, val in sorted(zip(lives if pierce else map(add, lives, gps), vals)):  # map: no comprehension frame
            if need > len(table):  # below ``need``, only the positions before fall
                table.extend([total] * (need - len(table)))
            total += val
        table.append(total)
        self.ranged[2 * k + (1 if pierce else 0)] = table
        return table

    def _bonus(self, g: list[int]) -> float:
        """Kill value of a grunt in ``g`` before its own skill: more if the group is swollen
        (over the cap) or shields the boss."""
        state = self.state
        setup = state.setup
        swollen = len(g) > setup.play.group_cap and combat.over_cap(state, g) > 0
        return GRUNT_VALUE + (SWOLLEN_BONUS if swollen else 0.0) + (SHIELD_BONUS if setup.boss in g else 0.0)

    def value(self, k: int, ap: int, pierce: int, range_: int) -> float:
        """Kill value of an attack of ``ap`` on group ``k`` (``combat.damage_plan`` valued as
        ``kill_value`` does)."""
        if range_:
            ranged = self.ranged[2 * k + (1 if pierce else 0)]
            table = ranged if ranged is not None else self.range_steps(k, pierce)
            return table[ap] if ap < len(table) else table[-1]
        if pierce:
            steps = self.steps[k]
            table = steps if steps is not None else self.pierce_steps(k)
            if not table:
                return self._pierce_walk(k, ap)
            return table[ap] if ap < len(table) else table[-1]
        row = self.rows[k]
        lives, gps, vals = row if row is not None else self.row(k)
        return vals[0] if lives and ap - gps[0] >= lives[0] else 0.0

    def _pierce_walk(self, k: int, ap: int) -> float:
        """A pierce attack position by position (when a position has no life left)."""
        lives, _, vals = self.rows[k]  # type: ignore[misc]
        value, carry = 0.0, ap
        for life, val in zip(lives, vals):
            if carry < life:
                break
            value += val
            carry -= life
            if carry <= 0:
                break
        return value

    def attack(self, state: State, square: int, k: int, ap: int, flags: int, grapples: int) -> float:
        """Kill value of an attack of ``ap`` with ``flags`` and ``grapples`` from ``square`` on group ``k``."""
        return self.best_attack(state, square, (k,), ap, flags, grapples)

    def best_attack(self, state: State, square: int, ks: Sequence[int], ap: int, flags: int, grapples: int) -> float:
        """The most ``attack`` gives on any of the groups ``ks`` (0.0 without any; kill values
        are never negative). One loop rather than a call per group: joins ask ~280 times a 4-character
        game, about 900 groups in all."""
        best = 0.0
        range_ = flags & RANGE
        groups = state.groups
        for k in ks:
            eff, pierce = combat.effective(state, square, k, ap, flags, grapples)
            if pierce or range_ or not groups[k]:
                value = self.value(k, eff, pierce, range_)
            else:
                known = self.heads[k]
                need, head = known if known is not None else self.head(k)  # only the head can fall
                value = head if eff >= need else 0.0
            if value > best:
                best = value
        return best


def _has_op(setup: Setup, c: int, name: str) -> bool:
    """Whether card ``c``'s effect holds op ``name`` (a set per card, computed once per setup)."""
    return name in kept_on_setup(setup, "_ops", _op_sets)[c]


def _op_sets(setup) -> list[frozenset]:
    return [frozenset(op for op, _ in effect) for effect in setup.c_effect]


_CACHE_LIMIT: Final = 4096  # entries of a per-setup cache (hands differ from game to game: keep it bounded)


class Chains:
    """The distinct chains a hand can make, as the chain search reads them (``of``), for one
    setup (``chains_of``).

    A chain's AP and flags are all that ``_subsets`` reads of a card, so the chains of a hand are
    kept by the AP and flags of its cards in the (card worth, card) order, card by card (hands of
    other cards hit the same entry), and name cards by position. An entry holds them per chain
    length limit (``min(actions, cards)``); a shorter limit's chains are those of a longer one
    with no more cards, in the same order (``_subsets`` makes them fewest cards first, and its
    pruning does not depend on the limit), so they are filtered from it rather than enumerated
    again. Hands differ from game to game, so the memo is bounded: when the newer half is full it
    becomes the older one (the oldest is dropped), and an entry found in the older half moves
    back."""

    setup: Setup
    rank: Any
    profile: list[int]
    new: dict[tuple[int, ...], dict[int, tuple[Reach, ...]]]
    old: dict[tuple[int, ...], dict[int, tuple[Reach, ...]]]

    def __init__(self, setup: Setup):
        self.setup = setup
        order = sorted(range(len(setup.c_id)), key=lambda c: (card_worth(setup, c), c))
        rank = [0] * len(order)
        for place, c in enumerate(order):
            rank[c] = place
        self.rank = rank.__getitem__
        names: dict[tuple[int, int], int] = {}
        self.profile = [names.setdefault((setup.c_ap[c], setup.c_flags[c]), len(names)) for c in range(len(order))]
        self.new, self.old = {}, {}

    def of(self, attack: list[int], acts: int) -> tuple[list[int], tuple[Reach, ...]]:
        """``(ordered, by_reach)``: the attack cards ``attack`` cheapest first (card worth, then
        card) and their distinct chains with ``acts`` actions by reach kind (``reach_table``):
        ``by_reach[2 * in normal reach + close quarters]`` is ``(chains, plain)``, ``(ap, pierce,
        range, card cost, positions in ordered)`` of every chain (in reach) or of the launchers
        (out of reach), close-quarters rule applied, in ``_subsets`` order (so card cost never
        falls), and whether none of them has pierce or range."""
        ordered = sorted(attack, key=self.rank)
        profile = self.profile
        key = tuple(map(profile.__getitem__, ordered))
        entry = self.new.get(key)
        if entry is None:
            entry = self.old.get(key) or {}
            if len(self.new) >= _CACHE_LIMIT:
                self.new, self.old = {}, self.new
            self.new[key] = entry
        limit = acts if acts < len(ordered) else len(ordered)  # no chain is longer than the hand (min() is slow)
        by_reach = entry.get(limit)
        if by_reach is None:
            longer = [size for size in entry if size > limit]
            by_reach = entry[limit] = (_shorter(entry[min(longer)], limit) if longer else
                                       self._by_reach(ordered, limit))
        return ordered, by_reach

    def _by_reach(self, ordered: list[int], acts: int) -> tuple[Reach, ...]:
        rules = self.setup.play
        n2, bonus = rules.n2, rules.n2_bonus
        far: list[Chain] = []
        close: list[Chain] = []  # close: in close quarters
        launch_far: list[Chain] = []
        launch_close: list[Chain] = []
        special = launch_special = 0  # pierce or range in any chain (of a launcher)
        for ap, flags, grapples, positions in _subsets(self.setup, self.profile, ordered, acts):
            pierce, range_, cost = flags & PIERCE, flags & RANGE, CARD_COST * len(positions)
            far.append((ap, pierce, range_, cost, positions))
            # close quarters: grapple power (N2), else pierce
            close.append((ap + grapples * bonus, pierce, range_, cost, positions) if n2 else
                         (ap, PIERCE, range_, cost, positions))
            special |= pierce | range_
            if flags & LAUNCH:
                launch_far.append(far[-1])
                launch_close.append(close[-1])
                launch_special |= pierce | range_
        if not n2:  # every close-quarters chain pierces
            close_special = launch_close_special = PIERCE
        else:
            close_special, launch_close_special = special, launch_special
        return (_entry(launch_far, launch_special), _entry(launch_close, launch_close_special),
                _entry(far, special), _entry(close, close_special))


def _entry(chains: list[Chain], special: int) -> Reach:
    """A ``by_reach`` entry: ``chains`` and whether none of them has pierce or range (``special``: any has)."""
    return (chains, not special) if chains else _NONE


def _with_plain(chains: list[Chain]) -> Reach:
    """``_entry`` of ``chains``, testing each for pierce and range."""
    special = 0
    for chain in chains:  # a loop, not any() over a generator
        special |= chain[1] | chain[2]
    return _entry(chains, special)


def _shorter(by_reach: tuple[Reach, ...], limit: int) -> tuple[Reach, ...]:
    """``by_reach`` of the same hand for a shorter chain length ``limit``: its chains of at most
    ``limit`` cards, in the same order."""
    return tuple(_with_plain([chain for chain in chains if len(chain[4]) <= limit]) for chains, _ in by_reach)


_NONE: Final[Reach] = ([], True)  # no chain of that reach kind (shared: never changed)


def chains_of(setup: Setup) -> Chains:
    """The setup's ``Chains`` (made on first use)."""
    return kept_on_setup(setup, "_chains", Chains)


def reach_table(setup: Setup, memo: dict, here: int, moving: bool, blocked: Any) -> tuple[list[Place], list[Place]]:
    """Where a chain can hit from: entries ``(square, move cost, k, reach kind, leads)`` for
    ``here`` and, if a free move is left, each open neighbour square, times the six groups, in the
    chain search's order; the reach kind is ``2 * in normal reach + close quarters``
    (``combat.targets`` and ``combat.is_cqb`` as if no group were empty) and ``leads`` tells the
    first entry of its (k, reach kind). Returns ``(every entry, the leading ones)``: a later twin
    costs at least as much to move to and scores the same, and the search keeps the first best, so
    it reads only the leading entries, but for the boss's group when partner help (which differs by
    square) is in play. Cached per setup (geometry and rule N1), in ``memo``: its ``memo_table`` "_reach"."""
    key = (here, moving, tuple(sorted(blocked)) if blocked else ())
    found = memo.get(key)  # a hit without setup_memo's call
    return found if found is not None else setup_memo(setup, "_reach", key, _reach_table_now, setup, *key)


def _reach_table_now(setup: Setup, here: int, moving: bool, blocked: tuple) -> tuple[list[Place], list[Place]]:
    squares = [here] + ([q for q in NEIGHBOURS[here] if q not in blocked] if moving else [])
    any_area = setup.play.n1
    every, first, seen = [], [], set()
    for square in squares:
        line, area = square % 3, square // 3
        move_cost = 0.2 if square != here else 0.0
        for k in range(6):
            in_reach = k == line and (any_area or area <= 1) or k == line + 3 and (any_area or area >= 1)
            kind = 2 * in_reach + combat.is_cqb(square, k)
            entry = (square, move_cost, k, kind, (k, kind) not in seen)
            every.append(entry)
            if entry[4]:
                seen.add((k, kind))
                first.append(entry)
    return every, first


def _subsets(setup: Setup, profile: list[int], ordered: list[int],
             acts: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Distinct chains (ap, flags, grapples, positions) of up to ``acts`` of the cards
    ``ordered``, fewest cards first, then in ``combinations`` order: the first of each (AP,
    pierce/range/launch, grapples).

    Each size extends the one before (a chain of ``size`` cards is one of ``size - 1`` plus a
    later card; extending in order keeps ``combinations`` order), so sums are never recomputed.
    A chain holding a card but not an earlier card of the same AP and flags is never the first
    of its kind (swapping them gives an earlier chain of the same sums), nor is any chain
    extending it, so neither is made."""
    n = len(ordered)
    aps = [setup.c_ap[c] for c in ordered]
    flags_of = [setup.c_flags[c] for c in ordered]
    grapple = [1 if f & GRAPPLE else 0 for f in flags_of]
    twins: list[int] = []
    last_seen: dict[int, int] = {}  # the previous position of a card with the same AP and flags, or -1
    for i, c in enumerate(ordered):
        twins.append(last_seen.get(profile[c], -1))
        last_seen[profile[c]] = i
    # (ap, pierce/range/launch, grapples) as one int -> the first chain with them
    seen: dict[int, tuple[int, int, int, tuple[int, ...]]] = {}
    # (positions, ap, flags, grapples) of the chains of the last size kept
    level: list[tuple[tuple[int, ...], int, int, int]] = [((), 0, 0, 0)]
    for left in range(min(acts, n), 0, -1):  # sizes still to make, this one included
        longer: list[tuple[tuple[int, ...], int, int, int]] = []
        for positions, ap, flags, grapples in level:
            for i in range(positions[-1] + 1 if positions else 0, n):
                twin = twins[i]
                if twin >= 0 and twin not in positions:
                    continue
                more = positions + (i,)
                sum_ap, all_flags, sum_grapples = ap + aps[i], flags | flags_of[i], grapples + grapple[i]
                if left > 1:  # extended by the next size
                    longer.append((more, sum_ap, all_flags, sum_grapples))
                key = (sum_ap << 8) | ((all_flags & 7) << 5) | sum_grapples  # grapples <= acts < 32
                if key not in seen:
                    seen[key] = (sum_ap, all_flags, sum_grapples, more)
        level = longer
    return list(seen.values())
