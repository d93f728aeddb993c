"""The balance report: ``balance.json`` (all numbers) and ``balance.pdf`` (charts), written atomically.

Charts are drawn with matplotlib's Agg/PDF backend; Japanese labels use IPAexGothic (found
without importing ``matplotlib_fontja``) and fonts are embedded as TrueType (``pdf.fonttype 42``).
"""
from __future__ import annotations

import io
import textwrap
import json
from pathlib import Path

from ..outputs import write_atomic
from .stats import interval_text, number_text, plain_zeros


def write_reports(result, out_dir: Path) -> list[Path]:
    """balance.json and balance.pdf for a ``BalanceResult``; returns the paths written."""
    data = dict(result.report)
    data["table"] = result.table
    json_path, pdf_path = Path(out_dir) / "balance.json", Path(out_dir) / "balance.pdf"
    pdf = render_pdf(data)  # drawn first: ^C while drawing leaves both files of the last run, not a new json
    write_atomic(json_path, json.dumps(plain_zeros(data), ensure_ascii=False, indent=1, default=str).encode("utf-8"))
    write_atomic(pdf_path, pdf)
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
        for fig in _summary_pages(plt, data, jp):
            pdf.savefig(fig)
            plt.close(fig)
        for page in (_win_rate_page, _length_page, _cards_page, _heroes_page, _deaths_page):
            fig = page(plt, data, jp)
            if fig is not None:
                pdf.savefig(fig)
                plt.close(fig)
    return buf.getvalue()


# Summary page geometry, as fractions of the A4 landscape page height (matplotlib's line pitch is
# 1.2 x the font size): the status legend (at most LEGEND_LINES lines) starts under the settings
# line and the table under it; the problems list starts at PROBLEMS_AT when the whole table ends
# above it on page 1, else one line under the table; nothing goes below BOTTOM.
_LEGEND_TOP, _TABLE_TOP, _TABLE_TOP_CONTINUED, _PROBLEMS_AT, _BOTTOM = 0.897, 0.86, 0.92, 0.16, 0.03
_TABLE_LINE = 6.2 * 1.2 / (8.27 * 72)
_PROBLEM_LINE = 6 * 1.2 / (8.27 * 72)
_LEGEND_SIZE, _LEGEND_WRAP, LEGEND_LINES = 6.5, 200, 2
# Chart labels (card ids, room names, ticks, legends) in points, readable on paper: a chart shows at
# most 40 cards (50 rooms), which leaves each bar's name this much room.
CHART_LABEL_SIZE = 7


def _rank(problem: str) -> int:
    """Errors first, then warnings, then the known findings (accepted in balance.yaml, with their reasons)."""
    return 2 if ": known: " in problem else 1 if ": warning: " in problem else 0


def summary_layout(n_table: int, n_problems: int) -> list[list[tuple[str, float, int, int]]]:
    """Pages of ``(block, top, start, stop)``: table lines ``[start, stop)`` (a continued table repeats
    the 2 header lines above them) or problems ``[start, stop)`` (under a heading line) with their top
    edge, so that no block runs into the next or off the page."""
    pages, top, first, start = [], _TABLE_TOP, True, 0
    while True:
        room = int((top - _BOTTOM) / _TABLE_LINE + 1e-9) - (0 if first else 2)
        stop = min(n_table, start + room)
        pages.append([("table", top, start, stop)])
        if stop >= n_table:
            break
        top, first, start = _TABLE_TOP_CONTINUED, False, stop
    lines = (stop - start) + (0 if first else 2)
    bottom = top - lines * _TABLE_LINE
    top = _PROBLEMS_AT if first and bottom >= _PROBLEMS_AT else bottom - _TABLE_LINE
    start = 0
    while start < n_problems:
        room = int((top - _BOTTOM) / _PROBLEM_LINE + 1e-9) - 1
        if room < 1:
            pages.append([])
            top = _TABLE_TOP_CONTINUED
            continue
        stop = min(n_problems, start + room)
        pages[-1].append(("problems", top, start, stop))
        start = stop
        if start < n_problems:
            pages.append([])
            top = _TABLE_TOP_CONTINUED
    return pages


def _summary_pages(plt, data, jp):
    """The metric table and every problem, on as many pages as they need (a long table continues on
    the next page under its header; nothing runs off a page or over other text)."""
    verdict = "合格 PASSED" if data.get("passed") else "不合格 FAILED"
    title = f"バランス検証 balance report — {data.get('game')}: {verdict}"
    table = data.get("table", "")
    lines = table.splitlines()
    header = "\n".join(lines[:2])
    # errors first; a long problem is wrapped, not cut: its end is the command that reproduces it
    problems = [line for p in sorted(data.get("problems") or [], key=_rank)
                for line in textwrap.wrap(p, 190, subsequent_indent="    ")]
    figs = []
    layout = summary_layout(len(lines), len(problems))
    for number, blocks in enumerate(layout, start=1):
        fig = plt.figure(figsize=(11.69, 8.27))
        if number == 1:
            fig.text(0.04, 0.95, title, fontproperties=jp, fontsize=16)
            version = str(data.get("engine_version"))  # a game's own engine: its source digest, local-<hex>
            settings = (f"engine {data.get('engine')} {'' if version.startswith('local-') else 'v'}{version}   "
                        f"seed {data.get('seed')}   "
                        f"agent {data.get('agent')}   looks {data.get('looks')}   games {data.get('games_played')}   "
                        f"{data.get('seconds')} s")
            fig.text(0.04, 0.915, settings, fontproperties=jp, fontsize=9)
            fig.text(0.04, _LEGEND_TOP, "\n".join(status_legend()), fontproperties=jp, fontsize=_LEGEND_SIZE,
                     va="top")
        else:
            fig.text(0.04, 0.95, f"{title}  ({number}/{len(layout)})", fontproperties=jp, fontsize=9)
        for block, top, start, stop in blocks:
            if block == "table":
                text = table if (start, stop) == (0, len(lines)) else "\n".join(lines[start:stop])
                if start:
                    text = header + "\n" + text
                fig.text(0.04, top, text, family="monospace", fontsize=6.2, va="top")
            else:
                heading = "問題 problems:" if start == 0 else f"問題 problems ({start + 1}-):"
                fig.text(0.04, top, heading + "\n" + "\n".join(problems[start:stop]), fontproperties=jp,
                         fontsize=6, va="top")
        figs.append(fig)
    return figs


def status_legend() -> list[str]:
    """What the table's status column says, one status never split between lines."""
    from .stats import STATUS_MEANINGS
    lines = ["状態 status:"]
    for i, (mark, meaning) in enumerate(STATUS_MEANINGS):
        entry = f"{mark} ({meaning})" + (";" if i < len(STATUS_MEANINGS) - 1 else "")
        if len(lines[-1]) + 1 + len(entry) > _LEGEND_WRAP:
            lines.append(entry)
        else:
            lines[-1] += " " + entry
    return lines


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
        bars = ax.bar(xs, ys, width, yerr=[lo, hi], capsize=4, label=label)
        # each rate written above its bar: a 0 % bar (random play) is otherwise not seen at all
        ax.bar_label(bars, labels=[f"{y:.0%}" for y in ys], label_type="edge", padding=2, fontsize=7)
    band = (data.get("settings") or {}).get("win_rate") or {}
    if band:
        # behind the bars (zorder 0), or its tint splits each bar it crosses into two colours
        ax.axhspan(band["min"], band["max"], color="green", alpha=0.08, label="band", zorder=0)
    seats = data.get("seats", "players")  # Fatal Fight counts characters, the others players
    ax.set_xticks(range(len(counts)), [f"{n}人 ({n} {seats.removesuffix('s') if int(n) == 1 else seats})"
                                       for n in counts], fontproperties=jp)
    ax.set_ylim(0, 1)
    ax.set_ylabel("勝率 win rate (95% Wilson CI)", fontproperties=jp)
    ax.set_title(f"人数別の勝率 win rate per {seats.removesuffix('s')} count", fontproperties=jp)
    ax.legend(prop=jp)
    return fig


def _length_page(plt, data, jp):
    per = data.get("per_players") or {}
    if not per:
        return None
    from matplotlib.ticker import MaxNLocator
    counts = sorted(per, key=int)
    fig, axes = plt.subplots(1, len(counts), figsize=(11.69, 8.27), sharey=True, squeeze=False)
    for ax, n in zip(axes[0], counts):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # games last whole rounds: no 17.5
        hist = {int(k): v for k, v in per[n]["reference"]["rounds_hist"].items()}
        if hist:
            ax.bar(list(hist), list(hist.values()), width=0.9)
            # a round either side: with one length only, the locator found a single whole number and fell back to 4.6, 4.8...
            ax.set_xlim(min(hist) - 1, max(hist) + 1)
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
    settings = data.get("settings") or {}
    # a use rate needs exposures: an engine whose records count uses only (a game's own simulator) has none
    rates = sorted((u["uses"] / u["exposures"], c) for c, u in usage.items() if u["exposures"])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11.69, 8.27))
    low = rates[:40]
    ax1.barh([c for _, c in low], [r for r, _ in low], color="tab:orange")
    if not low:
        ax1.text(0.5, 0.5, "no exposures recorded\n(summarize's exposures: times drawn or offered)",
                 ha="center", va="center", transform=ax1.transAxes, fontsize=9)
    dead_below = settings.get("dead_cards", {}).get("max_use_rate", 0.05)
    ax1.axvline(dead_below, color="red", lw=1, label=f"dead below {dead_below} (M4)")
    ax1.set_title("使用率の低いカード least-used cards (uses / exposures)", fontproperties=jp, fontsize=9)
    ax1.legend(loc="lower right", fontsize=CHART_LABEL_SIZE)
    impact = sorted(((u["impact"], c) for c, u in usage.items() if u.get("impact") is not None))
    ends = impact[:20] + impact[-20:] if len(impact) > 40 else impact
    paired = data.get("card_impact_paired") or {}
    _impact_chart(ax2, ends, paired, (settings.get("card_impact") or {}).get("swing"), jp)
    for ax in (ax1, ax2):
        ax.tick_params(labelsize=CHART_LABEL_SIZE)
    lines = textwrap.wrap("死にカード dead cards: " + (", ".join(data.get("dead_cards") or []) or "なし none"), 180)
    flagged = data.get("swingy_cards") or []
    if flagged:
        swing = (settings.get("card_impact") or {}).get("swing")
        text = ", ".join(f"{card} {number_text(d, '{:+.3f}')}" for card, d in flagged)
        lines = textwrap.wrap(f"スクリーニングで検出 flagged by the screening (|delta| >= {swing}): {text}", 180) + lines
    if paired:
        text = "; ".join(f"{card} {interval_text(p['delta'], *p['ci95'], None, '{:+.3f}')} "
                         f"({p['games']} × {p['players']}p)" for card, p in paired.items())
        lines = textwrap.wrap("同じシードで中立カードと比較 paired vs a neutral filler: " + text, 150) + lines
    if data.get("filler_command"):  # the screening flags many more cards than the verdict pairs
        lines.insert(0, f"any other card's own effect, paired: {data['filler_command']}")
    fig.text(0.02, 0.01, "\n".join(lines), fontproperties=jp, fontsize=8, va="bottom")  # wrapped: many dead cards ran off the right edge
    fig.tight_layout(rect=(0, 0.01 + 0.018 * len(lines), 1, 1))
    return fig


def _impact_chart(ax, screened, paired, swing, jp) -> None:
    """M5 on one axis: the screening's bars (win rate in games the card was used minus games it was
    left unused) and, on the cards replayed paired, that paired difference with its 95% interval. The
    screening alone read as each card's own effect: a card bought in games already going well showed
    +0.41 where replacing it by a filler on the same seeds moved the win rate by +0.04 (Valheim)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    names = [c for _, c in screened] + [c for c in paired if c not in {c for _, c in screened}]
    ax.barh([c for _, c in screened], [d for d, _ in screened],
            color=["tab:red" if d < 0 else "tab:blue" for d, _ in screened])
    for card, p in paired.items():
        delta, (lo, hi) = p["delta"], p["ci95"]
        ax.errorbar([delta], [card], xerr=[[delta - lo], [hi - delta]], fmt="D", color="black",
                    markersize=4, capsize=3, zorder=3)
    if not names:
        ax.text(0.5, 0.5, "no card was both used and left unused in enough games\n(card_impact.min_games)",
                ha="center", va="center", transform=ax.transAxes, fontsize=9)
    handles = [Patch(color="tab:blue", label="screening: won more when played"),
               Patch(color="tab:red", label="screening: won less when played")]
    if swing:
        for x in (-swing, swing):
            ax.axvline(x, color="grey", lw=0.8, ls="--")
        handles.append(Line2D([], [], color="grey", lw=0.8, ls="--", label=f"swing ±{swing} (M5)"))
    if paired:
        handles.append(Line2D([], [], color="black", marker="D", markersize=4, ls="",
                              label="paired vs a neutral filler, 95% CI: the card's own effect"))
    ax.set_title("カードの影響 card impact (bars: screening, win rate used - unused)",
                 fontproperties=jp, fontsize=9)
    ax.legend(handles=handles, loc="lower right", fontsize=CHART_LABEL_SIZE)


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
    commands = data.get("heroes_commands") or []
    if commands:  # M7 pools the counts' runs: each command shows one of them, with and without each character
        lines = ["M7 pools these runs; each shows its characters' win rates with and without them:", *commands]
        fig.text(0.02, 0.01, "\n".join(lines), fontproperties=jp, fontsize=8, va="bottom")
        fig.tight_layout(rect=(0, 0.01 + 0.018 * len(lines), 1, 1))
    return fig


def _deaths_page(plt, data, jp):
    """Deaths per room (games that keep a ``deaths_by_room`` count): where the difficulty walls are."""
    deaths = data.get("deaths_by_room") or {}
    if not deaths:
        return None
    rooms = sorted(deaths.items(), key=lambda kv: -kv[1])[:50]
    fig, ax = plt.subplots(figsize=(11.69, 8.27))
    ax.barh([r for r, _ in rooms][::-1], [n for _, n in rooms][::-1], color="tab:red")
    ax.tick_params(labelsize=CHART_LABEL_SIZE)
    ax.set_xlabel("死亡数 deaths (reference agent, all player counts)", fontproperties=jp)
    ax.set_title("部屋別の死亡数 deaths by room" + (f" (top {len(rooms)} of {len(deaths)})" if len(deaths) > len(rooms)
                                                else ""), fontproperties=jp)
    fig.tight_layout()
    return fig
