"""``pnp build``: validate, then write the print files atomically.

Nothing is written unless the content loads, every face instantiates and fits, and (unless
told otherwise) the simulated balance check passes: a game that is no longer playable is
not printed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .export.faces import FaceHasher
from .export.lock import LOCK_NAME, compute_lock, diff_locks, lock_lines, read_lock, restated_of
from .export.restates import drift_since_last_build
from .export.safe_zone import print_safe_zone
from .heap import few_collections

from .outputs import SOURCE_FILE, VERDICT_FILE, older_output_note, output_dir_of, write_atomic
from .profiles import game_profile
from .progress import progress_callback
from .sheets import paper_sized_warnings, render_full_size_boards, render_print_pdf
from .validate import check_content, has_rulebook, nothing_printed, run_balance, speed_tip_of


@dataclass
class BuildResult:
    written: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)      # lines for the user (errata summary)
    summary: str = ""                              # what was made: "77 print pages, ..., balance passed"

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


# the modules, the game and its fonts kept out of the collector's passes: 1.5 % of the bench deck's
# instructions at 540 cards (bench/README.md, session 14)
@few_collections()
def build_game(path: Path, out_dir: Path, *, profile: str | None = None, validate: bool = True,
               workers: int | None = None, reporter=None, proof: bool = False,
               changed_since: Path | None = None, paper_sized: str | None = None, lang: str | None = None,
               verdict_dir: Path | None = None, unchecked: str = "--no-validate") -> BuildResult:
    """Write ``print-<paper>.pdf`` (``print-<paper>-proof.pdf`` with ``proof``) and
    ``print.lock.json``; with ``changed_since`` (an earlier lock) also ``errata.pdf``.
    ``paper_sized`` (full | tiled | fit) overrides every board's ``paper_sized`` for this build.
    ``lang`` prints another edition; its balance verdict is the game's, kept in ``verdict_dir``
    (default ``out_dir``), where every edition finds it. ``unchecked``: why the summary says the balance
    was not checked when ``validate`` is off (the option of the command that asked for it)."""
    # One pass: faces are instantiated (and checked) as they are painted, so memory stays flat;
    # the PDF is only written if no face had a problem.
    game, cards, problems = check_content(path, check_faces=False, lang=lang)
    result = BuildResult(problems=problems)
    if not result.ok:
        return result
    loaded = game_profile(game, profile)
    safe_zone = print_safe_zone(cards, loaded)  # checked as the faces are painted
    if paper_sized:
        for component in game.components:
            if component.kind == "board":
                component.paper_sized = paper_sized  # this build only: the content is not touched
    result.problems.extend(paper_sized_warnings(cards, loaded.profile))
    old_lock = read_lock(changed_since) if changed_since else None
    if old_lock is not None:
        _check_lock_game(old_lock, game, changed_since)
    hasher = FaceHasher(cards).watch()  # the lock's hashes are taken while faces are painted
    with progress_callback(reporter, "rendering") as progress:
        pdf = render_print_pdf(cards, loaded.profile, title=game.title, proof=proof, progress=progress)
    for faces in cards.faces:
        faces.check_all()  # faces no page showed are checked too
    result.problems.extend(cards.problems)
    if safe_zone is not None:
        result.problems.extend(safe_zone.problems())
    if not result.ok:
        return result
    # Everything is rendered before anything is written, and the files are then swapped in back
    # to back: a failure (or ^C) while rendering leaves the previous build's set whole, never a
    # new rulebook beside an old print file.
    outputs: list = []  # (file name, bytes or pieces), in the order they are written
    if has_rulebook(game):
        from .rulebook import compose, stale_booklet_note

        # Raises ContentError (nothing written) if a rulebook reference is wrong.
        book = compose(path, game=game)
        result.problems.extend(book.warnings)
        outputs.append(("rulebook.pdf", book.pdf))
        if note := stale_booklet_note(out_dir):
            result.notes.append(note)
    # Faces and the rulebook first: a card that does not fit or a rulebook reference to a card
    # that is gone fails in seconds, before the simulation runs and rewrites the balance report
    # of a build that then prints nothing.
    balance = f"balance not checked: {unchecked}"
    # without a kept verdict, nothing to say: the simulator's modules are not even imported
    if not validate and (output_dir_of(game, verdict_dir or out_dir) / VERDICT_FILE).is_file():
        from .sim.verdict import kept_verdict_standing

        if standing := kept_verdict_standing(game, verdict_dir or out_dir):
            balance += f"; {standing}"
    if validate:
        from .sim.verdict import refusal, said_of

        report_dir = Path(verdict_dir or out_dir)
        verdict = run_balance(game, workers=workers, reporter=reporter, cached=True, output_dir=report_dir)
        if verdict is not None:
            balance = said_of(verdict)
            result.problems.extend(verdict.problems)
            if not verdict.passed:
                result.notes.append(refusal(game, verdict, report_dir))
            result.notes.extend(filter(None, [speed_tip_of(game, verdict)]))
            if not verdict.passed:
                return result
    else:  # no games played, but what the simulator finds without playing (a room no one reaches) still counts
        from .sim.static import static_problems

        result.problems.extend(static_problems(game))
        if not result.ok:
            return result
    for component_id, board in render_full_size_boards(cards, loaded.profile, title=game.title).items():
        outputs.append((f"board-{component_id}.pdf", board))
    suffix = "-proof" if proof else ""
    faces = sum(len(f.copies) for f in cards.faces)
    result.problems.extend(nothing_printed(game, faces))
    if faces:  # a PDF of no page is not a valid PDF: nothing to print, no print file
        outputs.append((f"print-{loaded.paper_name}{suffix}.pdf", pdf))
    lock = compute_lock(cards, hasher)
    # before this build's lock replaces it: a text that changed without what it restates, or the reverse
    result.problems.extend(drift_since_last_build(game, out_dir, restated_of(lock)))
    if old_lock is not None:
        from .export.errata import errata_pdf  # only with --changed-since

        diff = diff_locks(old_lock, lock)
        outputs.append(("errata.pdf", errata_pdf(cards, loaded.profile, diff, title=game.title,
                                                 since=str(changed_since))))
        result.notes.extend(diff.lines())
    elif note := older_output_note(Path(out_dir) / "errata.pdf", "--changed-since build",
                                   "build with --changed-since LOCK"):
        result.notes.append(note)
    outputs.append((LOCK_NAME, lock_lines(lock)))
    for name, data in outputs:
        result.written.append(write_atomic(Path(out_dir) / name, data))
    write_atomic(Path(out_dir) / SOURCE_FILE, f"{Path(path).resolve()}\n")  # whose lock it is (not listed)
    made = []
    for name, data in sorted(outputs, key=lambda out: not out[0].startswith("print-")):  # print file first
        shown = f"{{}} {'proof' if proof else 'print'} pages" if name.startswith("print-") else \
            "rulebook {} pages" if name == "rulebook.pdf" else None
        pages = _pages(data) if shown else None
        if pages:
            made.append(shown.format(pages))
    result.summary = ", ".join(made + [balance])
    return result


def _pages(pdf: bytes) -> int | None:
    """The page count of a PDF ReportLab wrote (its page tree's ``/Count``), without parsing it;
    None if it is not written that way."""
    found = re.search(rb"/Count (\d+) /Kids", pdf)  # (an outline entry has a /Count too)
    return int(found.group(1)) if found else None


def _check_lock_game(lock: dict, game, path) -> None:
    """Another game's lock would reprint every card as new and list all of its own as removed.
    (A copy of the game in a folder of another name keeps its title, so it still matches.)"""
    from .errors import BuildError

    title = game.title
    if lock.get("game") != game.id and lock.get("title") != title:
        raise BuildError(f"{path}: a print lock of {lock.get('game')!r} ({lock.get('title')}), not of {game.id!r}"
                         f" ({title}); give the print.lock.json of a print run of this game")
    # every text would differ: give the lock of a print run of this edition (format 1 locks say no language)
    lang = game.meta.get("lang", "ja")
    if lock.get("lang", lang) != lang:
        raise BuildError(f"{path}: a print lock of the {lock['lang']!r} edition, this build prints {lang!r}; "
                         f"build with --lang {lock['lang']} or give a lock of the {lang!r} edition")
