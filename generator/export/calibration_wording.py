"""The words of the duplex calibration page, in the game's language: Japanese for ``lang: ja``,
English for any other (and for ``pnp calibrate`` without a game), as the tiled boards' and the
gutterfold sheets' words do (``impose/wording.py``).

Lines are broken by hand, short enough for a portrait A4 or Letter page at their size: the page
draws each line as it is (``tests/unit/export/test_calibration.py`` checks that they fit)."""
from __future__ import annotations

from ..impose.sizes import fmt_mm, paper_name
from ..impose.wording import is_ja  # one rule for which games read Japanese


def title(lang: str | None) -> str:
    """The PDF's title and the first words of each page's heading."""
    return "両面印刷の位置合わせ" if is_ja(lang) else "Duplex calibration"


def _paper_ja(paper: tuple[float, float]) -> str:
    """``"A4 縦"`` / ``"Letter 横"``; a sheet of no known size by its millimetres."""
    size, _, orientation = paper_name(paper).rpartition(" ")
    if orientation in ("portrait", "landscape"):
        return f"{size} {'縦' if orientation == 'portrait' else '横'}"
    return f"{fmt_mm(paper[0])}×{fmt_mm(paper[1])} mm"


def front_lines(profile, lang: str | None) -> list[str]:
    """Page 1: the heading, then how to print the sheet and check its scale."""
    long_edge = profile.duplex == "long-edge"
    if is_ja(lang):
        paper = _paper_ja(profile.paper)
        return [
            f"{title(lang)} — 1/2ページ（表） · {paper} · プロファイル {profile.name}",
            f"1. 2ページとも両面印刷（{'長辺とじ' if long_edge else '短辺とじ'}）で、倍率100 %（実際のサイズ）で印刷する。",
            "    「用紙に合わせる」などの拡大縮小はオフ。カードと同じプリンター・用紙・トレイを使う。",
            "2. 下の定規が100 mmあるか測る。違うときは拡大縮小をオフにして印刷し直す。",
            "3. 紙を裏返す：読み取り方は2ページ目（裏）にある。",
        ]
    return [
        f"{title(lang)} — page 1 of 2 (front) · {paper_name(profile.paper)} · profile {profile.name}",
        f"1. Print BOTH pages double-sided, flip on the {'long edge' if long_edge else 'short edge'},"
        " at 100 % / actual size (no fit to page),",
        "    on the printer, paper and tray you print cards with.",
        "2. Check the 100 mm ruler below measures 100 mm. If not, turn off scaling and print again.",
        "3. Turn the sheet over: page 2 tells you how to read the offset.",
    ]


def back_lines(profile, lang: str | None) -> list[str]:
    """Page 2: the heading with the current offset, then how to read the scales and what to set."""
    ox, oy = (fmt_mm(v) for v in profile.back_offset)
    if is_ja(lang):
        return [
            f"{title(lang)} — 2/2ページ（裏） · 現在の back_offset: [{ox}mm, {oy}mm]",
            "この面を手前にして、紙を明かりにかざす。各目印（A＝中央）で、表の縦線がXの目盛りと、",
            "横線がYの目盛りと交わる位置を読む（単位はmm、右と上が＋）。",
            f"シートプロファイルに  back_offset: [{ox}mm + X, {oy}mm + Y]  と書いて印刷し直す。",
            "位置が合えば、読みはどちらも0になる。中央の値を使う。四隅の値が0.5 mmより大きく",
            "食い違うときは、プリンターが裏面を傾けるか拡大縮小している：四隅の平均を使う。",
        ]
    return [
        f"{title(lang)} — page 2 of 2 (back) · current back_offset: [{ox}mm, {oy}mm]",
        "Hold the sheet against a light with THIS side facing you. At each target (A = centre) read where the",
        "front's vertical line crosses the X scale and its horizontal line crosses the Y scale (mm).",
        f"Then set  back_offset: [{ox}mm + X, {oy}mm + Y]  in the sheet profile and print again;",
        "both readings are 0 when calibrated. Use the centre; corners that disagree by more than",
        "0.5 mm mean the printer skews or scales the back: use their average.",
    ]


def scale_note(label: str, lang: str | None) -> str:
    """Under each target on the back: which scale is which."""
    return f"{label}：Xは上、Yは右" if is_ja(lang) else f"{label}: X above, Y right"
