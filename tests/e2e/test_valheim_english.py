"""Valheim's English edition is whole: every printed text has its English, fits its box, and the English
print file holds no Japanese word (a designer can send it to an English-speaking playtest group)."""
import re

import pypdfium2 as pdfium

from test_shipped_games import pnp

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]+")  # kana, kanji, full-width forms


def test_validate_finds_no_valheim_text_without_english_and_every_english_text_fits():
    proc = pnp("validate", "valheim", "--lang", "en", "--no-balance", "-v")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # a text too long for its box is an error
    lacking = [line for line in proc.stdout.splitlines() + proc.stderr.splitlines()
               if "no 'en' text" in line or ": only ja" in line]
    assert lacking == []
    assert proc.stdout.strip() == ""  # nor the warning that the rulebook prints its Japanese chapters


def test_the_english_print_file_prints_no_japanese(tmp_path):
    proc = pnp("build", "valheim", "--lang", "en", "--no-validate", "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pdf = pdfium.PdfDocument(tmp_path / "print-a4.pdf")
    pages = [page.get_textpage().get_text_range() for page in pdf]
    japanese = {JAPANESE.search(text)[0] for text in pages if JAPANESE.search(text)}
    assert japanese == set()
    cards = "\n".join(pages)
    assert "On reveal:" in cards and "Avatar of the Inferno" in cards  # a market card's text, a boss's name


def test_the_english_rulebook_prints_no_japanese(tmp_path):
    proc = pnp("rulebook", "valheim", "--lang", "en", "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(tmp_path / "rulebook.pdf"))
    assert set(JAPANESE.findall(text)) == set()  # list bullets too: '•' in English, as the rulebook's words say
    assert re.search(r"^•", text, re.MULTILINE)
    assert "Playing a round" in text and "Q&A and proposals" in text  # chapters 4 and 8, in English
