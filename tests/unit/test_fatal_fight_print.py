"""Fatal Fight print layouts: every art card prints the AP and sub-attributes its data says.

The faces are built through the library (content -> layouts -> ops), so this checks what would
be painted: the text of the `ap` box, and the sub-attribute badges (`sub-icon` icons in order,
`sub-num` numbers sitting on their badge). It also checks that every Fatal Fight face
instantiates without a problem (template errors, unknown icons, text overflow).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.export.proof import SAFE_INSET
from generator.units import mm

REPO = Path(__file__).resolve().parents[2]
GAME = REPO / "content" / "fatal-fight"

pytestmark = pytest.mark.skipif(not (GAME / "game.yaml").is_file(), reason="fatal-fight content not present")

# The badge order of the layout = the README's keyword order (guard, draw, heal, range, pierce,
# launch, then exile and life cost).
NUMBERED = ("guard", "draw", "heal")
FLAGS = ("range", "pierce", "launch")


@pytest.fixture(scope="module")
def built():
    game = load_game(GAME)
    builder = CardBuilder(game)
    return game, builder


def walk(ops):
    for op in ops:
        yield op
        yield from walk(op.children)


def expected_badges(record) -> list[tuple[str, int]]:
    """(icon, number) per badge; number 0 = no number shown."""
    sub = record["sub"]
    out = [(key, sub[key]) for key in NUMBERED if sub.get(key)]
    out += [(key, 0) for key in FLAGS if sub.get(key)]
    if "exile" in record.get("attributes", []):
        out.append(("exile", 0))
    if record.get("life_cost"):
        out.append(("life_cost", record["life_cost"]))
    return out


def printed_badges(ops) -> list[tuple[str, int]]:
    """Read the badges back from the ops: icons left to right, each with the number on it."""
    icons = sorted((op for op in ops if op.id == "sub-icon"), key=lambda op: op.x)
    numbers = [op for op in ops if op.id == "sub-num"]
    result = []
    for icon in icons:
        on_it = [n for n in numbers if icon.x <= n.x + n.w / 2 <= icon.x + icon.w + mm(3)
                 and abs((n.y + n.h / 2) - (icon.y + icon.h / 2)) < mm(7)]
        assert len(on_it) <= 1, f"several numbers on the {icon.payload} badge"
        result.append((icon.payload, int(on_it[0].payload.text) if on_it else 0))
    assert len(numbers) == sum(1 for _, n in result if n), "a number is not on any badge"
    return result


@pytest.mark.parametrize("component_id", ["arts", "extra_arts"])
def test_each_art_prints_its_ap_and_sub_attributes(built, component_id):
    game, builder = built
    component = game.component(component_id)
    problems: list = []
    faces = builder.component_faces(component, problems)
    assert faces is not None, problems
    assert len(faces.fronts) == len(component.records)
    fronts = [faces.fronts[i] for i in range(len(component.records))]  # faces may be built lazily
    assert not problems, problems
    for record, front in zip(component.records, fronts):
        ops = list(walk(front))
        label = record["id"]
        ap_ops = [op for op in ops if op.id == "ap"]
        if "attack" in record["attributes"]:
            assert len(ap_ops) == 1, f"{label}: one AP box expected"
            assert ap_ops[0].payload.text == str(record["ap"]), f"{label}: AP printed {ap_ops[0].payload.text!r}"
            assert ap_ops[0].payload.size >= 20, f"{label}: AP must be big"
        else:
            assert record["ap"] == 0 and not ap_ops, f"{label}: a support card shows no AP"
        assert printed_badges(ops) == expected_badges(record), label


def test_badge_reader_sees_a_wrong_number(built):
    """The check above can fail: a face whose guard number was changed is caught."""
    game, builder = built
    component = game.component("arts")
    faces = builder.component_faces(component, [])
    index = next(i for i, r in enumerate(component.records) if r["sub"]["guard"])
    ops = list(walk(faces.fronts[index]))
    record = dict(component.records[index], sub=dict(component.records[index]["sub"]))
    record["sub"]["guard"] += 1
    assert printed_badges(ops) != expected_badges(record)


def test_every_fatal_fight_face_fits():
    game = load_game(GAME)
    builder = CardBuilder(game)
    problems: list = []
    printable = [c for c in game.components if c.layout]
    for component in printable:
        faces = builder.component_faces(component, problems)
        assert faces is not None, problems
        for i in range(len(component.records)):  # instantiate every face (they may be lazy)
            faces.fronts[i]
            faces.back_for(i)
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_standee_disc_and_figure_stay_inside_the_safe_zone(built):
    """A standee is 25 mm wide: its white disc and the figure on it keep 3 mm from the long
    edges on both faces, so a cut or duplex shift of 1-2 mm does not flatten the disc's side."""
    game, builder = built
    component = game.component("standees")
    faces = builder.component_faces(component, [])
    width, height = component.size_pt
    for i, record in enumerate(component.records):
        for side, face in (("front", faces.fronts[i]), ("back", faces.back_for(i))):
            art = [op for op in walk(face) if op.id in ("disc", "figure")]
            assert len(art) == 2, (record["id"], side)
            for op in art:
                inset = min(op.x, op.y, width - op.x - op.w, height - op.y - op.h)
                assert inset >= SAFE_INSET - 1e-9, (record["id"], side, op.id, inset / mm(1))


def icon_ink(op, icon) -> tuple[float, float, float, float]:
    """What an icon op paints (x0, y0, x1, y1), card points: its shapes' extent, scaled into the
    box keeping the aspect and centred as the painter does (the box itself has margins)."""
    vx, vy, vw, vh = icon.viewbox
    scale = min(op.w / vw, op.h / vh)
    ox, oy = op.x + (op.w - vw * scale) / 2, op.y + (op.h - vh * scale) / 2
    xs, ys = [], []
    for shape in icon.shapes:
        kind = shape["type"]
        assert kind in ("polygon", "rect", "circle"), f"icon_ink does not read {kind} shapes"
        if kind == "polygon":
            xs += [px for px, _ in shape["points"]]
            ys += [py for _, py in shape["points"]]
        elif kind == "rect":
            xs += [shape["x"], shape["x"] + shape["w"]]
            ys += [shape["y"], shape["y"] + shape["h"]]
        else:
            xs += [shape["cx"] - shape["r"], shape["cx"] + shape["r"]]
            ys += [shape["cy"] - shape["r"], shape["cy"] + shape["r"]]
    return (ox + (min(xs) - vx) * scale, oy + (min(ys) - vy) * scale,
            ox + (max(xs) - vx) * scale, oy + (max(ys) - vy) * scale)


@pytest.mark.parametrize("component_id, box", [("bosses", "crown"), ("stages", "boss-crown")])
def test_boss_crowns_stay_inside_the_safe_zone(built, component_id, box):
    """The crown that marks a boss card or a boss stage perches at the top-left: its ink keeps
    3 mm from the trim, so a cut or duplex shift of 1-2 mm does not clip it."""
    game, builder = built
    component = game.component(component_id)
    faces = builder.component_faces(component, [])
    width, height = component.size_pt
    crowns = [op for i in range(len(component.records)) for op in walk(faces.fronts[i]) if op.id == box]
    assert crowns, f"no {box} on {component_id}"
    for op in crowns:
        x0, y0, x1, y1 = icon_ink(op, builder.icons.get(op.payload))
        inset = min(x0, y0, width - x1, height - y1)
        assert inset >= SAFE_INSET - 1e-9, (component_id, inset / mm(1))
