"""What an export returns to the CLI: files written, problems, and notes worth printing."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ExportResult:
    written: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    unchanged: int = 0                      # files an incremental export left as they were
    removed: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    def extend(self, other: "ExportResult") -> None:
        self.written += other.written
        self.problems += other.problems
        self.notes += other.notes
        self.unchanged += other.unchanged
        self.removed += other.removed


def load_checked_cards(path, result: ExportResult, cards_in=None, lang: str | None = None):
    """The game (the ``lang`` edition) and every face instantiated and checked; ``None`` when it has
    errors (as build). ``cards_in``, an already checked ``(game, cards)`` (watch mode), is returned as it is."""
    from ..validate import check_content

    if cards_in is not None:
        return cards_in
    game, cards, problems = check_content(path, check_faces=True, lang=lang)
    result.problems.extend(problems)
    if not result.ok:
        return None, None
    return game, cards


def left_out_notes(cards, kinds, components, where: str, instead: str) -> list[str]:
    """``<id>: a board is not <where> (<instead>)`` for each component of another kind than ``kinds``
    (of ``components`` when given): an export that leaves a component out says so."""
    return [f"{faces.component.id}: a {faces.component.kind} is not {where} ({instead})" for faces in cards.faces
            if faces.component.kind not in kinds and (not components or faces.component.id in components)]
