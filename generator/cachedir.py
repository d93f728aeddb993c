"""The user's cache folder for pnp (fonts' parsed tables, compiled simulators): ``$PNP_CACHE_DIR``,
else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``; ``PNP_CACHE_DIR=`` (empty) turns caching off.
A module of its own so that the simulators' import hook can ask without importing ReportLab."""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path | None:
    configured = os.environ.get("PNP_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "pnp"
