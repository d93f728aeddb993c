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


def _fatal_fight_with_enemy_life_tripled(tmp_path) -> Path:
    """Issue #6's sabotaged copy: every enemy's `life:` in enemies.yaml times three."""
    import re
    import shutil

    copy = tmp_path / "ff-sabotaged"
    shutil.copytree(REPO / "content" / "fatal-fight", copy)
    enemies = copy / "enemies.yaml"
    text, n = re.subn(r"(?m)^(  life: )(\d+)$", lambda m: f"{m[1]}{int(m[2]) * 3}", enemies.read_text("utf-8"))
    assert n >= 20
    enemies.write_text(text, encoding="utf-8")
    return copy


def test_the_sabotaged_fatal_fight_still_loads_and_fits(tmp_path):
    """The sabotage must reach the simulator: no schema maximum or card layout may refuse it first."""
    proc = pnp("validate", str(_fatal_fight_with_enemy_life_tripled(tmp_path)), "--no-balance")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_sabotaged_fatal_fight_fails_its_win_rate_band_and_prints_nothing(tmp_path):
    copy = _fatal_fight_with_enemy_life_tripled(tmp_path)
    proc = pnp("validate", str(copy), "--workers", "2", "-o", str(tmp_path / "reports"))  # not the repository's output/
    assert proc.returncode == 1 and (tmp_path / "reports" / "balance.json").is_file()
    assert "balance.yaml" in proc.stdout and "M1 win rate" in proc.stdout and "outside the band" in proc.stdout
    out = tmp_path / "out"
    proc = pnp("build", str(copy), "-o", str(out), "--workers", "2")
    assert proc.returncode == 1 and not list(out.glob("print-*.pdf"))
