"""``pnp simulate --sweep`` end to end on the shipped games (small runs)."""
import json

import pytest
from click.testing import CliRunner

from generator.cli import main

RUN = ("fatal-fight", "--players", "2", "--games", "12", "--seed", "7", "--workers", "1", "--json")


def run(*args):
    return CliRunner().invoke(main, ["simulate", *args], catch_exceptions=False)


def as_json(*args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_each_row_is_the_set_run_of_its_value_and_the_current_row_the_plain_run(in_repo):
    out = as_json(*RUN, "--sweep", "rules.gym_size=3..6")
    plain = as_json(*RUN)
    sweep = out.pop("sweep")
    assert sweep["path"] == "rules.gym_size" and sweep["current"] == 4
    assert [row["value"] for row in sweep["rows"]] == [3, 4, 5, 6]
    out.pop("games_per_second"), plain.pop("games_per_second")
    assert out == plain, "the run's own keys are the plain run's"
    for row in sweep["rows"]:
        if row["current"]:
            assert row["value"] == 4 and row["paired"] == {"diff": 0, "ci95": [0, 0], "games_differing": 0}
            assert {k: row[k] for k in ("win_rate", "ci95", "wins", "rounds", "timeouts")} == \
                {k: plain[k] for k in ("win_rate", "ci95", "wins", "rounds", "timeouts")}
            continue
        alone = as_json(*RUN, "--set", f"rules.gym_size={row['value']}")
        variant = alone["variant"]
        assert {k: row[k] for k in ("win_rate", "ci95", "wins", "rounds", "errors", "timeouts")} == \
            {k: variant[k] for k in ("win_rate", "ci95", "wins", "rounds", "errors", "timeouts")}
        assert row["paired"] == alone["paired"]
    assert any(row["paired"]["games_differing"] for row in sweep["rows"])


def test_the_current_value_is_not_played_twice_and_is_added_when_not_swept(in_repo, monkeypatch):
    from generator.sim import runner

    played = []
    real = runner.run_games
    monkeypatch.setattr(runner, "run_games", lambda *a, **k: played.append(1) or real(*a, **k))
    rows = as_json(*RUN, "--sweep", "rules.gym_size=4,5,5")["sweep"]["rows"]
    assert [(row["value"], row["current"]) for row in rows] == [(4, True), (5, False)] and len(played) == 2
    rows = as_json(*RUN, "--sweep", "rules.gym_size=6,2")["sweep"]["rows"]
    assert [(row["value"], row["current"]) for row in rows] == [(2, False), (4, True), (6, False)]


def test_workers_change_nothing_but_speed(in_repo):
    outs = [as_json(*RUN[:-3], "--json", "--workers", workers, "--sweep", "rules.gym_size=3,5")
            for workers in ("1", "2")]
    for out in outs:
        out.pop("games_per_second")
    assert outs[0] == outs[1]


def test_the_band_column_says_where_each_interval_lies_and_the_last_line_names_the_inside_values(in_repo):
    from generator.sim.stats import band_decision

    args = ("fatal-fight", "--players", "3", "--games", "100", "--workers", "1", "--sweep", "boss_garon.life=4,8,10")
    rows = as_json(*args, "--json")["sweep"]["rows"]
    words = {"inside": "inside", "outside": "outside", "unclear": "straddles"}
    assert [row["band"] for row in rows] == [words[band_decision(row["wins"], 100, 0.35, 0.70, 1.96)] for row in rows]
    inside = [str(row["value"]) for row in rows if row["band"] == "inside"]
    assert inside and len(inside) < len(rows), "the sample shows both kinds"
    text = run(*args).output.splitlines()
    assert "win-rate band [0.35, 0.7]" in text[1] and "vs current [95% CI], paired" in text[1]
    assert any(line.lstrip().startswith("6 (current)") for line in text)
    assert text[-2] == f"whole interval inside the win-rate band [0.35, 0.7] with 3 characters: {', '.join(inside)}"
    assert text[-1].startswith("only the win-rate band is judged here")  # M7, M4 ... are validate's
    few = run("fatal-fight", "--players", "2", "--games", "4", "--workers", "1", "--sweep", "rules.gym_size=3,5")
    assert few.output.splitlines()[-2].endswith("with 2 characters: none")


def test_a_count_the_validator_does_not_play_has_no_band(tmp_path):
    from types import SimpleNamespace

    from generator.commands.sweep import win_band

    def game(balance):
        return SimpleNamespace(root=tmp_path, tables={"balance": balance})
    band = {"win_rate": {"min": 0.35, "max": 0.6}, "players": [2, 3], "sampling": {"z_final": 2.0}}
    assert win_band(game(band), 3) == (0.35, 0.6, 2.0)
    assert win_band(game(band), 4) is None
    assert win_band(game({"skill": {}}), 3) is None


@pytest.mark.parametrize("extra, said", [
    (("--sweep", "rules.gym_sze=3,4"), "'rules.gym_sze=3': rules has no 'gym_sze' (did you mean 'gym_size'?)"),
    (("--sweep", "rules.gym_size=x,4"), "rules.gym_size: expected an integer, got 'x'"),
    (("--sweep", "rules.gym_size=5..3"), "the range 5..3 is reversed; write 3..5"),
    (("--sweep", "rules.gym_size="), "no values"),
    (("--sweep", "rules.gym_size=1..20"), "20 values, at most 12 in one sweep"),
    (("--sweep", "rules.gym_size=3,5", "--set", "rules.stages=3"), "--sweep does not go with --set"),
    (("--sweep", "rules.gym_size=3,5", "--game", "0"), "--sweep does not go with --game"),
    (("--sweep", "rules.gym_size=3,5", "--cards"), "--sweep does not go with --cards"),
    (("--sweep", "rules.gym_size=3", "--sweep", "rules.stages=3"), "--sweep takes one path per run"),
])
def test_usage_errors_name_the_sweep(in_repo, extra, said):
    result = run("fatal-fight", "--games", "2", *extra)
    assert result.exit_code == 2 and "--sweep" in result.output and said in result.output, result.output
    assert "replay:" not in result.output


def test_a_value_the_engine_cannot_run_is_named_before_any_game(in_repo):
    result = run("valheim", "--players", "2", "--games", "5", "--sweep", "rules.rounds=7,8")
    assert result.exit_code == 2 and "--sweep" in result.output
    said = " ".join(result.output.split())
    assert "'rules.rounds=8': the changed content does not run:" in said
    assert "rules.rounds is 8 but there are 7 round cards" in said


def test_an_inverted_win_rate_band_is_a_located_error_before_any_game(in_repo, tmp_path, monkeypatch):
    """A min above its max read every value as "outside" after all the games; it is balance.yaml's
    error, said at its line as pnp validate says it."""
    import shutil

    from generator.sim import runner

    game = tmp_path / "fatal-fight"
    shutil.copytree(in_repo / "content" / "fatal-fight", game)
    text = (game / "balance.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("win_rate:")) + 1
    assert lines[at].strip().startswith("min: 0.35")
    lines[at] = lines[at].replace("min: 0.35", "min: 0.8")
    (game / "balance.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    played = []
    monkeypatch.setattr(runner, "run_games", lambda *a, **k: played.append(1))
    result = CliRunner().invoke(main, ["simulate", str(game), "--players", "2", "--games", "4", "--workers", "1",
                                       "--sweep", "rules.gym_size=3,5"])
    assert result.exit_code == 1 and not played, result.output
    assert result.output.strip() == (f"{game / 'balance.yaml'}:{at + 1}: win_rate.min: min 0.8 is above max 0.7: "
                                     "no value can pass this band")


def test_a_sweep_row_shows_no_negative_zero():
    from generator.commands.sweep import _cells

    row = {"value": 3, "current": False, "win_rate": 0.5, "ci95": [0.3, 0.7], "wins": 6,
           "paired": {"diff": -1e-17, "ci95": [-0.2, -1e-17], "games_differing": 4},
           "rounds": {"median": 20, "p95": 24}, "errors": 0, "timeouts": 0}
    assert _cells(row, 12, None)[2] == "+0.000 [-0.200, +0.000]"


def test_a_sweep_with_no_value_inside_says_which_way_and_where_to_look_next(capsys):
    from generator.commands.sweep import print_sweep

    def row(value, rate, current=False):
        return {"value": value, "current": current, "win_rate": rate, "ci95": [rate - 0.02, rate + 0.02], "wins": 1,
                "paired": {"diff": 0.0, "ci95": [0.0, 0.0]}, "rounds": {"median": 8, "p95": 8}, "errors": 0,
                "timeouts": 0, "band": "outside"}
    band = {"min": 0.35, "max": 0.75}
    summary = {"players": 2, "games": 1000, "sweep": {"path": "rules.hunt.strength_by_players.2", "band": band,
                                                      "rows": [row(-3, 0.09), row(-2, 0.06, True), row(0, 0.02)]}}
    print_sweep(summary, "players")
    assert capsys.readouterr().out.splitlines()[-2] == (
        "whole interval inside the win-rate band [0.35, 0.75] with 2 players: none; every interval lies below it, "
        "the nearest at -3, the lowest value tried: sweep past it")
    summary["sweep"]["rows"] = [row(-3, 0.02), row(-2, 0.09, True), row(0, 0.35)]  # one straddles it: as before
    print_sweep(summary, "players")
    assert capsys.readouterr().out.splitlines()[-2].endswith("with 2 players: none")
