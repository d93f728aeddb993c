"""``pnp simulate GAME``: play the current content many times, or replay one game with a trace.

    pnp simulate fatal-fight --players 3 --games 2000 --seed 7 --json
    pnp simulate fatal-fight --players 3 --seed 7 --game 113 --trace
    pnp simulate metroidvania --players 2 --set rules.boss_life_bonus.2=1   # A/B on the same seeds
    pnp simulate metroidvania --players 2 --sweep rules.boss_life_bonus.2=0..3   # a table of values (sweep.py)

The numbers do not depend on ``--workers``; only ``games_per_second`` does.
"""
from __future__ import annotations

import json
import shlex
import time
from contextlib import contextmanager

import click


def _common_options(func):
    from ..cli import common_options  # -q / -v like every other command
    return common_options(func)


def _seed(value: str):
    return int(value) if value.lstrip("-").isdigit() else value


DEFAULT_PLAYERS = 3  # without --players (or balance.yaml's first count, when it does not list 3)


@click.command()
@click.argument("game")
@click.option("--players", type=click.IntRange(1, 8), default=None,
              help=f"Players in play (Fatal Fight: characters); default {DEFAULT_PLAYERS}, or the first count of "
                   "balance.yaml's players: when it does not list that one.")
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", default="0", show_default=True, help="Run seed; game i is seeded from (seed, i).")
@click.option("--agent", default=None, help="Player policy: by default the game's reference agent, the one its balance "
                                           "verdict judges (balance.yaml reference_agent; greedy without one); random, "
                                           "or one of the game's own (an unknown name lists them).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Worker processes (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--game", "game_index", type=click.IntRange(0), default=None, help="Replay only game I of the run.")
@click.option("--trace", is_flag=True, help="With --game: print every event of that game.")
@click.option("--difficulty", default=None, help="Difficulty level, for games that have them (Metroidvania: normal, easy).")
@click.option("--cards", is_flag=True, help="Also report each card's use: times played (bought, used) of the times "
                                          "drawn or offered, least used first (JSON: card_usage).")
@click.option("--heroes", is_flag=True, help="Also report the win rate with and without each character (hero, servant) "
                                           "in the party, highest first, and the spread the verdict's M7 judges "
                                           "(JSON: heroes).")
@click.option("--set", "sets", multiple=True, metavar="PATH=VALUE",
              help="Also play the same games with one value of the content changed (rules.boss_life_bonus=2, "
                   "arts.CARD.ap=6; repeatable) and compare: both win rates and their paired difference.")
@click.option("--sweep", "sweeps", multiple=True, metavar="PATH=VALUES",
              help="Also play the same games with each of several values of one path (rules.boss_life_bonus.2=0..3, "
                   "bosses.ID.life=10,12,14; at most 12) and compare them in one table with the content as it is.")
@click.option("--filler", metavar="CARD", default=None,
              help="Also play the same games with CARD replaced by a neutral filler, as the verdict's M5 paired check "
                   "does, and compare: the card's own effect on the win rate, at any player count.")
@_common_options
def simulate(game, players, games, seed, agent, workers, as_json, game_index, trace, difficulty, cards, heroes, sets,
             sweeps, filler):
    """Simulate GAME (a name under ./content or a path) with scripted players."""
    from ..cli import reporter, resolve_game, run_reporting
    from ..sim.api import SimulationError

    if trace and game_index is None:
        raise click.BadParameter("--trace needs --game I (the game to replay)", param_hint="--trace")
    if sweeps:
        from .sweep import alone
        alone(sweeps, sets, game_index, cards, heroes, filler)
    if filler and sets:
        raise click.UsageError("--filler does not go with --set: each compares one change with the content as it is")
    path = resolve_game(game)
    seed = _seed(seed)
    ctx = click.get_current_context()
    if (game_index is not None and game_index >= games
            and ctx.get_parameter_source("games") != click.core.ParameterSource.DEFAULT):
        raise click.BadParameter(f"game {game_index} is not in a run of {games} games (0..{games - 1})",
                                 param_hint="--game")
    try:
        engine, game_data, config = run_reporting(lambda: _engine(path))
        from ..sim.verdict import reference_agent

        reference = reference_agent(config)
        agent = agent or reference
        players = players or _default_players(config)
        tables = _tables(game_data, engine, difficulty)
        variant = _variant(tables, sets, game_data)
        _say_unchanged(tables, variant, sets)
        _say_other_count(tables, [*sets, *sweeps], players, config, getattr(engine, "SEATS", "players"))
        if filler:
            from .filler import filled
            variant = filled(engine, tables, filler)
        sweep = _sweep(tables, sweeps, game_data)
        if sweep:  # its band is read (and an inverted one refused) before any game is played
            from .sweep import win_band
            band = run_reporting(lambda: win_band(game_data, players))
        changes = _changes(tables, variant, sets, sweep)
        for changed, said in changes:
            _check_variant(engine, game_data, changed, players, agent, said, "--sweep" if sweep else "--set")
        setup = _check_run(engine, game_data, variant if game_index is not None else tables, players, agent,
                           compared=bool(changes) and game_index is None)
        if game_index is not None:  # with --set, the changed game is the one replayed
            _replay(engine, setup, players, agent, seed, game_index, trace, as_json, sets)
            return
        with _progress(games * (1 + len(changes)), f"simulate {path.name}") as progress:
            parts = {"cards": cards, "heroes": heroes}
            summary = _run(engine, game_data, tables, players, games, seed, agent, workers, parts, progress())
            runs = [_run(engine, game_data, changed, players, games, seed, agent, workers, parts, progress(), said,
                         filler) for changed, said in changes]
        if sweep:
            summary["sweep"] = sweep.document(summary, runs, band)
        elif runs:
            _compare(summary, runs[0], sets, filler)
        for run in runs:  # a changed run's failures are the command's: listed, and exit 1
            summary["_failures"] += run["_failures"]
            summary["errors"] += run["errors"]
        if difficulty is not None:
            summary["difficulty"] = tables["difficulty"]
    except (SimulationError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    failed = summary.pop("_failures")
    wins = summary.pop("_wins")
    follow = _follow_one(wins, summary.pop("_replay"))
    if as_json:  # the games to --trace, as the text's "not won" line names them (a script picks one)
        summary["not_won"] = [i for i, won in enumerate(wins) if not won]
        from ..sim.stats import plain_zeros
        click.echo(json.dumps(plain_zeros(summary), ensure_ascii=False))
    elif reporter().verbosity >= 0:  # -q: only failures
        from ..sim.verdict import stage_rounds_of
        _print_summary(summary, getattr(engine, "SEATS", "players"), follow, _spread_max(config),
                       _agent_shown(engine, agent, reference), stage_rounds_of(engine), _compiled(engine))
    for line in failed:
        click.echo(line, err=True)
    raise SystemExit(1 if summary["errors"] else 0)


def _engine(path):
    from ..content import load_game
    from ..sim.api import SimulationError
    from ..sim.static import balance_of, engine_of

    game = load_game(path)
    config, _path, lines = balance_of(game)
    name, engine = engine_of(game, config, lines)
    if engine is None:
        raise SimulationError(f"no simulator for this game yet ({name}): a game's own is a sim.py in its folder, "
                              "named by balance.yaml's engine: sim.py; pnp new NAME --simulator writes a sample to "
                              "start from (docs/simulator.md)")
    return engine, game, config or {}


def _agent_shown(engine, agent: str, reference: str) -> str:
    """The agent as the summary names it: another name of the verdict's reference agent says so, so that
    a run is not taken for another player than the one balance.yaml and balance.pdf name."""
    from ..sim.agents import same_player

    if agent != reference and same_player(engine, agent, reference):
        return f"{agent} (the verdict's reference agent {reference!r})"
    return agent


def _spread_max(config: dict):
    """balance.yaml's M7 maximum (``heroes.spread_max``), None where it has none."""
    return (config.get("heroes") or {}).get("spread_max")


def _check_run(engine, game, tables, players, agent, compared=False):
    """The compiled setup; an agent the engine does not know or a player count it cannot deal is
    a usage error (exit 2), found before any game is played. ``compared``: a --set or --sweep run,
    which plays the content as it is too, and so cannot try the fix of content that does not run."""
    from ..cli import run_reporting
    from ..sim.compile import where_of

    try:
        setup = run_reporting(lambda: engine.compile_setup(tables, where_of(game)))
    except SystemExit:
        if compared:
            click.echo("the content as it is cannot be simulated (above), so a change cannot be compared with it: "
                       "fix it, or replay one game with the change alone (--game I --trace with the --set)", err=True)
        raise
    _check_seats(engine, setup, players, agent)
    return setup


def _default_players(config) -> int:
    """3, unless balance.yaml's ``players:`` leaves it out (a two-player duel): then its first count,
    a count the rules deal, so a bare ``pnp simulate GAME`` plays."""
    counts = list((config or {}).get("players") or [])
    return DEFAULT_PLAYERS if not counts or DEFAULT_PLAYERS in counts else counts[0]


def _check_seats(engine, setup, players, agent) -> None:
    from ..sim.agents import make_agent
    from ..sim.api import SimulationError
    from ..sim.static import refused_count

    try:
        make_agent(engine, agent, setup, 0)
    except SimulationError as exc:
        raise click.BadParameter(str(exc), param_hint="--agent") from None
    refused = refused_count(engine, setup, players)
    if refused:
        raise click.BadParameter(refused, param_hint="--players")


def _tables(game, engine, difficulty=None):
    """What the engine plays: the game's tables (its bands left out), with the run's difficulty
    for an engine that has levels (as the validator's EASY runs set it)."""
    from ..sim.compile import played_tables

    tables = played_tables(game)
    if difficulty is not None:
        levels = getattr(engine, "DIFFICULTIES", ())
        if not levels:
            raise click.BadParameter(f"{game.id} has no difficulty levels", param_hint="--difficulty")
        if difficulty.lower() not in levels:
            raise click.BadParameter(f"{difficulty!r} is not one of {', '.join(levels)}", param_hint="--difficulty")
        tables["difficulty"] = difficulty.lower()
    return tables


@contextmanager
def _refused(option: str):
    """An ``OverrideError`` (a path or value the content cannot take) as a usage error of ``option``."""
    from ..sim.overrides import OverrideError

    try:
        yield
    except OverrideError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None


def _variant(tables: dict, sets, game) -> dict:
    """The tables with every ``--set`` applied (``tables`` itself without any)."""
    if not sets:
        return tables
    from ..sim.overrides import apply_sets

    with _refused("--set"):
        return apply_sets(tables, list(sets), game)


def _say_unchanged(tables: dict, variant: dict, sets) -> None:
    """A ``--set`` of the value the content already has is said on stderr: the comparison below it
    plays the same games twice and reads "difference +0.000", as if the change did nothing."""
    from ..sim.overrides import same_value, value_at

    same = [text for text in sets if same_value(value_at(variant, text), value_at(tables, text))]
    if same:
        click.echo(f"note: {', '.join(same)}: already the content's value, it changes nothing"
                   + ("" if len(same) < len(sets) else " (the run with it plays the same games)"), err=True)


def _say_other_count(tables: dict, texts, players: int, config, seats: str) -> None:
    """A ``--set``/``--sweep`` of a number set per player count (``rules.boss_life_bonus.2``) at another
    count than the run's is said on stderr: its games never read it, and the comparison reads
    "difference +0.000" as if the value did not matter."""
    from ..sim.verdict import count_keyed, seat_word

    counts = (config or {}).get("players") or []
    keyed = count_keyed(tables.get("rules"), counts) if counts else {}
    for text in texts:
        path = text.partition("=")[0].strip()
        prefix, _, count = path.rpartition(".")
        if prefix in keyed and count != str(players) and count in {str(n) for n in keyed[prefix]}:
            click.echo(f"note: {path} is the value with {count} {seat_word(seats, int(count))} and this run plays "
                       f"{players}: it changes nothing here (--players {count} plays it)", err=True)


def _sweep(tables: dict, sweeps, game):
    """The ``--sweep``'s values, each checked as a ``--set`` is (None without one)."""
    if not sweeps:
        return None
    from .sweep import swept

    with _refused("--sweep"):
        return swept(tables, sweeps[0], game)


def _changes(tables, variant, sets, sweep) -> list[tuple[dict, tuple]]:
    """``(tables, the --set options they carry)`` of each run besides the content as it is."""
    if sweep is not None:
        return [(arm.tables, (arm.change,)) for arm in sweep.changed()]
    return [] if variant is tables else [(variant, tuple(sets))]


def _check_variant(engine, game, variant, players, agent, sets, option) -> None:
    """What the engine says of the changed tables, as a problem of ``option`` (its records are
    copies: they have no line of their own to point at); a sweep names the value."""
    from ..errors import ProblemsError

    try:
        setup = engine.compile_setup(variant, _where_in(game, variant))
    except ProblemsError as exc:
        said = "; ".join(f"{p.field}: {p.message}" if p.field else p.message for p in exc.problems)
        value = f"{sets[0]!r}: " if option == "--sweep" else ""
        raise click.BadParameter(f"{value}the changed content does not run: {said}", param_hint=option) from None
    _check_seats(engine, setup, players, agent)


def _where_in(game, variant: dict):
    """``where`` for the changed tables, whose records are copies: each is found at its original's
    line, so that an engine's ``where(record)`` is a location for every record, as for the content."""
    from ..sim.compile import GameWhere

    tables = game.tables  # the changed tables are a deep copy of these: the same tables, in the same order
    original = {id(variant[key]): table for key, table in tables.items() if key in variant}
    original.update((id(twin), record) for key, table in tables.items() if isinstance(table, list)
                    for twin, record in zip(variant.get(key, ()), table))
    return GameWhere(game, original)


def paired(changed: dict, plain: dict) -> dict:
    """The paired difference of two runs' win rates, changed minus plain (game i of both runs is
    dealt from the same seed), with its interval and how many games ended differently. When none did,
    the interval is +-``bound``, how far apart the rates could still be (``stats.none_differ_bound``);
    a run against itself (a sweep's current value) is the same run: [0, 0]."""
    from ..sim.stats import paired_wins

    if changed is plain:
        return {"diff": 0.0, "ci95": [0.0, 0.0], "games_differing": 0}
    diff, lo, hi, differing = paired_wins(changed["_wins"], plain["_wins"])
    said = {"diff": round(diff, 6), "ci95": [round(lo, 6), round(hi, 6)], "games_differing": differing}
    if not differing:
        said["bound"] = round(hi, 6)
    return said


def _compare(summary: dict, changed: dict, sets, filler=None) -> None:
    """The changed run beside the plain one: its summary under ``variant`` and the paired
    difference of the win rates."""
    from ..sim.overrides import described

    shown = {k: v for k, v in changed.items()
             if k not in ("game", "players", "games", "seed", "agent", "_wins", "_failures", "_replay")}
    summary["variant"] = {"filler": filler} if filler else {"set": described(list(sets))}
    summary["variant"].update(shown)
    summary["paired"] = paired(changed, summary)
    if filler:  # signed as M5 reports it: with the card minus with the filler (0.0 - x: no -0.000)
        d, (lo, hi) = summary["paired"]["diff"], summary["paired"]["ci95"]
        summary["card_effect"] = {"diff": 0.0 - d, "ci95": [0.0 - hi, 0.0 - lo]}
        if "bound" in summary["paired"]:
            summary["card_effect"]["bound"] = summary["paired"]["bound"]


@contextmanager
def _progress(total: int, task: str):
    """``progress()`` gives each run of the command its ``run_games`` progress callback: one bar across
    every run (the content as it is, then each change) as the reporter draws it (a bar on a terminal, a
    plain line now and then in a pipe), else None (-q)."""
    from ..cli import reporter
    rep = reporter()
    if rep.verbosity < 0:
        yield lambda: None
        return
    rep.task = task
    with rep.progress(None, "simulating", length=total) as bar:
        def one_run():
            done = [0]

            def tick(d, _total):
                bar.update(d - done[0])
                done[0] = d
            return tick
        yield one_run


def _run(engine, game, tables, players, games, seed, agent, workers, parts=None, progress=None, sets=(),
         filler=None) -> dict:
    """The summary of one run; ``parts``: the optional parts asked for (``cards``, ``heroes``); ``sets`` (and
    ``filler``) are the changes ``tables`` carry, for the failures' replay commands."""
    from ..sim.metrics import card_usage, failure_line, failures, run_summary
    from ..sim.runner import run_games
    from ..sim.verdict import CHECKED_GAMES

    started = time.perf_counter()
    records = run_games(engine, tables, players=players, games=games, seed=seed, agent=agent, workers=workers,
                        progress=progress, checked_below=CHECKED_GAMES)  # as the validator: an illegal choice is M0
    elapsed = time.perf_counter() - started
    s = run_summary(records)
    shown = game.id if game.root.resolve().parent.name == "content" else str(game.root)
    options = f" --difficulty {tables['difficulty']}" if "difficulty" in tables else ""
    options += "".join(f" --set {shlex.quote(text)}" for text in sets)  # a changed game replays changed
    options += f" --filler {shlex.quote(filler)}" if filler else ""
    replay = f"pnp simulate {shown} --players {players} --agent {agent} --seed {seed}{options}"
    fails = [f"{r['outcome']}: game {r['index']} seed {seed}: {failure_line(r)}; replay: {replay} --game {r['index']} --trace"
             for r in failures(records)[:20]]
    summary = {
        "game": game.id, "players": players, "games": games, "seed": seed, "agent": agent,
        "wins": s["wins"], "win_rate": round(s["win_rate"], 6), "ci95": [round(x, 6) for x in s["ci95"]],
        "rounds": {"median": s["rounds"]["median"], "p95": s["rounds"]["p95"]},
        "timeouts": s["timeouts"], "errors": s["errors"], "games_per_second": round(games / elapsed, 1),
        "stalls": s["stalls"], "outcomes": s["outcomes"], "stage_rounds_median": s["stage_rounds_median"],
        "_failures": fails, "_wins": [r["outcome"] == "win" for r in records],  # in index order
        "_replay": replay,
    }
    if (parts or {}).get("cards"):
        summary["card_usage"] = _least_used_first(card_usage(records))
    if (parts or {}).get("heroes"):
        summary["heroes"] = _hero_view(records)
    return summary


def _rate(wins: int, games: int) -> dict:
    from ..sim.stats import wilson

    return {"games": games, "wins": wins, "win_rate": round(wins / games, 6) if games else None,
            "ci95": [round(x, 6) for x in wilson(wins, games)]}


def _hero_view(records):
    """Each character's win rate with it in the party and without it (``metrics.hero_split``, highest
    first) and M7's spread of the best and the worst (``metrics.hero_spread``); None when the records
    carry no party (a game's own engine need not name one)."""
    from ..sim.metrics import hero_split, hero_spread

    spread = hero_spread(records)
    if spread is None:
        return None
    best, worst, diff, lo, hi = spread
    return {"by_hero": {c: {"with": _rate(*with_), "without": _rate(*without)}
                        for c, (with_, without) in hero_split(records).items()},
            "spread": {"best": best, "worst": worst, "diff": round(diff, 6), "ci95": [round(lo, 6), round(hi, 6)],
                       "games": sum(r["outcome"] != "error" for r in records)}}


def _least_used_first(usage: dict) -> dict:
    """``metrics.card_usage`` as ``{card: {"exposures", "uses"}}``, the lowest use rate first (the
    cards a designer looks at after a change)."""
    order = sorted(usage.items(), key=lambda kv: (kv[1][1] / max(1, kv[1][0]), kv[0]))
    return {card: {"exposures": seen, "uses": used} for card, (seen, used) in order}


SHOWN_NOT_WON = 8  # game numbers listed of those not won; the rest are counted


def _follow_one(wins: list, replay: str) -> str:
    """Which games were not won and the command that follows the first one move by move: the games to
    look at after a refused build are the lost ones, and their numbers are nowhere else."""
    lost = [i for i, won in enumerate(wins) if not won]
    if not lost:
        return ""
    more = f" and {len(lost) - SHOWN_NOT_WON} more" if len(lost) > SHOWN_NOT_WON else ""
    return (f"  not won    games {', '.join(map(str, lost[:SHOWN_NOT_WON]))}{more}; follow one: "
            f"{replay} --game {lost[0]} --trace")


def _stage(stage_rounds: str) -> str:
    """After "rounds median ...": the default's "per stage", a game's own words whole ("cycles per round")."""
    return stage_rounds.removeprefix("rounds ")


def _compiled(engine) -> str:
    """After the speed: whether the engine ran compiled (``pnp accelerate``); nothing when it ran as Python."""
    from ..sim.accelerate import is_compiled

    return " (compiled engine: pnp accelerate)" if is_compiled(engine) else ""


def _print_summary(s: dict, seats: str, follow: str = "", spread_max=None, agent_shown=None,
                   stage_rounds: str = "rounds per stage", compiled: str = "") -> None:
    from ..sim.stats import interval_text
    from ..sim.verdict import seat_word

    lo, hi = s["ci95"]
    click.echo(f"{s['game']}: {s['games']} games, {s['players']} {seat_word(seats, s['players'])}, "
               f"agent {agent_shown or s['agent']}, seed {s['seed']}")
    if "sweep" in s:
        from .sweep import print_sweep
        print_sweep(s, seats)
        return
    click.echo(f"  win rate   {s['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] ({s['wins']}/{s['games']})")
    click.echo("  outcomes   " + ", ".join(f"{k} {v}" for k, v in sorted(s["outcomes"].items())))
    if follow:
        click.echo(follow)
    click.echo(f"  rounds     median {s['rounds']['median']:g}, p95 {s['rounds']['p95']:g}; "
               f"{_stage(stage_rounds)} median {s['stage_rounds_median']:g}")
    click.echo(f"  speed      {s['games_per_second']} games/s{compiled}")
    if "heroes" in s:
        _print_heroes(s["heroes"], spread_max)
    if "variant" in s:
        v, p = s["variant"], s["paired"]
        vlo, vhi = v["ci95"]
        changes = ", ".join(f"{path}={value}" for path, value in v.get("set", {}).items())
        click.echo(f"with {v['filler']} as a neutral filler (M5's paired check):" if "filler" in v else f"with {changes}:")
        click.echo(f"  win rate   {v['win_rate']:.3f} [{vlo:.3f}, {vhi:.3f}] ({v['wins']}/{s['games']})")
        click.echo(f"  rounds     median {v['rounds']['median']:g}, p95 {v['rounds']['p95']:g}; "
                   f"{_stage(stage_rounds)} median {v['stage_rounds_median']:g}")
        lo, hi = p["ci95"]
        differing = f"{p['games_differing']} game{'' if p['games_differing'] == 1 else 's'} ended differently"
        if "bound" in p:  # no game ended differently: how far apart the arms could still be, not [0, 0]
            label, what = (("card's effect", "with the card and with the filler, the win rates") if "filler" in v
                           else ("difference", "the win rates"))
            click.echo(f"  {label} none seen: no game ended differently on the same {s['games']} deals; {what} may "
                       f"still differ by up to ±{p['bound']:.3f} (95%)")
        elif "filler" in v:  # the card's effect (``_compare``), signed as M5 reports it
            effect, (low, high) = s["card_effect"]["diff"], s["card_effect"]["ci95"]
            shown = interval_text(effect, low, high, None, "{:+.3f}")
            click.echo(f"  card's effect {shown} in win rate, with it minus with the "
                       f"filler, paired on the same {s['games']} deals ({differing})")
        else:
            shown = interval_text(p["diff"], lo, hi, None, "{:+.3f}")
            click.echo(f"  difference {shown} in win rate, paired on the same {s['games']} deals ({differing})")
        if v.get("heroes"):
            _print_heroes(v["heroes"], spread_max)
    if "card_usage" in s:
        click.echo("  cards      used / drawn or offered, least used first:")
        width = max((len(card) for card in s["card_usage"]), default=0)
        for card, n in s["card_usage"].items():
            rate = f"{n['uses'] / n['exposures']:.3f}" if n["exposures"] else "-"
            click.echo(f"             {card:<{width}}  {n['uses']:>6} / {n['exposures']:<6}  {rate}")


def _print_heroes(view, spread_max) -> None:
    """``--heroes``: a row per character, highest win rate first, and the spread M7 judges."""
    if view is None:
        click.echo("  heroes     none: this game's records carry no party (its engine's summarize names none)")
        return
    from ..sim.stats import interval_text

    click.echo("  heroes     win rate with the character in the party / without it, highest first:")
    width = max(len(c) for c in view["by_hero"])
    for hero, arms in view["by_hero"].items():
        cells = [interval_text(a["win_rate"], *a["ci95"], a["games"]) if a["games"] else "- (0)"
                 for a in (arms["with"], arms["without"])]
        click.echo(f"             {hero:<{width}}  {cells[0]:<28} / {cells[1]}")
    sp = view["spread"]
    judged = "" if spread_max is None else f" (heroes.spread_max {spread_max}; the verdict pools its player counts)"
    click.echo(f"  M7 spread  {sp['best']} - {sp['worst']} {interval_text(sp['diff'], *sp['ci95'], sp['games'], '{:+.3f}')}"
               + judged)


def _replay(engine, setup, players, agent, seed, index, trace, as_json, sets=()) -> None:
    from ..cli import run_reporting
    from ..sim.overrides import described
    from ..sim.runner import replay

    # a game's own describe() that raises is a problem at its line (local.GUARDED), not a traceback
    record, lines = run_reporting(lambda: replay(engine, setup, players=players, agent=agent, seed=seed, index=index))
    brief = {k: record.get(k) for k in ("index", "seed", "players", "agent", "outcome", "rounds", "party", "stage",
                                        "stage_rounds", "decisions", "error", "violations")}
    changed = described(list(sets))
    if changed:
        brief["set"] = changed
    if trace and as_json:  # one JSON document on stdout: the trace goes in it, not before it
        brief["trace"] = lines
    elif trace:
        for line in lines:
            click.echo(line)
    click.echo(json.dumps(brief, ensure_ascii=False) if as_json else _replay_line(index, record, changed))
    if record["outcome"] in ("error", "timeout") and not as_json:
        from ..sim.metrics import failure_line
        click.echo(f"{record['outcome']}: {failure_line(record)}", err=True)
    raise SystemExit(1 if record["outcome"] == "error" else 0)


def _replay_line(index, record, changed) -> str:
    """``game 3: win after 5 rounds (stage 2), party a, b``: what the engine's record says (a game's own
    simulator may have no stages or party: those parts are left out, not shown as None)."""
    line = f"game {index}: {record['outcome']}"
    if record.get("rounds") is not None:
        line += f" after {record['rounds']} rounds"
    if record.get("stage") is not None:
        line += f" (stage {record['stage']})"
    if record.get("party"):
        line += f", party {', '.join(record['party'])}"
    return line + "".join(f", with {path}={value}" for path, value in changed.items())
