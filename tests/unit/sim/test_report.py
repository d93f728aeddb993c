"""balance.pdf's summary: a long metric table and many problems stay on the page and readable."""
import pypdfium2 as pdfium
import pytest

from generator.sim import report
from generator.sim.report import render_pdf, summary_layout


def _data(n_table: int, n_problems: int) -> dict:
    rows = [f"M{i:03d} metric row {i:03d}    3    0.{i:03d} [0.1, 0.2] (400)    [0.1, 0.9]    pass"
            for i in range(n_table - 2)]
    table = "\n".join(["metric    players    value    band    status", "-" * 60] + rows)
    problems = [f"content/g/balance.yaml:{i}: warning: problem number {i:03d}" for i in range(n_problems)]
    return {"game": "g", "passed": True, "table": table, "problems": problems}


def _page_texts(pdf: bytes):
    """Per summary page: (page height, text, lowest and highest char box edge) for pages with text."""
    out = []
    for page in pdfium.PdfDocument(pdf):
        text = page.get_textpage()
        n = text.count_chars()
        if not n:
            continue
        boxes = [text.get_charbox(i) for i in range(n)]
        boxes = [b for b in boxes if b[2] > b[0]]
        out.append((page.get_height(), text.get_text_range(),
                    min(b[1] for b in boxes), max(b[3] for b in boxes)))
    return out


@pytest.mark.parametrize("n_table, n_problems", [(112, 23), (95, 12)])
def test_long_summary_continues_on_next_page_and_keeps_every_problem(n_table, n_problems):
    data = _data(n_table, n_problems)
    pages = _page_texts(render_pdf(data))
    summary = [p for p in pages if "metric row" in p[1] or "problem number" in p[1]]
    assert len(summary) >= 2
    for height, _text, low, high in summary:
        assert low >= 0.02 * height and high <= height      # nothing runs off the page
    text = "".join(p[1] for p in summary)
    for i in range(n_table - 2):
        assert f"metric row {i:03d}" in text
    for i in range(n_problems):
        assert f"problem number {i:03d}" in text


@pytest.mark.parametrize("n_table", [0, 3, 53, 58, 59, 68, 69, 112, 140, 300])
@pytest.mark.parametrize("n_problems", [0, 3, 9, 10, 14, 23, 90])
def test_summary_blocks_do_not_overlap_or_leave_the_page(n_table, n_problems):
    pages = summary_layout(n_table, n_problems)
    seen = {"table": [], "problems": []}
    for number, blocks in enumerate(pages):
        bottom_of_previous = None
        for block, top, start, stop in blocks:
            lines = (stop - start) + (2 if block == "table" and start else 0)
            pitch = report._TABLE_LINE if block == "table" else report._PROBLEM_LINE
            height = lines * pitch if block == "table" else (lines + 1) * pitch
            assert top - height >= report._BOTTOM - 1e-9
            if bottom_of_previous is not None:
                assert top <= bottom_of_previous + 1e-9
            bottom_of_previous = top - height
            seen[block] += range(start, stop)
    assert seen["table"] == list(range(n_table))
    assert seen["problems"] == list(range(n_problems))
    assert all(pages)


def test_deaths_by_room_get_a_chart_page():
    deaths = {f"a{i}-boss": 100 - i for i in range(1, 11)} | {"a1-03": 2}
    data = {"game": "x", "passed": True, "table": "", "deaths_by_room": deaths}
    pages = _page_texts(render_pdf(data))
    chart = [text for _h, text, _lo, _hi in pages if "deaths by room" in text]
    assert len(chart) == 1 and "a1-boss" in chart[0] and "a1-03" in chart[0]
    assert all(lo >= 0 and hi <= height for height, _t, lo, hi in pages)
    assert not any("deaths by room" in text for _h, text, _lo, _hi in _page_texts(render_pdf(_data(3, 0))))


def test_errors_come_before_warnings_and_many_dead_cards_stay_on_the_page():
    data = _data(3, 3)
    data["problems"].append("content/g/balance.yaml:9: win_rate: M1 win rate: the failed band")
    data["dead_cards"] = [f"card-{i:03d}" for i in range(60)]
    data["card_usage"] = {c: {"uses": 0, "exposures": 100, "impact": None} for c in data["dead_cards"]}
    pages = _page_texts(render_pdf(data))
    summary = next(text for _h, text, _lo, _hi in pages if "problem number" in text)
    assert summary.index("the failed band") < summary.index("problem number 000")
    cards = next(page for page in pages if "dead cards" in page[1])
    assert "card-059" in cards[1]
    width = 11.69 * 72
    doc = pdfium.PdfDocument(render_pdf(data))
    for page in doc:
        text = page.get_textpage()
        boxes = [text.get_charbox(i) for i in range(text.count_chars())]
        assert all(b[2] <= width + 1e-6 for b in boxes if b[2] > b[0])


def test_the_heroes_page_names_the_commands_that_show_each_characters_win_rates():
    data = _data(3, 0)
    data["heroes"] = {"a": {"wins": 6, "games": 10}, "b": {"wins": 4, "games": 10}}
    data["heroes_commands"] = [f"pnp simulate g --players {n} --agent greedy --seed 0 --games 400 --heroes"
                               for n in (2, 3)]
    heroes = next(text for _h, text, _lo, _hi in _page_texts(render_pdf(data)) if "M7 pools" in text)
    assert all("".join(c.split()) in "".join(heroes.split()) for c in data["heroes_commands"])


def test_a_long_problem_is_wrapped_to_its_reproduce_command_not_cut():
    data = _data(3, 0)
    problem = ("content/g/balance.yaml:46: warning: pressure.combo_boss_round_share: spec §6 band: "
               "combo_boss_round_share with 2 characters is 0.000 [0.000, 0.010] (400), outside [0.1, 0.4]; "
               "reproduce: pnp simulate content/g --players 2 --agent greedy --seed 0 --games 400")
    data["problems"] = [problem]
    summary = "".join(text for _h, text, _lo, _hi in _page_texts(render_pdf(data)))
    assert "".join(problem.split()) in "".join(summary.split())


def test_a_report_interrupted_while_drawing_leaves_both_files_of_the_last_run(tmp_path, monkeypatch):
    from types import SimpleNamespace

    last = SimpleNamespace(report={"game": "g", "passed": True}, table="old")
    report.write_reports(last, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def interrupted(data):
        raise KeyboardInterrupt
    monkeypatch.setattr(report, "render_pdf", interrupted)
    with pytest.raises(KeyboardInterrupt):
        report.write_reports(SimpleNamespace(report={"game": "g", "passed": False}, table="new"), tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def _page_chars(page):
    """(char, font size in points, box) of every drawn character of a PDF page."""
    import pypdfium2.raw as raw

    text = page.get_textpage()
    out = []
    for i in range(text.count_chars()):
        box = text.get_charbox(i)
        if box[2] > box[0]:
            out.append((text.get_text_range(i, 1), raw.FPDFText_GetFontSize(text.raw, i), box))
    return out


def test_the_summary_explains_every_status_above_the_table():
    from generator.sim.stats import STATUS_MEANINGS

    assert len(report.status_legend()) <= report.LEGEND_LINES  # the table starts under that many lines
    data = _data(12, 0)
    page = pdfium.PdfDocument(render_pdf(data))[0]
    text = " ".join(page.get_textpage().get_text_range().split())
    for mark, meaning in STATUS_MEANINGS:
        assert f"{mark} ({meaning})" in text
    chars = _page_chars(page)
    legend_bottom = min(box[1] for ch, size, box in chars if size == pytest.approx(report._LEGEND_SIZE, abs=0.05))
    table_top = max(box[3] for ch, size, box in chars if size == pytest.approx(6.2, abs=0.05))
    assert legend_bottom > table_top


def test_the_readme_gives_each_status_the_legend_s_words():
    """One wording: the README's "Reading the table" and balance.pdf's legend say the same."""
    from pathlib import Path

    from generator.sim.stats import STATUS_MEANINGS

    readme = " ".join((Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8").split())
    for mark, meaning in STATUS_MEANINGS:
        assert "/".join(f"`{m}`" for m in mark.split("/")) + f" ({meaning})" in readme


def test_chart_labels_are_readable_on_paper():
    """Card and room names on the charts at 6 pt or more, even with 40 bars a chart; the flagged cards
    are all listed under the charts, the colours explained."""
    cards = {f"card_{i:03d}": {"uses": i, "exposures": 100, "impact": (i - 30) / 300} for i in range(60)}
    data = {**_data(3, 0), "card_usage": cards, "swingy_cards": [[f"card_{i:03d}", (i - 30) / 300] for i in range(45, 60)],
            "deaths_by_room": {f"room-{i:02d}": 60 - i for i in range(60)},
            "settings": {"card_impact": {"swing": 0.05}}}
    doc = pdfium.PdfDocument(render_pdf(data))
    charts = [p for p in doc if "least-used" in p.get_textpage().get_text_range()
              or "deaths by room" in p.get_textpage().get_text_range()]
    assert len(charts) == 2
    for page in charts:
        sizes = [size for ch, size, box in _page_chars(page) if not ch.isspace()]
        assert min(sizes) >= 6
    text = " ".join(charts[0].get_textpage().get_text_range().split())
    assert "card_059 +0.097" in text and "card_045 +0.050" in text
    assert "won more when played" in text and "dead below" in text


def test_the_win_rate_band_is_behind_the_bars():
    """The target band shades the chart's background: drawn over the bars it tinted each bar's part
    inside the band, so one bar showed two colours."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rate = {"win_rate": 0.6, "ci95": [0.55, 0.65]}
    data = {"agent": "greedy", "per_players": {"2": {"reference": rate, "random": rate}},
            "settings": {"win_rate": {"min": 0.35, "max": 0.75}}}
    fig = report._win_rate_page(plt, data, report._font())
    try:
        ax = fig.axes[0]
        band = [p for p in ax.patches if p.get_label() == "band"]
        bars = [p for container in ax.containers for p in getattr(container, "patches", [])]
        assert len(band) == 1 and len(bars) == 2
        assert all(band[0].get_zorder() < bar.get_zorder() for bar in bars)
    finally:
        plt.close(fig)


def test_every_win_rate_bar_is_labelled_so_a_zero_bar_is_seen():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = {"agent": "greedy", "per_players": {"2": {"reference": {"win_rate": 0.6, "ci95": [0.55, 0.65]},
                                                     "random": {"win_rate": 0.0, "ci95": [0.0, 0.01]}}}}
    fig = report._win_rate_page(plt, data, report._font())
    try:
        assert sorted(t.get_text() for t in fig.axes[0].texts) == ["0%", "60%"]
    finally:
        plt.close(fig)


def test_balance_json_writes_no_negative_zero(tmp_path):
    """A paired delta rounded from a tiny negative (``round(-1e-17, 4)``) was written -0.0."""
    from types import SimpleNamespace

    data = {"game": "g", "passed": True, "card_impact_paired": {"c1": {"players": 2, "games": 40,
                                                                          "delta": round(-1e-17, 4),
                                                                          "ci95": [-0.05, round(-1e-17, 4)]}}}
    json_path = report.write_reports(SimpleNamespace(report=data, table="t"), tmp_path)[0]
    text = json_path.read_text(encoding="utf-8")
    assert "-0.0," not in text and "-0.0\n" not in text and "-0.05" in text


def test_game_length_axes_count_whole_rounds():
    """Four narrow charts of game lengths are labelled in whole rounds (Metroidvania's 4-player chart
    read 17.5, 20.0, 22.5)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    spans = {"1": range(12, 25), "2": range(13, 25), "3": range(14, 25), "4": range(17, 25),
             "5": range(5, 6)}  # every game the same length (a small game's own simulator): 4.6, 4.8... before
    data = {"per_players": {n: {"reference": {"rounds_hist": {str(r): r for r in rounds},
                                              "rounds": {"median": 24, "p95": 24}}}
                            for n, rounds in spans.items()}}
    fig = report._length_page(plt, data, report._font())
    try:
        fig.canvas.draw()
        for ax in fig.axes:
            low, high = ax.get_xlim()
            ticks = [t for t in ax.get_xticks() if low <= t <= high]
            assert ticks and all(float(t).is_integer() for t in ticks), ticks
    finally:
        plt.close(fig)


def test_the_win_rate_axis_counts_the_games_own_seats():
    """Players for most games, characters for Fatal Fight (the report said characters for every game)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rate = {"win_rate": 0.6, "ci95": [0.55, 0.65]}
    for seats, said in ((None, ["1人 (1 player)", "2人 (2 players)"]), ("characters", ["1人 (1 character)", "2人 (2 characters)"])):
        data = {"agent": "greedy", "per_players": {"1": {"reference": rate}, "2": {"reference": rate}},
                **({"seats": seats} if seats else {})}
        fig = report._win_rate_page(plt, data, report._font())
        try:
            assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == said
        finally:
            plt.close(fig)


def test_cards_page_says_what_is_missing_when_an_engine_counts_uses_only():
    data = {**_data(2, 0), "card_usage": {"foxfire": {"uses": 40, "exposures": 0}}}
    doc = pdfium.PdfDocument(render_pdf(data))
    text = " ".join(doc[len(doc) - 1].get_textpage().get_text_range().split())
    assert "no exposures recorded" in text and "no card was both used and left unused" in text


def test_the_card_impact_chart_shows_each_paired_card_s_own_effect_beside_its_screening_bar():
    """Valheim's screening bar read +0.41 for a card whose paired difference was +0.04 [+0.02, +0.07]:
    the chart drew the screening only, so a designer took it for the card's effect."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.container import ErrorbarContainer

    data = {"card_usage": {"spar": {"uses": 90, "exposures": 100, "impact": 0.41},
                           "scout": {"uses": 80, "exposures": 100, "impact": 0.38}},
            "card_impact_paired": {"spar": {"players": 3, "games": 1200, "delta": 0.043, "ci95": [0.022, 0.065]}},
            "settings": {"card_impact": {"swing": 0.05}}}
    fig = report._cards_page(plt, data, report._font())
    try:
        ax = fig.axes[1]
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert len(bars) == 1
        (x,), (y,) = bars[0].lines[0].get_data()
        assert (x, y) == (pytest.approx(0.043), "spar")
        lo, hi = bars[0].lines[2][0].get_segments()[0][:, 0]
        assert (lo, hi) == pytest.approx((0.022, 0.065))
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any("paired" in t and "own effect" in t for t in legend)
        assert any("swing" in t for t in legend)
    finally:
        plt.close(fig)


def test_the_cards_page_names_the_command_that_pairs_any_other_card():
    data = {**_data(2, 0), "card_usage": {"spar": {"uses": 90, "exposures": 100, "impact": 0.41}},
            "card_impact_paired": {"spar": {"players": 3, "games": 1200, "delta": 0.043, "ci95": [0.022, 0.065]}},
            "filler_command": "pnp simulate valheim --players 3 --filler CARD"}
    doc = pdfium.PdfDocument(render_pdf(data))
    text = " ".join(doc[len(doc) - 1].get_textpage().get_text_range().split())
    assert "any other card's own effect, paired: pnp simulate valheim --players 3 --filler CARD" in text
