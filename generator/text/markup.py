"""The small card-text markup.

Syntax (anything else is plain text, never an error):

- ``**bold**`` — a bold span; an unpaired ``**`` (or an empty ``****``) is literal text.
  A bold span may contain icons and newlines.
- newlines — a newline character in the string (``\\r\\n`` and ``\\r`` too), or the
  two characters backslash + ``n`` (what a plain YAML scalar gives for ``\\n``).
- ``:name:`` — an inline icon; ``name`` matches ``[a-z0-9_-]+``. A colon that does not
  open such a name (``AP:3``, ``HP: 2``, full-width ``：``) is text.
- escapes: ``\\:`` → ``:``, ``\\*`` → ``*``, ``\\\\`` → ``\\``. A backslash before any
  other character is literal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

__all__ = ["Text", "Icon", "Newline", "Token", "parse_markup", "ICON_NAME"]

#: Grammar of an icon name.
ICON_NAME = re.compile(r"[a-z0-9_-]+")
_ICON_AT = re.compile(r":([a-z0-9_-]+):")


@dataclass(frozen=True)
class Text:
    """A run of literal text (one style)."""

    text: str
    bold: bool = False


@dataclass(frozen=True)
class Icon:
    """An inline icon, drawn as a glyph-sized box by the painter."""

    name: str
    bold: bool = False  # the style around it (used only if it is shown as text)


@dataclass(frozen=True)
class Newline:
    """An explicit line break."""


Token = Union[Text, Icon, Newline]

# lexemes: ("t", str) literal text, ("b",) a '**' delimiter, ("i", name), ("n",)
_ESCAPES = {":": ":", "*": "*", "\\": "\\"}


_SPECIAL = re.compile(r"[\\\r\n*:]")


def _lex(source: str) -> list[tuple]:
    out: list[tuple] = []
    i, n = 0, len(source)
    while i < n:
        special = _SPECIAL.search(source, i)
        if special is None:  # plain text runs are taken whole, not character by character
            out.append(("t", source[i:]))
            break
        if special.start() > i:
            out.append(("t", source[i:special.start()]))
            i = special.start()
        ch = source[i]
        if ch == "\\" and i + 1 < n:
            nxt = source[i + 1]
            if nxt in _ESCAPES:
                out.append(("t", _ESCAPES[nxt]))
                i += 2
                continue
            if nxt == "n":
                out.append(("n",))
                i += 2
                continue
            out.append(("t", "\\"))
            i += 1
            continue
        if ch == "\r":
            out.append(("n",))
            i += 2 if source.startswith("\r\n", i) else 1
            continue
        if ch == "\n":
            out.append(("n",))
            i += 1
            continue
        if ch == "*" and source.startswith("**", i):
            out.append(("b",))
            i += 2
            continue
        if ch == ":":
            m = _ICON_AT.match(source, i)
            if m:
                out.append(("i", m.group(1)))
                i = m.end()
                continue
        out.append(("t", ch))
        i += 1
    return out


def parse_markup(source: str) -> list[Token]:
    """Parse card markup into tokens; adjacent text of one style is merged."""
    lexemes = _lex(source)
    # Pair '**' delimiters in order; an unpaired last one, or an empty pair, is literal.
    delims = [k for k, lx in enumerate(lexemes) if lx[0] == "b"]
    opens: set[int] = set()
    closes: set[int] = set()
    for a, b in zip(delims[0::2], delims[1::2]):
        if b == a + 1:
            continue  # "****": empty bold is literal text
        opens.add(a)
        closes.add(b)

    tokens: list[Token] = []
    bold = False

    def add_text(s: str) -> None:
        if tokens and isinstance(tokens[-1], Text) and tokens[-1].bold == bold:
            tokens[-1] = Text(tokens[-1].text + s, bold)
        else:
            tokens.append(Text(s, bold))

    for k, lx in enumerate(lexemes):
        kind = lx[0]
        if kind == "b":
            if k in opens:
                bold = True
            elif k in closes:
                bold = False
            else:
                add_text("**")
        elif kind == "t":
            add_text(lx[1])
        elif kind == "i":
            tokens.append(Icon(lx[1], bold))
        else:
            tokens.append(Newline())
    return tokens
