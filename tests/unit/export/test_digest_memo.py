"""A face's ops hash: each op's JSON from a memo of forms, the same bytes as the whole form encoded at once."""
from generator.content.yamlload import LocatedStr
from generator.export import digest


def _located(text):
    value = LocatedStr(text)
    value.location = None
    return value


FORMS = [
    ("rect", "a", 1.0, 2.5, 3.0, 4.0, [("fill", "#ffffff"), ("stroke_width", 1.5)], None, 0.0, 1.0, []),
    ("rect", "a", 1, 2.5, 3.0, 4.0, [("fill", "#ffffff"), ("stroke_width", 1.5)], None, 0.0, 1.0, []),   # 1, not 1.0
    ("rect", "a", True, 2.5, 3.0, 4.0, [("fill", "#ffffff"), ("stroke_width", 1.5)], None, 0.0, 1.0, []),  # == 1
    ("rect", "a", -0.0, 2.5, 3.0, 4.0, [("fill", None)], [[1.0, 2.0]], 0.0, 1.0, []),
    ("text", "t", 0.0, 0.0, 9.0, 9.0, [("color", "#000000")], (9.0, [(7.5, 0.0, [("t", "カード 1", False, 0.0)])]),
     0.0, 1.0, []),
    ("text", "t", 0.0, 0.0, 9.0, 9.0, [("color", _located("#000000"))], (9.0, []), 0.0, 1.0, []),  # not marshalled
    ("text", "t", 0.0, 0.0, 9.0, 9.0, [("color", "#000000")], (9.0, [(7.5, 0.0, [("t", "カード 2", True, 1)])]),
     0, True, [("rect", "r", 0.0, 0.0, 1.0, 1.0, [], None, 0.0, 1.0, [])]),  # another text in the same box
    ("text", "v", 0.0, 0.0, 9.0, 9.0, [], ("vertical", 9.0, [(1.0, 0.0, [("glyph", "縦", False, 0.0)])]), 90.0, 0.5,
     []),
    ("group", "g", 0.0, 0.0, 1.0, 1.0, [("clip", False)], None, 0.0, 1.0,
     [("ellipse", "e", 0.0, 0.0, 1.0, 1.0, [("dash", [1.0, 2.0])], None, 0.0, 1.0, [])]),
]


def test_a_faces_json_from_the_memo_is_the_json_of_the_whole_form_in_any_order(monkeypatch):
    monkeypatch.setattr(digest, "_ENCODED", {})
    for forms in (FORMS, FORMS[::-1], FORMS + FORMS, [], [FORMS[1], FORMS[0], FORMS[2]]):
        assert digest._forms_dumps(forms) == digest._dumps(forms)
    assert digest._forms_dumps([FORMS[0]]) != digest._forms_dumps([FORMS[1]]) != digest._forms_dumps([FORMS[2]])


def test_the_memo_of_forms_is_bounded(monkeypatch):
    monkeypatch.setattr(digest, "_ENCODED", {})
    monkeypatch.setattr(digest, "MAX_ENCODED", 10)
    for n in range(100):
        form = ("rect", "a", n / 3, 0.0, 1.0, 1.0, [], None, 0.0, 1.0, [])
        assert digest._forms_dumps([form]) == digest._dumps([form])
        assert len(digest._ENCODED) <= 10


RECORDS = [
    {"id": "c1", "title": "カード 1", "cost": 1, "rare": True, "weight": 1.0, "art": None},
    {"id": "c2", "title": "カード 1", "cost": True, "rare": 1, "weight": 1, "art": None},      # == the values above
    {"weight": -0.0, "id": "c3", "text": 'a "quoted"\\ line\nand\ttab \x01', "cost": 0.000049},  # unsorted, escapes
    {"id": "c4", "effect": {"b": [1, 2.5, {"z": None, "a": "x"}], "a": "攻撃"}, "tags": ["x", "y"], "t": ("a", 1)},
    {"id": "c5", "title": _located("カード 1"), "effect": {"b": [1, 2.5, {"z": None, "a": "x"}], "a": "攻撃"}},
    {},
]


def test_a_records_digest_and_its_fields_digests_are_data_digests_whatever_the_memo_holds(monkeypatch, tmp_path):
    art = tmp_path / "art.png"
    art.write_bytes(b"png")
    records = RECORDS + [{"id": "c6", "art": art}]
    files = digest.FileHashes()
    for order in (records, records[::-1], records + records):
        memo: dict = {}
        for record in order:
            expected = (digest.data_digest(record, files),
                        {str(k): digest.data_digest(v, files)[:8] for k, v in record.items()})
            assert digest.record_digests(record, files, memo) == expected
            assert list(digest.record_digests(record, files, memo)[1]) == list(record)  # the record's order
    assert digest.record_digests(["not", "a", "mapping"], files, {}) == (
        digest.data_digest(["not", "a", "mapping"], files), None)
    mixed = {1: "one", "1": "uno"}  # keys that are not all str: digested as a whole, as before
    assert digest.record_digests(mixed, files, {}) == (digest.data_digest(mixed, files),
                                                       {"1": digest.data_digest("uno", files)[:8]})


def test_the_memo_of_field_values_is_bounded(monkeypatch):
    monkeypatch.setattr(digest, "MAX_VALUES", 10)
    memo: dict = {}
    files = digest.FileHashes()
    for n in range(100):
        record = {"id": f"c{n}", "cost": n, "weight": n / 3}
        assert digest.record_digests(record, files, memo)[0] == digest.data_digest(record, files)
        assert len(memo) <= 10
