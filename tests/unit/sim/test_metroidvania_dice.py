"""Metroidvania dice rules (spec §3.4): ascension, slate, double/triple, QTE, threat — and the exact
chances against the spec's Appendix A tables."""
import math
import random

import pytest

from generator.sim.games import metroidvania_dice as dice
from generator.sim.games.metroidvania_dice import BLACK, BLUE, RED, WHITE, Spec

COLOURS = (RED, BLUE, BLACK)

# Appendix A, "plain roll, no ascension" (P(best of k dice of size s >= t) in %), t = 2..12; None = "–".
PLAIN = {
    (4, 3): [98.4, 87.5, 57.8], (4, 6): [99.99, 98.4, 82.2],
    (6, 3): [99.5, 96.3, 87.5, 70.4, 42.1], (6, 5): [99.99, 99.6, 96.9, 86.8, 59.8],
    (8, 4): [99.99, 99.6, 98.0, 93.8, 84.7, 68.4, 41.4],
    (12, 3): [99.9, 99.5, 98.4, 96.3, 92.8, 87.5, 80.2, 70.4, 57.8, 42.1, 23.0],
    (12, 6): [99.99, 99.99, 99.99, 99.9, 99.5, 98.4, 96.1, 91.2, 82.2, 66.5, 40.7],
    (20, 3): [99.99, 99.9, 99.7, 99.2, 98.4, 97.3, 95.7, 93.6, 90.9, 87.5, 83.4],
    (20, 6): [99.99, 99.99, 99.99, 99.99, 99.99, 99.9, 99.8, 99.6, 99.2, 98.4, 97.2],
}
# Appendix A, "with the best multi-pair ascension" (k = 3 + Pie; each pair +Pie), t = 2..12.
ASCENSION = {
    (4, 4): [100, 99.6, 89.1, 44.9], (4, 5): [100, 100, 100, 100, 82.3, 26.6, 13.3],
    (4, 6): [100, 100, 100, 100, 100, 100, 88.3, 75.0, 46.3],
    (6, 4): [100, 99.9, 97.8, 89.1, 67.3, 24.0], (6, 5): [100, 100, 100, 100, 95.4, 74.9, 50.6, 9.7, 4.8],
    (6, 6): [100, 100, 100, 100, 100, 98.5, 95.9, 83.3, 48.5, 36.7, 20.6],
    (8, 4): [100, 99.99, 99.3, 96.6, 89.6, 76.0, 52.2, 14.7],
    (8, 5): [100, 100, 100, 100, 98.9, 94.0, 80.9, 52.9, 32.8, 4.5, 2.2],
    (8, 6): [100, 100, 100, 100, 100, 99.7, 97.5, 88.2, 79.3, 60.6, 26.7],
    (12, 4): [100, 99.99, 99.9, 99.3, 98.0, 95.2, 90.6, 83.2, 72.1, 56.6, 35.3],
    (12, 5): [100, 100, 100, 100, 99.9, 99.2, 97.5, 93.8, 86.9, 75.3, 56.8],
    (12, 6): [100, 100, 100, 100, 100, 99.99, 99.8, 99.0, 96.7, 91.3, 80.6],
    (20, 4): [100, 99.99, 99.99, 99.9, 99.7, 99.4, 98.8, 97.8, 96.4, 94.4, 91.6],
}
SLOW_ASCENSION = {
    (20, 5): [100, 100, 100, 100, 99.99, 99.9, 99.8, 99.5, 99.0, 98.1, 96.6],
    (20, 6): [100, 100, 100, 100, 100, 99.99, 99.99, 99.99, 99.8, 99.6, 99.1],
}


def _close(got: float, table: float) -> bool:
    """Table cells are rounded to 0.1 point; '>99.9' is stored as 99.99 and '100' as 100."""
    pct = 100 * got
    if table >= 99.99:
        return pct > 99.9 - 1e-9 if table < 100 else pct > 99.95
    return abs(pct - table) <= 0.051


@pytest.mark.parametrize("size,k", sorted(PLAIN))
def test_plain_roll_matches_appendix_a(size, k):
    for t, expected in enumerate(PLAIN[(size, k)], start=2):
        got = dice.chance(size, k, t, asc=False)
        assert _close(got, expected), (size, k, t, got, expected)
    assert dice.chance(size, k, size + 1, asc=False) == 0.0  # "–": out of reach without ascension


@pytest.mark.parametrize("size,k", sorted(ASCENSION))
def test_ascension_matches_appendix_a(size, k):
    curve = dice.exact_curve(size, k, 1, False, True, k - 3)
    for t, expected in enumerate(ASCENSION[(size, k)], start=2):
        assert _close(curve[t], expected), (size, k, t, curve[t], expected)


@pytest.mark.slow
@pytest.mark.parametrize("size,k", sorted(SLOW_ASCENSION))
def test_ascension_matches_appendix_a_d20_many_dice(size, k):
    curve = dice.exact_curve(size, k, 1, False, True, k - 3)
    for t, expected in enumerate(SLOW_ASCENSION[(size, k)], start=2):
        assert _close(curve[t], expected), (size, k, t, curve[t], expected)


def test_double_and_triple_without_ascension_follow_the_binomial():
    # At least m of k: sum_j>=m C(k,j) q^j (1-q)^(k-j), q = (s-t+1)/s  (Appendix A formula)
    q = (8 - 6 + 1) / 8
    double = 3 * q * q * (1 - q) + q ** 3
    assert dice.chance(8, 3, 6, m=2, asc=False) == pytest.approx(double)
    assert dice.chance(8, 3, 6, m=3, asc=False) == pytest.approx(q ** 3)
    assert dice.exact_curve(8, 3, 2, False, False, 0)[6] == pytest.approx(double)


def test_seed_example_ascension_3_3_4():
    """Seed: rolling 3,3,4 gives AP 4; pairing the 3s gives AP 4+Pie (5 with Pie 1)."""
    spec = Spec(target=5, pie=1, fail=1)
    vals, cols = [3, 3, 4], [RED, BLUE, BLACK]
    plan, key = dice.best_plan(spec, vals, cols)
    assert key[0] and plan[0] == (0, 1) and plan[1] == (2,)
    assert dice.outcome(spec, vals, cols, ((), (2,), (0,), (), None)) == (False, 1, 3)
    no_asc = Spec(target=5, pie=1, fail=1, asc=False)
    assert dice.best_plan(no_asc, vals, cols)[1] == (False, -1, 3)
    assert dice.outcome(no_asc, vals, cols, plan) is None  # pairing is not allowed


def test_ascension_never_pairs_more_than_allowed_and_keeps_dice_when_it_can():
    spec = Spec(target=6, pie=1, max_pairs=1)
    vals, cols = [2, 2, 3, 3, 5], [RED, BLUE, BLACK, WHITE, WHITE]
    plan, key = dice.best_plan(spec, vals, cols)
    assert key[0] and len(plan[0]) == 2            # one pair is enough (5+1) and most dice are kept
    assert dice.best_plan(Spec(target=7, pie=1, max_pairs=1), vals, cols)[1][0] is False
    assert dice.best_plan(Spec(target=7, pie=1), vals, cols)[1][0] is True  # two pairs: 5+2
    assert dice.best_plan(Spec(target=5, pie=1), vals, cols)[0][0] == ()    # no pair needed


def test_slate_die_is_the_ap_and_other_colours_hurt_whatever_the_result():
    spec = Spec(target=4, slate=RED, pie=1, fail=2, slate_dmg=2)
    vals, cols = [5, 1, 8], [RED, BLUE, BLACK]
    plan, key = dice.best_plan(spec, vals, cols)
    assert plan[1] == (0,) and key == (True, -4, 3)          # success, 2 other coloured dice x D=2
    assert dice.outcome(spec, vals, cols, ((), (2,), (0,), (), None)) is None  # the black die cannot be AP
    low = [2, 1, 8]
    assert dice.best_plan(spec, low, cols)[1] == (False, -6, 3)  # failure D + slate 2 x D


def test_ascension_removes_slate_dice():
    spec = Spec(target=4, slate=RED, pie=1, fail=3, slate_dmg=3)
    vals, cols = [5, 6, 2, 6, 2], [RED, BLUE, BLACK, WHITE, WHITE]   # blue pairs a white, black pairs a white
    plan, key = dice.best_plan(spec, vals, cols)
    assert key == (True, 0, 1) and set(plan[0]) == {1, 2, 3, 4}


def test_double_needs_every_ap_die_and_pairs_can_be_split():
    spec = Spec(target=7, m=2, pie=2, fail=1)
    vals, cols = [7, 5, 2, 2, 1], [RED, BLUE, BLACK, WHITE, WHITE]
    plan, key = dice.best_plan(spec, vals, cols)
    assert key[0] and plan[1] == (0, 1) and plan[2] == (0, 1)      # the pair (+2) goes to the 5
    triple = Spec(target=7, m=3, pie=2, fail=1)
    assert dice.best_plan(triple, vals, cols)[1][0] is False
    assert dice.outcome(spec, vals, cols, ((3, 4), (0, 1), (0, 1), (), None)) is None  # 2 and 1 are no pair


def test_qte_prompt_dice_and_white_dice_only_through_pairs():
    spec = Spec(prompts=((RED, 5), (BLUE, 5)), pie=1, fail=2)
    vals, cols = [5, 4, 3, 3, 6], [RED, BLUE, BLACK, WHITE, WHITE]
    plan, key = dice.best_plan(spec, vals, cols)
    assert key[0] and plan[1] == (0, 1) and plan[2] == (0, 1)      # the 3-3 pair lifts blue to 5
    assert dice.outcome(spec, vals, cols, ((), (0, 4), (0, 0), (), None)) is None  # a white is not the blue die
    assert dice.qte_chance(6, [4], 2, asc=False) == pytest.approx(0.5)


def test_threat_hurts_only_if_the_die_stays_below_the_criterion():
    spec = Spec(target=3, pie=1, fail=1, threats=(RED,), threat_dmg=1, below=4)
    vals, cols = [2, 6, 1, 2], [RED, BLUE, BLACK, WHITE]
    plan, key = dice.best_plan(spec, vals, cols)
    assert key == (True, 0, 2) and plan[0] == (0, 3)   # pairing the red 2 away avoids the threat


def test_best_plan_is_legal_and_agrees_with_reach():
    rng = random.Random(5)
    for _ in range(400):
        size = rng.choice((4, 6, 8, 12, 20))
        pie = rng.randrange(0, 4)
        m = rng.choice((1, 1, 2, 3))
        k = 3 + pie
        vals = [1 + int(rng.random() * size) for _ in range(k)]
        cols = [RED, BLUE, BLACK] + [WHITE] * pie
        target = rng.randrange(2, size + 4)
        spec = Spec(target=target, m=m, pie=pie, fail=2)
        plan, key = dice.best_plan(spec, vals, cols)
        assert plan in dice.plans(spec, vals, cols)
        assert dice._judge(spec, vals, cols, plan)[:2] == (key[0], -key[1])
        assert key[0] == (dice.reach(vals, False, m, True, pie, 0) >= target)


def test_outcome_of_the_best_plan_is_its_key_and_recomputed_for_anything_else():
    """``outcome`` answers the plan ``best_plan`` just found from its key: the key must be the judgement,
    for every kind of check; any other plan, spec or dice is judged afresh."""
    rng = random.Random(8)
    for _ in range(600):
        size, pie = rng.choice((4, 6, 8, 12)), rng.randrange(0, 4)
        vals = [1 + int(rng.random() * size) for _ in range(3 + pie)]
        cols = [RED, BLUE, BLACK] + [WHITE] * pie
        crit = rng.randrange(2, size + 2)
        kind = rng.choice(("plain", "slate", "threat", "qte", "bonus"))
        spec = Spec(target=crit + rng.randrange(0, 3), m=rng.choice((1, 1, 2)), pie=pie, fail=2,
                    asc=rng.random() < 0.8, max_pairs=rng.choice((0, 1)), slate_dmg=1, threat_dmg=1, below=crit,
                    slate=rng.choice(COLOURS) if kind == "slate" else -1,
                    threats=(rng.choice(COLOURS),) if kind == "threat" else (),
                    prompts=tuple((c, crit) for c in rng.sample(COLOURS, 2)) if kind == "qte" else (),
                    single=(rng.randrange(1, 3),) if kind == "bonus" else (),
                    recolour=((BLUE, RED),) if kind == "bonus" else ())
        plan, key = dice.best_plan(spec, vals, cols)
        if plan is None:
            continue
        judged = dice._judge(spec, vals, cols, plan)
        assert judged == (key[0], -key[1], key[2])
        assert dice.outcome(spec, vals, cols, plan) == judged
        assert dice.outcome(spec, vals, cols, plan[:4] + plan[4:5]) == judged   # an equal plan: judged again
        other = [v % size + 1 for v in vals]
        assert dice.outcome(spec, other, cols, plan) == dice._judge(spec, other, cols, plan)


def _reach_by_recount(vals, slate_first, m, asc, pie, max_pairs):
    """``reach`` with the pairs recounted among the other dice for each AP set (same search bound: AP
    sets among the m+2 highest dice, or the slate die and the m+1 highest others)."""
    from itertools import combinations
    best = -1
    order = sorted(range(len(vals)), key=lambda i: -vals[i])
    pool = [0] + [i for i in order if i != 0][:m + 1] if slate_first else order[:m + 2]
    for ap in combinations(sorted(pool), m):
        if slate_first and 0 not in ap:
            continue
        counts = {}
        for i in range(len(vals)):
            if i not in ap:
                counts[vals[i]] = counts.get(vals[i], 0) + 1
        pairs = sum(c // 2 for c in counts.values()) if asc else 0
        if max_pairs:
            pairs = min(pairs, max_pairs)
        best = max(best, dice._water_fill([vals[i] for i in ap], pairs, pie))
    return best


def test_reach_matches_recounting_the_pairs_for_every_ap_set():
    rng = random.Random(8)
    for _ in range(3000):
        size = rng.choice((4, 6, 8, 12, 20))
        k = rng.randint(1, 9)
        m = rng.randint(1, min(4, k))
        vals = [rng.randint(1, size) for _ in range(k)]
        args = (vals, rng.random() < 0.3, m, rng.random() < 0.8, rng.randint(0, 3), rng.choice((0, 0, 1, 2)))
        assert dice.reach(*args) == _reach_by_recount(*args), args


def _pairs_histogram_by_enumeration(size, others, max_pairs):
    """The pairs histogram by enumerating every multiset of faces with its weight, in enumeration order."""
    import math
    from itertools import combinations_with_replacement
    hist = {}
    for combo in combinations_with_replacement(range(1, size + 1), others):
        pairs = sum(combo.count(v) // 2 for v in set(combo))
        if max_pairs:
            pairs = min(pairs, max_pairs)
        weight = math.factorial(others)
        for v in set(combo):
            weight //= math.factorial(combo.count(v))
        hist[pairs] = hist.get(pairs, 0) + weight
    return [(p, w / size ** others) for p, w in hist.items()]


@pytest.mark.parametrize("size", [2, 4, 6, 8, 12, 20])
def test_pairs_histogram_matches_enumeration_in_value_and_order(size):
    # same probabilities in the same order: qte_chance sums over it, and its floats must not move
    for others in range(0, 7 if size < 20 else 6):
        for max_pairs in (0, 1, 2):
            dice._PAIRS.pop((size, others, max_pairs), None)
            got = list(dice._pairs_histogram(size, others, max_pairs).items())
            assert got == _pairs_histogram_by_enumeration(size, others, max_pairs), (size, others, max_pairs)


@pytest.mark.parametrize("key", [(20, 7, 3, False, True, 2, 0), (12, 6, 2, True, True, 1, 0), (20, 8, 2, False, True, 3, 1)])
def test_estimated_curve_is_the_seeded_rolls_drawn_one_by_one(key):
    # the estimate must not move: the same rolls, judged by the plain recount of the pairs
    size, k, m, slate, asc, pie, max_pairs = key
    rng = random.Random(f"mv-curve/{size}/{k}/{m}/{slate}/{asc}/{pie}/{max_pairs}")
    hist = {}
    for _ in range(dice.MC_SAMPLES):
        vals = [1 + int(rng.random() * size) for _ in range(k)]
        r = _reach_by_recount(vals, slate, m, asc, pie, max_pairs)
        hist[r] = hist.get(r, 0) + 1
    assert dice._mc_curve(*key) == dice._tail(hist, dice.MC_SAMPLES)


def test_stored_estimates_are_the_seeded_draws():
    # metroidvania_estimates stores draws so that fresh processes skip them: each must be the draw itself
    from generator.sim.games.metroidvania_estimates import HISTOGRAMS
    assert HISTOGRAMS
    for key, hist in HISTOGRAMS.items():
        assert dice._mc_histogram(*key) == hist, key


@pytest.mark.parametrize("size,targets,others,pie,max_pairs", [
    (6, (5,), 3, 2, 0), (6, (4, 6), 3, 2, 0), (6, (6, 6), 4, 3, 0), (8, (7, 5), 3, 2, 1), (6, (6, 5), 4, 2, 1)])
def test_qte_chance_is_the_share_of_all_rolls_the_pairs_can_lift(size, targets, others, pie, max_pairs):
    """Each prompt die short of its target needs ceil(shortfall / Pie) pairs of the other dice."""
    from itertools import product

    wins = 0
    for roll in product(range(1, size + 1), repeat=len(targets) + others):
        prompt, rest = roll[:len(targets)], roll[len(targets):]
        pairs = sum(rest.count(v) // 2 for v in set(rest))
        pairs = min(pairs, max_pairs) if max_pairs else pairs
        need = sum(math.ceil((t - v) / pie) for v, t in zip(prompt, targets) if v < t)
        wins += need <= pairs
    assert dice.qte_chance(size, targets, others, True, pie, max_pairs) == pytest.approx(
        wins / size ** (len(targets) + others), rel=1e-12)


def test_the_call_free_dice_helpers_agree_with_the_one_liners_they_stand_for():
    """The plan's helpers written without max with a key, lambdas or generators (cheaper in Python 3.11)
    give what the one-liners they replace give, on every small roll."""
    from itertools import product
    for faces in product(range(1, 5), repeat=4):
        vals = list(faces)
        for cols in ([RED, BLUE, BLACK, WHITE], [RED, WHITE, WHITE, BLUE], [WHITE] * 4):
            for rem in ([0, 1, 2, 3], [0, 2, 3], [1, 3]):
                for slate in (-1, RED, WHITE):
                    some = [i for i in rem if slate < 0 or cols[i] == slate]
                    assert dice._highest(rem, vals, cols, slate) == \
                        ((max(some, key=vals.__getitem__),) if some else None)
                for m in (2, 3):
                    if len(rem) >= m:
                        assert dice._ap_choice(Spec(m=m), vals, cols, rem) == \
                            tuple(sorted(rem, key=lambda i: (-vals[i], i))[:m])
        for max_pairs in (0, 1, 2):
            spec = Spec(pie=1, max_pairs=max_pairs)
            assert dice.removal_sets(spec, vals) == _removal_sets_one_liner(spec, vals)
        for bonus in (0, 1, 2):
            for targets in ((3,), (4, 5), (2, 6, 3)):
                values = vals[:len(targets)]
                for pairs, pie in ((0, 1), (2, 1), (3, 2), (1, 0)):
                    assert dice._pair_alloc(values, bonus, targets, pairs, pie) == \
                        dice._pair_alloc([v + bonus for v in values], 0, targets, pairs, pie)


def test_canonical_plan_agrees_with_the_one_liner_it_stands_for():
    """``canonical`` written with loops gives what the sorted-with-a-lambda one-liner gave: AP dice in index
    order, pair allocations following them, one-die bonuses renumbered to the new places."""
    from itertools import permutations, product
    for m in (1, 2, 3):
        for ap in permutations((0, 2, 3, 5), m):
            for pa in product(range(3), repeat=m):
                for sa in ((), *((j,) for j in range(m)), *product(range(m), repeat=2)):
                    plan = ((1, 4), ap, pa, tuple(sa), ())
                    for spec in (Spec(m=m), Spec(prompts=((RED, 4),) * m)):
                        assert dice.canonical(spec, plan) == _canonical_one_liner(spec, plan)


def _canonical_one_liner(spec, plan):
    """``canonical`` as written before."""
    removed, ap, pa, sa, rc = plan
    if spec.prompts or len(ap) < 2:
        return plan
    order = sorted(range(len(ap)), key=lambda j: ap[j])
    pos = {old: new for new, old in enumerate(order)}
    return removed, tuple(ap[j] for j in order), tuple(pa[j] for j in order), tuple(pos[j] for j in sa), rc


def _removal_sets_one_liner(spec, vals):
    """``removal_sets`` as written before (a generator inside sorted per combination)."""
    from itertools import product
    if not spec.asc or len(set(vals)) == len(vals):
        return [()]
    groups: dict = {}
    for i, v in enumerate(vals):
        groups.setdefault(v, []).append(i)
    options = [dice._even_subsets(idx) for idx in groups.values() if len(idx) >= 2]
    if not options:
        return [()]
    out = [tuple(sorted(i for part in combo for i in part)) for combo in product(*options)]
    return sorted((r for r in out if not (spec.max_pairs and len(r) > 2 * spec.max_pairs)), key=len)
