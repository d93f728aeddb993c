"""A shipped rulebook never writes literally a number that rules.yaml holds.

Where a chapter reads a value next to a term (「ステージ{{ rules.stages }}」, 「意思は{{ rules.stats_cap.wil }}」),
the same term followed by that value written as a literal digit, anywhere in the game's chapters,
is a copy that will not follow rules.yaml when the value is tuned. Values below 2 are left out
(「1枚」「1つ」 are ordinary Japanese), and so are worked examples, whose numbers are illustrations.
Reads the sources only: no rendering, so it stays fast.
"""
import re
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]
GAMES = sorted(p.name for p in (REPO / "content").iterdir() if (p / "rulebook").is_dir())

TERM = r"[\u30A0-\u30FF\u4E00-\u9FFF]{2,}[をはがにで]?"  # a katakana/kanji word, maybe with its particle
READ = re.compile(r"(" + TERM + r")\{\{\s*rules\.([\w.\[\]]+)\s*\}\}")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


def rules_value(rules, path: str):
    """The value at a dotted/indexed path (``a.b``, ``a[2]``), or None."""
    value = rules
    for key in re.findall(r"\w+", path):
        if isinstance(value, dict):
            value = value.get(key, value.get(int(key)) if key.isdigit() else None)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value


def prose_lines(text: str):
    """(line number, line) of a chapter outside worked examples (a ``> [!EXAMPLE]`` quote)."""
    in_example = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("> [!EXAMPLE]"):
            in_example = True
        elif in_example and not (line.startswith(">") or line.startswith("{%")):
            in_example = False
        if not in_example:
            yield number, line


def literal_copies(game: str) -> list[str]:
    root = REPO / "content" / game
    rules = yaml.safe_load((root / "rules.yaml").read_text(encoding="utf-8"))
    chapters = sorted((root / "rulebook").glob("*.md"))
    read = {}  # (term, value) -> the rules.yaml path a chapter reads it from
    for chapter in chapters:
        for match in READ.finditer(chapter.read_text(encoding="utf-8")):
            value = rules_value(rules, match.group(2))
            if isinstance(value, int) and not isinstance(value, bool) and value >= 2:
                read.setdefault((match.group(1), value), match.group(2))
    found = []
    for chapter in chapters:
        for number, line in prose_lines(chapter.read_text(encoding="utf-8")):
            plain = JINJA.sub("\0", line)
            for (term, value), path in read.items():
                if re.search(re.escape(term) + rf"{value}(?!\d)", plain):
                    found.append(f"{chapter.relative_to(REPO)}:{number}: '{term}{value}' is rules.{path}; "
                                 f"write '{term}{{{{ rules.{path} }}}}'")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_chapters_read_rules_values_instead_of_copying_them(game):
    assert literal_copies(game) == []


def test_a_copied_value_is_found(tmp_path, monkeypatch):
    game = tmp_path / "content" / "g"
    (game / "rulebook").mkdir(parents=True)
    (game / "rules.yaml").write_text("stages: 4\nideas: {bonus: [1, 3]}\n", encoding="utf-8")
    (game / "rulebook" / "01.md").write_text(
        "全{{ rules.stages }}ステージ。ステージ{{ rules.stages }}で終わる。効果{{ rules.ideas.bonus[1] }}\n"
        "ステージ4では最終ボス。効果3。効果1。\n"
        "> [!EXAMPLE] 例\n> ステージ4の例なら数字はそのまま。\n"
        "ステージ3は別の数。\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    assert literal_copies("g") == [
        "content/g/rulebook/01.md:2: 'ステージ4' is rules.stages; write 'ステージ{{ rules.stages }}'",
        "content/g/rulebook/01.md:2: '効果3' is rules.ideas.bonus[1]; write '効果{{ rules.ideas.bonus[1] }}'"]
