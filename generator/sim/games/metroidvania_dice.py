"""Metroidvania dice (spec §3.4): plans, their outcome, the best plan, and success chances.

A *roll* is two parallel lists: face values and colours (RED, BLUE, BLACK, WHITE). A *plan* is what
a player decides after seeing the dice::

    (removed, ap, pair_alloc, single_alloc, recolour)

``removed``: sorted die indices taken out by ascension (they must form pairs of equal faces);
``ap``: the AP dice (one per needed AP; for a QTE one per prompt, in prompt order);
``pair_alloc``: how many ascension pairs (+Pie each) go to each AP die (sums to len(removed)/2);
``single_alloc``: for each one-die AP bonus of the check (skills), the position in ``ap`` it raises;
``recolour``: ``None`` or ``(die, colour)`` when a recolour effect makes a die count as another colour.

``outcome`` judges a plan: ``(success, damage, kept)``. ``best_plan`` finds the lexicographic best
(success, then least damage, then most dice kept, spec §3.4.9) and ``plans`` lists every legal plan
(the random agent's choices). ``curve`` gives P(success) against every target for a build, exactly
(multiset enumeration) or, for very large rolls, by a fixed-seed Monte Carlo estimate (those the shipped
game asks for are stored in ``metroidvania_estimates``); the agents use it, and the tests compare
``exact_curve`` with the spec's Appendix A.
"""
from __future__ import annotations

import math
import random
from itertools import combinations, combinations_with_replacement, product
from typing import Final

from .metroidvania_estimates import HISTOGRAMS

RED: Final = 0
BLUE: Final = 1
BLACK: Final = 2
WHITE: Final = 3


_SPEC_SLOTS = ("target", "m", "slate", "prompts", "asc", "pie", "max_pairs", "single", "all_bonus", "recolour",
               "fail", "slate_dmg", "threats", "threat_dmg", "below", "white_prompts")   # (a class compiled by
# mypyc has no __slots__ to read back)


class Spec:
    """What a check asks of the dice (built by the engine from the room/boss action and effects)."""

    __slots__ = _SPEC_SLOTS
    target: int
    m: int
    slate: int
    prompts: tuple
    asc: bool
    pie: int
    max_pairs: int
    single: tuple
    all_bonus: int
    recolour: tuple
    fail: int
    slate_dmg: int
    threats: tuple
    threat_dmg: int
    below: int
    white_prompts: bool

    def __init__(self, target=0, m=1, slate=-1, prompts=(), asc=True, pie=0, max_pairs=0, single=(), all_bonus=0,
                 recolour=(), fail=0, slate_dmg=0, threats=(), threat_dmg=0, below=0, white_prompts=False):
        self.target, self.m, self.slate, self.prompts = target, m, slate, tuple(prompts)
        self.asc, self.pie, self.max_pairs = asc, pie, max_pairs
        self.single, self.all_bonus, self.recolour = tuple(single), all_bonus, tuple(recolour)
        self.fail, self.slate_dmg = fail, slate_dmg
        self.threats, self.threat_dmg, self.below = tuple(threats), threat_dmg, below
        self.white_prompts = white_prompts

    def copy(self) -> "Spec":
        twin = Spec.__new__(Spec)
        for name in _SPEC_SLOTS:
            setattr(twin, name, getattr(self, name))
        return twin


# ---- judging one plan ------------------------------------------------------------------------------

def _side_damage(spec: Spec, vals, cols, removed) -> int:
    """Slate and threat damage of the dice left in the pool (independent of success)."""
    dmg = 0
    if spec.slate >= 0 and spec.slate_dmg:
        slate = spec.slate
        for i, c in enumerate(cols):
            if c != slate and c != WHITE and i not in removed:
                dmg += spec.slate_dmg
    if spec.threats and spec.threat_dmg:
        below = spec.below
        for colour in spec.threats:
            for i, c in enumerate(cols):
                if c == colour and vals[i] < below and i not in removed:
                    dmg += spec.threat_dmg
                    break
    return dmg


def _targets(spec: Spec) -> list:
    return [t for _, t in spec.prompts] if spec.prompts else [spec.target] * spec.m


def _recoloured(cols, recolour):
    if recolour is None:
        return cols
    cols = list(cols)
    cols[recolour[0]] = recolour[1]
    return cols


def _recolour_options(spec: Spec, cols) -> list:
    out: list = [None]
    for frm, to in spec.recolour:
        for i, c in enumerate(cols):
            if c == frm:
                for t in ((RED, BLUE, BLACK, WHITE) if to < 0 else (to,)):
                    if t != c and (i, t) not in out:
                        out.append((i, t))
    return out


# The last plan ``best_plan`` found and its judgement: the engine judges the plan an agent chose right
# after the agent found it, and ``outcome`` answers from here when asked about that very plan object for
# the same (read-only) spec object and equal dice.
_last_best: tuple = (None, None, None, None, None)


def outcome(spec: Spec, vals, cols, plan):
    """``(success, damage, kept)`` of a plan, or ``None`` if the plan is not legal for this roll."""
    last = _last_best
    if plan is last[3] and spec is last[0] and vals == last[1] and cols == last[2]:
        return last[4]
    return _judge(spec, vals, cols, plan)


def _judge(spec: Spec, vals, cols, plan):
    removed, ap, pair_alloc, single_alloc, recolour = plan
    n = len(vals)
    if recolour is not None and recolour not in _recolour_options(spec, cols):
        return None
    cols = _recoloured(cols, recolour)
    rem = set(removed)
    if len(rem) != len(removed) or any(not 0 <= i < n for i in removed) or len(removed) % 2:
        return None
    if removed and not spec.asc:
        return None
    pairs = len(removed) // 2
    if spec.max_pairs and pairs > spec.max_pairs:
        return None
    counts: dict = {}
    for i in removed:
        counts[vals[i]] = counts.get(vals[i], 0) + 1
    if any(c % 2 for c in counts.values()):
        return None
    targets = _targets(spec)
    if len(ap) != len(targets) or len(set(ap)) != len(ap) or any(i in rem or not 0 <= i < n for i in ap):
        return None
    if spec.prompts:
        for i, (colour, _) in zip(ap, spec.prompts):
            if cols[i] != colour and not (spec.white_prompts and cols[i] == WHITE):
                return None
    elif spec.slate >= 0 and not any(cols[i] == spec.slate for i in ap):
        return None
    if len(pair_alloc) != len(ap) or sum(pair_alloc) != pairs or min(pair_alloc, default=0) < 0:
        return None
    if len(single_alloc) != len(spec.single) or any(not 0 <= j < len(ap) for j in single_alloc):
        return None
    bonus = [spec.all_bonus + spec.pie * k for k in pair_alloc]
    for b, j in zip(spec.single, single_alloc):
        bonus[j] += b
    success = all(vals[i] + b >= t for i, b, t in zip(ap, bonus, targets))
    damage = _side_damage(spec, vals, cols, rem) + (0 if success else spec.fail)
    return success, damage, n - len(removed)


# ---- the best plan ---------------------------------------------------------------------------------

def _even_subsets(idx):
    out = [()]
    for size in range(2, len(idx) + 1, 2):
        out.extend(combinations(idx, size))
    return out


def removal_sets(spec: Spec, vals) -> list:
    """Every set of dice ascension may remove (pairs of equal faces), smallest first."""
    if not spec.asc or len(set(vals)) == len(vals):
        return [()]   # no two equal faces: nothing to pair
    groups: dict = {}
    for i, v in enumerate(vals):
        groups.setdefault(v, []).append(i)
    options = [_even_subsets(idx) for idx in groups.values() if len(idx) >= 2]
    if not options:
        return [()]
    out = []
    for combo in product(*options):
        joined = []
        for part in combo:   # (a loop, not a generator inside sorted: each costs a frame)
            joined += part
        if spec.max_pairs and len(joined) > 2 * spec.max_pairs:
            continue
        joined.sort()
        out.append(tuple(joined))
    out.sort(key=len)
    return out


def _allocate(spec: Spec, values, targets, pairs):
    """Bonus allocation making every AP die reach its target: (pair_alloc, single_alloc) or None."""
    m = len(values)
    if not spec.single:   # (most checks: no one-die bonus to place)
        pair_alloc = _pair_alloc(values, spec.all_bonus, targets, pairs, spec.pie)
        return None if pair_alloc is None else (pair_alloc, ())
    base = [v + spec.all_bonus for v in values]
    best = None
    for single_alloc in product(range(m), repeat=len(spec.single)):
        need = list(base)
        for b, j in zip(spec.single, single_alloc):
            need[j] += b
        alloc, used = [], 0
        for v, t in zip(need, targets):
            gap = t - v
            if gap <= 0:
                alloc.append(0)
            elif spec.pie <= 0:
                used = pairs + 1
                break
            else:
                k = -(-gap // spec.pie)
                alloc.append(k)
                used += k
        if used <= pairs and len(alloc) == m:
            alloc[0] += pairs - used
            best = (tuple(alloc), tuple(single_alloc))
            break
    return best


def _pair_alloc(values, bonus, targets, pairs, pie):
    """``_allocate``'s pair allocation for these values plus the all-dice bonus (no one-die bonus), or None:
    the fewest pairs each AP die needs, the pairs left over on the first."""
    alloc, used = [], 0
    for v, t in zip(values, targets):
        gap = t - v - bonus
        if gap <= 0:
            alloc.append(0)
        elif pie <= 0:
            return None
        else:
            k = -(-gap // pie)
            alloc.append(k)
            used += k
    if used > pairs:
        return None
    alloc[0] += pairs - used
    return tuple(alloc)


def _ap_choice(spec: Spec, vals, cols, rem):
    """The AP dice that give the best chance for the dice left (highest values; slate/prompt colours)."""
    if spec.prompts:
        chosen = []
        for colour, _ in spec.prompts:
            cands = [i for i in rem if i not in chosen and
                     (cols[i] == colour or (spec.white_prompts and cols[i] == WHITE))]
            if not cands:
                return None
            chosen.append(max(cands, key=lambda i: (cols[i] == colour, vals[i], -i)))
        return tuple(chosen)
    m = spec.m
    if len(rem) < m:
        return None
    if m == 1:   # the highest die (of the slate colour), the first of equals: ``rem`` is in index order
        return _highest(rem, vals, cols, spec.slate)
    # highest first, equals in index order: ``rem`` is in index order and a reverse sort keeps equals in
    # their order (no key tuple per die)
    order = sorted(rem, key=vals.__getitem__, reverse=True)
    if spec.slate >= 0:
        xs = [i for i in order if cols[i] == spec.slate]
        if not xs:
            return None
        first = xs[0]
        return (first, *[i for i in order if i != first][:m - 1])
    return tuple(order[:m])


def _highest(rem, vals, cols, slate):
    """``max(rem, key=vals.__getitem__)`` among the dice of the slate colour (any if ``slate`` < 0), or
    None: a plain loop (max with a key parses keywords and calls the key per die; every roll's plans)."""
    best = -1
    for i in rem:
        if (slate < 0 or cols[i] == slate) and (best < 0 or vals[i] > vals[best]):
            best = i
    return None if best < 0 else (best,)


def _fallback_alloc(spec: Spec, m, pairs):
    return tuple([pairs] + [0] * (m - 1)), tuple([0] * len(spec.single))


def best_plan(spec: Spec, vals, cols):
    """``(plan, (success, -damage, kept))``: the lexicographic best plan (success, then least damage, then
    most dice kept), or ``(None, None)`` if no plan is possible."""
    global _last_best
    plan, key = _best_plan(spec, vals, cols)
    if plan is not None:   # the key is the plan's judgement (the tests check it against ``_judge``)
        _last_best = (spec, list(vals), list(cols), plan, (key[0], -key[1], key[2]))
    return plan, key


def _best_plan(spec: Spec, vals, cols):
    best, best_key = None, None
    targets = _targets(spec)
    simple = not spec.prompts and spec.slate < 0 and not spec.threats and not spec.recolour
    removals = removal_sets(spec, vals)
    n = len(vals)
    sided = (spec.slate >= 0 and spec.slate_dmg) or (spec.threats and spec.threat_dmg)   # else no side damage
    for recolour in _recolour_options(spec, cols):
        eff = _recoloured(cols, recolour)
        for removed in removals:
            rset = set(removed)
            rem = [i for i in range(n) if i not in rset] if removed else list(range(n))
            ap = _ap_choice(spec, vals, eff, rem)
            if ap is None:
                continue
            pairs = len(removed) // 2
            values = []
            for i in ap:   # (1-3 dice: a loop costs less than a comprehension's frame)
                values.append(vals[i])
            alloc = _allocate(spec, values, targets, pairs)
            success = alloc is not None
            if not success:
                if removed and simple:
                    continue  # removing dice without succeeding never helps a plain check
                alloc = _fallback_alloc(spec, len(ap), pairs)
            damage = (_side_damage(spec, vals, eff, rset) if sided else 0) + (0 if success else spec.fail)
            key = (success, -damage, n - len(removed))
            if best_key is None or key > best_key:
                best_key, best = key, (removed, ap, alloc[0], alloc[1], recolour)
                if simple and success:
                    return canonical(spec, best), best_key  # removals come smallest first: nothing beats it
    return (canonical(spec, best) if best is not None else None), best_key


def canonical(spec: Spec, plan):
    """The plan with its AP dice in index order (as ``plans`` lists them), allocations following."""
    removed, ap, pa, sa, rc = plan
    if spec.prompts or len(ap) < 2:
        return plan
    # (plain loops, no lambda or generators: every multi-die roll's best plan comes through here)
    order = sorted(range(len(ap)), key=ap.__getitem__)
    pos = [0] * len(ap)
    new_ap, new_pa, new_sa = [], [], []
    for new, old in enumerate(order):
        pos[old] = new
        new_ap.append(ap[old])
        new_pa.append(pa[old])
    for j in sa:
        new_sa.append(pos[j])
    return removed, tuple(new_ap), tuple(new_pa), tuple(new_sa), rc


def plans(spec: Spec, vals, cols) -> list:
    """Every legal plan (the choices of a player who sees these dice)."""
    out = []
    n = len(vals)
    targets = _targets(spec)
    m = len(targets)
    for recolour in _recolour_options(spec, cols):
        eff = _recoloured(cols, recolour)
        for removed in removal_sets(spec, vals):
            rset = set(removed)
            rem = [i for i in range(n) if i not in rset]
            pairs = len(removed) // 2
            if spec.prompts:
                cand = [[i for i in rem if eff[i] == c or (spec.white_prompts and eff[i] == WHITE)]
                        for c, _ in spec.prompts]
                aps = [ap for ap in product(*cand) if len(set(ap)) == len(ap)]
            else:
                aps = [ap for ap in combinations(rem, m)
                       if spec.slate < 0 or any(eff[i] == spec.slate for i in ap)]
            allocs = [a for a in _compositions(pairs, m)]
            singles = list(product(range(m), repeat=len(spec.single)))
            for ap in aps:
                for pa in allocs:
                    for sa in singles:
                        out.append((removed, tuple(ap), pa, sa, recolour))
    return out


def _compositions(total, parts):
    if parts == 1:
        return [(total,)]
    out = []
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            out.append((first, *rest))
    return out


# ---- chances ---------------------------------------------------------------------------------------

def _water_fill(values, pairs, pie):
    """The highest minimum reachable by giving ``pairs`` bonuses of ``pie`` to the lowest dice."""
    vals = sorted(values)
    if pie > 0:
        for _ in range(pairs):
            vals[0] += pie
            vals.sort()
    return vals[0]


def _pairs_of(counts) -> int:
    return sum(c // 2 for c in counts.values())


def reach(vals, slate_first: bool, m: int, asc: bool, pie: int, max_pairs: int) -> int:
    """The highest target this roll can meet (every AP die >= it), with the best ascension.

    ``slate_first``: die 0 is the slate die and must be an AP die. Threat and slate damage are not
    considered (they never change success)."""
    best = -1
    if m == 1 and not slate_first:
        counts: dict = {}
        for v in vals:
            counts[v] = counts.get(v, 0) + 1
        total = _pairs_of(counts)
        for v, c in counts.items():
            pairs = total - (1 if c % 2 == 0 else 0) if asc else 0
            if max_pairs:
                pairs = min(pairs, max_pairs)
            best = max(best, v + pie * pairs)
        return best
    # AP sets among the m+2 highest dice (slate: the slate die and the m+1 highest others): lower dice
    # never make a better minimum, and this bounds the search for the estimates. Only values matter
    # (which of two equal dice is taken changes nothing), so the sets are drawn from sorted values.
    ranked = sorted(vals[1:] if slate_first else vals, reverse=True)
    if not asc or pie <= 0 or len(set(vals)) == len(vals):
        # no die can gain (no pair, or pairs add nothing): the best minimum is the m-th highest die
        # (with the slate die: the lower of it and the (m-1)-th highest other)
        if slate_first:
            return vals[0] if m == 1 else (min(vals[0], ranked[m - 2]) if len(ranked) >= m - 1 else -1)
        return ranked[m - 1] if len(ranked) >= m else -1
    counts = {}
    for v in vals:
        counts[v] = counts.get(v, 0) + 1
    all_pairs = _pairs_of(counts)
    most = min(all_pairs, max_pairs) if max_pairs else all_pairs
    gain = pie * most   # the most her lowest AP die can gain
    fixed: tuple
    if slate_first:
        fixed = (vals[0],)
        choices = combinations(ranked[:m + 1], m - 1)
    else:
        fixed = ()
        choices = combinations(ranked[:m + 2], m)
    for rest in choices:
        ap = fixed + rest
        low = min(ap)
        if low + gain <= best:
            continue   # even every pair on her lowest die would not beat the best so far
        pairs = all_pairs   # the pairs among the other dice: taking a die from an even count breaks one pair
        taken: dict = {}
        for v in ap:
            k = taken.get(v, 0)
            pairs -= (counts[v] - k) % 2 == 0
            taken[v] = k + 1
        if max_pairs:
            pairs = min(pairs, max_pairs)
        if pairs <= 0:
            best = max(best, low)
        elif low + pie * pairs > best:   # (water filling never lifts the lowest die above this)
            best = max(best, _water_fill(ap, pairs, pie))
    return best


_CURVES: dict = {}
EXACT_LIMIT: Final = 1_500   # multisets enumerated exactly below this; Monte Carlo (fixed seed) above
MC_SAMPLES: Final = 2_000


def _multiset_weight(combo, k_fact) -> int:
    w = k_fact
    run, prev = 0, None
    for v in combo:
        if v == prev:
            run += 1
        else:
            run = 1
            prev = v
        w //= run
    return w


def exact_curve(size: int, dice: int, m: int = 1, slate: bool = False, asc: bool = True, pie: int = 0,
                max_pairs: int = 0) -> list:
    """P(reach >= T) for T = 0 .. size*? (index = T), by enumerating multisets with their weights."""
    hist: dict = {}
    others = dice - 1 if slate else dice
    k_fact = math.factorial(others)
    firsts = range(1, size + 1) if slate else (None,)
    for first in firsts:
        for combo in combinations_with_replacement(range(1, size + 1), others):
            w = _multiset_weight(combo, k_fact)
            vals = (first, *combo) if slate else combo
            r = reach(vals, slate, m, asc, pie, max_pairs)
            hist[r] = hist.get(r, 0) + w
    total = size ** dice
    return _tail(hist, total)


def _tail(hist, total) -> list:
    top = max(hist) if hist else 0
    out = [0.0] * (top + 2)
    acc = 0
    for t in range(top + 1, -1, -1):
        acc += hist.get(t, 0)
        out[t] = acc / total
    return out


def _mc_curve(size, dice, m, slate, asc, pie, max_pairs) -> list:
    hist = HISTOGRAMS.get((size, dice, m, slate, asc, pie, max_pairs))   # drawn once, stored
    if hist is None:
        hist = _mc_histogram(size, dice, m, slate, asc, pie, max_pairs)
    return _tail(hist, MC_SAMPLES)


def _mc_histogram(size, dice, m, slate, asc, pie, max_pairs) -> dict:
    """How many of ``MC_SAMPLES`` rolls, drawn with a seed made of the arguments, reach each target."""
    rng = random.Random(f"mv-curve/{size}/{dice}/{m}/{slate}/{asc}/{pie}/{max_pairs}")
    hist: dict = {}
    rand = rng.random
    faces = [1 + int(rand() * size) for _ in range(MC_SAMPLES * dice)]   # roll after roll, as drawn one by one
    for i in range(0, len(faces), dice):
        r = reach(faces[i:i + dice], slate, m, asc, pie, max_pairs)
        hist[r] = hist.get(r, 0) + 1
    return hist


def curve(size: int, dice: int, m: int = 1, slate: bool = False, asc: bool = True, pie: int = 0,
          max_pairs: int = 0, exact: bool = False) -> list:
    """Cached P(success) by target (list index): exact when small (or asked), else a fixed-seed estimate."""
    key = (size, dice, m, slate, asc and pie > 0 and dice > m, pie if asc else 0, max_pairs, exact)
    found = _CURVES.get(key)
    if found is None:
        size_, dice_, m_, slate_, asc_, pie_, mp_, _ = key
        multisets = math.comb(size_ + dice_ - 1 - (1 if slate_ else 0), dice_ - (1 if slate_ else 0)) * \
            (size_ if slate_ else 1)
        if exact or multisets <= EXACT_LIMIT or not asc_:
            found = exact_curve(size_, dice_, m_, slate_, asc_, pie_, mp_) if asc_ else \
                _plain_curve(size_, dice_, m_, slate_)
        else:
            found = _mc_curve(size_, dice_, m_, slate_, asc_, pie_, mp_)
        _CURVES[key] = found
    return found


def _plain_curve(size, dice, m, slate) -> list:
    """No ascension: closed forms (best of k; at least m of k; slate die and the best m-1 of the rest)."""
    out = []
    for t in range(size + 2):
        q = 1.0 if t <= 1 else max(0.0, (size - t + 1) / size)
        if slate:
            rest = _at_least(m - 1, dice - 1, q) if m > 1 else 1.0
            out.append(q * rest)
        else:
            out.append(_at_least(m, dice, q))
    return out


def _at_least(m, k, q) -> float:
    return sum(math.comb(k, j) * q ** j * (1 - q) ** (k - j) for j in range(m, k + 1))


def chance(size: int, dice: int, target: int, m: int = 1, slate: bool = False, asc: bool = True, pie: int = 0,
           max_pairs: int = 0, exact: bool = False) -> float:
    """P(success) of a difficulty check: every AP die >= target (``exact``: never estimated)."""
    if target <= 1:
        return 1.0
    if m > dice:
        return 0.0
    c = curve(size, dice, m, slate, asc, pie, max_pairs, exact)
    return c[target] if target < len(c) else 0.0


_QTE: dict = {}
_PAIRS: dict = {}


def _pairs_histogram(size: int, others: int, max_pairs: int) -> dict:
    """P(number of ascension pairs among ``others`` dice), exact, cached; most pairs first (the order
    ``qte_chance`` sums in)."""
    key = (size, others, max_pairs)
    hist = _PAIRS.get(key)
    if hist is None:
        ways = _pairs_ways(size, others)
        counts_hist: dict = {}
        for pairs in sorted(ways, reverse=True):
            capped = min(pairs, max_pairs) if max_pairs else pairs
            counts_hist[capped] = counts_hist.get(capped, 0) + ways[pairs]
        total = size ** others
        hist = _PAIRS[key] = {p: w / total for p, w in counts_hist.items()}
    return hist


def _pairs_ways(size: int, dice: int) -> dict:
    """How many of the ``size ** dice`` ordered rolls hold each number of pairs (exact integers), by
    dynamic programming over the faces: ``ways[k][p]`` counts the ways ``k`` of the dice show the faces
    seen so far with ``p`` pairs among them, a face shown ``c`` times adding ``c // 2`` pairs."""
    ways = [{0: 1}] + [{} for _ in range(dice)]
    for _ in range(size):
        nxt: list[dict] = [{} for _ in range(dice + 1)]
        for k, row in enumerate(ways):
            for p, w in row.items():
                for c in range(dice - k + 1):   # this face on c of the remaining dice
                    into = nxt[k + c]
                    q = p + c // 2
                    into[q] = into.get(q, 0) + w * math.comb(dice - k, c)
        ways = nxt
    return ways[dice]


def qte_chance(size: int, targets, others: int = 2, asc: bool = True, pie: int = 0, max_pairs: int = 0) -> float:
    """P(success) of a QTE, exactly: each prompt die (+Pie per ascension pair assigned to it) must
    reach its target; ``others`` dice (the other colours and the whites) can only form pairs."""
    targets = tuple(sorted(max(1, t) for t in targets))
    if not asc or pie <= 0 or others < 2:
        p = 1.0
        for t in targets:
            p *= max(0.0, (size - t + 1) / size)
        return p
    key = (size, targets, others, pie, max_pairs)
    found = _QTE.get(key)
    if found is None:
        pairs_hist = _pairs_histogram(size, others, max_pairs)
        win = 0.0
        for pairs, w in pairs_hist.items():
            ok = 0
            for vals in product(range(1, size + 1), repeat=len(targets)):
                need = sum(-(-(t - v) // pie) for v, t in zip(vals, targets) if v < t)
                ok += need <= pairs
            win += w * ok / size ** len(targets)
        found = _QTE[key] = win
    return found
