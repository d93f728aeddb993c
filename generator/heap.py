"""Fewer garbage collections during bulk work: games played, faces painted."""
from __future__ import annotations

import gc
import os
from contextlib import contextmanager

# blocks open, and in which process: a build that plays games opens one inside another, and a worker
# forked inside a block starts with none open
_open = {"pid": 0, "depth": 0}


@contextmanager
def few_collections(threshold: tuple[int, int, int] = (50_000, 20, 20)):
    """Objects alive now are frozen out of the cyclic collector while the block runs, and the
    collector's ``threshold`` replaces its own.

    Bulk work makes many short-lived objects, which trigger the collector constantly, and every
    full pass walks again what lives for the whole run: the modules, a game's compiled setup, its
    cards and parsed fonts. Both come back when the outermost block ends, so a long-running
    process (``pnp watch``) frees at its next collection what the block left behind.
    """
    if _open["pid"] != os.getpid():
        _open.update(pid=os.getpid(), depth=0)
    before = gc.get_threshold()
    gc.freeze()  # again in an inner block: what the outer one made since (a compiled setup) too
    gc.set_threshold(*threshold)
    _open["depth"] += 1
    try:
        yield
    finally:
        _open["depth"] -= 1
        gc.set_threshold(*before)
        if not _open["depth"]:  # the outer block's objects stay frozen until it ends
            gc.unfreeze()
