"""``pnp manifest``: what a game contains, declared against found, and how many pages."""
from __future__ import annotations

from pathlib import Path

from .content import load_game
from .content.game import count_problems
from .units import to_mm


def manifest_of(path: Path, profile_name: str | None = None) -> dict:
    from .sheets import pages_for, print_pages
    from .profiles import game_profile

    game = load_game(path, check_counts=False)  # the table shows a count that differs: said after it
    loaded = game_profile(game, profile_name)
    _note_round_reach(game)  # a round piece's bleed disc takes room on the sheet, as in a build
    components = []
    for c in game.components:
        w, h = c.size_pt
        components.append({
            "id": c.id,
            "kind": c.kind,
            "size_mm": [round(to_mm(w), 2), round(to_mm(h), 2)],
            "expected": c.expected,
            "found": c.found,
            "pages": pages_for(c, loaded.profile) if c.layout else 0,
        })
    return {
        "game": game.id,
        "lang": game.meta["lang"],
        "texts": text_languages(game),
        "components": components,
        "total_cards": sum(c.found for c in game.components if c.kind == "card"),
        # a page small components share counts once here, and for each of them in their "pages"
        "print_pages": print_pages([c for c in game.components if c.layout], loaded.profile),
        "_problems": count_problems(game.components),
    }


def _note_round_reach(game) -> None:
    """The reach of every round piece's faces (``layout.reach``), measured by the card builder a build
    uses (its layout loader, its instantiation), so the page counts are the print file's."""
    from .cards import CardBuilder
    from .errors import ContentError
    from .layout.reach import note_reach

    round_pieces = [c for c in game.components if c.shape == "round" and c.layout]
    if not round_pieces:
        return
    try:
        cards = CardBuilder(game).build(round_pieces, check=False)
    except ContentError:  # a font or icon file that cannot be read: a build says what is wrong with it
        return
    for faces in cards.faces:
        note_reach(faces)


def text_languages(game) -> dict:
    """Which languages the game's texts are written in: ``count`` texts in all, ``plain`` of them a
    plain string (printed as written in every edition), and per language the {ja: ..., en: ...}
    texts that have it: what an edition in that language (``--lang``) prints as its own."""
    languages: dict = {}
    for langs, n in game.languages.items():
        for lang in langs:
            languages[lang] = languages.get(lang, 0) + n
    return {"count": sum(game.languages.values()), "plain": game.languages.get((), 0),
            "languages": dict(sorted(languages.items(),  # most first; on a tie the language printed
                                     key=lambda item: (-item[1], item[0] != game.meta["lang"], item[0])))}
