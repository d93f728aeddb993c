"""Checks every shipped engine's tests make the same way: a game folder the verdict reads, the M1
band a sabotaged copy fails at its balance.yaml line, and a clone that replays the same future."""
from types import SimpleNamespace

import yaml


def game_dir(tmp_path, tables, balance: dict, name: str):
    """A game ``name`` the verdict can judge: ``tables`` as its played content, ``balance`` written as
    its balance.yaml (the lines a problem points at)."""
    root = tmp_path / name
    root.mkdir()
    (root / "balance.yaml").write_text(yaml.safe_dump(balance, sort_keys=False), encoding="utf-8")
    (root / "game.yaml").write_text("title: test\n", encoding="utf-8")
    return SimpleNamespace(id=name, root=root, tables=tables, where=lambda r: None)


def win_rate_error(result, game):
    """The M1 win-rate error of ``game``'s failed verdict, checked to be at balance.yaml's ``win_rate:``."""
    assert not result.passed
    m1 = [p for p in result.problems if p.field == "win_rate" and p.severity == "error"]
    assert m1 and "M1 win rate" in m1[0].message, [p.display() for p in result.problems]
    line = next(i for i, text in enumerate((game.root / "balance.yaml").read_text().splitlines(), 1)
                if text.startswith("win_rate:"))
    assert m1[0].location.line == line and m1[0].location.path.endswith("balance.yaml")
    return m1[0]


def clone_replays_the_same_future(state, rng, played: int, ahead: int, snapshot) -> None:
    """After ``played`` random moves, a clone is untouched by ``ahead`` more moves of the original
    (``snapshot(state)``: what must not change) and, given the same moves, ends with the same log."""
    for _ in range(played):
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    twin = state.clone()
    before = snapshot(twin)
    future = []
    for _ in range(ahead):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        future.append(action)
        state.apply_action(action)
    assert snapshot(twin) == before
    for action in future:
        twin.apply_action(action)
    assert twin.log == state.log
