"""The optional ``content/<game>/rulebook/rulebook.yaml`` and its closed schema.

The schema lives in Python (not a data file) so it ships with the package without extra
package-data configuration.
"""
from __future__ import annotations

from pathlib import Path

from ..content.game import leaves_game
from ..content.schema import Context, Spec, compile_schema, validate
from ..content.yamlload import NodeBudget, parse_file, parse_text
from ..errors import ContentError, Location, Problem
from .wording import placeholder_problems, words_schema

SCHEMA = """\
# The optional content/<game>/rulebook/rulebook.yaml: what the generated parts of a rulebook
# cannot take from the card data (cover lines, which cards the cover shows, what each keyword means).
types:
  rulebook:
    fields:
      subtitle: {type: text, optional: true, doc: "the line under the title on the cover (default: Rulebook in the game's language)"}
      tagline: {type: text, optional: true, doc: one sentence on the cover}
      accent: {type: color, optional: true, doc: "the rulebook's accent colour (headings, rules, numbers)"}
      facts:
        type: list
        default: []
        doc: short facts on the cover, e.g. "1〜4人"; Jinja2 is allowed, as in the Markdown
        items: {type: text}
      cover:
        type: list
        default: []
        doc: cards shown on the cover, as component/card-id
        items: {type: str, pattern: "^[a-z0-9_-]+/[a-z0-9_-]+$", doc: "write component/card-id, e.g. heroes/knight"}
      keywords:
        type: dict
        default: {}
        doc: >-
          icon name -> what the keyword means; the glossary lists every icon the card texts use,
          with its label from icons.yaml and this text
        keys: {type: str, pattern: "^[a-z0-9_-]+$"}
        values: {type: keyword}
      words:
        type: map
        default: {}
        doc: >-
          the rulebook's own words (the default subtitle, 目次/Contents, table headings, box titles),
          one by one, each a string (every edition) or {ja: ..., en: ...} (the editions it names); the rest
          follow the edition's language (Japanese or English built in, English for any other)
        fields:
{WORDS}
  keyword:
    fields:
      text: {type: text, doc: the rule in one or two sentences (Markdown inline and Jinja2 allowed)}
      label: {type: text, optional: true, doc: overrides the icon's label}
""".replace("{WORDS}", words_schema())

_SCHEMA_PATH = "<generator>/rulebook/config.py"


def load_config(game_root: Path, problems: list, lang: str | None = None, written_lang: str | None = None) -> dict:
    """The validated rulebook.yaml (``{}`` when absent); problems are appended, located. With the
    edition's ``lang`` and game.yaml's ``written_lang``, ``_untranslated`` lists the texts that edition
    prints in another language (as content's do: a plain string with words of ``written_lang``, or a
    per-language text without ``lang``)."""
    path = Path(game_root) / "rulebook" / "rulebook.yaml"
    if not path.is_file():
        return {}
    if leaves_game(path, game_root):
        problems.append(Problem(Location(str(game_root), 0), "",
                                "'rulebook/rulebook.yaml' leaves the game directory (a link to a file outside it)"))
        return {}
    schema_problems: list = []
    types = compile_schema(parse_text(SCHEMA, _SCHEMA_PATH), _SCHEMA_PATH, schema_problems)
    assert not schema_problems, schema_problems  # our own schema: a bug, not a user error
    try:
        node = parse_file(path)
    except ContentError as exc:
        problems.extend(exc.problems)
        return {}
    if node is None:
        return {}
    ctx = Context(str(path), types, problems, NodeBudget(str(path)), game_root=Path(game_root), lang=lang,
                  written_lang=written_lang)
    try:
        value = validate(node, Spec("rulebook"), ctx, "")
    except ContentError as exc:
        problems.extend(exc.problems)
        return {}
    value = dict(value or {})
    lines = _top_level_lines(node)
    for key, message in placeholder_problems(value.get("words") or {}):
        line = lines.get(f"words.{key.split('.')[0]}", 0)  # a language's spelling: the word's line
        problems.append(Problem(Location(str(path), line), f"words.{key}", message))
    value["_untranslated"] = ctx.untranslated
    value["_locations"] = ctx.locations
    value["_path"] = str(path)
    value["_lines"] = lines
    return value


def _top_level_lines(node) -> dict:
    """Line of each top-level value (``cover``, ``tagline``, ...) and of each list item
    (``cover[1]``, ``facts[0]``) or mapping entry (``words.contents``): the located place of a problem found after validation."""
    import yaml

    lines: dict = {}
    if not isinstance(node, yaml.MappingNode):
        return lines
    for key_node, value_node in node.value:
        key = str(key_node.value)
        lines[key] = value_node.start_mark.line + 1
        if isinstance(value_node, yaml.SequenceNode):
            for i, item in enumerate(value_node.value):
                lines[f"{key}[{i}]"] = item.start_mark.line + 1
        elif isinstance(value_node, yaml.MappingNode):  # words.version, keywords.guard
            for child_key, child in value_node.value:
                lines[f"{key}.{child_key.value}"] = child.start_mark.line + 1
    return lines
