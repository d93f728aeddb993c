"""A mutation sweep of the content: every bad input gets a located error, never a traceback.

Each case changes one thing in a copy of a game (``mutations.py`` makes the changes from the files
themselves), runs the real commands in process and checks what a designer would see: no traceback,
exit 1 (or 0 where the changed input is still legal), and a problem line ``path:line: ...`` naming the
changed file. The default run tries a fixed sample of each kind; ``-m slow`` tries every mutation of
the sample game and a few of each kind in each shipped game.
"""
from __future__ import annotations

import re
import shutil
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.newgame import new_game

from mutations import KINDS, Mutation, Project, sample

REPO = Path(__file__).resolve().parents[2]
SHIPPED = ("fatal-fight", "metroidvania", "valheim")
SAMPLE_CARDS_CSV = "id,name,count,cost,text\nkitsunebi,狐火,2,1,相手の手札を1枚見る。:fire:1点。\ninari,稲荷寿司,,0,カードを1枚引く。\n"
#: a problem line: ``path[:line]: ...`` (a workbook's sheet in brackets)
PROBLEM = re.compile(r"^(?P<path>[^\s:][^:\n]*?\.(?:yaml|md|csv|xlsx)(?:\[[^\]]*\])?)(?::(?P<line>\d+))?: ", re.M)


# --- the projects: copies made once per module, each mutation undone after its case ------------------

def _sample_project(root: Path) -> None:
    """``pnp new``'s game twice: as written (kit) and with its cards in a spreadsheet (kitcsv)."""
    new_game("kit", root)
    new_game("kitcsv", root)
    cards = root / "content/kitcsv"
    (cards / "cards.yaml").unlink()
    (cards / "cards.csv").write_text(SAMPLE_CARDS_CSV, encoding="utf-8")
    game_yaml = cards / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("file: cards.yaml", "file: cards.csv"),
                         encoding="utf-8")


def _shipped_project(root: Path, game: str) -> None:
    """A shipped game with its layouts; its balance check plays a handful of games (enough to reach
    every rule, far too few to judge balance)."""
    shutil.copytree(REPO / "content" / game, root / "content" / game)
    shutil.copytree(REPO / "layouts" / game, root / "layouts" / game)
    balance = root / "content" / game / "balance.yaml"
    text = re.sub(r"(?m)^(  looks: ).*$", r"\1[10]", balance.read_text(encoding="utf-8"))  # (the schema's least)
    text = re.sub(r"(?m)^(  random_games: ).*$", r"\g<1>6", text)
    balance.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    made = {}

    def project(game: str) -> Project:
        if game not in made:
            root = tmp_path_factory.mktemp(game)
            if game.startswith("kit"):
                _sample_project(root)
            else:
                _shipped_project(root, game)
            made[game] = Project(root, game)
        return made[game]
    return project


# --- running a case ------------------------------------------------------------------------------------

def _args(command: str, game: str, out: Path) -> list[str]:
    target = f"content/{game}"
    return {
        "validate": ["validate", target, "--no-balance"],
        "build": ["build", target, "--no-validate", "-o", str(out)],
        "rulebook": ["rulebook", target, "-o", str(out)],
        "simulate": ["validate", target, "--workers", "1", "-o", str(out)],
    }[command]


def findings(project: Project, mutation: Mutation, new: bytes, monkeypatch) -> list[str]:
    """What is wrong with the commands' answers to ``mutation`` (empty: all well)."""
    monkeypatch.chdir(project.root)
    changed = project.root / mutation.path
    old = changed.read_bytes()
    try:
        changed.write_bytes(new)
        return [f"{mutation} | {problem}" for command in mutation.commands
                for problem in _judge(project, mutation, command, _run(command, project, _edition(mutation.path)))]
    finally:
        changed.write_bytes(old)


def _edition(rel: str) -> list[str]:
    """A chapter of another edition (``rulebook/en/*.md``) is read by that edition's commands only."""
    edition = re.search(r"/rulebook/([a-z]{2})/[^/]+\.md$", rel)
    return ["--lang", edition[1]] if edition else []


def _run(command: str, project: Project, extra: list[str] = ()):
    return CliRunner().invoke(main, _args(command, project.game, project.root / "out" / command) + list(extra))


def _judge(project: Project, mutation: Mutation, command: str, result) -> list[str]:
    output = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(result.exception)).strip().splitlines()
        return [f"{command}: traceback: {' / '.join(trace[-3:])}"]
    if "Traceback" in output:
        return [f"{command}: traceback in the output: {output[-300:]!r}"]
    if result.exit_code not in (0, 1):
        return [f"{command}: exit {result.exit_code}: {output[-300:]!r}"]
    if result.exit_code == 0:
        return [f"{command}: accepted (exit 0)"] if mutation.must_fail and command == "validate" else []
    # a change that may be legal may also be wrong only for what uses it: a deleted schema field makes
    # the cards' field unknown (cards.yaml:2: cards[0].cost: unknown field (not among the fields declared at ...)), no problem in schema.yaml
    names = mutation.names if mutation.must_fail else f"{project.content}/ layouts/{project.game}/"
    named = [m for m in PROBLEM.finditer(output) if _names(m["path"], names)]
    if not named:
        return [f"{command}: no problem line names {names}: {output.strip()[-400:]!r}"]
    if mutation.located and not any(int(m["line"] or 0) > 0 for m in named):
        return [f"{command}: no line number: {named[0].group(0)!r}"]
    return []


def _names(shown: str, expected: str) -> bool:
    """``expected``: a file, or folders (ending in /) separated by spaces."""
    shown = re.sub(r"\[[^\]]*\]$", "", shown)  # a workbook's sheet
    return any(shown == want or (want.endswith("/") and shown.startswith(want)) for want in expected.split())


# --- the cases -----------------------------------------------------------------------------------------

PROJECTS = ("kit", "kitcsv", *SHIPPED)
#: the default run, (game, kind, mutations of each sub-kind): the sample game's every kind (its spreadsheet
#: twin for the headers), and what only a big game has (references across files, a real rulebook)
DEFAULT = [*(("kit", kind, 2) for kind in KINDS if kind != "csv"), ("kitcsv", "csv", 6),
           *(("fatal-fight", kind, 1) for kind in ("duplicate-id", "dangling-ref", "game-yaml", "rulebook"))]
#: the slow sweep: every mutation of the sample games, this many of each sub-kind of a shipped game
SLOW_SHIPPED = 3


def _sweep(project: Project, kind: str, n: int, monkeypatch) -> list[str]:
    """The findings of ``n`` mutations of each sub-kind (a layout's colour and its extends alike)."""
    return [problem for mutations in project.mutations(kind).values() for m, new in sample(mutations, n)
            for problem in findings(project, m, new, monkeypatch)]


@pytest.mark.parametrize("game", sorted({game for game, _, _ in DEFAULT}))
def test_the_unchanged_copies_are_clean(projects, game, monkeypatch):
    """Else every mutation would 'find' the copy's own problem."""
    monkeypatch.chdir(projects(game).root)
    result = _run("validate", projects(game))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("game, kind, n", DEFAULT)
def test_a_sample_of_mutations_gets_located_errors(projects, game, kind, n, monkeypatch):
    problems = _sweep(projects(game), kind, n, monkeypatch)
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", PROJECTS)
def test_the_whole_sweep_gets_located_errors(projects, game, kind, monkeypatch):
    n = 10 ** 6 if game.startswith("kit") else SLOW_SHIPPED
    problems = _sweep(projects(game), kind, n, monkeypatch)
    assert not problems, "\n".join(problems)
