"""The types of balance.yaml's bands, checked by the verdict itself.

A game's schema.yaml may type its balance.yaml (the shipped games do), but a game need not list it in
game.yaml (``pnp new --simulator`` does not): then ``win_rate: {min: a}`` reached the statistics and
ended ``pnp validate`` with a TypeError, and ``win_rate: [a, 0.7]`` was called "missing". Each such
value is a problem at its line, in the words the schema uses, before a game is played.
"""
from __future__ import annotations

from ..errors import Location, Problem

#: keys read as whole numbers (game counts); every other band named here is any number
WHOLE = {"integrity.random_games", "length.p95_rounds_max", "dead_cards.min_exposures", "card_impact.min_games",
         "card_impact.paired_cards", "card_impact.edited_cards", "card_impact.paired_games", "card_impact.fixture_games"}
#: read when written (the verdict has a default or skips the check without them)
OPTIONAL = ("win_rate.count_spread_max", "card_impact.paired_cards", "card_impact.edited_cards",
            "card_impact.paired_games", "card_impact.fixture_games")


def untyped_bands(config: dict, required, path, lines: dict) -> list[Problem]:
    """A problem per band of ``required`` (and ``OPTIONAL``) whose value, or whose section, is not of
    its type: a section that is no mapping once, at its line, naming the bands it holds."""
    problems, told = [], set()
    keys = [*required, *OPTIONAL]

    def at(where, message, field=None):
        problems.append(Problem(Location(str(path), lines.get(where, 0)), field or where, message))

    for key in keys:
        node, parts = config, key.split(".")
        for depth, part in enumerate(parts):
            if not isinstance(node, dict) or part not in node or node[part] is None:
                break  # missing: said by the verdict's own check, with a misspelling found
            node, so_far = node[part], ".".join(parts[:depth + 1])
            if depth == len(parts) - 1:
                if why := _wrong_value(key, node):
                    index, message = why  # a list's wrong item at its own line
                    at(key if index is None else f"{key}.{index}", message, key)
            elif not isinstance(node, dict):
                if so_far not in told:
                    told.add(so_far)
                    held = sorted({k.split(".")[depth + 1] for k in keys if k.startswith(f"{so_far}.")})
                    at(so_far, f"expected a mapping of its bands ({', '.join(f'{k}:' for k in held)}),"
                               f" got {_describe(node)}")
                break
    return problems


def _wrong_value(key: str, value) -> tuple[int | None, str] | None:
    """``(index of the list item at fault or None, message)`` when ``value`` is not of ``key``'s type."""
    if key == "sampling.looks":
        if not isinstance(value, list) or not value:
            return None, f"expected a list of game counts (e.g. [400, 800, 1600]), got {_describe(value)}"
        wrong = [i for i, v in enumerate(value) if isinstance(v, bool) or not isinstance(v, int) or v < 1]
        return (wrong[0], f"expected whole numbers of games, got {value[wrong[0]]!r}") if wrong else None
    kinds, label = ((int,), "an integer") if key in WHOLE else ((int, float), "a number")
    if isinstance(value, bool) or not isinstance(value, kinds):
        return None, f"expected {label}, got {_describe(value)}"
    return None


def _describe(value) -> str:
    if isinstance(value, list):
        return f"a list {_flow(value)}"
    if isinstance(value, dict):
        return f"a mapping {_flow(value)}"
    return repr(value)


def _flow(value) -> str:
    """As written in YAML's flow style: ``[a, 0.7]``, not Python's ``['a', 0.7]``."""
    if isinstance(value, list):
        return "[" + ", ".join(map(_flow, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    return str(value)
