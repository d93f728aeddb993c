"""``pnp new NAME``: start a game from a small one that validates and builds as it is."""
from __future__ import annotations

from pathlib import Path

import click

from ..cli import common_options, reporter, run_reporting
from ..newgame import LANG, NAME


def _check_name(_ctx, _param, value: str) -> str:
    if not NAME.fullmatch(value):  # a usage error (exit 2), before anything is looked at
        raise click.BadParameter("use lower-case letters, digits, '-' and '_' (it names the folders"
                                 f" content/{value}/ and layouts/{value}/)")
    return value


def _check_lang(value: str) -> str:
    if not LANG.fullmatch(value):
        raise click.BadParameter("two lower-case letters, as game.yaml's lang: ja, en, fr...", param_hint="--lang")
    return value


@click.command()
@click.argument("name", callback=_check_name)
@click.option("--title", default=None, help="The game's title (default: NAME).")
@click.option("--lang", default="ja", show_default=True, callback=lambda _c, _p, v: _check_lang(v),
              help="The game's language, two letters (ja, en, fr...): of the sample cards and rulebook (English"
                   " for a language other than ja and en) and of the words pnp adds.")
@click.option("--simulator", is_flag=True,
              help="Also write the sample game's own simulator (sim.py, rules.yaml, balance.yaml): pnp validate"
                   " then plays it and judges its balance (docs/simulator.md).")
@common_options
def new(name, title, lang, simulator):
    """Start game NAME: content/NAME/ and layouts/NAME/ with sample cards, a back and a rulebook chapter."""
    from ..newgame import new_game

    written = run_reporting(lambda: new_game(name, Path("."), title=title, lang=lang, simulator=simulator))
    rep = reporter()
    for path in written:
        rep.detail(f"  wrote {path}/")
    rep.info(f"new game {name}: content/{name}/ and layouts/{name}/\n"
             f"next: pnp validate {name}, then pnp build {name} (-> output/{name}/print-a4.pdf, rulebook.pdf)")
    if simulator:
        rep.info(f"its simulator: content/{name}/sim.py (docs/simulator.md); try pnp simulate {name} --players 2")
