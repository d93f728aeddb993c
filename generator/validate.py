"""``pnp validate``: content, layouts and text fit, then simulated balance."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .cards import CardBuilder
from .content import load_game
from .errors import Problem, ProblemsError
from .export.safe_zone import print_safe_zone
from .outputs import output_dir_of
from .profiles import game_profile


@dataclass
class ValidateResult:
    problems: list = field(default_factory=list)
    table: str = ""
    summary: str = ""
    untranslated: list = field(default_factory=list)  # each text not in the language printed (-v lists them)
    unjudged: list = field(default_factory=list)  # lines: text boxes whose contrast is unknown (-v lists them)
    notes: list = field(default_factory=list)  # lines for the user after the table (a failed verdict's next steps)

    @property
    def passed(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


def nothing_printed(game, faces: int) -> list:
    """A warning when no component has a face to print because none names a ``layout:``: a build of it
    writes no print file, as a PDF of no page is not a valid PDF. (A layout named but not found is
    its own error; "add a layout" would then mislead.)"""
    if faces or any(c.layout for c in game.components):
        return []
    return [Problem(game.at("components"), "components", "nothing to print: no component names a layout "
                    "(add `layout: <folder>/<name>` to a component)", "warning")]


def check_content(path: Path, check_faces: bool = True, lang: str | None = None):
    """Load the game and (with ``check_faces``) instantiate every face: schema, references,
    counts, layouts, fit. Without it faces are checked lazily as they are painted; problems
    then collect in ``cards.problems``.

    Returns (game, card set, problems so far). Raises ContentError when the data cannot load.
    ``lang`` prints another edition (see ``load_game``).
    """
    game = load_game(path, lang)
    builder = CardBuilder(game)
    cards = builder.build(check=check_faces)
    return game, cards, list(cards.problems) + list(game.warnings)


def validate_game(path: Path, *, balance: bool = True, workers: int | None = None, reporter=None,
                  output_dir: Path | None = None, lang: str | None = None,
                  lock_dir: Path | None = None, unchecked: str = "asked with --no-balance") -> ValidateResult:
    """Content, layouts, fit and (``balance``) the simulated verdict, whose report goes to
    ``output_dir`` (default output/<game>); ``lang``: of that edition's texts, whose last build (its
    print lock, for the drift check) is in ``lock_dir`` (default ``output_dir``). ``unchecked``: why the
    summary says the balance was not checked without ``balance`` (as ``build_game``'s)."""
    game, cards, _ = check_content(path, check_faces=False, lang=lang)
    problems, safe_zone = [], None
    try:
        # the sheet profile `pnp build` will print on: its safe zone is checked as the faces are made
        safe_zone = print_safe_zone(cards, game_profile(game))
    except ProblemsError as exc:
        problems.extend(exc.problems)
    cards.check_all()
    problems += cards.problems + game.warnings + (safe_zone.problems() if safe_zone else [])
    from .layout.legibility_check import unjudged_lines

    result = ValidateResult(problems=problems, untranslated=game.untranslated, unjudged=unjudged_lines(cards.unjudged))
    if has_rulebook(game):
        result.problems.extend(check_rulebook(path, game))
    faces = sum(len(f.copies) for f in cards.faces)
    result.problems.extend(nothing_printed(game, faces))
    from .export.restates import drift_since_last_build

    result.problems.extend(drift_since_last_build(game, lock_dir or output_dir_of(game, output_dir)))
    n = len(game.components)
    # pieces, as `pnp list` counts them: every copy once (a card's back is not another)
    result.summary = f"{n} component{'s' if n != 1 else ''}, {faces} piece{'s' if faces != 1 else ''}"
    if result.passed and not balance:
        from .sim.static import static_problems

        result.problems.extend(static_problems(game))  # a map no one can play is no balance question
    if not result.passed or not balance:
        if not balance:
            result.summary += f", balance not checked: {unchecked}"
        return result
    verdict = run_balance(game, workers=workers, reporter=reporter, output_dir=output_dir)
    result.problems.extend(verdict.problems)
    if not verdict.passed:
        from .sim.verdict import refusal

        result.notes.append(refusal(game, verdict, output_dir_of(game, output_dir),
                                    "so pnp build will not print it"))
    result.table = verdict.table
    result.notes.extend(filter(None, [speed_tip_of(game, verdict)]))
    from .sim.verdict import said_of

    result.summary += f", {said_of(verdict)}"  # a verdict that passed says what it cost, as pnp build says it
    return result


def speed_tip_of(game, verdict) -> str | None:
    """``pnp accelerate``'s tip after a verdict that played long as Python (none for a kept one)."""
    if verdict.cached or not verdict.played:
        return None
    from .sim.accelerate import speed_tip

    return speed_tip(verdict.report.get("engine") or game.id, verdict.report.get("seconds"))


def has_rulebook(game) -> bool:
    return (game.root / "rulebook").is_dir()


def check_rulebook(path: Path, game=None) -> list:
    """Problems of the rulebook sources (unknown cards, fields, headings), without writing it."""
    from .rulebook import compose

    try:
        return list(compose(path, game=game).warnings)
    except ProblemsError as exc:
        return list(exc.problems)


def run_balance(game, *, workers=None, reporter=None, cached=False, output_dir: Path | None = None):
    """The simulated balance verdict; the report lands in ``output_dir`` (default output/<game>)."""
    from .sim import verdict as sim_verdict

    progress = reporter.progress if reporter is not None else None
    # Always kept for ``pnp build`` (a validated, unchanged game is not simulated again when built);
    # only the build reuses a kept verdict.
    return sim_verdict.cached_verdict(game, workers=workers, progress=progress, output_dir=output_dir,
                                      refresh=not cached)


__all__ = ["ValidateResult", "validate_game", "check_content", "run_balance", "ProblemsError"]
