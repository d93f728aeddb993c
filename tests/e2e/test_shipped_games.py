"""Every shipped game loads, every face fits, every rulebook reference resolves, and the
manifest counts match the seeds' — what `pnp build` needs before it may print."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (REPO / "content").iterdir() if (p / "game.yaml").is_file())


def pnp(*args):
    proc = subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def test_the_three_drafts_are_shipped():
    assert GAMES == ["fatal-fight", "metroidvania", "valheim"]


@pytest.mark.parametrize("game", GAMES)
def test_content_layouts_fit_and_rulebook_are_clean(game):
    proc = pnp("validate", game, "--no-balance")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "", f"no problem lines expected:\n{proc.stdout}"


@pytest.mark.parametrize("game", GAMES)
def test_manifest_declared_counts_match(game):
    proc = pnp("manifest", game, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert all(c["expected"] == c["found"] for c in data["components"] if c["expected"] is not None)
    assert all(c["expected"] is not None for c in data["components"]), "every component declares its count"
    if game == "fatal-fight":
        assert data["total_cards"] == 288
