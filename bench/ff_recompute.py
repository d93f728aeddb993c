"""How much of a greedy Fatal Fight game recomputes something whose inputs did not change (not a test).

    python bench/ff_recompute.py [--players 4] [--games 150]

For each preview the greedy agent asks for, a game's calls, the calls whose inputs equal the same
agent's previous call (``=last``; the whole state for the Board check) and those equal to any earlier
call of the game (``=earlier``, what a memo could answer), next to the function's inclusive share of
the game (cProfile without builtins, a separate uninstrumented pass; cProfile overweights small
functions called often) and ``bound``, that share times the repeated fraction: the most a cache of it
could save. Then the chain searches against the same seat's previous search of the turn: inputs
identical, or only the chain length limit lower. Read bench/README.md (Fatal Fight, session 17) first.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections import Counter, defaultdict

from simbench import load

from generator.sim.games import fatal_fight as ff
from generator.sim.games import fatal_fight_agents as agents
from generator.sim.games import fatal_fight_combat as combat
from generator.sim.games import fatal_fight_preview as preview
from generator.sim.runner import few_collections, play_game

ROWS = ("current_board", "of", "best_chain", "_best_on", "join", "target", "boss_reachable", "threat", "targets")


def board_key(state):
    return tuple(map(tuple, state.groups)), tuple(state.elife), tuple(state.egp), tuple(state.xgp)


class Counts:
    def __init__(self):
        self.calls, self.last_rep, self.game_rep = Counter(), Counter(), Counter()
        self.last, self.seen = {}, defaultdict(set)
        self.search, self.search_time, self.prev_search = Counter(), Counter(), {}

    def track(self, name, tag, key):
        self.calls[name] += 1
        self.last_rep[name] += self.last.get((name, tag)) == key
        self.game_rep[name] += key in self.seen[name]
        self.seen[name].add(key)
        self.last[(name, tag)] = key


def instrument(counts: Counts) -> None:
    """Wrap the previews with input keys (module attributes: the agent looks them up at each call)."""
    def wrap(owner, attr, key, per_agent=True):
        inner = getattr(owner, attr)

        def wrapped(*a):
            counts.track(attr, id(a[0]) if per_agent else 0, key(*a))
            return inner(*a)
        setattr(owner, attr, wrapped)

    partner_potential, best_chain = agents.GreedyAgent.partner_potential, agents.GreedyAgent.best_chain

    def search_key(self, state, s, keep, boss_k):
        setup, life = self.setup, state.life[s]
        attack = tuple(sorted(c for c in state.hand[s]
                              if setup.c_attack[c] and life > setup.c_life_cost[c] and c not in keep))
        help_ap = tuple(sorted(partner_potential(self, state, s).items())) if boss_k is not None else ()
        limit = min(state.actions_left, len(attack)) if state.actions_left >= 1 else -1
        return (s, state.round_id, state.turn_pos, attack, state.pos[s], state.free_moves > 0,
                tuple(sorted(state.blocked)), board_key(state), boss_k, help_ap), limit

    def search(self, state, s, keep, boss_k):
        same, limit = search_key(self, state, s, keep, boss_k)
        counts.track("best_chain", id(self), (same, limit))
        start = time.perf_counter()
        found = best_chain(self, state, s, keep, boss_k)
        spent = time.perf_counter() - start
        kinds = ["all"]
        before = counts.prev_search.get(id(self))
        if before and before[0] == same:  # same seat, turn, hand, square, board and help: only the limit may differ
            old_limit, old = before[1], before[2]
            kinds.append("inputs identical" if old_limit == limit else
                         "limit lower, the old answer still first best" if limit < old_limit and
                         (old is None or len(old[1]) <= limit and old[4] is not None) else
                         "limit lower, the answer may change")
        for kind in kinds:
            counts.search[kind] += 1
            counts.search_time[kind] += spent
        counts.prev_search[id(self)] = (same, limit, found)
        return found
    agents.GreedyAgent.best_chain = search
    wrap(agents.GreedyAgent, "join", lambda self, st: (
        st.seat, tuple(st.hand[st.seat]), st.life[st.seat], st.chain_ap, st.chain_flags, st.chain_hits, len(st.chain),
        st.grapples, board_key(st), tuple(st.partners), tuple(sorted(st.partner_used.items())), st.turn_pos,
        st.pos[st.turn_pos]))
    wrap(agents.GreedyAgent, "target", lambda self, st: (
        st.chain_ap, st.chain_flags, st.grapples, board_key(st), st.pos[st.turn_pos], self.plan and self.plan[1]))
    wrap(agents.GreedyAgent, "boss_reachable", lambda self, st, k: (
        k, tuple(map(tuple, st.hand)), tuple(st.status), tuple(st.actions), board_key(st)))
    wrap(preview.Chains, "of", lambda self, attack, acts: (tuple(sorted(attack)), min(acts, len(attack))), False)
    wrap(combat, "threat", lambda st, sq: (sq % 3, tuple(map(tuple, st.groups))), False)
    wrap(combat, "targets", lambda st, sq, flags: (sq, flags, tuple(map(bool, st.groups))), False)
    best_on = agents._best_on

    def best_on_counted(board, k, reach, help_ap):
        st, g = board.state, board.state.groups[k]
        counts.track("_best_on", 0, (k, tuple(g), tuple(st.elife[e] for e in g),
                                     tuple(st.egp[e] + st.xgp[e] for e in g), id(reach[0]), help_ap))
        return best_on(board, k, reach, help_ap)
    agents._best_on = best_on_counted
    current_board = preview.current_board

    def board_counted(state):
        kept = preview._KEPT[0]
        counts.calls["current_board"] += 1
        counts.last_rep["current_board"] += kept is not None and kept.state is state and kept.current(state)
        return current_board(state)
    agents.current_board = preview.current_board = board_counted


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=150)
    args = parser.parse_args()
    players, games = args.players, args.games
    _, tables = load("fatal-fight")
    setup = ff.compile_setup(tables)
    for i in range(30):  # per-process tables as a validation worker has them
        play_game(ff, setup, players=players, agent="greedy", seed="warm", index=i)
    profile = cProfile.Profile(builtins=False)
    with few_collections():
        profile.enable()
        for i in range(games):
            play_game(ff, setup, players=players, agent="greedy", seed="bench", index=i)
        profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(v[2] for v in stats.values())
    inclusive = defaultdict(float)
    for (_, _, name), v in stats.items():
        inclusive[name] += v[3]
    counts = Counts()
    instrument(counts)
    for i in range(games):  # other seeds: the chain cache as cold as in the profiled pass
        play_game(ff, setup, players=players, agent="greedy", seed="recompute", index=i)
        counts.seen.clear()
    print(f"{players} characters, {games} games after 30; share: inclusive cProfile time of a game")
    print(f"{'preview':16} {'calls':>7} {'=last':>7} {'=earlier':>8} {'share':>7} {'bound':>7}")
    for name in ROWS:
        calls, share = counts.calls[name] / games, 100 * inclusive[name] / total
        repeated = max(counts.last_rep[name], counts.game_rep[name]) / games
        print(f"{name:16} {calls:7.1f} {counts.last_rep[name] / games:7.1f} {counts.game_rep[name] / games:8.1f} "
              f"{share:6.1f}% {share * repeated / calls if calls else 0:6.2f}%")
    print(f"chain enumerations (cache misses, profiled pass): {stats_calls(stats, '_by_reach') / games:.1f} a game, "
          f"{100 * inclusive['_by_reach'] / total:.1f}% of it")
    spent = counts.search_time["all"]
    for kind, n in counts.search.items():
        print(f"searches, {kind}: {n / games:.1f} a game, {100 * counts.search_time[kind] / spent:.1f}% of search time")


def stats_calls(stats, name: str) -> int:
    return sum(v[1] for (_, _, fn), v in stats.items() if fn == name)


if __name__ == "__main__":
    main()
