"""Metroidvania's tokens keep their labels and their mark inside a print shop's safe zone (1/8 in, the
strictest shipped profile: print-shop; png-300 asks 3 mm), in both editions. The player markers' colour
names, the item tokens' names and the danger marker's name sat 1.7-2.1 mm from the cut, and their icons
reached 1.8-2.6 mm from it: a shop's cut that misses the trim by 1/8 in would clip them."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.export.safe_zone import print_safe_zone
from generator.layout.coverage import painted_order
from generator.profiles import load_profile
from generator.validate import check_content

GAME = Path(__file__).resolve().parents[2] / "content" / "metroidvania"
TOKENS = ("player_markers", "danger_marker", "item_tokens")

pytestmark = pytest.mark.skipif(not (GAME / "game.yaml").is_file(), reason="metroidvania content not present")


def _tokens(lang: str):
    game, cards, problems = check_content(GAME, check_faces=False, lang=lang)
    assert not [p for p in problems if p.severity == "error"]
    cards.faces = [faces for faces in cards.faces if faces.component.id in TOKENS]
    assert len(cards.faces) == len(TOKENS)
    return game, cards


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_token_labels_stay_inside_a_print_shops_safe_zone(lang):
    game, cards = _tokens(lang)
    shop = load_profile("print-shop", game.root)
    zone = print_safe_zone(cards, shop)
    cards.check_all()
    assert zone.problems() == []


def test_token_icons_stay_inside_a_print_shops_safe_zone():
    game, cards = _tokens("ja")
    safe = load_profile("print-shop", game.root).profile.safe
    for faces in cards.faces:
        w, h = faces.component.size_pt
        for index in range(len(faces.fronts)):
            icons = [op for op in painted_order(faces.fronts[index]) if op.kind == "icon"]
            assert icons, faces.component.id
            for op in icons:
                assert min(op.x, op.y, w - op.x - op.w, h - op.y - op.h) >= safe - 0.01, (faces.component.id, op.id)
