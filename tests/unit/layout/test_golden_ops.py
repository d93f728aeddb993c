"""Golden drawing logs: what the tiny game's faces draw, as reviewable text.

A change in layout resolution, units, text placement or icons shows up as a diff of this
log. When a change is intended, regenerate with `PNP_UPDATE_GOLDEN=1 pytest ...` and review
the diff before committing it (never regenerate blindly).
"""
import os
from pathlib import Path

from generator.cards import CardBuilder
from generator.content import load_game

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "tiny-faces.txt"


def describe(op, depth=0) -> list[str]:
    pad = "  " * depth
    head = f"{pad}{op.kind:<9} {op.id:<12} x={op.x:7.2f} y={op.y:7.2f} w={op.w:7.2f} h={op.h:7.2f}"
    style = " ".join(f"{k}={round(v, 2) if isinstance(v, float) else v}" for k, v in sorted(op.style.items())
                     if v not in (None, 0, 0.0))
    lines = [f"{head} {style}".rstrip()]
    if op.kind == "text":
        block = op.payload
        lines.append(f"{pad}  size={block.size:g} fits={block.fits}")
        for line in block.lines:
            runs = "".join((f"**{r.text}**" if r.bold else r.text) if r.kind == "text" else f"[{r.name}]"
                           for r in line.runs)
            lines.append(f"{pad}  | y={line.baseline_y:6.2f} x={line.x:6.2f} {runs}")
    elif op.kind in ("icon",):
        lines.append(f"{pad}  icon={op.payload}")
    for child in op.children:
        lines.extend(describe(child, depth + 1))
    return lines


def render_log(game_dir) -> str:
    game = load_game(game_dir)
    builder = CardBuilder(game)
    out = []
    for component in builder.printable():
        problems = []
        faces = builder.component_faces(component, problems)
        assert not problems, problems
        for i, ops in enumerate(faces.fronts):
            out.append(f"== {component.id}[{i}] front")
            for op in ops:
                out.extend(describe(op))
        for i, ops in enumerate(faces.backs or []):
            out.append(f"== {component.id} back {i}")
            for op in ops:
                out.extend(describe(op))
    return "\n".join(out) + "\n"


def test_tiny_faces_match_the_golden_log(in_repo):
    log = render_log(in_repo / "tests" / "data" / "tiny")
    if os.environ.get("PNP_UPDATE_GOLDEN"):
        GOLDEN.write_text(log, encoding="utf-8")
    assert log == GOLDEN.read_text(encoding="utf-8")
