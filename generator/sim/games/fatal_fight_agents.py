"""Fatal Fight agents: the spec §6 greedy heuristic and its "no combination" control.

The greedy agent reads the state directly (a co-operative game with open hands) and previews attacks
on a ``fatal_fight_preview.Board`` — a few list lookups, never a ``clone()``. Its priorities follow
spec §6: kills weighted boss > carriers > heads on its line > swollen groups; the cheapest chain
that kills; combination only when it turns a non-kill into a kill (or reaches the combo bonus);
guard or heal when the predicted damage would leave 3 life or less; saving before the boss stage or
when two are down; end on the least threatened square, grouped up for the boss.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..state import kept_on_setup, memo_table, setup_memo

from . import fatal_fight_combat as combat
from .fatal_fight_actions import (BUY, CURE, DONE, DROP_A, END, FINISH, GAUGE, ITEM, JOIN, MEGA, MOVE, NEIGHBOURS,
                                  NO_TARGET, PASS, PICK_A, PLAY, SAVE, TAKE, UPGRADE, drop_options, has_pickup, is_legal)
from .fatal_fight_effects import _who
from .fatal_fight_flow import ACTIVE, CHAIN, COMBO, DOWN, DROP, MAIN, PICK, RAGE, SHOP, TARGET
from .fatal_fight_shop import GIVE, buys, offers
from .fatal_fight_preview import (BOSS_VALUE, CARD_COST, DILUTION, Board, Chains, LOW_LIFE, _has_op, attack_value,
                                  card_worth, worths, chains_of, current_board, reach_table)

if TYPE_CHECKING:
    from .fatal_fight import State
    from .fatal_fight_preview import Reach
    from .fatal_fight_setup import Setup


class GreedyAgent:
    name = "greedy"
    combo = True
    setup: Setup
    seat: int
    plan: Any
    moved: Any
    chains: Chains
    traits: _Traits
    worth: list[float]
    _attack_aps: dict
    _reach: dict

    def __init__(self, setup, seat: int):
        self.setup, self.seat = setup, seat
        self.plan = None  # (cards still to play, target k)
        self.moved = None  # the search behind the free MOVE just chosen, for the decision after it (kept_search)
        self.chains = chains_of(setup)
        self.traits = _traits(setup)
        self.worth = worths(setup)
        # the per-setup tables read at most decisions, held rather than looked up in the setup's memos each time
        self._attack_aps = memo_table(setup, "_attack_aps")
        self._reach = memo_table(setup, "_reach")

    def choose(self, state: State, rng):
        phase = state.phase
        if phase == MAIN:
            return self.main(state)
        if phase == CHAIN:
            while self.plan and self.plan[0]:
                action = self.play(state, self.plan[0].pop(0))
                if is_legal(state, action):  # the engine's own check, without listing every action
                    return action
            return (FINISH,)
        if phase == COMBO:
            return self.join(state)
        if phase == TARGET:
            return self.target(state)
        if phase == SHOP:
            return self.shop(state, rng)
        if phase == PICK:
            return (PICK_A, max(state.picks, key=lambda c: (card_worth(self.setup, c), -c)))
        if phase == DROP:  # over max_carry (G3): keep the most valuable supplies
            return (DROP_A, min(drop_options(state, state.seat), key=lambda c: (card_worth(self.setup, c), c)))
        if phase == RAGE:  # G1: remove the rage card that would hurt the team most
            return max(state.legal_actions(), key=lambda a: (_rage_harm(state, a[1]), -a[1]))
        raise AssertionError(f"no decision in phase {phase}")

    # ---- the action phase -------------------------------------------------------------------
    def main(self, state: State):
        setup, rules, s = self.setup, self.setup.play, state.seat
        hand, acts = state.hand[s], state.actions_left
        traits = self.traits
        self.plan = None
        moved, self.moved = self.moved, None  # good for this decision only
        if state.gauged[s]:  # N8: feeding ended the turn; only more feeding (feed_per_round 2) or END is legal
            return self.feed(state, hand)
        if state.carry[s]:
            item = self.item(state, s)
            if item is not None:
                return item
        if acts >= 1:  # free value first: extra actions, then draws while actions remain
            for c in hand:
                if traits.gains_action[c]:
                    return self.play(state, c)
        if acts >= 2:
            for c in hand:
                if traits.draws[c]:
                    return (PLAY, c)
        if acts >= 1 and DOWN in state.status:  # a free save comes first
            for c in hand:
                if traits.saves[c] and state.life[s] > setup.c_life_cost[c]:
                    return self.play(state, c)
        boss_k = state.boss_group()  # read by most of what follows; nothing here changes it
        rally = self.rally(state, boss_k)
        keep: tuple = ()
        if rally is not None:
            later = ACTIVE in state.status[s + 1:]
            if state.pos[s] != rally and state.free_moves > 0:
                step = _step_towards(state.pos[s], rally, state.blocked)
                if step is not None:
                    return (MOVE, step)
            # hold what the boss chain needs; the last player opens it (a rally has a boss group: typed for the check)
            if later and boss_k is not None and self.boss_reachable(state, boss_k):
                keep = self.reserve(state, s)
        best = self.kept_search(state, s, keep, moved) or self.best_chain(state, s, keep, boss_k)
        downs = [t for t in range(state.n) if state.status[t] == DOWN] if DOWN in state.status else None
        if downs and not self.doomed(state, s) and acts >= rules.saving_actions and \
                len(hand) >= rules.saving_cards and (len(downs) >= 2 or boss_k is None) and \
                (best is None or best[0] < BOSS_VALUE):
            pay = sorted(hand, key=lambda c: (card_worth(setup, c), c))[:rules.saving_cards]
            action = (SAVE, downs[0], *sorted(pay))
            if action in state.legal_actions():
                return action
        if best is not None and best[0] > CARD_COST * len(best[1]):
            value, cards, k, square, raw = best
            if len(cards) < acts:  # a spare action: power the chain first (chain_ap / chain_sub cards)
                for c in hand:
                    if traits.powers_chain[c] and state.life[s] > setup.c_life_cost[c]:
                        return (PLAY, c)
            if square != state.pos[s]:
                if raw is not None:
                    self.moved = (state.log, len(state.log) + 2, keep, (raw, cards, k, square, None))
                return (MOVE, square)
            self.plan = (list(cards[1:]), k)
            return self.play(state, cards[0])
        threat_here = combat.threat(state, state.pos[s])
        danger = threat_here - state.gp[s]
        if acts >= 1:
            best_support = None  # the best (value, -card) of the payable support cards (a loop, not max() of a list)
            for c in hand:
                if traits.supports[c] and state.life[s] > setup.c_life_cost[c]:
                    scored = (self.support_value(state, s, c, danger), -c)
                    if best_support is None or scored > best_support:
                        best_support = scored
            if best_support is not None:
                value, neg = best_support
                if value >= 1.0 or (value > 0 and state.life[s] - danger <= LOW_LIFE):
                    return (PLAY, -neg)
        if state.free_moves >= rules.pickup_move_cost and self.worth_taking(state, s):
            return (TAKE, -1)
        if state.free_moves > 0 and rally is None:
            square = self.safest(state, s, boss_k, threat_here)
            if square != state.pos[s]:
                return (MOVE, square)
        if rules.n8 and (MEGA,) in state.legal_actions():
            return (MEGA,)
        if acts >= 1 and danger > 0:
            for c in hand:
                if not setup.c_attack[c] and not setup.c_strike[c] and setup.c_guard[c]:
                    return (PLAY, c)
        if rules.n8:  # feeding the gauge ends the turn (N8): the last thing done
            return self.feed(state, hand)
        return (END,)

    def feed(self, state: State, hand: list[int]):
        """N8: the least valuable card into the gauge while more than two are in hand, else END."""
        gauge = [a for a in state.legal_actions() if a[0] == GAUGE]
        if gauge and len(hand) > 2:
            return min(gauge, key=lambda a: (card_worth(self.setup, a[1]), a[1]))
        return (END,)

    def worth_taking(self, state: State, s: int) -> bool:
        """A pickup here that adds something: gold, a supply with carry room, or (carry full, G3:
        take it and discard down) a supply worth more than the least one carried."""
        if not has_pickup(state, s):
            return False
        supply = state.pickups[state.pos[s]][0][0]
        if not supply or len(state.carry[s]) < state.max_carry[s]:
            return True
        instances = self.setup.supplies.get(supply)
        worth = self.worth
        return bool(instances) and worth[instances[0]] > min(worth[c] for c in state.carry[s])  # type: ignore[index]

    def doomed(self, state: State, s: int) -> bool:
        """The last one standing, about to fall to the coming enemy phase."""
        alone = state.status.count(ACTIVE) == 1
        return alone and combat.threat(state, state.pos[s]) - state.gp[s] >= state.life[s]

    def support_value(self, state: State, s: int, c: int, danger) -> float:
        """What a non-attack card does now: damage prevented, life restored, cards, gold, a save
        (``danger``: player ``s``'s threat less its GP, already known)."""
        setup = self.setup
        value = 0.0
        # conditional expressions, not min/max: builtin min and max parse keywords at every call
        guard, heal = setup.c_guard[c], setup.c_heal[c]
        if guard and danger > 0:  # guard against no danger prevents nothing
            value += guard if guard < danger else danger
        if heal:
            missing = state.max_life[s] - state.life[s]
            value += heal if heal < missing else missing
        value += 0.8 * setup.c_draw[c]
        for op, p in setup.c_effect[c]:
            n = p.get("n", 1)
            if op in ("guard", "heal"):
                for t in _who(state, s, p.get("who", "self")):
                    if op == "guard":
                        need = combat.threat(state, state.pos[t]) - state.gp[t]
                        if need < 0:
                            need = 0
                    else:
                        need = state.max_life[t] - state.life[t]
                    value += n if n < need else need
            elif op == "draw":
                value += 0.8 * n
            elif op in ("gold", "gain_action"):
                value += n
            elif op == "gain_supply" and len(state.carry[s]) < state.max_carry[s]:
                value += 1.5
            elif op == "save" and DOWN in state.status:
                value += 3
        return value

    def play(self, state: State, c: int):
        """The PLAY action for card ``c`` (a strike card carries its best target)."""
        if not self.setup.c_strike[c]:
            return (PLAY, c)
        options = [a for a in state.legal_actions() if a[0] == PLAY and a[1] == c]
        if not options:
            return (PLAY, c, -1)
        ap = next(p["ap"] for op, p in self.setup.c_effect[c] if op == "strike")
        return max(options, key=lambda a: (attack_value(state, state.seat, state.pos[state.seat], a[2], ap, 0, 0)
                                           if a[2] >= 0 else -1, -a[2]))

    def item(self, state: State, s: int):
        """The first carried item worth using now, as an action, or None: a strike item with a
        target it would kill something in, a heal item when 3 life or more are missing, a guard
        item when the player's square is threatened, any other item at once."""
        setup = self.setup
        for c in state.carry[s]:
            if setup.c_strike[c]:
                best = None
                for a in state.legal_actions():
                    if a[0] == ITEM and a[1] == c and a[2] >= 0:
                        ap = next(p["ap"] for op, p in setup.c_effect[c] if op == "strike")
                        v = attack_value(state, s, state.pos[s], a[2], ap, 0, 0)
                        if v > 0 and (best is None or v > best[0]):
                            best = (v, a)
                if best:
                    return best[1]
                continue
            if self.traits.heals[c] and state.max_life[s] - state.life[s] < 3:
                continue
            if self.traits.guards[c] and combat.threat(state, state.pos[s]) == 0:
                continue
            return (ITEM, c)
        return None

    def rally(self, state: State, k: Optional[int]):
        """Boss rounds: the square everyone gathers on — the boss's own square (CQB pierce carries
        through the grunts in front of it), or the centre of its line if that is blocked (``k``:
        the boss's group, or None)."""
        if not self.combo or k is None:
            return None
        square = (0 if k < 3 else 2) * 3 + k % 3
        return square if square not in state.blocked else 3 + k % 3

    def boss_reachable(self, state: State, k: int) -> bool:
        """Could the whole team's best attack cards, chained on the rally square, reach the boss
        through the grunts in front of it (CQB pierce) this round?"""
        setup = self.setup
        group = state.groups[k]
        need = 0
        for e in group[:group.index(setup.boss) + 1]:  # a loop, not sum() over a generator (a frame each call)
            need += state.elife[e]
        potential = 0
        for q in range(state.n):
            if state.status[q] == ACTIVE:
                potential += sum(self.attack_aps(state.hand[q])[:state.actions[q]])
        return potential >= need

    def reserve(self, state: State, s: int):
        """The attack cards a partner would add to the boss chain (its best ``actions`` of them)."""
        return tuple(self.strongest(state, s)[:state.actions[s]])

    def strongest(self, state: State, s: int) -> list[int]:
        """Player ``s``'s attack cards it can pay for, strongest first (AP, then card)."""
        setup, life = self.setup, state.life[s]
        cards: list[int] = []
        for c in state.hand[s]:  # a loop: a comprehension is a function frame a call in Python 3.11
            if setup.c_attack[c] and life > setup.c_life_cost[c]:
                cards.append(c)
        cards.sort(key=self.traits.strength_rank)
        return cards

    def attack_aps(self, hand: list[int]) -> tuple[int, ...]:
        """The AP of the attack cards in ``hand``, highest first (allies' hands are read at most
        decisions of a turn and rarely change: remembered per setup by the hand's cards)."""
        key = tuple(hand)
        found = self._attack_aps.get(key)  # a hit without setup_memo's call
        return found if found is not None else setup_memo(self.setup, "_attack_aps", key, _attack_aps, self.setup, key)

    def kept_search(self, state: State, s: int, keep: tuple, moved):
        """``best_chain``'s answer without searching, right after the free MOVE it asked for (``moved``:
        ``(log, its length after the move, keep, answer)``, or None), or None.

        With no free move left only the new square's groups are in reach, at their raw values: those the
        search before valued less the 0.2 move cost (or, for a twin skipped there, an earlier entry's of
        equal raw value). Rounding ``x - 0.2`` keeps every order (``x <= y`` gives ``x - 0.2 <= y - 0.2``),
        so a chain costed below the chosen one is raw below it, and one costed equal but raw different
        withholds ``raw`` (``best_chain``): the chosen chain is the first best of its square, and the
        search from there returns it. Nothing else may have changed: the log has grown by the MOVE's two
        entries alone (the action, the arrival), and the cards held back are the same."""
        if moved is None:
            return None
        log, size, kept, answer = moved
        if state.log is not log or len(log) != size or state.free_moves or state.pos[s] != answer[3] or keep != kept:
            return None
        return answer

    def best_chain(self, state: State, s: int, keep: tuple, boss_k: Optional[int]):
        """The best (value, cards, target, square, raw) reachable this turn, or None (``boss_k``: the
        boss's group, or None); ``raw`` is the value before the move cost, or None when a later chain from
        the same square costed the same with another raw value (see ``kept_search``)."""
        setup = self.setup
        acts = state.actions_left
        if acts < 1:
            return None
        life = state.life[s]
        attack: list[int] = []
        for c in state.hand[s]:  # a loop, as in strongest
            if setup.c_attack[c] and life > setup.c_life_cost[c] and c not in keep:
                attack.append(c)
        if not attack:
            return None
        ordered, by_reach = self.chains.of(attack, acts)
        groups = state.groups
        board = current_board(state)
        partner_ap = self.partner_potential(state, s) if boss_k is not None else {}
        every, first = reach_table(setup, self._reach, state.pos[s], state.free_moves > 0, state.blocked)
        # the best so far in typed locals (compiled: native compares, no tuple per better chain)
        best_value = best_raw = 0.0
        best_positions: Optional[tuple[int, ...]] = None
        best_k = best_square = -1
        tied = False  # a later chain from the best's square matched it once costed, not raw
        found: Optional[tuple[float, tuple[int, ...]]]
        if partner_ap:  # help differs by square: the boss's group from every square, once per (reach kind, help)
            by_sig: dict[tuple[int, int], Optional[tuple[float, tuple[int, ...]]]] = {}
            for square, move_cost, k, kind, leads in every:
                if k != boss_k:
                    if not leads or not groups[k] or not by_reach[kind][0]:
                        continue
                    found = _best_on(board, k, by_reach[kind], 0)
                else:
                    if not groups[k] or not by_reach[kind][0]:
                        continue
                    sig = (kind, partner_ap.get(square, 0))
                    if sig in by_sig:
                        found = by_sig[sig]
                    else:
                        found = by_sig[sig] = _best_on(board, k, by_reach[kind], sig[1])
                if found is not None:  # the keep-best update below is written twice on purpose: a helper
                    raw, positions = found  # would return a tuple and box these typed locals again (compiled)
                    value = raw - move_cost
                    if best_positions is None or value > best_value:
                        best_value, best_positions, best_k, best_square = value, positions, k, square
                        best_raw, tied = raw, False
                    elif value == best_value and square == best_square and raw != best_raw:
                        tied = True
            return _with_cards(ordered, best_positions, best_value, best_k, best_square, None if tied else best_raw)
        for square, move_cost, k, kind, _ in first:  # each (k, reach kind) once
            if not groups[k] or not by_reach[kind][0]:
                continue
            found = _best_on(board, k, by_reach[kind], 0)
            if found is not None:
                raw, positions = found
                value = raw - move_cost
                if best_positions is None or value > best_value:
                    best_value, best_positions, best_k, best_square = value, positions, k, square
                    best_raw, tied = raw, False
                elif value == best_value and square == best_square and raw != best_raw:
                    tied = True
        return _with_cards(ordered, best_positions, best_value, best_k, best_square, None if tied else best_raw)

    def partner_potential(self, state: State, s: int):
        """AP the allies on each square could add to a chain (for a boss kill)."""
        if not self.combo:
            return {}
        out: dict[int, int] = {}
        for q in range(state.n):
            if q == s or state.status[q] != ACTIVE:
                continue
            aps = self.attack_aps(state.hand[q])
            keep = 2 if q > state.turn_pos else 0
            usable = state.actions[q]  # how many of its best cards: at most all but ``keep``, never fewer than none
            if usable > len(aps) - keep:
                usable = len(aps) - keep
            out[state.pos[q]] = out.get(state.pos[q], 0) + (sum(aps[:usable]) if usable > 0 else 0)
        return out

    def safest(self, state: State, s: int, boss_k: Optional[int], threat_here: int) -> int:
        """The least threatened square within a free move (``threat_here``: ``combat.threat`` of
        the player's square, already known), grouped up with later allies for the boss."""
        best_sq, best_score = state.pos[s], None
        boss_on = boss_k is not None
        threats: list[Any] = [None] * 3  # a square's threat depends on its line alone
        threats[best_sq % 3] = threat_here
        here = best_sq
        for sq in (here, *NEIGHBOURS[here]):  # stay, or an open neighbour (plain loops: no generator frames)
            if sq != here and sq in state.blocked:
                continue
            score = threats[sq % 3]
            if score is None:
                score = threats[sq % 3] = combat.threat(state, sq)
            if boss_on and self.combo:
                waiting = 0  # later allies on that square
                for q in range(state.turn_pos + 1, state.n):
                    if q != s and state.status[q] == ACTIVE and state.pos[q] == sq:
                        waiting += 1
                score -= 1.5 * waiting
            score += 0.01 * (sq != state.pos[s])
            if best_score is None or score < best_score:
                best_sq, best_score = sq, score
        return best_sq

    # ---- combination, target, shop ----------------------------------------------------------
    def join(self, state: State):
        """Join with the strongest card when adding up to ``limit`` cards (strongest first) turns
        the chain's preview up by more than 0.5, or, for a player whose turn is over, when it
        reaches the combo bonus."""
        if not self.combo:
            return (PASS,)
        setup, q = self.setup, state.seat
        s = state.turn_pos
        limit = state.actions[q] - state.partner_used.get(q, 0)
        mine = self.strongest(state, q)
        if q > s and limit > len(state.hand[q]) - 2:  # own turn still to come: keep two cards
            limit = len(state.hand[q]) - 2
        if limit <= 0 or not mine:
            return (PASS,)
        adds = mine[:limit]
        square, grapples = state.pos[s], state.grapples
        if q < s:  # the bonus gold of j more hits only grows with j: adding them all tells
            # (it is max(0, hits - min_hits + 1), so adding any hits raises it once they reach min_hits)
            if len(state.chain) + state.chain_hits + len(adds) >= setup.play.combo_bonus_min_hits:
                flags = state.chain_flags
                for c in adds:
                    flags |= setup.c_flags[c]
                if combat.targets(state, square, flags):  # no target, no bonus
                    return (JOIN, mine[0])
        board = current_board(state)  # its methods called directly (compiled: native calls, not a bound method's)
        ap, flags = state.chain_ap, state.chain_flags
        base = board.best_attack(state, square, combat.targets(state, square, flags), ap, flags, grapples)
        others = None  # what later partners could add (worked out when a boss kill is in question)
        for c in adds:
            ap += setup.c_ap[c]
            flags |= setup.c_flags[c]
            ks = combat.targets(state, square, flags)
            value = board.best_attack(state, square, ks, ap, flags, grapples)
            if value < BOSS_VALUE:
                if others is None:
                    others = self.partners_ap(state)
                if others:
                    boosted = board.best_attack(state, square, ks, ap + others, flags, grapples)
                    if boosted >= BOSS_VALUE:
                        value = boosted
            if value > base + 0.5:
                return (JOIN, mine[0])
        return (PASS,)

    def partners_ap(self, state: State) -> int:
        """AP the partners after this one could still add to the chain (their best cards)."""
        others = 0
        for p in state.partners[1:]:
            others += sum(self.attack_aps(state.hand[p])[:state.actions[p] - state.partner_used.get(p, 0)])
        return others

    def target(self, state: State):
        s = state.turn_pos
        legal = state.legal_actions()
        if legal == [(NO_TARGET,)]:
            return legal[0]
        square = state.pos[s]
        planned = self.plan[1] if self.plan else None
        board = current_board(state)
        best: Any = None
        best_key: Any = None
        for a in legal:  # the most valuable target, the planned one, the lowest (a loop, not max() with a key lambda)
            value = board.attack(state, square, a[1], state.chain_ap, state.chain_flags, state.grapples)
            key = (value, a[1] == planned, -a[1])
            if best is None or key > best_key:
                best, best_key = a, key
        return best

    def shop(self, state: State, rng):
        """Buy by value per gold; among the buys within 50% of the best, pick at random (players
        differ in taste, and a fixed order would leave the same cards on the shelf every game)."""
        setup = self.setup
        worth = self.worth
        scored = []
        for a in buys(state, state.seat):  # the legal actions but DONE and GIVE, without the gift checks
            if a[0] == UPGRADE:
                gain = worth[a[1]] - worth[setup.c_replaces[a[1]]]
            elif a[0] == BUY:
                gain = worth[a[1]] - DILUTION
            else:  # CURE
                gain = 3.0
            price = setup.c_cost[a[1]] if a[0] != CURE else setup.play.n11_cure
            ratio = gain / (price if price > 1 else 1)  # a free card counts as 1 gold (no max(): see support_value)
            if ratio > 0:
                scored.append((ratio, a))
        if not scored:
            return self.gift(state) or (DONE,)
        near = _near_best(scored)
        return near[int(rng.random() * len(near))]

    def gift(self, state: State):
        """G21, with gold this player has no use for: 1 gold to the ally for whom it buys the best
        thing (value per gold) that ally cannot afford yet, or None."""
        s = state.seat
        gold = state.gold[s]
        if not gold or state.gifted[s]:
            return None
        setup, worth = self.setup, self.worth
        best = None
        for t in range(state.n):
            if t == s:
                continue
            have = state.gold[t]
            for kind, c in offers(state, t, have + gold):
                if setup.c_cost[c] <= have:
                    continue
                gain = worth[c] - (worth[setup.c_replaces[c]] if kind == UPGRADE else DILUTION)
                ratio = gain / max(1, setup.c_cost[c])
                if ratio > 0 and (best is None or ratio > best[0]):
                    best = (ratio, t)
        return (GIVE, best[1]) if best else None


class _Traits:
    """What the greedy agent asks of a card in hand, once per setup: a non-attack card that
    gives an action, draws (and strikes nobody), saves, powers a chain (chain_ap, chain_sub,
    add_hits; no strike), or supports (neither attack nor strike); whether an effect heals or
    guards (an item kept until it helps); and the strength order."""

    gains_action: list[bool]
    heals: list[bool]
    guards: list[bool]
    draws: list[bool]
    saves: list[bool]
    powers_chain: list[bool]
    supports: list[bool]
    strength_rank: Any

    def __init__(self, setup):
        cards = range(len(setup.c_id))
        other = [not setup.c_attack[c] for c in cards]
        no_strike = [other[c] and not setup.c_strike[c] for c in cards]
        self.gains_action = [other[c] and _has_op(setup, c, "gain_action") for c in cards]
        self.draws = [no_strike[c] and bool(setup.c_draw[c] or _has_op(setup, c, "draw")) for c in cards]
        self.saves = [other[c] and _has_op(setup, c, "save") for c in cards]
        self.heals = [_has_op(setup, c, "heal") for c in cards]
        self.guards = [_has_op(setup, c, "guard") for c in cards]
        self.powers_chain = [no_strike[c] and any(op in ("chain_ap", "chain_sub", "add_hits")
                                                  for op, _ in setup.c_effect[c]) for c in cards]
        self.supports = no_strike
        rank = [0] * len(cards)  # place in the (-AP, card) order: strongest first
        for place, c in enumerate(sorted(cards, key=lambda c: (-setup.c_ap[c], c))):
            rank[c] = place
        self.strength_rank = rank.__getitem__


def _traits(setup) -> _Traits:
    return kept_on_setup(setup, "_traits", _Traits)


def _attack_aps(setup: Setup, hand: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted([setup.c_ap[c] for c in hand if setup.c_attack[c]], reverse=True))


def _rage_harm(state: State, top: int) -> float:
    """A rough harm of the final boss's rage card ``top`` (a boss-deck index): damage and discards
    count once per player they reach, each spawned enemy 1.5, boss guard 0.5 a point."""
    boss = state.setup.bosses[state.stage]
    harm = 0.0
    for op, p in boss["rage"][top - len(boss["skills"])]:
        n = p.get("n", 1)
        if op in ("damage", "discard"):
            harm += n * (state.n if p.get("target") == "all" else 1)
        elif op == "spawn":
            harm += 1.5 * n
        elif op == "enemy_guard":
            harm += 0.5 * n
        else:
            harm += 1.0
    return harm


def _near_best(scored) -> list:
    """The actions of ``scored`` (ratio, action) pairs, every ratio positive, whose ratio is at
    least half the best, in order (plain loops, not max() and sorted() over generators)."""
    top = 0.0
    for r, _ in scored:
        if r > top:
            top = r
    near = []
    for r, a in scored:
        if r >= 0.5 * top:
            near.append(a)
    near.sort()
    return near


def _step_towards(square: int, goal: int, blocked) -> int | None:
    """The open neighbour of ``square`` nearest ``goal`` (fewest steps, then the lowest square), or
    None (a loop: min() with a key lambda over a generator cost three calls a rally move)."""
    best: Any = None
    best_steps: Any = None
    for q in NEIGHBOURS[square]:
        if q in blocked:
            continue
        steps = abs(q // 3 - goal // 3) + abs(q % 3 - goal % 3)
        if best is None or steps < best_steps or (steps == best_steps and q < best):
            best, best_steps = q, steps
    return best


def _with_cards(ordered: list[int], positions: Optional[tuple[int, ...]], value: float, k: int, square: int,
                raw: Optional[float]):
    """``best_chain``'s answer ``(value, cards, k, square, raw)``, the chain's positions in ``ordered``
    turned into its cards, or None without a chain."""
    if positions is None:
        return None
    return value, list(map(ordered.__getitem__, positions)), k, square, raw


def _best_on(board: Board, k: int, reach: Reach, help_ap: int) -> Optional[tuple[float, tuple[int, ...]]]:
    """``(value less card cost, positions)`` of the best chain of ``reach`` (a ``Chains.of``
    entry) on group ``k``, or None; ``help_ap`` is what partners could add for a boss kill."""
    chains, plain = reach
    known = board.heads[k]  # (a test for None, not ``or``: compiled, ``or`` boxes the tuple again)
    need, head = known if known is not None else board.head(k)
    if plain and not help_ap:  # only the head can fall: the first (cheapest) chain that fells it
        for ap, _, _, cost, positions in chains:
            if ap >= need:
                return (head - cost, positions)
        return None
    ranged = board.ranged
    steps: Optional[list[float]] = None  # the pierce table, read on the first pierce chain
    best_positions: Optional[tuple[int, ...]] = None
    best = 0.0
    for ap, pierce, rng, cost, positions in chains:  # range in one test, pierce alone (the most chains) in two
        if rng:  # Board.value's range case, without the call
            made = ranged[2 * k + (1 if pierce else 0)]
            table = made if made is not None else board.range_steps(k, pierce)
            value = table[ap] if ap < len(table) else table[-1]
        elif pierce:  # the first few fall (Board.pierce_steps)
            if steps is None:
                made = board.steps[k]
                steps = made if made is not None else board.pierce_steps(k)
            value = (steps[ap] if ap < len(steps) else steps[-1]) if steps else board.value(k, ap, pierce, 0)
        else:  # the head falls or nothing happens
            value = head if ap >= need else 0.0
        if help_ap and value < BOSS_VALUE:  # help is rare: tested first
            boosted = board.value(k, ap + help_ap, pierce, rng)
            if boosted >= BOSS_VALUE:
                value = 0.9 * boosted
        if value <= 0:
            continue
        value -= cost
        if best_positions is None or value > best:  # the first best (no tuple made per better chain)
            best, best_positions = value, positions
    return (best, best_positions) if best_positions is not None else None


class NoComboAgent(GreedyAgent):
    """The greedy heuristic that never joins a combination (spec §6 control)."""
    name = "nocombo"
    combo = False



AGENTS = {"greedy": GreedyAgent, "nocombo": NoComboAgent}
