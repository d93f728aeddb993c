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
