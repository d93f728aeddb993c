"""print.lock.json: what counts as a change, and what the errata pack contains."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.layout.instantiate import Op

from generator.export.digest import FileHashes, canonical, ops_digest
from generator.export.errata import errata_cards, list_lines
from generator.export.lock import compute_lock, diff_locks, lock_json, read_lock
from generator.errors import BuildError
from generator.validate import check_content

REPO = Path(__file__).resolve().parents[3]


def lock_of(game_dir):
    game, cards, problems = check_content(game_dir)
    assert not [p for p in problems if p.severity == "error"], problems
    return compute_lock(cards), cards


def edit(path: Path, old: str, new: str):
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def changed(tiny, before):
    after, _ = lock_of(tiny)
    return diff_locks(before, after)


def test_lock_lists_every_record_with_front_and_back(tiny):
    lock, _ = lock_of(tiny)
    assert sorted(lock["cards"]) == ["coins/coin1", "coins/coin5", "heroes/knight", "heroes/mage", "heroes/thief"]
    knight = lock["cards"]["heroes/knight"]
    assert knight["copies"] == 2 and knight["front"] and knight["back"]
    assert set(knight["parts"]["front"]) == {"record", "layout", "assets", "ops"}
    assert lock["cards"]["coins/coin1"]["back"] is None


def test_the_lock_file_is_the_lock_with_one_line_per_card(tiny):
    lock, _ = lock_of(tiny)
    text = lock_json(lock)
    assert json.loads(text) == lock
    lines = text.splitlines()
    for key, entry in lock["cards"].items():  # a reprinted card is one changed line in a diff
        line = next(line for line in lines if line.lstrip().startswith(json.dumps(key)))
        assert json.loads(line.split(": ", 1)[1].rstrip(",")) == entry
    assert len(lines) == 1 + 5 + 1 + len(lock["cards"]) + 2  # {, format/game/lang/title/version, "cards": {, cards, }, }


def test_the_lock_is_the_same_in_another_process_folder_and_hash_seed(tiny, tmp_path):
    elsewhere = tmp_path / "copy" / "tiny"
    shutil.copytree(tiny, elsewhere)
    script = ("import json,sys; from generator.validate import check_content; "
              "from generator.export.lock import compute_lock; "
              "g,c,p=check_content(sys.argv[1]); print(json.dumps(compute_lock(c), sort_keys=True))")
    outputs = []
    for seed, where in (("1", tiny), ("77", elsewhere)):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-c", script, str(where)], capture_output=True, text=True,
                              cwd=REPO, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outputs.append(json.loads(proc.stdout)["cards"])
    assert outputs[0] == outputs[1]


def test_editing_one_record_changes_only_that_card(tiny):
    before, _ = lock_of(tiny)
    edit(tiny / "heroes.yaml", "life: 9", "life: 10")
    diff = changed(tiny, before)
    assert diff.changed == [("heroes/thief", ["front: record+ops"])]
    assert diff.new == [] and diff.removed == []


def test_a_changed_card_names_the_fields_edited(tiny):
    before, _ = lock_of(tiny)
    edit(tiny / "heroes.yaml", "life: 9", "life: 10")
    diff = changed(tiny, before)
    assert "  changed heroes/thief (front: record+ops): life" in diff.lines()
    assert "    heroes/thief   (front: record+ops): life" in list_lines(diff, "x.lock.json")  # errata.pdf's list
    for entry in before["cards"].values():  # a lock written before fields were kept: none named
        entry.pop("fields", None)
    assert "  changed heroes/thief (front: record+ops)" in changed(tiny, before).lines()


def test_a_layout_change_marks_every_card_using_it(tiny):
    before, _ = lock_of(tiny)
    # a box the cards do not even show differently: the layout file itself changed
    edit(tiny / "layouts/tiny/hero.yaml", "min_size: 7pt", "min_size: 6.5pt")
    diff = changed(tiny, before)
    assert sorted(k for k, _ in diff.changed) == ["heroes/knight", "heroes/mage", "heroes/thief"]
    assert all(any(r.startswith("front: layout") for r in reasons) for _, reasons in diff.changed)


def test_a_parent_layout_and_a_shared_back_count_too(tiny):
    before, _ = lock_of(tiny)
    edit(tiny / "layouts/tiny/frame.yaml", "stroke_width: 2pt", "stroke_width: 1.5pt")
    assert sorted(k for k, _ in changed(tiny, before).changed) == ["heroes/knight", "heroes/mage", "heroes/thief"]
    before, _ = lock_of(tiny)
    edit(tiny / "layouts/tiny/back.yaml", '"#223355"', '"#223356"')
    diff = changed(tiny, before)
    assert sorted(k for k, _ in diff.changed) == ["heroes/knight", "heroes/mage", "heroes/thief"]
    assert all(reasons == ["back: layout+ops"] for _, reasons in diff.changed)


def test_an_icon_change_marks_the_cards_drawing_it(tiny):
    before, _ = lock_of(tiny)
    edit(tiny / "icons.yaml", "L92 18 L88 58", "L90 18 L88 58")      # the guard icon: only the knight's text
    diff = changed(tiny, before)
    assert diff.changed == [("heroes/knight", ["front: assets"])]


def test_images_count_by_content_not_by_path(tmp_path):
    files = FileHashes()
    art = tmp_path / "a.png"
    art.write_bytes(b"one")
    first = ops_digest([Op("image", 0.0, 0.0, 1.0, 1.0, payload=art)], files)
    art2 = tmp_path / "b.png"
    art2.write_bytes(b"one")
    assert ops_digest([Op("image", 0.0, 0.0, 1.0, 1.0, payload=art2)], FileHashes()) == first
    art2.write_bytes(b"two")
    assert ops_digest([Op("image", 0.0, 0.0, 1.0, 1.0, payload=art2)], FileHashes()) != first
    assert canonical({3: 1.00000001, "a": {2, 1}}, files) == {"3": 1.0, "a": [1, 2]}


def test_removed_and_new_cards(tiny):
    before, _ = lock_of(tiny)
    text = (tiny / "heroes.yaml").read_text(encoding="utf-8")
    text = text.replace("- id: thief\n  name: 盗賊\n  life: 9\n", "- id: rogue\n  name: 密偵\n  life: 9\n")
    (tiny / "heroes.yaml").write_text(text, encoding="utf-8")
    after, cards = lock_of(tiny)
    diff = diff_locks(before, after)
    assert diff.new == ["heroes/rogue"] and diff.removed == [("heroes/thief", "盗賊", 1)] and diff.changed == []
    assert diff.renamed == []  # its printed name changed too: a new card
    assert any("removed heroes/thief" in line for line in diff.lines())
    subset = errata_cards(cards, diff)
    assert [(f.component.id, f.copies) for f in subset.faces] == [("heroes", [2])]


def test_a_renamed_id_that_prints_the_same_card_is_not_reprinted(tiny):
    before, _ = lock_of(tiny)
    edit(tiny / "heroes.yaml", "- id: thief\n", "- id: rogue\n")
    after, cards = lock_of(tiny)
    diff = diff_locks(before, after)
    assert diff.renamed == [("heroes/thief", "heroes/rogue")]
    assert diff.new == [] and diff.removed == [] and diff.changed == [] and not diff.empty
    assert "renamed heroes/thief -> heroes/rogue (the same print: nothing to reprint)" in " ".join(diff.lines())
    assert errata_cards(cards, diff).faces == []


def test_errata_prints_every_copy_of_a_changed_card(tiny):
    before, _ = lock_of(tiny)
    edit(tiny / "heroes.yaml", "life: 12", "life: 13")
    after, cards = lock_of(tiny)
    subset = errata_cards(cards, diff_locks(before, after))
    assert [(f.component.id, f.copies) for f in subset.faces] == [("heroes", [0, 0])]


def test_a_bad_lock_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    with pytest.raises(BuildError, match="not a print lock"):
        read_lock(bad)
    with pytest.raises(BuildError, match="no such lock file"):
        read_lock(tmp_path / "missing.json")


def test_an_english_edition_exports_and_locks_the_english_face_of_a_per_language_layout_value():
    """A support art's tag is ``{ja: 支援, en: Support}`` at ``{ja: 12pt, en: 10pt}``: the English edition's
    export (distinct_faces, what PNG and TTS draw and name) and its lock hash the English drawing."""
    from generator.cards import CardBuilder
    from generator.content import load_game
    from generator.export.faces import FaceHasher, distinct_faces

    def support_face(lang):
        cards = CardBuilder(load_game(REPO / "content/fatal-fight", lang)).build(check=False)
        faces = next(f for f in cards.faces if f.component.id == "arts")
        index = next(i for i, r in enumerate(faces.component.records) if r["id"] == "marie_i09")
        hasher = FaceHasher(cards)
        exported = next(face for face in distinct_faces(cards, ["arts"], hasher) if face.key == "arts/marie_i09")
        return exported, hasher.parts(faces, "front", index), compute_lock(cards, hasher)["cards"]["arts/marie_i09"]

    ja, ja_parts, ja_lock = support_face("ja")
    en, en_parts, en_lock = support_face("en")
    tags = {lang: [(op.payload.text, op.payload.size) for op in face.ops() if op.id == "support-text"]
            for lang, face in (("ja", ja), ("en", en))}
    assert tags == {"ja": [("支援", 12.0)], "en": [("Support", 10.0)]}
    assert en.digest == en_lock["front"] != ja.digest == ja_lock["front"]
    # one file, its values as each edition reads them: the layout part differs with its texts
    assert en_parts["ops"] != ja_parts["ops"] and en_parts["layout"] != ja_parts["layout"]


def test_an_english_text_added_to_a_record_and_a_layout_leaves_the_japanese_lock_as_it_was(tiny):
    """Three engineers add English texts to the shipped games: the Japanese print is identical, so its
    lock lists nothing; a Japanese text that changes is listed (before: both edits listed every card)."""
    before, _ = lock_of(tiny)
    edit(tiny / "heroes.yaml", "  name: 盗賊\n", "  name: {ja: 盗賊, en: Thief}\n")
    edit(tiny / "layouts/tiny/hero.yaml", '    text: "{{ card.name }}"\n',  # two lines more: lines move
         '    text:\n      ja: "{{ card.name }}"\n      en: "Hero: {{ card.name }}"\n')
    after, _ = lock_of(tiny)
    diff = diff_locks(before, after)
    assert diff.empty, diff.lines()
    assert after["lang"] == "ja"
    edit(tiny / "heroes.yaml", "{ja: 盗賊, en: Thief}", "{ja: 大盗賊, en: Thief}")
    assert changed(tiny, after).changed == [("heroes/thief", ["front: record+ops"])]
    # and the English edition's lock sees the English words
    en = compute_lock(check_content(tiny, lang="en")[1])
    assert en["lang"] == "en" and en["cards"]["heroes/thief"]["name"] == "Thief"


def test_a_lock_of_format_1_is_compared_by_what_cards_draw_and_says_so(tiny, tmp_path):
    """An old lock hashed records and layouts otherwise: comparing those parts would list every card."""
    now, _ = lock_of(tiny)
    old = json.loads(json.dumps(now))
    old["format"] = 1
    del old["lang"]
    for entry in old["cards"].values():
        for side in ("front", "back"):
            if entry["parts"][side]:
                entry[side] = "0" * 16
                entry["parts"][side].update(record="1" * 16, layout="2" * 16)
    path = tmp_path / "old.lock.json"
    path.write_text(lock_json(old), encoding="utf-8")
    diff = diff_locks(read_lock(path), now)
    assert diff.changed == [] and diff.new == [] and diff.removed == []
    assert "a lock of format 1, this build's is 2: cards compared by what they draw (assets and ops) only" in \
        "\n".join(diff.lines())
    edit(tiny / "heroes.yaml", "life: 9", "life: 10")
    assert changed(tiny, read_lock(path)).changed == [("heroes/thief", ["front: ops"])]


def test_the_locks_rounding_memo_gives_round_to_4_decimals_with_no_negative_zero():
    # The lock hashes every coordinate rounded; the memo serves repeats (every card's same x) by a
    # look-up and must give what round() gives, the first time and every time after.
    import math

    from generator.export import digest

    values = [0.1 + 0.2, 178.58267716535434, -0.0, -0.00004, 1e-9, 2.00005, -3.14159265, 7, 1e300]
    for _ in range(2):  # worked out, then served from the memo
        got = [digest._R[v] for v in values]
        assert got == [round(v, 4) + 0.0 for v in values]
        assert all(isinstance(g, float) and math.copysign(1.0, g) == 1.0 for g in got[2:4])  # -0.0 -> 0.0
    assert -0.00004 in digest._R
    for k in range(70_000):  # bounded: a long `pnp watch` of ever-new coordinates does not grow it forever
        digest._R[k + 0.5]
    assert len(digest._R) <= 65537
