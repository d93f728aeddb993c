"""``pnp watch GAME``: rebuild the print file (and the exports asked for) whenever content,
layouts or art change, printing problems and the cards that changed as they appear."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..cli import _output_dir, common_options, lang_option, reporter, resolve_game


@click.command()
@click.argument("game")
@click.option("--interval", type=click.FloatRange(0.05, 60), default=1.0, show_default=True,
              help="Seconds between polls of the files' modification times.")
@click.option("--once", is_flag=True, help="Build once and exit (same as --max-cycles 1).")
@click.option("--max-cycles", type=click.IntRange(1), default=None,
              help="Exit after this many builds (the first build counts).")
@click.option("--balance", is_flag=True, help="Run the simulated balance check on every build (slow).")
@click.option("--profile", default=None, help="Sheet profile for the print file.")
@click.option("--png", is_flag=True, help="Also re-export PNGs (only changed faces are rendered again).")
@click.option("--png-profile", default=None, help="Export profile for --png.")
@click.option("--tts", is_flag=True, help="Also re-export the Tabletop Simulator decks.")
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory (default: output/<game>/).")
@lang_option
@common_options
def watch(game, interval, once, max_cycles, balance, profile, png, png_profile, tts, output_dir, lang):
    """Rebuild GAME when its content, layouts or art change (Ctrl-C to stop)."""
    from ..export.watch import SaidWarnings, WatchLoop, snapshot, watch_roots

    path = resolve_game(game)
    out = _output_dir(output_dir, path, several=False, lang=lang)
    game_dir = _output_dir(output_dir, path, several=False, edition=False)  # where every edition's verdict is
    rep = reporter()
    state = {"lock": _read_lock(out), "failed": False, "warnings": SaidWarnings()}

    def build(changed):
        if changed:
            shown = ", ".join(_rel(p) for p in changed[:5]) + (f" (+{len(changed) - 5} more)" if len(changed) > 5 else "")
            click.echo(f"changed: {shown}")
            if not balance and any(Path(p).suffix == ".py" for p in changed):
                click.echo("note: the simulator's code is not played without --balance (pnp watch GAME --balance)")
        state["failed"] = not _rebuild(path, out, rep, state, balance=balance, profile=profile,
                                       png=png, png_profile=png_profile, tts=tts, lang=lang, verdict_dir=game_dir)

    loop = WatchLoop(lambda: watch_roots(path), build, interval=interval, max_cycles=1 if once else max_cycles,
                     scan=lambda roots: snapshot(roots, exclude=[out]),  # -o inside the game: no endless rebuilds
                     on_wait=lambda: rep.info(f"watching {path} (Ctrl-C to stop) ..."))
    try:
        loop.run()
    except KeyboardInterrupt:
        click.echo("stopped")
        raise SystemExit(0) from None
    raise SystemExit(1 if state["failed"] else 0)


def _rebuild(path, out, rep, state, *, balance, profile, png, png_profile, tts, lang=None, verdict_dir=None) -> bool:
    """One build (and exports) of the ``lang`` edition; prints problems and changed cards; True when it
    succeeded."""
    from ..build import build_game
    from ..errors import GeneratorError, ProblemsError
    from ..export.lock import diff_locks

    try:
        result = build_game(path, out, profile=profile, validate=balance, reporter=rep, lang=lang,
                            verdict_dir=verdict_dir, unchecked="watched without --balance")
    except ProblemsError as exc:
        errors = _say_problems(rep, state, exc.problems, complete=False)  # a layout mistake on every card: one line
        click.echo(f"FAILED: {errors} problem(s) above; outputs kept from the last good build")
        return False
    except GeneratorError as exc:
        click.echo(f"error: {exc}")
        return False
    errors = _say_problems(rep, state, result.problems, complete=result.ok)
    for note in result.notes:  # as pnp build says them: a refused verdict's next steps, a stale booklet
        click.echo(note)
    if not result.ok:
        click.echo(f"FAILED: {errors} problem(s) above; outputs kept from the last good build")
        return False
    lock = _read_lock(out)
    if state["lock"] is not None and lock is not None:
        diff = diff_locks(state["lock"], lock)
        if diff.empty:
            click.echo("built: no card changed")
        else:
            for line in diff.lines():
                click.echo(line.replace("errata: ", "cards: ", 1))
    state["lock"] = lock
    ok = True
    if png or tts:
        from ..export.run import run_export
        try:
            exported = run_export(path, out, png=png, tts=tts, profile=png_profile, lang=lang)
        except GeneratorError as exc:
            click.echo(f"error: {exc}")
            return False
        rep.problems(exported.problems)
        for note in exported.notes:
            click.echo(note)
        ok = exported.ok
        if png:
            rep.info(f"  exports: {len(exported.written)} file(s) written, {exported.unchanged} unchanged")
    for written in result.written:
        rep.detail(f"  wrote {written}")
    # the summary says whether the balance verdict was played or kept, the question after every edit
    click.echo(f"ok: {', '.join(Path(w).name for w in result.written)}" + (f" ({result.summary})" if result.summary else ""))
    return ok


def _say_problems(rep, state, problems, complete: bool) -> int:
    """Print the build's problems, its warnings only when not said before this session (``SaidWarnings``);
    the number of error lines printed."""
    fresh, standing, gone = state["warnings"].sift(problems, complete)
    errors = rep.problems(fresh)
    for problem in gone:  # its first clause is enough to tell which: the whole was said when it came
        where = f"{problem.location.display()}: {problem.field}:" if problem.field else f"{problem.location.display()}:"
        click.echo(f"no longer warned: {where} {problem.message.split(': ', 1)[0].split('. ', 1)[0]}")
    if standing:
        click.echo(f"({standing} warning(s) said before still stand)")
    return errors


def _read_lock(out: Path):
    from ..export.lock import LOCK_NAME

    try:
        return json.loads((Path(out) / LOCK_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _rel(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
