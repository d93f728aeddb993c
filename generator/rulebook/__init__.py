"""Rulebook PDFs generated from the same data as the cards (issue #9).

``content/<game>/rulebook/*.md`` (in file-name order; an edition with chapters of its own,
``rulebook/<xx>/*.md``, prints those instead) is Markdown with sandboxed Jinja2: counts and values
come from the content (``{{ components.enemies.found }}``, ``{{ rules.group_cap }}``), generated
blocks come from helper calls (``{{ component_table() }}``, ``{{ glossary() }}``,
``{{ card("enemies", "e1_thug") }}`` or ``![caption](card:enemies/e1_thug)``). A reference the
content cannot satisfy is a problem at ``content/<game>/rulebook/<file>.md:<line>``.

:func:`build_rulebook` writes ``rulebook.pdf`` (and ``rulebook-booklet.pdf``, or
``rulebook-booklet-<paper>.pdf`` on another paper than the game's); :func:`compose` returns the
laid-out rulebook for tests and other tools.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..content import load_game
from ..content.game import leaves_game, text_in, untranslated_warnings, written_lang
from ..errors import ContentError, Location, Problem
from ..outputs import older_output_note, write_atomic
from .wording import wording

__all__ = ["build_rulebook", "compose", "Rulebook", "PAPERS", "BOOKLET", "booklet_file_name"]

PAPERS = ("a5", "a4")
BOOKLET = "rulebook-booklet.pdf"          # a booklet on the paper of the game's print.profile


def booklet_file_name(paper_name: str, game_paper_name: str) -> str:
    """``rulebook-booklet.pdf`` on the paper the game prints on, else named after its paper
    (``rulebook-booklet-letter.pdf``), as ``pnp build --profile`` names ``print-<paper>.pdf``: a
    booklet on other paper never overwrites the game's."""
    return BOOKLET if paper_name == game_paper_name else f"rulebook-booklet-{paper_name}.pdf"


@dataclass
class Rulebook:
    """A composed rulebook: the PDF and what it contains."""

    game_id: str
    pdf: bytes
    pages: int
    headings: list                 # HeadingInfo (level, number, title, key, location)
    heading_pages: dict            # heading key -> page number
    component_rows: list           # the component table as printed (id, name, kind, found, ...)
    glossary_rows: list
    warnings: list = field(default_factory=list)
    booklet: bytes | None = None
    booklet_name: str = BOOKLET                # the file name the booklet is written under


def _display(path: Path) -> str:
    """A path as problems show it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(Path(path).resolve(), Path.cwd().resolve()) \
            if Path(path).resolve().is_relative_to(Path.cwd().resolve()) else str(path)
    except (ValueError, OSError):
        return str(path)


def compose(game_path, *, paper: str = "a5", booklet: bool = False, game=None,
            sheet: str | None = None, progress=None, lang: str | None = None) -> Rulebook:
    """Load the game and its rulebook sources and lay the rulebook out.

    With ``booklet``, the booklet is imposed on the paper of the sheet profile ``sheet``
    (``layouts/profiles/<name>.yaml``, as ``pnp build --profile``; default: the game's
    ``print.profile``), turned landscape: A4 or Letter as the print sheets are.
    ``progress(done, total)`` is called as each chapter is laid out; the total assumes two
    layout passes (and one for the booklet): a rare third pass holds the count at the total.
    ``lang`` lays out another edition (see ``load_game``) when no loaded ``game`` is given.

    Raises :class:`ContentError` with every located problem (warnings included) when anything
    is wrong; otherwise returns the rulebook, with its warnings.
    """
    from ..cards import CardBuilder
    from .booklet import booklet_sheets
    from .config import load_config
    from .context import RulebookData
    from .document import PrintCanvas, TooLarge, build_pdf, full_story, toc_story
    from .flowables import Cover, Env, Theme
    from .markdown import Converter, parse
    from .source import RefError, render_file, source_files

    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    root = Path(game_path)
    game = game or load_game(root, lang)
    problems: list = []
    files = source_files(root, game.meta["lang"])
    if not files:
        raise ContentError([Problem(Location(_display(root / "rulebook"), 0), "",
                                    "no rulebook sources: add rulebook/*.md (rendered in file-name order)")])
    config = load_config(root, problems, game.meta["lang"], written_lang(root))
    if problems:
        raise ContentError(problems)
    sheet_paper, booklet_name = None, BOOKLET
    if booklet:
        from ..profiles import game_profile

        loaded = game_profile(game, sheet, "--sheet")
        sheet_paper = loaded.profile.paper
        if sheet:
            booklet_name = booklet_file_name(loaded.paper_name, game_profile(game).paper_name)
    builder = CardBuilder(game)
    data = RulebookData(game, builder, config)
    context = data.context()
    rendered = []
    for path in files:
        if leaves_game(path, root):
            problems.append(Problem(Location(_display(root), 0), "", f"'{path.relative_to(root).as_posix()}' "
                                    "leaves the game directory (a link to a file outside it)"))
            continue
        r = render_file(path, _display(path), context, problems)
        if r is not None:
            rendered.append(r)
    cover_info = _cover_texts(config, context, data, problems)
    if problems:
        raise ContentError(problems + data.warnings)

    theme = Theme.for_paper(paper, config.get("accent"))
    env = Env(builder.fonts, builder.icons, theme, words=wording(game.meta["lang"], config.get("words")))
    doc_model = parse(rendered, problems)
    converter = Converter(doc_model, data, env, problems)
    cover_refs = []
    for i, ref in enumerate(config.get("cover") or []):
        component_id, record_id = ref.split("/", 1)
        try:
            cover_refs.append(data.card_ref(component_id, record_id, caption=False))
        except RefError as exc:
            where = Location(config.get("_path", ""), config.get("_lines", {}).get(f"cover[{i}]", 0))
            problems.append(Problem(where, f"cover[{i}]", str(exc)))

    def make_story(pages):
        body = converter.story()
        figures = [converter.figure(r, height=theme.card_h * 1.05) for r in cover_refs]
        cover = Cover(env, game.title, cover_info["subtitle"], cover_info["tagline"], cover_info["facts"],
                      figures, game.meta.get("version"))
        return full_story(cover, toc_story(doc_model, env, pages), body)

    # one conversion first, so that every problem is known before any layout
    make_story(None)
    if any(p.severity == "error" for p in problems):
        raise ContentError(problems + data.warnings)

    title = f"{game.title} {env.words['rulebook']}"
    chapters = max(1, sum(1 for h in doc_model.headings if h.level == 1))
    on_chapter = _chapter_progress(progress, chapters * (3 if booklet else 2))
    try:
        pdf, pages = build_pdf(make_story, env, title=title, subject=cover_info["subtitle"], header_title=game.title,
                               on_chapter=on_chapter)
        booklet_pdf = None
        if booklet:
            page_size = (theme.page_w, theme.page_h)

            class _Imposing(PrintCanvas):
                imposition = staticmethod(lambda n: booklet_sheets(n, page_size, sheet_paper))

            booklet_pdf, _ = build_pdf(make_story, env, title=title + env.words["booklet"], subject=cover_info["subtitle"],
                                       header_title=game.title, canvasmaker=_Imposing, on_chapter=on_chapter,
                                       pages=pages)
    except TooLarge as exc:
        where = exc.where or Location(_display(root / "rulebook"), 0)
        raise ContentError([Problem(where, "", f"this block is taller than a page (page {exc.page}): "
                                               "split it (a table row, note, list or code block)")]) from None
    found = (problems + data.warnings + edition_warnings(root, game.meta["lang"]) + cut_word_warnings(env)
             + config_untranslated_warnings(config, root, game.meta["lang"]))
    warnings = sorted(set(found), key=lambda p: (p.location.path, p.location.line, p.message, p.card_key()))
    return Rulebook(
        game_id=game.id, pdf=pdf, pages=pages.count, headings=list(doc_model.headings),
        heading_pages=dict(pages.headings), component_rows=list(converter.component_rows),
        glossary_rows=list(converter.glossary_rows), warnings=warnings, booklet=booklet_pdf,
        booklet_name=booklet_name)


def cut_word_warnings(env) -> list:
    """A word wider than its line (after breaking a URL or path at its / . - _) prints cut mid-word: a
    warning at its Markdown line, as the book still reads."""
    return [Problem(where, "", f"{word!r} is wider than its line ({width / 72 * 25.4:.0f} mm) and is cut mid-word: "
                               "shorten it, or give it a break (a space; / . - _ in a URL or path)", "warning")
            for where, words in env.cut_words.items() for word, width in words.items()]


def config_untranslated_warnings(config: dict, root: Path, lang: str) -> list:
    """rulebook.yaml's texts (cover lines, keywords, words) the edition prints in another language: one
    warning for the file, at the first, with the count, as for the content's files."""
    written = written_lang(root)
    asked = f"--lang {lang}" if lang != written else f"game.yaml lang: {lang}"
    return untranslated_warnings(config.get("_untranslated") or [], lang, asked)


def edition_warnings(root: Path, lang: str) -> list:
    """An edition in another language than the game's (``--lang``) without chapters of its own prints
    the default ones: said once. A rulebook.yaml in a language folder is not read (the one
    rulebook/rulebook.yaml serves every edition, its texts written per language): said too."""
    from .source import own_chapters

    folder = root / "rulebook"
    warnings = []
    written = written_lang(root)
    if lang != written and not own_chapters(root, lang):
        warnings.append(Problem(Location(_display(folder), 0), "",
                                f"the {lang!r} edition's rulebook prints the default chapters (rulebook/*.md, in "
                                f"{written!r}): add rulebook/{lang}/*.md to give it its own", "warning"))
    if (folder / lang / "rulebook.yaml").is_file():
        warnings.append(Problem(Location(_display(folder / lang / "rulebook.yaml"), 0), "",
                                "not read: rulebook/rulebook.yaml serves every edition (write its texts "
                                "per language, {ja: ..., en: ...})", "warning"))
    return warnings


def _cover_texts(config, context, data, problems) -> dict:
    """Cover strings, rendered through the same sandbox (they may use {{ ... }})."""
    from jinja2 import TemplateError

    from .source import RefError, make_environment

    env = make_environment(lambda name: None)
    lang = data.lang
    where = Location(config.get("_path", ""), 0)

    locations = config.get("_locations", {})

    def render(value, field, at=None):
        text = text_in(value, lang) if value is not None else None
        if not text or "{" not in text:
            return text
        try:
            return env.from_string(text).render(**context)
        except (TemplateError, RefError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
            line = config.get("_lines", {}).get(field, 0)
            problems.append(Problem(at or Location(where.path, line), field, str(exc)))
            return text

    for name, entry in (config.get("keywords") or {}).items():
        if isinstance(entry, dict) and entry.get("text") is not None:
            entry["text"] = render(entry["text"], f"keywords.{name}.text", locations.get(id(entry)))
    return {
        "subtitle": render(config.get("subtitle"), "subtitle") or wording(data.lang, config.get("words"))["rulebook"],
        "tagline": render(config.get("tagline"), "tagline"),
        "facts": [render(f, f"facts[{i}]") for i, f in enumerate(config.get("facts") or [])],
    }


def stale_booklet_note(out_dir: Path, written: str | None = None) -> str | None:
    """The note (a line a booklet) for the booklets (``rulebook-booklet.pdf``, or on other paper
    ``rulebook-booklet-<paper>.pdf``) left in ``out_dir`` by an earlier ``--booklet`` run: every
    one but the booklet this run ``written``; None when there is none."""
    out = Path(out_dir)
    found = sorted(p.name for p in out.glob("rulebook-booklet*.pdf")
                   if p.name == BOOKLET or p.name.startswith("rulebook-booklet-"))
    notes = []
    for name in found:
        if name == written:
            continue
        paper = name[len("rulebook-booklet-"):-len(".pdf")] if name != BOOKLET else None
        remake = f"run pnp rulebook --booklet --sheet PROFILE (a {paper} profile)" if paper \
            else "run pnp rulebook --booklet"
        if note := older_output_note(out / name, "--booklet run", remake):
            notes.append(note)
    return "\n".join(notes) or None


def build_rulebook(game_path: Path, out_dir: Path, *, booklet: bool = False, paper: str = "a5",
                   problems: list | None = None, sheet: str | None = None, progress=None,
                   lang: str | None = None) -> list[Path]:
    """Write ``out_dir/rulebook.pdf`` (and with ``booklet`` the booklet, on the paper of the sheet
    profile ``sheet``, default the game's: ``rulebook-booklet.pdf``, or ``rulebook-booklet-<paper>.pdf``
    on another paper than the game's print.profile, so that neither overwrites the other).

    Raises :class:`ContentError` (a :class:`ProblemsError`) listing located problems when the
    content, the rulebook sources or a reference in them is wrong; nothing is written then.
    Warnings (a card layout that is not ready yet, a keyword without a description) do not
    stop the build: they are appended to ``problems`` when a list is given.
    """
    book = compose(game_path, paper=paper, booklet=booklet, sheet=sheet, progress=progress, lang=lang)
    if problems is not None:
        problems.extend(book.warnings)
    out = Path(out_dir)
    written = [write_atomic(out / "rulebook.pdf", book.pdf)]
    if booklet and book.booklet is not None:
        written.append(write_atomic(out / book.booklet_name, book.booklet))
    return written


def _chapter_progress(progress, total: int):
    """The callback each laid-out chapter calls (None without a progress bar): two layout passes of
    every chapter, a third for the booklet."""
    if progress is None:
        return None
    done = [0]

    def on_chapter():
        done[0] += 1
        progress(min(done[0], total), total)
    return on_chapter
