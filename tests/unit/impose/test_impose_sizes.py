import pytest

from generator.errors import GeneratorError
from generator.impose import CARD_MM, PAPER_MM, mm, named_size, to_mm
from generator.impose.sizes import fmt_mm, paper_name


def test_mm_is_72_points_per_inch():
    assert mm(25.4) == pytest.approx(72.0)
    assert to_mm(mm(63)) == pytest.approx(63)


def test_card_sizes_are_the_print_facts():
    assert CARD_MM == {
        "poker": (63, 88), "bridge": (57, 89), "mini-euro": (44, 68), "mini-us": (41, 63),
        "euro": (59, 92), "tarot": (70, 120), "square": (70, 70), "big-square": (89, 89),
    }


def test_letter_is_derived_from_inches():
    assert named_size("letter") == pytest.approx((8.5 * 72, 11 * 72))
    assert PAPER_MM["a4"] == (210, 297)


def test_named_size_orients_and_normalises():
    assert named_size("a4-landscape") == pytest.approx((mm(297), mm(210)))
    assert named_size("A4_Portrait") == pytest.approx((mm(210), mm(297)))
    assert named_size("poker") == pytest.approx((mm(63), mm(88)))
    assert named_size("tarot-landscape") == pytest.approx((mm(120), mm(70)))


def test_named_size_unknown_lists_names_and_is_a_key_error():
    with pytest.raises(KeyError) as info:
        named_size("pokr")
    assert isinstance(info.value, GeneratorError)
    message = str(info.value)
    assert message.startswith("unknown size 'pokr' (did you mean 'poker'?); expected a paper (a1, a2,")
    assert "big-square, bridge, euro, mini-euro, mini-us, poker, square, tarot" in message


def test_paper_name_for_messages():
    assert paper_name(named_size("a4")) == "A4 portrait"
    assert paper_name(named_size("letter-landscape")) == "Letter landscape"
    assert paper_name((mm(200), mm(300))) == "a 200x300 mm sheet"
    assert fmt_mm(mm(63.5)) == "63.5"
