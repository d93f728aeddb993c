"""Line breaking with Japanese kinsoku rules (shared by card text and the rulebook).

Model: the text is cut into *atoms* — one CJK character, one character of a Latin/digit
word, one ASCII space, one inline icon — and every boundary between two atoms gets a
priority:

- 3: a normal break opportunity (between CJK characters, between CJK and a word, after
  a run of spaces);
- 2: inside a word (between two katakana, ``ボス`` / ``ルーム``, between two kanji, ``判`` / ``定``,
  and between a number and its counter, ``2`` / ``枚``): taken only when the normal break before
  it would leave the line less than :data:`WORD_KEEP` of the width (:data:`JUSTIFIED_WORD_KEEP`
  for justified text);
  inside a katakana word, one before a katakana word of :data:`COUNTERS` first (``デンジャー`` /
  ``レベル``), and one that leaves a single letter alone (``カー`` / ``ド``) only when no other
  break fits (before the word, however short the line, or elsewhere inside it);
- 1: allowed but avoided (right after an inline icon, so ``:guard:ガード2`` keeps the
  icon with at least the next character; on either side of a plus sign glued to its
  neighbours, so ``③+1`` is not split as ``③`` / ``+1`` nor ``+1+:lv:`` as ``+1+`` / ``:lv:``);
- 0: forbidden (inside a Latin word or digit run such as ``2AP``, ``+1``, ``3/4``,
  ``AP:3``; before a space; before a character that may not start a line; after one
  that may not end a line; between two identical dashes).

Lines are filled greedily. When the next atom does not fit, the line is cut at the
last boundary of priority 3 inside it (at the last of priority 2 after it instead if the line
would keep less than :data:`WORD_KEEP` of the width), else at the last of priority 2, else of
priority 1. Because breaks before ``、。，．`` (and every other line-start-forbidden
character) are forbidden, the character before them moves down with them: this is **oidashi**
(push-down), and no line is ever wider than the width — there is no hanging punctuation. If
a line has no allowed boundary at all (a word longer than the line, a run of forbidden
characters), it is filled to the width character by character (an *emergency* break, counted
in ``forced_breaks``); an atom wider than the whole line sits alone on an *overfull* line.

ASCII spaces are break opportunities and are dropped at the ends and starts of wrapped
lines (indentation at the start of a paragraph is kept). U+3000 (ideographic space) is
a character like any CJK character and is never dropped.

``measure`` callables must be additive (the width of a string is the sum of the widths
of its characters), which holds for ReportLab's ``stringWidth`` with TrueType fonts.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from dataclasses import dataclass
from typing import Callable, Sequence

from generator.text.markup import Icon, Newline, Text, Token

__all__ = [
    "NO_START",
    "NO_END",
    "Piece",
    "WrappedLine",
    "Wrapped",
    "wrap",
    "break_lines",
    "break_text",
    "char_class",
    "can_break",
    "paragraph_atoms",
    "wrap_atoms",
    "cut_words",
    "wrapped_cut_words",
]

# --- character classes -----------------------------------------------------------

#: Characters that may not start a line (PRINT.md list, plus their half-width / ASCII
#: forms, the other small kana, closing quotes, hyphens/tildes and unit postfixes).
NO_START = frozenset(
    # PRINT.md
    "、。，．・：；？！ー…‥）」』】〕］｝〉》%％"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
    "々ゝゞヽヾ"
    # additions
    "ゕゖㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ〻ヿ゛゜"
    "〙〗｠»〟’”"
    "｡､･｣ｰｧｨｩｪｫｬｭｮｯ"
    ")]},.:;!?"
    "‼⁇⁈⁉"
    "〜～‐゠–"
    "℃°′″‰"
)

#: Characters that may not end a line: opening brackets and quotes, currency prefixes.
NO_END = frozenset(
    # PRINT.md
    "（「『【〔［｛〈《"
    # additions
    "〘〖｟«〝‘“([{｢"
    "￥＄＃№"
)

#: Characters that are not separated from an identical neighbour (——, ――).
_INSEPARABLE = frozenset("—―")

#: Signs kept with both neighbours unless nothing else fits: ``③+1``, ``:die:+1``, ``+1+:lv:``.
_PLUS = frozenset("+＋")

#: Katakana, with ``ー`` and the small and half-width forms (not ``・``, which separates words).
_KATAKANA = frozenset(chr(o) for o in (*range(0x30A1, 0x30FB), 0x30FC, 0x30FD, 0x30FE, *range(0x31F0, 0x3200),
                                       *range(0xFF66, 0xFFA0)))
_DIGITS = frozenset("0123456789０１２３４５６７８９")


def _is_kanji(ch: str) -> bool:
    """A CJK ideograph (or the iteration mark ``々``): a run of them is usually one word."""
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or ch == "\u3005"


#: Counters and units a number is kept with (``2枚``, ``3マス``, ``1つ``).
COUNTERS = ("枚", "個", "点", "回", "人", "体", "つ", "本", "歩", "度", "匹", "名", "段", "番", "枠", "秒", "分",
            "倍", "割", "円", "組", "面", "金", "件", "種", "色", "マス", "ターン", "ラウンド", "ダメージ",
            "ポイント", "メートル", "キロ", "レベル")
_COUNTERS = {first: tuple(c for c in COUNTERS if c[0] == first) for first in {c[0] for c in COUNTERS}}

#: A break inside a word (priority 2) is taken rather than a normal break before it when that
#: normal break would leave the line less than this share of the width: at 2/3 a 12-em line moves
#: at most 4 em down to keep ``ダメージ`` whole, and a justified line keeps its spacing under 1 em.
#: On the shipped games' cards 2/3 kept 69 of 83 split words whole with no box a line longer;
#: 3/4 left 11 more (Fatal Fight's ``全員に2ダ`` / ``メージ。``), 0.6 gave a box a line more and pushed
#: breaks into kanji words (``判`` / ``定``). Kanji runs are words too since session 19 (``この`` /
#: ``判定``, ``辺の`` / ``数字``, ``（アクション`` / ``不要）``): every shipped box still fits.
WORD_KEEP = 2 / 3
#: :data:`WORD_KEEP` for justified text, whose line spreads what it gives up over its gaps: at 0.9 a
#: 45-em rulebook line gives up at most 4.5 em, about 1/9 em a gap (at 2/3 the rulebooks printed
#: lines spaced a fifth of an em apart to keep ``エキストラアーツ`` whole).
JUSTIFIED_WORD_KEEP = 0.9

NEVER, AVOIDED, INSIDE_WORD, NORMAL = 0, 1, 2, 3

_ASCII_SPACES = frozenset(" \t\f\v")
_FULL_WIDTH_SIGNS = frozenset("＋－＝")  # word characters like ASCII + - = (digit runs: ＋1, 3＋2＝5)

CJK, WORD, SPACE = "cjk", "word", "space"
_ICON = "icon"

EPS = 1e-6


@lru_cache(maxsize=8192)
def char_class(ch: str) -> str:
    """``"space"`` (ASCII blanks), ``"cjk"`` (breakable on both sides) or ``"word"``.

    Full-width letters and digits (``０-９ Ａ-Ｚ ａ-ｚ``) count as word characters so that
    full-width numbers and words stay whole, and so do the signs of a digit run ``＋－＝``
    (``ライフ＋1`` and ``3＋2＝5`` stay whole, as ``+1`` and ``3+2=5`` do); other full-width
    punctuation (``（）！？：；，．`` ...) is ``"cjk"`` like every full-width character, so a
    line may break next to it (kinsoku permitting). U+3000 is ``"cjk"``.
    """
    if ch in _ASCII_SPACES:
        return SPACE
    o = ord(ch)
    if 0xFF10 <= o <= 0xFF19 or 0xFF21 <= o <= 0xFF3A or 0xFF41 <= o <= 0xFF5A or ch in _FULL_WIDTH_SIGNS:
        return WORD
    eaw = unicodedata.east_asian_width(ch)
    if eaw in ("W", "F", "H"):
        return CJK
    if eaw == "A" and o >= 0x2000:  # symbols (※ ★ → … ①) are full-width in Japanese text
        return CJK
    return WORD


@lru_cache(maxsize=8192)
def _is_glue(ch: str) -> bool:
    """Characters never separated from the character before them."""
    o = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or 0xFE00 <= o <= 0xFE0F
        or 0xE0100 <= o <= 0xE01EF
        or 0x1F3FB <= o <= 0x1F3FF
        or o == 0x200D
    )


def can_break(before: str, after: str) -> bool:
    """Whether a line may break between two adjacent characters.

    A break is allowed after an ASCII space, never before one; otherwise it is allowed
    unless ``before`` may not end a line, ``after`` may not start one, ``after`` is a
    combining mark/variation selector, the two are identical dashes, or both belong to
    one Latin word / digit run.
    """
    if char_class(after) == SPACE:
        return False
    if char_class(before) == SPACE:
        return True
    if before in NO_END or after in NO_START or _is_glue(after) or before == "\u200d":
        return False
    if before in _INSEPARABLE and after == before:
        return False
    return not (char_class(before) == WORD and char_class(after) == WORD)


# --- data ------------------------------------------------------------------------


@dataclass(slots=True)  # not frozen: built once per character, frozen __init__ is ~3x slower
class Piece:
    """One atom placed on a line: a Text (one character, or a character with its
    combining marks) or an Icon, with its measured width."""

    token: Text | Icon
    width: float
    kind: str  # "cjk" | "word" | "space" | "icon"
    gap_before: bool  # justification may add space before this piece


@dataclass(frozen=True)
class WrappedLine:
    pieces: tuple[Piece, ...]
    width: float  # natural width (trailing spaces excluded)
    ends_paragraph: bool  # last line of a paragraph (explicit newline or end of text)
    forced: bool = False  # ended by an emergency break (no allowed break point)
    overfull: bool = False  # wider than the width (one atom wider than the line)

    def tokens(self) -> list[Token]:
        """The line as markup tokens, adjacent text of one style merged."""
        out: list[Token] = []
        for piece in self.pieces:
            tok = piece.token
            if isinstance(tok, Text) and out and isinstance(out[-1], Text) and out[-1].bold == tok.bold:
                out[-1] = Text(out[-1].text + tok.text, tok.bold)
            else:
                out.append(tok)
        return out

    @property
    def text(self) -> str:
        """Plain text of the line (icons omitted)."""
        return "".join(p.token.text for p in self.pieces if isinstance(p.token, Text))


@dataclass(frozen=True)
class Wrapped:
    lines: list[WrappedLine]

    @property
    def forced_breaks(self) -> int:
        return sum(1 for line in self.lines if line.forced or line.overfull)

    @property
    def overfull_lines(self) -> int:
        return sum(1 for line in self.lines if line.overfull)


_CUT = "\x00"  # where an emergency break split a word, in cut_words' joined text
_NOT_A_WORD = "\ufffc"  # an icon's place in a line's text: no word goes through it


def cut_words(lines: Sequence[tuple[str, bool, bool]]) -> list[str]:
    """The whole words (Latin/digit runs) an emergency break split across lines, in order, each
    once per cut place. ``lines`` are ``(text, forced, ends_paragraph)`` (an icon written as
    U+FFFC); a forced break between two word characters cut a word. A forced break elsewhere
    (a run of characters that may not start or end a line) split no word: it is not listed."""
    joined = [text + (_CUT if inside else "\n") for (text, _, _), inside in zip(lines, _cut_after(lines))]
    words, run = [], []
    for ch in "".join(joined):
        if ch == _CUT or _word_char(ch):
            run.append(ch)
            continue
        if _CUT in run:
            words.append("".join(run).replace(_CUT, ""))
        run = []
    return words


def _cut_after(lines: Sequence[tuple[str, bool, bool]]) -> list[bool]:
    """Per line of :func:`cut_words`' ``lines``: does the break after it cut a word?"""
    cut = []
    for k, (text, forced, ends) in enumerate(lines):
        following = lines[k + 1][0] if k + 1 < len(lines) else ""
        cut.append(bool(forced and not ends and text and following and _word_char(text[-1])
                        and _word_char(following[0])
                        and not url_break(text[-2:], following[:2], _is_path(_word_across(text, following)))))
    return cut


def _word_across(text: str, following: str) -> str:
    """The word a line break between ``text`` and ``following`` falls in."""
    joined = text + following
    return _word_at(lambda k: joined[k] if 0 <= k < len(joined) else "", len(text))


def _as_cut_lines(lines: Sequence[WrappedLine]) -> list[tuple[str, bool, bool]]:
    return [("".join(p.token.text if isinstance(p.token, Text) else _NOT_A_WORD for p in line.pieces),
             line.forced or line.overfull, line.ends_paragraph) for line in lines]


def wrapped_cut_words(lines: Sequence[WrappedLine]) -> list[str]:
    """:func:`cut_words` of wrapped lines."""
    return cut_words(_as_cut_lines(lines))


def widest_unbroken(lines: Sequence[WrappedLine]) -> float:
    """The width of the widest thing in the wrapped ``lines`` no break may go through: a line (for
    lines wrapped as narrow as each character allows, a character or a run of them that may not be
    broken, or an icon), or a whole word an emergency break cut across lines."""
    widest = max((line.width for line in lines), default=0.0)
    word = 0.0
    for line, cut in zip(lines, _cut_after(_as_cut_lines(lines))):
        for piece in line.pieces:
            text = piece.token.text if isinstance(piece.token, Text) else _NOT_A_WORD
            if piece.gap_before or not all(_word_char(ch) for ch in text):
                word = 0.0
            if text and all(_word_char(ch) for ch in text):
                word += piece.width
                widest = max(widest, word)
        if not cut:
            word = 0.0
    return widest


#: Signs a URL or a path may be broken before (a typesetter's rule: never after, where the line's end
#: would read as a hyphenated or finished word).
_URL_SIGNS = frozenset("/.-_~?#%=&")


def url_break(before: str, after: str, path: bool = True) -> bool:
    """May a word that is wider than the line (``https://example.com/rules_v2.pdf``) be broken between
    ``before`` and ``after`` (the two characters each side)? Before a single ``/`` or a ``.`` ``-``
    ``_`` ... and after ``//``; not inside a run of signs, nor in a number (``1.5``, ``3-4``). Only an
    emergency break uses it: a word that fits its line is never broken.

    A word that is no URL or path (``path`` false, see :func:`_is_path`: ``Rapid-combo``) breaks
    only after a hyphen between letters, as English breaks a hyphenated word: ``Rapid-`` /
    ``combo``, where the path rule printed ``Rapid`` / ``-combo``."""
    a, b = before[-1:], after[:1]
    if not a or not b:
        return False
    if not path:
        return a == "-" and before[-2:-1].isalpha() and b.isalpha()
    if before == "//":
        return b != "/"
    if b not in _URL_SIGNS or a in _URL_SIGNS or a == ":" or after[1:2] in _URL_SIGNS:
        return False
    return not (a.isdigit() and after[1:2].isdigit())


#: Signs that make a word a URL or a path when something follows them in the word (a word's
#: last character is often its sentence's full stop or comma).
_PATH_SIGNS = frozenset("/.:_~?#%=&@\\")


def _is_path(word: str) -> bool:
    """Is the word (a run of word characters) a URL, a path or a file name, rather than a word
    such as ``Rapid-combo`` or ``Throw-and-pierce.``?"""
    return any(ch in _PATH_SIGNS for ch in word.rstrip(".,;:!?)]}'\"’”"))


def _word_at(char_at, b: int) -> str:
    """The run of word characters around the boundary before ``b`` (``char_at`` gives "" past the text)."""
    k = b
    while (ch := char_at(k - 1)) and _word_char(ch):
        k -= 1
    e = b
    while (ch := char_at(e)) and _word_char(ch):
        e += 1
    return "".join(char_at(j) for j in range(k, e))


def _url_break_in(char_at, s: int, i: int) -> int | None:
    """The last :func:`url_break` in ``(s + 1, i]`` (a line keeps two characters), or None."""
    for b in range(i, s + 1, -1):
        path = _is_path(_word_at(char_at, b))
        if url_break(char_at(b - 2) + char_at(b - 1), char_at(b) + char_at(b + 1), path):
            return b
    return None


def overfull_atoms(lines: Sequence[WrappedLine]) -> list[tuple[str, float]]:
    """Each glyph or icon wider than the line it sits alone on, as ``(what, width)``: ``glyph 'X'`` or
    ``icon ':name:'``. Such a line prints past the box's edge: no break can help it."""
    return [(atom_label(line.pieces[-1].token), line.pieces[-1].width) for line in lines
            if line.overfull and line.pieces]


def atom_label(token: Text | Icon) -> str:
    """How a message names one atom of a line."""
    return f"icon ':{token.name}:'" if isinstance(token, Icon) else f"glyph {token.text!r}"


def _word_char(ch: str) -> bool:
    return ch not in "\n" + _NOT_A_WORD and char_class(ch) == WORD


@dataclass(slots=True)
class _Atom:
    kind: str
    text: str
    token: Text | Icon
    width: float = 0.0

    @property
    def first(self) -> str:
        return self.text[:1]

    @property
    def last(self) -> str:
        return self.text[-1:]


# --- atoms -----------------------------------------------------------------------


def _paragraphs(tokens: Sequence[Token]) -> list[list[_Atom]]:
    paragraphs: list[list[_Atom]] = [[]]
    for tok in tokens:
        if isinstance(tok, Newline):
            paragraphs.append([])
            continue
        atoms = paragraphs[-1]
        if isinstance(tok, Icon):
            atoms.append(_Atom(_ICON, "", tok))
            continue
        if not isinstance(tok, Text):
            raise TypeError(f"not a text token: {tok!r}")
        start = len(atoms)
        for ch in tok.text:
            if ch == "\n":
                raise ValueError("newlines inside Text tokens: use Newline tokens")
            if _is_glue(ch) and len(atoms) > start and atoms[-1].kind != SPACE:
                atoms[-1].text += ch
                continue
            atoms.append(_Atom(char_class(ch), ch, tok))
    return paragraphs


def _priority(atoms: list[_Atom], b: int, last_nonspace: list[int]) -> int:
    prev, nxt = atoms[b - 1], atoms[b]
    if nxt.kind == SPACE:
        return NEVER
    if nxt.kind != _ICON and (nxt.first in NO_START or _is_glue(nxt.first)):
        return NEVER
    if prev.kind == SPACE:
        j = last_nonspace[b - 1]
        if j < 0:
            return NEVER  # only indentation before: breaking would leave an empty line
        before = atoms[j]
        if before.kind != _ICON and before.last in NO_END:
            return NEVER
        return NORMAL
    if prev.kind != _ICON and (prev.last in NO_END or prev.last == "\u200d"):
        return NEVER
    if prev.kind == _ICON:
        return AVOIDED
    if prev.kind == WORD and nxt.kind == WORD:
        return NEVER
    if prev.last in _INSEPARABLE and nxt.first == prev.last:
        return NEVER
    if (nxt.kind != _ICON and nxt.first in _PLUS) or prev.last in _PLUS:
        return AVOIDED
    if nxt.kind != _ICON and _inside_word(prev.last, nxt.first, lambda k: _atom_char(atoms, b + k)):
        return INSIDE_WORD
    return NORMAL


def _atom_char(atoms: list[_Atom], k: int) -> str:
    return atoms[k].first if k < len(atoms) and atoms[k].kind != _ICON else ""


def _inside_word(prev: str, nxt: str, char_after: Callable[[int], str]) -> bool:
    """Is a break between the characters ``prev`` and ``nxt`` inside a word: between two katakana
    (``ボス`` / ``ルーム``), two kanji (``判`` / ``定``: a kanji run is one word more often than not, and
    a card's short lines show a split one at once), or between a digit and a counter (``2`` / ``枚``,
    ``3`` / ``マス``)?
    ``char_after(k)``: the character ``k`` atoms after ``nxt`` ("" past the text or on an icon)."""
    if prev in _KATAKANA:
        return nxt in _KATAKANA
    if _is_kanji(prev):
        return _is_kanji(nxt)
    if prev in _DIGITS:
        for counter in _COUNTERS.get(nxt, ()):
            if all(char_after(k) == counter[k] for k in range(1, len(counter))):
                return True
    return False


def _gap_before(atoms: list[_Atom], b: int) -> bool:
    prev, nxt = atoms[b - 1], atoms[b]
    if nxt.kind == SPACE:
        return False
    if prev.kind == WORD and nxt.kind == WORD:
        return False
    if nxt.kind != _ICON and _is_glue(nxt.first):
        return False
    if prev.kind != _ICON and prev.last in _INSEPARABLE and nxt.first == prev.last:
        return False
    return True


def paragraph_atoms(tokens: Sequence[Token]) -> list[list[_Atom]]:
    """The atoms of each paragraph (``kind``, ``text``, ``token``; ``width`` still 0), for a
    caller that measures them itself, and may merge some, before :func:`wrap_atoms` (vertical
    text: an upright digit pair is one atom of its own ``kind``, which breaks like a CJK one)."""
    return _paragraphs(tokens)


def wrap_atoms(paragraphs: list[list[_Atom]], width: float, word_keep: float = WORD_KEEP) -> Wrapped:
    """:func:`wrap` for measured atoms (:func:`paragraph_atoms`); a piece keeps its atom's kind."""
    lines: list[WrappedLine] = []
    for atoms in paragraphs:
        _wrap_paragraph(atoms, width, lines, width * word_keep)
    return Wrapped(lines)


# --- breaking --------------------------------------------------------------------


def wrap(tokens: Sequence[Token], measure: Callable[[Text | Icon], float], width: float,
         measure_text: Callable[[str, bool], float] | None = None, word_keep: float = WORD_KEEP) -> Wrapped:
    """Break markup tokens into lines no wider than ``width``.

    ``measure(token)`` returns the width of a ``Text`` (any substring of an input text
    token, same ``bold``) or of an ``Icon``; ``measure_text(text, bold)``, if given, is a
    faster equivalent for text (no token built per character). Every explicit ``Newline``
    ends a paragraph; an empty paragraph gives an empty line; no tokens give no lines.
    ``word_keep``: how full a line stays to keep a word whole (:data:`JUSTIFIED_WORD_KEEP`
    for text that will be justified).
    """
    lines: list[WrappedLine] = []
    if not tokens:
        return Wrapped(lines)
    plain = _plain_paragraphs(tokens)
    if plain is not None:
        # Fast path: no icons and no combining marks, so every atom is one character.
        for chars in plain:
            _wrap_plain(chars, measure, measure_text, width, lines, width * word_keep)
        return Wrapped(lines)
    paragraphs = _paragraphs(tokens)
    for atoms in paragraphs:
        for atom in atoms:
            if atom.kind == _ICON:
                atom.width = float(measure(atom.token))
            elif measure_text is not None:
                atom.width = measure_text(atom.text, atom.token.bold)
            else:
                atom.width = float(measure(Text(atom.text, atom.token.bold)))
    return wrap_atoms(paragraphs, width, word_keep)


def _wrap_paragraph(atoms: list[_Atom], width: float, out: list[WrappedLine], least: float) -> None:
    n = len(atoms)
    if n == 0:
        out.append(WrappedLine((), 0.0, True))
        return
    if sum(atom.width for atom in atoms) <= width + EPS:
        # Fast path: the paragraph fits on one line, so there is no break to choose
        # (titles, numbers, short rules). Same result as the general loop below.
        gaps = [False] + [_gap_before(atoms, b) for b in range(1, n)]
        out.append(_line(atoms, gaps, 0, n, ends=True))
        return
    last_nonspace: list[int] = []
    j = -1
    for k, atom in enumerate(atoms):
        if atom.kind != SPACE:
            j = k
        last_nonspace.append(j)
    # Break priorities are only needed near line ends: compute them on demand.
    prio = _LazyPriority(atoms, last_nonspace)
    gaps = [False] + [_gap_before(atoms, b) for b in range(1, n)]
    width_at = lambda k: atoms[k].width
    spans = list(_atom_spans(atoms, width, prio, width_at, least))
    if len(spans) > 1:  # a one-line paragraph has no widow (most titles and numbers: no helpers built)
        spans = _unwidow(
            spans, width,
            real=lambda k: atoms[k].kind == _ICON or (atoms[k].kind != SPACE and atoms[k].first not in NO_START),
            space=lambda k: atoms[k].kind == SPACE, width_at=width_at,
            find_break=lambda lo, hi: _best_break(prio, lo, hi, width_at, least))
    for s, e, ends, forced, overfull in spans:
        out.append(_line(atoms, gaps, s, e, ends=ends, forced=forced, overfull=overfull))


def _atom_spans(atoms: list[_Atom], width: float, prio, width_at, least: float):
    """Where the lines of one paragraph start and end, as ``(start, end, ends_paragraph,
    forced, overfull)`` (trailing spaces still inside)."""
    n = len(atoms)
    s = 0
    while s < n:
        total = 0.0
        i = s
        while i < n:
            atom = atoms[i]
            if atom.kind != SPACE and total + atom.width > width + EPS:
                break
            total += atom.width
            i += 1
        if i == n:
            yield s, n, True, False, False
            return
        forced = overfull = False
        if all(a.kind == SPACE for a in atoms[s:i]):
            p = i + 1  # this atom alone is wider than the line
            overfull = True
        else:
            p = _best_break(prio, s, i, width_at, least)
            if p is None:  # emergency: at a URL's / . - _ if any, else fill the line to the width
                p = _url_break_in(lambda k: atoms[k].text if 0 <= k < n else "", s, i) or i
                forced = True
        s_next = p
        while s_next < n and atoms[s_next].kind == SPACE:
            s_next += 1
        yield s, p, s_next >= n, forced, overfull
        s = s_next


def _unwidow(spans: list[tuple], width: float, *, real, space, width_at, find_break) -> list[tuple]:
    """The spans with a *widow* (a last line of one character, punctuation aside: 「う。」, 「ト」)
    given more from the line before, at an allowed break, when that line keeps two characters
    or more and the last line still fits: same number of lines, none wider than ``width``.
    ``real(k)``: atom ``k`` counts as a character (not a space, not line-start punctuation)."""
    if len(spans) < 2 or spans[-2][3] or spans[-2][4]:
        return spans
    (s_prev, e_prev, *_), (s_last, n, *_) = spans[-2], spans[-1]
    if _count_real(real, s_last, n, 2) != 1:  # every card body's last line is asked: stop at a second one
        return spans
    q = next((k for k in range(e_prev - 1, s_prev - 1, -1) if real(k)), None)   # moves down with it
    b = find_break(s_prev, q) if q is not None and q > s_prev else None
    if b is None or _count_real(real, s_prev, b, 2) < 2:
        return spans
    start = b
    while start < n and space(start):
        start += 1
    if sum(width_at(k) for k in range(start, n)) > width + EPS:
        return spans
    return spans[:-2] + [(s_prev, b, False, False, False), (start, n, True, False, False)]


def _count_real(real, lo: int, hi: int, enough: int) -> int:
    """How many atoms of ``lo .. hi-1`` are characters (``real``), counting no further than ``enough``."""
    found = 0
    for k in range(lo, hi):
        if real(k):
            found += 1
            if found >= enough:
                break
    return found


@lru_cache(maxsize=8192)
def _plain_char(ch: str) -> str | None:
    """The class of a character that is an atom on its own, None for glue and newlines."""
    if ch == "\n" or _is_glue(ch):
        return None
    return char_class(ch)


def _plain_paragraphs(tokens: Sequence[Token]) -> list[list[tuple[str, bool, str]]] | None:
    """Paragraphs as ``(character, bold, class)`` lists when every token is Text or
    Newline and no character is glue or a newline (then one character = one atom);
    None otherwise (the general path also raises the errors)."""
    paragraphs: list[list[tuple[str, bool, str]]] = [[]]
    chars = paragraphs[0]
    for tok in tokens:
        cls = type(tok)
        if cls is Newline:
            chars = []
            paragraphs.append(chars)
            continue
        if cls is not Text:
            return None
        bold = tok.bold
        for ch in tok.text:
            kind = _plain_char(ch)
            if kind is None:
                return None
            chars.append((ch, bold, kind))
    return paragraphs


def _wrap_plain(chars, measure, measure_text, width: float, out: list[WrappedLine], least: float) -> None:
    """:func:`_wrap_paragraph` for one-character atoms without icons: same lines, same
    pieces, on plain lists (no avoided break but around a plus sign)."""
    n = len(chars)
    if n == 0:
        out.append(WrappedLine((), 0.0, True))
        return
    if measure_text is not None:
        widths = [measure_text(ch, bold) for ch, bold, _ in chars]
    else:
        widths = [float(measure(Text(ch, bold))) for ch, bold, _ in chars]
    kinds = [kind for _, _, kind in chars]
    text = [ch for ch, _, _ in chars]
    toks = [_text(ch, bold) for ch, bold, _ in chars]
    gaps = [False]
    append = gaps.append
    prev_ch, prev_kind = text[0], kinds[0]
    for b in range(1, n):
        ch, kind = text[b], kinds[b]
        append(not (kind == SPACE or (prev_kind == WORD and kind == WORD)
                    or (prev_ch in _INSEPARABLE and ch == prev_ch)))
        prev_ch, prev_kind = ch, kind
    for s, e, ends, forced, overfull in _plain_line_spans(text, widths, kinds, width, least):
        out.append(_plain_line(toks, widths, kinds, gaps, s, e, ends, forced, overfull))


def _plain_line_spans(text, widths, kinds, width: float, least: float) -> list[tuple]:
    """:func:`_plain_spans` with the widow given more (:func:`_unwidow`)."""
    spans = list(_plain_spans(text, widths, kinds, width, least))
    if len(spans) < 2:  # one line: no widow (most titles and numbers: no helpers built)
        return spans
    return _unwidow(
        spans, width,
        real=lambda k: kinds[k] != SPACE and text[k] not in NO_START, space=lambda k: kinds[k] == SPACE,
        width_at=widths.__getitem__,
        find_break=lambda lo, hi: _plain_break(text, kinds, lo, hi, widths, least))


def _plain_spans(text, widths, kinds, width: float, least: float):
    """Where the lines of one paragraph of one-character atoms start and end, as
    ``(start, end, ends_paragraph, forced, overfull)`` (trailing spaces still inside)."""
    n = len(widths)
    limit = width + EPS
    if sum(widths) <= limit:
        yield 0, n, True, False, False
        return
    s = 0
    while s < n:
        total = 0.0
        i = s
        while i < n:
            w = widths[i]
            if kinds[i] != SPACE and total + w > limit:
                break
            total += w
            i += 1
        if i == n:
            yield s, n, True, False, False
            return
        forced = overfull = False
        if all(k == SPACE for k in kinds[s:i]):
            p = i + 1  # this atom alone is wider than the line
            overfull = True
        else:
            p = _plain_break(text, kinds, s, i, widths, least)
            if p is None:
                p = _url_break_in(lambda k: text[k] if 0 <= k < n else "", s, i) or i
                forced = True
        s_next = p
        while s_next < n and kinds[s_next] == SPACE:
            s_next += 1
        yield s, p, s_next >= n, forced, overfull
        s = s_next


def _plain_break(text, kinds, s: int, i: int, widths, least: float) -> int | None:
    """:func:`_best_break` for one-character atoms without icons or glue (:func:`_priority`
    inlined: it is on every line's end)."""
    avoided = inside = lone = known = None
    char_at = lambda k: _char_at(text, k)  # noqa: E731  (the katakana checks' reader, made once a line)
    for b in range(i, s, -1):
        nxt_kind = kinds[b]
        if nxt_kind == SPACE:
            continue
        nxt = text[b]
        if nxt in NO_START:
            continue
        prev_kind = kinds[b - 1]
        if prev_kind == SPACE:
            j = b - 1
            while j >= 0 and kinds[j] == SPACE:
                j -= 1
            if j < 0 or text[j] in NO_END:
                continue
            if inside is None or _keeps(widths.__getitem__, s, b, least):
                return b
            return _inside(inside, known, widths.__getitem__, s, least)
        prev = text[b - 1]
        if prev in NO_END or prev == "\u200d":
            continue
        if prev_kind == WORD and nxt_kind == WORD:
            continue
        if prev in _INSEPARABLE and nxt == prev:
            continue
        if nxt in _PLUS or prev in _PLUS:
            avoided = avoided or b
            continue
        if prev in _KATAKANA or prev in _DIGITS:
            if _inside_word(prev, nxt, lambda k: _char_at(text, b + k)):
                if prev in _KATAKANA and _lone_kana(char_at, b):
                    lone = lone or b
                else:
                    inside = inside or b
                    known = known or (b if prev in _KATAKANA and _known_word_at(char_at, b) else None)
                continue
        elif _is_kanji(nxt) and _is_kanji(prev):  # _inside_word's kanji case, without its reader
            inside = inside or b
            continue
        if inside is None or _keeps(widths.__getitem__, s, b, least):
            return b
        return _inside(inside, known, widths.__getitem__, s, least)
    return (inside and _inside(inside, known, widths.__getitem__, s, least)) or lone or avoided


def _inside(inside: int, known: int | None, width_at, s: int, least: float) -> int:
    """The break inside a word to take: before a known word (``デンジャー`` / ``レベル``) when there is
    one and the line keeps ``least`` of the width, else the last."""
    return known if known is not None and _keeps(width_at, s, known, least) else inside


def _known_word_at(char_at, b: int) -> bool:
    """Does a katakana word of :data:`COUNTERS` (``レベル``, ``ダメージ``, ``ラウンド`` ...) start at
    ``b`` inside a longer katakana run, so that a break before ``b`` falls between two words?"""
    return any(all(char_at(b + k) == ch for k, ch in enumerate(word))
               and char_at(b + len(word)) not in _KATAKANA
               for word in _COUNTERS.get(char_at(b), ()) if word[0] in _KATAKANA)


def _char_at(text, k: int) -> str:
    return text[k] if 0 <= k < len(text) else ""


def _plain_line(toks, widths, kinds, gaps, s, e, ends, forced, overfull) -> WrappedLine:
    while e > s and kinds[e - 1] == SPACE:
        e -= 1
    gap = gaps[s:e]
    if gap:
        gap[0] = False  # never before the first piece of a line
    pieces = tuple(map(Piece, toks[s:e], widths[s:e], kinds[s:e], gap))
    return WrappedLine(pieces, sum(widths[s:e]), ends, forced, overfull)


def plain_lines(tokens: Sequence[Token], char_width: Callable[[bool], Callable[[str], float]], width: float):
    """The lines :func:`wrap` makes for a text in one style with no icons, glue or combining
    marks, and that style: ``([(text, width, ends_paragraph, forced, overfull), ...], bold)``,
    without an object per character (most card text is like this); None for any other text.
    ``char_width(bold)`` gives the function measuring one character in that style.

    Same breaks and the same widths, summed in the same order, as the general path.
    """
    paragraphs = [""]
    bold = None
    for tok in tokens:
        cls = type(tok)
        if cls is Newline:
            paragraphs.append("")
        elif cls is Text and (bold is None or tok.bold == bold):
            bold = tok.bold
            paragraphs[-1] += tok.text
        else:
            return None
    if bold is None:
        return None
    lines: list = []
    measure = char_width(bold)
    for text in paragraphs:
        kinds = list(map(_plain_char, text))
        if None in kinds:
            return None
        n = len(text)
        widths = list(map(measure, text))
        if n == 0:
            lines.append(("", 0.0, True, False, False))
            continue
        spans = _plain_line_spans(text, widths, kinds, width, width * WORD_KEEP)
        lines.extend(_plain_text_line(text, widths, kinds, *span) for span in spans)
    return lines, bold


def _plain_text_line(text, widths, kinds, s, e, ends, forced, overfull):
    while e > s and kinds[e - 1] == SPACE:
        e -= 1
    return text[s:e], sum(widths[s:e]), ends, forced, overfull


class _LazyPriority:
    """``prio[b]``: how good a break before atom ``b`` is (0 = forbidden), memoised."""

    def __init__(self, atoms, last_nonspace):
        self.atoms, self.last_nonspace, self.memo = atoms, last_nonspace, {}

    def __getitem__(self, b: int) -> int:
        value = self.memo.get(b)
        if value is None:
            value = self.memo[b] = _priority(self.atoms, b, self.last_nonspace) if b > 0 else 0
        return value


def _best_break(prio, s: int, i: int, width_at, least: float) -> int | None:
    """The break for a line from atom ``s`` that atom ``i`` no longer fits on: the last normal
    one, unless a break inside a word comes after it and the normal one would leave the line
    narrower than ``least``; else the last inside a word, else the last avoided one (inside a
    word: see :func:`_inside` and :func:`_lone_kana`)."""
    inside = lone = avoided = known = None
    atoms = prio.atoms
    char_at = lambda k: _atom_char(atoms, k) if k >= 0 else ""  # noqa: E731
    for p in range(i, s, -1):
        value = prio[p]
        if value == NORMAL:
            if inside is None or _keeps(width_at, s, p, least):
                return p
            return _inside(inside, known, width_at, s, least)
        if value == INSIDE_WORD:
            if _lone_kana(char_at, p):
                lone = lone or p
            else:
                inside = inside or p
                known = known or (p if char_at(p - 1) in _KATAKANA and _known_word_at(char_at, p) else None)
        elif value == AVOIDED:
            avoided = avoided or p
    return (inside and _inside(inside, known, width_at, s, least)) or lone or avoided


def _lone_kana(char_at, b: int) -> bool:
    """Would a break before ``b`` inside a katakana word leave one of its letters alone on a line
    (``マップカー`` / ``ド``, ``デンジャーレベ`` / ``ル−1``, ``ス`` / ``レート``)? Such a break is taken
    only when no other break fits: before the word, however short the line, or elsewhere in it."""
    return ((char_at(b) in _KATAKANA and char_at(b + 1) not in _KATAKANA)
            or (char_at(b - 1) in _KATAKANA and char_at(b - 2) not in _KATAKANA))


def _keeps(width_at, s: int, p: int, least: float) -> bool:
    """Is the line of atoms ``s .. p-1`` at least ``least`` wide? (Asked only when a word would
    otherwise be broken: rare.)"""
    return sum(width_at(k) for k in range(s, p)) >= least - EPS


def _line(atoms, gaps, s, e, *, ends, forced=False, overfull=False) -> WrappedLine:
    while e > s and atoms[e - 1].kind == SPACE:
        e -= 1
    pieces = tuple(
        Piece(a.token if a.kind == _ICON else _text(a.text, a.token.bold), a.width, a.kind, k > s and gaps[k])
        for k, a in enumerate(atoms[s:e], start=s)
    )
    return WrappedLine(pieces, sum(p.width for p in pieces), ends, forced, overfull)


@lru_cache(maxsize=16384)
def _text(text: str, bold: bool) -> Text:
    """Text tokens are immutable: share one per (character, style)."""
    return Text(text, bold)


def break_lines(tokens: Sequence[Token], measure: Callable[[Text | Icon], float], width: float) -> list[list[Token]]:
    """Lines as lists of tokens (see :func:`wrap` for the rules)."""
    return [line.tokens() for line in wrap(tokens, measure, width).lines]


def break_text(text: str, measure: Callable[[str], float], width: float) -> list[str]:
    """Plain-text convenience for paragraphs: ``measure(str) -> width``; ``\\n`` breaks."""
    tokens: list[Token] = []
    for k, part in enumerate(text.replace("\r\n", "\n").split("\n")):
        if k:
            tokens.append(Newline())
        if part:
            tokens.append(Text(part))
    wrapped = wrap(tokens, lambda tok: measure(tok.text), width)
    return [line.text for line in wrapped.lines]
