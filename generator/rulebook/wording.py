"""The rulebook's own words (the cover, the contents, tables, box titles), in the game's language
(game.yaml ``lang:``). A language without a table here gets the Japanese words, as a text without
that language falls back to ja (``content.game.text_in``)."""
from __future__ import annotations

WORDS = {
    "ja": {
        "rulebook": "ルールブック", "booklet": "（冊子）", "contents": "目次", "continued": "（続き）",
        "awaiting_layout": "（カード画像はレイアウト待ち）", "version": "版 {version}", "facts_separator": "　｜　",
        "sample": "見本", "component": "コンポーネント", "kind": "種類", "size": "サイズ", "count": "数",
        "total_cards": "カード合計", "keyword": "キーワード", "meaning": "意味", "cards_with": "（{n}枚のカード）",
        "card": "カード", "tile": "タイル", "board": "ボード", "token": "トークン",
        "note": "メモ", "tip": "ヒント", "important": "重要", "warning": "注意", "caution": "警告",
        "proposal": "提案ルール", "example": "例", "faq": "Q&A",
    },
    "en": {
        "rulebook": "Rulebook", "booklet": " (booklet)", "contents": "Contents", "continued": " (continued)",
        "awaiting_layout": "(card image: layout to come)", "version": "version {version}", "facts_separator": "  |  ",
        "sample": "Sample", "component": "Component", "kind": "Kind", "size": "Size", "count": "Count",
        "total_cards": "Cards in all", "keyword": "Keyword", "meaning": "Meaning", "cards_with": " ({n} cards)",
        "card": "card", "tile": "tile", "board": "board", "token": "token",
        "note": "Note", "tip": "Tip", "important": "Important", "warning": "Warning", "caution": "Caution",
        "proposal": "Proposed rule", "example": "Example", "faq": "Q&A",
    },
}


def wording(lang: str) -> dict:
    """The words for ``lang``: its own table, each missing word (or a language with no table) in Japanese."""
    return {**WORDS["ja"], **WORDS.get(lang, {})}
