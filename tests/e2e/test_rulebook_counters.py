"""Japanese counters in the shipped rulebooks' rendered text: the native counter つ stops at 9
(ここのつ), so a number from the data of 10 or more must not be followed by つ ("10つ")."""
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (REPO / "content").iterdir() if (p / "rulebook").is_dir())


def rendered_rulebook(game_dir: Path) -> list[tuple[str, str]]:
    from generator.cards import CardBuilder
    from generator.content.game import load_game
    from generator.rulebook.config import load_config
    from generator.rulebook.context import RulebookData
    from generator.rulebook.source import render_file, source_files

    game, problems = load_game(game_dir), []
    context = RulebookData(game, CardBuilder(game), load_config(game_dir, problems)).context()
    out = []
    for path in source_files(game_dir):
        result = render_file(path, path.name, context, problems)
        out.append((path.name, result.text))
    assert not problems
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_number_of_ten_or_more_counted_with_tsu(game):
    bad = [f"{name}: {m.group(0)}" for name, text in rendered_rulebook(REPO / "content" / game)
           for m in re.finditer(r"(?<![0-9０-９])[0-9０-９]{2,}つ", text)]
    assert not bad, bad
