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


def test_valheim_craft_fillers_stay_in_the_display_at_their_cost():
    """A facility keeps its cost without its effect; equipment has no effect to drop (its level is its
    power), so its filler is level 0: the filler of the old ablate was the very same game."""
    bed = {"id": "cr_bed", "kind": "facility", "cost_ap": 2, "cost_resources": {"wood": 2}, "effect": [{"op": "hand_size", "n": 1}]}
    sword = {"id": "cr_sword", "kind": "equipment", "slot": "weapon", "tier": 3, "level": 3, "cost_ap": 3,
             "cost_resources": {"iron": 2}}
    tables = {"crafts": [bed, sword]}
    assert valheim_report.ablate(tables, "cr_bed")["crafts"][0] == {**bed, "effect": []}
    assert valheim_report.ablate(tables, "cr_sword")["crafts"][1] == {**sword, "level": 0, "effect": []}


def test_valheim_fixtures_are_the_crafts_in_play_facilities_screened():
    from generator.content import load_game
    from generator.sim.compile import played_tables
    from generator.sim.games import valheim

    tables = played_tables(load_game("content/valheim"))
    fixtures = valheim.fixtures(valheim.compile_setup(tables))
    assert fixtures["cr_bed"] is True and fixtures["cr_iron_sword"] is False
    assert "cr_campfire" not in fixtures  # the raid variant is off: its filler would play the same games
    assert len(fixtures) == 17
