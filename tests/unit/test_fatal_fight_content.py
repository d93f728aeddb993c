"""Fatal Fight acceptance check: every printed supply card can enter play. Supplies are never dealt
(spec C4, L350-354): a supply no stage pickup, breakable reward or art effect names is printed but
never seen in a game (the validator then warns "M4 unseen cards", as it did for sup_necklace)."""
from pathlib import Path

import yaml

GAME = Path(__file__).resolve().parents[2] / "content" / "fatal-fight"


def _named_supplies(node, out):
    if isinstance(node, dict):
        if isinstance(node.get("supply"), str):
            out.add(node["supply"])
        for value in node.values():
            _named_supplies(value, out)
    elif isinstance(node, list):
        for value in node:
            _named_supplies(value, out)
    return out


def test_every_supply_has_a_source():
    supplies = {s["id"] for s in yaml.safe_load((GAME / "supplies.yaml").read_text(encoding="utf-8"))}
    sources: set = set()
    for path in sorted(GAME.rglob("*.yaml")):
        if path.name not in ("supplies.yaml", "schema.yaml", "balance.yaml"):
            _named_supplies(yaml.safe_load(path.read_text(encoding="utf-8")), sources)
    assert supplies - sources == set(), f"supplies with no pickup, reward or effect: {sorted(supplies - sources)}"
    assert sources - supplies == set()
