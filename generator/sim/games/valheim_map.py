"""Valheim: the map as a State mixin — distances between placed tiles (4-neighbour steps, 0-cost
links between bases once a link_bases facility stands), the frontier of edges that can be
opened, and laying a drawn tile (spec §3.5.1).

Distances are cached in ``state._dist`` by origin; the lists from bases are kept exact as the map
grows: a new tile or base only shortens paths through itself, so they are relaxed from it instead
of searched again (the agents ask for the same few bases hundreds of times a game); the lists from
other slots (a walker's) are dropped when a tile is laid.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Final, Optional

from .valheim_flow import P_EXPLORE, Flow
from .valheim_setup import STEP

INF: Final = 1 << 20  # the distance of an unreachable slot


class Map(Flow):
    """Distances and edges; on ``Flow`` in the rules' line of classes."""

    __slots__ = ()

    # ---- distances -------------------------------------------------------------------------------
    def dist(self, origin: int, links: bool = True) -> list[int]:
        """Steps from slot ``origin`` to every placed slot (4-neighbour BFS; 0-cost links between
        bases once a link_bases facility stands, unless ``links`` is False: a walker's own steps).

        Cached in ``_dist`` by origin (links: ``-1 - origin``) with the adjacency under "adj"; new
        tiles and bases update the cached lists instead of a new search (``map_grew``,
        ``base_added``), and a dead end's list is its neighbour's plus one (``_from_dead_end``: a
        walker on the tile it just laid); the lists are never changed in place, so a caller may
        keep one."""
        cache = self._dist
        link = links and self.fac.link
        key = -1 - origin if link else origin
        kept: Optional[list[int]] = cache.get(key)
        if kept is not None:
            return kept
        adj: Optional[list[list[int]]] = cache.get("adj")  # slot -> its neighbours
        if adj is None:
            adj = cache["adj"] = [self.neighbours(x, y) for x, y in self.s_pos]
        kept = _from_dead_end(origin, adj, self.s_level, cache, link)
        if kept is not None:
            cache[key] = kept
            return kept
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
            todo = deque([origin])
            while todo:
                k = todo.popleft()
                dk = d[k]
                if self.s_level[k] >= 0:
                    for b in bases:
                        if d[b] > dk:
                            d[b] = dk
                            todo.appendleft(b)
                for j in adj[k]:
                    if d[j] > dk + 1:
                        d[j] = dk + 1
                        todo.append(j)
        cache[key] = d
        return d

    def neighbours(self, x: int, y: int) -> list[int]:
        grid = self.grid
        out = []
        for dx, dy in STEP:
            j = grid.get((x + dx, y + dy))
            if j is not None:
                out.append(j)
        return out

    def map_grew(self, k: int, walker: int = -1) -> dict:
        """The distance cache after slot k was laid from slot ``walker``: the adjacency gains k, and
        every cached distance list from a base or from the walker gains k and whatever got shorter
        through it (only paths through k can); the others and the frontier are dropped (the caller
        updates the frontier; the searches from the slots a walk left would be kept exact for
        nothing, tile after tile; the walker's gives the new tile's, see ``_from_dead_end``)."""
        old = self._dist
        cache: dict[Any, Any] = {}
        adj: Optional[list[list[int]]] = old.get("adj")
        if adj is None:
            return cache
        x, y = self.s_pos[k]
        adj.append(self.neighbours(x, y))
        for j in adj[k]:
            u, v = self.s_pos[j]
            adj[j] = self.neighbours(u, v)
        cache["adj"] = adj
        bases = None
        level = self.s_level
        for key, kept in old.items():
            if type(key) is not int:
                continue  # the frontier
            origin = key if key >= 0 else -1 - key
            if level[origin] < 0 and origin != walker:
                continue  # a search from a slot the walk left: asked for during one walk only
            if key < 0 and bases is None:
                bases = self.bases()
            d: list[int] = kept + [INF]  # a new list: callers may still hold the old one
            best = INF
            for j in adj[k]:
                if d[j] < best:
                    best = d[j]
            if best < INF:
                d[k] = best + 1
                if len(adj[k]) > 1:  # through a dead end (no base yet) nothing gets shorter
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

    # ---- edges -----------------------------------------------------------------------------------
    def edge_at(self, k: int, d: int):
        """(biome pile to draw, cost) of the edge of slot k facing world direction d, or None."""
        e = self.edge_raw(k, d)
        if e is None:
            return None
        cost = e[1] - self.mods.edisc
        return e[0], cost if cost > 1 else 1

    def frontier(self) -> list[tuple[int, int, int, int]]:
        """Every edge that could be opened now: (slot, world direction, pile biome, printed cost);
        cached, and kept up to date as tiles are laid (``_frontier_after``)."""
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


def _from_dead_end(origin: int, adj: list[list[int]], level: list[int], cache: dict, link: int) -> Optional[list[int]]:
    """The distances from a slot that is no base and has a single neighbour, if the neighbour's are
    cached: every path leaves through the neighbour, so they are its distances plus one (else None)."""
    near = adj[origin]
    if len(near) != 1 or level[origin] >= 0:
        return None
    n = near[0]
    dn: Optional[list[int]] = cache.get(-1 - n if link else n)
    if dn is None:
        return None
    d = [x + 1 if x < INF else INF for x in dn]
    d[origin] = 0
    return d


def _relax(d: list[int], queue: list[int], adj: list[list[int]], bases: Optional[list[int]]) -> None:
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


def place_tile(state: Map, i: int) -> None:
    """Lay drawn tile i through the edge being opened (the others go under their pile)."""
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
    state._dist = state.map_grew(k, state.walker)
    state.log.append(("tile", k, tile, x + dx, y + dy, d, cost))
    if not pile:
        state.log.append(("pile_out", b))
    if old is not None:
        state._dist[None] = _frontier_after(state, old, k, cell, pile_out=not pile)
    if state.setup.rules["explore.walk_continues_past_new_tile"]:
        state.walker = k
    state.phase = P_EXPLORE
    state.settle()


def _frontier_after(state: Map, old: list[tuple[int, int, int, int]], k: int, cell: tuple[int, int],
                    pile_out: bool) -> list[tuple[int, int, int, int]]:
    """The frontier after slot k was laid at ``cell``, from the one before (same order as a fresh
    scan: by slot, then direction): the old edges but those facing the cell, then the new tile's.
    When a pile ran out, every old edge is looked at again (an edge into it closes or turns to the
    next tier); no closed edge opens, since piles only shrink and the grid only grows."""
    new: list[tuple[int, int, int, int]] = []
    if pile_out:
        for e in old:
            got = state.edge_raw(e[0], e[1])
            if got is not None:
                new.append((e[0], e[1], got[0], got[1]))
    else:
        pos = state.s_pos
        cx, cy = cell
        for e in old:  # the edges facing the new cell are closed
            x, y = pos[e[0]]
            dx, dy = STEP[e[1]]
            if x + dx != cx or y + dy != cy:
                new.append(e)
    for dd in range(4):
        edge = state.edge_raw(k, dd)  # (a name of its own: ``e`` above is a frontier entry, never None)
        if edge is not None:
            new.append((k, dd, edge[0], edge[1]))
    return new
