"""``pnp rulebook GAME``: the rulebook PDF (and a saddle-stitch booklet) from the game's data."""
from __future__ import annotations

from pathlib import Path

import click

from ..cli import _output_dir, common_options, lang_option, reporter, resolve_game, run_reporting


@click.command()
@click.argument("game")
@click.option("--booklet", is_flag=True,
              help="Also write rulebook-booklet.pdf: pages imposed 2-up on landscape sheets for saddle "
                   "stitching (print duplex, flip on the short edge, fold, staple).")
@click.option("--sheet", "--profile", "sheet", default=None, metavar="PROFILE",
              help="Sheet profile whose paper the booklet is printed on (layouts/profiles/<name>.yaml, as "
                   "pnp build --profile), e.g. letter-portrait for US Letter; default: the game's. On "
                   "other paper than the game's the booklet is rulebook-booklet-<paper>.pdf "
                   "(rulebook-booklet-letter.pdf).")
@click.option("--paper", type=click.Choice(["a5", "a4"]), default="a5", show_default=True,
              help="Page size of rulebook.pdf.")
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory (default: output/<game>/).")
@lang_option
@common_options
def rulebook(game, booklet, sheet, paper, output_dir, lang):
    """Write output/<game>/rulebook.pdf from content/<game>/rulebook/*.md and the game's data."""
    from ..progress import progress_callback
    from ..rulebook import build_rulebook, stale_booklet_note

    if sheet and not booklet:
        raise click.UsageError("--sheet picks the paper of the booklet: use it with --booklet")
    path = resolve_game(game)
    out = _output_dir(output_dir, path, several=False, lang=lang)
    rep = reporter()
    rep.begin("rulebook", "writing the rulebook of", path, out)
    warnings: list = []
    with progress_callback(rep, "laying out chapters") as progress:
        written = run_reporting(lambda: build_rulebook(path, out, booklet=booklet, paper=paper, sheet=sheet,
                                                       problems=warnings, progress=progress, lang=lang))
    rep.problems(warnings)
    for item in written:
        rep.info(f"  wrote {item}")  # under its header, as build's
    # an earlier run's booklet (on this paper when this run made none, on another when it did)
    if note := stale_booklet_note(out, written[1].name if booklet and len(written) > 1 else None):
        click.echo(note)
