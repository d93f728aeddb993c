"""An icon box painted over a text of the same face is a located warning (the fit check cannot see it)."""
import pytest

from tests.unit.layout.test_instantiate import faces_of

# 'GUARD' at 10 pt, left-aligned from x 5 mm: its glyphs ink about 5..20 mm across, 8..12 mm down.
TEXT = '  - {id: label, type: text, x: 5mm, y: 8mm, w: 40mm, h: 5mm, text: GUARD, size: 10pt}\n'


def covers(problems):
    return [p for p in problems if "is painted over the text" in p.message]


def test_an_icon_over_the_words_of_a_text_is_a_warning_at_the_icon_box(tiny):
    ops, problems = faces_of(tiny, "boxes:\n" + TEXT +
                             '  - {id: badge, type: icon, name: star, x: 12mm, y: 7mm, w: 5mm, h: 5mm}\n')
    [problem] = covers(problems)
    assert problem.severity == "warning"
    assert problem.field == "badge" and problem.location.path.endswith("probe.yaml")
    assert problem.location.line == 3  # the icon box's line, where the fix goes
    assert "':star:' is painted over the text of box 'label' ('GUARD')" in problem.message
    assert problem.card_field == "heroes[0]"


@pytest.mark.parametrize("icon", [
    '{id: badge, type: icon, name: star, x: 30mm, y: 7mm, w: 5mm, h: 5mm}',   # beside the last letter
    '{id: badge, type: icon, name: star, x: 12mm, y: 1mm, w: 5mm, h: 5mm}',   # above the line
])
def test_an_icon_beside_or_above_the_words_is_no_problem(tiny, icon):
    ops, problems = faces_of(tiny, "boxes:\n" + TEXT + f"  - {icon}\n")
    assert covers(problems) == []


def test_an_icon_under_the_text_is_a_background_not_a_cover(tiny):
    ops, problems = faces_of(tiny, "boxes:\n"
                             '  - {id: badge, type: icon, name: star, x: 12mm, y: 7mm, w: 5mm, h: 5mm}\n' + TEXT)
    assert covers(problems) == []


def test_the_shipped_stage_cards_paint_no_icon_over_their_text(in_repo):
    """The obstacle at the head of a respawn hid the third thug of 改札前's respawn 1, the boss
    crown the E of STAGE on the boss stages (fatal-fight/stage.yaml)."""
    from generator.cards import CardBuilder
    from generator.content import load_game

    game = load_game(in_repo / "content" / "fatal-fight")
    problems = []
    faces = CardBuilder(game).component_faces(game.component("stages"), problems)
    faces.check_all()
    assert covers(problems) == []
    kaisatsu = next(i for i, r in enumerate(game.component("stages").records) if r["id"] == "s2_n1")  # 改札前
    [respawn] = [op for op in faces.fronts[kaisatsu] if op.id == "respawn" and op.payload.text.startswith("①")]
    assert respawn.payload.text == "①:enemy::enemy::enemy:"  # one line: three thugs beside the obstacle
