"""The balance report: ``balance.json`` (all numbers) and ``balance.pdf`` (charts), written atomically.

Charts are drawn with matplotlib's Agg/PDF backend; Japanese labels use IPAexGothic (found
without importing ``matplotlib_fontja``) and fonts are embedded as TrueType (``pdf.fonttype 42``).
"""
from __future__ import annotations

import io
import json
from pathlib import Path

from ..outputs import write_atomic


def write_reports(result, out_dir: Path) -> list[Path]:
    """balance.json and balance.pdf for a ``BalanceResult``; returns the paths written."""
    data = dict(result.report)
    data["table"] = result.table
    json_path, pdf_path = Path(out_dir) / "balance.json", Path(out_dir) / "balance.pdf"
    write_atomic(json_path, json.dumps(data, ensure_ascii=False, indent=1, default=str).encode("utf-8"))
    write_atomic(pdf_path, render_pdf(data))
    return [json_path, pdf_path]


def _font():
    from matplotlib.font_manager import FontProperties
    from ..fonts import default_font_path
    return FontProperties(fname=str(default_font_path()))


def render_pdf(data: dict) -> bytes:
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["pdf.fonttype"] = 42
    matplotlib.rcParams["svg.hashsalt"] = "pnp"
    from matplotlib.backends.backend_pdf import PdfPages
    import matplotlib.pyplot as plt

    jp = _font()
    buf = io.BytesIO()
    with PdfPages(buf, metadata={"CreationDate": None, "Title": f"balance report: {data.get('game')}"}) as pdf:
        for page in (_summary_page, _win_rate_page, _length_page, _cards_page, _heroes_page):
            fig = page(plt, data, jp)
            if fig is not None:
                pdf.savefig(fig)
                plt.close(fig)
    return buf.getvalue()


def _summary_page(plt, data, jp):
    fig = plt.figure(figsize=(11.69, 8.27))
    verdict = "合格 PASSED" if data.get("passed") else "不合格 FAILED"
    fig.text(0.04, 0.95, f"バランス検証 balance report — {data.get('game')}: {verdict}", fontproperties=jp, fontsize=16)
    settings = (f"engine {data.get('engine')} v{data.get('engine_version')}   seed {data.get('seed')}   "
                f"agent {data.get('agent')}   looks {data.get('looks')}   games {data.get('games_played')}   "
                f"{data.get('seconds')} s")
    fig.text(0.04, 0.915, settings, fontproperties=jp, fontsize=9)
    fig.text(0.04, 0.89, data.get("table", ""), family="monospace", fontsize=6.2, va="top")
    problems = data.get("problems") or []
    if problems:
        shown = "\n".join(p if len(p) < 190 else p[:187] + "..." for p in problems[:14])
        fig.text(0.04, 0.16, "問題 problems:\n" + shown, fontproperties=jp, fontsize=6, va="top")
    return fig


def _win_rate_page(plt, data, jp):
    per = data.get("per_players") or {}
    if not per:
        return None
    fig, ax = plt.subplots(figsize=(11.69, 8.27))
    counts = sorted(per, key=int)
    series = [k for k in ("reference", "nocombo", "random") if any(k in per[n] for n in counts)]
    width = 0.8 / len(series)
    for j, key in enumerate(series):
        xs, ys, lo, hi = [], [], [], []
        for i, n in enumerate(counts):
            s = per[n].get(key)
            if s:
                xs.append(i + (j - (len(series) - 1) / 2) * width)
                ys.append(s["win_rate"])
                lo.append(max(0.0, s["win_rate"] - s["ci95"][0]))
                hi.append(max(0.0, s["ci95"][1] - s["win_rate"]))
        label = {"reference": data.get("agent"), "nocombo": "nocombo", "random": "random"}[key]
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=4, label=label)
    band = (data.get("settings") or {}).get("win_rate") or {}
    if band:
        ax.axhspan(band["min"], band["max"], color="green", alpha=0.08, label="band")
    ax.set_xticks(range(len(counts)), [f"{n}人 ({n} characters)" for n in counts], fontproperties=jp)
    ax.set_ylim(0, 1)
    ax.set_ylabel("勝率 win rate (95% Wilson CI)", fontproperties=jp)
    ax.set_title("人数別の勝率 win rate per character count", fontproperties=jp)
    ax.legend(prop=jp)
    return fig


def _length_page(plt, data, jp):
    per = data.get("per_players") or {}
    if not per:
        return None
    counts = sorted(per, key=int)
    fig, axes = plt.subplots(1, len(counts), figsize=(11.69, 8.27), sharey=True, squeeze=False)
    for ax, n in zip(axes[0], counts):
        hist = {int(k): v for k, v in per[n]["reference"]["rounds_hist"].items()}
        if hist:
            ax.bar(list(hist), list(hist.values()), width=0.9)
        r = per[n]["reference"]["rounds"]
        ax.set_title(f"{n}人: 中央値 {r['median']:.0f}, p95 {r['p95']:.0f}", fontproperties=jp)
        ax.set_xlabel("ラウンド数 rounds per game", fontproperties=jp)
    axes[0][0].set_ylabel("ゲーム数 games", fontproperties=jp)
    fig.suptitle("ゲームの長さ game length (reference agent)", fontproperties=jp)
    return fig


def _cards_page(plt, data, jp):
    usage = data.get("card_usage") or {}
    if not usage:
        return None
    rates = sorted(((u["uses"] / u["exposures"] if u["exposures"] else 0.0, c) for c, u in usage.items()))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11.69, 8.27))
    low = rates[:40]
    ax1.barh([c for _, c in low], [r for r, _ in low], color="tab:orange")
    ax1.axvline((data.get("settings") or {}).get("dead_cards", {}).get("max_use_rate", 0.05), color="red", lw=1)
    ax1.set_title("使用率の低いカード least-used cards (uses / exposures)", fontproperties=jp, fontsize=9)
    ax1.tick_params(axis="y", labelsize=5)
    impact = sorted(((u["impact"], c) for c, u in usage.items() if u.get("impact") is not None))
    ends = impact[:20] + impact[-20:] if len(impact) > 40 else impact
    ax2.barh([c for _, c in ends], [d for d, _ in ends], color=["tab:red" if d < 0 else "tab:blue" for d, _ in ends])
    ax2.set_title("カードの影響 card impact (win rate used - unused, screening)", fontproperties=jp, fontsize=9)
    ax2.tick_params(axis="y", labelsize=5)
    dead = data.get("dead_cards") or []
    fig.text(0.02, 0.01, "死にカード dead cards: " + (", ".join(dead) if dead else "なし none"), fontproperties=jp,
             fontsize=8)
    paired = data.get("card_impact_paired") or {}
    if paired:
        text = "; ".join(f"{card} {p['delta']:+.3f} [{p['ci95'][0]:+.3f}, {p['ci95'][1]:+.3f}] "
                         f"({p['games']} × {p['players']}p)" for card, p in paired.items())
        fig.text(0.02, 0.035, "同じシードで中立カードと比較 paired vs a neutral filler: " + text,
                 fontproperties=jp, fontsize=8)
    fig.tight_layout(rect=(0, 0.06 if paired else 0.03, 1, 1))
    return fig


def _heroes_page(plt, data, jp):
    heroes = data.get("heroes") or {}
    if not heroes:
        return None
    from .stats import wilson
    fig, ax = plt.subplots(figsize=(11.69, 8.27))
    names = list(heroes)
    ps = [h["wins"] / h["games"] if h["games"] else 0 for h in heroes.values()]
    cis = [wilson(h["wins"], h["games"]) for h in heroes.values()]
    ax.bar(names, ps, yerr=[[max(0.0, p - c[0]) for p, c in zip(ps, cis)], [max(0.0, c[1] - p) for p, c in zip(ps, cis)]], capsize=4)
    ax.set_ylim(0, 1)
    ax.set_title("キャラクター別の勝率 win rate with each character in the party", fontproperties=jp)
    return fig
