"""One-change mutations of a game's files, generated from the files themselves (tests/e2e/test_mutations.py).

A mutation is a change to one file of a project (``content/<game>/``, ``layouts/<game>/``), made
only when sampled (a big game has thousands), and what the commands must then say: which file a problem line names, whether it must have a line,
whether the input may still be legal. YAML edits splice the file's text at the node's marks, so the
rest of the file (comments, lines) stays as written; an edit whose text does not parse to the intended
value (a block scalar, a key written twice) is dropped rather than tested as something else.
"""
from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

import yaml

_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the same values; libyaml parses ~10x faster

#: the commands a mutation runs (the test maps each to its pnp arguments)
CHECK = ("validate",)
PRINT = ("validate", "build", "rulebook")
PLAY = ("validate", "simulate")
RULEBOOK = ("validate", "rulebook")

#: what a wrong-typed scalar becomes, by the type of the value it replaces
WRONG = {
    int: ["many", [1, 2], None, 10 ** 30, -1, ""],
    float: ["many", None, 1e300, -1.5, ""],
    bool: ["maybe", None, 7],
    str: [[1, 2], {"a": 1}, None, 10 ** 30, -1, ""],
}


@dataclass(frozen=True)
class Mutation:
    kind: str
    path: str  # the file changed, relative to the project root
    what: str
    names: str  # a problem line must name this file (or a file under this folder, when it ends in /)
    edit: Callable[[], str | bytes | None]  # the file's new text; None when the change cannot be made
    must_fail: bool = True  # False: the changed input may be legal (exit 0 allowed)
    located: bool = True  # the problem line must give a line > 0
    commands: tuple = CHECK

    def new_bytes(self) -> bytes | None:
        new = self.edit()
        return new.encode("utf-8") if isinstance(new, str) else new

    def __str__(self):
        return f"{self.kind} {self.path} ({self.what})"


class Project:
    """The files of one game in a project folder, read once."""

    def __init__(self, root: Path, game: str):
        self.root, self.game = root, game
        self.content = f"content/{game}"
        self.texts = {rel: (root / rel).read_text(encoding="utf-8") for rel in self._files()}
        self.trees = {rel: _compose(text) for rel, text in self.texts.items() if rel.endswith(".yaml")}
        self.values = {rel: yaml.safe_load(text) for rel, text in self.texts.items() if rel.endswith(".yaml")}
        game_yaml = self.values[f"{self.content}/game.yaml"]
        self.records = sorted({rel for comp in game_yaml.get("components", []) for rel in self._glob(comp["file"])})
        self.data = sorted({rel for item in game_yaml.get("data", []) for rel in self._glob(item["file"])})
        self._made: dict = {}

    def mutations(self, kind: str) -> dict:
        """The mutations ``KINDS[kind]`` makes, by their own kind, in the order made (deterministic)."""
        if kind not in self._made:
            self._made[kind] = {}
            for mutation in KINDS[kind](self):
                self._made[kind].setdefault(mutation.kind, []).append(mutation)
        return self._made[kind]

    def _files(self):
        for folder in (self.content, f"layouts/{self.game}"):
            for path in sorted((self.root / folder).rglob("*")):
                if path.suffix in (".yaml", ".md", ".csv") and path.is_file():
                    yield path.relative_to(self.root).as_posix()

    def _glob(self, pattern: str):
        return [p.relative_to(self.root).as_posix() for p in (self.root / self.content).glob(pattern)]

    def yaml_files(self):
        return sorted(self.trees)

    def layouts(self):
        return [rel for rel in self.yaml_files() if rel.startswith("layouts/")]

    def chapters(self):
        return [rel for rel in sorted(self.texts) if rel.startswith(f"{self.content}/rulebook/") and rel.endswith(".md")]

    def commands_for(self, rel: str) -> tuple:
        """Rules and balance reach the simulator; everything reaches the printed files, but a shipped
        game takes a minute to print: its files are checked, its rulebook chapters written."""
        if rel in self.data and self.game_has_engine():
            return PLAY
        if self.prints_cheaply():
            return PRINT
        return RULEBOOK if rel.endswith(".md") else CHECK

    def game_has_engine(self) -> bool:
        return any(str(v.get("engine", "")) for rel, v in self.values.items() if rel.endswith("balance.yaml")
                   and isinstance(v, dict))

    def prints_cheaply(self) -> bool:
        return not self.game_has_engine()  # the shipped games take minutes to print: checked only


# --- YAML text surgery --------------------------------------------------------------------------------

def _compose(text: str, loader=yaml.SafeLoader):
    """The node tree (PyYAML's own loader: its marks count characters), None if the text is no YAML."""
    try:
        return yaml.compose(text, Loader=loader)
    except yaml.YAMLError:
        return None


def walk(node, path=()):
    """``(path, node)`` for every node, depth first (a mapping's keys are not visited)."""
    yield path, node
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from walk(value, path + (_key(key),))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from walk(item, path + (i,))


def _key(node):
    """A mapping key as the loaded data has it (``1:`` is the number 1)."""
    return node.value if node.style else yaml.safe_load(node.value)


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _flow(value) -> str:
    """A value as one line of YAML (JSON is YAML)."""
    return json.dumps(value, ensure_ascii=False)


def _set_in(data, path, value=None, delete=False):
    data = copy.deepcopy(data)
    target = data
    for part in path[:-1]:
        target = target[part]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


def _loads_as(text: str, expected) -> bool:
    try:
        return yaml.load(text, Loader=_FAST) == expected
    except yaml.YAMLError:
        return False


def set_scalar(project: Project, rel: str, path, node, value) -> str | None:
    """The file with the scalar ``node`` (at ``path``) replaced by ``value``; None if the splice fails."""
    text = project.texts[rel]
    old = text[node.start_mark.index:node.end_mark.index]
    new = _splice(text, node.start_mark.index, node.end_mark.index, _flow(value) + ("\n" if old.endswith("\n") else ""))
    return new if _loads_as(new, _set_in(project.values[rel], path, value)) else None


def delete_key(project: Project, rel: str, path, mapping, key_node, value_node) -> str | None:
    text = project.texts[rel]
    start, end = key_node.start_mark.index, value_node.end_mark.index
    if mapping.flow_style:
        rest = text[end:]
        comma = re.match(r"\s*,\s*", rest)
        end += comma.end() if comma else 0
    else:
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip() == "":
            start = line_start
            end = text.find("\n", end - 1 if text[end - 1:end] == "\n" else end)
            end = len(text) if end < 0 else end + 1
    new = _splice(text, start, end, "")
    return new if _loads_as(new, _set_in(project.values[rel], path + (_key(key_node),), delete=True)) else None


def add_key(project: Project, rel: str, path, mapping, key: str, value) -> str | None:
    """The file with ``key: value`` added first in ``mapping``."""
    text = project.texts[rel]
    first = mapping.value[0][0]
    if mapping.flow_style:
        insert = f"{key}: {_flow(value)}, "
    else:
        insert = f"{key}: {_flow(value)}\n" + " " * first.start_mark.column
    new = _splice(text, first.start_mark.index, first.start_mark.index, insert)
    target = _set_in(project.values[rel], path + (key,), value) if path else {key: value, **project.values[rel]}
    return new if _loads_as(new, target) else None


# --- the kinds ------------------------------------------------------------------------------------------

def scalars(tree):
    """``(path, node)`` of every scalar value (not mapping keys)."""
    for path, node in walk(tree):
        if isinstance(node, yaml.ScalarNode) and path:
            yield path, node


def mappings(tree):
    for path, node in walk(tree):
        if isinstance(node, yaml.MappingNode) and node.value:
            yield path, node


def _value_at(data, path):
    for part in path:
        data = data[part]
    return data


def delete_keys(project: Project):
    for rel in project.yaml_files():
        for path, mapping in mappings(project.trees[rel]):
            for key_node, value_node in mapping.value:
                yield Mutation("delete-key", rel, _dotted(path + (_key(key_node),)), rel,
                               partial(delete_key, project, rel, path, mapping, key_node, value_node),
                               must_fail=False, commands=project.commands_for(rel))


def wrong_types(project: Project):
    for rel in project.yaml_files():
        for path, node in scalars(project.trees[rel]):
            for value in WRONG.get(type(_value_at(project.values[rel], path)), []):
                yield Mutation("wrong-type", rel, f"{_dotted(path)}={_flow(value)}", rel,
                               partial(set_scalar, project, rel, path, node, value),
                               must_fail=False, commands=project.commands_for(rel))


def record_ids(project: Project):
    """``(rel, path, node)`` of each record's ``id``."""
    for rel in project.records:
        for path, node in scalars(project.trees[rel]) if rel in project.trees else ():
            if len(path) == 2 and path[1] == "id" and isinstance(path[0], int):
                yield rel, path, node


def duplicate_ids(project: Project):
    """A record's id made its predecessor's."""
    previous = {}
    for rel, path, node in record_ids(project):
        if rel in previous:
            yield Mutation("duplicate-id", rel, f"{_dotted(path)}={previous[rel]}", rel,
                           partial(set_scalar, project, rel, path, node, previous[rel]),
                           commands=project.commands_for(rel))
        previous[rel] = node.value


def dangling_refs(project: Project):
    """Rename a record's id that another value names (the references then point nowhere)."""
    named = {node.value for rel in project.yaml_files() for path, node in scalars(project.trees[rel])
             if path[-1] != "id"}
    for rel, path, node in record_ids(project):
        if node.value in named:
            yield Mutation("dangling-ref", rel, f"{node.value}->{node.value}-renamed", f"{project.content}/",
                           partial(set_scalar, project, rel, path, node, f"{node.value}-renamed"),
                           must_fail=False, commands=project.commands_for(rel))


def broken_syntax(project: Project):
    """An unclosed bracket, a line indented one space more, a tab for an indent."""
    for rel in project.yaml_files():
        commands = project.commands_for(rel)
        plain = next((node for _, node in scalars(project.trees[rel])
                      if node.style is None and node.start_mark.line == node.end_mark.line), None)
        if plain is not None:
            at = plain.start_mark.index
            yield Mutation("yaml-syntax", rel, "unclosed bracket", rel, partial(_broken, project, rel, at, at, "["),
                           commands=commands)
        lines = project.texts[rel].splitlines(keepends=True)
        indented = [i for i, line in enumerate(lines) if re.match(r" +[^\s#]", line)]
        if indented:
            i = indented[len(indented) // 2]
            at = sum(len(line) for line in lines[:i])
            spaces = len(lines[i]) - len(lines[i].lstrip(" "))
            yield Mutation("yaml-syntax", rel, f"bad indent, line {i + 1}", rel,
                           partial(_broken, project, rel, at, at, " "), commands=commands)
            yield Mutation("yaml-syntax", rel, f"tab, line {i + 1}", rel,
                           partial(_broken, project, rel, at, at + spaces, "\t"), commands=commands)


def _broken(project: Project, rel: str, start: int, end: int, new: str) -> str | None:
    """The file spliced, if that really breaks it for pnp's loader (one more space can still be valid
    YAML, and libyaml takes a tab between the items of a flow mapping)."""
    text = _splice(project.texts[rel], start, end, new)
    return text if _compose(text, _FAST) is None else None


def empty_files(project: Project):
    for rel in sorted(project.texts):
        yield Mutation("empty-file", rel, "empty", rel, lambda: b"", must_fail=False, located=False,
                       commands=project.commands_for(rel))


def non_utf8(project: Project):
    """Latin-1 bytes in a comment line in the middle of the file."""
    for rel in sorted(project.texts):
        lines = project.texts[rel].encode().splitlines(keepends=True)
        middle = len(lines) // 2
        new = b"".join(lines[:middle] + [b"# \xff\xfe caf\xe9\n"] + lines[middle:])
        yield Mutation("non-utf8", rel, f"line {middle + 1}", rel, partial(bytes, new), located=False,
                       commands=project.commands_for(rel))


def game_yaml_edits(project: Project):
    """A component's or data table's ``file:`` pointing nowhere; ``expected:`` off by one."""
    rel = f"{project.content}/game.yaml"
    for path, node in scalars(project.trees[rel]):
        value = _value_at(project.values[rel], path)
        if path[-1] == "file":
            kind, new = "file-nowhere", "nowhere.yaml"
        elif path[-1] == "expected" and isinstance(value, int):
            kind, new = "expected-off-by-one", value + 1
        else:
            continue
        yield Mutation(kind, rel, _dotted(path), rel, partial(set_scalar, project, rel, path, node, new),
                       commands=project.commands_for(rel))


def layout_edits(project: Project):
    """A box with an unknown field, a bad colour, a Jinja syntax error, an unknown ``extends``, an image
    that does not exist."""
    for rel in project.layouts():
        tree, data, commands = project.trees[rel], project.values[rel], project.commands_for(rel)
        if not isinstance(data, dict):
            continue
        for path, node in mappings(tree):
            if len(path) == 2 and path[0] == "boxes":
                yield Mutation("layout-unknown-field", rel, _dotted(path), rel,
                               partial(add_key, project, rel, path, node, "colour_typo", "#ffffff"), commands=commands)
        for path, node in scalars(tree):
            for kind, replacement in _layout_value_edits(project, path, _value_at(data, path)):
                # a colour in vars may be reported where a box uses it, in this or a child layout
                names = f"layouts/{project.game}/" if kind == "layout-bad-colour" and path[0] == "vars" else rel
                yield Mutation(kind, rel, f"{_dotted(path)}={replacement}", names,
                               partial(set_scalar, project, rel, path, node, replacement), commands=commands)
        boxes = tree_path(tree, ("boxes",))
        if isinstance(boxes, yaml.SequenceNode) and boxes.value and not boxes.flow_style:
            yield Mutation("missing-art", rel, "image src: art/missing.png", rel,
                           partial(_with_missing_image, project, rel, boxes.value[0]), commands=commands)


def _layout_value_edits(project: Project, path, value):
    if not isinstance(value, str):
        return []
    if path[0] == "extends":
        return [("layout-unknown-extends", f"{project.game}/nowhere")]
    if re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}", value):
        return [("layout-bad-colour", "#12345g"), ("layout-bad-colour", "reddish")]
    if "{{" in value and "}}" in value:
        return [("layout-jinja-syntax", value.replace("}}", "", 1)), ("layout-jinja-syntax", value.replace("{{", "{{ (", 1))]
    return []


def _with_missing_image(project: Project, rel: str, first_box) -> str | None:
    """The layout with an image box whose file does not exist, before its first box."""
    text = project.texts[rel]
    line_start = text.rfind("\n", 0, first_box.start_mark.index) + 1
    indent = text[line_start:first_box.start_mark.index]  # "  - " or "- "
    box = "{id: fuzz-image, type: image, x: 0, y: 0, w: 5mm, h: 5mm, src: art/missing.png}"
    new = _splice(text, line_start, line_start, f"{indent}{box}\n")
    return new if _compose(new) is not None else None


def tree_path(tree, path):
    node = tree
    for part in path:
        if not isinstance(node, yaml.MappingNode):
            return None
        node = next((v for k, v in node.value if k.value == part), None)
    return node


def rulebook_edits(project: Project):
    """A chapter calling an unknown data function; a ``}}`` removed; a ``{{`` never closed."""
    for rel in project.chapters():
        text = project.texts[rel]
        call = re.search(r"\{\{\s*([a-z_]+)\(", text)
        if call:
            yield Mutation("rulebook-unknown-function", rel, call[1], rel,
                           partial(_splice, text, call.start(1), call.end(1), "no_such_function"), commands=project.commands_for(rel))
        close = text.find("}}")
        if close >= 0:
            yield Mutation("rulebook-broken-braces", rel, f"}}}} at {close} removed", rel,
                           partial(_splice, text, close, close + 2, ""), commands=project.commands_for(rel))
        middle = sum(len(line) for line in text.splitlines(keepends=True)[:len(text.splitlines()) // 2])
        yield Mutation("rulebook-broken-braces", rel, "{{ never closed", rel,
                       partial(_splice, text, middle, middle, "値は{{ game.title \n\n"), commands=project.commands_for(rel))


def unknown_icons(project: Project):
    """An inline icon in a card's text that no icons file defines (the first of each records file)."""
    for rel in project.records:
        for path, node in scalars(project.trees[rel]) if rel in project.trees else ():
            value = _value_at(project.values[rel], path)
            if isinstance(value, str) and re.search(r":[a-z_]+:", value):
                yield Mutation("unknown-icon", rel, _dotted(path), rel,
                               partial(set_scalar, project, rel, path, node,
                                       re.sub(r":[a-z_]+:", ":no_such_icon:", value, count=1)),
                               commands=project.commands_for(rel))
                break


#: a valid spreadsheet header's mutations: (what, a function of the header's cells)
CSV_HEADERS = [
    ("unknown column", lambda cells: cells + ["colour_typo"]),
    ("empty column name", lambda cells: cells[:1] + [""] + cells[2:]),
    ("duplicate column", lambda cells: cells[:1] + [cells[0]] + cells[2:]),
    ("no id column", lambda cells: ["ident"] + cells[1:]),
    ("a part under a number", lambda cells: cells[:-2] + [cells[-2] + ".sub", cells[-1]]),
    ("blank header", lambda cells: [""] * len(cells)),
]


def csv_edits(project: Project):
    for rel in sorted(project.texts):
        if rel.endswith(".csv"):
            header, _, rest = project.texts[rel].partition("\n")
            for what, change in CSV_HEADERS:
                new = ",".join(change(header.split(","))) + "\n" + rest
                yield Mutation("csv-bad-header", rel, what, rel, partial(str, new), commands=project.commands_for(rel))


KINDS = {
    "delete-key": delete_keys,
    "wrong-type": wrong_types,
    "duplicate-id": duplicate_ids,
    "dangling-ref": dangling_refs,
    "yaml-syntax": broken_syntax,
    "empty-file": empty_files,
    "non-utf8": non_utf8,
    "game-yaml": game_yaml_edits,
    "layout": layout_edits,
    "rulebook": rulebook_edits,
    "unknown-icon": unknown_icons,
    "csv": csv_edits,
}


def sample(mutations: list, n: int, seed: int = 0) -> list:
    """``(mutation, new bytes)`` of ``n`` of them that can be made, the same ones every run."""
    shuffled = random.Random(seed).sample(mutations, len(mutations))
    made = []
    for mutation in shuffled:
        if len(made) == n:
            break
        new = mutation.new_bytes()
        if new is not None:
            made.append((mutation, new))
    return made


def _dotted(path) -> str:
    return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in path).replace(".[", "[")
