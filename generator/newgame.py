"""``pnp new``: a new game that validates and builds as it is, to grow from.

The files come from ``generator/scaffold/``: ``content/`` and ``layouts/`` for every language, and
``<lang>/`` for what is written in the game's language (the cards, the rulebook). Placeholders
``__GAME__``, ``__TITLE__`` and ``__LANG__`` are the only things filled in: the files read as what
they are, YAML and Markdown, not templates of templates.

``--simulator`` lays ``simulator/`` over them, its folders mirroring the ones above: a file there
replaces the file of the same name (the cards gain a ``power``, game.yaml reads ``rules.yaml``) or
is added (``sim.py``, ``rules.yaml``, ``balance.yaml``, a rulebook chapter on the rules it plays).
"""
from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from .content.schema import LANG
from .errors import GeneratorError

SCAFFOLD = Path(__file__).parent / "scaffold"
#: the sample cards and rulebook are written in these; a game in another language gets the English ones
SAMPLES = ("ja", "en")
#: a game's name is its directory under content/ and layouts/, and its id in messages
NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


class NewGameError(GeneratorError):
    """The new game cannot be written where asked (nothing was written)."""


def new_game(name: str, root: Path, *, title: str | None = None, lang: str = "ja",
             simulator: bool = False) -> list[Path]:
    """Write ``content/<name>/`` and ``layouts/<name>/`` under ``root``; the directories written.
    ``simulator``: the sample game comes with its own simulator and balance bands (docs/simulator.md).

    Refuses a bad name, an unknown language and an existing directory before writing anything;
    each directory appears whole or not at all (written beside it, then renamed)."""
    if not NAME.fullmatch(name):
        raise NewGameError(f"game name {name!r}: use lower-case letters, digits, '-' and '_'"
                           f" (it names the folders content/{name}/ and layouts/{name}/)")
    if not LANG.fullmatch(lang):
        raise NewGameError(f"language {lang!r}: expected two lower-case letters, as game.yaml's lang (ja, en, fr...)")
    targets = {"content": root / "content" / name, "layouts": root / "layouts" / name}
    for target in targets.values():
        if target.exists():
            raise NewGameError(f"{target} already exists; nothing written (pick another name)")
    fill = {"__GAME__": name, "__LANG__": lang,
            # a JSON string is a YAML double-quoted scalar: any title stays one value
            "__TITLE__": json.dumps(title or name, ensure_ascii=False)}
    sample = lang if lang in SAMPLES else "en"
    layers = [SCAFFOLD, SCAFFOLD / "simulator"] if simulator else [SCAFFOLD]
    sources = {"content": [layer / part for layer in layers for part in ("content", sample)],
               "layouts": [layer / "layouts" for layer in layers]}
    written: list[Path] = []
    try:
        for key, target in targets.items():
            _write_dir(target, sources[key], fill)
            written.append(target)
    except BaseException:
        for done in written:  # the pair or nothing: a lone content/ would not build
            shutil.rmtree(done, ignore_errors=True)
        raise
    return written


def _write_dir(target: Path, sources: list[Path], fill: dict[str, str]) -> None:
    """``sources`` in order into ``target``: a later source's file replaces an earlier one's."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for source in sources:
            for path in sorted(source.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:  # the sample engine, once imported
                    out = staging / path.relative_to(source)
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_text(_filled(path.read_text(encoding="utf-8"), fill), encoding="utf-8")
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _filled(text: str, fill: dict[str, str]) -> str:
    for placeholder, value in fill.items():
        text = text.replace(placeholder, value)
    return text
