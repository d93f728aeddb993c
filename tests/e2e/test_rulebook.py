"""`pnp rulebook` end to end: the fixture rulebook, the shipped games, located errors."""
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import shutil

import pypdfium2 as pdfium
import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("in_repo")
GAMES = sorted({p.parent.parent.name for p in (REPO / "content").glob("*/rulebook/*.md")
               if (p.parent.parent / "game.yaml").is_file()})


def pnp(*args, cwd=REPO):
    proc = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


@pytest.fixture
def book_game(tmp_path):
    """The tiny test game with the rulebook fixture of tests/unit/rulebook."""
    target = tmp_path / "tiny"
    shutil.copytree(REPO / "tests" / "data" / "tiny", target)
    shutil.copytree(REPO / "tests" / "unit" / "rulebook" / "data" / "rulebook", target / "rulebook")
    return target


def test_writes_rulebook_and_booklet(book_game, tmp_path):
    out = tmp_path / "out"
    proc = pnp("rulebook", book_game, "--booklet", "-o", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["rulebook-booklet.pdf", "rulebook.pdf"]
    pdf = pdfium.PdfDocument(out / "rulebook.pdf")
    assert pdf[0].get_size() == pytest.approx((419.53, 595.28), abs=0.1)       # A5 by default
    assert len(list(pdf.get_toc())) >= 4


def test_missing_card_exits_1_with_file_and_line(book_game, tmp_path):
    md = book_game / "rulebook" / "01-overview.md"
    md.write_text(md.read_text(encoding="utf-8").replace("card:heroes/knight", "card:heroes/ghost"),
                  encoding="utf-8")
    proc = pnp("rulebook", book_game, "-o", tmp_path / "out")
    assert proc.returncode == 1
    assert re.search(r"rulebook/01-overview\.md:13: no card 'ghost' in component 'heroes'", proc.stdout), proc.stdout
    assert not (tmp_path / "out" / "rulebook.pdf").exists()


def test_unknown_game_is_a_usage_error():
    proc = pnp("rulebook", "no-such-game")
    assert proc.returncode == 2 and "unknown game" in proc.stderr


@pytest.mark.parametrize("game", GAMES)
def test_shipped_game_rulebook_matches_its_manifest(game, tmp_path):
    out = tmp_path / game
    proc = pnp("rulebook", game, "-o", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = (out / "rulebook.pdf").read_bytes()
    fonts = set(re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-_]+)", data))
    assert fonts and all(b"+" in f for f in fonts) and b"Helvetica" not in data
    pdf = pdfium.PdfDocument(io.BytesIO(data))
    outline = [b.get_title() for b in pdf.get_toc()]
    assert outline[0] == "目次" and len(outline) > 10
    text = "\n".join(pdf[i].get_textpage().get_text_bounded() for i in range(len(pdf))).replace("\r\n", "\n")
    manifest = json.loads(pnp("manifest", game, "--json").stdout)
    printed = re.findall(r"(?:カード|タイル|ボード|トークン) \d+×\d+mm (\d+)$", text, re.M)
    assert [int(n) for n in printed] == [c["found"] for c in manifest["components"]]


@pytest.mark.skipif(not (REPO / "content" / "fatal-fight" / "rulebook").is_dir(), reason="no fatal-fight rulebook")
def test_enemy_count_change_reaches_the_rulebook_without_touching_markdown(tmp_path):
    game = tmp_path / "fatal-fight"
    shutil.copytree(REPO / "content" / "fatal-fight", game)
    enemies = game / "enemies.yaml"
    text = enemies.read_text(encoding="utf-8")
    assert "name_en: Skater Kid\n  count: 2" in text
    enemies.write_text(text.replace("name_en: Skater Kid\n  count: 2", "name_en: Skater Kid\n  count: 3", 1),
                       encoding="utf-8")
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("expected: 42", "expected: 43"),
                         encoding="utf-8")
    out = tmp_path / "out"
    proc = pnp("rulebook", game, "-o", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pdf = pdfium.PdfDocument(out / "rulebook.pdf")
    text = "".join(pdf[i].get_textpage().get_text_bounded() for i in range(len(pdf))).replace("\r\n", "")
    assert "各ステージに登場する雑魚敵です（全43枚）" in text
    assert "ステージ1に13枚" in text


def test_a_rulebook_without_booklet_says_an_old_booklet_beside_it_is_old(book_game, tmp_path):
    out = tmp_path / "out"
    assert pnp("rulebook", book_game, "--booklet", "-o", out).returncode == 0
    booklet = (out / "rulebook-booklet.pdf").read_bytes()
    proc = pnp("rulebook", book_game, "-o", out)
    assert proc.returncode == 0 and "rulebook-booklet.pdf is from an earlier --booklet run" in proc.stdout
    assert (out / "rulebook-booklet.pdf").read_bytes() == booklet           # kept: a build loses nothing
    proc = pnp("build", book_game, "-o", out, "--no-validate")
    assert proc.returncode == 0 and "rulebook-booklet.pdf is from an earlier --booklet run" in proc.stdout
    assert "earlier --booklet" not in pnp("rulebook", book_game, "--booklet", "-o", out).stdout


def test_booklet_on_letter_and_sheet_needs_booklet(book_game, tmp_path):
    """A booklet on other paper than the game's is named after it and sits beside the game's one
    (as build --profile writes print-letter.pdf beside print-a4.pdf); each run notes the other."""
    out = tmp_path / "out"
    assert pnp("rulebook", book_game, "--booklet", "-o", out).returncode == 0          # A4, the game's
    a4 = (out / "rulebook-booklet.pdf").read_bytes()
    proc = pnp("rulebook", book_game, "--booklet", "--sheet", "letter-portrait", "-o", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["rulebook-booklet-letter.pdf", "rulebook-booklet.pdf",
                                                      "rulebook.pdf"]
    assert pdfium.PdfDocument(out / "rulebook-booklet-letter.pdf")[0].get_size() == pytest.approx((792, 612))
    assert (out / "rulebook-booklet.pdf").read_bytes() == a4                           # not overwritten
    assert "rulebook-booklet.pdf is from an earlier --booklet run" in proc.stdout
    assert "rulebook-booklet-letter.pdf is from" not in proc.stdout
    proc = pnp("rulebook", book_game, "--booklet", "--sheet", "a4-landscape", "-o", out)  # A4 again: the game's
    assert proc.returncode == 0 and (out / "rulebook-booklet.pdf").read_bytes() == a4
    assert "rulebook-booklet-letter.pdf is from an earlier --booklet run, not this one; delete it, or run pnp " \
           "rulebook --booklet --sheet PROFILE (a letter profile)" in proc.stdout
    assert "rulebook-booklet.pdf is from" not in proc.stdout
    proc = pnp("rulebook", book_game, "--sheet", "letter-portrait", "-o", out)
    assert proc.returncode == 2
    assert "--sheet picks the paper of the booklet: use it with --booklet" in proc.stderr
