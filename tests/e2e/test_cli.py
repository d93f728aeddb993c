"""End-to-end runs of the `pnp` command over the tiny test game and broken copies of it."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("in_repo")


def pnp(*args, cwd=REPO):
    proc = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


def test_build_writes_a_deterministic_pdf_with_embedded_fonts_only(tiny, tmp_path):
    out = tmp_path / "out"
    first = pnp("build", tiny, "-o", out, "--no-validate")
    assert first.returncode == 0, first.stdout + first.stderr
    pdf = out / "print-a4.pdf"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    second = pnp("build", tiny, "-o", out, "--no-validate")
    assert second.returncode == 0
    assert pdf.read_bytes() == data, "a second build must be byte-identical"
    fonts = set(re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-_]+)", data))
    assert fonts and all(b"+" in f for f in fonts), f"every font must be an embedded subset: {fonts}"
    assert b"/FontFile2" in data
    assert b"Helvetica" not in data


def test_a_print_shop_build_writes_its_own_file_beside_the_home_print_file(tiny, tmp_path):
    """print-shop pages are card-sized: they go to print-shop.pdf, and the A4 file of an earlier
    build in the same folder is left as it was."""
    out = tmp_path / "out"
    assert pnp("build", tiny, "-o", out, "--no-validate").returncode == 0
    home = (out / "print-a4.pdf").read_bytes()
    proc = pnp("build", tiny, "-o", out, "--no-validate", "--profile", "print-shop")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (out / "print-a4.pdf").read_bytes() == home
    shop = (out / "print-shop.pdf").read_bytes()
    assert shop != home and b"/TrimBox" in shop and b"/BleedBox" in shop


def test_build_takes_no_balance_as_validate_does(tiny, tmp_path):
    """``--no-balance`` (validate's name) skips the balance check on build as ``--no-validate`` does;
    content is still checked."""
    proc = pnp("build", tiny, "-o", tmp_path / "out", "--no-balance")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "out" / "print-a4.pdf").is_file() and "no simulator" not in proc.stdout + proc.stderr
    cards = tiny / "heroes.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("life:", "lief:", 1), encoding="utf-8")
    assert pnp("build", tiny, "-o", tmp_path / "out2", "--no-balance").returncode == 1
    assert not (tmp_path / "out2").exists()


def test_manifest_json_shape_and_counts(tiny):
    proc = pnp("manifest", tiny, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data == {
        "game": "tiny",
        "lang": "ja",
        # the title and the mage's name in ja and en; the other names and texts plain strings
        "texts": {"count": 7, "plain": 5, "languages": {"ja": 2, "en": 2}},
        "components": [
            {"id": "heroes", "kind": "card", "size_mm": [63.0, 88.0], "expected": 4, "found": 4, "pages": 2},
            {"id": "coins", "kind": "token", "size_mm": [20.0, 20.0], "expected": 6, "found": 6, "pages": 1},
        ],
        "total_cards": 4,
        "print_pages": 3,  # heroes have backs: the coins do not share their page
    }



def test_manifest_shows_a_count_that_differs_from_expected_then_fails_on_it(tiny):
    """The one command that lists declared against found refused to when they differed: it printed the
    count problem alone, and its "<-- mismatch" mark could not show."""
    game = tiny / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("expected: 4", "expected: 5", 1), encoding="utf-8")
    proc = pnp("manifest", tiny)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert any(re.fullmatch(r"  heroes +card +63x88 mm +expected +5 +found +4 +pages 2   <-- mismatch", line)
               for line in lines), proc.stdout
    said = proc.stdout + proc.stderr
    assert re.search(r"game\.yaml:\d+: heroes\.expected: game\.yaml declares 5 but the data yields 4", said), said
    assert said.index("<-- mismatch") < said.index("declares 5")  # the table first, then what fails

def test_invalid_value_exits_1_with_located_message_and_keeps_outputs(tiny, tmp_path):
    out = tmp_path / "out"
    assert pnp("build", tiny, "-o", out, "--no-validate").returncode == 0
    before = (out / "print-a4.pdf").read_bytes()
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("life: 12", 'life: "three"'))
    for command in (["validate", tiny, "--no-balance"], ["build", tiny, "-o", out, "--no-validate"]):
        proc = pnp(*command)
        assert proc.returncode == 1
        assert f"{tiny}/heroes.yaml:3: heroes[0].life: expected an integer, got 'three'" in proc.stdout
    assert (out / "print-a4.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == [".source", "print-a4.pdf", "print.lock.json"], \
        "no temporary files left behind"


@pytest.mark.parametrize("edit, expected", [
    # template typo -> the layout file and line, and the card
    (("layouts/tiny/hero.yaml", '"{{ card.life }}"', '"{{ card.lief }}"'),
     r"layouts/tiny/hero.yaml:\d+: life-value: template '\{\{ card.lief \}\}': .*lief"),
    # text that cannot fit -> the card's YAML line and the box
    (("heroes.yaml", 'text: "カードを**2枚**引く。"', 'text: "' + "とても長い説明文です。" * 30 + '"'),
     r"heroes.yaml:11: heroes\[1\].text: overflows box 'body' of .*layouts/tiny/hero.yaml by \d+ lines? at 7pt"),
    # unknown inline icon -> the line of the field, not of the record
    (("heroes.yaml", ":guard:", ":gaurd:"), r"heroes.yaml:5: heroes\[0\].text: unknown icon ':gaurd:'.*guard"),
    # a character the font lacks
    (("heroes.yaml", "name: 盗賊", "name: 盗賊\U0001F600"), r"heroes.yaml:14: heroes\[2\].name: the font has no glyph for"),
    # ... in a text given per language: the line of the language printed (ja)
    (("heroes.yaml", "name: {ja: 魔法使い, en: Mage}", "name:\n    en: Mage\n    ja: 魔法使い\U0001F600"),
     r"heroes.yaml:10: heroes\[1\].name: the font has no glyph for"),
    # Jinja cannot reach Python internals
    (("layouts/tiny/hero.yaml", '"{{ card.life }}"', '"{{ card.__class__.__mro__ }}"'),
     r"layouts/tiny/hero.yaml:\d+: life-value: template .*(unsafe|__class__|attribute)"),
    # layout extends cycle
    (("layouts/tiny/frame.yaml", 'background: "#ffffff"', 'extends: tiny/hero\nbackground: "#ffffff"'),
     r"extends cycle: tiny/hero -> tiny/frame -> tiny/hero"),
    # unknown box key with a hint, at the key's own line (the box starts at line 3)
    (("layouts/tiny/coin.yaml", "    valign: middle", "    valgin: middle"),
     r"layouts/tiny/coin.yaml:13: boxes\[0\].valgin: unknown key for a text box \(did you mean 'valign'\?\)"),
    # a value out of a box key's choices, British spelling offered the American one
    (("layouts/tiny/coin.yaml", "    valign: middle", "    valign: centre"),
     r"layouts/tiny/coin.yaml:13: \S+: valign must be top, middle or bottom, got 'centre' \((card|component)"),
    (("layouts/tiny/hero.yaml", "    align: center", "    align: centre"),
     r"layouts/tiny/hero.yaml:31: \S+: align must be left, center, right or justify, got 'centre' "
     r"\(did you mean 'center'\?\)"),
    # a bad length, at its own line (the box starts at line 3)
    (("layouts/tiny/coin.yaml", "    w: 16mm", "    w: 16mn"), r"layouts/tiny/coin.yaml:7: value: w: "),
    # missing image
    (("layouts/tiny/back.yaml", "  - id: mark", "  - id: pic\n    type: image\n    src: art/missing.png\n    w: 5mm\n    h: 5mm\n  - id: mark"),
     r"layouts/tiny/back.yaml:\d+: pic: image 'art/missing.png' not found"),
    # image outside the game directory
    (("layouts/tiny/back.yaml", "  - id: mark", "  - id: pic\n    type: image\n    src: ../../etc/passwd\n    w: 5mm\n    h: 5mm\n  - id: mark"),
     r"pic: image src '../../etc/passwd' must be a relative path inside the game directory"),
])
def test_broken_fixtures_give_located_problems(tiny, tmp_path, edit, expected):
    name, old, new = edit
    target = tiny / name
    text = target.read_text()
    assert old in text, f"fixture edit does not apply: {old!r}"
    target.write_text(text.replace(old, new, 1))
    out = tmp_path / "out"
    proc = pnp("build", tiny, "-o", out, "--no-validate")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(expected, proc.stdout), proc.stdout
    assert not out.exists()


def test_a_refused_build_ends_by_saying_nothing_was_printed(tiny, tmp_path):
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace(":guard:", ":gaurd:", 1))
    proc = pnp("build", tiny, "-o", tmp_path / "out", "--no-validate")
    assert proc.returncode == 1 and "unknown icon" in proc.stdout
    assert proc.stderr.rstrip().splitlines()[-1] == f"{tiny}: FAILED (1 error(s) above): no print file written"


def test_corrupt_image_is_a_located_problem(tiny, tmp_path):
    (tiny / "art").mkdir()
    (tiny / "art" / "bad.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    back = tiny / "layouts/tiny/back.yaml"
    back.write_text(back.read_text().replace(
        "  - id: mark", "  - id: pic\n    type: image\n    src: art/bad.png\n    w: 5mm\n    h: 5mm\n  - id: mark", 1))
    proc = pnp("build", tiny, "-o", tmp_path / "out", "--no-validate")
    assert proc.returncode == 1
    assert re.search(r"layouts/tiny/back.yaml:\d+: pic: image 'art/bad.png' cannot be read", proc.stdout), proc.stdout


def test_an_output_folder_that_cannot_be_made_is_an_error_not_a_traceback(tiny, tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    proc = pnp("build", tiny, "-o", tmp_path / "a-file" / "out", "--no-validate")
    assert proc.returncode == 1
    assert f"error: cannot write {tmp_path}/a-file/out/print-a4.pdf: Not a directory" in proc.stderr


def test_an_unknown_sheet_profile_fails_validate_too_located_where_it_is_named(tiny, tmp_path):
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("profile: a4-portrait", "profile: a4-portait"))
    for command in (["validate", tiny, "--no-balance"], ["build", tiny, "-o", tmp_path / "out", "--no-validate"]):
        proc = pnp(*command)
        assert proc.returncode == 1
        assert f"{tiny}/game.yaml:3: print.profile: unknown sheet profile 'a4-portait' (did you mean 'a4-portrait'?); known: a3-landscape, a3-portrait," \
            in proc.stdout
    proc = pnp("build", tiny, "-o", tmp_path / "out", "--no-validate", "--profile", "leter-portrait")
    assert proc.returncode == 1
    assert f"{tiny}: --profile: unknown sheet profile 'leter-portrait' (did you mean 'letter-portrait'?)" in proc.stdout, \
        "not blamed on game.yaml"


def test_an_unknown_sheet_profile_is_said_with_the_content_errors_of_the_same_run(tiny, tmp_path):
    """A content error stopped the load before the profile was looked up: the profile was said only
    once the rest was fixed (newcomer walk)."""
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("profile: a4-portrait", "profile: a4"))
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("life: 12", 'life: "twelve"', 1))
    for command in (["validate", tiny, "--no-balance"], ["build", tiny, "-o", tmp_path / "out", "--no-validate"]):
        proc = pnp(*command)
        assert proc.returncode == 1
        assert f"{tiny}/game.yaml:3: print.profile: unknown sheet profile 'a4'; known: " in proc.stdout
        assert f"{tiny}/heroes.yaml:3: heroes[0].life: expected an integer, got 'twelve'" in proc.stdout
        assert "FAILED (2 error(s) above" in proc.stderr


def test_an_image_too_large_to_decode_is_a_located_problem_not_a_traceback(tiny, tmp_path):
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)  # 400 Mpx: past Pillow's bomb limit
    (tiny / "art").mkdir()
    (tiny / "art" / "huge.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                                            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    back = tiny / "layouts/tiny/back.yaml"
    back.write_text(back.read_text().replace(
        "  - id: mark", "  - id: pic\n    type: image\n    src: art/huge.png\n    w: 5mm\n    h: 5mm\n  - id: mark", 1))
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 1
    assert re.search(r"layouts/tiny/back.yaml:\d+: pic: image 'art/huge.png' cannot be read: .*pixels", proc.stdout), \
        proc.stdout


def test_a_cff_font_named_in_game_yaml_is_located_at_its_key(tiny):
    (tiny / "fonts").mkdir()
    (tiny / "fonts" / "gothic.otf").write_bytes(b"OTTO" + bytes(300))
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace('version: "1"\n', 'version: "1"\nfonts: {regular: fonts/gothic.otf}\n'))
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 1
    assert f"{tiny}/game.yaml:3: fonts.regular: 'fonts/gothic.otf': ReportLab embeds only TrueType (glyf) outlines; " \
        "this font has CFF/PostScript outlines" in proc.stdout, proc.stdout + proc.stderr


def test_unknown_game_is_a_usage_error():
    proc = pnp("build", "no-such-game")
    assert proc.returncode == 2
    assert "unknown game 'no-such-game'" in proc.stderr


def test_list_build_and_validate_outside_a_project_say_there_are_no_games(tmp_path):
    import os

    env = {**os.environ, "PYTHONPATH": str(REPO)}  # this checkout's generator, not an installed one
    for command in ("list", "build", "validate"):
        proc = subprocess.run([sys.executable, "-m", "generator", command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 2, (command, proc.stdout, proc.stderr)
        assert "Error: no games under ./content" in proc.stderr and proc.stdout == ""


def test_verbosity_options_work_before_the_command_too(tiny, tmp_path):
    """`pnp -q export ...` (the option on pnp itself) ended in an AttributeError traceback."""
    quiet = pnp("-q", "manifest", tiny)
    assert quiet.returncode == 0 and quiet.stdout.startswith("tiny")
    loud = pnp("-v", "export", tiny, "--png", "--dpi", "20", "--component", "coins", "-o", tmp_path)
    assert loud.returncode == 0 and "wrote " in loud.stderr and "coin1.png" in loud.stderr


def test_every_command_has_help():
    listed = pnp("--help")
    assert listed.returncode == 0
    commands = re.findall(r"^  ([a-z]+)  ", listed.stdout.split("Commands:")[1], re.M)
    # those in modules of their own are imported only when asked for, and still listed and helped
    assert {"build", "validate", "manifest", "list", "simulate", "rulebook", "export", "calibrate", "watch",
            "new"} <= set(commands)
    for command in commands:
        proc = pnp(command, "--help")
        assert proc.returncode == 0 and f"Usage: python -m generator {command} " in proc.stdout, command


def test_a_mistyped_command_is_offered_the_close_one_among_commands_not_imported_yet():
    proc = pnp("simlate")
    assert proc.returncode == 2 and "No such command 'simlate'. Did you mean 'simulate'?" in proc.stderr


def test_a_build_imports_neither_the_other_commands_nor_the_simulator(tiny, tmp_path):
    # Start-up counts at every build (bench/render.py): the commands' modules are imported when run,
    # and the simulator (runner, verdict, agents, statistics) only by simulate and validate; the loader
    # of a game's own engine (sim.local, with traceback) only for a game that has one.
    script = (
        "import sys\n"
        "from generator.cli import main\n"
        "try:\n"
        f"    main(['build', {str(tiny)!r}, '--no-validate', '-q', '-o', {str(tmp_path)!r}])\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "print(' '.join(sorted(sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    imported = set(proc.stdout.split())
    assert "generator.build" in imported and (tmp_path / "print-a4.pdf").is_file()
    simulator = {f"generator.sim.{m}" for m in ("api", "agents", "runner", "verdict", "stats", "metrics", "report",
                                                "local")}
    assert not {m for m in imported if m.startswith("generator.commands")} | (imported & simulator)


def test_a_board_larger_than_the_paper_is_tiled_and_also_written_at_design_size(tiny, tmp_path):
    (tiny / "boards.yaml").write_text("- {id: map, value: 1}\n")
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("data:\n", "  - {id: boards, kind: board, file: boards.yaml, schema: coin,"
                                                       " size: a3-landscape, layout: tiny/coin, expected: 1}\ndata:\n"))
    out = tmp_path / "out"
    proc = pnp("build", tiny, "-o", out, "--no-validate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    board = (out / "board-boards.pdf").read_bytes()
    assert re.search(rb"/MediaBox \[\s*0 0 1190\.55\d* 841\.88\d*", board), "one A3 landscape page"
    manifest = json.loads(pnp("manifest", tiny, "--json").stdout)
    pages = {c["id"]: c["pages"] for c in manifest["components"]}
    assert pages["boards"] == 5  # 4 A4 tiles + the assembly page


def test_a_board_the_size_of_the_paper_is_warned_about_once_and_the_flag_tiles_it(tiny, tmp_path):
    (tiny / "boards.yaml").write_text("- {id: map, value: 1, count: 2}\n")
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("data:\n", "  - {id: boards, kind: board, file: boards.yaml, schema: coin,"
                                                       " size: a4-landscape, layout: tiny/coin}\ndata:\n"))
    assert "--paper-sized-boards [full|tiled|fit]" in pnp("build", "--help").stdout
    out = tmp_path / "out"
    proc = pnp("build", tiny, "-o", out, "--no-validate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(i for i, text in enumerate(game.read_text().splitlines(), start=1) if "id: boards" in text)
    assert proc.stdout.splitlines() == [
        f"{tiny}/game.yaml:{line}: warning: components[2].size: board 'boards' is 297x210 mm, the size of the A4"
        " landscape paper: it prints edge to edge with no crop marks, and a home printer leaves the outer 5 mm"
        " (the profile's margin) blank, so the board loses its edge strip. Ways out: print borderless (a profile"
        " with margin: 0mm), a larger sheet profile (pnp build --profile a3-portrait), or tiled pages"
        " (paper_sized: tiled on the component, or pnp build --paper-sized-boards tiled); paper_sized: full keeps"
        " it edge to edge without this warning"]
    full = len(re.findall(rb"/Type /Page\b", (out / "print-a4.pdf").read_bytes()))
    proc = pnp("build", tiny, "-o", out, "--no-validate", "--paper-sized-boards", "tiled")
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr
    assert len(re.findall(rb"/Type /Page\b", (out / "print-a4.pdf").read_bytes())) == full + 2 * 2  # 2 tiles + assembly, not 1 page
    assert (out / "board-boards.pdf").exists()


@pytest.mark.parametrize("key", ["id", "kind", "file", "schema", "size"])
def test_a_component_missing_a_required_key_is_located_not_a_traceback(tiny, key):
    game = tiny / "game.yaml"
    lines = game.read_text().splitlines(keepends=True)
    line = {"id": "  - id: heroes\n"}.get(key, f"    {key}: ")
    index = next(i for i, text in enumerate(lines) if text.startswith(line))
    if key == "id":  # the entry then starts at its next key
        lines[index + 1] = "  - " + lines[index + 1].lstrip()
    del lines[index]
    game.write_text("".join(lines))
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [f"{tiny}/game.yaml:5: components[0].{key}: missing required field"]


@pytest.mark.parametrize("key", ["id", "file", "schema"])
def test_a_data_entry_missing_a_required_key_is_located_not_a_traceback(tiny, key):
    game = tiny / "game.yaml"
    entry = {"id": "id: rules", "file": "file: rules.yaml", "schema": "schema: rules"}
    text = game.read_text()
    game.write_text(text.replace(entry[key] + ", ", "").replace(", " + entry[key], ""))
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [f"{tiny}/game.yaml:23: data[0].{key}: missing required field"]


def test_a_back_without_a_front_layout_is_a_problem(tiny):
    """Without `layout:` a component is not printed at all, so its `back:` was silently dropped."""
    game = tiny / "game.yaml"
    game.write_text(game.read_text().replace("    layout: tiny/hero\n", ""))
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [f"{tiny}/game.yaml:11: components[0].back: a back needs a front: "
                                        "add 'layout:' (a component without 'layout:' is not printed)"]


def test_a_broken_field_spec_is_reported_once_not_once_per_record(tiny):
    schema = tiny / "schema.yaml"
    schema.write_text(schema.read_text().replace("life: {type: int,", "life: {tpye: int,", 1))
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        f"{tiny}/schema.yaml:7: types.hero.fields.life: a type spec needs 'type:' (or 'fields:' for a record)"]


def test_a_game_without_a_simulator_does_not_say_balance_passed(tiny):
    proc = pnp("validate", tiny)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{tiny}: ok (2 components, 10 pieces, balance not checked)" in proc.stderr
    assert "balance passed" not in proc.stdout + proc.stderr


def test_validate_no_balance_ends_with_why_the_balance_was_not_checked(tiny):
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr.rstrip().splitlines()[-1] == \
        f"{tiny}: ok (2 components, 10 pieces, balance not checked: asked with --no-balance)"


def test_a_layout_mistake_every_card_shares_is_one_line_naming_the_first_card_and_the_count(tiny, tmp_path):
    hero = tiny / "layouts" / "tiny" / "hero.yaml"
    hero.write_text(hero.read_text().replace("{{ card.life }}", "{{ card.lief }}"))
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 1
    lines = [line for line in proc.stdout.splitlines() if "lief" in line]
    assert len(lines) == 1, proc.stdout
    assert proc.stderr.rstrip().splitlines()[-1] == \
        f"{tiny}: FAILED (1 error(s) above; 2 components, 10 pieces, balance not checked:" \
        " asked with --no-balance)"
    assert re.search(r"layouts/tiny/hero\.yaml:29: .*'dict object' has no attribute 'lief' \(did you mean 'life'\?\) "
                     r"\(card \S+/heroes\.yaml:1 heroes\[0\]\.lief; and 2 more card\(s\) with the same problem\)$",
                     lines[0]), lines[0]


def test_a_refused_build_names_the_earlier_print_file_it_left_as_it_was(tiny, tmp_path):
    out = tmp_path / "out"
    assert pnp("build", tiny, "-o", out, "--no-validate").returncode == 0
    printed = (out / "print-a4.pdf").read_bytes()
    heroes = tiny / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace(":guard:", ":gaurd:", 1))
    proc = pnp("build", tiny, "-o", out, "--no-validate")
    assert proc.returncode == 1 and (out / "print-a4.pdf").read_bytes() == printed
    assert proc.stderr.rstrip().splitlines()[-1] == \
        f"{tiny}: FAILED (1 error(s) above): no print file written (print-a4.pdf: left as it was)"


def test_the_failed_line_counts_the_error_lines_shown_not_the_cards_behind_them(tiny, tmp_path):
    hero = tiny / "layouts" / "tiny" / "hero.yaml"
    hero.write_text(hero.read_text().replace("{{ card.life }}", "{{ card.lief }}"))
    proc = pnp("build", tiny, "-o", tmp_path / "out", "--no-validate")
    assert proc.returncode == 1
    assert len([line for line in proc.stdout.splitlines() if "lief" in line]) == 1, proc.stdout
    assert proc.stderr.rstrip().splitlines()[-1] == f"{tiny}: FAILED (1 error(s) above): no print file written"


def test_a_game_with_nothing_to_print_says_so_and_writes_no_empty_pdf(tiny, tmp_path):
    game = tiny / "game.yaml"
    game.write_text("\n".join(line for line in game.read_text().splitlines()
                              if not line.strip().startswith(("layout:", "back:"))) + "\n")
    proc = pnp("validate", tiny, "--no-balance")
    assert proc.returncode == 0 and "warning: components: nothing to print: no component names a layout" in proc.stdout
    out = tmp_path / "out"
    proc = pnp("build", tiny, "-o", out, "--no-validate")
    assert proc.returncode == 0 and "nothing to print" in proc.stdout
    assert not list(out.glob("print-*.pdf"))


def test_a_game_that_cannot_load_fails_alone_and_the_next_game_still_runs(tiny, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(tiny, broken)
    (broken / "heroes.yaml").write_text((broken / "heroes.yaml").read_text() + "\n- id: x\n  bad: [\n")
    proc = pnp("validate", broken, tiny, "--no-balance")
    assert proc.returncode == 1
    assert re.search(rf"{re.escape(str(broken))}: FAILED \(\d+ error\(s\) above\)", proc.stderr), proc.stderr
    assert f"{tiny}: ok" in proc.stderr, proc.stderr
    out = tmp_path / "out"
    proc = pnp("build", broken, tiny, "-o", out, "--no-validate")
    assert proc.returncode == 1 and "no print file written" in proc.stderr
    assert (out / "tiny" / "print-a4.pdf").exists() and not (out / "broken").exists()


def test_a_build_ends_each_game_with_what_it_made(tiny, tmp_path):
    """As validate ends a game with its summary: the pages printed and what became of the balance check."""
    proc = pnp("build", tiny, "-o", tmp_path / "out", "--no-validate")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == f"{tiny}: ok (3 print pages, balance not checked: --no-validate)"


def test_manifest_columns_line_up_when_a_board_is_wider_than_the_cards():
    """Metroidvania's 420x297 mm board pushed its row's counts two characters right of the cards'."""
    proc = pnp("manifest", "metroidvania")
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if " expected " in line]
    assert any("420x297 mm" in row for row in rows) and any("63x88 mm" in row for row in rows)
    assert len({row.index(" expected ") for row in rows}) == 1, rows
