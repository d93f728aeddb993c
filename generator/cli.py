"""The ``pnp`` command. Only this module prints or exits.

Exit codes: 0 ok, 1 problems found (content, fit, balance, build), 2 usage error, 130 interrupted
(Ctrl-C).
Command bodies stay thin: they resolve arguments, call the library, and report.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from . import __version__
from .errors import KNOWN, GeneratorError, Problem, ProblemsError, sort_problems


class Reporter:
    """Prints problems and progress; decides the exit code."""

    def __init__(self, verbosity: int = 0):
        self.verbosity = verbosity
        self.failed = False
        self.task = ""  # what a progress line in a pipe is about: "validate valheim"

    def problems(self, problems) -> int:
        """Print the problems, one line per group; the number of error lines printed (what a
        FAILED line counts)."""
        errors, left_out = 0, {"finding(s)": 0, "note(s) on its entries": 0}
        for problem, more in _grouped(sort_problems(problems)):
            if problem.severity == "error":
                self.failed = True
                errors += 1
            if problem.severity == KNOWN and self.verbosity <= 0:  # looked into and accepted: not at every build
                left_out["note(s) on its entries" if problem.field == "known" else "finding(s)"] += 1
                continue
            line = problem.display()
            if more:  # one layout mistake fails every card drawn with it: one line, not one per card
                line = line[:-1] + f"; and {more} more card(s) with the same problem)"
            click.echo(line)
        if any(left_out.values()) and self.verbosity >= 0:
            counts = " and ".join(f"{n} {what}" for what, n in left_out.items() if n)
            click.echo(f"not listed: {counts} of balance.yaml's known: (their reasons are in balance.pdf; -v lists them)")
        return errors

    def begin(self, command: str, doing: str, path: Path, out: Path) -> None:
        """The line a command that writes a game's files starts with, ``building content/x -> output/x``
        (which game, and where its files go: -o and --lang move them), and the task its progress lines in
        a pipe name (``build x``)."""
        self.info(f"{doing} {path} -> {out}")
        self.task = f"{command} {path.name}"

    def info(self, message: str) -> None:
        if self.verbosity >= 0:
            click.echo(message, err=True)

    def detail(self, message: str) -> None:
        if self.verbosity > 0:
            click.echo(message, err=True)

    def progress(self, iterable, label: str, length: int | None = None):
        """A progress bar on a terminal; in a pipe (CI, a log) a plain line now and then; none when quiet."""
        if self.verbosity < 0:
            return _NullBar(iterable)
        if not sys.stderr.isatty():
            return _LineBar(iterable, f"{self.task}: {label}" if self.task else label, length)
        return click.progressbar(iterable, label=label, length=length, file=sys.stderr)


def _grouped(problems):
    """``(problem, n_more)``: problems at the same place that differ only in the card they name
    (a template error in a layout, reported once per card) become their first card's line, by
    card line, with a count of the others."""
    groups: dict = {}
    for problem in problems:
        groups.setdefault((problem.location, problem.field, problem.severity, problem.message), []).append(problem)
    for members in groups.values():
        first = min(members, key=Problem.card_key)
        yield first, len(members) - 1


class _LineBar:
    """A progress bar for a pipe: a minute of work there printed nothing, which reads as a hang in a CI
    log. A plain line (no bar, no carriage return: a log keeps every character) at most every
    ``EVERY`` seconds, none for work shorter than that: ``validate valheim: simulating 3200/9600...``."""

    EVERY = 15.0
    clock = staticmethod(time.monotonic)

    def __init__(self, iterable, label: str, length: int | None = None):
        self.iterable, self.label = iterable, label
        self.length = length if length is not None else len(iterable)
        self.done = 0
        self.said = self.clock()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        for item in self.iterable:
            yield item
            self.update(1)

    def update(self, n: int) -> None:
        self.done += n
        if self.clock() - self.said >= self.EVERY:
            self.said = self.clock()
            click.echo(f"{self.label} {self.done}/{self.length}\u2026", err=True)


class _NullBar:
    def __init__(self, iterable):
        self.iterable = iterable

    def __enter__(self):
        return self.iterable

    def __exit__(self, *exc):
        return False


def _set_verbosity(ctx, _param, value):
    if value:  # (ctx.obj is None until ensure_object: `pnp -q build` gives -q before any command)
        obj = ctx.ensure_object(dict)
        obj["verbosity"] = obj.get("verbosity", 0) + value


verbose_option = click.option("-v", "--verbose", count=True, expose_value=False, callback=_set_verbosity,
                              help="Say more (repeat for even more).")
quiet_option = click.option("-q", "--quiet", "quiet", count=True, expose_value=False,
                            callback=lambda ctx, p, v: _set_verbosity(ctx, p, -v), help="Only print problems.")


def common_options(func):
    return verbose_option(quiet_option(func))


def _check_lang(_ctx, _param, value):
    from .content.schema import LANG

    if value is not None and not LANG.fullmatch(value):
        raise click.BadParameter(f"{value!r} is not a language: two lower-case letters, as game.yaml's lang (ja, en)")
    return value


lang_option = click.option(
    "--lang", default=None, metavar="XX", callback=_check_lang,
    help="Print the edition in this language (two letters, e.g. en) instead of game.yaml's lang; its outputs go to"
         " output/<game>/<XX>/ (texts without it print in ja, else their first language).")


def reporter() -> Reporter:
    ctx = click.get_current_context()
    root = ctx.find_root()
    verbosity = (root.obj or {}).get("verbosity", 0)
    return Reporter(verbosity)


def content_root() -> Path:
    return Path("content")


def known_games() -> list[str]:
    root = content_root()
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file()) if root.is_dir() else []


def resolve_game(name: str) -> Path:
    """GAME is a name under ./content or a path to a game directory."""
    as_path = Path(name)
    if (as_path / "game.yaml").is_file():
        return as_path
    candidate = content_root() / name
    if (candidate / "game.yaml").is_file():
        return candidate
    known = ", ".join(known_games()) or "none under ./content"
    if as_path.is_dir():
        raise click.BadParameter(f"{name!r} has no game.yaml", param_hint="GAME")
    raise click.BadParameter(f"unknown game {name!r}; known games: {known} (or give a path to a game directory)",
                             param_hint="GAME")


def resolve_games(names) -> list[Path]:
    if names:
        return [resolve_game(n) for n in names]
    games = known_games()
    if not games:
        raise click.UsageError("no games under ./content; give a path to a game directory")
    return [content_root() / g for g in games]


def _report_failure(exc: GeneratorError) -> int:
    """Print what a GeneratorError says (its located problems, or one line); the errors counted."""
    if isinstance(exc, ProblemsError):
        return reporter().problems(exc.problems)
    click.echo(f"error: {exc}", err=True)
    return 1


def each_game(func, path: Path, failed_tail: str = ""):
    """``func()`` for one game of several: a game whose content cannot load gets its problems and
    a FAILED line, and the next game still runs (``None`` returned instead of exiting)."""
    try:
        return func()
    except GeneratorError as exc:
        errors = _report_failure(exc)
    rep = reporter()
    rep.failed = True
    rep.info(f"{path}: FAILED ({errors} error(s) above){failed_tail}")
    return None


def run_reporting(func):
    """Turn GeneratorErrors into printed problems and exit code 1."""
    try:
        return func()
    except GeneratorError as exc:
        _report_failure(exc)
        raise SystemExit(1) from None


class _Commands(click.Group):
    """The command group: Ctrl-C ends any command with the shell's exit code for it (128 + SIGINT),
    not click's 1, which a script could not tell from "problems found"."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\ninterrupted (no output is left half-written)", err=True)
            ctx.exit(130)

    def list_commands(self, ctx):
        return sorted({*self.commands, *_LAZY})

    def get_command(self, ctx, name):
        # A command's module is imported when the command is asked for; a name that is no command imports
        # them all, so that click's "Did you mean" is chosen among every command.
        wanted = [name] if name in _LAZY else [] if name in self.commands else list(_LAZY)
        for lazy in wanted:
            if lazy not in self.commands:
                from importlib import import_module

                self.add_command(getattr(import_module(f".commands.{_LAZY[lazy]}", __package__), lazy))
        return super().get_command(ctx, name)


def _print_version(ctx, _param, value):
    """``pnp --version``: the version, and which engines run compiled (``pnp accelerate``)."""
    if not value or ctx.resilient_parsing:
        return
    from .sim.accelerate import version_note

    click.echo(f"pnp, version {__version__}")
    click.echo(version_note())
    ctx.exit()


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version (and which simulators run compiled) and exit.")
@common_options
@click.pass_context
def main(ctx):
    """Print-and-play generator: game data in, print sheets, rulebooks and verdicts out."""
    ctx.ensure_object(dict)


@main.command("list")
@common_options
def list_command():
    """List the games under ./content."""
    from .content import load_game

    if not known_games():  # like build and validate: a usage error, not an empty list that looks fine
        raise click.UsageError("no games under ./content; run pnp in a project folder (content/<game>/game.yaml)")
    for name in known_games():
        try:
            game = load_game(content_root() / name)
            click.echo(f"{name}\t{game.title}\t{sum(c.found for c in game.components)} pieces")
        except ProblemsError as exc:
            click.echo(f"{name}\t(invalid: {len(exc.problems)} problem(s); run `pnp validate {name}`)")


@main.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.option("--profile", default=None, help="Count pages for this sheet profile (default: the game's).")
@common_options
def manifest(game, as_json, profile):
    """Components of GAME with declared and found counts."""
    from .manifest import manifest_of

    path = resolve_game(game)
    data = run_reporting(lambda: manifest_of(path, profile))
    counts = data.pop("_problems")  # after the table: the counts it shows are what a designer compares
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        _print_manifest(data)
    if counts:
        _report_failure(ProblemsError(counts))
        raise SystemExit(1)


def _print_manifest(data: dict) -> None:
    click.echo(f"{data['game']}")
    sizes = [f"{w:g}x{h:g} mm" for w, h in (c["size_mm"] for c in data["components"])]
    size_width = max(map(len, sizes), default=0)  # a board's 420x297 mm beside a card's 63x88 mm
    for c, size in zip(data["components"], sizes):
        expected = "-" if c["expected"] is None else c["expected"]
        mark = "" if c["expected"] in (None, c["found"]) else "   <-- mismatch"
        click.echo(f"  {c['id']:<20} {c['kind']:<6} {size:<{size_width}}  expected {expected:>4}  found {c['found']:>4}"
                   f"  pages {c['pages']}{mark}")
    click.echo(f"  total cards: {data['total_cards']}")
    texts = data["texts"]
    languages = ", ".join(f"{lang} {n}" for lang, n in texts["languages"].items()) or "none"
    click.echo(f"  texts: {texts['count']} ({texts['plain']} plain, printed as written; per language: {languages})")
    click.echo(f"  print file: {data['print_pages']} pages (a page components share counted once)")


@main.command()
@click.argument("games", nargs=-1)
@click.option("--no-balance", is_flag=True, help="Skip the simulated balance check (content and fit only).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Simulation worker processes.")
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of the balance report (default: output/<game>/, where `pnp build` looks for it).")
@lang_option
@common_options
def validate(games, no_balance, workers, output_dir, lang):
    """Check content, layouts, text fit and (simulated) balance of GAMES (default: all)."""
    from .validate import validate_game

    rep = reporter()
    failed = False
    for path in resolve_games(games):
        rep.info(f"validating {path} ...")
        rep.task = f"validate {path.name}"
        # as `pnp build` names them; every edition's (--lang) balance is the game's, in the game's folder
        out = _output_dir(output_dir, path, several=len(games) != 1, edition=False)
        edition = _output_dir(output_dir, path, several=len(games) != 1, lang=lang)  # its last build's lock
        result = each_game(lambda: validate_game(path, balance=not no_balance, workers=workers, reporter=rep,
                                                 output_dir=out, lang=lang, lock_dir=edition), path)
        if result is None:
            failed = True
            continue
        errors = rep.problems(result.problems)
        for where, field_path, has in result.untranslated:
            rep.detail(f"{where.display()}: {field_path}: only {', '.join(has)}")
        for line in result.unjudged:
            rep.detail(line)
        if result.table:
            click.echo(result.table)
        for line in result.notes:
            click.echo(line)
        failed = failed or not result.passed
        counted = f"{errors} error(s) above; " if errors else ""  # as when the content does not load
        rep.info(f"{path}: {'ok' if result.passed else 'FAILED'} ({counted}{result.summary})")
    raise SystemExit(1 if failed else 0)


@main.command()
@click.argument("games", nargs=-1)
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory (default: output/<game>/).")
@click.option("--profile", default=None, help="Sheet profile (layouts/profiles/<name>.yaml), e.g. letter-portrait.")
@click.option("--no-validate", "--no-balance", "no_validate", is_flag=True,
              help="Skip the simulated balance check and print anyway (content, layouts and text fit are still"
                   " checked; --no-balance as in pnp validate).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Simulation worker processes.")
@click.option("--proof", is_flag=True, help="Write print-<paper>-proof.pdf (trim, bleed, safe-zone lines and card ids) instead of the print file.")
@click.option("--changed-since", "changed_since", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="An earlier print.lock.json: also write errata.pdf with only new or changed cards.")
@click.option("--paper-sized-boards", "paper_sized", type=click.Choice(["full", "tiled", "fit"]), default=None,
              help="How a board the size of the paper prints (overrides each board's paper_sized): full = edge to"
                   " edge, no crop marks, the printer's margin is lost (default); tiled = split onto pages with"
                   " overlaps and marks; fit = scaled to the printable area, the scale in the page label (not for"
                   " boards that cards are laid on).")
@lang_option
@common_options
def build(games, output_dir, profile, no_validate, workers, proof, changed_since, paper_sized, lang):
    """Build print-ready PDFs of GAMES (default: every game under ./content)."""
    from .build import build_game

    rep = reporter()
    failed = False
    paths = resolve_games(games)
    if changed_since and len(paths) != 1:
        raise click.UsageError("--changed-since compares one game's lock: name exactly one GAME")
    for path in paths:
        game_dir = _output_dir(output_dir, path, several=len(games) != 1, edition=False)  # every edition's verdict
        out = _output_dir(output_dir, path, several=len(games) != 1, lang=lang)
        rep.begin("build", "building", path, out)
        result = each_game(lambda: build_game(path, out, profile=profile, validate=not no_validate,
                                              workers=workers, reporter=rep, proof=proof,
                                              changed_since=changed_since, paper_sized=paper_sized, lang=lang,
                                              verdict_dir=game_dir),
                            path, f": no print file written{_kept(out)}")
        if result is None:
            failed = True
            continue
        errors = rep.problems(result.problems)
        for line in result.notes:
            click.echo(line)
        for written in result.written:
            rep.info(f"  wrote {written}")
        if not result.ok:
            rep.info(f"{path}: FAILED ({errors} error(s) above): no print file written{_kept(out)}")
        elif result.summary:  # as validate ends a game
            rep.info(f"{path}: ok ({result.summary})")
        failed = failed or not result.ok
    raise SystemExit(1 if failed else 0)


def _kept(out: Path) -> str:
    """Said after a failed build when an earlier build's print file is there: it was not touched."""
    earlier = sorted(p.name for p in out.glob("print*.pdf")) if out.is_dir() else []
    return f" ({', '.join(earlier)}: left as {'it was' if len(earlier) == 1 else 'they were'})" if earlier else ""


def _output_dir(option: Path | None, game_path: Path, several: bool, lang: str | None = None,
                edition: bool = True) -> Path:
    """``-o DIR`` is the output folder of one game; with several games each gets DIR/<game>. Without
    it, an edition in another language than game.yaml's (``--lang``) gets output/<game>/<lang>, so that
    the editions never overwrite each other. ``edition``: the folder the command writes the edition's
    files to, where another game folder's last build is said (``_note_another_games``); False for the
    game's folder a command also asks for (where every edition's verdict is), so it is said once."""
    name = game_path.resolve().name
    if option is None:
        from .content.game import written_lang

        game_dir = Path("output") / name
        out = game_dir / lang if lang and lang != written_lang(game_path) else game_dir
    else:
        out = option / name if several else option
    if edition:
        _note_another_games(out, game_path)
    return out


def _note_another_games(out: Path, game_path: Path) -> None:
    """Outputs are named by the game folder's name, so a copy of a game in a folder of the same name
    (/a/foo, then /b/foo: a sabotaged copy, an experiment) writes where the other's last build is. Said,
    not refused: the copy's run is what the user asked for, and outputs are rebuilt from content; the
    other's print lock is not compared with this game's cards (``drift_since_last_build``)."""
    from .outputs import SOURCE_FILE, other_source

    other = other_source(out, game_path)
    if other is not None:
        click.echo(f"note: {out} holds the last build of {other} ({out / SOURCE_FILE}), another game folder "
                   f"named {other.name!r}: this run of {game_path} replaces its files there and is not compared "
                   f"with its print lock; give -o DIR to keep both", err=True)


#: commands in modules of their own (generator/commands/<module>.py), command -> module: imported when
#: run or listed (`pnp --help`), not by every `pnp build` (the simulator's command among them)
_LAZY = {"simulate": "simulate", "rulebook": "rulebook", "export": "export", "calibrate": "export",
         "watch": "watch", "new": "new", "accelerate": "accelerate"}


if __name__ == "__main__":  # pragma: no cover
    main()
