"""``pnp simulate --set``: which value a path names, and what is refused before any game is played."""
import pytest

from generator.content import load_game
from generator.sim.compile import played_tables
from generator.sim.overrides import OverrideError, apply_sets, described, parse_set, parse_sweep, value_at


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
    ("rules.start_life=yes", "rules.start_life: expected an integer, got True"),   # as the file's loader says
    ("rules.start_life=2.5", "rules.start_life: expected an integer, got 2.5"),
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
    assert parse_set("rules.a.b=[1, 2]") == (["rules", "a", "b"], "[1, 2]")
    changed = apply_sets({"rules": {"a": [0], "on": True, "mode": "one_deck"}},
                         ["rules.a=[1, 2]", "rules.on=false", "rules.mode=two_decks"])
    assert changed["rules"] == {"a": [1, 2], "on": False, "mode": "two_decks"}
    assert described(["rules.a=[1, 2]", "rules.on=false"]) == {"rules.a": [1, 2], "rules.on": False}


def test_where_no_schema_type_says_the_value_keeps_the_kind_the_content_has():
    tables = {"rules": {"start_life": 10}}
    with pytest.raises(OverrideError, match=r"the content has a whole number there \(10\), got 'yes' \(true/false\)"):
        apply_sets(tables, ["rules.start_life=yes"])
    assert apply_sets(tables, ["rules.start_life=12"])["rules"]["start_life"] == 12


def test_a_value_is_checked_and_converted_as_its_file_would_be():
    """A length in a mapping table, a field of a record in a mapping table's list: as the loader makes them."""
    from pathlib import Path

    game = load_game(Path(__file__).resolve().parents[3] / "content" / "metroidvania")
    changed = apply_sets(played_tables(game), ["map.grid.cell=25mm", "map.nodes.a1-02.kind=rest"], game)
    assert changed["map"]["grid"]["cell"] == pytest.approx(25 * 72 / 25.4)
    assert next(n for n in changed["map"]["nodes"] if n["id"] == "a1-02")["kind"] == "rest"
    with pytest.raises(OverrideError, match=r"map.nodes.a1-02.kind: 'rst' is not one of .*did you mean 'rest'"):
        apply_sets(played_tables(game), ["map.nodes.a1-02.kind=rst"], game)


def test_a_sweep_lists_its_values_as_written_or_spans_a_whole_range():
    assert parse_sweep("rules.boss_life_bonus.2=0..3") == ("rules.boss_life_bonus.2", ["0", "1", "2", "3"])
    assert parse_sweep("bosses.b01.life = 10, 12,14") == ("bosses.b01.life", ["10", "12", "14"])
    assert parse_sweep("rules.x=-1..1") == ("rules.x", ["-1", "0", "1"])
    assert parse_sweep("rules.x=3..3") == ("rules.x", ["3"])
    assert parse_sweep("rules.on=true,false") == ("rules.on", ["true", "false"])


@pytest.mark.parametrize("text, said", [
    ("rules.x", "expected PATH=V1,V2,... or PATH=A..B"),
    ("rules.x=", "no values"),
    ("rules.x=1,,2", "an empty value"),
    ("rules.x=3..0", "the range 3..0 is reversed; write 0..3"),
    ("rules.x=1..", "a range A..B takes whole numbers, got '1..'"),
    ("rules.x=0.5..2", "a range A..B takes whole numbers"),
    ("rules.x=0..12", "13 values, at most 12 in one sweep"),
    ("rules.x=0..1000000000000", "1000000000001 values, at most 12"),
])
def test_what_a_sweep_refuses_says_why(text, said):
    with pytest.raises(OverrideError) as caught:
        parse_sweep(text)
    assert said in str(caught.value)


def test_value_at_reads_what_a_path_names():
    tables = {"rules": {"boss_life_bonus": {1: 0, 2: 2}}, "heroes": [{"id": "knight", "life": 10}]}
    assert value_at(tables, "rules.boss_life_bonus.2=5") == 2
    assert value_at(tables, "knight.life=") == 10
    with pytest.raises(OverrideError, match="no table or record id 'knigt'"):
        value_at(tables, "knigt.life=3")
