"""A sheet profile that declares a safe zone (the print-shop upload: 1/8 in) warns on `pnp build` and
`pnp validate` when a text comes nearer the cut, once per layout box at its line, naming the card that
comes nearest. Only `pnp export` checked it before: a print-shop PDF with a title 2 mm from the cut was
built without a word. A profile that declares none (the home printers') is not checked."""
from generator import sheets
from generator.build import build_game
from generator.profiles import load_profile
from generator.units import mm
from generator.validate import check_content, validate_game


def _title_at(tiny, x_mm: str) -> int:
    """Move the hero title's box to ``x_mm``; returns the line of its ``- id: title``."""
    layout = tiny / "layouts" / "tiny" / "hero.yaml"
    text = layout.read_text(encoding="utf-8")
    old = "  - id: title\n    type: text\n    x: 5mm\n"
    assert old in text
    layout.write_text(text.replace(old, old.replace("5mm", x_mm)), encoding="utf-8")
    return text.splitlines().index("  - id: title") + 1


def _safe(problems):
    return [p for p in problems if "safe zone" in p.message]


def test_a_print_shop_build_warns_once_per_box_at_its_line_with_the_nearest_card(tiny, tmp_path):
    line = _title_at(tiny, "2mm")
    result = build_game(tiny, tmp_path / "shop", profile="print-shop", validate=False)
    assert result.ok
    (warning,) = _safe(result.problems)          # one per box, not one per card
    assert warning.severity == "warning"
    assert (warning.location.path, warning.location.line) == (str(tiny / "layouts/tiny/hero.yaml"), line)
    assert warning.field == "box 'title'"
    assert warning.message.startswith(
        "its text comes 2.0 mm from the cut of sheet profile 'print-shop', which asks text to stay 3.175 mm"
        " inside its trim (its safe zone), on 3 faces: move the box 1.2 mm inward")
    heroes = (tiny / "heroes.yaml").read_text(encoding="utf-8").splitlines()
    assert (warning.card.path, warning.card.line) == (str(tiny / "heroes.yaml"), heroes.index("- id: knight") + 1)
    assert warning.card_field == "heroes[0] 'knight'"


def test_a_profile_without_a_safe_zone_and_text_inside_one_are_not_warned(tiny, tmp_path):
    shop = build_game(tiny, tmp_path / "shop", profile="print-shop", validate=False)   # the title at 5 mm
    assert shop.ok and _safe(shop.problems) == []
    _title_at(tiny, "2mm")
    home = build_game(tiny, tmp_path / "home", profile="a4-portrait", validate=False)
    assert home.ok and _safe(home.problems) == []


def test_validate_warns_on_the_safe_zone_of_the_profile_the_game_prints_on(tiny, tmp_path):
    line = _title_at(tiny, "2mm")
    assert _safe(validate_game(tiny, balance=False, output_dir=tmp_path).problems) == []   # a4-portrait: none
    own = tiny / "layouts" / "profiles"
    own.mkdir(parents=True)
    (own / "a4-safe.yaml").write_text("paper: a4\nsafe: 3mm\n", encoding="utf-8")
    game_yaml = tiny / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("profile: a4-portrait", "profile: a4-safe"),
                         encoding="utf-8")
    (warning,) = _safe(validate_game(tiny, balance=False, output_dir=tmp_path).problems)
    assert warning.location.line == line
    assert "sheet profile 'a4-safe', which asks text to stay 3 mm inside its trim" in warning.message


def test_the_print_shop_profile_declares_a_safe_zone_and_its_proof_draws_that_line(tiny, monkeypatch):
    shop = load_profile("print-shop", tiny, "long-edge").profile
    assert shop.safe == mm(3.175)
    assert load_profile("a4-portrait", tiny, "long-edge").profile.safe is None
    drawn = []
    from generator.export import proof

    monkeypatch.setattr(proof, "draw_proof", lambda *args, safe, **kw: drawn.append(safe))
    game, cards, _ = check_content(tiny, check_faces=False)
    sheets.render_print_pdf(cards, shop, title=game.title, proof=True)
    assert drawn and set(drawn) == {mm(3.175)}
