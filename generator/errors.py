"""Problems the user can fix, and the exceptions that carry them.

Library code never prints or exits: it returns problem lists or raises a
``GeneratorError`` subclass; only the CLI turns them into output and exit codes.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)  # one per record: slots keep big decks small
class Location:
    """Where a value came from: a file path and a 1-based line (0 = whole file)."""

    path: str
    line: int = 0

    def display(self, cwd: Path | None = None) -> str:
        shown = _relative(self.path, cwd)
        return f"{shown}:{self.line}" if self.line else shown


def _relative(path: str, cwd: Path | None) -> str:
    base = Path(cwd or Path.cwd()).resolve()
    try:
        rel = os.path.relpath(Path(path).resolve(), base)
    except ValueError:  # another drive on Windows
        return str(path)
    # Inside the working directory: relative; elsewhere (a copy of a game in /tmp): as given,
    # so the message does not depend on where the command happens to run.
    return str(path) if rel == ".." or rel.startswith(".." + os.sep) else rel


#: a Problem's severity for a warning the designer has accepted (balance.yaml ``known:``, sim/known.py):
#: listed with -v only, never an error
KNOWN = "known"


@dataclass(frozen=True)  # sorted by sort_problems' key, never by <: no order methods to generate
class Problem:
    """One located problem: ``path:line: field.path: message``, and `` (card path:line card.field)``
    when a layout was drawing a card (the same template mistake is then one problem per card)."""

    location: Location
    field: str
    message: str
    severity: str = field(default="error", compare=False)  # "error" | "warning" | "known" (sim/known.py)
    card: Location | None = None  # the card's record (or the card field's line) ...
    card_field: str = ""          # ... and the card's field path, e.g. "enemies[3].name"

    def display(self, cwd: Path | None = None) -> str:
        head = self.location.display(cwd)
        middle = f" {self.field}:" if self.field else ""
        tag = "" if self.severity == "error" else f" {self.severity}:"
        card = f" (card {self.card.display(cwd)} {self.card_field})" if self.card else ""
        return f"{head}:{tag}{middle} {self.message}{card}"

    def card_key(self) -> tuple:
        """Orders the problems of one layout mistake by card (``()`` for a problem about no card)."""
        return (self.card.path, self.card.line, self.card_field) if self.card else ()


def sort_problems(problems) -> list[Problem]:
    return sorted(set(problems), key=lambda p: (p.location.path, p.location.line, p.field, p.message, p.card_key()))


class GeneratorError(Exception):
    """Base of every error the CLI reports without a traceback."""


class ProblemsError(GeneratorError):
    """Raised when a stage found problems; carries all of them, sorted."""

    def __init__(self, problems):
        self.problems = sort_problems(problems)
        super().__init__(f"{len(self.problems)} problem(s)")

    def __reduce__(self):
        # Raised in a worker process, it crosses back to the command pickled: rebuilt from its
        # problems (Exception's default would call the constructor with the message instead).
        return type(self), (self.problems,)


class ContentError(ProblemsError):
    """The game's YAML content (or a layout or profile) is invalid."""


class FontError(GeneratorError):
    """A font file cannot be used (missing, not TrueType, lacks glyphs).

    ``FontError(path, reason)`` reads ``path: reason`` and keeps both, so a caller can say where
    the font was named; ``FontError(message)`` is about no one file."""

    def __init__(self, path_or_message, reason: str | None = None):
        self.path = path_or_message if reason is not None else None
        self.reason = reason
        super().__init__(f"{path_or_message}: {reason}" if reason is not None else path_or_message)


class BuildError(GeneratorError):
    """A build step failed for a reason the user can fix."""
