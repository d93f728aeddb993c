"""Known findings: warning bands the designer has looked into and accepted, with the reason.

A shipped game's balance.yaml may say, under ``known:``, that a warning band is missed by design
(Fatal Fight's combo band is out of reach with 2 characters; a Metroidvania maiden playing 72 turns
alone dies more often). Such a warning is still judged, tabled and written to balance.pdf with its
reason, but no longer printed at every build: a line says how many were left out and ``-v`` lists
them. Errors are never silenced. An entry whose warning did not come this time is said too (with
``-v``), so that the list does not outlive its findings.

    known:
      - band: pressure.combo_boss_round_share   # the band's key in this file (or a section of bands)
        players: [2]                            # optional: only at these counts (default: every count)
        reason: 2 characters never chain more than 6 HIT
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import KNOWN, Location, Problem


@dataclass(eq=False)
class Known:
    band: str
    players: tuple | None
    reason: str
    where: Location
    seen: bool = field(default=False)

    def names(self, key: str) -> bool:
        """Whether band ``key`` (a dotted key of balance.yaml) is this entry's band or in its section."""
        return key == self.band or key.startswith(self.band + ".")

    def covers(self, key: str, players) -> bool:
        """Whether a warning of band ``key`` with ``players`` (None: pooled over every count) is this finding."""
        return self.names(key) and (self.players is None or (players is not None and _count(players) in self.players))


def _count(players):
    try:
        return int(players)
    except (TypeError, ValueError):
        return players


def read(config: dict, lines: dict, path) -> tuple[list[Known], list[Problem]]:
    """``(entries, problems)`` of balance.yaml's ``known:`` (``lines``: dotted key -> line, see
    ``static.balance_of``); an entry that names no band of the file, or lacks its reason, is an error
    at its line (balance.yaml is not always checked by a schema)."""
    entries, problems = [], []
    raw = config.get("known") or []
    if not isinstance(raw, list):
        return [], [Problem(Location(str(path), lines.get("known", 0)), "known",
                            "expected a list of {band, reason, players (optional)}")]
    for i, item in enumerate(raw):
        where = Location(str(path), lines.get(f"known.{i}", lines.get("known", 0)))
        if not isinstance(item, dict) or not isinstance(item.get("band"), str) or not str(item.get("reason") or "").strip():
            problems.append(Problem(where, f"known[{i}]", "expected {band: <a band's key>, reason: <why it is "
                                    "accepted>, players: [counts] (optional)}"))
            continue
        band = item["band"]
        if band not in lines or band.startswith("known"):
            problems.append(Problem(where, f"known[{i}].band", f"no band {band!r} in this file (a key such as "
                                    "pressure.combo_boss_round_share, or a section of bands)"))
            continue
        players = item.get("players")
        if players is not None and (not isinstance(players, list) or not all(isinstance(n, int) for n in players)):
            problems.append(Problem(where, f"known[{i}].players", "expected a list of player counts, e.g. [1, 2]"))
            continue
        entries.append(Known(band, tuple(players) if players is not None else None, str(item["reason"]).strip(), where))
    return entries, problems


def covering(entries: list[Known], key: str, players) -> Known | None:
    """The entry that accepts a warning of band ``key`` with ``players``, or None."""
    return next((entry for entry in entries if entry.covers(key, players)), None)


def demote(entries: list[Known], key: str, players, message: str) -> tuple[str, str] | None:
    """``(severity, message)`` for a warning that is a known finding, or None."""
    entry = covering(entries, key, players)
    if entry is None:
        return None
    entry.seen = True
    return KNOWN, f"{message} (known: {entry.reason})"


def unseen(entries: list[Known], problems=(), simulate: str = "pnp simulate GAME") -> list[Problem]:
    """A note for each entry whose warning did not come this time (it passed, or its interval straddled);
    a warning, shown without -v, for an entry whose band failed as an error (``problems``): the designer
    who wrote it expects the error accepted, and errors never are (``simulate``: the game's command)."""
    failed = {p.field for p in problems if p.severity == "error"}
    return [_failed(e, simulate) if any(e.names(key) for key in failed) else
            Problem(e.where, "known", f"{e.band}{_at(e.players)} did not warn this time (it passed or its interval "
                    "straddled the band): once it stays away, remove the entry", KNOWN)
            for e in entries if not e.seen]


def _failed(entry: Known, simulate: str) -> Problem:
    return Problem(entry.where, "known", f"{entry.band} failed as an error, which known: cannot accept (it accepts "
                   f"warnings only): change the numbers until it passes ({simulate} --players N --sweep PATH=A..B), "
                   "or the band if it is wrong", "warning")


def _at(players) -> str:
    return "" if players is None else " with " + ", ".join(map(str, players))
