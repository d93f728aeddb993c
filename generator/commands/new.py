"""``pnp new NAME``: start a game from a small one that validates and builds as it is."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import click

from ..cli import common_options, reporter, run_reporting
from ..newgame import LANG, NAME


def _check_name(_ctx, _param, value: str) -> str:
    if not NAME.fullmatch(value):  # a usage error (exit 2), before anything is looked at
        raise click.BadParameter(f"{value!r}: {_NAME_RULE}{_suggestion(value)}")
    return value


_NAME_RULE = ("a game's name is the name of its folders content/NAME/ and layouts/NAME/: lower-case letters,"
              " digits, '-' and '_', first a letter or a digit")


def _suggestion(value: str) -> str:
    """What to type instead: a title (``My Game``, ``狐の森``) is given with --title, beside a name
    made of it (``my-game``; ``my-game`` again when none of it is a folder name's letters)."""
    if "/" in value or "\\" in value:  # a path: the game is written under ./content, not where it points
        return "; pnp new writes under the current folder's content/ and layouts/ (cd there first)"
    name = re.sub(r"[^a-z0-9_]+", "-", value.lower()).strip("-_") or "my-game"
    if value.isascii() and not re.search(r"[A-Z\s]", value):  # only a leading '_' or '-': no title in it
        return f"; e.g. pnp new {name}"
    title = f'"{value}"' if not re.search(r'["$`\\!]', value) else shlex.quote(value)
    return f"; for a title, e.g.: pnp new {name} --title {title}"


def _check_lang(value: str) -> str:
    if not LANG.fullmatch(value):
        raise click.BadParameter("two lower-case letters, as game.yaml's lang: ja, en, fr...", param_hint="--lang")
    return value


@click.command()
@click.argument("name", callback=_check_name)
@click.option("--title", default=None, help="The game's title, as printed (default: NAME): any text, e.g. \"My Game\".")
@click.option("--lang", default="ja", show_default=True, callback=lambda _c, _p, v: _check_lang(v),
              help="The game's language, two letters (ja, en, fr...): of the sample cards and rulebook (English"
                   " for a language other than ja and en) and of the words pnp adds.")
@click.option("--simulator", is_flag=True,
              help="Also write the sample game's own simulator (sim.py, rules.yaml, balance.yaml): pnp validate"
                   " then plays it and judges its balance (docs/simulator.md).")
@common_options
def new(name, title, lang, simulator):
    """Start game NAME: content/NAME/ and layouts/NAME/ with sample cards, a back and a rulebook chapter.

    NAME names those folders and the game in every command (pnp build NAME): lower-case letters, digits,
    '-' and '_', first a letter or a digit. The title printed on the cards and the rulebook is --title,
    any text. Nothing is written if either folder exists.

    \b
    Examples:
      pnp new my-game --title "My Game" --lang en
      pnp new kitsune --title "狐の森"
      pnp new dice-race --simulator    (its own simulator: pnp validate plays it)
    """
    from ..newgame import new_game

    written = run_reporting(lambda: new_game(name, Path("."), title=title, lang=lang, simulator=simulator))
    rep = reporter()
    for path in written:
        rep.detail(f"  wrote {path}/")
    rep.info(f"new game {name}: content/{name}/ and layouts/{name}/\n"
             f"next: pnp validate {name}, then pnp build {name} (-> output/{name}/print-a4.pdf, rulebook.pdf)")
    if simulator:
        rep.info(f"its simulator: content/{name}/sim.py (docs/simulator.md); try pnp simulate {name} --players 2")
