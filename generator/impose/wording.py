"""The words a tiled board prints for the person assembling it (tile captions, glue strips, the
assembly page), in the game's language: Japanese for ``lang: ja``, English for any other."""
from __future__ import annotations

from .sizes import fmt_mm


def is_ja(lang: str | None) -> bool:
    return (lang or "").lower().startswith("ja")


def tile_caption(tile, row_name: str, lang: str | None = "en") -> str:
    """``"A2 — row A, column 2 · glue under A1's right edge"`` / ``"A2 — A行 2列 · A1の右端の下に貼る"``."""
    if is_ja(lang):
        head = f"{tile.label} — {row_name}行 {tile.col + 1}列"
        if tile.glue_under:
            edges = "と".join(f"{label}の{'右端' if edge == 'right' else '下端'}" for label, edge in tile.glue_under)
            return f"{head} · {edges}の下に貼る"
        return f"{head} · いちばん上に重ねる：実線で切る"
    head = f"{tile.label} — row {row_name}, column {tile.col + 1}"
    if tile.glue_under:
        edges = " and ".join(f"{label}'s {edge} edge" for label, edge in tile.glue_under)
        return f"{head} · glue under {edges}"
    return f"{head} · lies on top: trim along the solid edges"


def side_of(side: str, lang: str | None) -> str:
    """Which side a print page is, for its label: ``表 (front)`` (the printer's English kept beside the
    Japanese) / ``front``."""
    return f"{'表' if side == 'front' else '裏'} ({side})" if is_ja(lang) else side


def page_of(number: int, total: int, lang: str | None) -> str:
    return f"{number}/{total}ページ" if is_ja(lang) else f"page {number}/{total}"


def glue_under(label: str, lang: str | None) -> str:
    """What a glue strip says (hidden once assembled)."""
    return f"{label}の下に貼る" if is_ja(lang) else f"glue under {label}"


def assembly_heading(name: str, plan, board_w: float, board_h: float, lang: str | None) -> str:
    if is_ja(lang):
        return (f"{name}組み立て：{len(plan.tiles)}ページ（{plan.rows}段×{plan.cols}列）、のりしろ {fmt_mm(plan.overlap)} mm"
                f"（ボード {fmt_mm(board_w)}×{fmt_mm(board_h)} mm）")
    return (f"{name}assembly: {len(plan.tiles)} pages, {plan.rows} rows × {plan.cols} columns,"
            f" {fmt_mm(plan.overlap)} mm glue strips (board {fmt_mm(board_w)}×{fmt_mm(board_h)} mm)")


def assembly_steps(lang: str | None) -> list[str]:
    if is_ja(lang):
        return [
            "1. 各ページを実線で切る（右と下、隣のページが続く辺）。",
            "2. 次のページののりしろ（この図の破線）に重ねる：切った辺を破線に、十字の印を合わせる。",
            "3. 読む順に貼る：A1をA2の上に、…。各段は下の段の上端ののりしろに重ねる。",
        ]
    return [
        "1. Trim each page along its solid edges (its right and bottom, where a neighbour follows).",
        "2. Lay it over the next page's glue strip (dashed on this plan): its edge on the dashed"
        " line, the crosses lined up.",
        "3. Glue in reading order: A1 over A2, …; each row over the top strip of the row below.",
    ]


def gutterfold_instruction(fold: str, lang: str | None) -> str:
    """The page label's last part on a fold-and-glue sheet (``fold``: vertical or horizontal)."""
    if is_ja(lang):
        return f"{'縦' if fold == 'vertical' else '横'}折り：破線で折り、貼ってから切る"
    return f"{fold} fold: fold on the dashed line, glue, then cut"
