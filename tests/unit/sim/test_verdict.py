"""The balance verdict on small sample sizes (fast), the no-simulator answer and the print-gate cache."""
from types import SimpleNamespace

import pytest

from generator.errors import ProblemsError
from generator.sim import stats, verdict

import engine_checks
import ff_tables

BALANCE = {
    "engine": "fatal-fight", "players": [2, 3], "reference_agent": "greedy", "seed": 0,
    "sampling": {"looks": [40, 80], "z_interim": 2.576, "z_final": 1.96},
    "integrity": {"random_games": 40},
    "win_rate": {"min": 0.35, "max": 0.99, "count_spread_max": 0.5},
    "skill": {"random_max": 0.2, "gap_min": 0.2},
    "length": {"stage_rounds": {"min": 1, "max": 15}, "p95_rounds_max": 80, "timeouts_max": 0.05},
    "dead_cards": {"max_use_rate": 0.0, "min_exposures": 10_000},
    "card_impact": {"swing": 0.5, "min_games": 20},
    "heroes": {"spread_max": 1.0},
    "softlocks": {"stalls_max": 0.5},
    "decisions": {"density_min": 0.1},
}


def game_dir(tmp_path, tables, balance=BALANCE, name="fatal-fight"):
    return engine_checks.game_dir(tmp_path, tables, balance, name)


def tripled_life(tables):
    """Every enemy and boss with three times the life (a sabotaged copy)."""
    for enemy in tables["enemies"]:
        enemy["life"] *= 3
    for boss in tables["boss_profiles"]:
        boss["life"] *= 3
        boss.pop("min_life", None)
    return tables


def test_sabotaged_content_fails_naming_the_win_rate_band(tmp_path):
    game = game_dir(tmp_path, tripled_life(ff_tables.tables()))
    result = verdict.check_balance(game, workers=1, output_dir=tmp_path / "out", write_report=False)
    assert "pnp simulate" in engine_checks.win_rate_error(result, game).message
    assert "M1 win rate" in result.table


def test_game_without_a_simulator_gets_a_warning(tmp_path):
    game = game_dir(tmp_path, {}, balance={"engine": "no-such-engine"}, name="no-such-engine")
    result = verdict.check_balance(game)
    assert result.passed and result.problems[0].severity == "warning"
    assert "no simulator" in result.problems[0].message
    assert result.table == ""  # the warning is the one line a designer sees about it, not twice


def test_a_game_that_is_only_printed_gets_no_warning_at_every_build(tmp_path):
    """No balance.yaml and no engine (what `pnp new` writes): nothing to warn about; not checked."""
    root = tmp_path / "fox"
    root.mkdir()
    (root / "game.yaml").write_text("title: fox\n", encoding="utf-8")
    result = verdict.check_balance(SimpleNamespace(id="fox", root=root, tables={}, where=lambda r: None))
    assert result.passed and not result.checked and result.problems == []


def _small_game_counting_checks(tmp_path, monkeypatch):
    """A 12-game 2-character game and the list that grows by one per real ``check_balance``."""
    small = {**BALANCE, "players": [2], "sampling": {"looks": [12], "z_interim": 2.576, "z_final": 1.96},
             "integrity": {"random_games": 12}}
    game = game_dir(tmp_path, ff_tables.tables(), balance=small)
    calls = []
    real = verdict.check_balance

    def counting(*args, **kwargs):
        calls.append(1)
        kwargs["write_report"] = False
        return real(*args, **kwargs)
    monkeypatch.setattr(verdict, "check_balance", counting)
    return game, calls


def test_cached_verdict_skips_unchanged_content(tmp_path, monkeypatch):
    game, calls = _small_game_counting_checks(tmp_path, monkeypatch)
    first = verdict.cached_verdict(game, workers=1, output_dir=tmp_path / "out")
    second = verdict.cached_verdict(game, workers=1, output_dir=tmp_path / "out")
    assert len(calls) == 1 and second.cached and second.passed == first.passed
    assert [p.display() for p in second.problems] == [p.display() for p in first.problems]
    (game.root / "balance.yaml").write_text((game.root / "balance.yaml").read_text() + "\n# edited\n")
    verdict.cached_verdict(game, workers=1, output_dir=tmp_path / "out")
    assert len(calls) == 2


def test_a_rulebook_or_art_edit_keeps_the_cached_verdict(tmp_path, monkeypatch):
    game, calls = _small_game_counting_checks(tmp_path, monkeypatch)
    (game.root / "rulebook").mkdir()
    (game.root / "rulebook" / "01-rules.md").write_text("# Rules\n")
    verdict.cached_verdict(game, workers=1, output_dir=tmp_path / "out")
    (game.root / "rulebook" / "01-rules.md").write_text("# Rules, with a typo fixed\n")
    (game.root / "rulebook" / "rulebook.yaml").write_text("subtitle: new\n")
    (game.root / "README.md").write_text("tuning log\n")
    (game.root / "cover.png").write_bytes(b"\x89PNG")
    assert verdict.cached_verdict(game, workers=1, output_dir=tmp_path / "out").cached
    assert len(calls) == 1
    # what is played (this game's tables: it has no file they are loaded from): simulated again
    game.tables["rules"]["start_gold_per_player"] = game.tables["rules"].get("start_gold_per_player", 3) + 1
    assert not verdict.cached_verdict(game, workers=1, output_dir=tmp_path / "out").cached


def test_a_failed_verdict_names_the_files_changed_since_the_last_pass(tmp_path, monkeypatch):
    """The designer's first lead when a band fails: which played file changed since it last passed."""
    game = game_dir(tmp_path, ff_tables.tables())
    balance_passes = [True]
    monkeypatch.setattr(verdict, "check_balance", lambda *a, **k: verdict.BalanceResult(passed=balance_passes[0]))
    (game.root / "rules.yaml").write_text("start_gold_per_player: 3\n")
    (game.root / "enemies.yaml").write_text("[]\n")
    assert verdict.cached_verdict(game, output_dir=tmp_path / "out").passed
    (game.root / "rules.yaml").write_text("start_gold_per_player: 0\n")  # the designer's edit fails a band
    (game.root / "rulebook").mkdir()
    (game.root / "rulebook" / "01.md").write_text("# x\n")               # not played: no lead
    balance_passes[0] = False
    for _ in range(2):  # and again: still measured against the last verdict that passed
        failed = verdict.cached_verdict(game, output_dir=tmp_path / "out", refresh=True)
        assert [(p.location.path, p.severity, p.message) for p in failed.problems] == [
            (str(game.root / "rules.yaml"), "warning", "changed since the last balance verdict that passed")]
    assert verdict.cached_verdict(game, output_dir=tmp_path / "out").problems == failed.problems  # the build's
    balance_passes[0] = True
    assert verdict.cached_verdict(game, output_dir=tmp_path / "out", refresh=True).problems == []


def test_a_failed_verdict_points_at_the_cards_played_differently_not_only_at_their_file(tmp_path, monkeypatch):
    """One number changed among a file of cards: the lead names that card at its line."""
    from generator.errors import Location

    game = game_dir(tmp_path, ff_tables.tables())
    arts = game.root / "arts.yaml"
    card = game.tables["boss_profiles"][0]
    game.where = lambda record: Location(str(arts), 7) if record is card else None
    balance_passes = [True]
    monkeypatch.setattr(verdict, "check_balance", lambda *a, **k: verdict.BalanceResult(passed=balance_passes[0]))
    arts.write_text("life: 6\n")
    assert verdict.cached_verdict(game, output_dir=tmp_path / "out").passed
    card["life"] += 10
    arts.write_text("life: 16\n")
    balance_passes[0] = False
    failed = verdict.cached_verdict(game, output_dir=tmp_path / "out")
    assert [(p.location.path, p.location.line, p.field, p.severity, p.message) for p in failed.problems] == [
        (str(arts), 7, card["id"], "warning", "changed since the last balance verdict that passed")]


def test_a_verdict_not_kept_loads_the_simulator_once(tmp_path, monkeypatch):
    """cached_verdict found the engine for the key, then check_balance found it again: a game's own
    sim.py read and hashed twice, and an engine saved in between keyed with one and played with the other."""
    unfinished = {key: value for key, value in BALANCE.items() if key != "decisions"}  # refused before any game
    game = game_dir(tmp_path, ff_tables.tables(), balance=unfinished)
    loads = []
    real = verdict.engine_of

    def counting(*args, **kwargs):
        loads.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(verdict, "engine_of", counting)
    result = verdict.cached_verdict(game, workers=1, output_dir=tmp_path / "out")
    assert [p.field for p in result.problems] == ["decisions.density_min"]  # the judgement was reached
    assert len(loads) == 1


def test_validate_leaves_its_verdict_for_the_build(tmp_path, monkeypatch):
    from generator.validate import run_balance

    game, calls = _small_game_counting_checks(tmp_path, monkeypatch)
    validated = run_balance(game, workers=1, output_dir=tmp_path / "out")              # pnp validate
    run_balance(game, workers=1, output_dir=tmp_path / "out")                          # validates again
    built = run_balance(game, workers=1, cached=True, output_dir=tmp_path / "out")     # pnp build
    assert len(calls) == 2 and built.cached and built.passed == validated.passed


def test_incomplete_balance_file_is_a_problem_not_a_crash(tmp_path):
    broken = {k: v for k, v in BALANCE.items() if k != "skill"}
    game = game_dir(tmp_path, ff_tables.tables(), balance=broken)
    result = verdict.check_balance(game, workers=1, write_report=False)
    assert not result.passed and {p.field for p in result.problems} == {"skill.random_max", "skill.gap_min"}


def test_a_misspelt_section_or_band_is_named_at_its_line_with_the_one_meant(tmp_path):
    balance = {k: v for k, v in BALANCE.items() if k not in ("dead_cards", "softlocks")}
    balance["dead_card"] = BALANCE["dead_cards"]
    balance["skill"] = {"random_max": BALANCE["skill"]["random_max"], "gapmin": BALANCE["skill"]["gap_min"]}
    game = game_dir(tmp_path, ff_tables.tables(), balance=balance)
    result = verdict.check_balance(game, workers=1, write_report=False)
    lines = (game.root / "balance.yaml").read_text().splitlines()
    shown = {p.field: (p.location.line, p.message) for p in result.problems}
    assert not result.passed and shown == {
        "dead_card": (lines.index("dead_card:") + 1, "unknown key (did you mean 'dead_cards'?): the balance verdict "
                                                     "needs dead_cards.max_use_rate, dead_cards.min_exposures"),
        "skill.gapmin": (lines.index(f"  gapmin: {BALANCE['skill']['gap_min']}") + 1,
                         "unknown key (did you mean 'gap_min'?): the balance verdict needs skill.gap_min"),
        "softlocks.stalls_max": (0, "missing: the balance verdict needs this band")}


def test_a_band_with_min_above_max_is_a_located_problem_before_any_game_is_played(tmp_path, monkeypatch):
    inverted = {**BALANCE, "win_rate": {"min": 0.75, "max": 0.7},
                "length": {**BALANCE["length"], "stage_rounds": {"min": 9, "max": 6}}}
    game = game_dir(tmp_path, ff_tables.tables(), balance=inverted)
    monkeypatch.setattr(verdict, "_simulate", lambda *a, **k: pytest.fail("games were played"))
    result = verdict.check_balance(game, workers=1, write_report=False)
    assert not result.passed
    lines = (game.root / "balance.yaml").read_text().splitlines()
    shown = {p.field: (p.location.line, p.message) for p in result.problems}
    assert shown["win_rate.min"] == (lines.index("  min: 0.75") + 1, "min 0.75 is above max 0.7: no value can pass "
                                                                        "this band")
    assert "length.stage_rounds.min" in shown


def _said_of(tmp_path, monkeypatch, edit):
    """The problems, as printed, of the verdict on BALANCE's balance.yaml edited as text by ``edit``."""
    game = game_dir(tmp_path, ff_tables.tables())
    bands = game.root / "balance.yaml"
    bands.write_text(edit(bands.read_text()))
    monkeypatch.setattr(verdict, "_simulate", lambda *a, **k: pytest.fail("games were played"))
    result = verdict.check_balance(game, workers=1, write_report=False)
    assert not result.passed
    return [p.display() for p in result.problems], bands


def test_a_band_of_the_wrong_type_is_a_located_problem_not_a_crash(tmp_path, monkeypatch):
    """`win_rate: {min: a}` ended validate with a TypeError; `win_rate: [a, 0.7]` was called missing."""
    said, bands = _said_of(tmp_path, monkeypatch, lambda text: text.replace("min: 0.35", "min: a").replace(
        "random_games: 40", "random_games: 40.5").replace("looks:\n  - 40\n", "looks:\n  - forty\n"))
    lines = bands.read_text().splitlines()
    assert said == [f"{bands}:{lines.index('  - forty') + 1}: sampling.looks: expected whole numbers of games,"
                    " got 'forty'",
                    f"{bands}:{lines.index('  random_games: 40.5') + 1}: integrity.random_games: expected an integer,"
                    " got 40.5",
                    f"{bands}:{lines.index('  min: a') + 1}: win_rate.min: expected a number, got 'a'"]


def test_a_band_written_as_a_list_is_one_problem_at_its_line(tmp_path, monkeypatch):
    def as_list(text):
        start = text.index("win_rate:\n")
        end = text.index("skill:")
        return text[:start] + "win_rate: [a, 0.7]\n" + text[end:]

    said, bands = _said_of(tmp_path, monkeypatch, as_list)
    line = bands.read_text().splitlines().index("win_rate: [a, 0.7]") + 1
    assert said == [f"{bands}:{line}: win_rate: expected a mapping of its bands (count_spread_max:, max:, min:),"
                    " got a list [a, 0.7]"]


def test_a_yaml_mistake_in_balance_yaml_is_located(tmp_path, monkeypatch):
    with pytest.raises(ProblemsError) as caught:
        _said_of(tmp_path, monkeypatch, lambda text: text.replace("softlocks:\n", "softlocks: 0.5\n"))
    line = (tmp_path / "fatal-fight/balance.yaml").read_text().splitlines().index("  stalls_max: 0.5") + 1
    assert [p.display() for p in caught.value.problems] == [
        f"{tmp_path}/fatal-fight/balance.yaml:{line}: YAML syntax error: mapping values are not allowed here: a key"
        " indented more than the keys beside it, or a text with ': ' in it not quoted (write it in \"...\")"]


def test_a_dead_card_is_shown_with_its_file_and_line(tmp_path):
    from generator.errors import Location

    small = {**BALANCE, "players": [2], "sampling": {"looks": [12], "z_interim": 2.576, "z_final": 1.96},
             "integrity": {"random_games": 12}, "dead_cards": {"max_use_rate": 1.01, "min_exposures": 1}}
    game = game_dir(tmp_path, ff_tables.tables(), balance=small)
    lines = {id(record): i + 1 for i, record in enumerate(game.tables["arts"])}
    game.where = lambda record: Location("content/g/arts.yaml", lines[id(record)]) if id(record) in lines else None
    result = verdict.check_balance(game, workers=1, write_report=False)
    dead = [p for p in result.problems if p.message.startswith("M4 dead card: ")]
    card = dead[0].message.split()[3]
    line = next(i + 1 for i, record in enumerate(game.tables["arts"]) if record["id"] == card)
    assert dead[0].display().endswith(f"(card content/g/arts.yaml:{line} {card})")
    assert f"by greedy; each card's use with 2 characters: pnp simulate {game.root} --players 2 --agent greedy " \
           "--cards" in dead[0].message  # what a designer runs next


def _paired_balance():
    balance = {**BALANCE, "players": [2], "sampling": {"looks": [40], "z_interim": 1.96, "z_final": 1.96},
               "win_rate": {"min": 0.35, "max": 1.0},
               "integrity": {"random_games": 10},
               "card_impact": {"swing": 0.0, "min_games": 1, "paired_cards": 1, "paired_games": 40}}
    return balance


def test_paired_card_impact_names_a_card_the_team_depends_on(tmp_path, monkeypatch):
    from generator.sim.games import fatal_fight as ff

    # "without the card" loses far more often
    monkeypatch.setattr(ff, "ablate", lambda tables, card_id: tripled_life(ff_tables.tables()))
    result = verdict.check_balance(game_dir(tmp_path, ff_tables.tables(), _paired_balance()), workers=1,
                                   write_report=False)
    swingy = [p for p in result.problems if "M5 swingy card" in p.message]
    assert len(swingy) == 1 and swingy[0].severity == "warning" and swingy[0].field == "card_impact"
    (card, paired), = result.report["card_impact_paired"].items()
    assert card in swingy[0].message and paired["games"] == 40 and paired["ci95"][0] > 0
    assert result.passed  # M5 flags, it never blocks a print
    # the screening row names the cards it flagged (the most swing first), not a bare count
    flagged = result.report["swingy_cards"]
    row = next(line for line in result.table.splitlines() if line.startswith("M5 swingy cards (screening)"))
    (first, d), more = flagged[0], len(flagged) - verdict.SCREENING_NAMED
    assert f"{len(flagged)} of " in row and f": {first} {d:+.3f}, " in row and f" and {more} more" in row


def test_a_table_cell_names_a_few_and_counts_the_rest():
    assert verdict._first_and_more(["a", "b", "c", "d"], 2) == "a, b and 2 more"
    assert verdict._first_and_more(["a", "b"], 2) == "a, b"
    assert verdict._first_and_more([], 2) == ""


def test_paired_card_impact_of_an_unchanged_card_is_exactly_zero(tmp_path, monkeypatch):
    from generator.sim.games import fatal_fight as ff

    monkeypatch.setattr(ff, "ablate", lambda tables, card_id: tables)  # same content, same seeds
    result = verdict.check_balance(game_dir(tmp_path, ff_tables.tables(), _paired_balance()), workers=1,
                                   write_report=False)
    (paired,) = result.report["card_impact_paired"].values()
    bound = round(stats.wilson(0, paired["games"])[1], 4)  # no game differs: not [0, 0], how far apart they could be
    assert paired["delta"] == 0 and paired["ci95"] == [-bound, bound]
    assert not [p for p in result.problems if p.field == "card_impact"]


def test_streams_side_by_side_get_the_games_they_would_get_alone():
    """The verdict's sample streams share the pool; each must still see exactly its own games,
    whatever the interleaving (and on one worker as on two)."""
    from concurrent.futures import ProcessPoolExecutor

    from generator.sim.games import fatal_fight

    tables = ff_tables.tables()

    def streams(runs):
        return {"ref": runs.sequential_stream(2, "greedy", [12, 24], 0.99, 1.0, 2.576, 1.96, first_checked=True),
                "random": runs.sequential_stream(2, "random", [12, 24], None, 0.0, 2.576, 1.96, True, at_least=16),
                "control": runs.once_stream(3, "random", 7)}

    alone = {}
    for key in ("ref", "random", "control"):
        runs = verdict._Runs(fatal_fight, tables, 5, 1, None, verdict._Progress(None, 0))
        alone[key] = runs.drive({key: streams(runs)[key]})[key]
    with ProcessPoolExecutor(max_workers=2) as pool:
        runs = verdict._Runs(fatal_fight, tables, 5, 2, pool, verdict._Progress(None, 0))
        together = runs.drive(streams(runs))
    assert together == alone
    assert len(together["ref"][0]) == 24 and len(together["random"][0]) == 24  # neither clear at 12 games
    assert runs.done == 24 + 24 + 7


def test_the_progress_bar_grows_with_the_games_the_later_looks_start():
    """The bar's length is first an estimate (the first look); games the later looks and paired
    checks start lengthen it, so it does not sit at its end while they are played."""
    from generator.sim.games import fatal_fight

    class Bar:
        def __init__(self, length):
            self.length, self.pos, self.seen = length, 0, []

        def update(self, n):
            self.pos += n
            self.seen.append((self.pos, self.length))

    bar = Bar(12)
    runs = verdict._Runs(fatal_fight, ff_tables.tables(), 5, 1, None, verdict._Progress(bar, 12))
    runs.drive({"ref": runs.sequential_stream(2, "greedy", [12, 24], 0.99, 1.0, 2.576, 1.96, first_checked=True)})
    assert bar.length == 24 and bar.pos == 24  # not clear at 12 games: played on to the second look
    assert bar.seen[-1] == (24, 24)


def _reproduce_args(message):
    """``--players 2 --agent greedy ...`` of a problem's reproduce command, as a dict (a flag: True)."""
    words = message.split("; reproduce: ")[1].split() + ["--"]
    return {words[i][2:]: True if words[i + 1].startswith("--") else words[i + 1]
            for i in range(len(words) - 1) if words[i].startswith("--")}


def test_reproduce_commands_name_the_seed_and_agent_that_were_played(tmp_path):
    from generator.sim.games import fatal_fight as ff
    from generator.sim.runner import run_games

    balance = {**BALANCE, "players": [2], "seed": 5, "sampling": {"looks": [30], "z_interim": 1.96, "z_final": 1.96},
               "integrity": {"random_games": 10}, "win_rate": {"min": 0.99, "max": 1.0},
               "skill": {"random_max": 0.2, "gap_min": 0.99}}
    game = game_dir(tmp_path, ff_tables.tables(), balance=balance)
    result = verdict.check_balance(game, workers=1, write_report=False)
    m1 = next(p for p in result.problems if p.field == "win_rate")
    args = _reproduce_args(m1.message)
    assert args["seed"] == "5" and args["agent"] == "greedy"
    records = run_games(ff, ff_tables.tables(), players=int(args["players"]), games=int(args["games"]),
                        seed=int(args["seed"]), agent=args["agent"], workers=1)
    assert sum(r["outcome"] == "win" for r in records) == result.report["per_players"][2]["reference"]["wins"]
    (tmp_path / "nocombo").mkdir()
    nocombo = game_dir(tmp_path / "nocombo", ff_tables.tables(), balance={**balance, "reference_agent": "nocombo"})
    result = verdict.check_balance(nocombo, workers=1, write_report=False)
    gap = next(p for p in result.problems if p.field == "skill.gap_min")
    assert _reproduce_args(gap.message)["agent"] == "nocombo"


def test_the_m7_reproduce_command_plays_the_games_whose_characters_were_judged(tmp_path):
    from generator.sim import metrics
    from generator.sim.games import fatal_fight as ff
    from generator.sim.runner import run_games

    balance = {**BALANCE, "players": [2], "seed": 5, "sampling": {"looks": [30], "z_interim": 1.96, "z_final": 1.96},
               "integrity": {"random_games": 10}, "heroes": {"spread_max": 0.0}}
    tables = ff_tables.tables()
    for enemy in tables["enemies"]:  # tougher enemies: some games lost, the characters' win rates apart
        enemy["life"] *= 4
    result = verdict.check_balance(game_dir(tmp_path, tables, balance=balance), workers=1, write_report=False)
    m7 = next(p for p in result.problems if p.field == "heroes.spread_max")
    assert m7.message.endswith(" --heroes")
    args = _reproduce_args(m7.message)
    records = run_games(ff, tables, players=int(args["players"]), games=int(args["games"]),
                        seed=int(args["seed"]), agent=args["agent"], workers=1)
    assert {c: {"wins": w, "games": g} for c, (w, g) in metrics.hero_rates(records).items()} == result.report["heroes"]


def test_a_sample_with_its_own_seed_and_options_is_reproduced_with_them(tmp_path):
    judge = verdict._Judge(tmp_path / "balance.yaml", {"crawl": 4}, "pnp simulate mv", seed=3)
    judge.problem("crawl.easy", "EASY", "too hard", players=2, agent="heuristic", games=400,
                  seed="easy/3", options="--difficulty easy")
    judge.problem("crawl", "NORMAL", "too hard", players=2, agent="heuristic", games=400)
    easy, normal = (p.message for p in judge.problems)
    assert easy.endswith("reproduce: pnp simulate mv --players 2 --agent heuristic --seed easy/3 --difficulty easy"
                         " --games 400")
    assert normal.endswith("reproduce: pnp simulate mv --players 2 --agent heuristic --seed 3 --games 400")


def test_count_messages_use_the_games_word_for_seats_and_say_when_no_stage_was_cleared(tmp_path):
    lost = [{"index": i, "agent": "greedy", "outcome": "loss", "rounds": 6, "decisions": 10, "multi": 8,
             "stage_rounds": [], "violations": [], "error": None} for i in range(40)]
    rnd = [dict(r, agent="random") for r in lost]
    for seats in ("players", "characters"):
        judge = verdict._Judge(tmp_path / "balance.yaml", {}, "pnp simulate g", seats=seats)
        verdict._judge_count(judge, BALANCE, 3, "heuristic", lost, rnd, "outside", 1.96, "inside", 1.96, {})
        m1 = next(p.message for p in judge.problems if p.field == "win_rate")
        assert f"with 3 {seats} is" in m1
        m3 = next(p.message for p in judge.problems if p.field == "length.stage_rounds")
        assert m3.startswith(f"M3 length: no stage was cleared in 40 games with 3 {seats}")
        rows = {row[0]: row for row in judge.rows}
        assert rows["M3 rounds per stage (median)"][2] == "none cleared"
        assert "M2 skill gap (heuristic-random)" in rows



def test_m3_names_the_stage_in_the_engines_words(tmp_path):
    """Valheim's "stage" is a round counted in cycles, Metroidvania's the whole crawl: "rounds per stage"
    read as something neither game has; an engine's ``STAGE_ROUNDS`` names it in the row and the message."""
    long = [{"index": i, "agent": "greedy", "outcome": "win", "rounds": 8, "decisions": 10, "multi": 8,
             "stage_rounds": [20], "violations": [], "error": None} for i in range(40)]
    judge = verdict._Judge(tmp_path / "balance.yaml", {}, "pnp simulate valheim")
    judge.stage_rounds = verdict.stage_rounds_of(SimpleNamespace(STAGE_ROUNDS="cycles per round"))
    verdict._judge_count(judge, BALANCE, 3, "greedy", long, long, "inside", 1.96, "inside", 1.96, {})
    assert {row[0]: row for row in judge.rows}["M3 cycles per round (median)"][2] == "20.0"
    m3 = next(p.message for p in judge.problems if p.field == "length.stage_rounds")
    assert m3.startswith("M3 length: median cycles per round with 3 players is 20.0, outside ")
    assert verdict.stage_rounds_of(SimpleNamespace()) == "rounds per stage"  # an engine that says nothing

def test_the_p95_length_judged_and_shown_is_a_length_some_game_had(tmp_path):
    """38 games of 24 rounds and two of 25: an interpolated p95 (24.05) failed a cap of 24 while the
    table and the message printed it as 24; nearest rank's 24 (the 38th game) passes."""
    recs = [{"index": i, "agent": "greedy", "outcome": "win" if i % 2 else "loss", "rounds": 25 if i < 2 else 24,
             "decisions": 10, "multi": 8, "stage_rounds": [8, 8, 8], "violations": [], "error": None}
            for i in range(40)]
    rnd = [dict(r, agent="random", outcome="loss") for r in recs]
    band = {**BALANCE, "length": {**BALANCE["length"], "p95_rounds_max": 24}}
    judge = verdict._Judge(tmp_path / "balance.yaml", {}, "pnp simulate g")
    verdict._judge_count(judge, band, 2, "greedy", recs, rnd, "inside", 1.96, "inside", 1.96, {})
    rows = {row[0]: row for row in judge.rows}
    assert rows["M3 rounds per game (median/p95)"][2] == "24 / 24"
    assert rows["M3 rounds per game (median/p95)"][4] == "pass"
    assert not [p for p in judge.problems if p.field == "length.p95_rounds_max"]


def test_a_win_rate_decided_at_an_early_look_says_its_interval_is_99_percent(tmp_path):
    """The table's header says 95 %; a look before the last decides on z_interim (99 %), whose
    wider interval is labelled, as pnp simulate shows the 95 % interval of the same games."""
    won = [{"index": i, "agent": "greedy", "outcome": "win" if i % 5 else "loss", "rounds": 20, "decisions": 10,
            "multi": 8, "stage_rounds": [5, 5, 5, 5], "violations": [], "error": None} for i in range(400)]
    rnd = [dict(r, agent="random", outcome="loss") for r in won]
    rows = {}
    for z in (2.576, 1.96):
        judge = verdict._Judge(tmp_path / "balance.yaml", {}, "pnp simulate g")
        verdict._judge_count(judge, BALANCE, 3, "greedy", won, rnd, "inside", z, "inside", z, {})
        rows[z] = {row[0]: row[2] for row in judge.rows}
    assert rows[2.576]["M1 win rate (greedy)"] == "0.800 [0.744, 0.846] (400, 99% CI)"
    assert rows[2.576]["M2 random win rate"].endswith("(400, 99% CI)")
    assert rows[1.96]["M1 win rate (greedy)"] == "0.800 [0.758, 0.836] (400)"


def test_messages_count_one_seat_in_the_singular(tmp_path):
    lost = [{"index": i, "agent": "greedy", "outcome": "loss", "rounds": 6, "decisions": 10, "multi": 8,
             "stage_rounds": [], "violations": [], "error": None} for i in range(40)]
    judge = verdict._Judge(tmp_path / "balance.yaml", {}, "pnp simulate g", seats="players")
    verdict._judge_count(judge, BALANCE, 1, "heuristic", lost, lost, "outside", 1.96, "inside", 1.96, {})
    m1 = next(p.message for p in judge.problems if p.field == "win_rate")
    assert "team win rate with 1 player is" in m1
    assert [verdict._Judge(tmp_path, {}, "", seats=s).count(n) for s, n in (("characters", 1), ("characters", 3))] \
        == ["1 character", "3 characters"]


def test_pressure_bands_warn_only_when_the_interval_is_outside(tmp_path):
    """A pressure band (a warning band) as the verdict judges it: ``_judge_count`` hands each
    ``pressure`` key with its interval over games to ``_Judge.band``."""
    def judged(value, ci):
        judge = verdict._Judge(tmp_path / "balance.yaml", {}, "pnp simulate g")
        status = judge.band("pressure.x", "   x", 3, value, ci, 0.10, 0.40, "x", games=400, label="spec §6 band")
        return status, judge.rows[-1][2], judge.problems

    status, shown, problems = judged(0.088, [0.072, 0.106])
    assert (status, problems) == ("warn?", [])                            # straddles 0.10: no warning
    status, shown, problems = judged(0.088, [0.075, 0.098])
    assert status == "warn" and [p.severity for p in problems] == ["warning"]   # wholly below
    assert "x with 3 players is 0.088 [0.075, 0.098] (400), outside [0.1, 0.4]" in problems[0].message
    assert judged(0.12, [0.095, 0.15])[::2] == ("pass?", [])
    assert judged(0.12, [0.11, 0.13]) == ("pass", "0.120 [0.110, 0.130] (400)", [])
    status, shown, problems = judged(0.05, None)                           # no interval: the point decides
    assert (status, shown, len(problems)) == ("warn", "0.050 (400)", 1)


def test_paired_card_impact_straddling_the_swing_is_played_on_more_seeds(tmp_path, monkeypatch):
    """M5 decides by the paired interval: one that straddles +-swing is not a verdict yet, so the
    card is played again on PAIRED_GROWTH times the seeds (the same seeds first), and only that
    last look may flag it; the bands' own sample is left as it was."""
    from generator.sim.games import fatal_fight as ff

    monkeypatch.setattr(ff, "ablate", lambda tables, card_id: tables)
    sizes = []

    def paired(base, again):
        assert [r["index"] for r in base] == [r["index"] for r in again] == list(range(len(base)))
        sizes.append(len(base))
        return (0.3, 0.1, 0.5) if len(base) < 40 * verdict.PAIRED_GROWTH else (0.3, 0.25, 0.35)

    monkeypatch.setattr(verdict, "_paired", paired)
    monkeypatch.setattr(verdict.metrics, "card_impact", lambda records, min_games: {"some_card": (0.3, 20, 20)})
    balance = _paired_balance()
    balance["card_impact"] = {**balance["card_impact"], "swing": 0.2}
    result = verdict.check_balance(game_dir(tmp_path, ff_tables.tables(), balance), workers=1, write_report=False)
    assert sizes[0] == 40 and sizes[-1] == 40 * verdict.PAIRED_GROWTH
    (paired_row,) = result.report["card_impact_paired"].values()
    assert paired_row["games"] == 40 * verdict.PAIRED_GROWTH
    (swingy,) = [p for p in result.problems if "M5 swingy card" in p.message and "160 seeds" in p.message]
    # its command shows the card's use on as many games (it played the run's games without --games or --cards)
    assert swingy.message.endswith("--cards --games 160")
    assert result.report["per_players"][2]["reference"]["games"] == 40


def test_card_impact_is_flagged_only_when_its_interval_lies_beyond_the_swing():
    # Metroidvania d09 (s6): +0.050 [+0.021, +0.079] on 300 paired seeds was warned about as swingy
    # because the point estimate touched 0.05; its interval reaches back to 0.021
    assert verdict.impact_verdict(0.050, 0.021, 0.079, 0.05) == "unclear"
    assert verdict.impact_verdict(0.080, 0.055, 0.105, 0.05) == "swingy"
    assert verdict.impact_verdict(-0.080, -0.105, -0.052, 0.05) == "trap"
    assert verdict.impact_verdict(-0.060, -0.090, -0.030, 0.05) == "unclear"
    assert verdict.impact_verdict(0.020, -0.010, 0.050, 0.05) is None
    assert verdict.impact_verdict(0.0, 0.0, 0.0, 0.0) is None  # an unchanged card, swing 0
    assert verdict.impact_verdict(0.1, 0.02, 0.18, 0.0) == "swingy"


class _ScriptedRuns:
    """Stands in for verdict._Runs: game i of count n is a win iff ``wins(n, i)``."""

    def __init__(self, wins):
        self.wins, self.started = wins, []

    def start(self, request):
        self.started.append(request)
        return request

    def collect(self, request):
        n, _agent, games, start, _checked = request
        return [{"outcome": "win" if self.wins(n, i) else "loss"} for i in range(start, start + games)]


def _played(runs, sizes):
    return {(n, "reference"): (runs.collect((n, "greedy", m, 0, False)), "inside", 2.576) for n, m in sizes.items()}


WR = {"min": 0.35, "max": 0.65, "count_spread_max": 0.15}


def test_a_spread_straddling_its_maximum_plays_the_best_and_worst_counts_on_to_the_last_look():
    # 2 players win 1 game in 2; 3 players 3 in 4 over the first 40 games, then 11 in 20: at 40 games
    # each the spread 0.25 has an interval far too wide to judge; at 400 it is clearly inside
    runs = _ScriptedRuns(lambda n, i: i % 2 == 0 if n == 2 else (i % 4 != 0 if i < 40 else i % 20 < 11))
    played = _played(runs, {2: 40, 3: 40})
    best, worst, spread, lo, hi = verdict._spread({n: played[n, "reference"][0] for n in (2, 3)})
    assert (best, worst, round(spread, 2)) == (3, 2, 0.25) and lo < 0.15 < hi
    verdict._settle_spread(runs, played, [2, 3], "greedy", 400, WR, 1.96)
    assert sorted((r[0], r[2], r[3]) for r in runs.started) == [(2, 360, 40), (3, 360, 40)]
    assert all(len(played[n, "reference"][0]) == 400 and played[n, "reference"][2] == 1.96 for n in (2, 3))
    best, worst, spread, lo, hi = verdict._spread({n: played[n, "reference"][0] for n in (2, 3)})
    assert hi <= 0.15 and round(spread, 3) == 0.07


def test_a_spread_clearly_outside_or_inside_plays_no_more_games():
    runs = _ScriptedRuns(lambda n, i: i % 10 < (2 if n == 2 else 8))  # 0.2 vs 0.8
    played = _played(runs, {2: 100, 3: 100})
    verdict._settle_spread(runs, played, [2, 3], "greedy", 400, WR, 1.96)
    assert runs.started == []


def test_cards_edited_since_the_last_pass_are_handed_to_the_paired_check(tmp_path, monkeypatch):
    """A card played whenever it is drawn has no 'drawn and not played' games: the screening cannot
    see it, so an edited card is checked paired whatever the screening says."""
    game = game_dir(tmp_path, ff_tables.tables())
    asked, passes = [], [True]

    def judged(*args, **kwargs):
        asked.append(kwargs.get("changed_cards"))
        return verdict.BalanceResult(passed=passes[0])
    monkeypatch.setattr(verdict, "check_balance", judged)
    verdict.cached_verdict(game, output_dir=tmp_path / "out")
    card = game.tables["arts"][3]
    card["ap"] += 2                                                  # the designer's edit
    passes[0] = False
    verdict.cached_verdict(game, output_dir=tmp_path / "out", refresh=True)
    verdict.cached_verdict(game, output_dir=tmp_path / "out", refresh=True)  # still against the last pass
    assert asked == [[], [card["id"]], [card["id"]]]


def test_an_edited_card_gets_its_paired_row_even_when_the_screening_flags_none(tmp_path, monkeypatch):
    from generator.sim.games import fatal_fight as ff

    monkeypatch.setattr(ff, "ablate", lambda tables, card_id: tables)
    balance = _paired_balance()
    balance["card_impact"] = {**balance["card_impact"], "paired_cards": 0}
    card = ff_tables.tables()["arts"][3]["id"]
    result = verdict.check_balance(game_dir(tmp_path, ff_tables.tables(), balance), workers=1, write_report=False,
                                   changed_cards=[card, "no_such_card"])
    assert list(result.report["card_impact_paired"]) == [card]
    assert result.report["card_impact_paired"][card]["edited"] is True
    assert f"M5 card impact (paired): {card} (edited)" in result.table


def test_card_digests_tell_which_record_changed_whatever_its_keys():
    tables = {"rules": {"x": 1}, "arts": [{"id": "a", "ap": 2, "by_count": {2: 1, "all": 3}}, {"id": "b", "ap": 1}]}
    before = verdict.card_digests(tables)
    assert set(before) == {"a", "b"}
    tables["arts"][0]["by_count"][2] = 2
    after = verdict.card_digests(tables)
    assert after["a"] != before["a"] and after["b"] == before["b"]


def test_rewording_a_rule_text_keeps_the_cached_verdict_and_a_played_edit_does_not(tmp_path, monkeypatch):
    """A text that restates played fields (schema ``restates``) is not played: rewording it, or a comment
    in a record file, is no reason to simulate again; an edit of what the engine reads is."""
    import shutil
    from pathlib import Path

    from generator.content import load_game

    root = tmp_path / "fatal-fight"
    shutil.copytree(Path(__file__).resolve().parents[3] / "content/fatal-fight", root)
    calls = []
    monkeypatch.setattr(verdict, "check_balance", lambda *a, **k: calls.append(k.get("changed_cards"))
                        or verdict.BalanceResult(passed=True))
    out = tmp_path / "out"
    assert not verdict.cached_verdict(load_game(root), output_dir=out).cached
    bosses = root / "bosses.yaml"
    text = bosses.read_text(encoding="utf-8")
    assert "text: {ja: ボスと同じラインの全員に2ダメージ。" in text
    bosses.write_text(text.replace("text: {ja: ボスと同じラインの全員に2ダメージ。", "text: {ja: ボスと同じラインにいる全員に2ダメージ。")
                      + "\n# a comment\n", encoding="utf-8")
    assert verdict.cached_verdict(load_game(root), output_dir=out).cached and len(calls) == 1
    bosses.write_text(bosses.read_text(encoding="utf-8").replace("{op: damage, n: 2, target: boss_line",
                                                                "{op: damage, n: 3, target: boss_line"), encoding="utf-8")
    assert not verdict.cached_verdict(load_game(root), output_dir=out).cached
    assert calls[-1] == ["b1_garon_hammer"]  # the played edit is the one card handed to the paired check


def test_files_the_engine_never_reads_keep_the_verdict_and_an_enemy_edit_does_not(tmp_path, monkeypatch):
    """The verdict was keyed on every file of the game folder: an icons.yaml, a layout, a README.txt or
    the standees (a component the engine does not read) replayed a minute of games at the next build."""
    import shutil
    from pathlib import Path

    from generator.content import load_game

    root = tmp_path / "fatal-fight"
    shutil.copytree(Path(__file__).resolve().parents[3] / "content/fatal-fight", root)
    calls = []
    monkeypatch.setattr(verdict, "check_balance", lambda *a, **k: calls.append(1) or verdict.BalanceResult(passed=True))
    out = tmp_path / "out"
    assert not verdict.cached_verdict(load_game(root), output_dir=out).cached
    (root / "icons.yaml").write_text("star: {path: 'M0 0 L10 0 L5 10 Z', viewbox: [0, 0, 10, 10]}\n", encoding="utf-8")
    (root / "layouts" / "fatal-fight").mkdir(parents=True)
    (root / "layouts" / "fatal-fight" / "note.yaml").write_text("boxes: []\n", encoding="utf-8")
    (root / "README.txt").write_text("printing notes\n", encoding="utf-8")
    standees = root / "standees.yaml"
    standees.write_text(standees.read_text(encoding="utf-8").replace("name_en: Rex", "name_en: Rex the Red"),
                        encoding="utf-8")
    assert verdict.cached_verdict(load_game(root), output_dir=out).cached and len(calls) == 1
    enemies = root / "enemies.yaml"
    enemies.write_text(enemies.read_text(encoding="utf-8").replace("  life: 2\n", "  life: 3\n", 1), encoding="utf-8")
    assert not verdict.cached_verdict(load_game(root), output_dir=out).cached and len(calls) == 2


def test_what_compile_setup_reads_is_what_counts_and_everything_when_it_fails():
    from generator.errors import ProblemsError
    from generator.sim.verdict_key import tables_read

    class Engine:
        @staticmethod
        def compile_setup(tables, where=None):
            _ = tables.get("rules"), "arts" in tables, [tables[k] for k in sorted(tables) if k.startswith("market")]

    tables = {"rules": {}, "arts": [], "boards": [], "market_early": [], "market_late": []}
    assert tables_read(Engine, tables) == ({"rules", "arts", "market_early", "market_late"}, True)

    class Failing:
        @staticmethod
        def compile_setup(tables, where=None):
            tables.get("rules")
            raise ProblemsError([])
    assert tables_read(Failing, tables) == (set(tables), True)


def test_a_long_value_wraps_in_its_column_and_keeps_band_and_status_in_view():
    """Metroidvania's boss-fight row (five bosses with intervals) pushed every row's status 230
    characters right, off the terminal and off balance.pdf's page."""
    bosses = ", ".join(f"b{i:02d} 0.{i}53 [0.334, 0.373] warn" for i in range(1, 8)) + " (6800 games)"
    table = verdict._table([("§5.7 bosses killed", "all", bosses, "every boss >= 0.5", "warn"),
                            ("M1 win rate", "2", "0.5 [0.4, 0.6] (400)", "[0.35, 0.7]", "pass")])
    lines = table.splitlines()
    status_at = lines[0].index("status")
    assert all(len(line) <= status_at + len("status") for line in lines)
    assert lines[2].endswith("warn") and lines[-1].endswith("pass")
    cells = " ".join(line[lines[0].index("value"):lines[0].index("band")].strip() for line in lines[2:-1])
    assert cells == bosses  # every interval whole, nothing lost


def test_the_spread_warning_names_the_sweep_of_a_number_set_per_count_within_its_schema():
    """Valheim 2: 0.700, 3: 0.600, 4: 0.448 warned that 2 and 4 differ by 0.252 and said nothing of what
    to change; its rules set the avatars' strength per player count (4: +5, the schema's maximum 6)."""
    from pathlib import Path

    from generator.content import load_game

    game = load_game(Path(__file__).resolve().parents[3] / "content" / "valheim")
    judge = verdict._Judge(game.root / "balance.yaml", {}, "pnp simulate valheim", game=game)
    runs = _ScriptedRuns(lambda n, i: i % 1000 < {2: 700, 3: 600, 4: 448}[n])
    by_count = {n: {"reference": runs.collect((n, "greedy", 1000, 0, False))} for n in (2, 3, 4)}
    data = {"per_players": {n: {"reference": {"win_rate": {2: 0.7, 3: 0.6, 4: 0.448}[n]}} for n in (2, 3, 4)}}
    config = {**BALANCE, "win_rate": {"min": 0.35, "max": 0.75, "count_spread_max": 0.15}}
    records = [r for run in by_count.values() for r in run["reference"]]
    verdict._judge_pooled(judge, config, data, "greedy", records, [], [2, 3, 4], by_count)
    [spread] = [p.message for p in judge.problems if p.field == "win_rate.count_spread_max"]
    assert spread.endswith("; numbers set per player count: rules.hunt.strength_by_players, "
                           "rules.final_battle.strength_by_players; try one at 4 players, the furthest from the "
                           "others: pnp simulate valheim --players 4 --sweep rules.hunt.strength_by_players.4=3..6 "
                           "(or --sweep rules.final_battle.strength_by_players.4=13..17)")


def test_a_win_rate_outside_its_band_names_the_sweep_of_a_number_set_per_count():
    """Metroidvania with boss_life_bonus 2: 1 won 0.823 at 2 players: the failure said the band and the
    games to replay, not that rules.yaml sets the bosses' life per count."""
    from pathlib import Path

    from generator.content import load_game

    game = load_game(Path(__file__).resolve().parents[3] / "content" / "metroidvania")
    judge = verdict._Judge(game.root / "balance.yaml", {}, "pnp simulate metroidvania", game=game)
    won = [{"outcome": "win" if i % 1000 < 823 else "loss", "rounds": 20} for i in range(400)]
    rnd = [{"outcome": "loss", "rounds": 20}] * 400
    config = {**BALANCE, "win_rate": {"min": 0.35, "max": 0.6}}
    verdict._judge_count(judge, config, 2, "heuristic", won, rnd, "outside", 2.576, "inside", 2.576, {}, [1, 2, 3, 4])
    [m1] = [p.message for p in judge.problems if p.field == "win_rate"]
    assert ("outside the band [0.35, 0.6]; numbers set per player count: rules.turns_per_round, rules.boss_life_bonus; "
            "try one at 2 players: pnp simulate metroidvania --players 2 --sweep rules.turns_per_round.2=") in m1
    # the README's lever is the second number rules.yaml sets per count: offered too, not only the first
    assert " (or --sweep rules.boss_life_bonus.2=0..3); reproduce:" in m1
    assert m1.endswith("; reproduce: pnp simulate metroidvania --players 2 --agent heuristic --seed 0 --games 400")


def test_a_shipped_games_kept_verdict_is_said_to_stand_by_the_key_it_was_kept_under(tmp_path, monkeypatch):
    """A build without balance said a shipped game's verdict was 'judged on other numbers' right after it was
    kept: it keyed every file, where the verdict of a shipped engine is keyed on the tables it reads."""
    import shutil
    from pathlib import Path

    from generator.content import load_game

    root = tmp_path / "fatal-fight"
    shutil.copytree(Path(__file__).resolve().parents[3] / "content/fatal-fight", root)
    monkeypatch.setattr(verdict, "check_balance", lambda *a, **k: verdict.BalanceResult(passed=True))
    out = tmp_path / "out"
    verdict.cached_verdict(load_game(root), output_dir=out)
    (root / "icons.yaml").write_text("star: {path: 'M0 0 L10 0 L5 10 Z', viewbox: [0, 0, 10, 10]}\n", encoding="utf-8")
    assert verdict.kept_verdict_standing(load_game(root), out) == "the kept verdict (passed) is of these numbers"
    enemies = root / "enemies.yaml"
    enemies.write_text(enemies.read_text(encoding="utf-8").replace("  life: 2\n", "  life: 3\n", 1), encoding="utf-8")
    assert "judged on other numbers" in verdict.kept_verdict_standing(load_game(root), out)


def _with_fixtures(monkeypatch, fixtures, ablate=None):
    """Fatal Fight with an engine that names ``fixtures`` (``{id: screened}``, as Valheim's crafts)."""
    from generator.sim.games import fatal_fight as ff

    monkeypatch.setattr(ff, "fixtures", lambda setup: dict(fixtures), raising=False)
    monkeypatch.setattr(ff, "ablate", ablate or (lambda tables, card_id: tables))


def test_an_edited_card_always_on_offer_is_paired_though_no_screening_tracks_it(tmp_path, monkeypatch):
    """Valheim's crafts are never drawn nor passed over in a row (``cards`` does not track them): an
    edited one was left out of M5 altogether; the engine's ``fixtures`` hands it to the changed path."""
    enemy = ff_tables.tables()["enemies"][0]["id"]  # a record ``cards`` does not track
    _with_fixtures(monkeypatch, {enemy: False})
    balance = _paired_balance()
    balance["card_impact"] = {**balance["card_impact"], "paired_cards": 0}
    result = verdict.check_balance(game_dir(tmp_path, ff_tables.tables(), balance), workers=1, write_report=False,
                                   changed_cards=[enemy])
    assert list(result.report["card_impact_paired"]) == [enemy]
    assert result.report["card_impact_paired"][enemy]["edited"] is True
    assert f"M5 card impact (paired): {enemy} (edited)" in result.table
    assert "M5 always-offered cards" not in result.table  # not screened: only when edited


def test_screened_fixtures_are_paired_at_every_verdict_on_their_own_seeds(tmp_path, monkeypatch):
    """The fixtures an engine marks screened (Valheim's facilities) are each played with their filler on
    ``fixture_games`` seeds whether edited or not: paired, so not confounded as the screening's bought vs
    not bought; those within the swing share one row."""
    enemies = [e["id"] for e in ff_tables.tables()["enemies"][:2]]
    _with_fixtures(monkeypatch, {enemies[0]: True, enemies[1]: False})
    balance = _paired_balance()
    balance["card_impact"] = {**balance["card_impact"], "paired_cards": 0, "swing": 0.2, "fixture_games": 24}
    result = verdict.check_balance(game_dir(tmp_path, ff_tables.tables(), balance), workers=1, write_report=False)
    assert result.report["card_impact_paired"] == {enemies[0]: {
        "players": 2, "games": 24, "delta": 0, "ci95": [-0.138, 0.138], "edited": False, "fixture": True}}
    assert round(stats.wilson(0, 24)[1], 4) == 0.138  # no seed differs: bounded like 0 of 24
    row = next(line for line in result.table.splitlines() if line.startswith("M5 always-offered cards (paired)"))
    assert f"1 of 1 within the swing, 24+ paired seeds each ({enemies[0]})" in row
    balance["card_impact"]["fixture_games"] = 0  # only when edited
    (tmp_path / "off").mkdir()
    result = verdict.check_balance(game_dir(tmp_path / "off", ff_tables.tables(), balance), workers=1,
                                   write_report=False)
    assert result.report["card_impact_paired"] == {}


def test_a_screened_fixture_that_harms_the_team_warns_and_one_that_helps_is_shown(tmp_path, monkeypatch):
    """A facility is built to help everyone: one that lowers the win rate against its filler is a trap
    (Valheim's bed at 2 players); one that raises it is a row, no warning. Edited, it warns both ways."""
    enemy = ff_tables.tables()["enemies"][0]["id"]
    balance = _paired_balance()
    balance["card_impact"] = {**balance["card_impact"], "paired_cards": 0, "fixture_games": 40}

    def easier(tables, card_id):  # with the filler the team wins more: the card harms it
        for boss in tables["boss_profiles"]:
            boss["life"] = 1
            boss.pop("min_life", None)
        return tables
    _with_fixtures(monkeypatch, {enemy: True}, lambda tables, card_id: easier(ff_tables.tables(), card_id))
    result = verdict.check_balance(game_dir(tmp_path, tripled_life(ff_tables.tables()), balance), workers=1,
                                   write_report=False)
    (trap,) = [p for p in result.problems if "M5 trap card" in p.message]
    assert enemy in trap.message and f"--filler {enemy} --games 40" in trap.message  # --cards shows nothing of it
    _with_fixtures(monkeypatch, {enemy: True}, lambda tables, card_id: tripled_life(ff_tables.tables()))
    (tmp_path / "helps").mkdir()
    result = verdict.check_balance(game_dir(tmp_path / "helps", ff_tables.tables(), balance), workers=1,
                                   write_report=False)
    assert not [p for p in result.problems if p.field == "card_impact"]
    assert result.report["card_impact_paired"][enemy]["ci95"][0] > 0
    assert f"M5 card impact (paired): {enemy}" in result.table
    row = next(line for line in result.table.splitlines() if line.startswith("M5 always-offered cards (paired)"))
    assert "0 of 1 within the swing, 40+ paired seeds each " in row and enemy not in row  # named in its own row
    (tmp_path / "edited").mkdir()
    result = verdict.check_balance(game_dir(tmp_path / "edited", ff_tables.tables(), balance), workers=1,
                                   write_report=False, changed_cards=[enemy])
    (swingy,) = [p for p in result.problems if "M5 swingy card" in p.message]
    assert f"--filler {enemy} --games 40" in swingy.message


def test_a_screened_fixture_is_played_on_only_when_it_may_be_a_trap(tmp_path, monkeypatch):
    """Only harm warns for a screened fixture, so a short sample that straddles the swing is played on
    only when its point estimate lies at or beyond -swing (Valheim s18: four facilities within the swing
    grew to 800 games each, +3,200 games for no possible warning)."""
    enemies = [e["id"] for e in ff_tables.tables()["enemies"][:2]]
    _with_fixtures(monkeypatch, {enemies[0]: True, enemies[1]: True})
    sizes = {}

    def paired(base, again):  # the first fixture reads -0.3, the second +0.3, both straddling at 24 games
        card = enemies[len(sizes) % 2] if len(base) == 24 else enemies[0]
        sizes.setdefault(card, []).append(len(base))
        sign = -1 if card == enemies[0] else 1
        return (sign * 0.3, sign * 0.3 - 0.25, sign * 0.3 + 0.25)

    monkeypatch.setattr(verdict, "_paired", paired)
    balance = _paired_balance()
    balance["card_impact"] = {**balance["card_impact"], "paired_cards": 0, "swing": 0.2, "fixture_games": 24}
    result = verdict.check_balance(game_dir(tmp_path, ff_tables.tables(), balance), workers=1, write_report=False)
    games = {card: row["games"] for card, row in result.report["card_impact_paired"].items()}
    assert games == {enemies[0]: 24 * verdict.PAIRED_GROWTH, enemies[1]: 24}
