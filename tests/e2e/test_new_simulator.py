"""`pnp new NAME --simulator`: the sample game's own simulator plays, repeats itself and is judged."""
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from generator.content import load_game
from generator.errors import ProblemsError
from generator.newgame import new_game
from generator.sim import local
from generator.sim.compile import played_tables
from generator.sim.runner import run_games

from test_new import pnp


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """A new game with its simulator, written once; its engine loaded as pnp loads it."""
    root = tmp_path_factory.mktemp("project")
    new_game("fox", root, lang="en", simulator=True)
    game = load_game(root / "content" / "fox")
    return root, game, local.load(game.root / "sim.py")


def test_only_the_simulator_option_writes_an_engine_rules_and_bands(tmp_path):
    plain, local = tmp_path / "plain", tmp_path / "local"
    new_game("fox", plain, lang="en")
    new_game("fox", local, lang="en", simulator=True)
    files = {p.relative_to(local).as_posix() for p in local.rglob("*") if p.is_file()}
    assert files - {p.relative_to(plain).as_posix() for p in plain.rglob("*") if p.is_file()} == {
        "content/fox/sim.py", "content/fox/rules.yaml", "content/fox/balance.yaml",
        "content/fox/rulebook/02-how-to-play.md"}
    assert yaml.safe_load((local / "content/fox/balance.yaml").read_text())["engine"] == "sim.py"
    assert "power" not in (plain / "content/fox/cards.yaml").read_text()


def test_the_sample_games_end_and_every_step_keeps_the_rules(sample):
    _root, game, engine = sample
    for players in (2, 3, 4):
        for agent in ("greedy", "random"):
            records = run_games(engine, played_tables(game), players=players, games=100, seed=3, agent=agent,
                                workers=1, checked=True)
            assert {r["outcome"] for r in records} <= {"win", "loss"}, [r["error"] for r in records][:1]
            assert all(1 <= r["rounds"] <= 6 for r in records)
            assert set(records[0]["exposures"]) >= set(records[0]["uses"])


def test_a_seed_gives_the_same_records_on_one_worker_or_two(sample):
    _root, game, engine = sample
    runs = [run_games(engine, played_tables(game), players=3, games=60, seed=7, agent="greedy", workers=workers)
            for workers in (1, 1, 2)]
    assert runs[0] == runs[1] == runs[2]
    assert len({r["outcome"] for r in runs[0]}) == 2  # wins and losses: the seed matters, not the worker


def test_a_card_no_round_can_pay_for_is_refused_at_its_line(sample):
    _root, game, engine = sample
    tables = played_tables(game)
    cards = [dict(card, cost=5) if card["id"] == "fireworks" else card for card in tables["cards"]]
    with pytest.raises(ProblemsError) as refused:
        engine.compile_setup({**tables, "cards": cards}, lambda record: game.where(tables["cards"][3]))
    [problem] = refused.value.problems
    assert problem.display().startswith(f"{game.root / 'cards.yaml'}:6: cards[3].cost: costs 5, more than")


# -- the print gate, through pnp: the engine is loaded by balance.yaml's `engine: sim.py` --

def _fast(root):
    """The game's balance.yaml with fewer games (the scaffold's are a designer's)."""
    bands_file = root / "content" / "fox" / "balance.yaml"
    bands = bands_file.read_text()  # edited as text: its lines stay where they were
    for scaffold, fast in (("looks: [400, 800, 1600]", "looks: [100, 200]"), ("random_games: 600", "random_games: 150")):
        assert scaffold in bands
        bands = bands.replace(scaffold, fast)
    bands_file.write_text(bands)


def test_validate_plays_the_sample_and_passes_then_fails_it_on_a_doubled_target(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    _fast(tmp_path)
    passed = pnp("validate", "fox", "--workers", "1", cwd=tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "balance passed" in passed.stderr and "M1 win rate (greedy)" in passed.stdout
    assert " warning: " not in passed.stdout + passed.stderr  # the sample's bands are of their types, all used
    rules_file = tmp_path / "content/fox/rules.yaml"
    rules = yaml.safe_load(rules_file.read_text())
    rules_file.write_text(yaml.safe_dump({**rules, "target": {n: 2 * score for n, score in rules["target"].items()}}))
    failed = pnp("validate", "fox", "--workers", "1", cwd=tmp_path)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    said = failed.stdout + failed.stderr
    assert "content/fox/balance.yaml:14: win_rate: M1 win rate: greedy team win rate with 2 players is 0.000" in said
    assert "reproduce: pnp simulate fox --players 2" in said
    assert re.search(r"the balance verdict failed \(\d+ games played in \d+ s\), so pnp build will not print it; "
                     rf"next:\n  every metric at every count: {re.escape(str(Path('output/fox/balance.pdf')))}\n", said)


def test_build_says_whether_it_played_or_kept_the_verdict_and_what_to_do_when_it_refuses(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    _fast(tmp_path)
    played = pnp("build", "fox", "--workers", "1", cwd=tmp_path)
    assert played.returncode == 0 and re.search(r"balance passed: \d+ games played in \d+ s", played.stderr)
    kept = pnp("build", "fox", "--workers", "1", cwd=tmp_path)
    assert "balance passed: kept verdict, nothing played changed since it was judged" in kept.stderr
    rules_file = tmp_path / "content/fox/rules.yaml"
    rules = yaml.safe_load(rules_file.read_text())
    rules_file.write_text(yaml.safe_dump({**rules, "target": {n: 2 * score for n, score in rules["target"].items()}}))
    for judged in (r"\d+ games played in \d+ s", "kept verdict, nothing played changed since it was judged"):
        refused = pnp("build", "fox", "--workers", "1", cwd=tmp_path)
        said = refused.stdout + refused.stderr
        assert refused.returncode == 1 and re.search(rf"the balance verdict failed \({judged}\), so nothing was "
                                                     "printed; next:", said), said
        assert f"every metric at every count: {Path('output/fox/balance.pdf')}" in said
        assert "pnp simulate fox --players N --sweep PATH=A..B" in said
        assert "  to print anyway: pnp build fox --no-balance\n" in said  # this game, not every game


def test_simulate_traces_a_sample_game_in_the_engines_words_and_refuses_a_count_without_a_target(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    traced = pnp("simulate", "fox", "--players", "2", "--seed", "1", "--game", "4", "--trace", cwd=tmp_path)
    assert traced.returncode == 0, traced.stdout + traced.stderr
    lines = traced.stdout.splitlines()
    assert lines[0] == "round 1: energy 2" and re.fullmatch(r"  player 1 draws \w+", lines[1])
    assert re.fullmatch(r"(win|loss) with a score of \d+ \(target 60\)", lines[-2]), lines[-2:]
    assert re.fullmatch(r"game 4: (win|loss) after [1-6] rounds", lines[-1])
    five = pnp("simulate", "fox", "--players", "5", "--games", "10", cwd=tmp_path)
    assert five.returncode == 2 and "rules.yaml has no target for 5 players ([2, 3, 4])" in five.stderr


def test_simulate_heroes_of_a_game_whose_records_carry_no_party_says_so_once(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    said = pnp("simulate", "fox", "--players", "2", "--games", "10", "--heroes", "--set", "rules.target.2=50",
               cwd=tmp_path)
    assert said.returncode == 0, said.stderr
    assert said.stdout.count("heroes     none: this game's records carry no party") == 1, said.stdout
    out = json.loads(pnp("simulate", "fox", "--players", "2", "--games", "10", "--heroes", "--json",
                         cwd=tmp_path).stdout)
    assert out["heroes"] is None


def test_the_code_in_docs_simulator_md_is_the_sample_engine_as_written():
    repo = Path(__file__).resolve().parents[2]
    engine = (repo / "generator/scaffold/simulator/content/sim.py").read_text(encoding="utf-8")
    doc = (repo / "docs/simulator.md").read_text(encoding="utf-8")
    excerpts = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert len(excerpts) >= 4
    for excerpt in excerpts:
        assert excerpt in engine, excerpt


def test_a_set_the_samples_rules_refuse_is_said_in_the_engines_words(tmp_path):
    """The changed records are copies: ``where`` still locates them, so the sample's own check runs."""
    new_game("fox", tmp_path, lang="en", simulator=True)
    for option in (("--set", "fireworks.cost=5"), ("--sweep", "fireworks.cost=4,5")):
        refused = pnp("simulate", "fox", "--players", "2", "--games", "5", *option, cwd=tmp_path)
        said = " ".join(refused.stderr.split())
        assert refused.returncode == 2, said
        assert "the changed content does not run: cards[3].cost: costs 5, more than any round's energy (4)" in said


def test_a_player_count_the_rules_do_not_deal_is_one_problem_at_balance_yamls_players_line(tmp_path):
    from generator.sim.verdict import check_balance

    new_game("fox", tmp_path, lang="en", simulator=True)
    bands_file = tmp_path / "content/fox/balance.yaml"
    bands_file.write_text(bands_file.read_text().replace("players: [2, 3, 4]", "players: [2, 3, 4, 5]"))
    line = next(i for i, text in enumerate(bands_file.read_text().splitlines(), 1) if text.startswith("players:"))
    result = check_balance(load_game(tmp_path / "content/fox"), workers=1, write_report=False)
    assert not result.passed
    assert [p.display() for p in result.problems] == [
        f"{bands_file}:{line}: players: 5: rules.yaml has no target for 5 players ([2, 3, 4])"]


def test_watch_without_balance_says_an_edited_engine_is_not_played(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    engine = tmp_path / "content/fox/sim.py"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    watcher = subprocess.Popen([sys.executable, "-m", "generator", "watch", "fox", "--max-cycles", "2", "--interval",
                                "0.2"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        seen = ""
        while "watching" not in seen:
            seen += watcher.stdout.readline() or "(ended)"
            assert "(ended)" not in seen, seen
        time.sleep(0.3)
        engine.write_text(engine.read_text() + "# the designer's edit\n")
        output = seen + watcher.communicate(timeout=120)[0]
    finally:
        if watcher.poll() is None:
            watcher.kill()
    assert "changed: content/fox/sim.py" in output, output
    assert "note: the simulator's code is not played without --balance" in output


def test_watch_with_balance_says_how_the_verdict_was_judged_and_what_to_do_when_it_refuses(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    _fast(tmp_path)
    built = pnp("watch", "fox", "--balance", "--once", cwd=tmp_path)
    assert built.returncode == 0 and re.search(r"ok: .*\(.*balance passed: \d+ games played in \d+ s\)", built.stdout)
    rules_file = tmp_path / "content/fox/rules.yaml"
    rules = yaml.safe_load(rules_file.read_text())
    rules_file.write_text(yaml.safe_dump({**rules, "target": {n: 2 * score for n, score in rules["target"].items()}}))
    refused = pnp("watch", "fox", "--balance", "--once", cwd=tmp_path)
    assert refused.returncode == 1 and "so nothing was printed; next:" in refused.stdout
    assert "--sweep PATH=A..B" in refused.stdout


def test_simulate_checks_its_first_games_as_validate_does_so_an_illegal_choice_is_an_error(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    engine = tmp_path / "content/fox/sim.py"
    engine.write_text(engine.read_text().replace("return min(winning, key=", 'return "fold" or min(winning, key='))
    run = pnp("simulate", "fox", "--players", "2", "--games", "20", "--workers", "1", cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "chose illegal action 'fold'; legal were 'pass'" in run.stderr and "error" in run.stdout.split("outcomes")[1]


def test_a_reference_agent_or_control_the_engine_has_not_is_a_problem_at_its_line(tmp_path):
    from generator.sim.verdict import check_balance

    new_game("fox", tmp_path, lang="en", simulator=True)
    engine, bands_file = tmp_path / "content/fox/sim.py", tmp_path / "content/fox/balance.yaml"
    engine.write_text(engine.read_text().replace('AGENTS = {"greedy": Greedy}', 'AGENTS = {"greed": Greedy}'))
    bands_file.write_text(bands_file.read_text() + "controls: {careful: 100}\n")
    lines = bands_file.read_text().splitlines()
    at = {key: next(i for i, text in enumerate(lines, 1) if text.startswith(key)) for key in ("reference_agent", "controls")}
    result = check_balance(load_game(tmp_path / "content/fox"), workers=1, write_report=False)
    assert [p.display() for p in result.problems] == [
        f"{bands_file}:{at['reference_agent']}: reference_agent: 'greedy' is not one of the engine's agents (greed, random)",
        f"{bands_file}:{at['controls']}: controls.careful: 'careful' is not one of the engine's agents (greed, random)"]


def test_a_set_on_content_that_does_not_run_says_why_it_cannot_compare(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    cards = tmp_path / "content/fox/cards.yaml"
    cards.write_text(cards.read_text().replace("count: 1, cost: 3, power: 5", "count: 1, cost: 5, power: 5"))
    tried = pnp("simulate", "fox", "--players", "2", "--games", "5", "--set", "fireworks.cost=3", cwd=tmp_path)
    assert tried.returncode == 1, tried.stdout + tried.stderr
    assert "cards[3].cost: costs 5, more than any round's energy (4)" in tried.stdout + tried.stderr
    assert "the content as it is cannot be simulated (above), so a change cannot be compared with it" in tried.stderr
    alone = pnp("simulate", "fox", "--players", "2", "--game", "0", "--set", "fireworks.cost=3", cwd=tmp_path)
    assert alone.returncode == 0 and "with fireworks.cost=3" in alone.stdout, alone.stdout + alone.stderr


@pytest.mark.parametrize("lang, one_count, range_of_counts", [
    ("ja", "は2人で遊ぶ協力ゲーム", "は2〜4人で遊ぶ協力ゲーム"),
    ("en", "is a co-operative race for 2 players", "is a co-operative race for 2 to 4 players"),
])
def test_the_samples_rulebook_names_one_player_count_once_when_the_rules_deal_only_one(tmp_path, lang, one_count,
                                                                                        range_of_counts):
    import pypdfium2 as pdfium

    new_game("duel", tmp_path, lang=lang, simulator=True)
    built = pnp("rulebook", "duel", cwd=tmp_path)
    pdf = tmp_path / "output/duel/rulebook.pdf"
    text = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(pdf)).replace("\r\n", "")
    assert built.returncode == 0 and range_of_counts in text, built.stderr
    rules = tmp_path / "content/duel/rules.yaml"
    rules.write_text(re.sub(r"target: \{[^}]*\}", "target: {2: 57}", rules.read_text(encoding="utf-8")), encoding="utf-8")
    assert pnp("rulebook", "duel", cwd=tmp_path).returncode == 0
    text = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(pdf)).replace("\r\n", "")
    assert one_count in text, text  # was "2〜2人", "2 to 2 players"


def test_simulate_without_players_plays_a_count_balance_yaml_judges_when_it_leaves_out_three(tmp_path):
    new_game("duel", tmp_path, simulator=True)
    root = tmp_path / "content/duel"
    for name, old, new in (("rules.yaml", r"target: \{[^}]*\}", "target: {2: 60}"),
                           ("balance.yaml", r"players: \[2, 3, 4\]", "players: [2]")):
        text = (root / name).read_text(encoding="utf-8")
        assert re.search(old, text)
        (root / name).write_text(re.sub(old, new, text), encoding="utf-8")
    duel = pnp("simulate", "duel", "--games", "20", cwd=tmp_path)  # was: Invalid value for --players ... 3 players
    assert duel.returncode == 0 and duel.stdout.startswith("duel: 20 games, 2 players, agent greedy"), duel.stderr
    new_game("race", tmp_path, simulator=True)  # lists 3: played as before
    race = pnp("simulate", "race", "--games", "20", cwd=tmp_path)
    assert race.returncode == 0 and race.stdout.startswith("race: 20 games, 3 players, agent greedy"), race.stderr


def test_a_game_judged_at_one_count_has_no_spread_between_counts_to_judge(tmp_path):
    from generator.sim.verdict import cached_verdict

    new_game("fox", tmp_path, lang="en", simulator=True)
    _fast(tmp_path)
    bands = tmp_path / "content/fox/balance.yaml"
    bands.write_text(bands.read_text().replace("players: [2, 3, 4]", "players: [2]", 1))
    result = cached_verdict(load_game(tmp_path / "content/fox"), workers=1, output_dir=tmp_path / "out")
    [row] = [line for line in result.table.splitlines() if line.startswith("M1 spread between counts")]
    assert "one player count, nothing to compare" in row and row.rstrip().endswith("info"), row  # was "(2 vs 2)  pass"


def test_a_simulator_that_raises_is_named_first_among_the_next_steps(tmp_path):
    new_game("fox", tmp_path, lang="en", simulator=True)
    _fast(tmp_path)
    engine = tmp_path / "content/fox/sim.py"
    played = "        self.score += self.setup.power[action]\n"
    assert played in engine.read_text()
    engine.write_text(engine.read_text().replace(played, played + "        raise KeyError('oops')\n"))
    failed = pnp("validate", "fox", "--workers", "1", cwd=tmp_path)
    said = failed.stdout + failed.stderr
    assert failed.returncode == 1 and "M0 integrity: greedy game 0 (2 players, seed 0): error: KeyError" in said, said
    assert re.search(r"; next:\n  first the error the simulator raised \(M0 integrity above; its `replay:` command "
                     r"plays up to it\): the other bands are judged on the games it ended\n  every metric", said), said


def test_a_band_of_the_sample_written_untyped_is_an_error_at_its_line_and_nothing_is_played(tmp_path):
    """The sample's balance.yaml is read by the validator itself (no schema types it): a band written
    `[a, 0.7]` was called missing, and `{min: a, ...}` ended validate with a TypeError."""
    new_game("fox", tmp_path, lang="en", simulator=True)
    bands = tmp_path / "content/fox/balance.yaml"
    text = bands.read_text()
    as_list = re.sub(r"win_rate: .*\n(  .*\n)*", "win_rate: [a, 0.7]\n", text)
    assert as_list != text
    bands.write_text(as_list)
    proc = pnp("validate", "fox", "--workers", "1", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[0] == "content/fox/balance.yaml:14: win_rate: expected a mapping of its bands" \
                                          " (count_spread_max:, max:, min:), got a list [a, 0.7]"
    assert "games played" not in proc.stdout + proc.stderr
    bands.write_text(text.replace("  min: 0.40", "  min: a"))
    proc = pnp("validate", "fox", "--workers", "1", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[0] == "content/fox/balance.yaml:15: win_rate.min: expected a number, got 'a'"
