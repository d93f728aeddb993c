"""Card-impact variants: one card becomes a neutral filler, nothing else changes."""
from generator.sim.games import fatal_fight_report, valheim_report
from generator.sim.variants import with_record_changed, without_effect


def test_only_the_named_record_changes_and_the_original_is_untouched():
    tables = {"cards": [{"id": "a", "effect": [{"op": "x"}]}, {"id": "b", "effect": [{"op": "y"}]}],
              "rules": {"id": "a"}}
    twin = with_record_changed(tables, "a", without_effect)
    assert twin["cards"] == [{"id": "a", "effect": []}, {"id": "b", "effect": [{"op": "y"}]}]
    assert tables["cards"][0]["effect"] == [{"op": "x"}] and twin["rules"] == {"id": "a"}


def test_engine_fillers():
    art = {"id": "c1", "ap": 3, "attributes": ["attack", "exile"], "sub": {"guard": 2}, "effect": [{"op": "draw"}]}
    filler = fatal_fight_report.ablate({"arts": [art]}, "c1")["arts"][0]
    assert filler == {"id": "c1", "ap": 0, "attributes": ["exile"], "sub": {}, "effect": []}
    card = {"id": "m1", "action": "train", "effect": [{"op": "extra_ap"}]}
    assert valheim_report.ablate({"market": [card]}, "m1")["market"][0] == {"id": "m1", "action": "train", "effect": []}
