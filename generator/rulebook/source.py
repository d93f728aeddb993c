"""Rulebook sources: ``rulebook/*.md`` rendered through sandboxed Jinja2, with line tracking.

Every problem found after rendering (in the Markdown, in a card reference) must still point at
the line of the ``.md`` file the author wrote. Before rendering, each source line that ends
outside a Jinja tag gets an invisible marker carrying its line number; after rendering, every
output line is mapped to the source line of the marker on it (or of the next marker, for the
lines a multi-line expansion produced), and the markers are removed.
"""
from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from pathlib import Path

from jinja2 import FunctionLoader, StrictUndefined, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment

from ..errors import Location, Problem
from ..layout.expr import limited_sandbox, misspelt_filter_hint

MARK_OPEN, MARK_CLOSE = "\ue000", "\ue001"
_MARK = re.compile(f"{MARK_OPEN}(\\d+){MARK_CLOSE}")


class RefError(Exception):
    """A rulebook reference the content cannot satisfy (unknown card, field, icon, ...)."""


@dataclass
class Rendered:
    path: Path                     # the .md file
    text: str                      # rendered Markdown, markers removed
    line_map: list                 # 0-based rendered line -> 1-based source line

    def location(self, rendered_line: int | None) -> Location:
        if rendered_line is None or not self.line_map:
            return Location(str(self.path), 0)
        i = min(max(rendered_line, 0), len(self.line_map) - 1)
        return Location(str(self.path), self.line_map[i])


def source_files(game_root: Path, lang: str | None = None) -> list[Path]:
    """The chapters an edition prints, in file-name order: ``rulebook/<lang>/*.md`` when that folder
    has any (they replace the default chapters, none is mixed in), else the default ``rulebook/*.md``."""
    folder = Path(game_root) / "rulebook"
    return (_chapters(folder / lang) if lang else []) or _chapters(folder)


def own_chapters(game_root: Path, lang: str) -> bool:
    """Whether the ``lang`` edition has chapters of its own (``rulebook/<lang>/*.md``)."""
    return bool(_chapters(Path(game_root) / "rulebook" / lang))


def _chapters(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.md") if p.is_file()) if folder.is_dir() else []


_HEADING_ID = re.compile(r"^(#{1,6}[ \t].*?)\{#([A-Za-z0-9_-]+)((?:[ \t]+[^{}\s]+)*)[ \t]*\}[ \t]*$", re.M)


def protect_heading_ids(source: str) -> str:
    """``## Title {#id}`` (or ``{#id -}``) would open a Jinja comment: write it as ``{ #id }``
    (``{ #id - }``), on the same line."""
    return _HEADING_ID.sub(lambda m: f"{m.group(1)}{{ #{m.group(2)}{m.group(3)} }}", source)


def add_markers(source: str) -> str:
    """Append a line marker to every line that ends outside ``{{ }}``, ``{% %}`` and ``{# #}``.

    Lines ending with a statement or comment tag get none, so ``trim_blocks`` still removes
    their newline and loops render without stray blank lines.
    """
    out = []
    i, n = 0, len(source)
    line = 1
    closer = None                  # the delimiter that ends the tag we are in
    quote = None
    last_close = ""                # kind of the tag that ended last on this line ("%", "#", "{")
    line_start = 0
    while i < n:
        ch = source[i]
        if closer is None:
            two = source[i:i + 2]
            if two in ("{{", "{%", "{#"):
                closer = {"{{": "}}", "{%": "%}", "{#": "#}"}[two]
                out.append(two)
                i += 2
                continue
            if ch == "\n":
                tail = source[line_start:i].rstrip()
                if not (last_close in ("%", "#") and tail.endswith(("%}", "#}"))):
                    out.append(f"{MARK_OPEN}{line}{MARK_CLOSE}")
                out.append("\n")
                line += 1
                i += 1
                line_start = i
                last_close = ""
                continue
            out.append(ch)
            i += 1
            continue
        # inside a tag
        if ch == "\n":
            line += 1
            line_start = i + 1
        if quote:
            if ch == "\\" and i + 1 < n:
                out.append(source[i:i + 2])
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"" and closer != "#}":
            quote = ch
        elif source[i:i + 2] == closer:
            out.append(closer)
            last_close = closer[0] if closer[0] in "%#" else "{"
            closer = None
            i += 2
            continue
        out.append(ch)
        i += 1
    if closer is None and not source.endswith("\n") and source:
        tail = source[line_start:].rstrip()
        if not (last_close in ("%", "#") and tail.endswith(("%}", "#}"))):
            out.append(f"{MARK_OPEN}{line}{MARK_CLOSE}")
    return "".join(out)


def strip_markers(rendered: str) -> tuple[str, list[int]]:
    lines = rendered.split("\n")
    known: list[int | None] = []
    clean = []
    for text in lines:
        found = _MARK.search(text)
        known.append(int(found.group(1)) if found else None)
        clean.append(_MARK.sub("", text))
    # lines without a marker came from a multi-line expansion: they belong to the next marker
    line_map: list[int] = [0] * len(known)
    following = None
    for i in range(len(known) - 1, -1, -1):
        if known[i] is not None:
            following = known[i]
        line_map[i] = following if following is not None else 0
    previous = 1
    for i, value in enumerate(line_map):
        if value == 0:
            line_map[i] = previous
        previous = line_map[i]
    return "\n".join(clean), line_map


def make_environment(loader_func) -> SandboxedEnvironment:
    env = limited_sandbox(SandboxedEnvironment)(
        undefined=StrictUndefined,
        autoescape=False,
        loader=FunctionLoader(loader_func),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


# A wrong reference (a card renamed or removed) is reported, its line left out and the chapter
# rendered again, so that every wrong reference of a chapter is listed at once (up to this many).
MAX_REFERENCE_PROBLEMS = 20


def render_file(path: Path, display_path: str, context: dict, problems: list) -> Rendered | None:
    """Render one Markdown file; on errors append located problems and return None."""
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = exc.object.count(b"\n", 0, exc.start) + 1
        problems.append(Problem(Location(display_path, line), "", f"not UTF-8 text ({exc.reason} at byte {exc.start})"))
        return None
    lines = source.split("\n")
    found: list[Problem] = []
    while len(found) < MAX_REFERENCE_PROBLEMS:
        rendered, problem, line_left_out = _render(path, display_path, "\n".join(lines), context)
        if problem is None:
            break
        if found and problem.message.startswith("template syntax"):
            break  # the line left out opened or closed a block: the rest is not the designer's mistake
        found.append(problem)
        if not line_left_out or not 1 <= problem.location.line <= len(lines):
            break
        lines[problem.location.line - 1] = ""  # blank, so that the lines after it keep their numbers
    if found:
        problems.extend(found)
        return None
    text, line_map = strip_markers(rendered)
    return Rendered(path, text, line_map)


def _render(path: Path, display_path: str, source: str, context: dict) -> tuple[str | None, Problem | None, bool]:
    """``(rendered, None, False)``, or ``(None, the located problem, whether rendering may go on
    without its line)``: a wrong reference can be left out, any other error ends the chapter."""
    marked = add_markers(protect_heading_ids(source))
    env = make_environment(lambda name: (marked, display_path, lambda: True))
    try:
        return env.get_template(path.name).render(**context), None, False
    except TemplateSyntaxError as exc:
        return None, Problem(Location(display_path, exc.lineno or 0), "",
                             f"template syntax: {exc.message}{misspelt_filter_hint(exc.message or '', env)}"), False
    except (TemplateError, RefError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as exc:
        line = _template_line(exc, display_path)
        if line is None and not isinstance(exc, (TemplateError, RefError)):
            raise                  # not raised while rendering the template: a bug, keep the traceback
        message = str(exc) if isinstance(exc, (TemplateError, RefError)) else f"{type(exc).__name__}: {exc}"
        return None, Problem(Location(display_path, line or 0), "", message), isinstance(exc, RefError)


def _template_line(exc: BaseException, filename: str) -> int | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return frames[-1].lineno if frames else None
