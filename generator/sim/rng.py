"""Seeds and chance.

Game *i* of a run with seed *s* deals from ``Random(f"{s}/{i}")``; each seat's agent thinks
with its own stream ``Random(f"{s}/{i}/agent{p}")`` so a thinking agent never changes the deal.
String seeds are hashed with SHA-512 by ``random.Random``, so they are stable across processes
and ``PYTHONHASHSEED``. Shuffles are derived from ``Random.random()`` only, the one method whose
sequence Python promises to keep across versions.
"""
from __future__ import annotations

import random


def deal_rng(seed, index: int) -> random.Random:
    """The chance stream of game ``index`` of a run seeded ``seed``."""
    return random.Random(f"{seed}/{index}")


def agent_rng(seed, index: int, seat: int) -> random.Random:
    """The private stream of the agent in ``seat`` in game ``index``."""
    return random.Random(f"{seed}/{index}/agent{seat}")


def shuffle(items: list, rng: random.Random) -> None:
    """Fisher-Yates in place, drawing only ``rng.random()`` (version-stable)."""
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


def choice(items, rng: random.Random):
    """One element of a non-empty sequence, drawing only ``rng.random()``."""
    return items[int(rng.random() * len(items))]


def sample(items, k: int, rng: random.Random) -> list:
    """``k`` distinct elements in random order (a partial Fisher-Yates)."""
    pool = list(items)
    rand = rng.random
    n = len(pool)
    for i in range(min(k, n)):
        j = i + int(rand() * (n - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def copy_rng(rng: random.Random) -> random.Random:
    """An independent copy of a stream at its current position (for ``clone()``)."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin
