"""The balance verdict: play the current content and judge it against ``balance.yaml``.

Two entry points for the CLI:

- ``check_balance(game, *, workers=None, progress=None)`` -> ``BalanceResult`` (``pnp validate``)
- ``cached_verdict(game, *, workers=None, progress=None)`` -> ``BalanceResult`` (``pnp build``):
  the same, but an unchanged game (same files, same engine version) is not simulated again
  (``pnp validate`` passes ``refresh=True``: it always simulates and leaves its verdict for the build).

``game`` is a loaded game (``generator.content.load_game``): ``.id``, ``.root``, ``.tables``.
Every failed band is a ``Problem`` located at the band's line in balance.yaml that names the
metric, the player count, the measured value with its interval and the command reproducing it.
"""
from __future__ import annotations

import hashlib
import json
import math
import statistics
import os
import re
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Location, Problem, ProblemsError
from ..outputs import VERDICT_FILE, output_dir_of
from . import known, metrics
from .band_types import untyped_bands
from .crash_site import crash_site
from .agents import agent_names
from ..content.tabular import is_editor_lock
from ..export.restates import played_views
from .compile import id_records, played_tables, where_of
from .local import KEY_PREFIX
from .static import balance_of, engine_of, located_checks, refused_count
from .verdict_key import is_shipped, played_inputs
from .runner import DEFAULT_MAX_DECISIONS, play_game, start_games
from .stats import (Z95, band_decision, band_status, band_text, diff_interval, interval_decision, interval_text,
                    number_text, paired_wins, wilson)

DEFAULT_COUNTS = (2, 3, 4)  # the player counts judged when balance.yaml lists none
REPEATED_GAMES = 10  # a game's own engine's games played twice before its verdict: the same seed, the same game
CHECKED_GAMES = 100  # reference-agent games per player count checked at every decision (M0, M9)
SIM_VERSION = "11"  # 2: pressure bands, the M1 spread and M5 decided on intervals, an unclear M5 check played on
# more seeds; 3: M7, M9 and the engines' own bands (Judge.band) decided on intervals with the game as the unit;
# 4: a share of exactly 0 or 1 bounded by its games, M7 above its maximum only as a point says so;
# 5: the M5 screening row names the cards it flagged, a long value wraps in its column (a kept verdict
# would show the old table); 6: balance.yaml's known findings, M0's alike failures as one problem, a game's
# own engine's games checked for repeating before its verdict (a kept verdict would miss all three);
# 7: a known: entry on a band that failed as an error says so (a kept verdict said "did not warn");
# 8: M1's failure and spread warning name the sweep of a number set per count (a kept verdict would not);
# 9: M3's p95 (and Valheim's cycles p95) by nearest rank, no -0.000 (a kept verdict judged an interpolated p95);
# 10: a paired interval with no width (no pair differs) is bounded like 0 of its pairs (M5, the oracle gap);
# 11: M5 pairs the engine's fixtures (Valheim's crafts: edited ones, and its facilities at every verdict; a kept
# verdict had no row for them);
# bump when the core (runner, metrics, verdict) changes what a verdict means or says


@dataclass
class BalanceResult:
    passed: bool
    problems: list = field(default_factory=list)
    table: str = ""
    report: dict = field(default_factory=dict)
    cached: bool = False
    checked: bool = True    # False: no simulator or no balance.yaml, so nothing was judged
    played: bool = False    # games were played to reach it (False: refused before any, e.g. a band with min > max)


# ---- balance.yaml ---------------------------------------------------------------------------------

STAGE_ROUNDS = "rounds per stage"  # what M3's median counts, unless the engine names it (STAGE_ROUNDS)


def stage_rounds_of(engine) -> str:
    """M3's median in the game's words: Valheim's "stage" is a round, counted in cycles; a game whose
    stage is not one says so (``STAGE_ROUNDS``), or its table reads "rounds per stage" of something else."""
    return getattr(engine, "STAGE_ROUNDS", STAGE_ROUNDS)


def seat_word(seats: str, n) -> str:
    """The game's word for its seats (``players``, ``characters``) for ``n`` of them."""
    return seats.removesuffix("s") if n == 1 else seats


class _Judge:
    """Collects table rows and problems; knows where each band is written."""

    def __init__(self, path: Path, lines: dict, command: str, seed=0, seats: str = "players", cards=None,
                 accepted=(), game=None):
        self.path, self.lines, self.command, self.seed = str(path), lines, command, seed
        self.game = game  # its schema checks a value a next step suggests (a sweep's range), as --set would
        self.accepted = list(accepted)  # balance.yaml's known findings (``known``): warnings shown with -v only
        self.seats = seats  # what a player count counts in the game's words (Fatal Fight: characters)
        self.stage_rounds = STAGE_ROUNDS  # M3's median in the game's words (engine's STAGE_ROUNDS)
        self.cards = cards or {}  # record id -> Location: a problem naming a card also says where it is
        self.rows: list[tuple] = []
        self.problems: list[Problem] = []

    @property
    def seat(self) -> str:
        return seat_word(self.seats, 1)

    def count(self, n) -> str:
        """``n`` seats in the game's words: "1 player", "3 characters", "all characters"."""
        return f"{n} {seat_word(self.seats, n)}"

    def loc(self, key: str) -> Location:
        while key and key not in self.lines:
            key = key.rpartition(".")[0]
        return Location(self.path, self.lines.get(key, 0))

    def row(self, metric, players, value, band, status, key=None):
        """A table row; ``key``: the band's key in balance.yaml, so that a warning accepted under
        ``known:`` reads ``known`` in the table as it does in the problems."""
        if status == "warn" and key and known.covering(self.accepted, key, None if players == "all" else players):
            status = known.KNOWN
        self.rows.append((metric, str(players), value, band, status))

    def problem(self, key, metric, message, severity="error", players=None, agent="greedy", games=None,
                seed=None, options="", card=None, at=None):
        """``seed`` and ``options`` (e.g. ``--difficulty easy``) for a sample not played with the
        run's own seed and settings, so that the reproduce command plays the very same games;
        ``card``: the id of the card the problem is about, shown with its file and line; ``at``: a
        Location other than the band's (the simulator's line that raised)."""
        how = ""
        if players is not None:
            how = (f"; reproduce: {self.command} --players {players} --agent {agent} "
                   f"--seed {self.seed if seed is None else seed}" + (f" {options}" if options else "")
                   + (f" --games {games}" if games else ""))
        where = self.cards.get(card)
        message = f"{metric}: {message}{how}"
        if severity == "warning":
            severity, message = known.demote(self.accepted, key, players, message) or (severity, message)
        self.problems.append(Problem(at or self.loc(key), key, message, severity, card=where,
                                     card_field=card if where else ""))

    def band(self, key, metric, players, value, ci, lo, hi, what, *, hard=False, games=None, label=None,
             fmt="{:.3f}", agent="greedy", **run) -> str:
        """Judge ``value`` with its 95% interval ``ci`` (the game as the unit) against the band
        ``[lo, hi]`` (open ends None): a table row, and a problem when the band is missed. The
        decision is ``stats.band_status``: a warning band warns only when the whole interval lies
        outside and shows a straddle as ``pass?``/``warn?`` (no problem); a ``hard`` band (an error)
        fails outside and, at a straddle, when the point estimate is outside. ``label`` names the
        metric in the problem (default: the row's name); ``games`` is the sample size shown and
        replayed; ``run``: see ``problem``. Returns the status."""
        if value is None or (isinstance(value, float) and math.isnan(value)):
            self.row(metric, players, "no data", band_text(lo, hi), "info")
            return "info"
        a, b = ci if ci is not None else (-math.inf, math.inf)
        status = band_status(value, a, b, lo, hi, hard)
        shown = interval_text(value, a, b, games, fmt) if math.isfinite(a) and math.isfinite(b) else \
            number_text(value, fmt) + ("" if games is None else f" ({games})")
        self.row(metric, players, shown, band_text(lo, hi), status, key)
        if status in ("warn", "FAIL"):
            pooled = players == "all"
            # a value without an interval (a percentile, a median) is its point: no interval to speak of
            point = "" if not (math.isfinite(a) and math.isfinite(b)) or interval_decision(a, b, lo, hi) != "unclear" \
                else " (the interval reaches into the band: an error band is decided by its point estimate)"
            self.problem(key, label or metric.strip(), f"{what} with {self.count('all' if pooled else players)} "
                         f"is {shown}, outside {band_text(lo, hi)}{point}", "error" if hard else "warning",
                         players=None if pooled else players, agent=agent, games=games, **run)
        return status


def _fmt(k, n, z=Z95) -> str:
    """``rate [lo, hi] (n)`` of ``k`` in ``n``; an interval of another level than the table's 95 %
    (a sequential look before the last decides at ``z_interim``, 99 %) says its level, or it would
    not match what ``pnp simulate`` shows for the same games."""
    lo, hi = wilson(k, n, z)
    level = round(100 * math.erf(z / math.sqrt(2)))
    return f"{k / n if n else 0:.3f} [{lo:.3f}, {hi:.3f}] ({n}{'' if level == 95 else f', {level}% CI'})"


REQUIRED = ("sampling.looks", "sampling.z_interim", "sampling.z_final", "integrity.random_games", "win_rate.min",
            "win_rate.max", "skill.random_max", "skill.gap_min", "length.stage_rounds.min", "length.stage_rounds.max",
            "length.p95_rounds_max", "length.timeouts_max", "dead_cards.max_use_rate", "dead_cards.min_exposures",
            "card_impact.swing", "card_impact.min_games", "heroes.spread_max", "softlocks.stalls_max",
            "decisions.density_min")


def _lookup(config, dotted):
    node = config
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _missing_bands(config, missing, path, lines) -> list[Problem]:
    """A problem per required band ``missing``, at the line of the mapping it belongs in; a key written
    there that is a misspelling of the one missing (``dead_card:``) is named at its own line, once."""
    import difflib  # only for a balance.yaml that lacks a band

    problems, told = [], set()
    for key in missing:
        parts = key.split(".")
        depth = next(i for i in range(len(parts)) if _lookup(config, ".".join(parts[:i + 1])) is None)
        parent, name = ".".join(parts[:depth]), parts[depth]
        node = _lookup(config, parent) if parent else config
        needed = {k.split(".")[depth] for k in REQUIRED if k.startswith(f"{parent}.") or not parent}
        written = [k for k in node if isinstance(k, str) and k not in needed] if isinstance(node, dict) else []
        typo = difflib.get_close_matches(name, written, n=1, cutoff=0.75)
        if not typo:
            problems.append(Problem(Location(str(path), lines.get(parent, 0)), key,
                                    "missing: the balance verdict needs this band"))
        elif (parent, name) not in told:
            told.add((parent, name))
            dotted, meant = (f"{parent}.{typo[0]}", f"{parent}.{name}") if parent else (typo[0], name)
            needs = ", ".join(k for k in missing if k == meant or k.startswith(f"{meant}."))
            problems.append(Problem(Location(str(path), lines.get(dotted, 0)), dotted,
                                    f"unknown key (did you mean '{name}'?): the balance verdict needs {needs}"))
    return problems


def _record_locations(game) -> dict:
    """``{record id: Location}`` of the game's records (the first of an id), for problems naming a card."""
    where = getattr(game, "where", None) or (lambda record: None)
    found = {}
    for record in id_records(getattr(game, "tables", None) or {}):
        if record["id"] not in found and (location := where(record)):
            found[record["id"]] = location
    return found


def inverted_bands(config, path, lines) -> list[Problem]:
    """A problem at the ``min`` of every band of ``config`` whose ``min`` is above its ``max``
    (balance.yaml at ``path``, ``lines`` its ``{dotted key: line}``)."""
    return [Problem(Location(str(path), lines.get(f"{key}.min", 0)), f"{key}.min", f"min {lo} is above max {hi}: "
                    "no value can pass this band") for key, lo, hi in _inverted_bands(config)]


def _inverted_bands(config, prefix="") -> list[tuple[str, float, float]]:
    """``(dotted key, min, max)`` of every band of ``config`` whose ``min`` is above its ``max``."""
    found = []
    if isinstance(config, dict):
        lo, hi = config.get("min"), config.get("max")
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi)) and lo > hi:
            found.append((prefix.rstrip("."), lo, hi))
        for key, value in config.items():
            found += _inverted_bands(value, f"{prefix}{key}.")
    return found


# ---- running ---------------------------------------------------------------------------------------

@contextmanager
def _progress_bar(progress, total: int):
    """Adapt a CLI progress factory ``progress(iterable, label, length)`` (a context manager
    whose bar may have ``update(n)`` and ``length``) to a ``_Progress``; None means no bar."""
    if progress is None:
        yield _Progress(None, total)
        return
    with progress(range(total), "simulating", total) as bar:
        yield _Progress(bar, total)


class _Progress:
    """Games played and started, for a bar whose ``total`` is first an estimate: the later looks
    a band needs and the paired card checks are known only as they start, and a bar that sat at
    99 % through them (a third of a Fatal Fight run) would say the work was done."""

    def __init__(self, bar, total: int):
        self.bar, self.total = bar, total
        self.done = self.started = 0

    def start(self, games: int) -> None:
        self.started += games
        if self.started > self.total and hasattr(self.bar, "length"):
            self.total = self.bar.length = self.started

    def advance(self, done: int) -> None:
        if hasattr(self.bar, "update") and done > self.done:
            self.bar.update(done - self.done)
            self.done = done


class _Runs:
    """Plays what the verdict asks for on one pool and counts it for the progress bar.

    The verdict's sample streams (reference and random agents at each player count, controls)
    are generators that ask for batches of games and get their records back (see
    ``sequential_stream``); ``drive`` keeps every stream's next batch on the pool at once, so the
    workers are not left idle at the end of each batch. Each stream still gets exactly the games
    it would get alone, so the verdict does not depend on how streams interleave.
    """

    def __init__(self, engine, tables, seed, workers, executor, progress: _Progress):
        self.engine, self.tables, self.seed = engine, tables, seed
        self.workers, self.executor, self.progress = workers, executor, progress
        self.done = 0

    def start(self, request, tables=None):
        """Start the batch ``(players, agent, games, start, checked)`` (of other ``tables`` if given)."""
        players, agent, games, start, checked = request
        self.progress.start(games)
        return start_games(self.engine, tables or self.tables, players=players, games=games, seed=self.seed,
                           agent=agent, start=start, workers=self.workers, executor=self.executor,
                           checked=checked)

    def collect(self, batch):
        """The records of a started batch, counted for the progress bar."""
        base = self.done
        records = batch.records(lambda d, t: self.progress.advance(base + d))
        self.done = base + batch.games
        return records

    def drive(self, streams: dict) -> dict:
        """Run generator ``streams`` (``{key: stream}``) to the end, their batches side by side;
        ``{key: what the stream returned}``."""
        results, running = {}, {}

        def advance(key, records):
            try:
                request = streams[key].send(records)
            except StopIteration as end:
                results[key] = end.value
                return
            running[key] = self.start(request)

        for key in streams:
            advance(key, None)
        while running:
            key = next(iter(running))  # oldest first: the pool runs batches in the order given
            advance(key, self.collect(running.pop(key)))
        return {key: results[key] for key in streams}

    @staticmethod
    def sequential_stream(players, agent, looks, lo, hi, z_interim, z_final, first_checked, at_least=0):
        """Play up to each look until the win rate's interval is clearly inside or outside.

        Random-agent games are all checked at every step (M0); of the reference agent's games the
        first ``CHECKED_GAMES`` are (M0 and the decision density M9), the rest run unchecked.
        A stream: yields ``(players, agent, games, start, checked)``, is sent the records. When
        every one of the first checked games failed (a crash, a game that never ends), the stream stops
        there: M0 fails the verdict whatever follows, and games that run to the decision cap are slow."""
        records: list = []
        decision, z = "unclear", z_final
        if first_checked or agent == "random":
            records += yield players, agent, min(CHECKED_GAMES, looks[0]), 0, True
            if all(r["outcome"] in ("error", "timeout") for r in records):
                return records, band_decision(0, len(records), lo, hi, z_interim), z_interim
        for i, target in enumerate(looks):
            target = max(target, at_least) if i == 0 else target
            if target > len(records):  # (the checked games may have played a first look already: decided here)
                records += yield players, agent, target - len(records), len(records), agent == "random"
            z = z_final if i == len(looks) - 1 else z_interim
            wins = sum(r["outcome"] == "win" for r in records)
            decision = band_decision(wins, len(records), lo, hi, z)
            if decision != "unclear":
                break
        return records, decision, z

    @staticmethod
    def once_stream(players, agent, games):
        """A stream of one batch of unchecked games."""
        return (yield players, agent, games, 0, False)


# ---- the verdict ----------------------------------------------------------------------------------

def _command(game) -> str:
    """The ``pnp simulate`` command that replays the game: by its directory, which names the game
    even when its ``engine:`` is another's (a copy of a shipped game) or a file (``sim.py``)."""
    root = Path(game.root)
    shown = root.name if root.resolve().parent == (Path.cwd() / "content").resolve() else str(root)
    return f"pnp simulate {shown}"


def _cleared(stage_rounds: str) -> str:
    """The M3 median in a sentence: the default's "rounds per cleared stage", a game's own words as they are."""
    return "rounds per cleared stage" if stage_rounds == STAGE_ROUNDS else stage_rounds


def how_judged(result: BalanceResult) -> str:
    """Whether the verdict was kept or played, for the line that gives it: a designer who edited a
    card's name or text wants to know whether that cost a minute of games."""
    if result.cached:
        return "kept verdict, nothing played changed since it was judged"
    games, seconds = result.report.get("games_played"), result.report.get("seconds")
    return f"{games} games played in {seconds:.0f} s" if games and seconds is not None else ""


def said_of(result: BalanceResult) -> str:
    """The verdict in a summary line, as ``pnp build`` and ``pnp validate`` both end with it."""
    if not result.checked:
        return "balance not checked"
    if not result.passed:  # the refusal before it says how it was judged
        return "balance FAILED"
    judged = how_judged(result)
    return f"balance passed{f': {judged}' if judged else ''}"


def refusal(game, result: BalanceResult, report_dir: Path, outcome: str = "so nothing was printed") -> str:
    """What ``pnp build`` (and ``pnp validate``, with its own ``outcome``) says when the verdict keeps a
    game from print: how it was judged, where the whole story is and what a designer does next (the
    problems above say what failed)."""
    judged = how_judged(result)
    simulate = _command(game)
    # this game's build: a bare `pnp build` builds every game under ./content, not the one refused
    build = simulate.replace("simulate", "build", 1) + " --no-balance"
    if not result.played:  # refused before any game: the problems above are all there is
        return f"the balance verdict failed before any game was played, {outcome}; `{build}` prints anyway"
    report = Path(report_dir) / "balance.pdf"
    raised = any(p.field == "integrity" and ": error: " in p.message for p in result.problems)
    return "\n".join([
        f"the balance verdict failed{f' ({judged})' if judged else ''}, {outcome}; next:",
        *(["  first the error the simulator raised (M0 integrity above; its `replay:` command plays up to it): "
           "the other bands are judged on the games it ended"] if raised else []),
        f"  every metric at every count: {report}" if report.is_file() else
        f"  every metric at every count: {simulate.replace('simulate', 'validate', 1)}",
        "  the games behind a problem: its `reproduce:` command; add --game I --trace to follow one of them",
        f"  a number tried at several values on the same deals: {simulate} --players N --sweep PATH=A..B",
        f"  to print anyway: {build}"])


def no_simulator(game, path: Path, lines: dict, name: str) -> BalanceResult:
    """No engine for the game. With a balance.yaml the designer expects a verdict: a warning says there is
    none. Without one (a game that is only printed, as ``pnp new`` writes it) there is nothing to warn
    about at every build: ``pnp validate``'s summary says "balance not checked"."""
    if not path.is_file():
        return BalanceResult(passed=True, problems=[], table="", checked=False)
    problem = Problem(Location(str(path), lines.get("engine", 0)), "",
                      f"no simulator for this game yet ({name}); balance not checked", "warning")
    return BalanceResult(passed=True, problems=[problem], table="", checked=False)  # the warning says it all


def unloadable(exc: ProblemsError) -> BalanceResult:
    """The game's own simulator (``engine: sim.py``) cannot be used: its problems, no verdict."""
    return BalanceResult(passed=False, problems=list(exc.problems), table="balance: the simulator cannot be loaded")


def _simulator_of(game):
    """``(config, balance.yaml's path, its lines, engine name, engine)`` of a game that has a simulator,
    else the BalanceResult that says why it has none (its own cannot be loaded, or there is none yet)."""
    config, path, lines = balance_of(game)
    try:
        name, engine = engine_of(game, config, lines)
    except ProblemsError as exc:
        return unloadable(exc)
    if engine is None:
        return no_simulator(game, path, lines, name)
    return config, path, lines, name, engine


def check_balance(game, *, workers: int | None = None, progress=None, executor=None, output_dir=None,
                  write_report: bool = True, changed_cards=(), simulator=None) -> BalanceResult:
    """Simulate ``game`` and judge every band of its balance.yaml (metrics M0-M5, M7-M9).
    ``changed_cards``: ids of cards edited since the last verdict that passed; M5 checks them paired too.
    ``simulator``: ``_simulator_of(game)`` when the caller has it (a game's own engine is loaded once)."""
    loaded = simulator or _simulator_of(game)
    if isinstance(loaded, BalanceResult):
        return loaded
    config, path, lines, name, engine = loaded
    if config is None:
        problem = Problem(Location(str(Path(game.root) / "game.yaml"), 0), "", "no balance.yaml: balance not checked",
                          "warning")
        return BalanceResult(passed=True, problems=[problem], table="balance: no balance.yaml", checked=False)
    # balance.yaml is not always schema-checked (a game may not list it in game.yaml)
    untyped = untyped_bands(config, REQUIRED, path, lines)
    missing = [key for key in REQUIRED if _lookup(config, key) is None
               and not any(key.startswith(f"{p.field}.") for p in untyped)]  # in a section said to be no mapping
    if untyped or missing:
        problems = untyped + (_missing_bands(config, missing, path, lines) if missing else [])
        return BalanceResult(passed=False, problems=problems,
                             table=f"balance: {'incomplete' if missing else 'mistyped'} balance.yaml")
    inverted = inverted_bands(config, path, lines)
    if inverted:  # found before a minute of games that every count would then fail
        return BalanceResult(passed=False, problems=inverted, table="balance: a band with min above max")
    accepted, wrong = known.read(config, lines, path)
    if wrong:
        return BalanceResult(passed=False, problems=wrong, table="balance: a known finding names no band")
    tables = played_tables(game)
    try:
        setup = engine.compile_setup(tables, where_of(game))
    except ProblemsError as exc:
        return BalanceResult(passed=False, problems=list(exc.problems), table="balance: content cannot be simulated")
    unplayable = [p for p in located_checks(engine, setup) if p.severity == "error"]
    if unplayable:  # e.g. a room no one can reach: said at once, not after a minute of games that fail anyway
        return BalanceResult(passed=False, problems=unplayable, table="balance: the content cannot be played as written")
    refused = _refused_settings(engine, setup, config, path, lines)
    if refused:  # said once, not as thousands of games that all fail to be dealt
        return BalanceResult(passed=False, problems=refused, table="balance: players or agents the engine has not")
    first_games = _first_games_problems(engine, setup, config, path, lines, _command(game))
    if first_games:  # its verdict could not be replayed (nor its workers agree), or would take hours to fail
        return BalanceResult(passed=False, problems=first_games, table="balance: games that do not repeat or do not end")
    judge = _Judge(path, lines, _command(game), config.get("seed", 0), getattr(engine, "SEATS", "players"),
                   _record_locations(game), accepted, game)
    judge.stage_rounds = stage_rounds_of(engine)
    judge.problems += getattr(engine, "__pnp_warnings__", [])  # a game's own engine's parts it does not use
    started = time.perf_counter()
    own_pool = executor is None and (workers or os.cpu_count() or 1) > 1
    pool = ProcessPoolExecutor(max_workers=workers or os.cpu_count()) if own_pool else executor
    try:
        data = _simulate(engine, setup, tables, config, judge, workers, pool, progress, changed_cards)
    finally:
        if own_pool:
            pool.shutdown(cancel_futures=True)  # after ^C: batches not yet started are not played
    data["seconds"] = round(time.perf_counter() - started, 2)
    data["game"], data["engine"], data["engine_version"] = game.id, name, engine.VERSION
    data["seats"] = judge.seats  # what a player count counts (the report's axis: players, characters)
    judge.problems.extend(known.unseen(accepted, judge.problems, judge.command))
    table = _table(judge.rows)
    passed = not any(p.severity == "error" for p in judge.problems)
    data["passed"] = passed
    data["problems"] = [p.display() for p in judge.problems]
    result = BalanceResult(passed=passed, problems=judge.problems, table=table, report=data, played=True)
    if write_report:
        from .report import write_reports
        write_reports(result, output_dir_of(game, output_dir))
    return result


def _counts(config) -> list:
    """The player counts to judge: balance.yaml's ``players:``, or the default when it says none (left
    out, or left empty: None in a file no schema checks)."""
    return list(config.get("players") or DEFAULT_COUNTS)


def reference_agent(config) -> str:
    """The player whose games the bands judge: balance.yaml's ``reference_agent``, else ``greedy``."""
    return config.get("reference_agent", "greedy")


def _refused_settings(engine, setup, config, path, lines) -> list[Problem]:
    """balance.yaml's player counts the engine's ``new_game`` refuses and agents (the reference agent,
    the controls) that are not in its AGENTS, each at its line."""
    def at(key, message):
        return Problem(Location(str(path), lines.get(key, 0)), key, message)

    names = agent_names(engine)
    agents = [("reference_agent", reference_agent(config)),
              *((f"controls.{name}", name) for name in config.get("controls") or {})]
    return ([at("players", f"{n}: {why}") for n in _counts(config)
             if (why := refused_count(engine, setup, n))]
            + [at(key, f"{name!r} is not one of the engine's agents ({', '.join(names)})")
               for key, name in agents if name not in names])


def _first_games_problems(engine, setup, config, path, lines, command: str) -> list[Problem]:
    """The first games of the first count, each played twice from its seed: one that goes differently
    draws chance elsewhere than from the rng it is given (docs/simulator.md, "Determinism"). The shipped
    engines are held to it by their tests. Half of them or more hitting the decision cap is said here
    too: such an engine plays about a game a second, so the verdict's thousands of games would take hours
    before the timeouts band failed."""
    if not getattr(engine, "__pnp_key__", "").startswith(KEY_PREFIX):
        return []
    players, agent, seed = _counts(config)[0], reference_agent(config), config.get("seed", 0)
    engine_line = Location(str(path), lines.get("engine", 0))
    endless = []
    for index in range(REPEATED_GAMES):
        first = play_game(engine, setup, players=players, agent=agent, seed=seed, index=index)[0]
        if first["outcome"] == "timeout":  # not played again: it is slow, and its end is the problem
            endless.append(index)
            continue
        again = play_game(engine, setup, players=players, agent=agent, seed=seed, index=index)[0]
        if first != again and "error" not in (first["outcome"], again["outcome"]):  # M0 reports errors
            return [Problem(engine_line, "engine",
                            f"game {index} ({players} players, seed {seed}) played twice went differently: chance "
                            "must come from the rng new_game and choose are given, never the module random, the "
                            "time or the order of a set (docs/simulator.md, Determinism)")]
    if 2 * len(endless) >= REPEATED_GAMES:
        return [Problem(engine_line, "engine",
                        f"{len(endless)} of the first {REPEATED_GAMES} {agent} games ({players} players, seed {seed}) "
                        f"reached the cap of {DEFAULT_MAX_DECISIONS} decisions without an end, so no game was "
                        "judged: does every way through the rules set the state's outcome (docs/simulator.md, "
                        f"The contract)?; follow one: {command} --players {players} --agent {agent} "
                        f"--seed {seed} --game {endless[0]} --trace")]
    return []


def _simulate(engine, setup, tables, config, judge, workers, pool, progress, changed_cards=()) -> dict:
    seed = config.get("seed", 0)
    counts = _counts(config)
    agent = reference_agent(config)
    sampling = config["sampling"]
    looks = sorted(sampling["looks"])
    z_i, z_f = sampling["z_interim"], sampling["z_final"]
    wr, skill = config["win_rate"], config["skill"]
    random_each = math.ceil(config["integrity"]["random_games"] / len(counts))
    controls = config.get("controls") or {}
    total = len(counts) * (looks[0] * 2 + random_each + sum(controls.values()))
    data = {"seed": seed, "players": counts, "agent": agent, "looks": looks, "per_players": {}, "settings": config,
            "tracked": engine.cards(setup), "fixtures": dict(getattr(engine, "fixtures", _none)(setup))}
    with _progress_bar(progress, total) as bar:
        runs = _Runs(engine, tables, seed, workers, pool, bar)
        streams = {}
        for n in counts:
            streams[n, "reference"] = runs.sequential_stream(n, agent, looks, wr["min"], wr["max"], z_i, z_f,
                                                             first_checked=True)
            streams[n, "random"] = runs.sequential_stream(n, "random", looks, None, skill["random_max"], z_i, z_f,
                                                          True, at_least=random_each)
            for name, games in controls.items():
                streams[n, name] = runs.once_stream(n, name, games)
        played = runs.drive(streams)
        if wr.get("count_spread_max") is not None and len(counts) > 1:
            _settle_spread(runs, played, counts, agent, looks[-1], wr, z_f)
        all_ref, all_random, runs_by_count = [], [], {}
        for n in counts:
            ref, dec, z = played[n, "reference"]
            rnd, rdec, rz = played[n, "random"]
            extra = {name: played[n, name] for name in controls}
            all_ref += ref
            all_random += rnd
            runs_by_count[n] = {"reference": ref, "random": rnd, **extra}
            data["per_players"][n] = {"reference": metrics.run_summary(ref), "random": metrics.run_summary(rnd),
                                      **{name: metrics.run_summary(r) for name, r in extra.items()},
                                      "decision": dec, "z": z}
            _judge_count(judge, config, n, agent, ref, rnd, dec, z, rdec, rz, extra, counts)
            for message in engine.static_checks(setup, n):
                judge.problem("softlocks", "M8 unwinnable setup", f"{message} ({judge.count(n)})")
        _judge_pooled(judge, config, data, agent, all_ref, all_random, counts, runs_by_count)
        _judge_card_impact(judge, config, data, engine, tables, runs, runs_by_count, agent, counts, changed_cards)
        hook = getattr(engine, "judge_extra", None)  # optional: a game's own bands (rows, problems, more runs)
        if hook is not None:
            data.update(hook(judge, config, setup, tables, runs_by_count, runs) or {})
    data["games_played"] = runs.done
    return data


def _spread(samples: dict, z=Z95):
    """``(best, worst, spread, lo, hi)``: of ``{player count: reference records}``, the counts with
    the highest and lowest win rate, their difference and its interval (independent samples)."""
    tally = {n: (sum(r["outcome"] == "win" for r in recs), len(recs)) for n, recs in samples.items()}
    rates = {n: k / m if m else 0.0 for n, (k, m) in tally.items()}
    best, worst = max(rates, key=rates.get), min(rates, key=rates.get)
    lo, hi = diff_interval(*tally[best], *tally[worst], z)
    return best, worst, rates[best] - rates[worst], lo, hi


def _settle_spread(runs, played, counts, agent, last, wr, z_final):
    """The M1 spread is judged by the interval of best - worst, like every proportion. The
    sequential looks stop a count as soon as its own win rate is clearly inside the band, often at
    the first look, which leaves the spread too wide to judge; when the interval straddles the
    maximum, the best and the worst counts are played on to the last look (the same games the
    sequential stream would have played) and their M1 decision is taken again on all their games."""
    for _ in counts:
        best, worst, _, lo, hi = _spread({n: played[n, "reference"][0] for n in counts})
        if interval_decision(lo, hi, None, wr["count_spread_max"]) != "unclear":
            return
        short = [n for n in dict.fromkeys((best, worst)) if len(played[n, "reference"][0]) < last]
        if not short:
            return
        batches = {}
        for n in short:
            have = len(played[n, "reference"][0])
            batches[n] = runs.start((n, agent, last - have, have, False))
        for n in short:
            records = played[n, "reference"][0] + runs.collect(batches[n])
            wins = sum(r["outcome"] == "win" for r in records)
            played[n, "reference"] = (records, band_decision(wins, len(records), wr["min"], wr["max"], z_final),
                                      z_final)


def _judge_count(judge, config, n, agent, ref, rnd, dec, z, rdec, rz, extra, counts=()):
    wr, skill, length = config["win_rate"], config["skill"], config["length"]
    k, m = sum(r["outcome"] == "win" for r in ref), len(ref)
    status = {"inside": "pass", "outside": "FAIL"}.get(dec) or ("pass?" if wr["min"] <= k / m <= wr["max"] else "FAIL")
    judge.row(f"M1 win rate ({agent})", n, _fmt(k, m, z), band_text(wr["min"], wr["max"]), status)
    if status == "FAIL":
        judge.problem("win_rate", "M1 win rate", f"{agent} team win rate with {judge.count(n)} is {_fmt(k, m, z)}, "
                      f"outside the band {band_text(wr['min'], wr['max'])}" + count_lever(judge, n, counts or [n]),
                      players=n, agent=agent, games=m)
    elif status == "pass?":
        judge.problem("win_rate", "M1 win rate", f"{agent} with {judge.count(n)}: {_fmt(k, m, z)} is inside "
                      f"{band_text(wr['min'], wr['max'])} only as a point estimate", "warning", players=n, agent=agent, games=m)
    rk, rm = sum(r["outcome"] == "win" for r in rnd), len(rnd)
    rstatus = {"inside": "pass", "outside": "FAIL"}.get(rdec) or ("pass?" if rk / rm <= skill["random_max"] else "FAIL")
    judge.row("M2 random win rate", n, _fmt(rk, rm, rz), band_text(None, skill["random_max"]), rstatus)
    if rstatus == "FAIL":
        judge.problem("skill.random_max", "M2 random win rate", f"random play wins {_fmt(rk, rm, rz)} with "
                      f"{judge.count(n)} (max {skill['random_max']}): the game plays itself", players=n, agent="random",
                      games=rm)
    lo, hi = diff_interval(k, m, rk, rm)
    gap = k / m - rk / rm
    gdec = interval_decision(lo, hi, skill["gap_min"], None)
    gstatus = "pass" if gdec == "inside" or (gdec == "unclear" and gap >= skill["gap_min"]) else "FAIL"
    judge.row(f"M2 skill gap ({agent}-random)", n, interval_text(gap, lo, hi), band_text(skill["gap_min"], None),
              gstatus)
    if gstatus == "FAIL":
        judge.problem("skill.gap_min", "M2 skill gap", f"{agent} beats random by {interval_text(gap, lo, hi)} with "
                      f"{judge.count(n)} (min {skill['gap_min']})", players=n, agent=agent, games=m)
    for name, recs in extra.items():
        ek = sum(r["outcome"] == "win" for r in recs)
        judge.row(f"   control: {name}", n, _fmt(ek, len(recs)), "report", "info")
    s = metrics.run_summary(ref)
    band = length["stage_rounds"]
    ok = band["min"] <= s["stage_rounds_median"] <= band["max"]
    cleared = s["stage_rounds_median"] > 0  # a cleared stage lasts a round at least; 0 = none was cleared
    shown = f"{s['stage_rounds_median']:.1f}" if cleared else "none cleared"
    judge.row(f"M3 {judge.stage_rounds} (median)", n, shown, band_text(band["min"], band["max"]),
              "pass" if ok else "FAIL")
    if not ok:
        judge.problem("length.stage_rounds", "M3 length",
                      (f"median {_cleared(judge.stage_rounds)} with {judge.count(n)} is {shown}, outside "
                       f"{band_text(band['min'], band['max'])}" if cleared else
                       f"no stage was cleared in {m} games with {judge.count(n)}"), players=n, agent=agent, games=m)
    p95_ok = s["rounds"]["p95"] <= length["p95_rounds_max"]
    judge.row("M3 rounds per game (median/p95)", n, f"{s['rounds']['median']:.0f} / {s['rounds']['p95']:.0f}",
              f"p95 <= {length['p95_rounds_max']}", "pass" if p95_ok else "FAIL")
    if not p95_ok:
        judge.problem("length.p95_rounds_max", "M3 length", f"95th percentile of rounds with {judge.count(n)} is "
                      f"{s['rounds']['p95']:.0f} (max {length['p95_rounds_max']})", players=n, agent=agent, games=m)
    everything = ref + rnd + [r for recs in extra.values() for r in recs]
    t_rate = sum(r["outcome"] == "timeout" for r in everything) / len(everything)
    judge.row("M3 timeouts", n, f"{t_rate:.4f}", f"<= {length['timeouts_max']}",
              "pass" if t_rate <= length["timeouts_max"] else "FAIL")
    if t_rate > length["timeouts_max"]:
        judge.problem("length.timeouts_max", "M3 timeouts", f"{t_rate:.4f} of games with {judge.count(n)} hit the "
                      f"decision cap", players=n, agent=agent, games=m)
    stalls = s["stalls"]
    smax = config["softlocks"]["stalls_max"]
    slo, shi = wilson(stalls, m)
    sdec = interval_decision(slo, shi, None, smax)
    sstat = "pass" if sdec == "inside" or (sdec == "unclear" and stalls / m <= smax) else "FAIL"
    judge.row("M8 stalls (stage round cap)", n, _fmt(stalls, m), band_text(None, smax), sstat)
    if sstat == "FAIL":
        judge.problem("softlocks.stalls_max", "M8 stalls", f"{_fmt(stalls, m)} of {agent} games with "
                      f"{judge.count(n)} stall (a stage outlasts the round cap)", players=n, agent=agent, games=m)
    for r, alike in _failure_groups(metrics.failures(everything))[:5]:
        more = f" (and {alike} more {r['agent']} games the same)" if alike else ""
        why = metrics.failure_line(r)
        at, why = crash_site(getattr(judge.game, "root", None), why) or (None, why)
        judge.problem("integrity", "M0 integrity", f"{r['agent']} game {r['index']} ({judge.count(n)}, seed "
                      f"{r['seed']}): {r['outcome']}: {why}{more}"
                      f"; replay: {judge.command} --players {n} --agent {r['agent']} --seed {r['seed']} "
                      f"--game {r['index']} --trace", at=at)
    fails = len(metrics.failures(everything))
    judge.row("M0 integrity (errors+timeouts)", n, f"{fails} in {len(everything)} games", "0",
              "pass" if not fails else "FAIL")
    density = s["decision_density"]
    if density is not None:
        judge.band("decisions.density_min", "M9 decision density", n, density, s["decision_density_ci"],
                   config["decisions"]["density_min"], None, "the share of decisions offering 2+ options",
                   games=s["checked_games"], agent=agent)
    for key, band in (config.get("pressure") or {}).items():
        if key in s:
            judge.band(f"pressure.{key}", f"   {key.replace('_', ' ')}", n, s[key],
                       (s.get("pressure_ci") or {}).get(key), band["min"], band["max"], key, games=s["games"],
                       label="spec §6 band", agent=agent)


def _failure_groups(failed: list[dict]) -> list[tuple[dict, int]]:
    """``(first game, how many more)`` for each way games failed (the agent, the outcome and the line
    said): a bug that fails a game in ten is one problem, not five that say the same."""
    groups: dict = {}
    for r in failed:
        groups.setdefault((r["agent"], r["outcome"], metrics.failure_line(r)), []).append(r)
    return [(same[0], len(same) - 1) for same in groups.values()]


def count_keyed(rules, counts, prefix="rules") -> dict[str, dict]:
    """``{path: {count: value}}``: the numbers of ``rules`` set per player count (a mapping whose keys
    include every judged count, each a number: Valheim's ``hunt.strength_by_players``), where a spread
    between the counts is tuned."""
    found = {}
    if isinstance(rules, dict):
        if set(counts) <= set(rules) and all(isinstance(rules[n], (int, float)) and not isinstance(rules[n], bool)
                                             for n in counts):
            found[prefix] = rules
        for key, value in rules.items():
            if isinstance(key, str):
                found.update(count_keyed(value, counts, f"{prefix}.{key}"))
    return found


def _spread_lever(judge, rates, best, worst) -> str:
    """The M1 spread warning's next step: the sweep of a number set per count, at the count furthest
    from the others (the warning said only by how much two counts differ)."""
    middle = statistics.median(rates.values())
    far = max((best, worst), key=lambda n: abs(rates[n] - middle))
    return count_lever(judge, far, list(rates), ", the furthest from the others") or \
        f"; tune a number at {judge.count(far)}, the furthest from the others: {judge.command} --players {far} --sweep PATH=A..B"


def count_lever(judge, n, counts, why="") -> str:
    """``; numbers set per player count: ...; try one at n players: pnp simulate ... --sweep PATH.n=A..B``:
    the numbers of rules.yaml set per count (``count_keyed``) and a sweep of the first at ``n``, in its
    schema's bounds; "" when the rules set none (or the judge has no game to read them from)."""
    tables = played_tables(judge.game) if judge.game is not None else {}
    keyed = count_keyed(tables.get("rules"), counts)
    if not keyed:
        return ""
    # one sweep per number: rules.yaml's order says nothing of which number the designer tunes
    # (Metroidvania sets turns_per_round before boss_life_bonus, its README's lever)
    first, *others = [f"--sweep {path}.{n}={_near(judge, tables, f'{path}.{n}', values[n])}"
                      for path, values in keyed.items()]
    return (f"; numbers set per {judge.seat} count: {', '.join(keyed)}; try one at {judge.count(n)}{why}: "
            f"{judge.command} --players {n} {first}" + "".join(f" (or {sweep})" for sweep in others))


def _near(judge, tables, path: str, value) -> str:
    """A sweep's values around ``value``, within the schema's bounds: ``A..B`` for a whole number."""
    near = [value + step for step in (-2, -1, 0, 1, 2)] if isinstance(value, int) else \
        [round(value * share, 6) for share in (0.8, 0.9, 1, 1.1, 1.2)]
    tried = [v for v in near if v == value or _settable(judge, tables, f"{path}={v}")]
    return f"{tried[0]}..{tried[-1]}" if isinstance(value, int) else ",".join(f"{v:g}" for v in tried)


def _settable(judge, tables, text: str) -> bool:
    from .overrides import OverrideError, apply_sets

    schema = judge.game if hasattr(judge.game, "components") else None  # a game without components: the kind only
    try:
        apply_sets(tables, [text], schema)
    except OverrideError:
        return False
    return True


def _judge_pooled(judge, config, data, agent, all_ref, all_random, counts, runs_by_count):
    rates = {n: data["per_players"][n]["reference"]["win_rate"] for n in counts}
    smax = config["win_rate"].get("count_spread_max")
    if smax is not None and len(counts) == 1:  # a duel: one count compared with itself would read "2 vs 2"
        judge.row("M1 spread between counts", "all", f"one {judge.seat} count, nothing to compare", f"<= {smax}",
                  "info", "win_rate.count_spread_max")
    elif smax is not None:
        # judged by the interval of best - worst (see _settle_spread): clearly above the maximum
        # warns; a straddling interval (both counts already at the last look) is decided by the point
        best, worst, spread, lo, hi = _spread({n: runs_by_count[n]["reference"] for n in counts})
        decision = interval_decision(lo, hi, None, smax)
        warn = decision == "outside" or (decision == "unclear" and spread > smax)
        judge.row("M1 spread between counts", "all", f"{interval_text(spread, lo, hi)} ({best} vs {worst})",
                  f"<= {smax}", ("warn" if decision == "outside" else "warn?") if warn else
                  ("pass" if decision == "inside" else "pass?"), "win_rate.count_spread_max")
        if warn:
            judge.problem("win_rate.count_spread_max", "M1 spread", f"win rates by {judge.seat} count "
                          f"{', '.join(f'{n}: {r:.3f}' for n, r in rates.items())}: {best} and {worst} differ by "
                          f"{interval_text(spread, lo, hi)} (max {smax})"
                          + ("" if decision == "outside" else ", above the maximum only as a point estimate")
                          + _spread_lever(judge, rates, best, worst), "warning")
    dc = config["dead_cards"]
    usage = metrics.card_usage(all_ref)
    dead = metrics.dead_cards(usage, dc["max_use_rate"], dc["min_exposures"])
    judge.row("M4 dead cards", "all", str(len(dead)), "0", "pass" if not dead else "FAIL")
    for card, seen, used, hi in dead:
        # pooled over every count, so no one count's games reproduce it: the command shows the card's use
        judge.problem("dead_cards", "M4 dead card", f"{card} was used {used} times in {seen} exposures "
                      f"(upper bound {hi:.3f} < {dc['max_use_rate']}) by {agent}; each card's use with "
                      f"{judge.count(counts[0])}: {judge.command} --players {counts[0]} --agent {agent} --cards",
                      card=card)
    tracked = data.get("tracked") or []
    never = sorted(set(tracked) - set(usage))
    if never:
        judge.problem("dead_cards", "M4 unseen cards", f"{len(never)} card(s) never drawn or offered in "
                      f"{len(all_ref)} {agent} games: {', '.join(never[:12])}", "warning")
    impact = metrics.card_impact(all_ref, config["card_impact"]["min_games"])
    swing = config["card_impact"]["swing"]
    flagged = sorted(((abs(d), c, d) for c, (d, _, _) in impact.items() if abs(d) >= swing), reverse=True)
    named = _first_and_more([f"{c} {number_text(d, '{:+.3f}')}" for _, c, d in flagged], SCREENING_NAMED)
    screened = (f"{len(flagged)} of {len(impact)}" + (f": {named}" if named else "")) if impact else \
        f"no card used in {config['card_impact']['min_games']}+ games and unused in as many"  # what screening needs
    judge.row("M5 swingy cards (screening)", "all", screened, f"|delta| < {swing}", "info")
    data["card_usage"] = {c: {"exposures": s, "uses": u, "impact": impact.get(c, (None,))[0]} for c, (s, u) in
                          sorted(usage.items())}
    data["dead_cards"] = [c for c, *_ in dead]
    data["swingy_cards"] = [(c, round(d, 3)) for _, c, d in flagged]
    heroes = metrics.hero_rates(all_ref)
    data["heroes"] = {c: {"wins": w, "games": g} for c, (w, g) in heroes.items()}
    spread_of = metrics.hero_spread(all_ref)
    if spread_of:
        # the best and the worst character by their point estimates; their difference is judged on its
        # interval with the game as the unit (a game with both in the party is in both arms). Clearly
        # above the maximum fails (as a clearly wider spread always did); a straddle is pass?/warn?
        best, worst, spread, lo, hi = spread_of
        data["heroes_commands"] = _heroes_commands(judge, agent, counts, runs_by_count)
        how = ("; reproduce: " if len(counts) == 1 else "; reproduce (M7 pools one run per count): ") + \
            "; ".join(data["heroes_commands"])
        points = {c: w / g for c, (w, g) in heroes.items() if g}
        hmax = config["heroes"]["spread_max"]
        status = band_status(spread, lo, hi, None, hmax)
        status = "FAIL" if status == "warn" else status   # clearly above: the error band fails
        games = sum(1 for r in all_ref if r["outcome"] != "error")
        judge.row("M7 hero spread (max-min)", "all", f"{interval_text(spread, lo, hi, games)} ({best} "
                  f"{points[best]:.3f} / {worst} {points[worst]:.3f})", f"<= {hmax}", status)
        if status == "FAIL":
            judge.problem("heroes.spread_max", "M7 hero balance", f"win rate with {best} {_fmt(*heroes[best])} vs "
                          f"{worst} {_fmt(*heroes[worst])}: spread {interval_text(spread, lo, hi, games)}, wholly "
                          f"above the maximum {hmax}{how}")
        elif status == "warn?":  # above the maximum only as a point estimate: said, as it always was
            judge.problem("heroes.spread_max", "M7 hero balance", f"win rate with {best} {_fmt(*heroes[best])} vs "
                          f"{worst} {_fmt(*heroes[worst])}: spread {interval_text(spread, lo, hi, games)}, above "
                          f"the maximum {hmax} only as a point estimate{how}", "warning")


def _heroes_commands(judge, agent, counts, runs_by_count) -> list[str]:
    """The ``pnp simulate --heroes`` run of each count that plays its reference games again (the same
    seed, games 0..n-1): M7 pools them, so no one command shows what it judged."""
    return [f"{judge.command} --players {n} --agent {agent} --seed {judge.seed} "
            f"--games {len(runs_by_count[n]['reference'])} --heroes" for n in counts]


# M5 defaults for a balance.yaml that leaves them out (the games' schema.yaml documents the same);
# balance.yaml is not always schema-checked, so the verdict cannot rely on the schema filling them.
PAIRED_CARDS, PAIRED_GAMES = 2, 300
PAIRED_GROWTH = 4  # an unclear paired check is played again on this many times the seeds
# Cards edited since the last verdict that passed are checked paired too, up to ``edited_cards`` of them:
# the screening cannot see a card played whenever it is drawn (no "drawn and not played" games).
EDITED_CARDS = 4
# Cards always on offer (the engine's ``fixtures``: Valheim's facilities), which the screening cannot see, are
# each paired on this many seeds at every verdict played (one that may lower the win rate by the swing, on
# PAIRED_GROWTH times as many); balance.yaml's ``card_impact.fixture_games: 0`` pairs them only when edited.
# Valheim (s18, seed 0): 8 facilities x 200 and the forge on to 800, 2,200 games on a verdict of 5,300.
FIXTURE_GAMES = 200
# The M5 screening row names this many flagged cards, the most swing first, with their screened
# difference (a wider cell would widen the whole table); balance.json and balance.pdf list them all.
SCREENING_NAMED = 2


def _paired(base, again) -> tuple[float, float, float]:
    """``(delta, lo, hi)`` of the win rate with the card minus without it, on the same seeds."""
    return paired_wins([r["outcome"] == "win" for r in base], [r["outcome"] == "win" for r in again])[:3]


def impact_verdict(d: float, lo: float, hi: float, swing: float) -> str | None:
    """M5 on a paired difference ``d [lo, hi]``: ``"swingy"`` (raises the win rate) or ``"trap"``
    (lowers it) only when the whole interval lies beyond the swing, like every statistical decision
    of the verdict; ``"unclear"`` when the point estimate is beyond it but the interval reaches back
    inside (more paired games would decide); else None."""
    if lo > 0 and lo >= swing:
        return "swingy"
    if hi < 0 and hi <= -swing:
        return "trap"
    if abs(d) >= swing and abs(d) > 0:
        return "unclear"
    return None


def _none(_setup) -> dict:
    return {}


def _judge_card_impact(judge, config, data, engine, tables, runs, runs_by_count, agent, counts, changed=()):
    """M5 proper: the cards the screening flagged, and the cards edited since the last verdict that
    passed (``changed``), each replaced by a neutral filler and played again on the very same seeds
    (paired), at the middle player count. The engine's ``fixtures`` (``{card: screened}``, cards always on
    offer, never drawn nor passed over, as Valheim's crafts: the screening cannot see them) are paired when
    edited, and those it marks ``screened`` (Valheim's facilities) at every verdict played too, on
    ``fixture_games`` seeds (0: only when edited); all are judged like the others."""
    ci = config["card_impact"]
    wanted = ci.get("paired_cards", PAIRED_CARDS)
    candidates = [card for card, _ in data.get("swingy_cards", [])][:wanted]
    fixtures = data.get("fixtures") or {}
    tracked = set(data.get("tracked") or ()) | set(fixtures)
    usage = data.get("card_usage") or {}
    edited = sorted((card for card in changed if card in tracked and card not in candidates),  # most swing first
                    key=lambda card: (-abs((usage.get(card) or {}).get("impact") or 0.0), card))
    most = ci.get("edited_cards", EDITED_CARDS)
    if len(edited) > most:
        judge.row(f"M5 edited cards not paired (over {most})", "-", _first_and_more(edited[most:], 3), "-", "info")
        edited = edited[:most]
    candidates += edited
    fixture_games = ci.get("fixture_games", FIXTURE_GAMES)
    screened = [card for card, every in fixtures.items() if every and card not in candidates] if fixture_games else []
    candidates += screened
    ablate = getattr(engine, "ablate", None)
    data["card_impact_paired"] = {}
    if not candidates or ablate is None:
        note = "no card flagged by the screening or edited" if ablate else "this engine cannot neutralise a card"
        judge.row("M5 card impact (paired)", "-", note, f"|delta| < {ci['swing']}", "info")
        return
    n = counts[len(counts) // 2]
    data["filler_command"] = f"{judge.command} --players {n} --filler CARD"  # the other cards, by hand (report)
    paired_games = ci.get("paired_games", PAIRED_GAMES)
    firsts = {card: fixture_games if card in screened else paired_games for card in candidates}
    reference = runs_by_count[n]["reference"]
    swing = ci["swing"]
    # first look on `firsts` seeds; a card whose interval straddles +-swing is played again on
    # PAIRED_GROWTH times as many seeds (VALIDATOR.md: decide by the interval, run more games when
    # it is unclear); at that last look the interval still decides (impact_verdict): a card beyond
    # the swing only as a point estimate is shown info? and raises no warning
    arms = {card: ([], []) for card in candidates}  # card -> (games with it, games with the filler)
    wanted = dict(firsts)
    for look in (0, 1):
        todo = [card for card in candidates if len(arms[card][0]) < wanted[card]]
        if not todo:
            break
        need = max(wanted[card] for card in todo)
        base = reference[:need]
        if len(base) < need:  # the reference run was shorter: play its next seeds too
            more = runs.start((n, agent, need - len(base), len(base), False))
            reference = reference + runs.collect(more)  # for this check only: the bands keep their sample
            base = reference[:need]
        batches = {card: runs.start((n, agent, wanted[card] - len(arms[card][1]), len(arms[card][1]), False),
                                    ablate(tables, card)) for card in todo}
        for card in todo:
            arms[card][1].extend(runs.collect(batches[card]))
            arms[card] = (base[:len(arms[card][1])], arms[card][1])
            if look == 0:
                d, lo, hi = _paired(*arms[card])
                # a screened fixture warns only as a trap: played on only when it may be one (its point estimate
                # at or beyond -swing), not for every interval a short sample leaves straddling the swing
                if interval_decision(lo, hi, -swing, swing) == "unclear" and (card not in screened or d <= -swing):
                    wanted[card] = firsts[card] * PAIRED_GROWTH
    within = []  # the screened fixtures within the swing: one row after the loop
    for card in candidates:
        d, lo, hi = _paired(*arms[card])
        won = arms[card][1]
        verdict_ = impact_verdict(d, lo, hi, swing)
        trap, swingy = verdict_ == "trap", verdict_ == "swingy"
        # a screened fixture (a facility) is there to help the whole team: only harm is news, shown as info
        # otherwise; edited, it is judged both ways like any card (what did the edit do)
        helps = swingy and card in screened
        swingy = swingy and not helps
        status = "warn" if trap or swingy else ("info?" if verdict_ == "unclear" else "info")
        why = " (edited)" if card in edited else ""
        data["card_impact_paired"][card] = {"players": n, "games": len(won), "delta": round(d, 4),
                                            "ci95": [round(lo, 4), round(hi, 4)], "edited": card in edited,
                                            "fixture": card in fixtures}
        if card in screened and verdict_ is None:
            within.append(card)
        else:
            judge.row(f"M5 card impact (paired): {card}{why}", n, interval_text(d, lo, hi, len(won), "{:+.3f}"),
                      f"|delta| < {swing}", status)
        how = f"--filler {card}" if card in fixtures else "--cards"  # a fixture is never drawn: --cards shows nothing
        if trap:
            judge.problem("card_impact", "M5 trap card", f"{card} lowers the team's win rate by "
                          f"{interval_text(-d, -hi, -lo)} against a neutral filler on the same {len(won)} seeds with "
                          f"{judge.count(n)}", "warning", players=n, agent=agent, card=card,
                          games=len(won), options=how)
        elif swingy:
            judge.problem("card_impact", "M5 swingy card", f"{card} raises the team's win rate by "
                          f"{interval_text(d, lo, hi)} against a neutral filler on the same {len(won)} seeds with "
                          f"{judge.count(n)}", "warning", players=n, agent=agent, card=card,
                          games=len(won), options=how)
    if screened:  # the fixtures within the swing in one row; the others have a row each above
        named = f" ({', '.join(within)})" if within else ""  # the others are named in their own rows
        judge.row("M5 always-offered cards (paired)", n, f"{len(within)} of {len(screened)} within the swing, "
                  f"{fixture_games}+ paired seeds each{named}", f"|delta| < {swing}; only harm warns", "info")


def _first_and_more(names: list[str], shown: int) -> str:
    """``"a, b and 3 more"``: a table cell names a few, balance.json and balance.pdf list them all."""
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


# A longer value continues on lines of its own column: one row of many bosses or rooms made the
# column so wide that band and status ran off the terminal and off balance.pdf's page.
VALUE_WIDTH = 72


def _wrap_value(value: str) -> list[str]:
    """``value`` in lines of at most VALUE_WIDTH, never breaking inside an interval ``[lo, hi]``."""
    glued = re.sub(r"\[[^\]]*\]", lambda m: m.group().replace(" ", "\xa0"), value)  # wrap splits at ASCII spaces only
    return [line.replace("\xa0", " ") for line in textwrap.wrap(glued, VALUE_WIDTH, break_on_hyphens=False)] or [""]


def _table(rows) -> str:
    head = ("metric", "players", "value [95% CI] (n)", "band", "status")
    lines_of = []
    for metric, players, value, band, status in [head, *rows]:
        parts = _wrap_value(str(value))
        lines_of.append((metric, players, parts[0], band, status))
        lines_of += [("", "", part, "", "") for part in parts[1:]]
    widths = [max(len(str(r[i])) for r in lines_of) for i in range(5)]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip() for row in lines_of]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ---- the print gate -------------------------------------------------------------------------------

# Files of a game directory no engine plays with (the rulebook, READMEs, art): editing them keeps
# the kept verdict, so fixing a rulebook typo does not replay a minute of games at the next build.
# (The key of a shipped engine's verdict is narrower still: verdict_key.)
NOT_PLAYED_DIRS = ("rulebook",)
NOT_PLAYED_SUFFIXES = (".md", ".png", ".jpg", ".jpeg", ".svg", ".webp")


def _played_files(root: Path) -> list[Path]:
    """The files of the game directory that may hold what the simulator reads, sorted."""
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() not in NOT_PLAYED_SUFFIXES
                  and p.relative_to(root).parts[0] not in NOT_PLAYED_DIRS and not is_editor_lock(p.name)
                  and not any(part == "__pycache__" or part.startswith(".") for part in p.relative_to(root).parts))


def played_file_hashes(root: Path) -> dict[str, str]:
    """``{path relative to the game: sha256}`` of the game's files the simulator may read."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in _played_files(root)}


def content_key(files: dict[str, str], engine_version: str) -> str:
    """Hash of what a verdict depends on (``verdict_key.played_inputs``, or ``keyed_files``) plus the engine
    and core versions."""
    return hashlib.sha256(json.dumps([f"{engine_version}/{SIM_VERSION}", files], sort_keys=True).encode()).hexdigest()


def changed_since_pass(root: Path, passed: dict[str, str] | None, files: dict[str, str],
                       edited: dict[str, Location] | None = None) -> list[Problem]:
    """A failed verdict's first lead: a warning on each played file added, edited or removed since
    the last verdict that passed (``passed``: its ``played_file_hashes``). A record file is named by
    its records played differently since then, each at its line (``edited``: record id -> Location),
    so that the one number changed among a few hundred cards is pointed at."""
    if not passed:
        return []
    said = "changed since the last balance verdict that passed"
    by_file: dict[Path, list] = {}
    for card, where in (edited or {}).items():
        by_file.setdefault(Path(where.path).resolve(), []).append(Problem(where, card, said, "warning"))
    changed = sorted(name for name in set(passed) | set(files) if passed.get(name) != files.get(name))
    return [problem for name in changed for problem in by_file.get((root / name).resolve()) or
            [Problem(Location(str(root / name)), "", said + ("" if name in files else " (removed)"), "warning")]]


def card_digests(tables: dict, views: dict | None = None) -> dict[str, str]:
    """``{record id: digest of the record}`` over the record tables (the print lock's record
    digest, of the record as played: ``views``, see ``played_views``): which cards an edit touched."""
    from ..export.digest import data_digest

    views = views or {}
    return {record["id"]: data_digest(views.get(id(record), record)) for record in id_records(tables)}


def keyed_files(game, files: dict[str, str], views: dict) -> dict[str, str]:
    """The played files as the verdict's key sees them: each component's record files by the digest of
    its records as played, so a reworded rule text (or a comment, or a file reformatted) is no reason
    to play the game again; every other file (rules, balance, schema) by its bytes."""
    from ..export.digest import data_digest

    root = Path(game.root).resolve()
    keyed = dict(files)
    for component in getattr(game, "components", None) or ():
        for path in component.files:
            keyed.pop(Path(path).resolve().relative_to(root).as_posix(), None)
        keyed[f"records:{component.id}"] = data_digest([views.get(id(r), r) for r in component.records])
    return keyed


def verdict_key(game, name: str, engine, views: dict, files: dict[str, str] | None = None) -> str:
    """The key a kept verdict is stored under: what the simulator plays with, and its version. A shipped
    engine reads the tables alone (the files only the printer reads keep the verdict); a game's own
    reads any file (``files``: ``played_file_hashes``, computed when not given)."""
    if is_shipped(name):
        inputs = played_inputs(game, engine, views)
    else:
        inputs = keyed_files(game, played_file_hashes(Path(game.root)) if files is None else files, views)
    return content_key(inputs, f"{name}/{engine.VERSION}")


def _stored_verdict(cache: Path) -> dict | None:
    try:
        return json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def kept_verdict_standing(game, output_dir=None) -> str:
    """For a build that does not judge balance (``--no-validate``, ``pnp watch`` without ``--balance``):
    whether the verdict kept in ``output_dir`` was judged on the numbers as they are now. A designer
    tuning in watch saw "balance not checked" after every edit, the same line whether the print file
    matched a verdict that passed or numbers no game had been played with. "" without a kept verdict."""
    stored = _stored_verdict(output_dir_of(game, output_dir) / VERDICT_FILE)
    if not stored or "key" not in stored:
        return ""
    loaded = _simulator_of(game)
    if isinstance(loaded, BalanceResult):
        return ""
    *_, name, engine = loaded
    key = verdict_key(game, name, engine, played_views(game))
    verdict = "passed" if stored.get("passed") else "FAILED"
    if stored["key"] == key:
        return f"the kept verdict ({verdict}) is of these numbers"
    return (f"the kept verdict ({verdict}) was judged on other numbers (or another simulator): "
            "pnp validate judges these numbers")


def cached_verdict(game, *, workers: int | None = None, progress=None, output_dir=None, executor=None,
                   refresh: bool = False) -> BalanceResult:
    """``check_balance`` unless ``<output>/.verdict.json`` holds the verdict of identical content;
    with ``refresh`` (``pnp validate``) always simulate, and keep the verdict for the next build."""
    loaded = _simulator_of(game)
    if isinstance(loaded, BalanceResult):
        return loaded
    *_, name, engine = loaded
    out = output_dir_of(game, output_dir)
    files = played_file_hashes(Path(game.root))
    views = played_views(game)
    key = verdict_key(game, name, engine, views, files)
    cache = out / VERDICT_FILE
    stored = _stored_verdict(cache)
    if stored and stored.get("key") == key and not refresh:
        problems = [Problem(Location(p["path"], p["line"]), p["field"], p["message"], p["severity"])
                    for p in stored["problems"]]
        return BalanceResult(passed=stored["passed"], problems=problems, table=stored["table"], cached=True,
                             checked=stored.get("checked", True), played=stored.get("played", True))
    cards = card_digests(played_tables(game), views)
    last_cards = (stored or {}).get("last_pass_cards")
    edited = sorted(card for card, digest in cards.items() if last_cards and last_cards.get(card) != digest)
    result = check_balance(game, workers=workers, progress=progress, executor=executor, output_dir=out,
                           changed_cards=edited, simulator=loaded)
    last_pass = files if result.passed else (stored or {}).get("last_pass")
    last_cards = cards if result.passed else last_cards
    if not result.passed:
        where = _record_locations(game)
        result.problems.extend(changed_since_pass(Path(game.root), last_pass, files,
                                                  {card: where[card] for card in edited if card in where}))
    payload = {"key": key, "last_pass": last_pass, "last_pass_cards": last_cards, "passed": result.passed,
               "checked": result.checked, "played": result.played,
               "table": result.table,
               "problems": [{"path": p.location.path, "line": p.location.line, "field": p.field,
                             "message": p.message, "severity": p.severity} for p in result.problems]}
    from .report import write_atomic
    write_atomic(cache, json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8"))
    return result
