"""Library entry points behind ``pnp export`` and ``pnp calibrate`` (no printing here)."""
from __future__ import annotations

from pathlib import Path

from ..errors import Location
from ..outputs import write_atomic
from .result import ExportResult, left_out_notes, load_checked_cards


def sheet_profile(game, sheet: str | None, game_root: Path | None = None):
    """The sheet profile (LoadedProfile) named, else the game's print profile."""
    from ..profiles import game_profile, load_profile

    if game is not None:
        return game_profile(game, sheet, "--sheet")
    return load_profile(sheet or "a4-portrait", game_root or Path("."), None, Location(str(game_root or ".")), "--sheet")


def run_export(path: Path, out_dir: Path, *, png: bool = False, tts: bool = False,
               gutterfold: str | None = None, calibration: bool = False, profile: str | None = None,
               sheet: str | None = None, dpi: int | None = None, components=(),
               base_url: str = "", showcase: bool = False, card_ids=(), lang: str | None = None,
               reporter=None) -> ExportResult:
    """Every export asked for, from one load of the game (faces are checked first, as in build);
    ``lang``: of that edition; ``reporter``: its progress bar on a terminal, as a build's."""
    from ..progress import progress_callback
    from .gutterfold import KINDS as FOLDED_KINDS, gutterfold_pdf
    from .png import export_png
    from .tts import export_tts

    result = ExportResult()
    game, cards = load_checked_cards(path, result, lang=lang)
    if cards is None:
        return result
    known = {c.id for c in game.components}
    unknown = [c for c in components if c not in known]
    if unknown:
        from ..errors import BuildError
        raise BuildError(f"unknown component(s) {', '.join(unknown)}; this game has {', '.join(sorted(known))}")
    components = list(components) or None
    if png:
        with progress_callback(reporter, "PNG faces") as progress:
            result.extend(export_png(path, out_dir, profile=profile, dpi=dpi, components=components,
                                     cards_in=(game, cards), progress=progress))
    if tts:
        with progress_callback(reporter, "TTS decks") as progress:
            result.extend(export_tts(path, out_dir, max_dpi=dpi, base_url=base_url, components=components,
                                     cards_in=(game, cards), progress=progress))
    if gutterfold:
        loaded = sheet_profile(game, sheet)
        pdf = gutterfold_pdf(cards, loaded.profile, gutterfold, title=game.title, components=components)
        result.written.append(write_atomic(Path(out_dir) / f"gutterfold-{gutterfold}-{loaded.paper_name}.pdf", pdf))
        result.notes += left_out_notes(cards, FOLDED_KINDS, components, "on fold sheets",
                                       "boards are not folded: print its pages from the print file, pnp build")
    if showcase:
        from .showcase import export_showcase

        result.written.extend(export_showcase(cards, out_dir, components=components, card_ids=card_ids, dpi=dpi))
    if calibration:
        result.written.append(write_calibration(out_dir, game=game, sheet=sheet, font_name=cards.fonts.regular))
    return result


def write_calibration(out_dir: Path, *, game=None, sheet: str | None = None, font_name: str | None = None) -> Path:
    """``calibration-<sheet profile>.pdf`` for a sheet profile (the game's, or the named one)."""
    from ..fonts import load_fonts
    from .calibration import calibration_pdf

    loaded = sheet_profile(game, sheet)
    if font_name is None:
        if game is not None:
            from ..cards import game_fonts
            font_name = game_fonts(game).regular
        else:
            font_name = load_fonts().regular
    lang = game.meta.get("lang", "ja") if game is not None else "en"  # no game: no language to follow
    pdf = calibration_pdf(loaded.profile, font_name, lang=lang)
    return write_atomic(Path(out_dir) / f"calibration-{loaded.profile.name}.pdf", pdf)
