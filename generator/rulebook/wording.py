"""The rulebook's own words (the cover, the contents, tables, box titles), in the game's language
(game.yaml ``lang:``). A language without a table here gets the English words (Japanese ones would
be unreadable in, say, a French rulebook, and the tiled boards' words fall back to English too);
rulebook.yaml ``words:`` replaces any of them (``word_overrides``)."""
from __future__ import annotations

import json

WORDS = {
    "ja": {
        "rulebook": "ルールブック", "booklet": "（冊子）", "contents": "目次", "continued": "（続き）",
        "awaiting_layout": "（カード画像はレイアウト待ち）", "version": "版 {version}", "facts_separator": "　｜　",
        "sample": "見本", "component": "コンポーネント", "kind": "種類", "size": "サイズ", "count": "数",
        "total_cards": "カード合計", "keyword": "キーワード", "meaning": "意味", "cards_with": "（{n}枚のカード）",
        "card": "カード", "tile": "タイル", "board": "ボード", "token": "トークン",
        "note": "メモ", "tip": "ヒント", "important": "重要", "warning": "注意", "caution": "警告",
        "proposal": "提案ルール", "example": "例", "faq": "Q&A", "bullet": "・", "sub_bullet": "－",
    },
    "en": {
        "rulebook": "Rulebook", "booklet": " (booklet)", "contents": "Contents", "continued": " (continued)",
        "awaiting_layout": "(card image: layout to come)", "version": "version {version}", "facts_separator": "  |  ",
        "sample": "Sample", "component": "Component", "kind": "Kind", "size": "Size", "count": "Count",
        "total_cards": "Cards in all", "keyword": "Keyword", "meaning": "Meaning", "cards_with": " ({n} cards)",
        "card": "card", "tile": "tile", "board": "board", "token": "token",
        "note": "Note", "tip": "Tip", "important": "Important", "warning": "Warning", "caution": "Caution",
        "proposal": "Proposed rule", "example": "Example", "faq": "Q&A", "bullet": "•", "sub_bullet": "–",
    },
}


#: words that fill in a value: an override must keep its placeholder
PLACEHOLDERS = {"version": "{version}", "cards_with": "{n}"}


def wording(lang: str, overrides: dict | None = None) -> dict:
    """The words for ``lang``: its own table, else English; ``overrides`` (rulebook.yaml ``words:``,
    where a word not given is None) replace single words: a plain string in every edition, a
    ``{ja: ..., en: ...}`` mapping only in the languages it names (the others keep the built-in word:
    an override written for one edition must not print in another's language)."""
    given = {key: _in_language(word, lang) for key, word in (overrides or {}).items()}
    return {**WORDS["en"], **WORDS.get(lang, {}), **{key: word for key, word in given.items() if word is not None}}


def _in_language(word, lang: str):
    return word.get(lang) if isinstance(word, dict) else word


def words_schema() -> str:
    """rulebook.yaml's ``words:`` as a closed schema (YAML text): every word above, each optional."""
    # a JSON string is a YAML double-quoted scalar
    return "\n".join(f"          {key}: {{type: text, optional: true, doc: {json.dumps('English: ' + WORDS['en'][key])}}}"
                     for key in WORDS["en"])


def placeholder_problems(words: dict) -> list[tuple[str, str]]:
    """``(word, message)`` for each override (in any of its languages) that drops the value it must print."""
    problems = []
    for key, mark in PLACEHOLDERS.items():
        word = words.get(key)
        spelled = word.items() if isinstance(word, dict) else [("", word)] if word is not None else []
        for lang, text in spelled:
            if mark not in text:
                problems.append((f"{key}.{lang}" if lang else key,
                                 f"must keep {mark} (where the value goes), e.g. {WORDS['en'][key]!r}"))
    return problems
