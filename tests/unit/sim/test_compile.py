"""The engines' shared setup compiler: where a problem it collects is located."""
from generator.content import load_game
from generator.sim.compile import SetupCompiler, where_of


def test_a_problem_about_a_rules_key_is_at_that_keys_line_not_the_files_first_key(in_repo):
    game = load_game(in_repo / "content" / "valheim")
    lines = (in_repo / "content" / "valheim" / "rules.yaml").read_text(encoding="utf-8").splitlines()
    comp = SetupCompiler(where_of(game))
    comp.problem("rounds", "rules.rounds is 10 but there are 7 round cards", game.tables["rules"])
    comp.problem("map.refill", "refill", game.tables["rules"])
    comp.problem("no_such_key", "said of the file", game.tables["rules"])
    first_key = next(i for i, text in enumerate(lines, 1) if text and not text.startswith("#"))
    assert [p.location.line for p in comp.problems] == [
        next(i for i, text in enumerate(lines, 1) if text.startswith("rounds:")),
        next(i for i, text in enumerate(lines, 1) if text.startswith("  refill:")),
        first_key]


def test_a_problem_without_a_loaded_game_keeps_the_records_location():
    comp = SetupCompiler(lambda record: None)
    comp.problem("rounds", "m", {"rounds": 7})
    assert comp.problems[0].location.path == "<tables>"


def test_a_problem_of_a_whole_table_is_at_its_file(in_repo):
    game = load_game(in_repo / "content" / "valheim")
    comp = SetupCompiler(where_of(game))
    comp.problem("enemies", "no regular enemy card", None)
    comp.problem("nothing_of_that_name", "unlocated", None)
    assert [(p.location.path, p.field) for p in comp.problems] == [
        (str(game.component("enemies").files[0]), "enemies"), ("<tables>", "nothing_of_that_name")]


def test_a_copy_of_the_tables_is_located_at_the_originals_lines(in_repo):
    """``pnp simulate --set`` compiles a deep copy of the tables: its records are found at their
    originals' lines, a rules key at its own line as for the content itself."""
    import copy

    from generator.sim.compile import GameWhere

    game = load_game(in_repo / "content" / "valheim")
    rules = copy.deepcopy(game.tables["rules"])
    comp = SetupCompiler(GameWhere(game, {id(rules): game.tables["rules"]}))
    comp.problem("map.refill", "refill", rules)
    assert comp.problems[0].location == game.field_at(game.tables["rules"], "map", "refill")
    assert comp.problems[0].location.line > game.where(game.tables["rules"]).line
