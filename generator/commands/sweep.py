"""``pnp simulate GAME --sweep PATH=VALUES``: several values of one number tried at once, each played
on the same deals as the content as it is, in one table: win rate, paired difference, length, and
where each interval lies against balance.yaml's win-rate band.

    pnp simulate metroidvania --players 2 --games 2000 --sweep rules.boss_life_bonus.2=0..3
    pnp simulate fatal-fight --players 3 --sweep boss_garon.life=4,6,8

Each value is read and checked as ``--set PATH=VALUE`` reads it (generator/sim/overrides.py); the
runs themselves are ``pnp simulate``'s own (generator/commands/simulate.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import click


@dataclass(frozen=True)
class Arm:
    """One row: ``value`` as written (read as YAML), ``played`` as the engine gets it (a length in
    points ...), ``change`` the ``--set`` it is, ``tables`` what it plays (None: the content as it is)."""
    value: object
    played: object
    change: str | None
    tables: dict | None


@dataclass(frozen=True)
class Sweep:
    path: str
    current: object
    arms: list[Arm]

    def changed(self) -> list[Arm]:
        """The arms to play besides the content as it is (a value it already has is not played again)."""
        return [arm for arm in self.arms if arm.tables is not None]

    def document(self, plain: dict, runs: list[dict], band) -> dict:
        """The ``sweep`` part of the summary: a row per arm, ``runs`` those of ``changed()`` in order."""
        played = iter(runs)
        rows = [_row(arm, plain if arm.tables is None else next(played), plain, band) for arm in self.arms]
        shown_band = None if band is None else {"min": band[0], "max": band[1]}
        return {"path": self.path, "current": self.current, "band": shown_band, "rows": rows}


def alone(sweeps, sets, game_index, cards, heroes=False, filler=None) -> None:
    """A sweep is a table of whole runs of one path's values: no other change, no one game, no card or
    character list."""
    clash = [name for name, given in (("--set", sets), ("--filler", filler), ("--game", game_index is not None),
                                      ("--cards", cards), ("--heroes", heroes)) if given]
    if clash:
        raise click.UsageError(f"--sweep does not go with {' or '.join(clash)}: sweep, then look at one value "
                               f"with --set PATH=VALUE (and --game I --trace, --cards or --heroes)")
    if len(sweeps) > 1:
        raise click.UsageError("--sweep takes one path per run: the table compares the values of one path")


def swept(tables: dict, text: str, game) -> Sweep:
    """The arms of ``--sweep text``: each value once, the content's own value as the current arm
    (added when no value is it), in the order written or by value when all are numbers. Raises
    ``OverrideError`` as ``--set`` would for the first value it refuses."""
    from ..sim.overrides import apply_sets, described, parse_sweep, same_value, value_at

    path, written = parse_sweep(text)
    current = value_at(tables, f"{path}={written[0]}")  # a path it cannot find: as --set says it
    arms: list[Arm] = []
    for raw in written:
        change = f"{path}={raw}"
        changed = apply_sets(tables, [change], game)
        played = value_at(changed, change)
        if any(same_value(played, arm.played) for arm in arms):
            continue
        is_current = same_value(played, current)
        arms.append(Arm(described([change])[path], played, None if is_current else change,
                        None if is_current else changed))
    if not any(arm.tables is None for arm in arms):
        arms.insert(0, Arm(current, current, None, None))
    if all(_number(arm.played) for arm in arms):
        arms.sort(key=lambda arm: arm.played)
    return Sweep(path, current, arms)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def win_band(game, players: int):
    """``(min, max, z)``: balance.yaml's win-rate band as the validator judges it at its last look,
    or None when the game has none or the validator does not play this player count. A band with its
    min above its max raises ``ProblemsError`` at its line, as ``pnp validate`` says it: every value
    would read "outside" of it (call this before the games are played)."""
    from ..errors import ProblemsError
    from ..sim.static import balance_of
    from ..sim.stats import Z95
    from ..sim.verdict import inverted_bands

    config, path, lines = balance_of(game)
    config = config or {}
    band = config.get("win_rate") or {}
    inverted = inverted_bands({"win_rate": band}, path, lines) if isinstance(band, dict) else []
    if inverted:
        raise ProblemsError(inverted)
    if band.get("min") is None and band.get("max") is None or players not in (config.get("players") or [players]):
        return None
    return band.get("min"), band.get("max"), (config.get("sampling") or {}).get("z_final", Z95)


def _row(arm: Arm, run: dict, plain: dict, band) -> dict:
    from ..sim.stats import band_decision
    from .simulate import paired

    where = None if band is None else band_decision(run["wins"], run["games"], *band)
    return {"value": arm.value, "current": arm.tables is None, "win_rate": run["win_rate"], "ci95": run["ci95"],
            "wins": run["wins"], "paired": paired(run, plain), "rounds": run["rounds"], "errors": run["errors"],
            "timeouts": run["timeouts"], "band": {"unclear": "straddles"}.get(where, where)}


# ---- the table -------------------------------------------------------------------------------------

def print_sweep(s: dict, seats: str) -> None:
    """The sweep's table under the run's headline, and which values' whole interval is in the band."""
    from ..sim.stats import band_text
    from ..sim.verdict import seat_word

    sweep, games = s["sweep"], s["games"]
    band = sweep["band"]
    header = [sweep["path"], "win rate [95% CI] (wins/games)", "vs current [95% CI], paired", "rounds median / p95",
              "errors+timeouts"] + ([f"win-rate band {band_text(band['min'], band['max'])}"] if band else [])
    table = [header] + [_cells(row, games, band) for row in sweep["rows"]]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        click.echo("  " + "  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
    if band:
        inside = [_shown(row["value"]) for row in sweep["rows"] if row["band"] == "inside"]
        click.echo(f"whole interval inside the win-rate band {band_text(band['min'], band['max'])} with {s['players']} "
                   f"{seat_word(seats, s['players'])}: {', '.join(inside) or 'none'}{_beyond(sweep['rows'], band)}")
        # a value inside M1 may still fail another band (a hero spread, a dead card): said, not implied
        click.echo("only the win-rate band is judged here: write the value in its file, and pnp validate judges "
                   "every band")


def _beyond(rows: list, band: dict) -> str:
    """When every value's interval lies on one side of the band: which way, the nearest value and,
    when it is the first or last of the numbers tried, to try past it (a sweep that ends in "none"
    otherwise leaves the designer with no next value)."""
    below = band["min"] is not None and all(row["ci95"][1] < band["min"] for row in rows)
    above = band["max"] is not None and all(row["ci95"][0] > band["max"] for row in rows)
    if not rows or not (below or above):
        return ""
    nearest = (max if below else min)(rows, key=lambda row: row["win_rate"])
    said = f"; every interval lies {'below' if below else 'above'} it, the nearest at {_shown(nearest['value'])}"
    if len(rows) > 1 and all(_number(row["value"]) for row in rows) and nearest in (rows[0], rows[-1]):
        said += f", the {'lowest' if nearest is rows[0] else 'highest'} value tried: sweep past it"
    return said


def _cells(row: dict, games: int, band) -> list[str]:
    from ..sim.stats import interval_text

    lo, hi = row["ci95"]
    p = row["paired"]
    dlo, dhi = p["ci95"]
    return [_shown(row["value"]) + (" (current)" if row["current"] else ""),
            f"{row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] ({row['wins']}/{games})",
            "-" if row["current"] else f"within ±{p['bound']:.3f} (no game differs)" if "bound" in p
            else interval_text(p["diff"], dlo, dhi, None, "{:+.3f}"),
            f"{row['rounds']['median']:g} / {row['rounds']['p95']:g}",
            f"{row['errors']}+{row['timeouts']}"] + ([row["band"]] if band else [])


def _shown(value) -> str:
    """A value as the YAML file writes it (``true``, ``6``, ``two_decks``)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


