"""Render benchmark: the bench deck through `pnp build` vs. a bare ReportLab script.

Both run in fresh processes in the same invocation, so the figures are ratios measured on
one machine at one time. Prints wall time, peak RSS and PDF size for N = 540 and N = 5,400.

    python bench/render.py            # both sizes
    python bench/render.py --n 540    # one size
    python bench/render.py --n 540 --instructions   # instructions counted by valgrind, not time

The bench deck (issue #2): A4 portrait, 3x3 poker cards, 3 mm bleed in the frame colour with
6 mm between cards, crop marks, a rounded frame in 4 cycling colours, title `カード {i}`, a cost
0-9 in a coloured disc, a 60-character body, one back design mirrored for long-edge duplex.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COLOURS = ["#c0392b", "#2471a3", "#229954", "#b9770e"]
BODY = "敵集団１つを指定し、その先頭１人にダメージを与えてください。"


def body(i: int) -> str:
    text = f"{i}：" + BODY * 3
    return text[:60]


def write_bench_game(root: Path, n: int) -> Path:
    game = root / "bench"
    (game / "layouts" / "bench").mkdir(parents=True)
    (game / "layouts" / "profiles").mkdir(parents=True)
    (game / "game.yaml").write_text(textwrap.dedent(f"""\
        title: ベンチ
        print: {{profile: bench, duplex: long-edge}}
        components:
          - {{id: cards, kind: card, file: cards.yaml, schema: card, size: poker,
             layout: bench/front, back: bench/back, expected: {n}}}
        """), encoding="utf-8")
    (game / "schema.yaml").write_text(textwrap.dedent("""\
        types:
          card:
            fields:
              id: {type: id}
              title: {type: text}
              cost: {type: int, min: 0, max: 9}
              colour: {type: color}
              body: {type: text}
        """), encoding="utf-8")
    lines = [f"- {{id: c{i}, title: カード {i}, cost: {i % 10}, colour: '{COLOURS[i % 4]}', body: '{body(i)}'}}"
             for i in range(n)]
    (game / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (game / "layouts" / "profiles" / "bench.yaml").write_text(
        "paper: a4\norientation: portrait\nmargin: 1.5mm\nbleed: 3mm\ngutter: 6mm\ncrop_marks: true\n"
        # 3x3 as the bench deck (and the bare script) has it: 3 x 63 mm + 2 x 6 mm + 2 x 3 mm
        # fills the 207 mm between the margins, so no room is kept for the crop marks (fit: tightest)
        "fit: tightest\n")
    (game / "layouts" / "bench" / "front.yaml").write_text(textwrap.dedent("""\
        background: "{{ card.colour }}"
        boxes:
          - {id: panel, type: roundrect, x: 3mm, y: 3mm, w: 57mm, h: 82mm, r: 3mm, fill: "#ffffff", stroke: "{{ card.colour }}", stroke_width: 1.5pt}
          - {id: disc, type: ellipse, x: 5mm, y: 5mm, w: 9mm, h: 9mm, fill: "{{ card.colour }}"}
          - {id: cost, type: text, x: 5mm, y: 5mm, w: 9mm, h: 9mm, text: "{{ card.cost }}", size: 12pt, color: "#ffffff", align: center, valign: middle}
          - {id: title, type: text, x: 16mm, y: 5mm, w: 41mm, h: 9mm, text: "{{ card.title }}", size: 11pt, valign: middle}
          - {id: body, type: text, x: 6mm, y: 50mm, w: 51mm, h: 30mm, text: "{{ card.body }}", size: 9pt, min_size: 7pt}
        """), encoding="utf-8")
    (game / "layouts" / "bench" / "back.yaml").write_text(textwrap.dedent("""\
        background: "#1b2631"
        boxes:
          - {id: ring, type: ellipse, x: 16.5mm, y: 29mm, w: 30mm, h: 30mm, stroke: "#f4d03f", stroke_width: 3pt}
          - {id: name, type: text, x: 5mm, y: 62mm, w: 53mm, h: 8mm, text: "BENCH", size: 12pt, color: "#f4d03f", align: center}
        """), encoding="utf-8")
    return game


BARE = textwrap.dedent('''\
    import resource, sys, time
    t0 = time.perf_counter()
    import io, importlib.util
    from pathlib import Path
    from reportlab.lib.colors import HexColor
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.lib.units import mm
    n, out = int(sys.argv[1]), sys.argv[2]
    spec = importlib.util.find_spec("matplotlib_fontja")
    font = Path(list(spec.submodule_search_locations)[0]) / "fonts" / "ipaexg.ttf"
    pdfmetrics.registerFont(TTFont("IPAexGothic", str(font)))
    COLOURS = {colours!r}
    BODY = {body!r}
    W, H, B, G = 63 * mm, 88 * mm, 3 * mm, 6 * mm
    pw, ph = 210 * mm, 297 * mm
    x0 = (pw - 3 * W - 2 * G) / 2
    y0 = (ph - 3 * H - 2 * G) / 2
    c = Canvas(out, pagesize=(pw, ph), invariant=1, initialFontName="IPAexGothic", pageCompression=1)
    def slot(k, mirror=False):
        col, row = k % 3, k // 3
        if mirror:
            col = 2 - col
        return x0 + col * (W + G), ph - y0 - (row + 1) * H - row * G
    def marks():
        c.setLineWidth(0.3)
        for col in range(3):
            for xx in (x0 + col * (W + G), x0 + col * (W + G) + W):
                c.line(xx, ph - y0 + B + 1 * mm, xx, ph - y0 + B + 6 * mm)
                c.line(xx, y0 - B - 1 * mm, xx, y0 - B - 6 * mm)
        for row in range(3):
            for yy in (ph - y0 - row * (H + G), ph - y0 - row * (H + G) - H):
                c.line(x0 - B - 1 * mm, yy, x0 - B - 6 * mm, yy)
                c.line(pw - x0 + B + 1 * mm, yy, pw - x0 + B + 6 * mm, yy)
    def wrap(text, width, size):
        lines, cur = [], ""
        for ch in text:
            if pdfmetrics.stringWidth(cur + ch, "IPAexGothic", size) > width:
                lines.append(cur); cur = ch
            else:
                cur += ch
        return lines + [cur]
    for start in range(0, n, 9):
        page = range(start, min(start + 9, n))
        for k, i in enumerate(page):
            x, y = slot(k)
            col = HexColor(COLOURS[i % 4])
            c.setFillColor(col); c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
            c.setFillColor(HexColor("#ffffff")); c.setStrokeColor(col); c.setLineWidth(1.5)
            c.roundRect(x + 3 * mm, y + 3 * mm, 57 * mm, 82 * mm, 3 * mm, stroke=1, fill=1)
            c.setFillColor(col); c.circle(x + 9.5 * mm, y + H - 9.5 * mm, 4.5 * mm, stroke=0, fill=1)
            c.setFillColor(HexColor("#ffffff")); c.setFont("IPAexGothic", 12)
            c.drawCentredString(x + 9.5 * mm, y + H - 11 * mm, str(i % 10))
            c.setFillColor(HexColor("#000000")); c.setFont("IPAexGothic", 11)
            c.drawString(x + 16 * mm, y + H - 11 * mm, f"カード {{i}}")
            c.setFont("IPAexGothic", 9)
            text = (f"{{i}}：" + BODY * 3)[:60]
            for j, line in enumerate(wrap(text, 51 * mm, 9)):
                c.drawString(x + 6 * mm, y + H - 53 * mm - j * 11.7, line)
        marks(); c.showPage()
        for k, i in enumerate(page):
            x, y = slot(k, mirror=True)
            c.setFillColor(HexColor("#1b2631")); c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
            c.setStrokeColor(HexColor("#f4d03f")); c.setLineWidth(3)
            c.circle(x + W / 2, y + H / 2, 15 * mm, stroke=1, fill=0)
            c.setFillColor(HexColor("#f4d03f")); c.setFont("IPAexGothic", 12)
            c.drawCentredString(x + W / 2, y + 20 * mm, "BENCH")
        marks(); c.showPage()
    c.save()
    print(time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
''').format(colours=COLOURS, body=BODY)

PIPELINE = textwrap.dedent('''\
    import resource, sys, time
    t0 = time.perf_counter()
    from generator.cli import main
    try:  # `pnp build GAME --no-validate -q -o OUT`, in this process so that it can report its clock
        main(["build", sys.argv[1], "--no-validate", "-q", "-o", sys.argv[2]])
    except SystemExit as exc:
        assert exc.code == 0, exc.code
    print(time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
''')


_BYTECODE = tempfile.TemporaryDirectory(prefix="pnp-bench-pyc-")
_CACHE = tempfile.TemporaryDirectory(prefix="pnp-bench-cache-")


def _env() -> dict:
    """Both scripts run from compiled bytecode, as a build a designer runs daily does: with
    PYTHONDONTWRITEBYTECODE set (some shells and containers set it) every run would compile the
    generator's sources again, a cost the bare script never pays for ReportLab's (compiled when
    pip installed it). The bytecode goes to a temporary prefix, out of the repository. The
    pipeline's parsed-font cache (``generator/fontcache.py``) is a temporary folder too, filled by
    the warm-up build as a designer's first build fills theirs."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = _BYTECODE.name
    env["PNP_CACHE_DIR"] = _CACHE.name
    return env


def instructions(script: str, *args) -> int:
    """Instructions the whole process executes, counted by valgrind (optional, ``--instructions``):
    the same count whatever else the machine is doing, so a change can be judged on a loaded
    machine. Not a time: hashing and memory stalls weigh differently."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt install valgrind)")
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
                           script, *map(str, args)], capture_output=True, text=True, cwd=REPO, env=_env())
    if proc.returncode:
        raise SystemExit(proc.stderr[-2000:])
    counted = re.search(r"Collected : (\d+)", proc.stderr)
    if counted is None:
        raise SystemExit("valgrind printed no instruction count:\n" + proc.stderr[-2000:])
    return int(counted.group(1))


def run(script: str, *args) -> tuple[float, float, float, int]:
    """Wall seconds as the script measures them (from before its imports, for both), wall seconds
    of the whole process (the interpreter's start included, what a user waits for), CPU seconds of
    the process, peak RSS in KiB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True, cwd=REPO,
                          env=_env())
    process = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    seconds, rss_kib = proc.stdout.split()[-2:]
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return float(seconds), process, cpu, int(rss_kib)


def measure(n: int, count_instructions: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        game = write_bench_game(root, n)
        bare_pdf = root / "bare.pdf"
        if count_instructions:
            bare, pipe = instructions(BARE, n, bare_pdf), instructions(PIPELINE, game, root / "out")
            return {"n": n, "bare_instructions": bare, "pipeline_instructions": pipe,
                    "instruction_ratio": round(pipe / bare, 3)}
        bare_s, bare_process, bare_cpu, bare_rss = run(BARE, n, bare_pdf)
        pipe_s, pipe_process, pipe_cpu, pipe_rss = run(PIPELINE, game, root / "out")
        pipe_pdf = root / "out" / "print-a4.pdf"
        # CPU time includes the interpreter's start-up for both; it moves far less than wall
        # time when other work shares the machine.
        return {"n": n, "bare_s": round(bare_s, 2), "pipeline_s": round(pipe_s, 2),
                "time_ratio": round(pipe_s / bare_s, 2), "bare_process_s": round(bare_process, 2),
                "pipeline_process_s": round(pipe_process, 2), "process_ratio": round(pipe_process / bare_process, 2),
                "bare_cpu_s": round(bare_cpu, 2),
                "pipeline_cpu_s": round(pipe_cpu, 2), "cpu_ratio": round(pipe_cpu / bare_cpu, 2),
                "bare_peak_mib": round(bare_rss / 1024, 1),
                "pipeline_peak_mib": round(pipe_rss / 1024, 1), "bare_pdf_kib": bare_pdf.stat().st_size // 1024,
                "pipeline_pdf_kib": pipe_pdf.stat().st_size // 1024}


def median_of(runs: list[dict]) -> dict:
    """One row from repeated runs: each figure's median, plus the spread of the ratios. A single
    run at 540 cards lasts a third of a second, so one noisy moment on the machine can move its
    ratio by 0.3; the median of alternating pairs is what the target is judged on."""
    row = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    if len(runs) > 1:
        row["runs"] = len(runs)
        for key in ("time_ratio", "cpu_ratio"):
            if key in runs[0]:
                row[key + "_range"] = [min(run[key] for run in runs), max(run[key] for run in runs)]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, action="append", help="deck sizes (default 540 and 5400)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind instead of timing (slow: ~50x)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed pairs per size, bare and pipeline alternating; medians reported (default 5)")
    args = parser.parse_args()
    measure(9)  # untimed: every module either script imports is compiled before the runs that count
    repeat = 1 if args.instructions else max(1, args.repeat)  # an instruction count does not vary
    rows = [median_of([measure(n, args.instructions) for _ in range(repeat)]) for n in (args.n or [540, 5400])]
    if len(rows) == 2 and not args.instructions:
        rows.append({"memory_ratio_5400_vs_540": round(rows[1]["pipeline_peak_mib"] / rows[0]["pipeline_peak_mib"], 2)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print("  ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
