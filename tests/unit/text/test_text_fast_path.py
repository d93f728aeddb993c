"""One-style text takes a path without an object per character: it must lay out exactly as
the general path does (same lines, runs, widths, sizes, problems)."""
import random

import pytest

import generator.text.layout as layout_module
from generator.text.layout import layout_text

from text_engine_samples import CARD_TEXTS

PIECES = ["敵", "集団", "１つ", "を", "指定し", "、", "その", "先頭", "。", "「", "」", "（", "）", "ー",
          "ッ", "ゃ", "…", "——", "！？", "Attack", "the", "guard", "HP", "12", "3.5", " ", "  ", "\n",
          "ﾀﾞﾒｰｼﾞ", "・", "AP+1", "(", ")", "x", "ABC（", "：", "；", "，", "．", "！", "？", "＋", "ＡＰ３",
          "ｘ", "［", "］"]


def random_texts(n, seed=11):
    rng = random.Random(seed)
    for _ in range(n):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40)))
        yield f"**{text}**" if rng.random() < 0.2 and text.strip() else text


def both_paths(monkeypatch, text, fonts, **kw):
    fast = layout_text(text, fonts, **kw)
    with monkeypatch.context() as m:
        m.setattr(layout_module, "plain_lines", lambda *a: None)
        general = layout_text(text, fonts, **kw)
    return fast, general


@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_fast_path_matches_the_general_path(monkeypatch, fonts, align):
    rng = random.Random(align)
    texts = list(random_texts(300)) + list(CARD_TEXTS)
    for text in texts:
        width = rng.choice([20.0, 45.0, 90.0, 140.0])
        kw = dict(size=9.0, min_size=6.0, width=width, height=rng.choice([12.0, 30.0, 80.0]), align=align)
        fast, general = both_paths(monkeypatch, text, fonts, **kw)
        assert fast == general, (text, kw)


def test_full_width_punctuation_is_not_part_of_a_latin_word_on_either_path(monkeypatch, fonts):
    for text in ("wordABC（くー「え", "**wordABC（くー「え**"):
        fast, general = both_paths(monkeypatch, text, fonts, size=9, width=65.7, height=1000)
        assert fast == general
        assert ["".join(run.text for run in line.runs) for line in fast.lines] == ["wordABC", "（くー「え"]


def test_the_fast_path_is_taken_for_one_style_text(monkeypatch, fonts):
    calls = []
    real = layout_module.plain_lines

    def spy(*args):
        result = real(*args)
        calls.append(result is not None)
        return result
    monkeypatch.setattr(layout_module, "plain_lines", spy)
    layout_text("敵集団１つを指定し、その先頭１人にダメージを与える。", fonts, size=9, width=60, height=60)
    layout_text("**全部太字**", fonts, size=9, width=60, height=60)
    layout_text("一部だけ**太字**", fonts, size=9, width=60, height=60)   # two styles: general path
    assert calls == [True, True, False]
