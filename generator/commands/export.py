"""``pnp export GAME``: print-on-demand PNGs, Tabletop Simulator decks, gutterfold sheets and the
duplex calibration page; ``pnp calibrate``: the calibration page alone."""
from __future__ import annotations

from pathlib import Path

import click

from ..cli import _output_dir, common_options, each_game, lang_option, reporter, resolve_game, run_reporting

FOLDS = ("vertical", "horizontal")


@click.command()
@click.argument("game")
@click.option("--png", is_flag=True, help="One PNG per distinct face (fronts, each distinct back) with bleed.")
@click.option("--profile", default=None,
              help="Export profile for --png (layouts/profiles/export/<name>.yaml): png-300 (default), tgc-poker ...")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets (<= 10x7, <= 4096 px) and a saved-object JSON.")
@click.option("--tts-base-url", default="", metavar="URL",
              help="Prefix of the image URLs in the TTS JSON (where you uploaded tts/*.png); default: bare file names.")
@click.option("--gutterfold", type=click.Choice(FOLDS), default=None,
              help="Fold-and-glue sheets, printed single-sided: vertical (landscape) or horizontal (portrait) fold.")
@click.option("--calibration", is_flag=True, help="Also write the duplex calibration page (see `pnp calibrate`).")
@click.option("--showcase", is_flag=True,
              help="A few cards of each component fanned like a hand, on a transparent PNG (showcase-<component>.png).")
@click.option("--card", "card_ids", multiple=True, metavar="ID",
              help="For --showcase: show this card (repeatable; default: the first 7 of each component).")
@click.option("--sheet", default=None,
              help="Sheet profile for --gutterfold/--calibration (layouts/profiles/<name>.yaml; default: the game's).")
@click.option("--dpi", type=click.IntRange(18, 1200), default=None,
              help="PNG resolution (overrides the export profile; PNGs at another dpi than the profile's go to"
                   " png/<profile>-<dpi>dpi/, png-300's to png/png-<dpi>dpi/, beside the profile's own) / the TTS"
                   " resolution cap (default 300) / the showcase resolution (default 150).")
@click.option("--component", "components", multiple=True, metavar="ID", help="Only this component (repeatable).")
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory (default: output/<game>/).")
@lang_option
@common_options
def export(game, png, profile, tts, tts_base_url, gutterfold, calibration, showcase, card_ids, sheet, dpi, components,
           output_dir, lang):
    """Export GAME for print-on-demand services, Tabletop Simulator or fold-and-glue printing."""
    from ..export.run import run_export

    if not (png or tts or gutterfold or calibration or showcase):
        raise click.UsageError("say what to export: --png, --tts, --gutterfold vertical|horizontal, --calibration,"
                               " --showcase")
    if card_ids and not showcase:
        raise click.UsageError("--card picks the cards of --showcase: use it with --showcase")
    if profile and not png:
        raise click.UsageError("--profile picks the PNG export profile: use it with --png"
                               " (--sheet picks the sheet profile for --gutterfold/--calibration)")
    path = resolve_game(game)
    out = _output_dir(output_dir, path, several=False, lang=lang)
    rep = reporter()
    if components:
        _check_components(path, components)
    rep.begin("export", "exporting", path, out)
    result = each_game(lambda: run_export(path, out, png=png, tts=tts, gutterfold=gutterfold,
                                          calibration=calibration, profile=profile, sheet=sheet, dpi=dpi,
                                          components=components, base_url=tts_base_url, showcase=showcase,
                                          card_ids=card_ids, lang=lang, reporter=rep), path, ": nothing exported")
    if result is None:  # the content did not load: its problems and a FAILED line are printed
        raise SystemExit(1)
    errors = rep.problems(result.problems)
    for note in result.notes:
        click.echo(note)
    for written in result.written:
        rep.detail(f"  wrote {written}")
    for removed in result.removed:
        rep.info(f"  removed {removed} (no longer a face of the game)")
    if result.ok:
        kept = f", {result.unchanged} unchanged" if result.unchanged else ""
        rep.info(f"  wrote {len(result.written)} file(s) under {out}{kept}")
    else:  # as build says it
        tail = "" if result.written else ": nothing exported"
        rep.info(f"{path}: FAILED ({errors} error(s) above){tail}")
    raise SystemExit(0 if result.ok else 1)


@click.command()
@click.argument("game", required=False)
@click.option("--sheet", "--profile", "sheet", default=None,
              help="Sheet profile to calibrate (default: the game's, or a4-portrait without a game).")
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory (default: output/<game>/, or output/ without a game).")
@common_options
def calibrate(game, sheet, output_dir):
    """Write a duplex calibration page: print it double-sided, read two numbers, set back_offset."""
    from ..content import load_game
    from ..export.calibration import where_back_offset_goes
    from ..export.run import sheet_profile, write_calibration

    rep = reporter()
    loaded_game, path = None, None
    if game:
        path = resolve_game(game)
        out = _output_dir(output_dir, path, several=False)
        loaded_game = run_reporting(lambda: load_game(path))
    else:
        out = output_dir or Path("output")
    written = run_reporting(lambda: write_calibration(out, game=loaded_game, sheet=sheet))
    rep.info(f"wrote {written}")
    click.echo("Print both pages duplex at 100 %, hold the sheet to a light, read X and Y on page 2,"
               " then set back_offset: [current + X, current + Y] (mm) "
               + where_back_offset_goes(sheet_profile(loaded_game, sheet), path))


def _check_components(path, components) -> None:
    """An unknown ``--component`` is a usage error (exit 2), found before any face is built."""
    from ..content import load_game

    known = {c.id for c in run_reporting(lambda: load_game(path)).components}
    unknown = [c for c in components if c not in known]
    if unknown:
        raise click.BadParameter(f"unknown component(s) {', '.join(unknown)}; this game has {', '.join(sorted(known))}",
                                 param_hint="--component")
