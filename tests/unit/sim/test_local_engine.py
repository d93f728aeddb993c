"""A game's own simulator (``engine: sim.py`` in balance.yaml): loaded from the game directory, run by the
same validator, runner and ``pnp simulate``; its mistakes are located in its code, never a crash."""
import multiprocessing
import pickle
import shutil
import re
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from generator.content import load_game
from generator.errors import Location, Problem, ProblemsError
from generator.newgame import new_game
from generator.sim.compile import played_tables
from generator.sim.runner import run_games
from generator.sim.static import balance_of, engine_of, static_problems
from generator.sim.verdict import cached_verdict

REPO = Path(__file__).resolve().parents[3]

# A co-operative race: each seat plays its best card (cost + 1 points) or passes; the team wins at TARGET
# points before LAST_ROUND ends. Small enough to read, random enough to sample.
ENGINE = '''
TARGET, LAST_ROUND = 9, 4


class State:
    def __init__(self, setup, players, rng):
        self.setup, self.n = setup, players
        self.deck = [c for c in setup for _ in range(6)]
        rng.shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(2)] for _ in range(players)]
        self.seat, self.round, self.score, self.log, self.outcome = 0, 1, 0, [], None

    def current_player(self):
        return -4 if self.outcome else self.seat

    def legal_actions(self):
        return ["pass"] + sorted(set(self.hands[self.seat]))

    def apply_action(self, action):
        self.log.append((self.seat, action))
        if action != "pass":
            self.hands[self.seat].remove(action)
            self.score += self.setup[action] + 1
            if self.deck:
                self.hands[self.seat].append(self.deck.pop())
        self.seat = (self.seat + 1) % self.n
        self.round += self.seat == 0
        if self.score >= TARGET:
            self.outcome = "win"
        elif self.round > LAST_ROUND:
            self.outcome = "loss"

    def is_terminal(self):
        return self.outcome is not None

    def clone(self):
        raise NotImplementedError


class Greedy:
    name = "greedy"

    def __init__(self, setup, seat):
        self.setup = setup

    def choose(self, state, rng):
        return max(state.legal_actions(), key=lambda a: -1 if a == "pass" else self.setup[a])


AGENTS = {"greedy": Greedy}


def compile_setup(tables, where=None):
    return {card["id"]: card["cost"] for card in tables["cards"]}


def new_game(setup, players, rng):
    return State(setup, players, rng)


def summarize(state):
    played = [a for _, a in state.log if a != "pass"]
    return {"rounds": min(state.round, LAST_ROUND), "stage_rounds": [state.round] if state.outcome == "win" else [],
            "uses": {c: played.count(c) for c in set(played)}}
'''
BALANCE = '''engine: {engine}
players: [2, 3]
reference_agent: greedy
seed: 0
sampling: {{looks: [100, 200], z_interim: 2.576, z_final: 1.96}}
integrity: {{random_games: 60}}
win_rate: {{min: 0.0, max: {win_max}}}
skill: {{random_max: 1.0, gap_min: -1.0}}
length: {{stage_rounds: {{min: 1, max: 5}}, p95_rounds_max: 4, timeouts_max: 0.005}}
dead_cards: {{max_use_rate: 0.0, min_exposures: 100}}
card_impact: {{swing: 0.05, min_games: 200}}
heroes: {{spread_max: 1.0}}
softlocks: {{stalls_max: 0.01}}
decisions: {{density_min: 0.0}}
'''


def line_of(text: str) -> int:
    """The line of the engine (as written to sim.py) that starts with ``text``."""
    return next(i for i, line in enumerate(ENGINE.split("\n"), 1) if line.strip().startswith(text))


@pytest.fixture
def game_dir(tmp_path):
    """``content/race``: pnp new's sample cards, the race engine in sim.py and its balance.yaml."""
    new_game("race", tmp_path, lang="en")
    root = tmp_path / "content" / "race"
    (root / "sim.py").write_text(ENGINE, encoding="utf-8")
    write_balance(root)
    return root


def write_balance(root, engine="sim.py", win_max=1.0):
    (root / "balance.yaml").write_text(BALANCE.format(engine=engine, win_max=win_max), encoding="utf-8")


def engine_in(root):
    game = load_game(root)
    config, _path, lines = balance_of(game)
    return game, engine_of(game, config, lines)[1]


def messages(exc_info):
    return [p.display() for p in exc_info.value.problems]


def test_the_games_own_engine_plays_with_the_contracts_optional_parts_filled_in(game_dir):
    game, engine = engine_in(game_dir)
    assert engine.NAME == "race" and engine.VERSION.startswith("local-")
    assert engine.static_checks(None, 2) == [] and engine.cards(None) == [] and engine.describe(None, (0, "x")) == "(0, 'x')"
    records = run_games(engine, played_tables(game), players=2, games=60, seed=3, agent="greedy", workers=1)
    assert {r["outcome"] for r in records} <= {"win", "loss"} and any(r["outcome"] == "win" for r in records)
    assert sum(r["uses"].get("foxfire", 0) for r in records) > 0


def test_worker_processes_started_afresh_load_the_same_engine_and_play_the_same_games(game_dir):
    game, engine = engine_in(game_dir)
    here = run_games(engine, played_tables(game), players=3, games=30, seed=1, agent="random", workers=1)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:  # macOS's default
        there = run_games(engine, played_tables(game), players=3, games=30, seed=1, agent="random", executor=pool)
    assert there == here


def test_an_edited_engine_is_a_new_module_so_a_long_running_process_plays_the_new_rules(game_dir):
    _game, before = engine_in(game_dir)
    (game_dir / "sim.py").write_text(ENGINE.replace("TARGET, LAST_ROUND = 9, 4", "TARGET, LAST_ROUND = 99, 4"),
                                     encoding="utf-8")
    _game, after = engine_in(game_dir)
    assert (before.TARGET, after.TARGET) == (9, 99) and before.__name__ != after.__name__


def test_an_engine_saved_while_workers_play_it_stops_the_run_instead_of_mixing_rules(game_dir):
    game, engine = engine_in(game_dir)
    (game_dir / "sim.py").write_text(ENGINE.replace("TARGET, LAST_ROUND = 9, 4", "TARGET, LAST_ROUND = 99, 4"),
                                     encoding="utf-8")
    with ProcessPoolExecutor(1) as pool, pytest.raises(ProblemsError) as raised:
        run_games(engine, played_tables(game), players=2, games=10, seed=1, agent="greedy", executor=pool)
    [problem] = raised.value.problems
    assert problem.location.path == str(game_dir / "sim.py") and problem.field == "engine"
    assert "changed while its games were being played" in problem.message


def test_a_located_error_raised_in_a_worker_reaches_the_command_with_its_problems():
    sent = ProblemsError([Problem(Location("sim.py", 3), "engine", "changed while its games were being played")])
    received = pickle.loads(pickle.dumps(sent))
    assert type(received) is ProblemsError and received.problems == sent.problems


def test_two_copies_of_a_game_with_the_same_engine_each_play_their_own_file(game_dir, tmp_path):
    copy = tmp_path / "copy" / "race"
    shutil.copytree(game_dir, copy)
    here, there = engine_in(game_dir)[1], engine_in(copy)[1]  # (game, engine) each
    assert here.VERSION == there.VERSION  # the same source: the same verdict cache key ...
    assert str(game_dir) in here.__pnp_key__ and str(copy) in there.__pnp_key__  # ... each loaded from its own file


def test_a_package_directory_is_an_engine_and_its_modules_import_each_other(game_dir):
    package = game_dir / "engine"
    package.mkdir()
    (package / "numbers.py").write_text("TARGET, LAST_ROUND = 9, 4\n", encoding="utf-8")
    (package / "__init__.py").write_text("from .numbers import TARGET, LAST_ROUND\n"
                                         + ENGINE.replace("TARGET, LAST_ROUND = 9, 4", ""), encoding="utf-8")
    write_balance(game_dir, engine="engine/")
    _game, engine = engine_in(game_dir)
    assert engine.TARGET == 9 and engine.__pnp_key__.startswith("file:")


@pytest.mark.parametrize("value, said", [
    ("nosuch.py", "balance.yaml:1: engine: no file 'nosuch.py' in"),
    ("../elsewhere.py", "is outside the game directory"),
    ("cards.yaml", "'cards.yaml' is not a Python file (.py) or package directory"),
    ("rulebook/", "'rulebook/' is a directory without __init__.py"),
    # no .py, no slash: was taken for a simulator pnp ships, "no simulator for this game yet", and passed
    ("sim.yp", "balance.yaml:1: engine: 'sim.yp' is no file in the game folder and no simulator pnp ships "
               "(fatal-fight, metroidvania, valheim) (did you mean 'sim.py'?)"),
])
def test_an_engine_path_that_cannot_be_a_simulator_is_an_error_at_balance_yamls_engine_line(game_dir, value, said):
    write_balance(game_dir, engine=value)
    with pytest.raises(ProblemsError) as caught:
        engine_in(game_dir)
    assert said in messages(caught)[0]


@pytest.mark.parametrize("edit, at, said", [
    (lambda s: s.replace('AGENTS = {"greedy": Greedy}', 'AGENTS = {"greedy": Greedy'), f":{line_of('AGENTS = ')}: engine: "
     "cannot be loaded: SyntaxError", "was never closed"),
    (lambda s: s.replace("TARGET, LAST_ROUND = 9, 4", "TARGET, LAST_ROUND = 9, 4 / 0"), f":{line_of('TARGET, ')}: engine: cannot be loaded: ",
     "ZeroDivisionError: division by zero"),
    (lambda s: s.replace("def summarize(", "def summary("), ": engine: missing summarize: ", "(docs/simulator.md)"),
])
def test_a_broken_engine_is_located_in_its_own_code(game_dir, edit, at, said):
    (game_dir / "sim.py").write_text(edit(ENGINE), encoding="utf-8")
    with pytest.raises(ProblemsError) as caught:
        engine_in(game_dir)
    shown = messages(caught)[0]
    assert shown.startswith(str(game_dir / "sim.py") + at) and said in shown, shown


def test_a_bug_in_compile_setup_is_a_located_verdict_failure_and_only_a_warning_without_balance(game_dir, tmp_path):
    (game_dir / "sim.py").write_text(ENGINE.replace('card["cost"]', 'card["power"]'), encoding="utf-8")
    result = cached_verdict(load_game(game_dir), workers=1, output_dir=tmp_path / "out")
    assert not result.passed
    assert [p.display() for p in result.problems][0] == (f"{game_dir / 'sim.py'}:{line_of('return {card')}: engine: "
                                                      "compile_setup failed: KeyError: 'power'")
    (game_dir / "sim.py").write_text(ENGINE.replace("AGENTS = {", "AGENTZ = {"), encoding="utf-8")
    [problem] = static_problems(load_game(game_dir))  # validate --no-balance: printing is not held up
    assert problem.severity == "warning" and problem.message.endswith("(balance not checked)")


def test_the_verdict_is_kept_until_the_engines_code_changes_and_bytecode_is_not_a_change(game_dir, tmp_path):
    out = tmp_path / "out"
    first = cached_verdict(load_game(game_dir), workers=1, output_dir=out)
    assert first.passed and first.checked and not first.cached
    (game_dir / "__pycache__").mkdir()
    (game_dir / "__pycache__" / "sim.cpython-311.pyc").write_bytes(b"\0" * 16)
    assert cached_verdict(load_game(game_dir), workers=1, output_dir=out).cached
    with (game_dir / "sim.py").open("a", encoding="utf-8") as f:
        f.write("# the designer's edit\n")
    assert not cached_verdict(load_game(game_dir), workers=1, output_dir=out).cached


def pnp(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_validate_judges_the_bands_with_the_games_engine_and_a_crash_names_its_line_and_replay(game_dir):
    project = game_dir.parents[1]
    ok = pnp("validate", "race", "--workers", "1", cwd=project)
    assert ok.returncode == 0, ok.stderr
    assert re.search(r"content/race: ok \(1 component, 3 pieces, balance passed: \d+ games played in \d+ s\)", ok.stderr)
    assert "M1 win rate (greedy)" in ok.stdout
    write_balance(game_dir, win_max=0.3)  # a band the race cannot meet: M1 fails, naming the replay command
    failed = pnp("validate", "race", "--workers", "1", cwd=project)
    said = failed.stdout + failed.stderr
    assert failed.returncode == 1 and "M1 win rate" in said and "reproduce: pnp simulate race --players 2" in said
    write_balance(game_dir)
    (game_dir / "sim.py").write_text(ENGINE.replace("range(6)", "range(1)"), encoding="utf-8")  # the deck runs dry
    crashed = pnp("validate", "race", "--workers", "1", cwd=project)
    said = crashed.stdout + crashed.stderr
    assert crashed.returncode == 1 and "Traceback" not in said
    # the crash at its line of sim.py (an editor's jump), not at balance.yaml's integrity band; 100 checked games
    assert next(line for line in crashed.stdout.splitlines() if "M0" in line) == (
        f"content/race/sim.py:{line_of('self.hands = ')}: integrity: M0 integrity: greedy game 0 (2 players, seed 0):"
        " error: IndexError: pop from empty list (and 99 more greedy games the same); replay: pnp simulate race"
        " --players 2 --agent greedy --seed 0 --game 0 --trace")
    assert said.count("M0 integrity: ") == 4  # one line for each agent at each count: every game failed alike
    replay = pnp("simulate", "race", "--players", "2", "--game", "0", "--trace", cwd=project)
    assert (replay.returncode, replay.stdout) == (1, "game 0: error\n")
    assert replay.stderr == f"error: IndexError: pop from empty list (at sim.py:{line_of('self.hands = ')})\n"
    (game_dir / "sim.py").write_text(ENGINE, encoding="utf-8")
    replay = pnp("simulate", "race", "--players", "2", "--game", "0", "--trace", cwd=project)
    assert replay.stdout.startswith("(0, '") and replay.stdout.splitlines()[-1].startswith("game 0: win after ")


def test_a_game_without_stages_is_one_stage_long_so_the_length_band_reads_its_won_games():
    from generator.sim.metrics import run_summary

    records = [{"outcome": outcome, "rounds": rounds, "decisions": 0, "multi": 0}
               for outcome, rounds in (("win", 5), ("win", 7), ("loss", 9), ("win", 6))]
    assert run_summary(records)["stage_rounds_median"] == 6
    records[0]["stage_rounds"] = [2, 3]  # an engine that counts stages is read as it says, won or lost
    assert run_summary(records)["stage_rounds_median"] == 2.5


def test_an_accepted_warning_is_judged_but_listed_only_with_v_and_a_wrong_entry_is_an_error(game_dir):
    project = game_dir.parents[1]
    balance = game_dir / "balance.yaml"
    text = balance.read_text(encoding="utf-8").replace("density_min: 0.0", "density_min: 0.99")
    balance.write_text(text, encoding="utf-8")  # M9 (a warning band) now warns at both counts:
    (game_dir / "sim.py").write_text(ENGINE.replace(  # the first round offers nothing but a pass
        'return ["pass"] + sorted(set(self.hands[self.seat]))',
        'return ["pass"] + (sorted(set(self.hands[self.seat])) if self.round > 1 else [])'), encoding="utf-8")
    warned = pnp("validate", "race", "--workers", "1", cwd=project)
    assert warned.returncode == 0 and warned.stdout.count("warning: decisions.density_min: M9") == 2
    balance.write_text(text + "known:\n  - band: decisions.density_min\n    players: [2]\n"
                       "    reason: one card in hand leaves one choice\n", encoding="utf-8")
    quiet = pnp("validate", "race", "--workers", "1", cwd=project)
    assert quiet.returncode == 0 and quiet.stdout.count("warning: decisions.density_min: M9") == 1  # 3 players
    assert "not listed: 1 finding(s) of balance.yaml's known:" in quiet.stdout
    assert re.search(r"M9 decision density +2 .* known\n", quiet.stdout)  # the table says it too
    loud = pnp("-v", "validate", "race", "--workers", "1", cwd=project)
    assert re.search(r"balance.yaml:\d+: known: decisions.density_min: M9 decision density: .* with 2 players "
                     r".*\(known: one card in hand leaves one choice\)", loud.stdout)
    balance.write_text(text + "known:\n  - band: decisions.densty_min\n    reason: typo\n", encoding="utf-8")
    wrong = pnp("validate", "race", "--workers", "1", cwd=project)
    assert wrong.returncode == 1
    assert re.search(r"balance.yaml:16: known\[0\].band: no band 'decisions.densty_min' in this file", wrong.stdout)


def test_a_known_finding_that_did_not_warn_is_said_under_v_only(game_dir):
    project = game_dir.parents[1]
    balance = game_dir / "balance.yaml"
    balance.write_text(balance.read_text(encoding="utf-8") + "known:\n  - band: decisions\n    reason: r\n",
                       encoding="utf-8")
    quiet = pnp("validate", "race", "--workers", "1", cwd=project)
    assert "not listed: 1 note(s) on its entries of balance.yaml's known:" in quiet.stdout
    assert "did not warn" not in quiet.stdout
    loud = pnp("-v", "validate", "race", "--workers", "1", cwd=project)
    assert "known: decisions did not warn this time (it passed or its interval straddled the band)" in loud.stdout


@pytest.mark.parametrize("edit, said", [
    (lambda s: s.replace('"rounds": min(state.round, LAST_ROUND), ', ""), "the record has no 'rounds', the rounds the game took (M3)"),
    (lambda s: s.replace('"uses": {c: played.count(c) for c in set(played)}', '"uses": played'),
     "the record's 'uses' is a list, not a dict"),
])
def test_a_record_the_metrics_cannot_read_is_an_error_game_that_names_summarize_not_a_crash(game_dir, tmp_path,
                                                                                           edit, said):
    (game_dir / "sim.py").write_text(edit(ENGINE), encoding="utf-8")
    result = cached_verdict(load_game(game_dir), workers=1, output_dir=tmp_path / "out")
    first = next(p.display() for p in result.problems if "M0 integrity" in p.message)
    assert not result.passed and f"error: summarize: ValueError: {said} (summarize at sim.py:{line_of('def summarize')}; " in first


def test_an_engine_that_shuffles_with_the_module_random_is_refused_before_its_verdict(game_dir, tmp_path):
    (game_dir / "sim.py").write_text(ENGINE.replace("rng.shuffle(self.deck)", "__import__('random').shuffle(self.deck)"),
                                     encoding="utf-8")
    result = cached_verdict(load_game(game_dir), workers=1, output_dir=tmp_path / "out")
    [problem] = [p.display() for p in result.problems if p.severity == "error"]
    assert not result.passed and problem.startswith(f"{game_dir / 'balance.yaml'}:1: engine: game "), problem
    assert "(2 players, seed 0) played twice went differently: chance must come from the rng" in problem


def test_an_illegal_choice_names_the_agent_its_choose_line_and_the_legal_actions(game_dir):
    (game_dir / "sim.py").write_text(ENGINE.replace("return max(", 'return "fold"  # max('),
                                     encoding="utf-8")
    game, engine = engine_in(game_dir)
    [record] = run_games(engine, played_tables(game), players=2, games=1, seed=0, agent="greedy", workers=1, checked=True)
    assert record["outcome"] == "error"
    assert record["violations"] == [f"decision 0: agent greedy (choose at sim.py:{line_of('def choose')}) chose illegal "
                                    "action 'fold'; legal were 'pass', 'foxfire', 'offering'"], record["violations"]


def test_a_misspelt_key_in_compile_setup_names_the_table_and_its_keys(game_dir):
    (game_dir / "sim.py").write_text(ENGINE.replace('card["cost"]', 'card["cots"]'), encoding="utf-8")
    game, engine = engine_in(game_dir)
    with pytest.raises(ProblemsError) as caught:
        engine.compile_setup(played_tables(game))
    assert messages(caught) == [f"{game_dir / 'sim.py'}:{line_of('return {card')}: engine: compile_setup failed: "
                                "KeyError: 'cots' (cards has no 'cots'; known: cost, count, id, name, text)"]


def test_an_optional_part_a_packages_module_defines_but_its_init_does_not_import_is_a_warning_at_its_def(game_dir):
    package = game_dir / "engine"
    package.mkdir()
    (package / "show.py").write_text("def describe(state, event):\n    return repr(event)\n", encoding="utf-8")
    (package / "__init__.py").write_text("from . import show\n" + ENGINE, encoding="utf-8")
    write_balance(game_dir, engine="engine/")
    game, _engine = engine_in(game_dir)
    assert [p.display() for p in static_problems(game)] == [
        f"{package / 'show.py'}:1: warning: engine: describe is defined here but not imported in __init__.py: "
        "pnp does not use it (from .show import describe)"]
    (package / "__init__.py").write_text("from .show import describe\n" + ENGINE, encoding="utf-8")
    assert static_problems(load_game(game_dir)) == []


def test_a_game_that_never_ends_says_so_in_its_failure_line_and_its_replay(game_dir):
    (game_dir / "sim.py").write_text(ENGINE.replace('self.outcome = "loss"', "pass").replace("self.score += ", "0 and "),
                                     encoding="utf-8")
    run = pnp("simulate", "race", "--players", "2", "--games", "1", "--workers", "1", cwd=game_dir.parents[1])
    said = "no end after 20000 decisions (the cap): does every way through the rules set an outcome?"
    assert f"timeout: game 0 seed 0: {said}; replay:" in run.stderr, run.stderr
    replay = pnp("simulate", "race", "--players", "2", "--game", "0", cwd=game_dir.parents[1])
    assert replay.stderr == f"timeout: {said}\n"


def test_a_crash_in_a_helper_of_pnps_is_located_at_the_engines_call(game_dir):
    engine = "from generator.sim.rng import choice\n" + ENGINE.replace(
        "        self.seat, self.round,", "        choice([], rng)\n        self.seat, self.round,")
    (game_dir / "sim.py").write_text(engine, encoding="utf-8")
    game, loaded = engine_in(game_dir)
    [record] = run_games(loaded, played_tables(game), players=2, games=1, seed=0, agent="greedy", workers=1)
    call = next(i for i, line in enumerate(engine.split("\n"), 1) if line.strip() == "choice([], rng)")
    assert record["error"].startswith(f"IndexError: list index out of range (at sim.py:{call})"), record["error"]


def test_a_describe_that_raises_is_a_problem_at_its_line_not_a_traceback(game_dir):
    engine = ENGINE + "\n\ndef describe(state, event):\n    return 1 / 0\n"
    (game_dir / "sim.py").write_text(engine, encoding="utf-8")
    replay = pnp("simulate", "race", "--players", "2", "--game", "0", "--trace", cwd=game_dir.parents[1])
    line = engine.split("\n").index("    return 1 / 0") + 1
    said = replay.stdout + replay.stderr
    assert replay.returncode == 1 and "Traceback" not in said, said
    assert f"content/race/sim.py:{line}: engine: describe failed: ZeroDivisionError: division by zero" in said


def test_check_invariants_may_return_one_sentence_alone(game_dir):
    engine = ENGINE + "\n\ndef check_invariants(state):\n    return 'the deck grew'\n"
    (game_dir / "sim.py").write_text(engine, encoding="utf-8")
    game, loaded = engine_in(game_dir)
    [record] = run_games(loaded, played_tables(game), players=2, games=1, seed=0, agent="greedy", workers=1, checked=True)
    assert record["violations"] == ["end: the deck grew"], record["violations"]


def test_the_screening_row_says_why_it_screened_no_card(game_dir, tmp_path):
    result = cached_verdict(load_game(game_dir), workers=1, output_dir=tmp_path / "out")
    row = next(line for line in result.table.splitlines() if line.startswith("M5 swingy cards (screening)"))
    assert "no card used in 200+ games and unused in as many" in row, row


def test_a_count_whose_first_checked_games_all_fail_plays_no_more():
    """A game that never ends runs each game to the decision cap: after its first checked games all
    failed, M0 fails the verdict whatever follows, so no more are played (it took a minute and a half)."""
    from generator.sim.verdict import _Runs

    for agent in ("greedy", "random"):
        stream = _Runs.sequential_stream(2, agent, [400, 800], 0.3, 0.7, 2.576, 1.96, True)
        assert next(stream) == (2, agent, 100, 0, True)
        with pytest.raises(StopIteration) as stopped:
            stream.send([{"outcome": "timeout"}] * 99 + [{"outcome": "error"}])
        records, decision, _z = stopped.value.value
        assert len(records) == 100 and decision == "outside"
        stream = _Runs.sequential_stream(2, agent, [400, 800], 0.3, 0.7, 2.576, 1.96, True)
        next(stream)
        assert stream.send([{"outcome": "timeout"}] * 99 + [{"outcome": "win"}]) == (2, agent, 300, 100, agent == "random")


def test_optional_sections_left_empty_are_none_and_mean_none(game_dir, tmp_path):
    """A schema's optional field left out is None in the checked config (Valheim without controls: crashed
    with 'NoneType' object is not iterable; found by the mutation sweep)."""
    balance = game_dir / "balance.yaml"
    balance.write_text(balance.read_text(encoding="utf-8") + "controls:\npressure:\n", encoding="utf-8")
    result = cached_verdict(load_game(game_dir), workers=1, output_dir=tmp_path / "out")
    assert result.passed and result.checked


def test_players_left_empty_judges_the_default_counts(game_dir, tmp_path):
    """``players:`` with no value (None: balance.yaml of a game of one's own is checked by no schema)
    judges the default counts, as a file without the key does (it crashed: 'NoneType' is not iterable)."""
    balance = game_dir / "balance.yaml"
    balance.write_text(balance.read_text(encoding="utf-8").replace("players: [2, 3]", "players:"), encoding="utf-8")
    result = cached_verdict(load_game(game_dir), workers=1, output_dir=tmp_path / "out")
    assert result.checked and "M1 win rate (greedy)             4" in result.table


def test_an_engine_whose_games_never_end_is_refused_after_its_first_games_not_hours_of_timeouts(game_dir, tmp_path):
    (game_dir / "sim.py").write_text(ENGINE.replace("self.round += self.seat == 0", "self.round = 1")
                                     .replace("self.score += self.setup[action] + 1", "pass"), encoding="utf-8")
    result = cached_verdict(load_game(game_dir), workers=1, output_dir=tmp_path / "out")
    [problem] = [p.display() for p in result.problems if p.severity == "error"]
    assert not result.passed and not result.played, problem
    assert problem.startswith(f"{game_dir / 'balance.yaml'}:1: engine: 10 of the first 10 greedy games (2 players, "
                              "seed 0) reached the cap of 20000 decisions without an end, so no game was judged"), problem
    assert problem.endswith(f"follow one: pnp simulate {game_dir} --players 2 --agent greedy --seed 0 --game 0 --trace")


def test_a_build_that_does_not_judge_balance_says_whether_the_kept_verdict_is_of_its_numbers(game_dir, tmp_path, monkeypatch):
    """pnp watch without --balance said "balance not checked" after every edit, whether the print
    file's numbers were those of a verdict that passed or numbers no game had been played with."""
    from generator.build import build_game

    monkeypatch.chdir(game_dir.parents[1])
    out = tmp_path / "out"

    def said():
        return build_game(game_dir, out, validate=False, unchecked="watched without --balance").summary

    assert said().endswith("balance not checked: watched without --balance")  # no verdict kept: nothing more to say
    assert cached_verdict(load_game(game_dir), workers=1, output_dir=out).passed
    assert said().endswith("balance not checked: watched without --balance; the kept verdict (passed) is of these numbers")
    cards = game_dir / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "# a note of the designer's\n", encoding="utf-8")
    assert said().endswith("the kept verdict (passed) is of these numbers")  # a comment is not played
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 0", "cost: 1"), encoding="utf-8")
    assert said().endswith("the kept verdict (passed) was judged on other numbers (or another simulator): "
                           "pnp validate judges these numbers")
