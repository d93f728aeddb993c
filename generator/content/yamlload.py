"""Safe YAML parsing that keeps ``file:line`` on every node.

We stop at PyYAML's *composed* node graph (never constructing arbitrary objects) and
convert to plain values ourselves, so every value we hand on can be traced back to its
line. Aliases are not expanded by composing; the converters count visited nodes so an
alias bomb is refused instead of exhausting memory.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

from ..errors import ContentError, Location, Problem

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000  # visited nodes per file, aliases counted each time they are used


_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml parses ~10x faster; same marks
_BYTE_POSITIONS = _BASE_LOADER is not yaml.SafeLoader  # libyaml's reader errors count UTF-8 bytes, PyYAML's characters


class _Loader(_BASE_LOADER):
    """SafeLoader used only to compose nodes and to construct scalars.

    Booleans are YAML 1.2's ``true``/``false`` only: in YAML 1.1 ``on``, ``off``, ``yes``
    and ``no`` are booleans too, which silently turns an enum value like ``off`` into False.
    """


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in _BASE_LOADER.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


def node_location(path: str, node: yaml.Node) -> Location:
    return Location(path, node.start_mark.line + 1)


def item_location(node, keys, path) -> Location:
    """Location of node[keys...] in a composed file (for problems found after validation); where a key
    is missing, the place of the nearest item there is."""
    current = node
    for key in keys:
        if isinstance(current, yaml.MappingNode):
            current = next((v for k, v in current.value if getattr(k, "value", None) == key), current)
        elif isinstance(current, yaml.SequenceNode) and isinstance(key, int) and key < len(current.value):
            current = current.value[key]
    return node_location(path, current)


def parse_file(path: Path) -> yaml.Node | None:
    """Compose one YAML file; raise ContentError with a located problem if it cannot be read."""
    return parse_text(_read(path), str(path))


def _read(path: Path) -> str:
    where = Location(str(path), 0)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ContentError([Problem(where, "", f"file is {path.stat().st_size // 1024} KiB; "
                                                   f"the limit is {MAX_FILE_BYTES // 1024} KiB")])
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError([Problem(where, "", f"cannot read file: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        line = exc.object.count(b"\n", 0, exc.start) + 1
        raise ContentError([Problem(Location(str(path), line), "",
                                    f"not UTF-8 text ({exc.reason} at byte {exc.start})")]) from None


def parse_text(text: str, path: str) -> yaml.Node | None:
    loader = _Loader(text)
    try:
        return loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text, path) from None
    finally:
        loader.dispose()


class _StreamLoader(_Loader, yaml.composer.Composer):
    """Composes one item of a top-level list at a time (libyaml events, PyYAML's composer),
    so a large card file is never held as a whole node graph."""

    def __init__(self, stream):
        _Loader.__init__(self, stream)
        self.anchors = {}


#: a record file larger than this is composed one item at a time (flat memory for large decks); a
#: smaller one at once by libyaml's own composer, which is faster than PyYAML's Python one
STREAM_CHARS = 256 * 1024


def parse_items(path: Path, not_a_list: str = "expected a YAML list"):
    """Yield the item nodes of a file whose top level is a list.

    Yields nothing for an empty file. A top level that is not a list, a reading error or a
    syntax error raises ContentError, located like ``parse_file``'s.
    """
    text = _read(path)
    if len(text) > STREAM_CHARS:
        yield from _streamed_items(text, str(path), not_a_list)
        return
    node = parse_text(text, str(path))
    if node is None:
        return
    if not isinstance(node, yaml.SequenceNode):
        raise ContentError([Problem(node_location(str(path), node), "", not_a_list)])
    yield from node.value


def _streamed_items(text: str, where: str, not_a_list: str):
    loader = _StreamLoader(text)
    try:
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            return
        loader.get_event()  # document start
        if not loader.check_event(yaml.SequenceStartEvent):
            node = loader.compose_node(None, None)
            raise ContentError([Problem(node_location(where, node), "", not_a_list)])
        loader.get_event()
        while not loader.check_event(yaml.SequenceEndEvent):
            yield loader.compose_node(None, None)
        loader.get_event()
        loader.get_event()  # document end
        if not loader.check_event(yaml.StreamEndEvent):
            event = loader.get_event()
            raise ContentError([Problem(Location(where, event.start_mark.line + 1), "",
                                        SECOND_DOCUMENT)])
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text, where) from None
    finally:
        loader.dispose()


SECOND_DOCUMENT = "expected a single document (found a second '---')"


def _yaml_error(exc: yaml.YAMLError, text: str, path: str) -> ContentError:
    """The located problem for an error PyYAML raised reading ``text`` (the file ``path``)."""
    if isinstance(exc, yaml.MarkedYAMLError):
        return _syntax_error(exc, text, path)
    if isinstance(exc, yaml.reader.ReaderError):
        return _reader_error(exc, text, path)
    return ContentError([Problem(Location(path, 0), "", f"YAML error: {exc}")])


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, path: str) -> ContentError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 0
    if exc.context == "expected a single document in the stream":  # as _streamed_items says it
        return ContentError([Problem(Location(path, line), "", SECOND_DOCUMENT)])
    message = exc.problem or str(exc)
    if exc.context:
        message = f"{message} ({exc.context})"
    if mark and _char_at(text, mark.line, mark.column) == "\t":  # libyaml's message does not show the tab
        message += ": a tab character; YAML indents with spaces only"
    else:
        message += _likely_cause(exc, line)
    return ContentError([Problem(Location(path, line), "", f"YAML syntax error: {message}")])


_OPENERS = {"while parsing a flow mapping": "{", "while parsing a flow sequence": "["}


def _likely_cause(exc: yaml.MarkedYAMLError, line: int) -> str:
    """What a newcomer most likely wrote, for the two messages PyYAML words in its own terms: a ``{`` or
    ``[`` left open (the error shows where the next line begins, not where the bracket is), and a
    key indented unlike its neighbours or an unquoted ``: `` inside a text."""
    opener = _OPENERS.get(exc.context or "")
    if opener and exc.context_mark is not None and exc.context_mark.line + 1 < line:
        closer = "}" if opener == "{" else "]"
        return (f": the '{opener}' of line {exc.context_mark.line + 1} is still open here "
                f"(a '{closer}' missing at the end of a line, or a ',' between two values)")
    if (exc.problem or "").startswith("mapping values are not allowed"):
        return ": a key indented more than the keys beside it, or a text with ': ' in it not quoted (write it in \"...\")"
    return ""


def _char_at(text: str, line: int, column: int) -> str:
    lines = text.splitlines()
    return lines[line][column:column + 1] if line < len(lines) else ""


def _reader_error(exc: yaml.reader.ReaderError, text: str, path: str) -> ContentError:
    """A character YAML does not allow (a NUL, a control character), at its line."""
    before = text.encode("utf-8")[:exc.position] if _BYTE_POSITIONS else text[:exc.position]
    line = before.count(b"\n" if _BYTE_POSITIONS else "\n") + 1
    message = f"unacceptable character #x{exc.character:04x}: {exc.reason}" if isinstance(exc.character, int) \
        else str(exc).split("\n")[0]
    return ContentError([Problem(Location(path, line), "", f"YAML error: {message}")])


_SCALAR_LOADER = _Loader("")


def scalar_value(node: yaml.ScalarNode):
    """The plain Python value of a scalar (int, float, bool, None, str); dates stay strings."""
    if node.tag in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"):
        return node.value
    # Call the constructor directly: construct_object() would cache every node it sees in the
    # shared loader, keeping whole files alive for the life of the process.
    constructor = _SCALAR_LOADER.yaml_constructors.get(node.tag)
    return node.value if constructor is None else constructor(_SCALAR_LOADER, node)


class NodeBudget:
    """Counts nodes visited while converting one file (alias-bomb guard)."""

    def __init__(self, path: str, limit: int = MAX_NODES):
        self.path, self.limit, self.used = path, limit, 0

    def spend(self, node: yaml.Node) -> None:
        self.used += 1
        if self.used > self.limit:
            raise ContentError([Problem(node_location(self.path, node), "",
                                        f"more than {self.limit} values after expanding aliases; refusing (alias bomb?)")])


def mapping_items(node: yaml.MappingNode, path: str, problems: list, field: str):
    """Key/value node pairs with ``<<`` merges applied and duplicate keys reported."""
    seen: dict = {}
    out = []
    for key_node, value_node in _merged(node):
        if not isinstance(key_node, yaml.ScalarNode):
            problems.append(Problem(node_location(path, key_node), field, "mapping keys must be plain values"))
            continue
        key = scalar_value(key_node)
        if type(key) is str:
            key = sys.intern(key)  # every record repeats the same field names: keep one copy
        if key in seen:  # a key written twice in the same mapping
            problems.append(Problem(node_location(path, key_node), _join(field, key),
                                    f"duplicate key (first at line {seen[key]})"))
            continue
        seen[key] = key_node.start_mark.line + 1
        out.append((key, key_node, value_node))
    return out


def _merged(node: yaml.MappingNode):
    own, merged = [], []
    for key_node, value_node in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for source in sources:
                if isinstance(source, yaml.MappingNode):
                    merged.extend(_merged(source))
        else:
            own.append((key_node, value_node))
    own_keys = {k.value for k, _ in own if isinstance(k, yaml.ScalarNode)}
    # Explicit keys win over merged ones; merged duplicates are not "written twice".
    return own + [(k, v) for k, v in merged if not (isinstance(k, yaml.ScalarNode) and k.value in own_keys)]


def _join(field: str, key) -> str:
    return f"{field}.{key}" if field else str(key)


def to_plain(node: yaml.Node, path: str, problems: list, budget: NodeBudget, field: str = ""):
    """Convert a node to plain values with no schema (duplicate keys still reported)."""
    budget.spend(node)
    if isinstance(node, yaml.ScalarNode):
        return scalar_value(node)
    if isinstance(node, yaml.SequenceNode):
        return [to_plain(item, path, problems, budget, f"{field}[{i}]") for i, item in enumerate(node.value)]
    result = {}
    for key, _key_node, value_node in mapping_items(node, path, problems, field):
        result[key] = to_plain(value_node, path, problems, budget, _join(field, key))
    return result


class LocatedStr(str):
    """A string that remembers the file and line it was written at (for template errors)."""

    location: Location


def to_located(node: yaml.Node, path: str, problems: list, budget: NodeBudget, field: str = ""):
    """Like ``to_plain`` but strings are LocatedStr and mappings get a ``__line__`` entry."""
    budget.spend(node)
    if isinstance(node, yaml.ScalarNode):
        value = scalar_value(node)
        if isinstance(value, str):
            value = LocatedStr(value)
            value.location = node_location(path, node)
        return value
    if isinstance(node, yaml.SequenceNode):
        return [to_located(item, path, problems, budget, f"{field}[{i}]") for i, item in enumerate(node.value)]
    result = {"__line__": node.start_mark.line + 1}
    for key, key_node, value_node in mapping_items(node, path, problems, field):
        if isinstance(key, str):  # a problem about a key (unknown, misspelt) points at the key's own line
            key = LocatedStr(key)
            key.location = node_location(path, key_node)
        result[key] = to_located(value_node, path, problems, budget, _join(field, key))
    return result
