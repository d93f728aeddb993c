"""Valheim acceptance checks: printed map-tile edge costs equal the data; every resource can
be obtained (a tile or a reward) and is spent (a recipe, a market card, a level-up, a new base)."""
from pathlib import Path

import pytest

from generator.cards import CardBuilder
from generator.content import load_game
from generator.sim.compile import played_tables

GAME = Path(__file__).resolve().parents[2] / "content" / "valheim"
GAINED_BY = {"resources", "reward"}
SPENT_BY = {"cost_resources", "cost", "new_base_cost"}


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


def _side(op, size):
    """Which edge a printed box sits on, from its centre relative to the tile's centre."""
    dx = op.x + op.w / 2 - size[0] / 2
    dy = op.y + op.h / 2 - size[1] / 2
    if abs(dx) > abs(dy):
        return "e" if dx > 0 else "w"
    return "s" if dy > 0 else "n"


def test_printed_edge_costs_equal_the_data(game):
    component = game.component("map_tiles")
    problems: list = []
    faces = CardBuilder(game).component_faces(component, problems)
    checked = 0
    for i, record in enumerate(component.records):
        ops = faces.fronts[i]
        printed = {_side(op, component.size_pt): op.payload.text for op in ops if op.id == "edge_cost"}
        expected = {side: str(edge["cost"]) for side, edge in record["edges"].items() if edge}
        assert printed == expected, f"{record['id']}: printed {printed}, data {expected}"
        if not record.get("start"):
            assert "s" not in printed, f"{record['id']}: the south entry edge must stay blank"
        checked += 1
    assert problems == [] and checked == component.found == 35


def _resource_maps(value, keys, found):
    """Collect the keys of every resource map stored under one of ``keys``, anywhere."""
    if isinstance(value, dict):
        for key, sub in value.items():
            if key in keys and isinstance(sub, dict):
                found.update(sub)
            _resource_maps(sub, keys, found)
    elif isinstance(value, list):
        for sub in value:
            _resource_maps(sub, keys, found)
    return found


def test_every_resource_is_obtainable_and_spent(game):
    resources = set(game.types["resource"].options["values"])
    assert len(resources) == 11
    tables = played_tables(game)
    gained = _resource_maps(tables, GAINED_BY, set()) & resources
    spent = _resource_maps(tables, SPENT_BY, set()) & resources
    assert gained == resources, f"never obtainable: {sorted(resources - gained)}"
    assert spent == resources, f"never spent: {sorted(resources - spent)}"


@pytest.mark.parametrize("component_id", ["base_track", "demon_track"])
def test_track_panels_stay_inside_the_safe_zone(game, component_id):
    """The light panel of a track board keeps 3 mm from the trim: at 2.5 mm a cut 1-2 mm off left
    a lopsided dark border (shared/PRINT.md: frames stay in the safe zone)."""
    from generator.export.proof import SAFE_INSET
    component = game.component(component_id)
    faces = CardBuilder(game).component_faces(component, [])
    width, height = component.size_pt
    panels = [op for i in range(len(component.records)) for op in faces.fronts[i] if op.id == "panel"]
    assert panels
    for op in panels:
        assert min(op.x, op.y, width - op.x - op.w, height - op.y - op.h) >= SAFE_INSET - 1e-9, component_id


def test_map_tile_edge_pills_stay_inside_the_safe_zone(game):
    """Each edge's pill, its white outline included, keeps 3 mm from the tile's trim."""
    from generator.export.proof import SAFE_INSET
    component = game.component("map_tiles")
    faces = CardBuilder(game).component_faces(component, [])
    width, height = component.size_pt
    pills = [op for i in range(len(component.records)) for op in faces.fronts[i] if op.id == "edge_pill"]
    assert pills
    for op in pills:
        half = op.style["stroke_width"] / 2
        inset = min(op.x, op.y, width - op.x - op.w, height - op.y - op.h) - half
        assert inset >= SAFE_INSET - 1e-9, inset


def _typeline(game, component, index) -> str:
    faces = CardBuilder(game).component_faces(component, [])
    return " ".join(op.payload.text for op in faces.fronts[index] if op.id == "typeline")


def test_an_enemy_prints_round_plus_k_only_when_its_row_keeps_it():
    game = load_game(GAME)
    component = game.component("enemies")
    hare = next(i for i, r in enumerate(component.records) if r["id"] == "en_fang_hare")
    assert _typeline(game, component, hare) == "弱い敵 ・ 戦闘力＝ラウンド＋3"
    component.records[hare]["strength_by_round"][6] = 11  # a designer's edit of round 7 only
    assert _typeline(game, component, hare) == "弱い敵"  # "round + 3" would contradict its 11 in round 7


def _faq_strength_answer(game, lang: str) -> str:
    from generator.rulebook.config import load_config
    from generator.rulebook.context import RulebookData
    from generator.rulebook.source import render_file

    faq = GAME / "rulebook" / ("08-faq.md" if lang == "ja" else "en/08-faq.md")
    problems: list = []
    context = RulebookData(game, CardBuilder(game), load_config(GAME, problems, lang, "ja")).context()
    rendered = render_file(faq, str(faq), context, problems)
    assert not problems, problems
    return next(line for line in rendered.text.splitlines() if "弱い敵は" in line or "weak enemy's" in line)


def test_the_faq_quotes_round_plus_k_only_while_every_enemy_of_a_profile_keeps_it():
    """The FAQ took "round + k" from the first weak enemy: after an uneven edit it misquoted the rest."""
    game = load_game(GAME)
    assert _faq_strength_answer(game, "ja") == ("> A. 弱い敵は「ラウンド＋3」、普通の敵は「ラウンド＋4」、"
                                                 "強い敵は「ラウンド＋6」の戦闘力です。")
    weak = [r for r in game.component("enemies").records if r.get("profile") == "weak"]
    weak[-1]["strength_by_round"][6] = 11  # the last weak enemy only: the first still reads round + 3
    assert _faq_strength_answer(game, "ja").startswith("> A. 弱い敵はカードの表に書かれた値、普通の敵は「ラウンド＋4」")
    english = load_game(GAME, "en")
    assert "A weak enemy's strength is \"round + 3\", a normal enemy's \"round + 4\"" in _faq_strength_answer(english, "en")
