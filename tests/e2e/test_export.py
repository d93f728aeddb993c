"""End-to-end: `pnp export`, `pnp calibrate`, `pnp watch`, `pnp build --proof / --changed-since`.

Rasterizing is kept cheap: the tiny game, one component, or a low --dpi, except where the
exact print-on-demand pixel size is the point.
"""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from PIL import Image

from generator.content.game import text_in
from generator.manifest import manifest_of

REPO = Path(__file__).resolve().parents[2]
FATAL = REPO / "content" / "fatal-fight"

pytestmark = pytest.mark.usefixtures("in_repo")


def pnp(*args, cwd=REPO, timeout=300):
    proc = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


def pdf_texts(path):
    document = pdfium.PdfDocument(str(path))
    return [document[i].get_textpage().get_text_range() for i in range(len(document))]


# -- PNG ----------------------------------------------------------------------------------------

def test_png_tgc_poker_one_825x1125_image_per_face(tiny, tmp_path):
    out = tmp_path / "out"
    proc = pnp("export", tiny, "--png", "--profile", "tgc-poker", "-o", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "coins: no product for 20x20 mm in export profile 'tgc-poker'; skipped" in proc.stdout
    folder = out / "png" / "tgc-poker"
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png"))
    assert files == ["heroes/back.png", "heroes/knight.png", "heroes/mage.png", "heroes/thief.png"]
    for name in files:
        image = Image.open(folder / name)
        assert image.size == (825, 1125) and image.mode == "RGB" and image.info.get("icc_profile")
    # the back's background is #223355 (layouts/tiny/back.yaml), to the very edge of the bleed
    back = Image.open(folder / "heroes/back.png")
    for xy in [(0, 0), (824, 1124), (412, 100)]:
        assert all(abs(a - b) <= 2 for a, b in zip(back.getpixel(xy), (0x22, 0x33, 0x55))), xy
    index = json.loads((folder / "index.json").read_text())
    knight = next(e for e in index["faces"] if e["file"] == "heroes/knight.png")
    assert knight["copies"] == 2 and knight["px"] == [825, 1125]
    shared = next(e for e in index["faces"] if e["file"] == "heroes/back.png")
    assert shared["records"] == ["knight", "mage", "thief"] and shared["copies"] == 4
    # a second export renders nothing again; an edit renders only the card edited
    again = pnp("export", tiny, "--png", "--profile", "tgc-poker", "-o", out)
    assert "4 unchanged" in again.stderr
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("life: 9", "life: 10"))
    before = (folder / "heroes/knight.png").stat().st_mtime_ns
    third = pnp("export", tiny, "--png", "--profile", "tgc-poker", "-o", out)
    assert "3 unchanged" in third.stderr and (folder / "heroes/knight.png").stat().st_mtime_ns == before


def test_png_px_follow_the_formula_for_other_profiles(tiny, tmp_path):
    proc = pnp("export", tiny, "--png", "--dpi", "100", "-o", tmp_path)
    assert proc.returncode == 0, proc.stderr
    # png-300 at --dpi 100: poker 63x88 + 2 x 3 mm -> round(69/25.4*100) x round(94/25.4*100)
    assert Image.open(tmp_path / "png/png-100dpi/heroes/mage.png").size == (272, 370)
    assert Image.open(tmp_path / "png/png-100dpi/coins/coin1.png").size == (102, 102)       # 26 mm


def test_pngs_at_another_dpi_go_beside_the_profiles_own_and_leave_them_as_they_were(tiny, tmp_path):
    assert pnp("export", tiny, "--png", "--profile", "tgc-poker", "--component", "heroes", "-o", tmp_path).returncode == 0
    own = tmp_path / "png/tgc-poker/heroes/mage.png"
    before = own.stat().st_mtime_ns
    low = pnp("export", tiny, "--png", "--profile", "tgc-poker", "--component", "heroes", "--dpi", "40", "-o", tmp_path)
    assert low.returncode == 0, low.stderr
    assert "removed" not in low.stderr and own.stat().st_mtime_ns == before
    assert Image.open(own).size == (825, 1125)
    assert Image.open(tmp_path / "png/tgc-poker-40dpi/heroes/mage.png").size == (110, 150)
    # the profile's own dpi, given: its own folder
    same = pnp("export", tiny, "--png", "--profile", "tgc-poker", "--component", "heroes", "--dpi", "300", "-o", tmp_path)
    assert "unchanged" in same.stderr and not (tmp_path / "png/tgc-poker-300dpi").exists()


def test_png_component_export_keeps_the_other_components_images(tiny, tmp_path):
    """--component re-exports that component only: the other components' images and index
    entries are not "no longer a face of the game" (they were all deleted)."""
    assert pnp("export", tiny, "--png", "--dpi", "30", "-o", tmp_path).returncode == 0
    folder = tmp_path / "png" / "png-30dpi"
    before = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png"))
    index = json.loads((folder / "index.json").read_text())
    assert any(p.startswith("coins/") for p in before) and any(p.startswith("heroes/") for p in before)
    proc = pnp("export", tiny, "--png", "--dpi", "30", "--component", "heroes", "-o", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "removed" not in proc.stderr
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png")) == before
    assert json.loads((folder / "index.json").read_text())["faces"] == index["faces"]


def test_acceptance_fatal_fight_png_tgc_poker(tmp_path):
    """Every poker card face of Fatal Fight: one image per record front and per distinct back."""
    from generator.content import load_game

    game = load_game(FATAL)
    out = tmp_path / "ff"
    # exact size at 300 dpi on one component; the full game at a low dpi (fast)
    proc = pnp("export", "fatal-fight", "--png", "--profile", "tgc-poker", "--component", "enemies", "-o", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    enemies = sorted((out / "png" / "tgc-poker" / "enemies").glob("*.png"))
    assert {Image.open(p).size for p in enemies} == {(825, 1125)}
    proc = pnp("export", "fatal-fight", "--png", "--profile", "tgc-poker", "--dpi", "30", "-o", tmp_path / "low")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    folder = tmp_path / "low" / "png" / "tgc-poker-30dpi"
    poker = [c for c in game.components if c.kind == "card" and c.size_pt == pytest.approx((178.58, 249.45), abs=0.1)]
    assert poker
    index = json.loads((folder / "index.json").read_text())
    for component in poker:
        ids = sorted(str(r["id"]) for r in component.records)
        fronts = sorted(e["records"][0] for e in index["faces"] if e["component"] == component.id
                        and e["side"] == "front")
        assert fronts == ids, component.id
        backs = [e for e in index["faces"] if e["component"] == component.id and e["side"] == "back"]
        assert sorted(r for e in backs for r in e["records"]) == ids, "every record has exactly one back image"
        images = [(folder / e["file"]).read_bytes() for e in backs]
        assert len(set(images)) == len(images), "distinct backs only"
    sizes = {Image.open(p).size for p in folder.rglob("*.png")}
    assert sizes == {(83, 113)}      # (63.5 + 6.35) / 25.4 * 30 = 82.5 and 112.5, halves rounded up
    skipped = set(index["skipped_components"])
    assert skipped == {c.id for c in game.components if c not in poker and c.layout}


# -- Tabletop Simulator -------------------------------------------------------------------------

def check_saved_object(folder: Path, game_id: str, manifest: dict, max_px: int = 4096, base_url: str = ""):
    saved = json.loads((folder / f"{game_id}.json").read_text())
    by_description = {}
    for obj in saved["ObjectStates"]:
        cards = obj.get("ContainedObjects") or [obj]
        component = cards[0]["Description"].split("/")[0]
        by_description[component] = (obj, cards)
    expected = {c["id"]: c for c in manifest["components"] if c["kind"] in ("card", "tile", "token") and c["pages"]}
    assert set(by_description) == set(expected)
    for cid, (obj, cards) in by_description.items():
        assert len(cards) == expected[cid]["found"], cid
        decks = obj["CustomDeck"] if "CustomDeck" in obj and obj["Name"] == "DeckCustom" else cards[0]["CustomDeck"]
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [c["CardID"] for c in cards]
        for deck_id, entry in decks.items():
            cols, rows = entry["NumWidth"], entry["NumHeight"]
            assert cols <= 10 and rows <= 7 and cols * rows <= 70
            used = [c["CardID"] % 100 for c in cards if c["CardID"] // 100 == int(deck_id)]
            assert used and max(used) < cols * rows - 1, "the last cell is the hidden card"
            for key in ("FaceURL", "BackURL", "BackIsHidden", "UniqueBack"):
                assert key in entry
            sheet = Image.open(folder / entry["FaceURL"].removeprefix(base_url))
            assert sheet.mode == "RGB" and max(sheet.size) <= max_px
            assert sheet.size[0] % cols == 0 and sheet.size[1] % rows == 0
            back = Image.open(folder / entry["BackURL"].removeprefix(base_url))
            assert back.mode == "RGB"
            if entry["UniqueBack"]:
                assert back.size == sheet.size
    return saved


def test_acceptance_fatal_fight_tts_matches_the_manifest(tmp_path):
    proc = pnp("export", "fatal-fight", "--tts", "--dpi", "24", "-o", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    saved = check_saved_object(tmp_path / "tts", "fatal-fight", manifest_of(FATAL))
    arts = next(o for o in saved["ObjectStates"] if o["Description"].startswith("fatal-fight/arts"))
    assert len(arts["CustomDeck"]) == 3, "144 arts need three sheets of at most 69"


def test_tts_default_resolution_stays_within_4096_and_urls_take_a_base(tiny, tmp_path):
    proc = pnp("export", tiny, "--tts", "--tts-base-url", "https://example.org/pnp/", "-o", tmp_path)
    assert proc.returncode == 0, proc.stderr
    saved = check_saved_object(tmp_path / "tts", "tiny", manifest_of(tiny), base_url="https://example.org/pnp/")
    entry = saved["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.org/pnp/heroes-1.png"
    sheet = Image.open(tmp_path / "tts" / "heroes-1.png")
    assert sheet.size == (2 * 744, 2 * 1039), "2 x 2 poker cells at the 300 dpi cap"


# -- errata -------------------------------------------------------------------------------------

def test_acceptance_errata_has_exactly_the_edited_enemy_and_its_back(tmp_path):
    game = tmp_path / "fatal-fight"
    shutil.copytree(FATAL, game)
    out = tmp_path / "out"
    first = pnp("build", game, "-o", out, "--no-validate")
    assert first.returncode == 0, first.stdout + first.stderr
    old_lock = tmp_path / "print-run-1.lock.json"
    shutil.copy(out / "print.lock.json", old_lock)
    enemies_file = game / "enemies.yaml"
    records = yaml.safe_load(enemies_file.read_text(encoding="utf-8"))
    for record in records:  # the Japanese print shows a {ja: ..., en: ...} name in ja
        record["name"] = text_in(record["name"])
    target = next(r for r in records if r.get("count", 1) == 1 and r.get("stage") == 2)
    others = [r["name"] for r in records if r["name"] != target["name"]]
    lines = enemies_file.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {target['id']}")
    life = next(i for i in range(start, len(lines)) if lines[i].strip().startswith("life:"))
    lines[life] = lines[life].replace(f"life: {target['life']}", f"life: {target['life'] + 1}")
    enemies_file.write_text("".join(lines), encoding="utf-8")

    second = pnp("build", game, "-o", out, "--no-validate", "--changed-since", old_lock)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "errata: 1 changed, 0 new, 0 removed" in second.stdout
    assert f"changed enemies/{target['id']} (front: record+ops)" in second.stdout
    texts = pdf_texts(out / "errata.pdf")
    assert len(texts) == 3, "one front page, its back page, the list"
    assert target["name"] in texts[0] and str(target["life"] + 1) in texts[0]
    assert not [name for name in others if name in texts[0]], "no other enemy on the errata sheet"
    assert "裏" in texts[1] and target["name"] not in texts[1]          # the back page of that sheet
    assert f"enemies/{target['id']}" in texts[2] and "1 changed, 0 new, 0 removed" in texts[2]


def test_removed_cards_are_listed_in_the_pdf_and_printed(tiny, tmp_path):
    out = tmp_path / "out"
    assert pnp("build", tiny, "-o", out, "--no-validate").returncode == 0
    lock = tmp_path / "old.json"
    shutil.copy(out / "print.lock.json", lock)
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("- id: thief\n  name: 盗賊\n  life: 9\n", ""))
    (tiny / "game.yaml").write_text((tiny / "game.yaml").read_text().replace("expected: 4", "expected: 3"))
    proc = pnp("build", tiny, "-o", out, "--no-validate", "--changed-since", lock)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "removed heroes/thief (盗賊, 1 copy)" in proc.stdout
    texts = pdf_texts(out / "errata.pdf")
    assert len(texts) == 1 and "heroes/thief" in texts[0] and "take out of the game" in texts[0]
    # the lock just written is the reference for the next run
    again = pnp("build", tiny, "-o", out, "--no-validate", "--changed-since", out / "print.lock.json")
    assert "errata: 0 changed, 0 new, 0 removed" in again.stdout
    assert "Nothing changed" in pdf_texts(out / "errata.pdf")[0]


def test_changed_since_needs_a_lock(tiny, tmp_path):
    proc = pnp("build", tiny, "-o", tmp_path, "--no-validate", "--changed-since", tmp_path / "none.json")
    assert proc.returncode == 1 and "no such lock file" in proc.stderr


def test_changed_since_refuses_the_lock_of_another_game(tiny, tmp_path):
    """Valheim's lock given to Fatal Fight wrote an 84-page 'errata': 274 new cards, 169 removed."""
    out = tmp_path / "out"
    assert pnp("build", tiny, "-o", out, "--no-validate").returncode == 0
    lock = json.loads((out / "print.lock.json").read_text())
    other = tmp_path / "other.lock.json"
    other.write_text(json.dumps(dict(lock, game="valheim", title="ヴァルヘイム")))
    proc = pnp("build", tiny, "-o", out, "--no-validate", "--changed-since", other)
    assert proc.returncode == 1 and "a print lock of 'valheim'" in proc.stderr, proc.stdout + proc.stderr
    assert not (out / "errata.pdf").exists()
    # a copy of the game in a folder of another name (another game id, same title) still matches
    renamed = tmp_path / "renamed.lock.json"
    renamed.write_text(json.dumps(dict(lock, game="tiny-old")))
    assert pnp("build", tiny, "-o", out, "--no-validate", "--changed-since", renamed).returncode == 0


def test_changed_since_refuses_the_lock_of_another_edition(tiny, tmp_path):
    """A lock hashes its edition's texts: the English lock against a Japanese build would list every card."""
    out = tmp_path / "out"
    assert pnp("build", tiny, "-o", out, "--no-validate", "--lang", "en").returncode == 0
    proc = pnp("build", tiny, "-o", tmp_path / "ja", "--no-validate", "--changed-since", out / "print.lock.json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "a print lock of the 'en' edition, this build prints 'ja'; build with --lang en" in proc.stderr


# -- proof, duplex calibration, gutterfold ------------------------------------------------------

def test_proof_build_writes_a_separate_file_with_card_ids(tiny, tmp_path):
    proc = pnp("build", tiny, "-o", tmp_path, "--no-validate", "--proof")
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "print-a4.pdf").exists(), "the real print file is not touched"
    text = "\n".join(pdf_texts(tmp_path / "print-a4-proof.pdf"))
    for label in ("heroes/knight · front", "heroes/thief · back", "coins/coin5 · front"):
        assert label in text


def back_page_box(pdf: Path, page: int, colour=(0x22, 0x33, 0x55), dpi=144):
    from PIL import ImageChops

    image = pdfium.PdfDocument(str(pdf))[page].render(scale=dpi / 72).to_pil().convert("RGB")
    distance = ImageChops.difference(image, Image.new("RGB", image.size, colour)).convert("L")
    return distance.point(lambda v: 255 if v <= 4 else 0).getbbox()


def test_back_offset_moves_every_back_page_and_nothing_else(tiny, tmp_path):
    profiles = tiny / "layouts" / "profiles"
    profiles.mkdir(parents=True)
    text = (REPO / "layouts/profiles/a4-portrait.yaml").read_text()
    assert "back_offset: [0mm, 0mm]" in text
    (profiles / "offset.yaml").write_text(text.replace("back_offset: [0mm, 0mm]", "back_offset: [2mm, -1mm]"))
    plain, shifted = tmp_path / "plain", tmp_path / "shifted"
    assert pnp("build", tiny, "-o", plain, "--no-validate").returncode == 0
    assert pnp("build", tiny, "-o", shifted, "--no-validate", "--profile", "offset").returncode == 0
    a, b = back_page_box(plain / "print-a4.pdf", 1), back_page_box(shifted / "print-a4.pdf", 1)
    px_per_mm = 144 / 25.4
    assert abs((b[0] - a[0]) - 2 * px_per_mm) <= 1.5 and abs((b[2] - a[2]) - 2 * px_per_mm) <= 1.5
    assert abs((b[1] - a[1]) - 1 * px_per_mm) <= 1.5, "y up in the profile: -1mm moves the backs down"
    front = lambda d: pdfium.PdfDocument(str(d / "print-a4.pdf"))[0].render(scale=1).to_pil().tobytes()
    assert front(plain) == front(shifted), "fronts do not move"


def test_calibrate_writes_two_pages_with_the_current_offset(tiny, tmp_path):
    profiles = tiny / "layouts" / "profiles"
    profiles.mkdir(parents=True)
    text = (REPO / "layouts/profiles/a4-portrait.yaml").read_text()
    (profiles / "mine.yaml").write_text(text.replace("back_offset: [0mm, 0mm]", "back_offset: [1.5mm, 0mm]"))
    proc = pnp("calibrate", tiny, "--sheet", "mine", "-o", tmp_path)
    assert proc.returncode == 0, proc.stderr
    texts = pdf_texts(tmp_path / "calibration-mine.pdf")
    assert len(texts) == 2 and "back_offset: [1.5mm, 0mm]" in texts[1]
    assert "長辺とじ" in texts[0], "the tiny game's lang is ja (the default): Japanese instructions"
    proc = pnp("export", tiny, "--calibration", "-o", tmp_path)
    assert proc.returncode == 0 and (tmp_path / "calibration-a4-portrait.pdf").is_file()
    proc = pnp("calibrate", "-o", tmp_path / "no-game")
    assert proc.returncode == 0, proc.stderr
    assert "flip on the long edge" in pdf_texts(tmp_path / "no-game" / "calibration-a4-portrait.pdf")[0]


@pytest.mark.parametrize("fold, landscape", [("vertical", True), ("horizontal", False)])
def test_gutterfold_export(tiny, tmp_path, fold, landscape):
    proc = pnp("export", tiny, "--gutterfold", fold, "-o", tmp_path)
    assert proc.returncode == 0, proc.stderr
    document = pdfium.PdfDocument(str(tmp_path / f"gutterfold-{fold}-a4.pdf"))
    w, h = document[0].get_size()
    assert (w > h) == landscape
    text = document[0].get_textpage().get_text_range()
    assert "折り：破線で折り、貼ってから切る" in text and "騎士" in text and "ちいさなゲーム" in text  # lang ja


def test_export_needs_something_to_do(tiny):
    proc = pnp("export", tiny)
    assert proc.returncode == 2 and "--png" in proc.stderr


# -- watch --------------------------------------------------------------------------------------

def test_watch_once(tiny, tmp_path):
    proc = pnp("watch", tiny, "--once", "-o", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "print-a4.pdf").is_file() and "ok: print-a4.pdf, print.lock.json" in proc.stdout
    # the option that would check it is watch's own --balance, not build's --no-validate it was never given
    assert "(3 print pages, balance not checked: watched without --balance)" in proc.stdout, proc.stdout


def test_watch_counts_the_problem_lines_it_printed_as_validate_does(tiny, tmp_path):
    hero = tiny / "layouts/tiny/hero.yaml"
    hero.write_text(hero.read_text().replace("{{ card.name }}", "{{ card.nmae }}"))
    proc = pnp("watch", tiny, "--once", "-o", tmp_path)
    lines = [line for line in proc.stdout.splitlines() if "card.nmae" in line]
    assert proc.returncode == 1 and len(lines) == 1 and "more card(s) with the same problem)" in lines[0], proc.stdout
    assert "FAILED: 1 problem(s) above; outputs kept from the last good build" in proc.stdout, proc.stdout  # was 3


def test_watch_rebuilds_on_an_edit_and_reports_the_card_and_the_problem(tiny, tmp_path):
    watcher = subprocess.Popen([sys.executable, "-m", "generator", "watch", str(tiny), "--max-cycles", "3",
                                "--interval", "0.2", "-o", str(tmp_path)], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    seen = []
    heroes = tiny / "heroes.yaml"
    original = heroes.read_text()
    try:
        def wait_for(text, timeout=120):
            end = time.time() + timeout
            while time.time() < end:
                line = watcher.stdout.readline()
                if not line:
                    break
                seen.append(line)
                if text in line:
                    return
            raise AssertionError(f"{text!r} not seen in:\n{''.join(seen)}")

        wait_for("watching")
        time.sleep(0.3)
        heroes.write_text(original.replace("life: 9", "life: 10"))
        wait_for("changed heroes/thief")
        wait_for("watching")
        time.sleep(0.3)
        heroes.write_text(original.replace("life: 9", 'life: "nine"'))
        wait_for("heroes[2].life")
        watcher.wait(timeout=60)
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait()
    output = "".join(seen) + watcher.stdout.read()
    assert "changed: " in output and "heroes.yaml" in output
    assert "FAILED" in output and watcher.returncode == 1, output


def test_watch_with_its_output_inside_the_game_does_not_rebuild_on_its_own_files(tiny):
    """-o inside the game folder: each build rewrote watched files and started the next build,
    forever (a rebuild every half second with no edit)."""
    out = tiny / "print"
    assert pnp("build", tiny, "-o", out).returncode == 0      # outputs there from an earlier run
    watcher = subprocess.Popen([sys.executable, "-m", "generator", "watch", str(tiny), "--max-cycles", "2",
                                "--interval", "0.1", "-o", str(out)], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        try:
            output, _ = watcher.communicate(timeout=8)
        except subprocess.TimeoutExpired:
            output = None            # still waiting for an edit after its first build: right
        assert output is None, f"a second build with no edit:\n{output}"
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait()


def test_watch_stops_cleanly_on_ctrl_c(tiny, tmp_path):
    import signal

    out = tmp_path / "out"
    watcher = subprocess.Popen([sys.executable, "-m", "generator", "watch", str(tiny), "--interval", "0.2",
                                "-o", str(out)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    try:
        lines = []
        while not any("watching" in line for line in lines):
            line = watcher.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        watcher.send_signal(signal.SIGINT)
        rest, _ = watcher.communicate(timeout=60)
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait()
    assert watcher.returncode == 0 and "stopped" in rest and "Traceback" not in rest
    assert sorted(p.name for p in out.iterdir()) == [".source", "print-a4.pdf", "print.lock.json"], "no temporary files"


def test_an_unknown_component_is_a_usage_error_found_before_any_face_is_built(tiny, tmp_path):
    proc = pnp("export", tiny, "--png", "--component", "nope", "-o", tmp_path / "out")
    assert proc.returncode == 2 and "--component" in proc.stderr and "unknown component(s) nope" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_tts_export_of_one_component_leaves_the_whole_saved_object(tiny, tmp_path):
    assert pnp("export", tiny, "--tts", "--dpi", "24", "-o", tmp_path).returncode == 0
    whole = (tmp_path / "tts" / "tiny.json").read_bytes()
    proc = pnp("export", tiny, "--tts", "--dpi", "24", "--component", "coins", "-o", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "tts" / "tiny.json").read_bytes() == whole
    part = json.loads((tmp_path / "tts" / "tiny-coins.json").read_text())
    assert [o["Description"].split("/")[1].split(":")[0] for o in part["ObjectStates"]] == ["coins"]


def test_a_tts_export_removes_the_sheets_its_components_no_longer_have(tiny, tmp_path):
    folder = tmp_path / "tts"
    folder.mkdir()
    stale = [folder / "coins-7.png", folder / "coins-7-back.png"]
    kept = [folder / "coinsx-1.png", folder / "notes.png"]
    for file in stale + kept:
        file.write_bytes(b"old")
    proc = pnp("export", tiny, "--tts", "--dpi", "24", "-o", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not any(f.exists() for f in stale) and all(f.exists() for f in kept)
    assert "coins-7.png" in proc.stderr and (folder / "coins-1.png").exists()


def test_a_plain_build_says_an_errata_next_to_it_is_from_an_earlier_build(tiny, tmp_path):
    out = tmp_path / "out"
    assert pnp("build", tiny, "-o", out, "--no-validate").returncode == 0
    lock = tmp_path / "old.lock.json"
    shutil.copy(out / "print.lock.json", lock)
    assert pnp("build", tiny, "-o", out, "--no-validate", "--changed-since", lock).returncode == 0
    errata = (out / "errata.pdf").read_bytes()
    again = pnp("build", tiny, "-o", out, "--no-validate")
    assert again.returncode == 0 and "errata.pdf is from an earlier --changed-since build" in again.stdout
    assert (out / "errata.pdf").read_bytes() == errata
    quiet = pnp("build", tiny, "-o", tmp_path / "fresh", "--no-validate")
    assert "errata" not in quiet.stdout


# -- showcase -------------------------------------------------------------------------------------

def test_showcase_fans_the_first_cards_of_each_component_on_a_transparent_png(tiny, tmp_path):
    proc = pnp("export", tiny, "--showcase", "--dpi", "40", "-o", tmp_path)
    assert proc.returncode == 0, proc.stderr
    heroes, coins = Image.open(tmp_path / "showcase-heroes.png"), Image.open(tmp_path / "showcase-coins.png")
    card_w = round(63 / 25.4 * 40)
    assert heroes.mode == "RGBA" and heroes.getpixel((0, 0))[3] == 0          # transparent around the hand
    assert heroes.width > 3 * card_w * 0.6 and heroes.height > round(88 / 25.4 * 40)  # three cards, fanned
    assert heroes.getpixel((heroes.width // 2, heroes.height // 2))[3] == 255  # a card in the middle
    assert coins.mode == "RGBA" and coins.width > round(20 / 25.4 * 40)


def test_showcase_shows_the_cards_asked_for_and_refuses_an_unknown_one_writing_nothing(tiny, tmp_path):
    one = pnp("export", tiny, "--showcase", "--card", "mage", "--dpi", "40", "-o", tmp_path / "one")
    assert one.returncode == 0, one.stderr
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["showcase-heroes.png"]  # coins have no 'mage'
    single = Image.open(tmp_path / "one" / "showcase-heroes.png")
    assert single.width < round(63 / 25.4 * 40) * 1.5                           # one card, not three
    bad = pnp("export", tiny, "--showcase", "--card", "mgae", "-o", tmp_path / "bad")
    assert bad.returncode == 1
    assert "error: --card mgae: no card with that id in this game (did you mean 'mage'?)" in bad.stderr
    assert not (tmp_path / "bad").exists() or not any((tmp_path / "bad").iterdir())
    usage = pnp("export", tiny, "--png", "--card", "mage")
    assert usage.returncode == 2 and "--card picks the cards of --showcase" in usage.stderr


def test_a_failed_export_ends_with_a_failed_line_as_build_does(tiny, tmp_path):
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("id: mage", "id: Mage!"), encoding="utf-8")
    proc = pnp("export", tiny, "--png", "--dpi", "20", "-o", tmp_path / "out")
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == f"{tiny}: FAILED (1 error(s) above): nothing exported"
    assert not (tmp_path / "out").exists()
