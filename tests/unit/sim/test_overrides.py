"""``pnp simulate --set``: which value a path names, and what is refused before any game is played."""
import pytest

from generator.content import load_game
from generator.sim.compile import played_tables
from generator.sim.overrides import OverrideError, apply_sets, described, parse_set


@pytest.fixture
def game(tiny):
    return load_game(tiny)


def test_a_path_names_a_rule_a_record_field_or_a_record_by_its_id_alone(game):
    tables = played_tables(game)
    changed = apply_sets(tables, ["rules.start_life=12", "heroes.mage.life=9", "knight.life=11"], game)
    assert changed["rules"]["start_life"] == 12
    assert {r["id"]: r["life"] for r in changed["heroes"]} == {"knight": 11, "mage": 9, "thief": 9}
    assert tables["rules"]["start_life"] == 10 and tables["heroes"][1]["life"] == 8, "the content is untouched"
    assert described(["rules.start_life=12", "knight.life=11"]) == {"rules.start_life": 12, "knight.life": 11}


@pytest.mark.parametrize("text, said", [
    ("rules.start_lif=3", "rules has no 'start_lif' (did you mean 'start_life'?)"),
    ("knigt.life=3", "no table or record id 'knigt' (did you mean 'knight'?)"),
    ("heroes.knight=3", "heroes.knight is a whole record; name a field of it"),
    ("rules=3", "'rules' is a whole table"),
    ("rules.start_life", "expected PATH=VALUE"),
    ("rules.start_life=yes", "the content has a whole number there (10), got 'yes' (true/false)"),
    ("rules.start_life=2.5", "got '2.5' (a number)"),
    ("rules.start_life=0", "rules.start_life: 0 is below the minimum 1"),      # schema.yaml's range
    ("heroes.mage.life=99", "heroes.mage.life: 99 is above the maximum 20"),
])
def test_what_is_refused_says_why(game, text, said):
    with pytest.raises(OverrideError) as caught:
        apply_sets(played_tables(game), [text], game)
    assert said in str(caught.value)


def test_a_number_keyed_mapping_takes_its_key_as_written():
    tables = {"rules": {"boss_life_bonus": {1: 0, 2: 2}}}
    assert apply_sets(tables, ["rules.boss_life_bonus.2=1"])["rules"]["boss_life_bonus"] == {1: 0, 2: 1}


def test_values_are_read_as_yaml():
    assert parse_set("rules.a.b=[1, 2]") == (["rules", "a", "b"], [1, 2])
    assert parse_set("ideas.x.enabled=false") == (["ideas", "x", "enabled"], False)
    assert parse_set("rules.mode=two_decks") == (["rules", "mode"], "two_decks")
